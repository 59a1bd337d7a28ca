import { hasMetadataAccess } from './permissions';
import type { PendingEvent, RequestContext, ServerCore } from './router';
import type { StoredChannel } from './state';

/**
 * The audience of a channel's events (active users who can see its metadata), as far as it can
 * matter: only users with a registered event queue are considered, since the audience is only
 * used to deliver to queues. With no queue registered (an apply, most requests), nothing is
 * computed; otherwise the permission check runs per listening user, not per user of the realm.
 */
export function channelAudience(ctx: RequestContext, ch: StoredChannel): number[] {
  const listening = new Set<number>();
  for (const q of ctx.core.queues.values()) listening.add(q.userId);
  if (listening.size === 0) return [];
  const org = ctx.org;
  return org.users
    .filter((u) => listening.has(u.id) && u.isActive && hasMetadataAccess(org, u, ch))
    .map((u) => u.id);
}

/**
 * Whether a queue registered for `types` gets an event of `type`: the exact event type must be
 * listed (zerver/tornado/event_queue.py ClientDescriptor.accepts_event; not in the reference
 * subset, read from zulip/zulip). A fetch name such as `realm_user_groups` does not subscribe to
 * `user_group` events.
 */
function wants(types: string[] | null, type: string): boolean {
  return types === null || types.includes(type);
}

/** Appends events to the queues of their users and wakes their long-pollers. */
export function deliverEvents(core: ServerCore, pending: readonly PendingEvent[]): void {
  if (pending.length === 0 || core.queues.size === 0) return;
  const active = new Set(core.org.users.filter((u) => u.isActive).map((u) => u.id));
  for (const q of core.queues.values()) {
    let added = false;
    for (const p of pending) {
      const forUser = p.users === 'all' ? active.has(q.userId) : p.users.includes(q.userId);
      if (!forUser || !wants(q.eventTypes, String(p.event.type))) continue;
      if (p.capability !== undefined && q.capabilities[p.capability] !== true) continue;
      if (p.withoutCapability !== undefined && q.capabilities[p.withoutCapability] === true)
        continue;
      q.lastEventId += 1;
      q.events.push({ ...p.event, id: q.lastEventId });
      added = true;
    }
    if (added) for (const w of q.waiters.splice(0)) w();
  }
}
