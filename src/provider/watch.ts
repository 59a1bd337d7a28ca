import type { DesiredState } from '../model/desired-state';
import { ZulipCdkError, isZulipCdkError } from '../model/errors';
import { KIND_SPECS, RESOURCE_KINDS } from '../model/kinds';
import type { ChangeAction, ResourceKind } from '../model/kinds';
import type { LiveState } from '../model/live-state';
import { plan as makePlan } from '../engine/plan';
import type { Change, JsonValue } from '../engine/plan-format';
import type { ZulipClient } from '../zulip/client';
import { ORG_READ_REGISTER_PARAMS } from '../zulip/wire/register';
import type { WireEvent } from '../zulip/wire/register';
import { liveStateOfRegistration } from './read-live-state';

/**
 * The event types to register for: those of every kind the configuration declares objects of
 * or prunes (a hand-made object of a pruned kind is drift too), sorted.
 */
export function watchEventTypes(desired: DesiredState): string[] {
  const types = new Set<string>();
  for (const kind of RESOURCE_KINDS)
    if (manages(desired, kind)) for (const t of KIND_SPECS[kind].events) types.add(t);
  return [...types].sort();
}

/** Whether the configuration declares objects of `kind` or prunes it. */
function manages(desired: DesiredState, kind: ResourceKind): boolean {
  const list = (desired as unknown as Record<string, unknown[]>)[KIND_SPECS[kind].collection];
  const prune = desired.organization.prune as Partial<Record<ResourceKind, boolean>>;
  return (list !== undefined && list.length > 0) || prune[kind] === true;
}

/**
 * One difference between the configuration and the organization: one property of one object
 * (or the object itself, for a missing or extra one), in the planner's terms.
 */
export interface Difference {
  /** Stable identity: `<change id>` or `<change id>:<property>`. */
  readonly key: string;
  readonly kind: ResourceKind;
  /** The planner's resource address, e.g. `channel["backend"]`. */
  readonly address: string;
  /** The construct path that declares the object; null for an undeclared object of a pruned kind. */
  readonly path: string | null;
  /** What `apply` would do to undo it. */
  readonly action: ChangeAction;
  /** The property, e.g. `permissions.canSendMessageGroup` or `members[bob@acme.example]`. */
  readonly property?: string;
  /** The value in the organization now, in natural-key terms (null: the object is missing). */
  readonly live: JsonValue;
  /** The value the configuration says (null: the object should not exist). */
  readonly desired: JsonValue;
  /** The live object's Zulip ID, when it exists. */
  readonly liveId?: number;
}

/** Why the watcher compared the organization with the configuration. */
export type WatchCause =
  /** The first comparison, when the queue was registered. */
  | 'start'
  /** Zulip sent events about managed objects. */
  | 'events'
  /** A new queue after `BAD_EVENT_QUEUE_ID` (expired) or a lost connection: the gap is covered. */
  | 'reregistered';

/** What the watcher reports, in order. */
export type WatchEvent =
  | {
      readonly type: 'watching';
      readonly at: string;
      readonly site: string;
      readonly organization: string;
      readonly eventTypes: readonly string[];
      /** How many differences there were at the start (each also reported as `drift`). */
      readonly differences: number;
    }
  | (Difference & {
      readonly type: 'drift';
      /** When the watcher saw it (ISO 8601). */
      readonly at: string;
      readonly cause: WatchCause;
      /**
       * The Zulip events that announced it (`type/op:property`), those about the same object
       * when the events name one. Zulip's events do not say who made a change.
       */
      readonly events: readonly string[];
    })
  | {
      /** A reported difference is gone: undone by hand, or applied. */
      readonly type: 'resolved';
      readonly at: string;
      readonly key: string;
      readonly kind: ResourceKind;
      readonly address: string;
      readonly path: string | null;
      readonly property?: string;
      readonly cause: WatchCause;
    }
  | {
      /**
       * The configuration cannot be planned against the organization as it is now, because of a
       * change made in Zulip (a channel or folder the configuration names was renamed or
       * deleted, a configured address changed): drift too, reported once per message; the
       * differences are compared again once it can be planned.
       */
      readonly type: 'unplannable';
      readonly at: string;
      readonly cause: WatchCause;
      /** The planner's error (which names each construct path), and its hint. */
      readonly message: string;
      readonly code: string;
    }
  | {
      /** The queue is gone (`BAD_EVENT_QUEUE_ID`) or the connection failed; what follows re-reads. */
      readonly type: 'reconnecting';
      readonly at: string;
      readonly reason: 'queue-expired' | 'connection';
      /** The error, secrets redacted. */
      readonly message: string;
      /** How long until the next attempt. */
      readonly delayMs: number;
    };

/** Options of {@link watchDrift}. */
export interface WatchOptions {
  /** A client for the organization (an administrator's credentials, as for `plan`). */
  readonly client: ZulipClient;
  /** The configuration (what `zulip-cdk synth` writes). */
  readonly desired: DesiredState;
  /** Receives every report as it happens; awaited (backpressure). */
  readonly onEvent: (event: WatchEvent) => void | Promise<void>;
  /** Stops the watcher: it deletes its queue and resolves. */
  readonly signal?: AbortSignal;
  /**
   * How long to wait after a batch of events before reading the organization, so the changes
   * of one apply or one click are compared once. Default 150 ms.
   */
  readonly settleMs?: number;
  /** Delays between attempts after a failed request: the first, doubled up to the last. Default 1 s to 30 s. */
  readonly retryDelayMs?: { readonly min: number; readonly max: number };
  /** Injectable for tests. */
  readonly now?: () => Date;
}

function changeDifferences(c: Change): Difference[] {
  const base = {
    kind: c.kind,
    address: c.address,
    path: c.path,
    action: c.action,
    ...('liveId' in c && typeof c.liveId === 'number' ? { liveId: c.liveId } : {}),
  };
  switch (c.action) {
    case 'update':
      return c.properties.map((p) => ({
        ...base,
        key: `${c.id}:${p.property}`,
        property: p.property,
        live: p.before,
        desired: p.after,
      }));
    case 'create':
      return [{ ...base, key: c.id, live: null, desired: c.properties }];
    case 'archive':
    case 'deactivate':
    case 'delete':
      return c.reason === 'prune'
        ? [{ ...base, key: c.id, live: c.before, desired: null }]
        : [{ ...base, key: c.id, property: c.action, live: false, desired: true }];
    case 'unarchive':
    case 'reactivate':
      return [
        {
          ...base,
          key: c.id,
          property: c.action === 'unarchive' ? 'archive' : 'deactivate',
          live: true,
          desired: false,
        },
      ];
    case 'rename':
      return [{ ...base, key: c.id, property: 'name', live: c.from, desired: c.to }];
    case 'replace':
      return [{ ...base, key: c.id, live: c.before, desired: c.after }];
    case 'reorder':
      return [
        {
          ...base,
          key: c.id,
          property: 'order',
          live: c.before,
          desired: c.after.map((x) => x.key),
        },
      ];
    case 'membership': {
      const out: Difference[] = [];
      const one = (what: string, name: string, desired: boolean): void => {
        const property = `${what}[${name}]`;
        out.push({ ...base, key: `${c.id}:${property}`, property, live: !desired, desired });
      };
      for (const u of c.add) one(c.collection, u.email, true);
      for (const u of c.remove) one(c.collection, u.email, false);
      for (const g of c.addSubgroups) one('subgroups', g.name, true);
      for (const g of c.removeSubgroups) one('subgroups', g.name, false);
      return out;
    }
  }
}

/** Every difference a plan of `desired` against `live` shows, by key. */
export function differences(desired: DesiredState, live: LiveState): Map<string, Difference> {
  const out = new Map<string, Difference>();
  for (const c of makePlan(desired, live).changes)
    for (const d of changeDifferences(c)) out.set(d.key, d);
  return out;
}

/** What a `realm_user` update may carry that no configuration manages (no comparison for it). */
const COSMETIC_PERSON_KEYS: ReadonlySet<string> = new Set([
  'user_id',
  'timezone',
  'avatar_url',
  'avatar_url_medium',
  'avatar_source',
  'avatar_version',
  'is_imported_stub',
]);

/**
 * Whether an event changes nothing a configuration manages: a user's time zone or avatar
 * (zerver/actions/user_settings.py sends `realm_user`/`update` for each), so that a busy
 * organization is not read again for every such change.
 */
export function isCosmetic(e: WireEvent): boolean {
  if (e.type !== 'realm_user' || e.op !== 'update') return false;
  const person = e.person;
  if (person === null || typeof person !== 'object' || Array.isArray(person)) return false;
  return Object.keys(person).every((k) => COSMETIC_PERSON_KEYS.has(k));
}

/** `type/op:property` of an event, for reports. */
export function describeEvent(e: WireEvent): string {
  // `realm/update_dict` says `property: 'default'` and `user_group/update` none: what changed
  // is the keys of `data` (zerver/actions/realm_settings.py, user_groups.py).
  const data =
    e.data !== null && typeof e.data === 'object' && !Array.isArray(e.data)
      ? Object.keys(e.data).sort().join(',')
      : '';
  const detail =
    typeof e.property === 'string' && e.property !== 'default'
      ? e.property
      : data !== ''
        ? data
        : typeof e.property === 'string'
          ? e.property
          : '';
  return `${e.type}${e.op === undefined ? '' : `/${e.op}`}${detail === '' ? '' : `:${detail}`}`;
}

/** The IDs an event names of channels (`stream_id`, `stream_ids`, `streams`) or groups (`group_id`). */
function eventIds(e: WireEvent): { channels: number[]; groups: number[] } {
  const channels: number[] = [];
  if (typeof e.stream_id === 'number') channels.push(e.stream_id);
  if (Array.isArray(e.stream_ids)) channels.push(...(e.stream_ids as number[]));
  // `stream/create` and `delete` list `streams`, `subscription/add` and `remove` list
  // `subscriptions`, each with its `stream_id`.
  for (const list of [e.streams, e.subscriptions])
    if (Array.isArray(list))
      for (const s of list as { stream_id?: unknown }[])
        if (typeof s.stream_id === 'number') channels.push(s.stream_id);
  const groups = typeof e.group_id === 'number' ? [e.group_id] : [];
  // `user_group/add` carries the new group as `group`.
  const group = e.group as { id?: unknown } | undefined;
  if (group !== null && typeof group === 'object' && typeof group.id === 'number')
    groups.push(group.id);
  return { channels, groups };
}

/**
 * The events of a batch that are about the difference's object: for channels and groups, those
 * naming its ID (or naming no channel or group); for other kinds, those of the kind's types.
 */
function eventsAbout(d: Difference, events: readonly WireEvent[]): string[] {
  const types: readonly string[] = KIND_SPECS[d.kind].events;
  const id = d.kind === 'channel' || d.kind === 'userGroup' ? d.liveId : undefined;
  return events
    .filter((e) => {
      if (!types.includes(e.type)) return false;
      if (id === undefined) return true;
      const ids = eventIds(e);
      const named = d.kind === 'channel' ? ids.channels : ids.groups;
      return named.length === 0 || named.includes(id);
    })
    .map(describeEvent);
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Errors after which the same request may work again later (the server or network, not us). */
function isTransient(e: unknown): boolean {
  return (
    isZulipCdkError(e, 'NETWORK_ERROR') ||
    isZulipCdkError(e, 'SERVER_UNAVAILABLE') ||
    isZulipCdkError(e, 'SERVER_ERROR') ||
    isZulipCdkError(e, 'REQUEST_OUTCOME_UNKNOWN') ||
    isZulipCdkError(e, 'RATE_LIMIT_HIT')
  );
}

/**
 * Watches the organization for changes to what the configuration manages and reports each
 * difference as it appears (and when it goes away), until `signal` aborts.
 *
 * How: one `POST /register` for the managed event types (see {@link watchEventTypes}) that also
 * returns the organization's state, so the first comparison and the queue start at the same
 * point (Zulip's guarantee: no event is lost between the state and the queue); then `GET /events`
 * long-polls with `last_event_id` (Zulip answers a heartbeat when idle). When events arrive, the
 * watcher registers a new queue with a fresh state, deletes the old one and plans the
 * configuration against it: every difference is reported with the planner's address and
 * construct path. When the queue is gone (`BAD_EVENT_QUEUE_ID`: Zulip garbage-collects a queue
 * after 10 minutes without a request) or the connection fails, it registers again and compares:
 * what changed in the gap is reported (cause `reregistered`), so nothing is missed. Memory is
 * bounded: it keeps the current differences and the queue ID, never the events.
 *
 * Never prints. Throws on errors that waiting does not fix (credentials, a configuration Zulip
 * refuses).
 *
 * @example
 * const controller = new AbortController();
 * await watchDrift({
 *   client: ZulipClient.fromEnvironment(),
 *   desired: Testing.synth(org),
 *   signal: controller.signal,
 *   onEvent: (e) => { if (e.type === 'drift') console.log(e.address, e.property); },
 * });
 */
export async function watchDrift(options: WatchOptions): Promise<void> {
  const { client, desired, signal } = options;
  const now = options.now ?? ((): Date => new Date());
  const settleMs = options.settleMs ?? 150;
  const retry = options.retryDelayMs ?? { min: 1000, max: 30_000 };
  const eventTypes = watchEventTypes(desired);
  // Each comparison reads the organization again: the emoji images (a request each) only when
  // the configuration manages emoji.
  const emojiImages = manages(desired, 'customEmoji');
  let current = new Map<string, Difference>();
  /** The last `unplannable` message reported, while the configuration cannot be planned. */
  let unplannable: string | undefined;
  let queue: { id: string; lastEventId: number } | undefined;
  let started = false;
  let failures = 0;

  const aborted = (): boolean => signal?.aborted === true;
  // Deleting the queue ends a waiting long-poll at once (Zulip's ClientDescriptor.cleanup
  // finishes the connected handler; zerver/tornado/event_queue.py).
  const onAbort = (): void => {
    if (queue !== undefined) void client.deleteEventQueue(queue.id).catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });

  /** Registers a queue with the state, compares, reports; deletes the previous queue. */
  async function snapshot(cause: WatchCause, events: readonly WireEvent[]): Promise<void> {
    const reg = await client.register({ ...ORG_READ_REGISTER_PARAMS, event_types: eventTypes });
    const previous = queue;
    // Polled from the queue's start, not from the register's `last_event_id`: Zulip folds into
    // the state only the events of the types it fetched while building it
    // (zerver/lib/events.py do_events_register), yet moves `last_event_id` past the others
    // (a channel or group changed meanwhile). Those events stay in the queue until asked for:
    // polling from -1 delivers them, and they are compared like any other.
    queue = typeof reg.queue_id === 'string' ? { id: reg.queue_id, lastEventId: -1 } : undefined;
    if (previous !== undefined && previous.id !== queue?.id)
      await client.deleteEventQueue(previous.id).catch(() => undefined);
    if (queue === undefined)
      throw new ZulipCdkError(
        'UNEXPECTED_RESPONSE',
        'POST /register returned no event queue, so there is nothing to watch.',
        { where: 'POST /register', hint: 'Watch with credentials of a user of the organization.' },
      );
    const live = await liveStateOfRegistration(client, reg, { emojiImages });
    let next: Map<string, Difference>;
    try {
      next = differences(desired, live);
      unplannable = undefined;
    } catch (e) {
      // At the start it is the configuration's error (thrown); later, a change made in Zulip.
      if (!started || !isZulipCdkError(e)) throw e;
      const message = e.hint ? `${e.message}\n  hint: ${e.hint}` : e.message;
      if (message !== unplannable) {
        unplannable = message;
        await options.onEvent({
          type: 'unplannable',
          at: now().toISOString(),
          cause,
          code: e.code,
          message,
        });
      }
      return;
    }
    const at = now().toISOString();
    if (!started) {
      started = true;
      await options.onEvent({
        type: 'watching',
        at,
        site: client.site,
        organization: desired.organization.id,
        eventTypes,
        differences: next.size,
      });
    }
    for (const [key, d] of next) {
      const old = current.get(key);
      if (old !== undefined && sameJson(old.live, d.live)) continue;
      await options.onEvent({ type: 'drift', at, cause, events: eventsAbout(d, events), ...d });
    }
    for (const [key, d] of current)
      if (!next.has(key))
        await options.onEvent({
          type: 'resolved',
          at,
          key,
          kind: d.kind,
          address: d.address,
          path: d.path,
          ...(d.property === undefined ? {} : { property: d.property }),
          cause,
        });
    current = next;
  }

  async function backoff(reason: 'queue-expired' | 'connection', e: unknown): Promise<void> {
    const delayMs =
      reason === 'queue-expired' ? 0 : Math.min(retry.max, retry.min * 2 ** Math.min(failures, 16));
    failures += 1;
    await options.onEvent({
      type: 'reconnecting',
      at: now().toISOString(),
      reason,
      message: e instanceof Error ? e.message : String(e),
      delayMs,
    });
    await sleep(delayMs, signal);
  }

  let cause: WatchCause = 'start';
  try {
    while (!aborted()) {
      if (queue === undefined) {
        try {
          await snapshot(cause, []);
          failures = 0;
        } catch (e) {
          if (!isTransient(e) || aborted()) throw e;
          await backoff('connection', e);
          continue;
        }
      }
      const q = queue as unknown as { id: string; lastEventId: number };
      let events: WireEvent[];
      try {
        const res = await client.getEvents({ queue_id: q.id, last_event_id: q.lastEventId });
        failures = 0;
        events = res.events;
      } catch (e) {
        if (aborted()) break;
        if (isZulipCdkError(e, 'BAD_EVENT_QUEUE_ID')) {
          queue = undefined;
          cause = 'reregistered';
          await backoff('queue-expired', e);
          continue;
        }
        if (!isTransient(e)) throw e;
        // The queue keeps the events while we are away (up to 10 minutes); if it expires
        // meanwhile, BAD_EVENT_QUEUE_ID re-registers with a fresh state.
        await backoff('connection', e);
        continue;
      }
      if (aborted()) break;
      for (const e of events) q.lastEventId = Math.max(q.lastEventId, e.id);
      const changes = events.filter((e) => e.type !== 'heartbeat' && !isCosmetic(e));
      if (changes.length === 0) continue;
      await sleep(settleMs, signal);
      if (aborted()) break;
      try {
        await snapshot('events', changes);
      } catch (e) {
        if (!isTransient(e)) throw e;
        // The old queue still holds the place; compare again once the server answers.
        queue = undefined;
        cause = 'reregistered';
        await backoff('connection', e);
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (queue !== undefined) await client.deleteEventQueue(queue.id).catch(() => undefined);
  }
}
