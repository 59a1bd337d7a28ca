import { supports } from '../../model/features';
import type { Change, CreateChange, MembershipChange } from '../plan-format';
import { REMOVAL_ACTIONS } from '../plan-format';
import type { SubscribeCall, UnsubscribeCall } from './types';

/** The order an apply runs the plan in, and which memberships go out with their create. */
export interface ExecutionOrder {
  /** Every change except folded memberships, dependencies first. */
  readonly order: readonly Change[];
  /** Create id → the membership of the object it creates, sent in the same request. */
  readonly folds: ReadonlyMap<string, MembershipChange>;
  /** Membership id → the create it is folded into. */
  readonly foldedInto: ReadonlyMap<string, string>;
  /** Each change's dependencies, folded memberships replaced by their create. */
  readonly deps: ReadonlyMap<string, readonly string[]>;
}

/**
 * The plan's order with the memberships of new channels and groups folded into their create
 * (one request instead of two): a new group's create waits for the subgroups its members need.
 * A stable topological sort keeps the plan's order wherever dependencies allow; if folding a
 * group's membership would make a cycle, groups are not folded.
 */
export function executionOrder(changes: readonly Change[]): ExecutionOrder {
  return tryOrder(changes, true) ?? tryOrder(changes, false) ?? plain(changes);
}

function plain(changes: readonly Change[]): ExecutionOrder {
  return {
    order: changes,
    folds: new Map(),
    foldedInto: new Map(),
    deps: new Map(changes.map((c) => [c.id, c.dependsOn])),
  };
}

function tryOrder(changes: readonly Change[], foldGroups: boolean): ExecutionOrder | undefined {
  const byId = new Map(changes.map((c) => [c.id, c]));
  const folds = new Map<string, MembershipChange>();
  const foldedInto = new Map<string, string>();
  for (const c of changes) {
    if (c.action !== 'membership' || c.liveId !== null) continue;
    if (c.kind === 'userGroup' && !foldGroups) continue;
    const create = byId.get(`${c.address}#create`);
    if (create?.action !== 'create') continue;
    folds.set(create.id, c);
    foldedInto.set(c.id, create.id);
  }
  const deps = new Map<string, string[]>();
  const mapDep = (d: string): string => foldedInto.get(d) ?? d;
  for (const c of changes) {
    if (foldedInto.has(c.id)) continue;
    const set = new Set(c.dependsOn.map(mapDep));
    const fold = folds.get(c.id);
    if (fold) for (const d of fold.dependsOn) set.add(mapDep(d));
    set.delete(c.id);
    deps.set(
      c.id,
      [...set].filter((d) => byId.has(d)),
    );
  }
  const kept = changes.filter((c) => !foldedInto.has(c.id));
  const sorted = stableTopoSort(kept, deps);
  if (!sorted) return undefined;
  return { order: sorted, folds, foldedInto, deps };
}

/** Kahn's algorithm, always taking the ready change that comes first in the plan. */
function stableTopoSort(
  changes: readonly Change[],
  deps: ReadonlyMap<string, readonly string[]>,
): Change[] | undefined {
  const index = new Map(changes.map((c, i) => [c.id, i]));
  const indegree = changes.map((c) => (deps.get(c.id) ?? []).filter((d) => index.has(d)).length);
  const dependents = changes.map(() => [] as number[]);
  changes.forEach((c, i) => {
    for (const d of deps.get(c.id) ?? []) {
      const j = index.get(d);
      if (j !== undefined) dependents[j]!.push(i);
    }
  });
  const ready: number[] = [];
  indegree.forEach((n, i) => {
    if (n === 0) ready.push(i);
  });
  const out: Change[] = [];
  while (ready.length > 0) {
    ready.sort((a, b) => a - b);
    const i = ready.shift()!;
    out.push(changes[i]!);
    for (const j of dependents[i]!) {
      indegree[j]! -= 1;
      if (indegree[j] === 0) ready.push(j);
    }
  }
  return out.length === changes.length ? out : undefined;
}

/**
 * Whether apply may run a change before the subscription batches collected so far go out.
 * Removals, reorders and role changes come last in a plan on purpose (the applying account
 * keeps its rights, objects are detached before they go): batches are flushed before them.
 */
export function isBarrier(c: Change): boolean {
  return (
    (REMOVAL_ACTIONS as readonly string[]).includes(c.action) ||
    c.action === 'reorder' ||
    c.kind === 'user'
  );
}

/** Calls with the channels and principals of each, and the changes each call serves. */
export interface PlannedCall<T> {
  readonly call: T;
  readonly changeIds: readonly string[];
}

/**
 * The fewest calls that make the given (channel × user) pairs: grouped either by identical
 * principal sets (one call per set, many channels) or by identical channel sets (one call per
 * set, many users), whichever needs fewer calls. Notifying and silent subscriptions never share
 * a call.
 */
export function groupPairs(
  pairs: readonly { channel: string; user: number; changeId: string; notify: boolean }[],
): PlannedCall<SubscribeCall>[] {
  const out: PlannedCall<SubscribeCall>[] = [];
  for (const notify of [false, true]) {
    const mine = pairs.filter((p) => p.notify === notify);
    if (mine.length === 0) continue;
    const usersByChannel = new Map<string, Set<number>>();
    const channelsByUser = new Map<number, Set<string>>();
    const changesByChannel = new Map<string, Set<string>>();
    for (const p of mine) {
      if (!usersByChannel.has(p.channel)) usersByChannel.set(p.channel, new Set());
      usersByChannel.get(p.channel)!.add(p.user);
      if (!channelsByUser.has(p.user)) channelsByUser.set(p.user, new Set());
      channelsByUser.get(p.user)!.add(p.channel);
      if (!changesByChannel.has(p.channel)) changesByChannel.set(p.channel, new Set());
      changesByChannel.get(p.channel)!.add(p.changeId);
    }
    const byPrincipals = new Map<string, { users: number[]; channels: string[] }>();
    for (const [channel, users] of usersByChannel) {
      const sorted = [...users].sort((a, b) => a - b);
      const k = sorted.join(',');
      const e = byPrincipals.get(k) ?? { users: sorted, channels: [] };
      e.channels.push(channel);
      byPrincipals.set(k, e);
    }
    const byChannels = new Map<string, { users: number[]; channels: string[] }>();
    for (const [user, channels] of channelsByUser) {
      const sorted = [...channels].sort();
      const k = JSON.stringify(sorted);
      const e = byChannels.get(k) ?? { users: [], channels: sorted };
      e.users.push(user);
      byChannels.set(k, e);
    }
    const groups = byChannels.size < byPrincipals.size ? byChannels : byPrincipals;
    for (const g of groups.values()) {
      const ids = new Set<string>();
      for (const ch of g.channels) for (const id of changesByChannel.get(ch) ?? []) ids.add(id);
      out.push({
        call: {
          channels: [...g.channels].sort(),
          principals: [...g.users].sort((a, b) => a - b),
          notify,
        },
        changeIds: [...ids].sort(),
      });
    }
  }
  return out;
}

/** Subscribe and unsubscribe calls for a batch of channel membership changes. */
export function subscriptionCalls(changes: readonly MembershipChange[]): {
  subscribe: PlannedCall<SubscribeCall>[];
  unsubscribe: PlannedCall<UnsubscribeCall>[];
} {
  const adds = changes.flatMap((c) =>
    c.add.map((u) => ({ channel: c.key, user: u.id, changeId: c.id, notify: c.notify })),
  );
  const removes = changes.flatMap((c) =>
    c.remove.map((u) => ({ channel: c.key, user: u.id, changeId: c.id, notify: false })),
  );
  return {
    subscribe: groupPairs(adds),
    unsubscribe: groupPairs(removes).map((p) => ({
      call: { channels: p.call.channels, principals: p.call.principals },
      changeIds: p.changeIds,
    })),
  };
}

/** Whether a change creates an object (a retry must first check that it did not land). */
export function isCreate(c: Change): c is CreateChange {
  return c.action === 'create';
}

/** Zulip's default limit for authenticated API requests (`api_by_user`: 200 a minute). */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 200;

/** The re-read apply makes before writing (`POST /register`, `DELETE /events`). */
const APPLY_READ_REQUESTS = 2;

/**
 * The requests an apply of these changes sends when nothing fails, reads included: the walk of
 * `applyPlan` (executor.ts) without sending anything. Memberships of new objects go with their
 * create; channel memberships and subscription settings are batched until a barrier or a change
 * that depends on them; a replace is two requests, and a channel update with both plain fields
 * and group settings two `PATCH /streams/{id}` (they are kept apart, write-channels.ts).
 * Below FL 417 a channel is created by a subscribe and looked up by `GET /streams` (two
 * requests). A saved snippet's create is followed by `GET /saved_snippets` (the check for a
 * twin another apply made at the same time). Creates whose settings Zulip ignores on creation
 * can add a `PATCH` each: the prediction is a floor of what apply sends.
 */
export function predictRequests(changes: readonly Change[], featureLevel?: number): number {
  const createChannel =
    featureLevel === undefined || supports(featureLevel, 'channelsCreate') ? 1 : 2;
  const exec = executionOrder(changes);
  let requests = APPLY_READ_REQUESTS;
  let memberships: MembershipChange[] = [];
  let settings = 0;
  const pending = new Set<string>();
  const flush = (): void => {
    const calls = subscriptionCalls(memberships);
    requests += calls.subscribe.length + calls.unsubscribe.length + (settings > 0 ? 1 : 0);
    memberships = [];
    settings = 0;
    pending.clear();
  };
  for (const c of exec.order) {
    const deps = exec.deps.get(c.id) ?? [];
    if (pending.size > 0 && (isBarrier(c) || deps.some((d) => pending.has(d)))) flush();
    if (c.action === 'membership' && c.kind === 'channel') {
      memberships.push(c);
      pending.add(c.id);
    } else if (c.action === 'update' && c.kind === 'subscriptionSettings') {
      settings += 1;
      pending.add(c.id);
    } else if (c.action === 'replace') requests += 2;
    else if (c.action === 'update' && c.kind === 'channel') {
      const group = c.properties.filter((p) => p.property.startsWith('permissions.')).length;
      requests += group > 0 && group < c.properties.length ? 2 : 1;
    } else if (c.action === 'create' && c.kind === 'channel') requests += createChannel;
    // Zulip does not keep snippet titles unique: after a create, apply reads the snippets
    // (`GET /saved_snippets`) for a twin that another apply made at the same time.
    else if (c.action === 'create' && c.kind === 'savedSnippet') requests += 2;
    else requests += 1;
  }
  if (pending.size > 0) flush();
  return requests;
}
