/**
 * Who holds a permission before and after a plan, and who gains and who loses it, computed
 * without building the holders of every permission: a permission's holders are described by
 * its signature (the groups and users it names, and whether guests are left out), and two
 * signatures are compared group by group.
 *
 * The holders of a signature in one state are its large groups' recursive members (the "big"
 * part; e.g. role:everyone) together with its small groups and users, guests left out when
 * the setting refuses `role:everyone`. Between before and after:
 *
 *     lost = (core \ exclude) ∪ extra
 *
 * where `core` is the big part before less the big part after, computed once per pair of big
 * parts and shared by every permission with that pair (a group both sides name and the plan
 * leaves alone cancels without being read; one the plan changes is read only where its
 * members differ); `exclude` is the users of the core that the small part after still lets
 * through, and `extra` the users of the small part before that nothing after lets through.
 * Gains the other way round. The per-permission work is proportional to its small part.
 * Pure: no I/O.
 */
import type { LiveIndex } from '../live-index';
import type { World, Value } from './worlds';

/** What a permission's holders are made of in one state; `key` identifies it. */
export interface Signature {
  readonly groups: readonly number[];
  readonly users: readonly number[];
  readonly noGuests: boolean;
  readonly key: string;
  /** Organization settings that let people through and could not be counted. */
  readonly notCounted: readonly string[];
}

/** Nobody: the holders of a permission of an object that does not exist. */
const NOBODY: Signature = { groups: [], users: [], noGuests: false, key: '-', notCounted: [] };

function sortedUnique(xs: Iterable<number>): number[] {
  return [...new Set(xs)].sort((a, b) => a - b);
}

/**
 * The signature of holders made of `parts` (the setting's value, then what else lets through;
 * guests left out of the parts that refuse them where the setting does not), guests left out
 * of all when `noGuests`.
 */
export function signatureOf(
  parts: readonly (Value | undefined)[],
  noGuests: boolean,
  notCounted: readonly string[],
): Signature {
  const groups: number[] = [];
  const users: number[] = [];
  for (const v of parts) {
    if (!v) continue;
    groups.push(...v.groups);
    users.push(...v.users);
  }
  const g = sortedUnique(groups);
  const u = sortedUnique(users);
  return {
    groups: g,
    users: u,
    noGuests,
    key: `${noGuests ? 'n' : 'e'}|${g.join(',')}|${u.join(',')}`,
    notCounted,
  };
}

/**
 * Users who gain (or lose) a permission: `base` less `exclude`, and `extra`. `base` is shared
 * between permissions (never change it); `exclude` ⊆ `base`; `extra` is disjoint from `base`.
 */
export interface UserSet {
  readonly base: ReadonlySet<number>;
  readonly exclude: ReadonlySet<number>;
  readonly extra: readonly number[];
  readonly count: number;
}

/** Who gains and who loses between two signatures, and how many hold it before and after. */
export interface Diff {
  readonly gained: UserSet;
  readonly lost: UserSet;
  readonly before: number;
  readonly after: number;
}

/** Whether `u` is in `set`. */
export function hasUser(set: UserSet, u: number): boolean {
  return (set.base.has(u) && !set.exclude.has(u)) || set.extra.includes(u);
}

/**
 * Groups with at least this many members are the big part of a signature. Any split gives
 * the same users; this one keeps the per-permission work small and the shared work shared.
 */
const BIG = 1024;

const EMPTY: ReadonlySet<number> = new Set<number>();

/** One state's view of a signature: its big groups and a test of who holds it. */
class Side {
  public readonly big: readonly number[];
  public readonly bigKey: string;
  private readonly users: ReadonlySet<number>;
  private smallSet: Set<number> | undefined;
  /** The members of the big and small groups (each tested for every user of a large group). */
  private readonly bigSets: readonly ReadonlySet<number>[];
  private readonly smallSets: readonly ReadonlySet<number>[];

  public constructor(
    public readonly world: World,
    public readonly sig: Signature,
  ) {
    const big: number[] = [];
    const bigSets: ReadonlySet<number>[] = [];
    const smallSets: ReadonlySet<number>[] = [];
    for (const g of sig.groups) {
      const members = world.expand(g);
      if (members.size >= BIG) {
        big.push(g);
        bigSets.push(members);
      } else smallSets.push(members);
    }
    this.big = big;
    this.bigSets = bigSets;
    this.smallSets = smallSets;
    this.bigKey = `${sig.noGuests ? 'n' : 'e'}|${big.join(',')}`;
    this.users = new Set(sig.users);
  }

  /** Whether `u` passes the guest rule of this state. */
  public admits(u: number): boolean {
    return !(this.sig.noGuests && this.world.guests.has(u));
  }

  /** Whether the big part lets `u` through (guest rule applied). */
  public inBig(u: number): boolean {
    if (!this.admits(u)) return false;
    for (const members of this.bigSets) if (members.has(u)) return true;
    return false;
  }

  /** Whether the small part lets `u` through (guest rule applied). */
  public inSmall(u: number): boolean {
    if (!this.admits(u)) return false;
    for (const members of this.smallSets) if (members.has(u)) return true;
    return this.users.has(u) && this.world.isActive(u);
  }

  public holds(u: number): boolean {
    return this.inBig(u) || this.inSmall(u);
  }

  /** The users the small part lets through, each once (guest rule applied). */
  public smallUsers(): ReadonlySet<number> {
    if (this.smallSet) return this.smallSet;
    const out = new Set<number>();
    for (const members of this.smallSets) for (const u of members) if (this.admits(u)) out.add(u);
    for (const u of this.sig.users) if (this.world.isActive(u) && this.admits(u)) out.add(u);
    this.smallSet = out;
    return out;
  }
}

/**
 * Diffs of signatures between the state before a plan and after it, memoised: by the pair of
 * signatures, the shared cores by the pair of big parts, the sizes of big parts by state.
 */
export class HolderDiffs {
  private readonly diffs = new Map<string, Diff>();
  private readonly cores = new Map<string, ReadonlySet<number>>();
  private readonly bigSizes = new Map<World, Map<string, number>>();
  private readonly moved = new Map<string, ReadonlySet<number>>();

  public constructor(
    private readonly before: World,
    private readonly after: World,
    /** Users who become or stop being guests: a group both states share may differ by them. */
    private readonly flipped: ReadonlySet<number>,
  ) {}

  /** Who gains and who loses between `b` (before; undefined: nothing) and `a` (after). */
  public diff(b: Signature | undefined, a: Signature | undefined): Diff {
    const sb = b ?? NOBODY;
    const sa = a ?? NOBODY;
    const key = `${sb.key}>${sa.key}`;
    const done = this.diffs.get(key);
    if (done) return done;
    const noGuests = (b ?? a ?? NOBODY).noGuests;
    const from = new Side(this.before, { ...sb, noGuests });
    const to = new Side(this.after, { ...sa, noGuests });
    const out: Diff = {
      gained: this.difference(to, from),
      lost: this.difference(from, to),
      before: this.size(from),
      after: this.size(to),
    };
    this.diffs.set(key, out);
    return out;
  }

  /** The users `x` lets through and `y` does not. */
  private difference(x: Side, y: Side): UserSet {
    const core = this.core(x, y);
    const exclude = new Set<number>();
    if (core.size > 0) for (const u of y.smallUsers()) if (core.has(u)) exclude.add(u);
    const extra: number[] = [];
    for (const u of x.smallUsers()) if (!core.has(u) && !y.holds(u)) extra.push(u);
    return {
      base: core,
      exclude: exclude.size > 0 ? exclude : EMPTY,
      extra,
      count: core.size - exclude.size + extra.length,
    };
  }

  /** The users of `x`'s big part not in `y`'s big part (shared by every pair of those parts). */
  private core(x: Side, y: Side): ReadonlySet<number> {
    if (x.big.length === 0) return EMPTY;
    const key = `${x.world === this.before ? 'b' : 'a'}${x.bigKey}>${y.bigKey}`;
    const done = this.cores.get(key);
    if (done) return done;
    const out = new Set<number>();
    for (const g of x.big) {
      const mine = x.world.expand(g);
      // A group both sides name: only its members that differ between the states, and the
      // users whose guest status differs (below), can be on one side only.
      const candidates = y.big.includes(g)
        ? mine === y.world.expand(g)
          ? EMPTY
          : this.movedOut(x.world, y.world, g)
        : mine;
      for (const u of candidates) if (x.admits(u) && !y.inBig(u)) out.add(u);
    }
    if (x.sig.noGuests) for (const u of this.flipped) if (x.inBig(u) && !y.inBig(u)) out.add(u);
    const shared = out.size > 0 ? out : EMPTY;
    this.cores.set(key, shared);
    return shared;
  }

  /** The members of `g` in state `x` that are not in state `y` (memoised). */
  private movedOut(x: World, y: World, g: number): ReadonlySet<number> {
    const key = `${x === this.before ? 'b' : 'a'}${g}`;
    const done = this.moved.get(key);
    if (done) return done;
    const other = y.expand(g);
    const out = new Set<number>();
    for (const u of x.expand(g)) if (!other.has(u)) out.add(u);
    this.moved.set(key, out);
    return out;
  }

  /** How many users a side lets through. */
  private size(s: Side): number {
    let n = this.bigSize(s);
    for (const u of s.smallUsers()) if (!s.inBig(u)) n += 1;
    return n;
  }

  /** How many users the big part of a side lets through (memoised by state and part). */
  private bigSize(s: Side): number {
    if (s.big.length === 0) return 0;
    let sizes = this.bigSizes.get(s.world);
    if (!sizes) {
      sizes = new Map();
      this.bigSizes.set(s.world, sizes);
    }
    const done = sizes.get(s.bigKey);
    if (done !== undefined) return done;
    const groups = s.big.map((g) => s.world.expand(g)).sort((p, q) => q.size - p.size);
    const largest = groups[0] as ReadonlySet<number>;
    let n = largest.size;
    if (s.sig.noGuests) {
      const guests = s.world.guests;
      if (guests.size < largest.size) {
        for (const u of guests) if (largest.has(u)) n -= 1;
      } else for (const u of largest) if (guests.has(u)) n -= 1;
    }
    const rest = new Set<number>();
    for (const set of groups.slice(1))
      for (const u of set) if (!largest.has(u) && s.admits(u)) rest.add(u);
    n += rest.size;
    sizes.set(s.bigKey, n);
    return n;
  }
}

/** The first e-mails of user sets in order, found without sorting whole sets. */
export class UserNames {
  /** Per shared base: its first users by e-mail, in order (as many as were asked for). */
  private readonly prefixes = new WeakMap<ReadonlySet<number>, number[]>();

  public constructor(private readonly idx: LiveIndex) {}

  public emailOf(id: number): string {
    return this.idx.emailOf(id);
  }

  /** The first `max` users of `ids` by e-mail, in order (one pass, without sorting them all). */
  public first(ids: Iterable<number>, max: number): number[] {
    const first: number[] = [];
    const emails: string[] = [];
    if (max <= 0) return first;
    for (const id of ids) {
      const e = this.idx.emailOf(id);
      if (emails.length === max && e >= (emails[max - 1] as string)) continue;
      let k = emails.length;
      while (k > 0 && (emails[k - 1] as string) > e) k--;
      emails.splice(k, 0, e);
      first.splice(k, 0, id);
      if (emails.length > max) {
        emails.pop();
        first.pop();
      }
    }
    return first;
  }

  /** A set's count and its first `max` e-mails in order. */
  public names(set: UserSet, max: number): { count: number; users: string[] } {
    // Of the first `max + |exclude|` of the base, at most |exclude| are left out.
    const want = Math.min(set.base.size, max + set.exclude.size);
    let prefix = this.prefixes.get(set.base) ?? [];
    if (prefix.length < want) {
      prefix = this.first(set.base, Math.max(want, 2 * prefix.length));
      this.prefixes.set(set.base, prefix);
    }
    const emails: string[] = [];
    for (const id of prefix) {
      if (emails.length === max) break;
      if (!set.exclude.has(id)) emails.push(this.idx.emailOf(id));
    }
    for (const id of this.first(set.extra, max)) emails.push(this.idx.emailOf(id));
    emails.sort((p, q) => (p < q ? -1 : p > q ? 1 : 0));
    return { count: set.count, users: emails.slice(0, max) };
  }
}
