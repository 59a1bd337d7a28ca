import { supports } from '../../model/features';
import { checkChannelName, isHexColor } from '../../model/rules';
import { badRequest, insufficientPermission, missingArgument } from '../errors';
import { expectDict, expectList, expectString } from '../params';
import {
  canAdministerChannel,
  hasMetadataAccess,
  holdsRealmSetting,
  holdsSetting,
  isGuest,
  isSubscribed,
} from '../permissions';
import type { RequestContext, Route } from '../router';
import type { StoredChannel, StoredSubscription, StoredUser } from '../state';
import { channelAudience } from '../events';
import {
  activeSubscriptionOf,
  channelsByName,
  subscriptionOf,
  subscriptionRowsOfUser,
} from '../indexes';
import { subscriptionToApi } from '../views';
import {
  atomic,
  accessChannelById,
  channelByName,
  pathInt,
  requireNonGuest,
  userByIdOrEmail,
} from './common';
import {
  checkCanCreate,
  checkNewChannel,
  createChannel,
  readCreationParams,
  subscribeUsers,
} from './channels';
import type { ChannelCreation } from './channels';

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
    const d = expectDict(item, `${varName}[${i}]`);
    if (d.name === undefined)
      throw badRequest(`${varName}[${i}]["name"] field is missing: Field required`);
    const name = expectString(d.name, `${varName}[${i}]["name"]`);
    const description =
      d.description === undefined
        ? ''
        : expectString(d.description, `${varName}[${i}]["description"]`);
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

/** `principals`: all IDs or all emails; the first element decides. */
function resolvePrincipals(ctx: RequestContext, raw: unknown): StoredUser[] {
  if (raw === undefined) return [ctx.user];
  const list = expectList(raw, 'principals');
  const allInts = list.every((x) => typeof x === 'number' && Number.isInteger(x));
  if (!allInts) {
    const bad = list.findIndex((x) => typeof x !== 'string');
    if (bad >= 0) throw badRequest(`principals["list[str]"][${bad}] is not a string`);
  }
  const users: StoredUser[] = [];
  for (const p of list as Array<number | string>) {
    const u = userByIdOrEmail(ctx, p);
    if (!u) throw badRequest('No such user');
    if (!u.isActive) throw badRequest('User is deactivated');
    if (!users.includes(u)) users.push(u);
  }
  return users;
}

/** Whether the user may subscribe themself (Zulip's `filter_stream_authorization`). */
function canAccessForSubscribe(ctx: RequestContext, ch: StoredChannel): boolean {
  const { org, user } = ctx;
  if (!ch.inviteOnly && !isGuest(user)) return true;
  if (isSubscribed(org, user.id, ch.id)) return true;
  return (
    holdsSetting(org, user, ch.settings.can_subscribe_group) ||
    holdsSetting(org, user, ch.settings.can_add_subscribers_group) ||
    canAdministerChannel(org, user, ch)
  );
}

/** Whether the user may add other users to the channel. */
function canAddSubscribers(ctx: RequestContext, ch: StoredChannel): boolean {
  const { org, user } = ctx;
  if (canAdministerChannel(org, user, ch)) return true;
  if (holdsSetting(org, user, ch.settings.can_add_subscribers_group)) return true;
  return !ch.inviteOnly && holdsRealmSetting(org, user, 'can_add_subscribers_group');
}

function subscribe(
  ctx: RequestContext,
  requests: SubscriptionRequest[],
  principals: StoredUser[],
  creation: ChannelCreation | (() => ChannelCreation),
  fatal: boolean,
): Record<string, unknown> {
  const existing: StoredChannel[] = [];
  const toCreate: SubscriptionRequest[] = [];
  // One scan of the channels and sets, not a scan per name (linear in the request's size).
  const byName = channelsByName(ctx.org);
  const seen = new Set<StoredChannel>();
  const creating = new Set<string>();
  for (const r of requests) {
    const problem = checkChannelName(r.name.trim());
    if (problem) throw badRequest(problem);
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
    checkCanCreate(ctx, settings);
  }
  const unauthorized = existing.filter((ch) => !canAccessForSubscribe(ctx, ch));
  const first = unauthorized[0];
  if (first && fatal) throw badRequest(`Unable to access channel (${first.name}).`);
  const denied = new Set(unauthorized);
  const authorized = existing.filter((ch) => !denied.has(ch));
  const others = principals.some((u) => u.id !== ctx.user.id);
  if (others && !authorized.every((ch) => canAddSubscribers(ctx, ch)))
    throw insufficientPermission();

  const channels = [...authorized];
  if (settings)
    for (const r of toCreate) channels.push(createChannel(ctx, r.name, r.description, settings));
  const subscribed: Record<string, string[]> = {};
  const already: Record<string, string[]> = {};
  for (const ch of channels) {
    const added = new Set(
      subscribeUsers(
        ctx,
        ch,
        principals.map((u) => u.id),
      ),
    );
    for (const u of principals) {
      const bucket = added.has(u.id) ? subscribed : already;
      (bucket[String(u.id)] ??= []).push(ch.name);
    }
  }
  let named: ((name: string) => StoredChannel | undefined) | undefined;
  for (const r of requests) {
    if (r.color === undefined) continue;
    named ??= channelsByName(ctx.org);
    const ch = named(r.name);
    const sub = ch && subscriptionOf(ctx.org, ctx.user.id, ch.id);
    if (sub && principals.includes(ctx.user)) sub.color = r.color;
  }
  const out: Record<string, unknown> = { subscribed, already_subscribed: already };
  if (!fatal) out.unauthorized = unauthorized.map((c) => c.name);
  if (supports(ctx.featureLevel, 'sendNewSubscriptionMessages'))
    out.new_subscription_messages_sent = false;
  return out;
}

function unsubscribe(
  ctx: RequestContext,
  names: string[],
  principals: StoredUser[],
): { removed: string[]; not_removed: string[] } {
  const missing: string[] = [];
  const channels: StoredChannel[] = [];
  for (const n of names) {
    const ch = channelByName(ctx, n);
    if (!ch || !hasMetadataAccess(ctx.org, ctx.user, ch)) missing.push(n.trim());
    else if (!channels.includes(ch)) channels.push(ch);
  }
  if (missing.length > 0) throw badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  // A user may always remove themself, and bots they own (from channels they can access).
  const others = principals.some((u) => u.id !== ctx.user.id && u.botOwnerId !== ctx.user.id);
  if (others) {
    for (const ch of channels) {
      const ok =
        canAdministerChannel(ctx.org, ctx.user, ch) ||
        holdsSetting(ctx.org, ctx.user, ch.settings.can_remove_subscribers_group);
      if (!ok) throw insufficientPermission();
    }
  }
  const removed: string[] = [];
  const notRemoved: string[] = [];
  for (const ch of channels) {
    const gone: number[] = [];
    for (const u of principals) {
      const sub = activeSubscriptionOf(ctx.org, u.id, ch.id);
      if (sub) {
        sub.active = false;
        removed.push(ch.name);
        gone.push(u.id);
        ctx.events.push({
          users: [u.id],
          event: {
            type: 'subscription',
            op: 'remove',
            subscriptions: [{ name: ch.name, stream_id: ch.id }],
          },
        });
      } else notRemoved.push(ch.name);
    }
    if (gone.length > 0)
      ctx.events.push({
        users: channelAudience(ctx, ch).filter((id) => !gone.includes(id)),
        event: { type: 'subscription', op: 'peer_remove', stream_ids: [ch.id], user_ids: gone },
      });
  }
  return { removed, not_removed: notRemoved };
}

function mySubscriptions(ctx: RequestContext): Record<string, unknown> {
  const inc = ctx.params.json('include_subscribers');
  if (
    inc !== undefined &&
    typeof inc !== 'boolean' &&
    !(inc === 'partial' && ctx.featureLevel >= 412)
  )
    throw badRequest('include_subscribers is not a boolean');
  const withSubs = inc === true || inc === 'partial';
  const subs = subscriptionRowsOfUser(ctx.org, ctx.user.id).filter((s) => s.active);
  return {
    subscriptions: subs
      .map((s) => ({ s, ch: ctx.org.channels.find((c) => c.id === s.channelId) }))
      .filter((x): x is { s: StoredSubscription; ch: StoredChannel } => x.ch !== undefined)
      .sort((a, b) => a.ch.id - b.ch.id)
      .map(({ s, ch }) => subscriptionToApi(ctx.org, ctx.featureLevel, ch, s, withSubs)),
  };
}

const BOOLEAN_PROPERTIES = [
  'is_muted',
  'in_home_view',
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;

/** Applies one property change of the caller's own subscription. */
function setProperty(
  ctx: RequestContext,
  streamId: number,
  property: string,
  value: unknown,
): void {
  const ch = accessChannelById(ctx, streamId);
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

function bulkProperties(ctx: RequestContext): Record<string, unknown> {
  const raw = ctx.params.requiredJson('subscription_data');
  const items = expectList(raw, 'subscription_data').map((item, i) => {
    const name = `subscription_data[${i}]`;
    const d = expectDict(item, name);
    for (const f of ['stream_id', 'property', 'value'])
      if (d[f] === undefined) throw badRequest(`${name}["${f}"] field is missing: Field required`);
    if (typeof d.stream_id !== 'number' || !Number.isInteger(d.stream_id))
      throw badRequest(`${name}["stream_id"] is not an integer`);
    const property = expectString(d.property, `${name}["property"]`);
    if (typeof d.value !== 'boolean' && typeof d.value !== 'string')
      throw badRequest(`${name}["value"] is not a boolean`);
    if (property === 'color' && (typeof d.value !== 'string' || !isHexColor(d.value)))
      throw badRequest(`Invalid ${name}: Value error, color is not a valid hex color code`);
    return { streamId: d.stream_id, property, value: d.value };
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
  if (property === 'color' && (typeof value !== 'string' || !isHexColor(value)))
    throw badRequest(
      'Invalid subscription_data[0]: Value error, color is not a valid hex color code',
    );
  setProperty(ctx, streamId, property, value);
  return {};
}

/** Subscription routes. */
export const subscriptionRoutes: Route[] = [
  { method: 'GET', path: '/users/me/subscriptions', handler: mySubscriptions },
  {
    method: 'POST',
    path: '/users/me/subscriptions',
    handler: (ctx) => {
      requireNonGuest(ctx);
      const p = ctx.params;
      const requests = parseSubscriptionList(
        p.requiredJson('subscriptions'),
        'subscriptions',
        'add.color',
      );
      const principals = p.json('principals');
      const fatal = p.bool('authorization_errors_fatal') ?? true;
      readCreationParams(ctx, p, { validate: false });
      const users = resolvePrincipals(ctx, principals);
      return atomic(ctx, () =>
        subscribe(ctx, requests, users, () => readCreationParams(ctx, p), fatal),
      );
    },
  },
  {
    method: 'DELETE',
    path: '/users/me/subscriptions',
    handler: (ctx) => {
      const p = ctx.params;
      const raw = p.requiredJson('subscriptions');
      const names = expectList(raw, 'subscriptions').map((x, i) =>
        expectString(x, `subscriptions[${i}]`),
      );
      const users = resolvePrincipals(ctx, p.json('principals'));
      return atomic(ctx, () => unsubscribe(ctx, names, users));
    },
  },
  {
    method: 'PATCH',
    path: '/users/me/subscriptions',
    handler: (ctx) => {
      const p = ctx.params;
      const addRaw = p.json('add');
      const delRaw = p.json('delete');
      if (addRaw === undefined && delRaw === undefined)
        throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
      const add = addRaw === undefined ? [] : parseSubscriptionList(addRaw, 'add', 'add.color');
      const del =
        delRaw === undefined
          ? []
          : expectList(delRaw, 'delete').map((x, i) => expectString(x, `delete[${i}]`));
      return atomic(ctx, () => {
        const out: Record<string, unknown> = {};
        if (add.length > 0) {
          requireNonGuest(ctx);
          Object.assign(
            out,
            subscribe(ctx, add, [ctx.user], () => readCreationParams(ctx, p), true),
          );
        }
        if (del.length > 0) Object.assign(out, unsubscribe(ctx, del, [ctx.user]));
        return out;
      });
    },
  },
  { method: 'POST', path: '/users/me/subscriptions/properties', handler: bulkProperties },
  { method: 'PATCH', path: '/users/me/subscriptions/{stream_id}', handler: singleProperty },
  {
    method: 'GET',
    path: '/users/{user_id}/subscriptions/{stream_id}',
    handler: (ctx) => {
      const ch = accessChannelById(ctx, pathInt(ctx, 'stream_id'));
      const uid = pathInt(ctx, 'user_id');
      if (!ctx.org.users.some((u) => u.id === uid)) throw badRequest('No such user');
      return { is_subscribed: isSubscribed(ctx.org, uid, ch.id) };
    },
  },
];
