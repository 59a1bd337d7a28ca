import { supports } from '../../model/features';
import { LIMITS, SUBSCRIPTION_PROPERTY_WIRE_NAMES } from '../../model/kinds';
import type { SubscriptionPropertyWireName } from '../../model/kinds';
import { checkChannelDescription, checkChannelName, isHexColor } from '../../model/rules';
import { badRequest, insufficientPermission, missingArgument } from '../errors';
import { expectInt, expectList, expectString, expectStringList } from '../params';
import {
  hasContentAccess,
  hasMetadataAccess,
  holdsRealmSetting,
  holdsSetting,
  isAdmin,
  isGuest,
  isSubscribed,
} from '../permissions';
import type { RequestContext, Route } from '../router';
import type { StoredChannel, StoredSubscription, StoredUser } from '../state';
import { pickColors } from '../colors';
import { sendPeerSubscriberEvents, sendStreamDeletionEvent } from '../events';
import {
  activeSubscriptionOf,
  channelsByName,
  subscriptionOf,
  subscriptionRowsOfUser,
  userById,
} from '../indexes';
import { sortedByName, subscriptionToApi } from '../views';
import { sendSubscribedAndNewChannelNotifications } from '../subscription-notices';
import { withFlag } from './message-flags';
import { messages } from './messages';
import { beforeChange } from '../transaction';
import { atomic, accessStreamById, accessTargetUser, pathInt, requireNonGuest } from './common';
import {
  checkNewChannel,
  createChannel,
  creationTopicsPolicy,
  folderIdParam,
  readCreationParams,
  subscribeUsers,
} from './channel-create';
import {
  checkFolder,
  inParameterOrder,
  parseRetention,
  retentionParam,
  validateTopicsPolicy,
} from './channel-rules';
import { channelSettingInfos, groupSettingShape } from '../group-settings';
import type { ChannelCreation } from './channel-create';

interface SubscriptionRequest {
  name: string;
  description: string;
  color: string | undefined;
}

function parseSubscriptionList(
  raw: unknown,
  varName: string,
  colorLabel: string,
): SubscriptionRequest[] {
  return expectList(raw, varName).map((item, i) => {
    // A pydantic model (AddSubscriptionData): a non-object item is its `model_type` error.
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw badRequest(
        `Invalid ${varName}[${i}]: Input should be a valid dictionary or instance of AddSubscriptionData`,
      );
    const d = item as Record<string, unknown>;
    if (d.name === undefined)
      throw badRequest(`${varName}[${i}]["name"] field is missing: Field required`);
    const name = expectString(d.name, `${varName}[${i}]["name"]`);
    const description =
      d.description === undefined || d.description === null
        ? ''
        : expectString(d.description, `${varName}[${i}]["description"]`);
    // ChannelDescription: max_length 1024, checked while parsing, for every item.
    const tooLong = checkChannelDescription(description, `${varName}[${i}]["description"]`);
    if (tooLong) throw badRequest(tooLong);
    let color: string | undefined;
    if (d.color !== undefined) {
      color = expectString(d.color, `${varName}[${i}]["color"]`);
      if (!isHexColor(color))
        throw badRequest(
          `Invalid ${varName}[${i}]: Value error, ${colorLabel} is not a valid hex color code`,
        );
    }
    return { name, description, color };
  });
}

/**
 * `principals` as typed_endpoint parses `Json[list[str] | list[int]] | None`: all IDs or all
 * emails (the first element that is neither decides the error); `null` is no principals.
 */
function parsePrincipals(raw: unknown): Array<number | string> {
  if (raw === undefined || raw === null) return [];
  const list = expectList(raw, 'principals');
  const allInts = list.every((x) => typeof x === 'number' && Number.isInteger(x));
  if (!allInts) {
    const bad = list.findIndex((x) => typeof x !== 'string');
    if (bad >= 0) throw badRequest(`principals["list[str]"][${bad}] is not a string`);
  }
  return list as Array<number | string>;
}

/**
 * zerver/views/streams.py `bulk_principals_to_user_profiles`: every principal must name a user
 * of the organization ("No such user"), then each must be active ("User is deactivated"); bots
 * are allowed. Emails match case-insensitively after stripping.
 */
function principalsToUsers(ctx: RequestContext, principals: Array<number | string>): StoredUser[] {
  const users: StoredUser[] = [];
  const byEmail = new Map<string, StoredUser>();
  if (principals.some((p) => typeof p === 'string'))
    for (const u of ctx.org.users) byEmail.set(u.email.toUpperCase(), u);
  for (const p of principals) {
    const u = typeof p === 'number' ? userById(ctx.org, p) : byEmail.get(p.trim().toUpperCase());
    if (!u) throw badRequest('No such user');
    if (!users.includes(u)) users.push(u);
  }
  for (const u of users) if (!u.isActive) throw badRequest('User is deactivated');
  return users;
}

/**
 * Which channels the user may not add others to (zerver/lib/streams.py
 * `get_streams_to_which_user_cannot_add_subscribers`, for channels the user has content access
 * to): none for holders of the realm's `can_add_subscribers_group` and for administrators;
 * otherwise those where the user is neither a channel administrator nor in the channel's
 * `can_add_subscribers_group`.
 */
function cannotAddSubscribers(ctx: RequestContext, ch: StoredChannel): boolean {
  const { org, user } = ctx;
  if (holdsRealmSetting(org, user, 'can_add_subscribers_group') || isAdmin(user)) return false;
  if (isGuest(user)) return true;
  if (holdsSetting(org, user, ch.settings.can_administer_channel_group)) return false;
  return !holdsSetting(org, user, ch.settings.can_add_subscribers_group);
}

/**
 * zerver/views/streams.py `add_subscriptions_backend` (after its guest check). The order of its
 * checks: channel names, creation of the missing channels (list_to_streams), then
 * `filter_stream_authorization_for_adding_subscribers` on the existing ones: a channel the
 * acting user has no content access to (`user_has_content_access`: web-public, subscribed,
 * public for non-guests, or a member of its `can_subscribe_group` / `can_add_subscribers_group`;
 * organization and channel administrators get no bypass) fails the whole call with "Unable to
 * access channel (NAME)." unless `authorization_errors_fatal` is false (then it is listed in
 * `unauthorized` and skipped); subscribing anyone but oneself also needs the right to add
 * subscribers to every accessible channel ("Insufficient permission", fatal or not). Principals
 * are resolved only after that. Whether others are subscribed is read from the raw list, as
 * upstream: an email, even one's own, counts as another user.
 */
function subscribe(
  ctx: RequestContext,
  requests: SubscriptionRequest[],
  principals: Array<number | string>,
  creation: ChannelCreation | (() => ChannelCreation),
  fatal: boolean,
  notify: { announce: boolean; sendMessages: boolean },
): Record<string, unknown> {
  const existing: StoredChannel[] = [];
  const toCreate: SubscriptionRequest[] = [];
  for (const r of requests) {
    const problem = checkChannelName(r.name.trim());
    if (problem) throw badRequest(problem);
  }
  // One scan of the channels and sets, not a scan per name (linear in the request's size).
  const byName = channelsByName(ctx.org);
  const seen = new Set<StoredChannel>();
  const creating = new Set<string>();
  for (const r of requests) {
    const ch = byName(r.name);
    const key = r.name.trim().toLowerCase();
    if (ch) {
      if (!seen.has(ch)) existing.push(ch);
      seen.add(ch);
    } else if (!creating.has(key)) {
      creating.add(key);
      toCreate.push(r);
    }
  }
  let settings: ChannelCreation | undefined;
  if (toCreate.length > 0) {
    settings = typeof creation === 'function' ? creation() : creation;
    for (const r of toCreate) checkNewChannel(ctx, r.name, r.description);
  }
  const others = principals.length > 0 && !principals.every((p) => p === ctx.user.id);
  const unauthorized = existing.filter((ch) => !hasContentAccess(ctx.org, ctx.user, ch));
  const first = unauthorized[0];
  if (first && fatal) throw badRequest(`Unable to access channel (${first.name}).`);
  const denied = new Set(unauthorized);
  const authorized = existing.filter((ch) => !denied.has(ch));
  if (others && authorized.some((ch) => cannotAddSubscribers(ctx, ch)))
    throw insufficientPermission();
  const users = others ? principalsToUsers(ctx, principals) : [ctx.user];

  const channels = [...authorized];
  const created: StoredChannel[] = [];
  if (settings)
    for (const r of toCreate) created.push(createChannel(ctx, r.name, r.description, settings));
  channels.push(...created);
  channels.sort((a, b) => a.id - b.id);
  // bulk_add_subscriptions: a color given in the request applies, by the channel's exact name,
  // to every user's new subscription; reactivated ones keep theirs.
  const requested = new Map<string, string>();
  for (const r of requests) if (r.color !== undefined) requested.set(r.name, r.color);
  const fresh: Record<string, string[]> = {};
  const reactivated: Record<string, string[]> = {};
  const already: Record<string, string[]> = {};
  const colors = new Map<number, Map<number, string>>();
  for (const u of users) {
    const newRows: StoredChannel[] = [];
    for (const ch of channels) {
      const row = subscriptionOf(ctx.org, u.id, ch.id);
      const bucket = row === undefined ? fresh : row.active ? already : reactivated;
      (bucket[String(u.id)] ??= []).push(ch.name);
      if (row === undefined) newRows.push(ch);
    }
    colors.set(u.id, pickColors(ctx.org, u.id, newRows, requested));
  }
  for (const ch of channels)
    subscribeUsers(
      ctx,
      ch,
      users.map((u) => u.id),
      (uid) => colors.get(uid)?.get(ch.id),
    );
  // The response lists new subscriptions first, then reactivated ones.
  const subscribed: Record<string, string[]> = {};
  for (const u of users) {
    const names = [...(fresh[String(u.id)] ?? []), ...(reactivated[String(u.id)] ?? [])];
    if (names.length > 0) subscribed[String(u.id)] = names;
  }
  const out: Record<string, unknown> = { subscribed, already_subscribed: already };
  // Whether Notification Bot may message the newly subscribed users: at most
  // MAX_BULK_NEW_SUBSCRIPTION_MESSAGES of them. Absent when not asked for (FL 397); before
  // that level neither the parameter nor the limit exists and the messages are always sent.
  const bulk = supports(ctx.featureLevel, 'sendNewSubscriptionMessages');
  const dms =
    notify.sendMessages &&
    (!bulk || Object.keys(subscribed).length <= LIMITS.bulkNewSubscriptionMessages);
  if (bulk && notify.sendMessages) out.new_subscription_messages_sent = dms;
  sendSubscribedAndNewChannelNotifications(ctx, {
    newSubscriptions: users.flatMap((u) => {
      const names = subscribed[String(u.id)];
      return names === undefined ? [] : [[u, names] as const];
    }),
    created,
    announce: notify.announce,
    dms,
  });
  if (!fatal) out.unauthorized = unauthorized.map((c) => c.name);
  return out;
}

/**
 * zerver/lib/streams.py `bulk_can_remove_subscribers_from_streams`: administrators may; guests
 * may not; administrators of every channel may; otherwise the user needs metadata access to
 * every channel and to be in each one's `can_remove_subscribers_group`.
 */
function canRemoveSubscribers(ctx: RequestContext, channels: StoredChannel[]): boolean {
  const { org, user } = ctx;
  if (isAdmin(user)) return true;
  if (isGuest(user)) return false;
  if (channels.every((ch) => holdsSetting(org, user, ch.settings.can_administer_channel_group)))
    return true;
  if (!channels.every((ch) => hasMetadataAccess(org, user, ch))) return false;
  return channels.every((ch) => holdsSetting(org, user, ch.settings.can_remove_subscribers_group));
}

/**
 * zerver/views/streams.py `remove_subscriptions_backend`: principals first; then every name is
 * checked (`check_stream_name`) and looked up among all channels, archived and private ones
 * included (a channel the user cannot see is simply not subscribed: `not_removed`); removing
 * anyone but oneself and one's own bots needs `bulk_can_remove_subscribers_from_streams` over
 * the channels that exist, before missing names fail the call.
 */
function unsubscribe(
  ctx: RequestContext,
  names: string[],
  principals: Array<number | string>,
): { removed: string[]; not_removed: string[] } {
  const users = principals.length > 0 ? principalsToUsers(ctx, principals) : [ctx.user];
  const others = users.some(
    (u) => u.id !== ctx.user.id && !(u.isBot && u.botOwnerId === ctx.user.id),
  );
  const stripped = names.map((n) => n.trim());
  for (const n of stripped) {
    const problem = checkChannelName(n);
    if (problem) throw badRequest(problem);
  }
  const missing: string[] = [];
  const channels: StoredChannel[] = [];
  const byName = channelsByName(ctx.org);
  const seen = new Set<StoredChannel>();
  for (const n of stripped) {
    const ch = byName(n);
    if (!ch) missing.push(n);
    else if (!seen.has(ch)) {
      seen.add(ch);
      channels.push(ch);
    }
  }
  if (others && !canRemoveSubscribers(ctx, channels)) throw insufficientPermission();
  if (missing.length > 0) throw badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  const removed: string[] = [];
  const notRemoved: string[] = [];
  const gone = new Map<StoredChannel, number[]>();
  const lostBy: [StoredUser, StoredChannel[]][] = [];
  for (const u of users) {
    const lost: StoredChannel[] = [];
    for (const ch of channels) {
      const sub = activeSubscriptionOf(ctx.org, u.id, ch.id);
      if (!sub) {
        notRemoved.push(ch.name);
        continue;
      }
      beforeChange(ctx, sub).active = false;
      removed.push(ch.name);
      lost.push(ch);
      const ids = gone.get(ch) ?? [];
      ids.push(u.id);
      gone.set(ch, ids);
    }
    lostBy.push([u, lost]);
  }
  // send_subscription_remove_events: the peers' events first (grouped as Zulip groups them),
  // then each user's own.
  sendPeerSubscriberEvents(ctx, 'peer_remove', gone);
  markLostChannelsRead(ctx, gone);
  for (const [u, lost] of lostBy) {
    if (lost.length === 0) continue;
    ctx.events.push({
      users: [u.id],
      event: {
        type: 'subscription',
        op: 'remove',
        subscriptions: lost.map((ch) => ({ name: ch.name, stream_id: ch.id })),
      },
    });
    // send_subscription_remove_events: a channel the user can no longer see is deleted for them.
    const hidden = isAdmin(u) ? [] : lost.filter((ch) => !hasMetadataAccess(ctx.org, u, ch));
    if (hidden.length > 0) sendStreamDeletionEvent(ctx.events, [u.id], hidden);
  }
  return { removed, not_removed: notRemoved };
}

/**
 * `GET /users/me/subscriptions` (list_subscriptions_backend): the active subscriptions, sorted
 * by name; `include_subscribers` is a plain `"true"`/`"false"`/`"partial"` since FL 412 (a
 * JSON boolean before), and a channel whose subscribers the user may not see has `[]`.
 */
function mySubscriptions(ctx: RequestContext): Record<string, unknown> {
  let withSubs: boolean;
  if (supports(ctx.featureLevel, 'includeSubscribersPartial')) {
    const inc = ctx.params.raw_('include_subscribers');
    if (inc !== undefined && !['true', 'false', 'partial'].includes(inc))
      throw badRequest('Invalid include_subscribers');
    withSubs = inc === 'true' || inc === 'partial';
  } else {
    const inc = ctx.params.json('include_subscribers');
    if (inc !== undefined && typeof inc !== 'boolean')
      throw badRequest('include_subscribers is not a boolean');
    withSubs = inc === true;
  }
  const subs = subscriptionRowsOfUser(ctx.org, ctx.user.id).filter((s) => s.active);
  const rows = subs
    .map((s) => ({ s, ch: ctx.org.channels.find((c) => c.id === s.channelId) }))
    .filter((x): x is { s: StoredSubscription; ch: StoredChannel } => x.ch !== undefined)
    .filter(({ ch }) => !ch.isArchived)
    .map(({ s, ch }) => subscriptionToApi(ctx.org, ctx.featureLevel, ch, s, withSubs, ctx.user));
  return { subscriptions: sortedByName(rows) };
}

/** The boolean ones of `SubscriptionPropertyChangeRequest`'s properties: all but `color`. */
const BOOLEAN_PROPERTIES = SUBSCRIPTION_PROPERTY_WIRE_NAMES.filter(
  (p): p is Exclude<SubscriptionPropertyWireName, 'color'> => p !== 'color',
);

/**
 * zerver/views/streams.py `SubscriptionPropertyChangeRequest.validate_terms`: a color must be a
 * hex color code, the boolean properties take booleans, anything else is unknown. Upstream this
 * runs while the parameter is parsed, so every item is checked before any is applied.
 */
function checkPropertyValue(property: string, value: unknown, index: number): void {
  if (property === 'color') {
    if (typeof value !== 'string' || !isHexColor(value))
      throw badRequest(
        `Invalid subscription_data[${index}]: Value error, color is not a valid hex color code`,
      );
  } else if ((BOOLEAN_PROPERTIES as readonly string[]).includes(property)) {
    if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
  } else throw badRequest(`Unknown subscription property: ${property}`);
}

/**
 * Applies one property change of the caller's own subscription
 * (update_subscription_properties_backend: `access_stream_by_id`, so content access to an
 * active channel, then "Not subscribed to channel ID N").
 */
function setProperty(
  ctx: RequestContext,
  streamId: number,
  property: string,
  value: unknown,
): void {
  const ch = accessStreamById(ctx, streamId);
  const sub = activeSubscriptionOf(ctx.org, ctx.user.id, ch.id);
  if (!sub) throw badRequest(`Not subscribed to channel ID ${streamId}`);
  const event = (p: string, v: unknown): void => {
    ctx.events.push({
      users: [ctx.user.id],
      event: { type: 'subscription', op: 'update', stream_id: ch.id, property: p, value: v },
    });
  };
  if (property === 'color') {
    sub.color = expectString(value, 'color');
    event('color', sub.color);
    return;
  }
  if (!(BOOLEAN_PROPERTIES as readonly string[]).includes(property))
    throw badRequest(`Unknown subscription property: ${property}`);
  if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
  switch (property as (typeof BOOLEAN_PROPERTIES)[number]) {
    case 'is_muted':
      sub.isMuted = value;
      break;
    case 'in_home_view':
      sub.isMuted = !value;
      break;
    case 'pin_to_top':
      sub.pinToTop = value;
      break;
    case 'desktop_notifications':
      sub.desktopNotifications = value;
      break;
    case 'audible_notifications':
      sub.audibleNotifications = value;
      break;
    case 'push_notifications':
      sub.pushNotifications = value;
      break;
    case 'email_notifications':
      sub.emailNotifications = value;
      break;
    case 'wildcard_mentions_notify':
      sub.wildcardMentionsNotify = value;
      break;
  }
  // Muting sends two events, one per property (FL 139).
  if (property === 'is_muted' || property === 'in_home_view') {
    event('in_home_view', !sub.isMuted);
    event('is_muted', sub.isMuted);
  } else event(property, value);
}

/**
 * `subscription_data` as typed_endpoint parses `Json[list[SubscriptionPropertyChangeRequest]]`
 * (zerver/views/streams.py; a pydantic model, strict): item by item, each a dict whose fields
 * are checked in order, `stream_id` (int), `property` (str), `value` (`bool | str`, whose first
 * error is the `bool` member's), a missing one being "field is missing"; other keys are
 * ignored. Then the model's `validate_terms` (checkPropertyValue), before the next item.
 */
function bulkProperties(ctx: RequestContext): Record<string, unknown> {
  const raw = ctx.params.requiredJson('subscription_data');
  const items = expectList(raw, 'subscription_data').map((item, i) => {
    const name = `subscription_data[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw badRequest(
        `Invalid ${name}: Input should be a valid dictionary or instance of SubscriptionPropertyChangeRequest`,
      );
    const d = item as Record<string, unknown>;
    const field = (f: string): unknown => {
      if (!(f in d)) throw badRequest(`${name}["${f}"] field is missing: Field required`);
      return d[f];
    };
    const streamId = expectInt(field('stream_id'), `${name}["stream_id"]`);
    const property = expectString(field('property'), `${name}["property"]`);
    const value = field('value');
    if (typeof value !== 'boolean' && typeof value !== 'string')
      throw badRequest(`${name}["value"]["bool"] is not a boolean`);
    checkPropertyValue(property, value, i);
    return { streamId, property, value };
  });
  // Not atomic: each item applies before the next is checked.
  for (const it of items) setProperty(ctx, it.streamId, it.property, it.value);
  return {};
}

function singleProperty(ctx: RequestContext): Record<string, unknown> {
  const streamId = pathInt(ctx, 'stream_id');
  const property = ctx.params.requiredString('property');
  const rawValue = ctx.params.raw_('value');
  if (rawValue === undefined) throw missingArgument('value');
  let value: unknown = rawValue;
  if (rawValue === 'true' || rawValue === 'false') value = rawValue === 'true';
  checkPropertyValue(property, value, 0);
  setProperty(ctx, streamId, property, value);
  return {};
}

/**
 * zerver/views/streams.py `add_subscriptions_backend`: guests are refused first
 * (`require_non_guest_user`), then typed_endpoint parses its parameters in the order of its
 * signature, the first malformed one failing the request whether or not a channel is to be
 * created. `given` is the `add` list `update_subscriptions_backend` passes in; without it the
 * list is the request's `subscriptions`, parsed at its place in that order.
 */
function addSubscriptionsFromRequest(
  ctx: RequestContext,
  given?: SubscriptionRequest[],
): Record<string, unknown> {
  requireNonGuest(ctx);
  const p = ctx.params;
  const fl = ctx.featureLevel;
  const announce = p.bool('announce') ?? false;
  const fatal = p.bool('authorization_errors_fatal') ?? true;
  for (const info of inParameterOrder(channelSettingInfos(fl), 'add_subscriptions_backend')) {
    const v = p.json(info.wire);
    if (v !== undefined) groupSettingShape(v, info.wire);
  }
  const folderId = folderIdParam(ctx);
  p.bool('history_public_to_subscribers');
  p.bool('invite_only');
  p.bool('is_default_stream');
  p.bool('is_web_public');
  const retention = retentionParam(p);
  const principals = parsePrincipals(p.json('principals'));
  const sendMessages = supports(fl, 'sendNewSubscriptionMessages')
    ? (p.bool('send_new_subscription_messages') ?? true)
    : true;
  const requests =
    given ?? parseSubscriptionList(p.requiredJson('subscriptions'), 'subscriptions', 'add.color');
  const topicsPolicy = supports(fl, 'topicsPolicy') ? creationTopicsPolicy(ctx, p) : undefined;
  // The view's own checks before list_to_streams: the folder (get_channel_folder_by_id), then,
  // in its loop over the requested channels (existing ones too), parse_message_retention_days
  // and validate_topics_policy (administrators, or can_set_topics_policy_group).
  if (folderId !== null) checkFolder(ctx, folderId);
  if (requests.length > 0) {
    parseRetention(retention ?? 'realm_default');
    if (topicsPolicy !== undefined) validateTopicsPolicy(ctx, topicsPolicy, undefined);
  }
  return subscribe(ctx, requests, principals, () => readCreationParams(ctx, p), fatal, {
    announce,
    sendMessages,
  });
}

/**
 * send_subscription_remove_events' `mark_stream_messages_as_read` deferred work
 * (`do_mark_stream_messages_as_read`): each user's messages in the channels they left become
 * read. One pass over the messages.
 */
function markLostChannelsRead(ctx: RequestContext, gone: Map<StoredChannel, number[]>): void {
  const byChannel = new Map<number, number[]>();
  for (const [ch, ids] of gone) byChannel.set(ch.id, ids);
  for (const m of messages(ctx.org)) {
    const ids = m.channelId === null ? undefined : byChannel.get(m.channelId);
    if (ids === undefined) continue;
    for (const uid of ids) {
      const row = m.flags[String(uid)];
      if (row === undefined || row.includes('read')) continue;
      beforeChange(ctx, m).flags[String(uid)] = withFlag(row, 'read', true);
    }
  }
}

/** `remove_subscriptions_backend`'s parameters besides the channel names. */
function removeSubscriptionsFromRequest(
  ctx: RequestContext,
  names: string[],
): { removed: string[]; not_removed: string[] } {
  return unsubscribe(ctx, names, parsePrincipals(ctx.params.json('principals')));
}

/** Subscription routes. */
export const subscriptionRoutes: Route[] = [
  { method: 'GET', path: '/users/me/subscriptions', handler: mySubscriptions },
  {
    method: 'POST',
    path: '/users/me/subscriptions',
    handler: (ctx) => atomic(ctx, () => addSubscriptionsFromRequest(ctx)),
  },
  {
    method: 'DELETE',
    path: '/users/me/subscriptions',
    handler: (ctx) => {
      const names = expectStringList(ctx.params.requiredJson('subscriptions'), 'subscriptions');
      return atomic(ctx, () => removeSubscriptionsFromRequest(ctx, names));
    },
  },
  {
    // update_subscriptions_backend: `add_subscriptions_backend` then
    // `remove_subscriptions_backend` in one transaction (compose_views), both always called, so
    // a guest is refused even with only `delete`, and the response has every key of both.
    method: 'PATCH',
    path: '/users/me/subscriptions',
    handler: (ctx) => {
      const p = ctx.params;
      const addRaw = p.json('add');
      const delRaw = p.json('delete');
      const add =
        addRaw === undefined || addRaw === null
          ? []
          : parseSubscriptionList(addRaw, 'add', 'add.color');
      const del = delRaw === undefined || delRaw === null ? [] : expectStringList(delRaw, 'delete');
      if (add.length === 0 && del.length === 0)
        throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
      return atomic(ctx, () => ({
        ...addSubscriptionsFromRequest(ctx, add),
        ...removeSubscriptionsFromRequest(ctx, del),
      }));
    },
  },
  { method: 'POST', path: '/users/me/subscriptions/properties', handler: bulkProperties },
  { method: 'PATCH', path: '/users/me/subscriptions/{stream_id}', handler: singleProperty },
  {
    // zerver/views/users.py get_subscription_backend: the user first (`access_user_by_id`), then
    // metadata access to an active channel.
    method: 'GET',
    path: '/users/{user_id}/subscriptions/{stream_id}',
    handler: (ctx) => {
      const target = accessTargetUser(ctx, pathInt(ctx, 'user_id'));
      const ch = accessStreamById(ctx, pathInt(ctx, 'stream_id'), { requireContentAccess: false });
      return { is_subscribed: isSubscribed(ctx.org, target.id, ch.id) };
    },
  },
];
