import { hasMetadataAccess } from './permissions';
import type { PendingEvent, ServerCore } from './router';
import type { OrgState, StoredChannel } from './state';

/** Active users who can see a channel's metadata (the audience of its events). */
export function channelAudience(org: OrgState, ch: StoredChannel): number[] {
  return org.users.filter((u) => u.isActive && hasMetadataAccess(org, u, ch)).map((u) => u.id);
}

/** Event types a queue registered for, by the name clients pass in `event_types`. */
const TYPE_ALIASES: Record<string, string> = { realm_user_groups: 'user_group' };

function wants(types: string[] | null, type: string): boolean {
  if (types === null) return true;
  return types.some((t) => (TYPE_ALIASES[t] ?? t) === type);
}

/** Appends events to the queues of their users and wakes their long-pollers. */
export function deliverEvents(core: ServerCore, pending: readonly PendingEvent[]): void {
  if (pending.length === 0) return;
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
