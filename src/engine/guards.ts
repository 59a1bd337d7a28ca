import type { DesiredState, GroupSettingValue, Guards } from '../model/desired-state';
import { ROLES } from '../model/kinds';
import { SYSTEM_GROUP_ROLE } from '../model/system-groups';
import type { RoleName } from '../model/kinds';
import {
  ADMINISTRATOR_LEVEL_SETTINGS,
  CHANNEL_PERMISSIONS,
  GROUP_PERMISSIONS,
} from '../model/permissions';
import type { LiveState } from '../model/live-state';
import type { LiveIndex } from './live-index';
import type { Change, MembershipChange, SafetyFinding } from './plan-format';

/**
 * Guards on a plan's blast radius: the organization's `guards` (desired state) with a run's
 * overrides (`plan`/`apply` flags) on top, and `maxRemovals`. Every field is filled in.
 */
export interface EffectiveGuards {
  readonly maxRemovals: number;
  readonly maxMembersRemoved: number | undefined;
  readonly maxMembersRemovedPercent: number;
  readonly minMembersForPercent: number;
  readonly minOwners: number;
  readonly minAdministrators: number;
  readonly minAdministratorsPercent: number;
  readonly allowPrivileged: boolean;
}

/** A run's overrides of the organization's guards (CLI flags); recorded in the plan. */
export type GuardOverrides = Guards & { readonly maxRemovals?: number | undefined };

/** The defaults of every guard (see `GuardsSchema` in src/model/desired-state.ts). */
export const DEFAULT_GUARDS: EffectiveGuards = {
  maxRemovals: 10,
  maxMembersRemoved: undefined,
  maxMembersRemovedPercent: 25,
  minMembersForPercent: 4,
  minOwners: 1,
  minAdministrators: 1,
  minAdministratorsPercent: 50,
  allowPrivileged: false,
};

/** The guards a plan is checked with: defaults, then the configuration, then the run's flags. */
export function effectiveGuards(
  desired: DesiredState,
  overrides: GuardOverrides = {},
): EffectiveGuards {
  const org = desired.organization;
  const pick = <K extends keyof Guards>(k: K): Guards[K] => overrides[k] ?? org.guards?.[k];
  return {
    maxRemovals: overrides.maxRemovals ?? org.maxRemovals ?? DEFAULT_GUARDS.maxRemovals,
    maxMembersRemoved: pick('maxMembersRemoved') ?? DEFAULT_GUARDS.maxMembersRemoved,
    maxMembersRemovedPercent:
      pick('maxMembersRemovedPercent') ?? DEFAULT_GUARDS.maxMembersRemovedPercent,
    minMembersForPercent: pick('minMembersForPercent') ?? DEFAULT_GUARDS.minMembersForPercent,
    minOwners: pick('minOwners') ?? DEFAULT_GUARDS.minOwners,
    minAdministrators: pick('minAdministrators') ?? DEFAULT_GUARDS.minAdministrators,
    minAdministratorsPercent:
      pick('minAdministratorsPercent') ?? DEFAULT_GUARDS.minAdministratorsPercent,
    allowPrivileged: pick('allowPrivileged') ?? DEFAULT_GUARDS.allowPrivileged,
  };
}

/**
 * The lowest role (the highest number) whose users a system group holds. Full members are
 * members past the organization's waiting period, which the plan does not know: counted as
 * members, which can only make a widening look wider.
 */
const SYSTEM_GROUP_MAX_ROLE: Readonly<Record<string, number>> = {
  ...SYSTEM_GROUP_ROLE,
  'role:internet': ROLES.guest,
  'role:nobody': 0,
};

interface GroupMembers {
  users: Set<number>;
  subgroups: Set<string>;
}

/** Group memberships and roles at one moment (before or after the plan), by natural key. */
class Moment {
  public constructor(
    private readonly idx: LiveIndex,
    /** The active people (bots left out) and their roles as read. */
    private readonly roles: ReadonlyMap<number, number>,
    public readonly groups: ReadonlyMap<string, GroupMembers>,
    /** Roles this moment changes (after the plan): not a copy of every role. */
    private readonly changedRoles: ReadonlyMap<number, number> = new Map(),
  ) {}

  /** A person's role at this moment; undefined for anyone else (bots, deactivated users). */
  public roleOf(id: number): number | undefined {
    return this.changedRoles.get(id) ?? this.roles.get(id);
  }

  /** Everyone (active people) a group-setting value lets through. */
  public holders(value: GroupSettingValue | undefined): Set<number> {
    const out = new Set<number>();
    if (value === undefined) return out;
    if (typeof value === 'string') {
      for (const u of this.groupMembers(value)) out.add(u);
      return out;
    }
    for (const email of value.users) {
      const u = this.idx.user(email);
      if (u && this.roles.has(u.id)) out.add(u.id);
    }
    for (const g of value.groups) for (const u of this.groupMembers(g)) out.add(u);
    return out;
  }

  /** The active people in a group, through subgroups and system groups. */
  public groupMembers(name: string, seen = new Set<string>()): Set<number> {
    const out = new Set<number>();
    if (seen.has(name)) return out;
    seen.add(name);
    const maxRole = SYSTEM_GROUP_MAX_ROLE[name];
    if (maxRole !== undefined) {
      // forEach, not for-of: no entry pair per user (100,000 at scale 10).
      this.roles.forEach((role, id) => {
        if ((this.changedRoles.get(id) ?? role) <= maxRole) out.add(id);
      });
      return out;
    }
    const g = this.groups.get(name);
    if (!g) return out;
    for (const u of g.users) if (this.roles.has(u)) out.add(u);
    for (const s of g.subgroups) for (const u of this.groupMembers(s, seen)) out.add(u);
    return out;
  }

  #parents: Map<string, string[]> | undefined;

  /** `inner` and the groups it is inside, through subgroups. */
  public containing(inner: string): Set<string> {
    if (!this.#parents) {
      this.#parents = new Map();
      for (const [name, g] of this.groups)
        for (const s of g.subgroups) {
          const list = this.#parents.get(s);
          if (list) list.push(name);
          else this.#parents.set(s, [name]);
        }
    }
    const out = new Set([inner]);
    const stack = [inner];
    while (stack.length > 0)
      for (const p of this.#parents.get(stack.pop() as string) ?? [])
        if (!out.has(p)) {
          out.add(p);
          stack.push(p);
        }
    return out;
  }

  public isAdministrator(id: number): boolean {
    return (this.roleOf(id) ?? ROLES.guest) <= ROLES.administrator;
  }

  public count(maxRole: number): number {
    let n = 0;
    this.roles.forEach((role, id) => {
      if ((this.changedRoles.get(id) ?? role) <= maxRole) n += 1;
    });
    return n;
  }
}

function roleAfter(c: Change): number | undefined {
  if (c.kind !== 'user' || c.action !== 'update') return undefined;
  const p = c.properties.find((x) => x.property === 'role');
  return p && typeof p.after === 'string' ? ROLES[p.after as RoleName] : undefined;
}

/** The organization before the plan (as read) and after it (roles and memberships changed). */
function moments(changes: readonly Change[], idx: LiveIndex): { before: Moment; after: Moment } {
  const roles = new Map<number, number>();
  for (const u of idx.live.users) if (u.isActive && !u.isBot) roles.set(u.id, u.role);
  const groups = new Map<string, GroupMembers>();
  for (const g of idx.live.userGroups)
    if (!g.isSystemGroup && !g.deactivated)
      groups.set(idx.groupNameOf(g.id), {
        users: new Set(g.members),
        subgroups: new Set(g.subgroups.map((s) => idx.groupNameOf(s))),
      });
  const rolesAfter = new Map<number, number>();
  // A group is copied when the plan changes its members, not before.
  const groupsAfter = new Map(groups);
  for (const c of changes) {
    const r = roleAfter(c);
    if (r !== undefined && c.action === 'update' && c.liveId !== null && roles.has(c.liveId))
      rolesAfter.set(c.liveId, r);
    if (c.action === 'membership' && c.kind === 'userGroup') {
      let g = groupsAfter.get(c.key);
      if (!g || g === groups.get(c.key)) {
        g = { users: new Set(g?.users), subgroups: new Set(g?.subgroups) };
        groupsAfter.set(c.key, g);
      }
      for (const u of c.add) g.users.add(u.id);
      for (const u of c.remove) g.users.delete(u.id);
      for (const s of c.addSubgroups) g.subgroups.add(s.name);
      for (const s of c.removeSubgroups) g.subgroups.delete(s.name);
    }
  }
  return {
    before: new Moment(idx, roles, groups),
    after: new Moment(idx, roles, groupsAfter, rolesAfter),
  };
}

/** `permissions.canManageGroup` → `can_manage_group`, for the properties of a create. */
function wireOf(property: string): string | undefined {
  const name = property.startsWith('permissions.') ? property.slice('permissions.'.length) : '';
  const info =
    (CHANNEL_PERMISSIONS as Record<string, { wire: string }>)[name] ??
    (GROUP_PERMISSIONS as Record<string, { wire: string }>)[name];
  return info?.wire;
}

function isGroupSettingValue(v: unknown): v is GroupSettingValue {
  return (
    typeof v === 'string' ||
    (v !== null &&
      typeof v === 'object' &&
      Array.isArray((v as { users?: unknown }).users) &&
      Array.isArray((v as { groups?: unknown }).groups))
  );
}

/**
 * The groups that hold an administrator-level setting after the plan (by name): from the
 * configuration for declared channels and groups, as read for the others.
 */
function privilegedHolderGroups(desired: DesiredState, idx: LiveIndex): Map<string, string> {
  const out = new Map<string, string>();
  const note = (value: unknown, what: string): void => {
    if (!isGroupSettingValue(value)) return;
    const names = typeof value === 'string' ? [value] : value.groups;
    for (const n of names) if (!n.startsWith('role:') && !out.has(n)) out.set(n, what);
  };
  const declaredChannels = new Set(desired.channels.map((c) => c.name.toLowerCase()));
  const declaredGroups = new Set(desired.userGroups.map((g) => g.name));
  const perms = (o: object): Record<string, unknown> => o as Record<string, unknown>;
  for (const c of desired.channels)
    for (const [name, v] of Object.entries(perms(c.permissions)))
      if (ADMINISTRATOR_LEVEL_SETTINGS.has(wireOf(`permissions.${name}`) ?? ''))
        note(v, `${wireOf(`permissions.${name}`)} of channel #${c.name}`);
  for (const g of desired.userGroups)
    for (const [name, v] of Object.entries(perms(g.permissions)))
      if (ADMINISTRATOR_LEVEL_SETTINGS.has(wireOf(`permissions.${name}`) ?? ''))
        note(v, `${wireOf(`permissions.${name}`)} of group ${g.name}`);
  for (const c of idx.live.channels)
    if (!c.archived && !declaredChannels.has(c.name.toLowerCase()))
      for (const [wire, v] of Object.entries(c.permissions))
        if (ADMINISTRATOR_LEVEL_SETTINGS.has(wire))
          note(idx.groupSettingToNatural(v), `${wire} of channel #${c.name}`);
  for (const g of idx.live.userGroups)
    if (!g.isSystemGroup && !g.deactivated && !declaredGroups.has(idx.groupNameOf(g.id)))
      for (const [wire, v] of Object.entries(g.permissions))
        if (ADMINISTRATOR_LEVEL_SETTINGS.has(wire))
          note(idx.groupSettingToNatural(v), `${wire} of group ${idx.groupNameOf(g.id)}`);
  return out;
}

/** Names a few people, and how many more. */
function people(ids: Iterable<number>, idx: LiveIndex): string {
  const emails = [...ids].map((id) => idx.emailOf(id)).sort();
  const shown = emails.slice(0, 5).join(', ');
  return emails.length > 5 ? `${shown} and ${emails.length - 5} more` : shown;
}

function finding(
  code: SafetyFinding['code'],
  message: string,
  c?: { address: string; path: string | null },
): SafetyFinding {
  return {
    code,
    message,
    ...(c ? { address: c.address } : {}),
    ...(c?.path ? { path: c.path } : {}),
  };
}

/** Members (users and subgroups) or subscribers of the object now; undefined when unknown. */
function sizeNow(c: MembershipChange, idx: LiveIndex): number | undefined {
  if (c.liveId === null) return undefined;
  if (c.kind === 'channel') return idx.channelsById.get(c.liveId)?.subscribers?.length;
  const g = idx.groupsById.get(c.liveId);
  return g ? g.members.length + g.subgroups.length : undefined;
}

/**
 * The findings of the guards on the blast radius (see {@link EffectiveGuards}): memberships that
 * lose too many members, owners and administrators below their floor, and privileged changes
 * (someone gets an administrator-level ability) unless they are allowed.
 */
export function guardFindings(
  changes: readonly Change[],
  live: LiveState,
  idx: LiveIndex,
  desired: DesiredState,
  guards: EffectiveGuards,
): SafetyFinding[] {
  const findings: SafetyFinding[] = [];
  const noun = (c: MembershipChange): string =>
    c.kind === 'channel' ? 'subscribers' : 'members and subgroups';

  for (const c of changes) {
    if (c.action !== 'membership') continue;
    const removed = c.remove.length + c.removeSubgroups.length;
    const size = sizeNow(c, idx);
    if (removed === 0 || size === undefined) continue;
    const overCount = guards.maxMembersRemoved !== undefined && removed > guards.maxMembersRemoved;
    const overPercent =
      size >= guards.minMembersForPercent && removed * 100 > size * guards.maxMembersRemovedPercent;
    if (overCount || overPercent)
      findings.push(
        finding(
          'TOO_MANY_MEMBERS_REMOVED',
          `the plan removes ${removed} of the ${size} ${noun(c)}, more than ${
            overCount
              ? `the ${guards.maxMembersRemoved} allowed (maxMembersRemoved)`
              : `${guards.maxMembersRemovedPercent}% (maxMembersRemovedPercent, for ${guards.minMembersForPercent} or more)`
          }`,
          c,
        ),
      );
  }

  const { before, after } = moments(changes, idx);
  const ownersBefore = before.count(ROLES.owner);
  const ownersAfter = after.count(ROLES.owner);
  // NO_OWNER (kept from before the guards existed) when none is left; TOO_FEW_OWNERS otherwise.
  if (ownersAfter < ownersBefore && ownersAfter < guards.minOwners)
    findings.push(
      ownersAfter === 0
        ? finding('NO_OWNER', 'the organization would be left without an owner')
        : finding(
            'TOO_FEW_OWNERS',
            `the organization would be left with ${ownersAfter} owner(s), fewer than ${guards.minOwners} (minOwners)`,
          ),
    );
  const adminsBefore = before.count(ROLES.administrator);
  const adminsAfter = after.count(ROLES.administrator);
  if (adminsAfter < adminsBefore) {
    const why: string[] = [];
    if (adminsAfter < guards.minAdministrators)
      why.push(`fewer than ${guards.minAdministrators} (minAdministrators)`);
    if (adminsAfter * 100 < adminsBefore * guards.minAdministratorsPercent)
      why.push(
        `fewer than ${guards.minAdministratorsPercent}% of today's ${adminsBefore} (minAdministratorsPercent)`,
      );
    if (why.length > 0)
      findings.push(
        finding(
          'TOO_FEW_ADMINISTRATORS',
          `the organization would be left with ${adminsAfter} administrator(s) (owners included), ${why.join(' and ')}`,
        ),
      );
  }

  if (!guards.allowPrivileged)
    findings.push(...privilegedFindings(changes, idx, desired, before, after));
  return findings;
}

const PRIVILEGED_HINT = 'needs --allow-privileged';

/**
 * Changes that give someone (not an organization administrator after the plan) an
 * administrator-level ability: a role of administrator or owner, an administrator-level group
 * setting ({@link ADMINISTRATOR_LEVEL_SETTINGS}) that lets more people through, or members added
 * to a group that holds one.
 */
function privilegedFindings(
  changes: readonly Change[],
  idx: LiveIndex,
  desired: DesiredState,
  before: Moment,
  after: Moment,
): SafetyFinding[] {
  const out: SafetyFinding[] = [];
  const gainers = (was: Set<number>, now: Set<number>): number[] =>
    [...now].filter((u) => !was.has(u) && !after.isAdministrator(u));
  let holders: Map<string, string> | undefined;
  for (const c of changes) {
    const r = roleAfter(c);
    if (r !== undefined && c.action === 'update' && c.liveId !== null) {
      const was = before.roleOf(c.liveId);
      if (r <= ROLES.administrator && (was === undefined || r < was)) {
        const role = c.properties.find((p) => p.property === 'role');
        out.push(
          finding(
            'PRIVILEGED_CHANGE',
            `${c.key} would become an organization ${JSON.stringify(role?.after ?? null).replace(/"/g, '')} (is ${JSON.stringify(role?.before ?? null).replace(/"/g, '')}); ${PRIVILEGED_HINT}`,
            c,
          ),
        );
      }
      continue;
    }
    const settings: { wire: string; was: unknown; now: unknown }[] = [];
    if (c.action === 'update')
      for (const p of c.properties)
        if (p.wire !== undefined && ADMINISTRATOR_LEVEL_SETTINGS.has(p.wire))
          settings.push({ wire: p.wire, was: p.before, now: p.after });
    if (c.action === 'create')
      for (const [property, v] of Object.entries(c.properties)) {
        const wire = wireOf(property);
        if (wire !== undefined && ADMINISTRATOR_LEVEL_SETTINGS.has(wire))
          settings.push({ wire, was: undefined, now: v });
      }
    for (const s of settings) {
      const was = isGroupSettingValue(s.was) ? before.holders(s.was) : new Set<number>();
      const now = isGroupSettingValue(s.now) ? after.holders(s.now) : new Set<number>();
      const gained = gainers(was, now);
      if (gained.length > 0)
        out.push(
          finding(
            'PRIVILEGED_CHANGE',
            `${s.wire} would let ${people(gained, idx)} through (${gained.length} who could not before); ${PRIVILEGED_HINT}`,
            c,
          ),
        );
    }
    if (c.action === 'membership' && c.kind === 'userGroup') {
      holders ??= privilegedHolderGroups(desired, idx);
      const group = c.key;
      // The group itself, or a group it is (after the plan) a subgroup of, holds one.
      const containing = after.containing(group);
      const supergroups = [...holders.keys()].filter((h) => containing.has(h));
      if (supergroups.length === 0) continue;
      const gained = gainers(before.groupMembers(group), after.groupMembers(group));
      if (gained.length > 0)
        out.push(
          finding(
            'PRIVILEGED_CHANGE',
            `${people(gained, idx)} would join a group that holds ${supergroups
              .map((h) => (h === group ? holders!.get(h)! : `${holders!.get(h)!} (through ${h})`))
              .join(', ')}; ${PRIVILEGED_HINT}`,
            c,
          ),
        );
    }
  }
  return out;
}
