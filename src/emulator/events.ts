import { findUser, inChannelMetadataAudience, isGuest, subscriberIds } from './permissions';
import { withoutPronounsType } from './compatibility';
import type { EventQueue, PendingEvent, RequestContext, ServerCore } from './router';
import type { StoredChannel } from './state';

/**
 * zerver/lib/streams.py `can_access_stream_metadata_user_ids`, the audience of a channel's
 * `stream` events (see {@link inChannelMetadataAudience}: a guest not subscribed to a
 * web-public channel is not in it), as far as it can matter: only users with a registered
 * event queue are considered, since the audience is only used to deliver to queues. With no
 * queue registered (an apply, most requests), nothing is computed; otherwise the check runs per
 * listening user, not per user of the realm.
 */
export function channelAudience(ctx: RequestContext, ch: StoredChannel): number[] {
  const listening = new Set(listeningUsers(ctx));
  if (listening.size === 0) return [];
  const org = ctx.org;
  return org.users
    .filter((u) => listening.has(u.id) && u.isActive && inChannelMetadataAudience(org, u, ch))
    .map((u) => u.id);
}

/**
 * Who Zulip tells of a new channel (zerver/lib/streams.py `create_stream_if_needed`) and of
 * its subscribers (zerver/actions/streams.py `send_peer_subscriber_events`): every active user
 * for a web-public channel (`active_user_ids`, guests included), else {@link channelAudience}.
 */
export function channelPeerAudience(ctx: RequestContext, ch: StoredChannel): number[] {
  if (ch.inviteOnly || !ch.isWebPublic) return channelAudience(ctx, ch);
  const listening = new Set(listeningUsers(ctx));
  return ctx.org.users.filter((u) => listening.has(u.id) && u.isActive).map((u) => u.id);
}

/** The users with a registered event queue (each once), the only ones an event can reach. */
export function listeningUsers(ctx: RequestContext): number[] {
  const ids = new Set<number>();
  for (const q of ctx.core.queues.values()) ids.add(q.userId);
  return [...ids];
}

/**
 * The feature level to build events at when a queue is registered, else undefined: for the
 * events whose audience is costly to compute (the channel events of a group change), computed
 * only when there is a queue to deliver them to.
 */
export function listeningLevel(ctx: RequestContext): number | undefined {
  return ctx.core.queues.size > 0 ? ctx.featureLevel : undefined;
}

/**
 * zerver/actions/streams.py `send_peer_subscriber_events`: `subscription` `peer_add` or
 * `peer_remove` for the users each channel of `altered` gained or lost (user IDs sorted), to
 * the channel's audience (who can see its subscribers) but those users. A private channel sends
 * its own event, in the map's order. The public channels are grouped by their set of altered
 * users; per group, in channel ID order, one event for each channel with a guest among its
 * active subscribers, then one event for all its web-public channels and one for the rest
 * (`stream_ids` sorted: their audiences are the same).
 */
export function sendPeerSubscriberEvents(
  ctx: RequestContext,
  op: 'peer_add' | 'peer_remove',
  altered: ReadonlyMap<StoredChannel, readonly number[]>,
): void {
  const send = (channels: StoredChannel[], userIds: number[]): void => {
    const skip = new Set(userIds);
    ctx.events.push({
      users: channelPeerAudience(ctx, channels[0]!).filter((id) => !skip.has(id)),
      event: { type: 'subscription', op, stream_ids: channels.map((c) => c.id), user_ids: userIds },
    });
  };
  const publicGroups = new Map<string, { userIds: number[]; channels: StoredChannel[] }>();
  for (const [ch, ids] of altered) {
    if (ids.length === 0) continue;
    const userIds = [...ids].sort((a, b) => a - b);
    if (ch.inviteOnly) {
      send([ch], userIds);
      continue;
    }
    const key = userIds.join(',');
    const group = publicGroups.get(key) ?? { userIds, channels: [] };
    group.channels.push(ch);
    publicGroups.set(key, group);
  }
  const hasGuestSubscriber = (ch: StoredChannel): boolean =>
    subscriberIds(ctx.org, ch.id).some((id) => {
      const u = findUser(ctx.org, id);
      return u !== undefined && isGuest(u);
    });
  for (const { userIds, channels } of publicGroups.values()) {
    const byId = [...channels].sort((a, b) => a.id - b.id);
    const withoutGuests: StoredChannel[] = [];
    for (const ch of byId) {
      if (ch.isWebPublic) continue;
      if (hasGuestSubscriber(ch)) send([ch], userIds);
      else withoutGuests.push(ch);
    }
    const webPublic = byId.filter((ch) => ch.isWebPublic);
    if (webPublic.length > 0) send(webPublic, userIds);
    if (withoutGuests.length > 0) send(withoutGuests, userIds);
  }
}

/** A `user_group` `add_members` / `remove_members` event of one group, to every active user. */
export function groupMembersEvent(
  op: 'add_members' | 'remove_members',
  groupId: number,
  userIds: readonly number[],
): PendingEvent {
  return {
    users: 'all',
    event: { type: 'user_group', op, group_id: groupId, user_ids: [...userIds] },
  };
}

/**
 * zerver/lib/streams.py `send_stream_deletion_event`: `stream` `delete` of `channels` to
 * `users` (`streams`, deprecated, and `stream_ids`). Zulip's event also has `for_archiving`,
 * which Tornado reads (an archiving's `delete` goes only to queues without the
 * `archived_channels` capability) and does not deliver: test_events.py `check_stream_delete`
 * allows no other field, for an archiving (test_deactivate_stream_neversubscribed) as for a
 * group change (test_user_group_events_on_stream_metadata_access_change). `only` restricts the
 * queues the same way.
 */
export function sendStreamDeletionEvent(
  events: PendingEvent[],
  users: number[],
  channels: readonly StoredChannel[],
  only: Pick<PendingEvent, 'withoutCapability'> = {},
): void {
  events.push({
    users,
    ...only,
    event: {
      type: 'stream',
      op: 'delete',
      streams: channels.map((ch) => ({ stream_id: ch.id })),
      stream_ids: channels.map((ch) => ch.id),
    },
  });
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

/**
 * The event as a queue gets it: Tornado's `process_custom_profile_fields_event` sends a client
 * without the pronouns field type (`pronouns_field_type_supported`) a `custom_profile_fields`
 * event of its own, its pronouns fields as short text fields, and only `type` and `fields`.
 */
function queueEvent(q: EventQueue, event: Record<string, unknown>): Record<string, unknown> {
  if (q.pronounsFieldTypeSupported || event.type !== 'custom_profile_fields') return event;
  const fields = withoutPronounsType(event.fields as Record<string, unknown>[]);
  return { type: 'custom_profile_fields', fields };
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
      q.events.push({ ...queueEvent(q, p.event), id: q.lastEventId });
      added = true;
    }
    if (added) for (const w of q.waiters.splice(0)) w();
  }
}
