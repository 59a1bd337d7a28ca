/**
 * The organization's groups and roles before a plan and after it, for the plan's effective
 * permissions (src/engine/effective-permissions.ts): each group's recursive members in each
 * state, and which groups' holders the plan changes, with the changes that cause it.
 *
 * Who is in a group is what Zulip checks (zerver/lib/user_groups.py
 * `get_recursive_group_members`: through every level of subgroups, active users only). Role
 * system groups nest as Zulip makes them (`create_system_user_groups_for_realm`): role:owners ⊂
 * role:administrators ⊂ role:moderators ⊂ role:fullmembers ⊂ role:members ⊂ role:everyone.
 * Pure: no I/O.
 */
import type { GroupSettingValue } from '../../model/desired-state';
import { ROLES } from '../../model/kinds';
import { joinedWithinWaitingPeriod } from '../../model/waiting-period';
import type { LiveState, LiveUser, WireGroupSettingValue } from '../../model/live-state';
import type { LiveIndex } from '../live-index';
import type { Change, JsonValue } from '../plan-format';

/** A group-setting value with IDs resolved: users and groups. */
export interface Value {
  readonly users: readonly number[];
  readonly groups: readonly number[];
}

export function fromWire(v: WireGroupSettingValue | undefined): Value | undefined {
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

/**
 * Whether a member is past the waiting period at `now` (`joinedWithinWaitingPeriod`, negated).
 * Without a time or a join date (older snapshots), or without a waiting period, yes: the plan
 * then counts every member as a full member.
 */
export function pastWaitingPeriod(
  user: Pick<LiveUser, 'dateJoined'> | undefined,
  threshold: number,
  now: number | undefined,
): boolean {
  if (threshold <= 0 || now === undefined || user?.dateJoined === undefined) return true;
  return !joinedWithinWaitingPeriod(user.dateJoined, threshold, now);
}

/** The waiting period (days) before and after `changes`, and the change that sets it. */
function waitingPeriods(
  changes: readonly Change[],
  idx: LiveIndex,
): { before: number; after: number; changeId?: string } {
  const read = idx.organizationProperty('waitingPeriodThreshold');
  const before = typeof read === 'number' ? read : 0;
  for (const c of changes)
    if (c.kind === 'organizationSettings' && c.action === 'update')
      for (const p of c.properties)
        if (p.property === 'waitingPeriodThreshold' && typeof p.after === 'number')
          return { before, after: p.after, changeId: c.id };
  return { before, after: before };
}

/**
 * Stand-ins for groups without their guests, shared by the two worlds: a permission that lets
 * guests through may also let through the holders of a setting that does not (a channel's
 * administrators may move its messages, guests among them may not), whose groups it names by
 * these IDs. They are above every group ID, and never a group's subgroup.
 */
export class GuestlessGroups {
  private static readonly BASE = 2 ** 40;
  private readonly ids = new Map<number, number>();
  private readonly real: number[] = [];

  /** The stand-in of group `g`. */
  public of(g: number): number {
    let id = this.ids.get(g);
    if (id === undefined) {
      id = GuestlessGroups.BASE + this.real.length;
      this.real.push(g);
      this.ids.set(g, id);
    }
    return id;
  }

  /** The group a stand-in stands for; undefined for a group's own ID. */
  public realOf(id: number): number | undefined {
    return id >= GuestlessGroups.BASE ? this.real[id - GuestlessGroups.BASE] : undefined;
  }
}

/** One state of the organization's groups and roles: the live one, or the one after the plan. */
export class World {
  private readonly expanded = new Map<number, ReadonlySet<number>>();
  /**
   * `base`: a world whose groups hold the same users as this one's, except `changed` ones:
   * their sets are shared (the same object), not built again.
   */
  public constructor(
    private readonly members: (gid: number) => readonly number[],
    public readonly subgroups: (gid: number) => readonly number[],
    /** Whether a user is active (Zulip never counts a deactivated user). */
    public readonly isActive: (u: number) => boolean,
    public readonly guests: ReadonlySet<number>,
    public readonly guestless: GuestlessGroups,
    private readonly base?: { world: World; changed: ReadonlySet<number> },
  ) {}

  /** The active users of a group, through every level of subgroups (memoised). */
  public expand(gid: number, visiting = new Set<number>()): ReadonlySet<number> {
    const done = this.expanded.get(gid);
    if (done) return done;
    const real = this.guestless.realOf(gid);
    if (real !== undefined) {
      // A group without its guests: the group's own set when it holds none.
      const all = this.expand(real);
      let out: ReadonlySet<number> = all;
      for (const u of this.guests)
        if (all.has(u)) {
          out = new Set([...all].filter((x) => !this.guests.has(x)));
          break;
        }
      this.expanded.set(gid, out);
      return out;
    }
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
    const inSubs = subs.map((s) => this.expand(s, visiting));
    // The largest subgroup's set when it holds everyone else (role:members, whose members are
    // all in role:fullmembers when there is no waiting period): shared, not copied (100,000
    // users at the largest sizes).
    let largest: ReadonlySet<number> | undefined;
    for (const s of inSubs) if (!largest || s.size > largest.size) largest = s;
    if (largest && holdsAll(largest, direct, inSubs, this.isActive)) out = largest;
    else {
      const set = new Set<number>();
      for (let i = 0; i < direct.length; i++) {
        const u = direct[i] as number;
        if (this.isActive(u)) set.add(u);
      }
      for (const s of inSubs) s.forEach((u) => set.add(u));
      out = set;
    }
    visiting.delete(gid);
    this.expanded.set(gid, out);
    return out;
  }
}

/** Whether `set` holds the active users of `direct` and every user of `sets`. */
function holdsAll(
  set: ReadonlySet<number>,
  direct: readonly number[],
  sets: readonly ReadonlySet<number>[],
  isActive: (u: number) => boolean,
): boolean {
  for (let i = 0; i < direct.length; i++) {
    const u = direct[i] as number;
    if (!set.has(u) && isActive(u)) return false;
  }
  for (const s of sets) if (s !== set) for (const u of s) if (!set.has(u)) return false;
  return true;
}

/** The two states a plan's effective permissions compare, and what links them to its changes. */
export interface PlanWorlds {
  readonly before: World;
  readonly after: World;
  /** Group names after the plan → IDs (groups the plan creates get negative IDs). */
  readonly nameToId: ReadonlyMap<string, number>;
  /** A value as the configuration writes it (names and e-mails) → IDs. */
  readonly fromNatural: (v: JsonValue | GroupSettingValue | undefined) => Value | undefined;
  /** Group → the changes that change who it gives a permission to. */
  readonly causes: ReadonlyMap<number, ReadonlySet<string>>;
  /** Users whose role the plan changes → their role after it. */
  readonly roleAfter: ReadonlyMap<number, number>;
  /** Users who become or stop being guests. */
  readonly flipped: ReadonlySet<number>;
  /** The role change of each user whose role the plan changes. */
  readonly roleChangeOf: ReadonlyMap<number, string>;
}

/**
 * The organization before `changes` (as read) and after them: memberships, subgroups and roles
 * changed by the plan; groups the plan creates. Who is a full member after the plan is judged
 * as Zulip judges it when the role or the waiting period changes
 * (`update_users_in_full_members_system_group`): a member past the waiting period after the
 * plan at `now` (ms); for the others, as read (Zulip's daily `promote_new_full_members` moves
 * them later).
 */
export function planWorlds(
  changes: readonly Change[],
  live: LiveState,
  idx: LiveIndex,
  now?: number,
): PlanWorlds {
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
  // Members after the plan, as what the plan adds to and removes from the live members (a
  // large group is never copied to change a few of its members).
  const moves = new Map<number, { add: Set<number>; remove: Set<number> }>();
  const afterSubgroups = new Map<number, number[]>();
  const directlyChanged = new Map<number, Set<string>>(); // group → change ids
  const mark = (gid: number, changeId: string): void => {
    const s = directlyChanged.get(gid) ?? new Set<string>();
    s.add(changeId);
    directlyChanged.set(gid, s);
  };
  const liveGroup = (gid: number) => (gid > 0 ? idx.groupsById.get(gid) : undefined);
  const movesOf = (gid: number): { add: Set<number>; remove: Set<number> } => {
    let m = moves.get(gid);
    if (!m) {
      m = { add: new Set(), remove: new Set() };
      moves.set(gid, m);
    }
    return m;
  };
  const addMember = (gid: number, u: number): void => {
    const m = movesOf(gid);
    m.remove.delete(u);
    m.add.add(u);
  };
  const removeMember = (gid: number, u: number): void => {
    const m = movesOf(gid);
    m.add.delete(u);
    m.remove.add(u);
  };
  // Whether a user whose role changes is a direct member of a role group as read: one pass
  // over each role group's members, never a set of them.
  const roleChanged = new Set<number>();
  for (const c of changes)
    if (c.kind === 'user' && c.action === 'update' && c.liveId !== null) roleChanged.add(c.liveId);
  const liveDirect = new Map<number, Set<number>>();
  if (roleChanged.size > 0)
    for (const name of ROLE_GROUP_NAMES) {
      const gid = nameToId.get(name);
      if (gid === undefined) continue;
      const set = new Set<number>();
      for (const u of liveGroup(gid)?.members ?? []) if (roleChanged.has(u)) set.add(u);
      liveDirect.set(gid, set);
    }
  const isMemberAfter = (gid: number, u: number): boolean => {
    const m = moves.get(gid);
    if (m?.add.has(u)) return true;
    if (m?.remove.has(u)) return false;
    return liveDirect.get(gid)?.has(u) ?? false;
  };
  const roleAfter = new Map<number, number>();
  const roleChangeOf = new Map<number, string>();
  const roleGroupIds = ROLE_GROUP_NAMES.map((name) => [name, nameToId.get(name)] as const);
  const waiting = waitingPeriods(changes, idx);
  const isFullAfter = (u: number): boolean =>
    pastWaitingPeriod(idx.usersById.get(u), waiting.after, now);
  for (const c of changes) {
    if (c.kind === 'userGroup' && c.action === 'membership') {
      const gid = c.liveId ?? nameToId.get(c.key);
      if (gid === undefined) continue;
      for (const u of c.remove) removeMember(gid, u.id);
      for (const u of c.add) addMember(gid, u.id);
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
        const wants =
          (ROLE_GROUPS[after] ?? []).includes(name) &&
          (name !== 'role:fullmembers' || isFullAfter(c.liveId));
        if (isMemberAfter(gid, c.liveId) === wants) continue;
        if (wants) addMember(gid, c.liveId);
        else removeMember(gid, c.liveId);
        mark(gid, c.id);
      }
    }
  }
  // A new waiting period: Zulip judges every member again by it. Those whose role the plan
  // changes were judged by it above.
  const fullGid = nameToId.get('role:fullmembers');
  const judgedAgain = new Set<number>();
  if (waiting.changeId !== undefined && waiting.after !== waiting.before && fullGid !== undefined) {
    const fullNow = new Set(liveGroup(fullGid)?.members ?? []);
    for (const u of live.users) {
      if (!u.isActive || u.role !== ROLES.member || roleAfter.has(u.id)) continue;
      const wants = isFullAfter(u.id);
      if (fullNow.has(u.id) === wants) continue;
      if (wants) addMember(fullGid, u.id);
      else removeMember(fullGid, u.id);
      judgedAgain.add(u.id);
      mark(fullGid, waiting.changeId);
    }
  }
  for (const c of changes)
    if (c.kind === 'userGroup' && c.action === 'create') {
      const gid = nameToId.get(c.key);
      if (gid !== undefined) mark(gid, c.id);
    }
  const afterMembers = new Map<number, readonly number[]>();
  const membersIn = (gid: number): readonly number[] => {
    const live = liveGroup(gid)?.members ?? [];
    const m = moves.get(gid);
    if (!m) return live;
    let out = afterMembers.get(gid);
    if (!out) {
      out = [...live.filter((u) => !m.remove.has(u) && !m.add.has(u)), ...m.add];
      afterMembers.set(gid, out);
    }
    return out;
  };
  const subgroupsIn = (gid: number): readonly number[] =>
    afterSubgroups.get(gid) ?? liveGroup(gid)?.subgroups ?? [];

  const isActive = (u: number): boolean => idx.isActiveId(u);
  const guestsBefore = new Set<number>();
  const guestsAfter = new Set<number>();
  for (const u of live.users) {
    if (!u.isActive) continue;
    if (u.role === ROLES.guest) guestsBefore.add(u.id);
    if ((roleAfter.get(u.id) ?? u.role) === ROLES.guest) guestsAfter.add(u.id);
  }
  const guestless = new GuestlessGroups();
  const before = new World(
    (gid) => liveGroup(gid)?.members ?? [],
    (gid) => liveGroup(gid)?.subgroups ?? [],
    isActive,
    guestsBefore,
    guestless,
  );
  const allIds = (): Set<number> =>
    new Set<number>([...idx.groupsById.keys(), ...nameToId.values()]);

  // --- Groups whose holders differ: the changed ones and the groups above them, kept only
  // where the recursive members do differ (a member who becomes a moderator stays in
  // role:members through role:moderators). ---
  const parents = (world: World): Map<number, number[]> => {
    const out = new Map<number, number[]>();
    for (const g of allIds())
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
  const affected = new Set<number>([...roleAfter.keys(), ...judgedAgain]);
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
  const afterSubWorld = new World(membersIn, subgroupsIn, isActive, guestsAfter, guestless);
  for (const g of subgroupMoves) {
    if (g > 0) for (const u of before.expand(g)) affected.add(u);
    for (const u of afterSubWorld.expand(g)) affected.add(u);
  }
  // New groups: nothing before.
  const changedGroups = new Set<number>([...nameToId.values()].filter((g) => g < 0));
  if (affected.size > 0) {
    // Each affected user's groups before (one pass over every group's members), and after
    // (those, with what the plan adds and removes).
    const db = new Map<number, number[]>();
    for (const g of allIds()) {
      const members = liveGroup(g)?.members ?? [];
      for (let i = 0; i < members.length; i++) {
        const u = members[i] as number;
        if (!affected.has(u)) continue;
        const l = db.get(u);
        if (l) l.push(g);
        else db.set(u, [g]);
      }
    }
    const movedGroups = new Map<number, Set<number>>();
    const groupsAfterOf = (u: number): Set<number> => {
      let set = movedGroups.get(u);
      if (!set) {
        set = new Set(db.get(u) ?? []);
        movedGroups.set(u, set);
      }
      return set;
    };
    for (const [g, m] of moves) {
      for (const u of m.remove) groupsAfterOf(u).delete(g);
      for (const u of m.add) groupsAfterOf(u).add(g);
    }
    const da = new Map<number, readonly number[]>(db);
    for (const [u, set] of movedGroups) da.set(u, [...set]);
    const groupsOf = (
      direct: ReadonlyMap<number, readonly number[]>,
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
    const [pb, pa] = [parents(before), parents(afterSubWorld)];
    for (const u of affected) {
      if (!isActive(u)) continue;
      const gb = groupsOf(db, pb, u);
      const ga = groupsOf(da, pa, u);
      for (const g of gb) if (!ga.has(g)) changedGroups.add(g);
      for (const g of ga) if (!gb.has(g)) changedGroups.add(g);
    }
  }
  const causes = new Map<number, Set<string>>(); // group → change ids that change its holders
  const keep = new Set<number>(); // groups whose holders change though their members may not
  const flipped = new Set(
    [...roleAfter.keys()].filter((u) => guestsBefore.has(u) !== guestsAfter.has(u)),
  );
  if (directlyChanged.size > 0) {
    const up = [parents(before), parents(afterSubWorld)];
    // A user who becomes or stops being a guest changes what every group holding them gives
    // for settings that exclude guests, though the groups' members stay the same.
    if (flipped.size > 0)
      for (const g of live.userGroups)
        for (const u of g.members) {
          if (!flipped.has(u)) continue;
          mark(g.id, roleChangeOf.get(u) as string);
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
  const after = new World(membersIn, subgroupsIn, isActive, guestsAfter, guestless, {
    world: before,
    changed: changedGroups,
  });
  return { before, after, nameToId, fromNatural, causes, roleAfter, flipped, roleChangeOf };
}
