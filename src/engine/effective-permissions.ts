/**
 * Effective permissions: for each permission a plan touches, the users who hold it before the
 * plan (the live organization) and after it (the live organization with the plan's changes
 * applied), and so who gains and who loses it. Pure: no I/O.
 *
 * Who holds a group-setting permission is what Zulip checks, not the groups the value names:
 * - the recursive members of its groups (zerver/lib/user_groups.py
 *   `get_recursive_group_members`: through every level of subgroups, active users only), and
 *   its direct members when it is an anonymous group. Role system groups nest as Zulip makes
 *   them (`create_system_user_groups_for_realm`): role:owners ⊂ role:administrators ⊂
 *   role:moderators ⊂ role:fullmembers ⊂ role:members ⊂ role:everyone;
 * - whoever Zulip lets through besides it: the `alsoHeldBy` of the setting in the model's
 *   permission tables (`src/model/permissions.ts`), e.g. organization administrators
 *   administer every channel;
 * - never a guest when the setting does not allow `role:everyone`
 *   (`user_has_permission_for_group_setting`);
 * - never a deactivated user. Bots hold what their roles and groups give them, as Zulip
 *   treats them as users; a bot may also post where its owner may (`access_stream_for_send_message`),
 *   which is not counted.
 *
 * Touched permissions are the settings a change sets, the settings of objects the plan creates
 * that differ from Zulip's default, and every setting of any channel or group whose holders
 * change because a group's recursive membership changes (members or subgroups added or
 * removed, a new group nested in another, a user's role changing the role groups). A user who
 * becomes a member is counted as a full member (Zulip decides that by account age, which the
 * plan does not know).
 *
 * Cost: groups are expanded lazily and once per world (memoised), holder sets are memoised by
 * what makes them (their groups, users and guest rule), and gains and losses by the pair of
 * those; only groups reachable from a changed group are compared, and only settings naming
 * one of them are expanded.
 */
import { resourceAddress } from '../model/address';
import type { GroupSettingValue } from '../model/desired-state';
import { ROLES, isSystemGroupName } from '../model/kinds';
import type { ResourceKind } from '../model/kinds';
import type { LiveState, WireGroupSettingValue } from '../model/live-state';
import {
  CHANNEL_PERMISSIONS,
  GROUP_PERMISSIONS,
  ORGANIZATION_PERMISSIONS,
} from '../model/permissions';
import type { PermissionSettingInfo } from '../model/permissions';
import { ORGANIZATION_SETTINGS_KEY } from '../model/organization-settings';
import type { LiveIndex } from './live-index';
import type {
  Change,
  JsonValue,
  PermissionEffect,
  PlanPermissions,
  UserAbilities,
} from './plan-format';

/** Options of {@link effectivePermissions}. */
export interface EffectivePermissionOptions {
  /**
   * The organization's own group settings by wire name (`can_manage_all_groups`), when the
   * live state has them: holders they let through are counted; otherwise each permission
   * says which it could not count (`notCounted`).
   */
  readonly realm?: Readonly<Record<string, WireGroupSettingValue>>;
  /** Users named per gained or lost list (the rest are counted); default 20. */
  readonly maxNames?: number;
  /** Users with their abilities listed (the rest are counted); default 50. */
  readonly maxUsers?: number;
}

/** Change ids listed per permission (a hundred promotions all reach role:moderators). */
const MAX_CAUSES = 20;

type Table = Readonly<Record<string, PermissionSettingInfo>>;

/** The kinds whose objects carry group-setting permissions, with their table. */
function tableOf(kind: ResourceKind): Table | undefined {
  if (kind === 'channel') return CHANNEL_PERMISSIONS;
  if (kind === 'userGroup') return GROUP_PERMISSIONS;
  if (kind === 'organizationSettings') return ORGANIZATION_PERMISSIONS;
  return undefined;
}

/** A group-setting value with IDs resolved: users and groups. */
interface Value {
  readonly users: readonly number[];
  readonly groups: readonly number[];
}

function fromWire(v: WireGroupSettingValue | undefined): Value | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number') return { users: [], groups: [v] };
  return { users: v.direct_members, groups: v.direct_subgroups };
}

/** Role → the system groups a user of that role is a direct member of (`do_change_user_role`). */
const ROLE_GROUPS: Record<number, readonly string[]> = {
  [ROLES.owner]: ['role:owners'],
  [ROLES.administrator]: ['role:administrators'],
  [ROLES.moderator]: ['role:moderators'],
  // `update_users_in_full_members_system_group`: a member past the waiting period.
  [ROLES.member]: ['role:members', 'role:fullmembers'],
  [ROLES.guest]: ['role:everyone'],
};
const ROLE_GROUP_NAMES = [
  'role:owners',
  'role:administrators',
  'role:moderators',
  'role:members',
  'role:fullmembers',
  'role:everyone',
];

/** One state of the organization's groups and roles: the live one, or the one after the plan. */
class World {
  private readonly expanded = new Map<number, ReadonlySet<number>>();
  private readonly holders = new Map<string, ReadonlySet<number>>();
  /**
   * `base`: a world whose groups hold the same users as this one's, except `changed` ones
   * (and guests the same unless `guestsDiffer`): their sets are shared, not built again.
   */
  public constructor(
    private readonly members: (gid: number) => readonly number[],
    public readonly subgroups: (gid: number) => readonly number[],
    public readonly active: ReadonlySet<number>,
    public readonly guests: ReadonlySet<number>,
    private readonly base?: { world: World; changed: ReadonlySet<number>; guestsDiffer: boolean },
  ) {}

  /** The active users of a group, through every level of subgroups (memoised). */
  public expand(gid: number, visiting = new Set<number>()): ReadonlySet<number> {
    const done = this.expanded.get(gid);
    if (done) return done;
    if (this.base && gid > 0 && !this.base.changed.has(gid)) {
      const shared = this.base.world.expand(gid);
      this.expanded.set(gid, shared);
      return shared;
    }
    // Zulip refuses cycles (`lock_subgroups_with_respect_to_supergroup`); guard anyway.
    if (visiting.has(gid)) return new Set();
    visiting.add(gid);
    const direct = this.members(gid);
    const subs = this.subgroups(gid);
    let out: ReadonlySet<number>;
    const only = subs[0];
    if (direct.length === 0 && subs.length === 1 && only !== undefined)
      out = this.expand(only, visiting);
    else {
      const set = new Set<number>();
      for (const u of direct) if (this.active.has(u)) set.add(u);
      for (const s of subs) for (const u of this.expand(s, visiting)) set.add(u);
      out = set;
    }
    visiting.delete(gid);
    this.expanded.set(gid, out);
    return out;
  }

  /** Holders of a signature (memoised by its key). */
  public holdersOf(sig: Signature): ReadonlySet<number> {
    const done = this.holders.get(sig.key);
    if (done) return done;
    const base = this.base;
    if (
      base &&
      !(sig.noGuests && base.guestsDiffer) &&
      sig.groups.every((g) => g > 0 && !base.changed.has(g))
    ) {
      const shared = base.world.holdersOf(sig);
      this.holders.set(sig.key, shared);
      return shared;
    }
    let out: ReadonlySet<number>;
    const only = sig.groups[0];
    if (sig.users.length === 0 && sig.groups.length === 1 && only !== undefined && !sig.noGuests)
      out = this.expand(only);
    else {
      // Guests are left out as each user is added: one look-up per holder, never a pass over
      // every guest of the organization per signature.
      const set = new Set<number>();
      const guests = sig.noGuests && this.guests.size > 0 ? this.guests : undefined;
      for (const g of sig.groups) for (const u of this.expand(g)) if (!guests?.has(u)) set.add(u);
      for (const u of sig.users) if (this.active.has(u) && !guests?.has(u)) set.add(u);
      out = set;
    }
    this.holders.set(sig.key, out);
    return out;
  }
}

/** Who gains and who loses between two holder sets, and their sizes. */
interface Diff {
  readonly gained: number[];
  readonly lost: number[];
  readonly before: number;
  readonly after: number;
}

/** What a permission's holders are made of in one world; `key` identifies it. */
interface Signature {
  readonly groups: readonly number[];
  readonly users: readonly number[];
  readonly noGuests: boolean;
  readonly key: string;
  /** Organization settings that let people through and could not be counted. */
  readonly notCounted: readonly string[];
}

/** An object with permissions: its settings before (undefined: new) and after (undefined: gone). */
interface PermObject {
  readonly kind: ResourceKind;
  readonly address: string;
  path: string | null;
  readonly table: Table;
  before: Readonly<Record<string, Value>> | undefined;
  after: Record<string, Value> | undefined;
  /** Setting name → ids of the changes that set it. */
  readonly setBy: Map<string, string[]>;
  createdBy?: string;
}

function sortedUnique(xs: Iterable<number>): number[] {
  return [...new Set(xs)].sort((a, b) => a - b);
}

/**
 * The effective permissions of a plan (see the module comment). `changes` are the plan's
 * finished changes; `idx` the live index the planner used (its group renames included).
 */
export function effectivePermissions(
  changes: readonly Change[],
  live: LiveState,
  idx: LiveIndex,
  options: EffectivePermissionOptions = {},
): PlanPermissions {
  const maxNamed = options.maxNames ?? 20;
  const maxNames = maxNamed;
  const maxUsers = options.maxUsers ?? 50;

  // --- Group names after the plan → IDs (new groups get negative IDs). ---
  const nameToId = new Map<string, number>();
  for (const g of live.userGroups) {
    const name = idx.groupNameOf(g.id);
    const prev = nameToId.get(name);
    if (prev === undefined || idx.groupsById.get(prev)?.deactivated) nameToId.set(name, g.id);
  }
  let nextNew = -1;
  for (const c of changes)
    if (c.kind === 'userGroup' && c.action === 'create') nameToId.set(c.key, nextNew--);
  const userId = (email: string): number | undefined => idx.user(email)?.id;
  const fromNatural = (v: JsonValue | GroupSettingValue | undefined): Value | undefined => {
    if (typeof v === 'string') {
      const id = nameToId.get(v);
      return id === undefined ? undefined : { users: [], groups: [id] };
    }
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const users = Array.isArray(v.users) ? v.users : [];
      const groups = Array.isArray(v.groups) ? v.groups : [];
      return {
        users: users.flatMap((e) => {
          const id = typeof e === 'string' ? userId(e) : undefined;
          return id === undefined ? [] : [id];
        }),
        groups: groups.flatMap((n) => {
          const id = typeof n === 'string' ? nameToId.get(n) : undefined;
          return id === undefined ? [] : [id];
        }),
      };
    }
    return undefined;
  };

  // --- The world after the plan: memberships, subgroups and roles changed by the plan. ---
  const afterMemberSets = new Map<number, Set<number>>();
  const afterSubgroups = new Map<number, number[]>();
  const directlyChanged = new Map<number, Set<string>>(); // group → change ids
  const mark = (gid: number, changeId: string): void => {
    const s = directlyChanged.get(gid) ?? new Set<string>();
    s.add(changeId);
    directlyChanged.set(gid, s);
  };
  const liveGroup = (gid: number) => (gid > 0 ? idx.groupsById.get(gid) : undefined);
  const membersAfter = (gid: number): Set<number> => {
    let set = afterMemberSets.get(gid);
    if (!set) {
      set = new Set(liveGroup(gid)?.members ?? []);
      afterMemberSets.set(gid, set);
    }
    return set;
  };
  const roleAfter = new Map<number, number>();
  const roleChangeOf = new Map<number, string>();
  const roleGroupIds = ROLE_GROUP_NAMES.map((name) => [name, nameToId.get(name)] as const);
  for (const c of changes) {
    if (c.kind === 'userGroup' && c.action === 'membership') {
      const gid = c.liveId ?? nameToId.get(c.key);
      if (gid === undefined) continue;
      const members = membersAfter(gid);
      for (const u of c.remove) members.delete(u.id);
      for (const u of c.add) members.add(u.id);
      const subId = (g: { name: string; id: number | null }): number | undefined =>
        g.id ?? nameToId.get(g.name);
      const removeG = new Set(c.removeSubgroups.map(subId));
      const subs = afterSubgroups.get(gid) ?? [...(liveGroup(gid)?.subgroups ?? [])];
      afterSubgroups.set(gid, [
        ...subs.filter((s) => !removeG.has(s)),
        ...c.addSubgroups.flatMap((g) => {
          const id = subId(g);
          return id === undefined ? [] : [id];
        }),
      ]);
      mark(gid, c.id);
    }
    if (c.kind === 'user' && c.action === 'update' && c.liveId !== null) {
      const role = c.properties.find((p) => p.property === 'role');
      const after =
        typeof role?.after === 'string' ? (ROLES as Record<string, number>)[role.after] : undefined;
      const before = idx.usersById.get(c.liveId)?.role;
      if (after === undefined || before === undefined || after === before) continue;
      roleAfter.set(c.liveId, after);
      roleChangeOf.set(c.liveId, c.id);
      for (const [name, gid] of roleGroupIds) {
        if (gid === undefined) continue;
        const members = membersAfter(gid);
        const wants = (ROLE_GROUPS[after] ?? []).includes(name);
        if (members.has(c.liveId) === wants) continue;
        if (wants) members.add(c.liveId);
        else members.delete(c.liveId);
        mark(gid, c.id);
      }
    }
  }
  for (const c of changes)
    if (c.kind === 'userGroup' && c.action === 'create') {
      const gid = nameToId.get(c.key);
      if (gid !== undefined) mark(gid, c.id);
    }
  const afterMembers = new Map<number, number[]>();
  for (const [gid, set] of afterMemberSets) afterMembers.set(gid, [...set]);

  const active = new Set<number>();
  const guestsBefore = new Set<number>();
  const guestsAfter = new Set<number>();
  for (const u of live.users) {
    if (!u.isActive) continue;
    active.add(u.id);
    if (u.role === ROLES.guest) guestsBefore.add(u.id);
    if ((roleAfter.get(u.id) ?? u.role) === ROLES.guest) guestsAfter.add(u.id);
  }
  const before = new World(
    (gid) => liveGroup(gid)?.members ?? [],
    (gid) => liveGroup(gid)?.subgroups ?? [],
    active,
    guestsBefore,
  );

  // --- Groups whose holders differ: the changed ones and the groups above them, kept only
  // where the recursive members do differ (a member who becomes a moderator stays in
  // role:members through role:moderators). ---
  const parents = (world: World): Map<number, number[]> => {
    const out = new Map<number, number[]>();
    const ids = new Set<number>([...idx.groupsById.keys(), ...nameToId.values()]);
    for (const g of ids)
      for (const s of world.subgroups(g)) {
        const list = out.get(s);
        if (list) list.push(g);
        else out.set(s, [g]);
      }
    return out;
  };
  // Users whose groups may differ: those added or removed anywhere, those whose role changes,
  // and the members of subgroups added or removed. A group's recursive members differ only
  // among them, so only their groups are compared, never whole expansions.
  const affected = new Set<number>(roleAfter.keys());
  const subgroupMoves = new Set<number>();
  for (const c of changes)
    if (c.kind === 'userGroup' && c.action === 'membership') {
      for (const u of c.add) affected.add(u.id);
      for (const u of c.remove) affected.add(u.id);
      for (const g of [...c.addSubgroups, ...c.removeSubgroups]) {
        const id = g.id ?? nameToId.get(g.name);
        if (id !== undefined) subgroupMoves.add(id);
      }
    }
  const afterSubWorld = new World(
    (gid) => afterMembers.get(gid) ?? liveGroup(gid)?.members ?? [],
    (gid) => afterSubgroups.get(gid) ?? liveGroup(gid)?.subgroups ?? [],
    active,
    guestsAfter,
  );
  for (const g of subgroupMoves) {
    if (g > 0) for (const u of before.expand(g)) affected.add(u);
    for (const u of afterSubWorld.expand(g)) affected.add(u);
  }
  // New groups: nothing before.
  const changedGroups = new Set<number>([...nameToId.values()].filter((g) => g < 0));
  if (affected.size > 0) {
    const directOf = (world: 'before' | 'after'): Map<number, number[]> => {
      const out = new Map<number, number[]>();
      const ids = new Set<number>([...idx.groupsById.keys(), ...nameToId.values()]);
      for (const g of ids) {
        const members =
          world === 'after'
            ? (afterMembers.get(g) ?? liveGroup(g)?.members ?? [])
            : (liveGroup(g)?.members ?? []);
        for (const u of members)
          if (affected.has(u)) {
            const l = out.get(u);
            if (l) l.push(g);
            else out.set(u, [g]);
          }
      }
      return out;
    };
    const up = (world: 'before' | 'after'): Map<number, number[]> => {
      const out = new Map<number, number[]>();
      const ids = new Set<number>([...idx.groupsById.keys(), ...nameToId.values()]);
      for (const g of ids)
        for (const sub of world === 'after'
          ? (afterSubgroups.get(g) ?? liveGroup(g)?.subgroups ?? [])
          : (liveGroup(g)?.subgroups ?? [])) {
          const l = out.get(sub);
          if (l) l.push(g);
          else out.set(sub, [g]);
        }
      return out;
    };
    const groupsOf = (
      direct: Map<number, number[]>,
      parentsOf: Map<number, number[]>,
      u: number,
    ): Set<number> => {
      const seen = new Set<number>();
      const stack = [...(direct.get(u) ?? [])];
      while (stack.length > 0) {
        const g = stack.pop() as number;
        if (seen.has(g)) continue;
        seen.add(g);
        for (const q of parentsOf.get(g) ?? []) stack.push(q);
      }
      return seen;
    };
    const [db, da, pb, pa] = [directOf('before'), directOf('after'), up('before'), up('after')];
    for (const u of affected) {
      if (!active.has(u)) continue;
      const gb = groupsOf(db, pb, u);
      const ga = groupsOf(da, pa, u);
      for (const g of gb) if (!ga.has(g)) changedGroups.add(g);
      for (const g of ga) if (!gb.has(g)) changedGroups.add(g);
    }
  }
  const causes = new Map<number, Set<string>>(); // group → change ids that change its holders
  const keep = new Set<number>(); // groups whose holders change though their members may not
  if (directlyChanged.size > 0) {
    const up = [parents(before), parents(afterSubWorld)];
    // A user who becomes or stops being a guest changes what every group holding them gives
    // for settings that exclude guests, though the groups' members stay the same.
    const flips = new Map(
      [...roleChangeOf].filter(([u]) => guestsBefore.has(u) !== guestsAfter.has(u)),
    );
    if (flips.size > 0)
      for (const g of live.userGroups)
        for (const u of g.members) {
          const id = flips.get(u);
          if (id === undefined) continue;
          mark(g.id, id);
          keep.add(g.id);
        }
    const walk = (from: number, each: (g: number) => void): void => {
      const stack = [from];
      const seen = new Set<number>();
      while (stack.length > 0) {
        const g = stack.pop() as number;
        if (seen.has(g)) continue;
        seen.add(g);
        each(g);
        for (const p of up) for (const q of p.get(g) ?? []) stack.push(q);
      }
    };
    for (const [gid, ids] of directlyChanged)
      walk(gid, (g) => {
        const s = causes.get(g) ?? new Set<string>();
        for (const id of ids) s.add(id);
        causes.set(g, s);
      });
    for (const g of [...keep]) walk(g, (x) => keep.add(x));
    for (const g of [...causes.keys()])
      if (!keep.has(g) && g > 0 && !changedGroups.has(g)) causes.delete(g);
  }
  const after = new World(
    (gid) => afterMembers.get(gid) ?? liveGroup(gid)?.members ?? [],
    (gid) => afterSubgroups.get(gid) ?? liveGroup(gid)?.subgroups ?? [],
    active,
    guestsAfter,
    { world: before, changed: changedGroups, guestsDiffer: roleAfter.size > 0 },
  );

  // --- The objects with permissions: live ones, and those the plan creates. ---
  const objects = new Map<string, PermObject>();
  const liveObject = (
    address: string,
    kind: ResourceKind,
    liveId: number,
  ): PermObject | undefined => {
    const have = objects.get(address);
    if (have) return have;
    const table = tableOf(kind);
    if (!table) return undefined;
    const o =
      kind === 'channel'
        ? idx.channelsById.get(liveId)
        : kind === 'userGroup'
          ? idx.groupsById.get(liveId)
          : kind === 'organizationSettings'
            ? (live.organizationSettings ?? undefined)
            : undefined;
    if (!o) return undefined;
    const values: Record<string, Value> = {};
    for (const [name, info] of Object.entries(table)) {
      const v = fromWire(o.permissions[info.wire]);
      if (v) values[name] = v;
    }
    const made: PermObject = {
      kind,
      address,
      path: null,
      table,
      before: values,
      after: { ...values },
      setBy: new Map(),
    };
    objects.set(address, made);
    return made;
  };
  for (const c of changes) {
    const table = tableOf(c.kind);
    if (!table) continue;
    if (c.action === 'create') {
      const values: Record<string, Value> = {};
      for (const name of Object.keys(table)) {
        const v = fromNatural(c.properties[`permissions.${name}`]);
        if (v) values[name] = v;
      }
      const o: PermObject = {
        kind: c.kind,
        address: c.address,
        path: c.path,
        table,
        before: undefined,
        after: values,
        setBy: new Map(),
        createdBy: c.id,
      };
      // Settings that differ from Zulip's default are what the configuration gives.
      for (const [name, info] of Object.entries(table)) {
        const value = c.properties[`permissions.${name}`];
        if (value === undefined || isDefault(value, info, live)) continue;
        o.setBy.set(name, [c.id]);
      }
      objects.set(c.address, o);
    } else if (c.action === 'update') {
      const o =
        c.liveId === null ? objects.get(c.address) : liveObject(c.address, c.kind, c.liveId);
      if (!o || !o.after) continue;
      o.path = c.path;
      for (const p of c.properties) {
        if (!p.property.startsWith('permissions.')) continue;
        const name = p.property.slice('permissions.'.length);
        const v = fromNatural(p.after);
        if (!v) continue;
        o.after[name] = v;
        o.setBy.set(name, [...(o.setBy.get(name) ?? []), c.id]);
      }
    } else if (
      (c.action === 'archive' || c.action === 'deactivate') &&
      (c.kind === 'channel' || c.kind === 'userGroup')
    ) {
      // An archived channel or deactivated group: nobody holds its permissions any more.
      const o = liveObject(c.address, c.kind, c.liveId);
      if (o) {
        o.after = undefined;
        o.path = c.path;
      }
    }
  }
  // Live objects whose settings name a group whose holders change, under the address the plan
  // gives them (a renamed one under its new name).
  const addressOf = new Map<string, string>();
  for (const c of changes)
    if ('liveId' in c && c.liveId !== null) addressOf.set(`${c.kind}:${c.liveId}`, c.address);
  if (causes.size > 0) {
    const touches = (v: WireGroupSettingValue | undefined): boolean =>
      v !== undefined &&
      (typeof v === 'number' ? causes.has(v) : v.direct_subgroups.some((g) => causes.has(g)));
    for (const ch of live.channels) {
      if (ch.archived) continue;
      if (Object.values(ch.permissions).some(touches))
        liveObject(
          addressOf.get(`channel:${ch.id}`) ?? resourceAddress('channel', ch.name),
          'channel',
          ch.id,
        );
    }
    for (const g of live.userGroups) {
      if (g.isSystemGroup || g.deactivated) continue;
      if (Object.values(g.permissions).some(touches))
        liveObject(resourceAddress('userGroup', idx.groupNameOf(g.id)), 'userGroup', g.id);
    }
    // The organization's own settings (one object; its changes carry the liveId 0).
    if (Object.values(live.organizationSettings?.permissions ?? {}).some(touches))
      liveObject(
        resourceAddress('organizationSettings', ORGANIZATION_SETTINGS_KEY),
        'organizationSettings',
        0,
      );
  }
  // Paths of objects reached only through groups: their declaring change, if any.
  for (const c of changes) {
    const o = objects.get(c.address);
    if (o && o.path === null) o.path = c.path;
  }

  // --- Holders before and after, and who gains and loses. ---
  const adminsId = nameToId.get('role:administrators');
  const signature = (
    values: Readonly<Record<string, Value>>,
    info: PermissionSettingInfo,
    name: string,
  ): Signature => {
    const groups: number[] = [];
    const users: number[] = [];
    const notCounted: string[] = [];
    const add = (v: Value | undefined): void => {
      if (!v) return;
      groups.push(...v.groups);
      users.push(...v.users);
    };
    add(values[name]);
    for (const h of info.alsoHeldBy ?? []) {
      if (h.kind === 'realmAdmins' && adminsId !== undefined) groups.push(adminsId);
      else if (h.kind === 'setting') add(values[h.name]);
      else if (h.kind === 'realm') {
        const v = options.realm?.[h.wire];
        if (v === undefined) notCounted.push(h.wire);
        else add(fromWire(v));
      }
    }
    const g = sortedUnique(groups);
    const u = sortedUnique(users);
    const noGuests = !info.allowEveryone;
    return {
      groups: g,
      users: u,
      noGuests,
      key: `${noGuests ? 'n' : 'e'}|${g.join(',')}|${u.join(',')}`,
      notCounted,
    };
  };
  const diffs = new Map<string, Diff>();
  const diff = (b: Signature | undefined, a: Signature | undefined): Diff => {
    const key = `${b?.key ?? '-'}>${a?.key ?? '-'}`;
    const done = diffs.get(key);
    if (done) return done;
    const hb = b ? before.holdersOf(b) : new Set<number>();
    const ha = a ? after.holdersOf(a) : new Set<number>();
    const gained: number[] = [];
    const lost: number[] = [];
    if (hb !== ha) {
      for (const u of ha) if (!hb.has(u)) gained.push(u);
      for (const u of hb) if (!ha.has(u)) lost.push(u);
    }
    const out = { gained, lost, before: hb.size, after: ha.size };
    diffs.set(key, out);
    return out;
  };
  const emailCache = new Map<number, string>();
  const emailOf = (id: number): string => {
    let e = emailCache.get(id);
    if (e === undefined) {
      e = idx.emailOf(id);
      emailCache.set(id, e);
    }
    return e;
  };
  const named = new WeakMap<readonly number[], { count: number; users: string[] }>();
  const names = (
    ids: readonly number[],
    maxNames = maxNamed,
  ): { count: number; users: string[] } => {
    const done = named.get(ids);
    if (done) return { count: done.count, users: [...done.users] };
    // The first `maxNames` e-mails in order, without sorting them all.
    const first: string[] = [];
    for (const id of ids) {
      const e = emailOf(id);
      if (first.length === maxNames && e >= (first[maxNames - 1] as string)) continue;
      let k = first.length;
      while (k > 0 && (first[k - 1] as string) > e) k--;
      first.splice(k, 0, e);
      if (first.length > maxNames) first.pop();
    }
    const out = { count: ids.length, users: first };
    named.set(ids, out);
    return { count: out.count, users: [...first] };
  };

  const effects: PermissionEffect[] = [];
  // Effects sharing one gained/lost pair (the same groups before and after) share its users:
  // each pair's users are visited once, not once per effect.
  const effectsOf = new Map<Diff, number[]>();
  const sortedObjects = [...objects.values()].sort((x, y) =>
    x.address < y.address ? -1 : x.address > y.address ? 1 : 0,
  );
  // Whether a value names a group whose holders change, or a user who becomes or stops being
  // a guest: checked on the raw values before any signature is built.
  const flipped = new Set(
    [...roleAfter.keys()].filter((u) => guestsBefore.has(u) !== guestsAfter.has(u)),
  );
  const hit = (v: Value | undefined): boolean =>
    v !== undefined &&
    (v.groups.some((g) => causes.has(g)) ||
      (flipped.size > 0 && v.users.some((u) => flipped.has(u))));
  const adminsMove = adminsId !== undefined && causes.has(adminsId);
  for (const o of sortedObjects) {
    for (const [name, info] of Object.entries(o.table)) {
      if (!o.setBy.has(name) && o.createdBy === undefined) {
        let touched = hit(o.before?.[name]) || hit(o.after?.[name]);
        for (const h of info.alsoHeldBy ?? [])
          if (h.kind === 'realmAdmins') touched ||= adminsMove;
          else if (h.kind === 'setting')
            touched ||= o.setBy.has(h.name) || hit(o.before?.[h.name]) || hit(o.after?.[h.name]);
        if (!touched) continue;
      }
      const sb = o.before && name in o.before ? signature(o.before, info, name) : undefined;
      const sa = o.after && name in o.after ? signature(o.after, info, name) : undefined;
      if (!sb && !sa) continue;
      const set = o.setBy.get(name) ?? [];
      const why = new Set<string>(set);
      // A new object's holders are all new: its create (and the updates that set it) made them.
      if (o.createdBy === undefined)
        for (const s of [sb, sa])
          for (const g of s?.groups ?? []) for (const id of causes.get(g) ?? []) why.add(id);
      // Untouched: no change sets it or anything it follows from, and its groups are unchanged.
      const implied = (info.alsoHeldBy ?? []).some(
        (h) => h.kind === 'setting' && o.setBy.has(h.name),
      );
      if (why.size === 0 && !implied) continue;
      // On a new object, only what the configuration sets apart from Zulip's default.
      if (o.createdBy !== undefined && set.length === 0) continue;
      if (o.before && o.after === undefined) continue; // archived: not an ability change to list
      const d = diff(sb, sa);
      if (d.gained.length === 0 && d.lost.length === 0 && set.length === 0) continue;
      if (implied)
        for (const h of info.alsoHeldBy ?? [])
          if (h.kind === 'setting') for (const id of o.setBy.get(h.name) ?? []) why.add(id);
      const notCounted = [...new Set([...(sb?.notCounted ?? []), ...(sa?.notCounted ?? [])])];
      const i = effects.length;
      effects.push({
        address: o.address,
        path: o.path,
        permission: `permissions.${name}`,
        wire: info.wire,
        ability: info.ability ?? info.wire,
        changes: [...why].sort().slice(0, MAX_CAUSES),
        before: o.before ? d.before : null,
        after: d.after,
        gained: names(d.gained),
        lost: names(d.lost),
        ...(notCounted.length > 0 ? { notCounted } : {}),
      });
      const list = effectsOf.get(d);
      if (list) list.push(i);
      else effectsOf.set(d, [i]);
    }
  }
  // Everyone who gains or loses anything, counted; abilities listed for the first of them by
  // e-mail only, found by one pass over each pair's users.
  const pairs = [...effectsOf.keys()];
  const everyone = new Set<number>();
  for (const d of pairs) {
    for (const u of d.gained) everyone.add(u);
    for (const u of d.lost) everyone.add(u);
  }
  const firstUsers = new Set(names([...everyone], maxUsers).users);
  const wanted = new Map<number, { gains: number[]; loses: number[] }>();
  for (const id of everyone)
    if (firstUsers.has(emailOf(id))) wanted.set(id, { gains: [], loses: [] });
  for (const d of pairs) {
    const idxs = effectsOf.get(d) ?? [];
    for (const u of d.gained) wanted.get(u)?.gains.push(...idxs);
    for (const u of d.lost) wanted.get(u)?.loses.push(...idxs);
  }
  const ability = (i: number): { address: string; permission: string } => {
    const e = effects[i] as PermissionEffect;
    return { address: e.address, permission: e.permission };
  };
  const users: UserAbilities[] = [...wanted.entries()]
    .map(([id, w]) => ({ email: emailOf(id), w }))
    .sort((x, y) => (x.email < y.email ? -1 : x.email > y.email ? 1 : 0))
    .map(({ email, w }) => {
      const gains = w.gains.sort((a, b) => a - b);
      const loses = w.loses.sort((a, b) => a - b);
      return {
        email,
        gains: gains.slice(0, maxNames).map(ability),
        gainsCount: gains.length,
        loses: loses.slice(0, maxNames).map(ability),
        losesCount: loses.length,
      };
    });
  return { effects, users, usersCount: everyone.size };
}

/** Whether a new object's setting is Zulip's default (the creator, for `creator` defaults). */
function isDefault(value: JsonValue, info: PermissionSettingInfo, live: LiveState): boolean {
  if (info.default === 'creator')
    return (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Array.isArray(value.users) &&
      value.users.length === 1 &&
      value.users[0] === live.me.email &&
      Array.isArray(value.groups) &&
      value.groups.length === 0
    );
  return typeof value === 'string' && value === info.default && isSystemGroupName(value);
}
