import { pyStrip } from '../model/rules';
import type { OrgState, StoredChannel, StoredGroup, StoredSubscription, StoredUser } from './state';

/**
 * In-memory indexes over the organization's arrays, so that lookups do not scan them. The
 * organization stays plain JSON (what is saved and loaded): each index lives in a WeakMap keyed
 * by the array it indexes, so it is never serialised, `structuredClone` does not copy it, and an
 * array that is replaced (a loaded file, `atomic`'s rollback) simply gets a new index on first
 * use. Each index also remembers the array's length and is rebuilt when it differs, so an
 * element pushed without going through these helpers cannot be missed.
 *
 * Subscriptions are added only through {@link addSubscription}; their other fields (`active`,
 * `color`, ...) are changed in place on the indexed object, which the index shares.
 */

interface SubscriptionIndex {
  length: number;
  /** Whether some (user, channel) pair has more than one row (never made by the emulator). */
  duplicates: boolean;
  byChannel: Map<number, Map<number, StoredSubscription>>;
  byUser: Map<number, Map<number, StoredSubscription>>;
  /** Each channel's rows of `byChannel`, sorted by user ID (the order of subscriber lists). */
  sortedByChannel: Map<number, StoredSubscription[]>;
}

const subscriptionIndexes = new WeakMap<StoredSubscription[], SubscriptionIndex>();

function indexSubscription(idx: SubscriptionIndex, s: StoredSubscription): void {
  // The first row for a (user, channel) pair wins, as `Array.prototype.find` did.
  let ofChannel = idx.byChannel.get(s.channelId);
  if (!ofChannel)
    idx.byChannel.set(s.channelId, (ofChannel = new Map<number, StoredSubscription>()));
  if (ofChannel.has(s.userId)) {
    idx.duplicates = true;
    return;
  }
  ofChannel.set(s.userId, s);
  let sorted = idx.sortedByChannel.get(s.channelId);
  if (!sorted) idx.sortedByChannel.set(s.channelId, (sorted = []));
  insertByUserId(sorted, s);
  let ofUser = idx.byUser.get(s.userId);
  if (!ofUser) idx.byUser.set(s.userId, (ofUser = new Map<number, StoredSubscription>()));
  ofUser.set(s.channelId, s);
}

/** Inserts a row into a list sorted by user ID (appends when it comes last, as usual). */
function insertByUserId(rows: StoredSubscription[], s: StoredSubscription): void {
  let lo = 0;
  let hi = rows.length;
  if (hi > 0 && (rows[hi - 1] as StoredSubscription).userId > s.userId)
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((rows[mid] as StoredSubscription).userId < s.userId) lo = mid + 1;
      else hi = mid;
    }
  else lo = hi;
  rows.splice(lo, 0, s);
}

function buildSubscriptionIndex(subs: StoredSubscription[]): SubscriptionIndex {
  const idx: SubscriptionIndex = {
    length: subs.length,
    duplicates: false,
    byChannel: new Map(),
    byUser: new Map(),
    sortedByChannel: new Map(),
  };
  for (const s of subs) indexSubscription(idx, s);
  subscriptionIndexes.set(subs, idx);
  return idx;
}

function subscriptionIndex(org: OrgState): SubscriptionIndex {
  const idx = subscriptionIndexes.get(org.subscriptions);
  if (idx && idx.length === org.subscriptions.length) return idx;
  return buildSubscriptionIndex(org.subscriptions);
}

/** The first active subscription row of a user to a channel (`find(... && s.active)`). */
export function activeSubscriptionOf(
  org: OrgState,
  userId: number,
  channelId: number,
): StoredSubscription | undefined {
  const idx = subscriptionIndex(org);
  if (idx.duplicates)
    return org.subscriptions.find(
      (s) => s.userId === userId && s.channelId === channelId && s.active,
    );
  const s = idx.byChannel.get(channelId)?.get(userId);
  return s?.active ? s : undefined;
}

const NO_SUBSCRIPTIONS: ReadonlyMap<number, StoredSubscription> = new Map();

/** The subscription row (active or not) of a user to a channel. */
export function subscriptionOf(
  org: OrgState,
  userId: number,
  channelId: number,
): StoredSubscription | undefined {
  return subscriptionIndex(org).byChannel.get(channelId)?.get(userId);
}

/** A channel's subscription rows (active or not), by user ID, in insertion order. */
export function subscriptionsOfChannel(
  org: OrgState,
  channelId: number,
): ReadonlyMap<number, StoredSubscription> {
  return subscriptionIndex(org).byChannel.get(channelId) ?? NO_SUBSCRIPTIONS;
}

const NO_ROWS: readonly StoredSubscription[] = [];

/**
 * A channel's subscription rows (active or not), sorted by user ID: the rows of
 * {@link subscriptionsOfChannel}, kept in order as rows are added, so that a subscriber list
 * needs no sorting. Only when {@link subscriptionRowsUnique}.
 */
export function subscriptionRowsOfChannelByUserId(
  org: OrgState,
  channelId: number,
): readonly StoredSubscription[] {
  return subscriptionIndex(org).sortedByChannel.get(channelId) ?? NO_ROWS;
}

/** A user's subscription rows (active or not), by channel ID, in insertion order. */
export function subscriptionsOfUser(
  org: OrgState,
  userId: number,
): ReadonlyMap<number, StoredSubscription> {
  return subscriptionIndex(org).byUser.get(userId) ?? NO_SUBSCRIPTIONS;
}

/**
 * Whether every (user, channel) pair has at most one row, so the index holds every row (a
 * hand-edited state file could repeat one; the emulator never does). Callers that count rows
 * scan the array when not.
 */
export function subscriptionRowsUnique(org: OrgState): boolean {
  return !subscriptionIndex(org).duplicates;
}

/** A user's subscription rows (active or not) in the array's order. */
export function subscriptionRowsOfUser(org: OrgState, userId: number): StoredSubscription[] {
  const idx = subscriptionIndex(org);
  if (idx.duplicates) return org.subscriptions.filter((s) => s.userId === userId);
  return [...(idx.byUser.get(userId)?.values() ?? [])];
}

/** Adds a subscription row (the only way rows are added). */
export function addSubscription(org: OrgState, sub: StoredSubscription): void {
  const idx = subscriptionIndex(org);
  org.subscriptions.push(sub);
  idx.length = org.subscriptions.length;
  indexSubscription(idx, sub);
}

/**
 * Drops the subscription rows from position `length` on (a rolled-back transaction's), from the
 * array and from the index, without rebuilding it: the cost is that of the rows dropped.
 */
export function truncateSubscriptions(org: OrgState, length: number): void {
  const subs = org.subscriptions;
  if (subs.length <= length) return;
  const idx = subscriptionIndexes.get(subs);
  const dropped = subs.splice(length);
  if (!idx) return;
  if (idx.length !== length + dropped.length || idx.duplicates) {
    // Not up to date, or holding repeated rows: built again on next use.
    subscriptionIndexes.delete(subs);
    return;
  }
  idx.length = length;
  for (const s of dropped) {
    const ofChannel = idx.byChannel.get(s.channelId);
    if (ofChannel?.get(s.userId) !== s) continue;
    ofChannel.delete(s.userId);
    idx.byUser.get(s.userId)?.delete(s.channelId);
    const sorted = idx.sortedByChannel.get(s.channelId);
    const at = sorted?.indexOf(s) ?? -1;
    if (at >= 0) sorted?.splice(at, 1);
  }
}

/**
 * Position of the first element with each ID. Lookups check the element found there still has
 * that ID (else rebuild), and an ID that is not in the index is looked for by a scan, so an
 * element replaced in place cannot give a wrong answer.
 */
interface IdIndex {
  length: number;
  position: Map<number, number>;
}

const idIndexes = new WeakMap<ReadonlyArray<{ id: number }>, IdIndex>();

function buildIdIndex(items: ReadonlyArray<{ id: number }>): IdIndex {
  const position = new Map<number, number>();
  items.forEach((x, i) => {
    if (!position.has(x.id)) position.set(x.id, i);
  });
  const idx = { length: items.length, position };
  idIndexes.set(items, idx);
  return idx;
}

function byId<T extends { id: number }>(items: T[], id: number): T | undefined {
  let idx = idIndexes.get(items);
  if (!idx || idx.length !== items.length) idx = buildIdIndex(items);
  let pos = idx.position.get(id);
  if (pos !== undefined && items[pos]?.id !== id) pos = buildIdIndex(items).position.get(id);
  if (pos === undefined) return items.find((x) => x.id === id);
  return items[pos];
}

/** A user by ID (any state). */
export function userById(org: OrgState, id: number): StoredUser | undefined {
  return byId(org.users, id);
}

/** A group by ID (any state). */
export function groupById(org: OrgState, id: number): StoredGroup | undefined {
  return byId(org.groups, id);
}

/**
 * Channels by name: the lowercased name of each, the first channel of a name winning, as the
 * channels were when it was built (their order, and each one's name then).
 */
interface NameIndex {
  readonly channels: StoredChannel[];
  readonly names: string[];
  readonly byName: Map<string, StoredChannel>;
}

const nameIndexes = new WeakMap<StoredChannel[], NameIndex>();

function indexNames(idx: NameIndex, list: readonly StoredChannel[], from: number): void {
  for (let i = from; i < list.length; i++) {
    const c = list[i] as StoredChannel;
    idx.channels.push(c);
    idx.names.push(c.name);
    const key = c.name.toLowerCase();
    if (!idx.byName.has(key)) idx.byName.set(key, c);
  }
}

/** Whether the channels are those indexed, in the same order and with the same names, or more. */
function namesCurrent(idx: NameIndex, list: readonly StoredChannel[]): boolean {
  const { channels, names } = idx;
  if (channels.length > list.length) return false;
  for (let i = 0; i < channels.length; i++) {
    const c = list[i] as StoredChannel;
    if (c !== channels[i] || c.name !== names[i]) return false;
  }
  return true;
}

/**
 * Channels by name, matched as `channelByName` (routes/common.ts) matches them: the stripped
 * name lowercased, archived channels included, the first channel of a name winning. The index
 * is kept between requests and checked on each use against the channels (the same objects in
 * the same order, each with the name it was indexed under, compared by reference): channels
 * added at the end are indexed, and a rename or any other change of the list, through a route
 * or a test editing the state, builds it again. The check costs a comparison per channel, not
 * the lowercasing and hashing of every name per request (a subscribe of a few channels in an
 * organization of 20,000 spent most of its time there).
 */
export function channelsByName(org: OrgState): (name: string) => StoredChannel | undefined {
  const list = org.channels;
  let idx = nameIndexes.get(list);
  if (idx === undefined || !namesCurrent(idx, list)) {
    idx = { channels: [], names: [], byName: new Map() };
    nameIndexes.set(list, idx);
  }
  indexNames(idx, list, idx.channels.length);
  const byName = idx.byName;
  return (name) => byName.get(pyStrip(name).toLowerCase());
}

/** Builds the subscription, user and group indexes now rather than on first use. */
export function buildIndexes(org: OrgState): void {
  subscriptionIndex(org);
  userById(org, -1);
  groupById(org, -1);
}

/** Checks every index against a scan of its array; returns the differences (tests). */
export function indexProblems(org: OrgState): string[] {
  const problems: string[] = [];
  const fresh = new Map<string, StoredSubscription>();
  for (const s of org.subscriptions) {
    const key = `${s.userId}/${s.channelId}`;
    if (!fresh.has(key)) fresh.set(key, s);
  }
  const idx = subscriptionIndex(org);
  let count = 0;
  for (const [channelId, ofChannel] of idx.byChannel)
    for (const [userId, s] of ofChannel) {
      count += 1;
      if (fresh.get(`${userId}/${channelId}`) !== s)
        problems.push(`subscription ${userId}/${channelId} indexed but not in the array`);
      if (subscriptionsOfUser(org, userId).get(channelId) !== s)
        problems.push(`subscription ${userId}/${channelId} missing from the by-user index`);
    }
  if (count !== fresh.size) problems.push(`${fresh.size} subscriptions, ${count} indexed`);
  for (const [channelId, ofChannel] of idx.byChannel) {
    const expected = [...ofChannel.values()].sort((a, b) => a.userId - b.userId);
    const sorted = subscriptionRowsOfChannelByUserId(org, channelId);
    if (sorted.length !== expected.length || sorted.some((s, i) => s !== expected[i]))
      problems.push(`channel ${channelId}: the rows sorted by user ID differ`);
  }
  for (const [key, s] of fresh)
    if (subscriptionOf(org, s.userId, s.channelId) !== s) problems.push(`${key} not indexed`);
  for (const u of org.users)
    if (userById(org, u.id) !== org.users.find((x) => x.id === u.id))
      problems.push(`user ${u.id} indexed wrongly`);
  for (const g of org.groups)
    if (groupById(org, g.id) !== org.groups.find((x) => x.id === g.id))
      problems.push(`group ${g.id} indexed wrongly`);
  const byName = channelsByName(org);
  for (const c of org.channels)
    if (byName(c.name) !== org.channels.find((x) => x.name.toLowerCase() === c.name.toLowerCase()))
      problems.push(`channel ${c.id} indexed wrongly by name`);
  return problems;
}
