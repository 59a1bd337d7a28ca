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
 *   administer every channel; an organization setting the plan changes counts with its value
 *   after the plan on the after side (and the permissions following it, of objects the plan
 *   lists, are touched by that change);
 * - never a guest when the setting does not allow `role:everyone`
 *   (`user_has_permission_for_group_setting`);
 * - never a deactivated user. Bots hold what their roles and groups give them, as Zulip
 *   treats them as users; a bot may also post where its owner may (`access_stream_for_send_message`),
 *   which is not counted.
 *
 * Touched permissions are the settings a change sets, the settings of objects the plan creates
 * that differ from Zulip's default, and every setting of any channel or group whose holders
 * change because a group's recursive membership changes (members or subgroups added or
 * removed, a new group nested in another, a user's role changing the role groups, a new
 * waiting period for full members). Who is in role:fullmembers after the plan is judged as
 * Zulip judges it (`update_users_in_full_members_system_group`): members past the waiting
 * period at the time the organization was read (`now`).
 *
 * Cost: groups are expanded lazily and once per world (memoised, and shared between the
 * worlds when the plan leaves them alone; ./effective-permissions/worlds.ts); only groups
 * reachable from a changed group are compared, and only settings naming one of them are
 * looked at. Holders are never built per permission: two signatures are compared by their
 * groups, the large groups' part once per pair and shared (./effective-permissions/holders.ts).
 */
import { resourceAddress } from '../model/address';
import { isSystemGroupName } from '../model/kinds';
import type { ResourceKind } from '../model/kinds';
import type { LiveState, WireGroupSettingValue } from '../model/live-state';
import {
  CHANNEL_PERMISSIONS,
  GROUP_PERMISSIONS,
  ORGANIZATION_PERMISSIONS,
  organizationPermissionByWire,
  refusesGuests,
} from '../model/permissions';
import type { PermissionSettingInfo } from '../model/permissions';
import { ORGANIZATION_SETTINGS_KEY } from '../model/organization-settings';
import { HolderDiffs, UserNames, hasUser, signatureOf } from './effective-permissions/holders';
import type { Diff, Signature } from './effective-permissions/holders';
import { fromWire, planWorlds } from './effective-permissions/worlds';
import type { Value } from './effective-permissions/worlds';
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
  /**
   * The time (ms) to judge Zulip's waiting period for full members by: who of the members
   * whose role or waiting period the plan changes is in role:fullmembers after it. Without it,
   * every such member counts as a full member.
   */
  readonly now?: number;
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
  const maxNames = options.maxNames ?? 20;
  const maxUsers = options.maxUsers ?? 50;
  const { before, after, nameToId, fromNatural, causes, flipped, roleChangeOf } = planWorlds(
    changes,
    live,
    idx,
    options.now,
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
  // The organization's own settings after the plan: those it changes, by wire name. Channel and
  // group permissions they also let through are counted with them after the plan.
  const orgObject = [...objects.values()].find((o) => o.kind === 'organizationSettings');
  const realmSetBy = new Map<string, { value: Value | undefined; ids: readonly string[] }>();
  for (const [name, ids] of orgObject?.setBy ?? []) {
    const info = ORGANIZATION_PERMISSIONS[name as keyof typeof ORGANIZATION_PERMISSIONS];
    if (info) realmSetBy.set(info.wire, { value: orgObject?.after?.[name], ids });
  }
  const signature = (
    values: Readonly<Record<string, Value>>,
    table: Table,
    name: string,
    state: 'before' | 'after',
  ): Signature => {
    const info = table[name] as PermissionSettingInfo;
    const noGuests = refusesGuests(info);
    const world = state === 'before' ? before : after;
    // What a setting that refuses guests lets through, where this one does not: its groups
    // without their guests (Zulip checks each setting with its own rule).
    const part = (v: Value | undefined, from: PermissionSettingInfo | undefined) =>
      v === undefined || noGuests || from === undefined || !refusesGuests(from)
        ? v
        : {
            users: v.users.filter((u) => !world.guests.has(u)),
            groups: v.groups.map((g) => world.guestless.of(g)),
          };
    const parts: (Value | undefined)[] = [values[name]];
    const notCounted: string[] = [];
    for (const h of info.alsoHeldBy ?? []) {
      if (h.kind === 'realmAdmins' && adminsId !== undefined)
        parts.push({ users: [], groups: [adminsId] });
      else if (h.kind === 'setting') parts.push(part(values[h.name], table[h.name]));
      else if (h.kind === 'realm') {
        const planned = state === 'after' ? realmSetBy.get(h.wire) : undefined;
        const v = planned ? undefined : options.realm?.[h.wire];
        const from = organizationPermissionByWire(h.wire);
        if (planned) parts.push(part(planned.value, from));
        else if (v === undefined) notCounted.push(h.wire);
        else parts.push(part(fromWire(v), from));
      }
    }
    return signatureOf(parts, noGuests, notCounted);
  };
  const diffs = new HolderDiffs(before, after, flipped);
  const people = new UserNames(idx);

  const effects: PermissionEffect[] = [];
  // Effects sharing one gained/lost pair (the same groups before and after) share its users:
  // each pair's users are visited once, not once per effect.
  const effectsOf = new Map<Diff, number[]>();
  const sortedObjects = [...objects.values()].sort((x, y) =>
    x.address < y.address ? -1 : x.address > y.address ? 1 : 0,
  );
  // Whether a value names a group whose holders change, or a user who becomes or stops being
  // a guest: checked on the raw values before any signature is built.
  const hit = (v: Value | undefined): boolean =>
    v !== undefined &&
    (v.groups.some((g) => causes.has(g)) ||
      (flipped.size > 0 && v.users.some((u) => flipped.has(u))));
  const adminsMove = adminsId !== undefined && causes.has(adminsId);
  // The first MAX_CAUSES of a group's causes in order: an effect lists the first of all its
  // causes, which are among the first of each group's (a role group has one per role change,
  // a thousand at the largest sizes, and a thousand permissions may name it).
  const firstCauses = new Map<number, readonly string[]>();
  const causesOf = (g: number): readonly string[] => {
    let first = firstCauses.get(g);
    if (!first) {
      first = [...(causes.get(g) ?? [])].sort().slice(0, MAX_CAUSES);
      firstCauses.set(g, first);
    }
    return first;
  };
  for (const o of sortedObjects) {
    for (const [name, info] of Object.entries(o.table)) {
      if (!o.setBy.has(name) && o.createdBy === undefined) {
        let touched = hit(o.before?.[name]) || hit(o.after?.[name]);
        for (const h of info.alsoHeldBy ?? [])
          if (h.kind === 'realmAdmins') touched ||= adminsMove;
          else if (h.kind === 'setting')
            touched ||= o.setBy.has(h.name) || hit(o.before?.[h.name]) || hit(o.after?.[h.name]);
          else touched ||= realmSetBy.has(h.wire);
        if (!touched) continue;
      }
      const sb =
        o.before && name in o.before ? signature(o.before, o.table, name, 'before') : undefined;
      const sa =
        o.after && name in o.after ? signature(o.after, o.table, name, 'after') : undefined;
      if (!sb && !sa) continue;
      const set = o.setBy.get(name) ?? [];
      const why = new Set<string>(set);
      // A new object's holders are all new: its create (and the updates that set it) made them.
      if (o.createdBy === undefined) {
        for (const s of [sb, sa])
          for (const g of s?.groups ?? [])
            for (const id of causesOf(before.guestless.realOf(g) ?? g)) why.add(id);
        // A user the value names who becomes or stops being a guest: that role change.
        if (flipped.size > 0)
          for (const n of [
            name,
            ...(info.alsoHeldBy ?? []).flatMap((h) => (h.kind === 'setting' ? [h.name] : [])),
          ])
            for (const v of [o.before?.[n], o.after?.[n]])
              for (const u of v?.users ?? []) {
                const id = flipped.has(u) ? roleChangeOf.get(u) : undefined;
                if (id !== undefined) why.add(id);
              }
      }
      // Untouched: no change sets it or anything it follows from, and its groups are unchanged.
      const implied = (info.alsoHeldBy ?? []).some(
        (h) =>
          (h.kind === 'setting' && o.setBy.has(h.name)) ||
          (h.kind === 'realm' && realmSetBy.has(h.wire)),
      );
      if (why.size === 0 && !implied) continue;
      // On a new object, only what the configuration sets apart from Zulip's default.
      if (o.createdBy !== undefined && set.length === 0) continue;
      if (o.before && o.after === undefined) continue; // archived: not an ability change to list
      const d = diffs.diff(sb, sa);
      if (d.gained.count === 0 && d.lost.count === 0 && set.length === 0) continue;
      if (implied)
        for (const h of info.alsoHeldBy ?? [])
          if (h.kind === 'setting') for (const id of o.setBy.get(h.name) ?? []) why.add(id);
          else if (h.kind === 'realm')
            for (const id of realmSetBy.get(h.wire)?.ids ?? []) why.add(id);
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
        gained: people.names(d.gained, maxNames),
        lost: people.names(d.lost, maxNames),
        ...(notCounted.length > 0 ? { notCounted } : {}),
      });
      const list = effectsOf.get(d);
      if (list) list.push(i);
      else effectsOf.set(d, [i]);
    }
  }
  // Everyone who gains or loses anything, counted; abilities listed for the first of them by
  // e-mail only. A shared base is visited once: its users are in the union unless every set
  // built on it leaves them out.
  const pairs = [...effectsOf.keys()];
  const everyone = new Set<number>();
  const bases = new Map<ReadonlySet<number>, { sets: number; left: Map<number, number> }>();
  for (const d of pairs)
    for (const set of [d.gained, d.lost]) {
      for (const u of set.extra) everyone.add(u);
      if (set.base.size === 0) continue;
      const b = bases.get(set.base) ?? { sets: 0, left: new Map<number, number>() };
      b.sets += 1;
      for (const u of set.exclude) b.left.set(u, (b.left.get(u) ?? 0) + 1);
      bases.set(set.base, b);
    }
  for (const [base, { sets, left }] of bases)
    if (left.size === 0) base.forEach((u) => everyone.add(u));
    else base.forEach((u) => (left.get(u) ?? 0) < sets && everyone.add(u));
  const wanted = new Map<number, { gains: number[]; loses: number[] }>();
  for (const id of people.first(everyone, maxUsers)) wanted.set(id, { gains: [], loses: [] });
  for (const d of pairs) {
    const idxs = effectsOf.get(d) ?? [];
    for (const [u, w] of wanted) {
      if (hasUser(d.gained, u)) w.gains.push(...idxs);
      if (hasUser(d.lost, u)) w.loses.push(...idxs);
    }
  }
  const ability = (i: number): { address: string; permission: string } => {
    const e = effects[i] as PermissionEffect;
    return { address: e.address, permission: e.permission };
  };
  const users: UserAbilities[] = [...wanted.entries()]
    .map(([id, w]) => ({ email: people.emailOf(id), w }))
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
