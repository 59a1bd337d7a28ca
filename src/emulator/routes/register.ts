import { randomUUID } from 'node:crypto';
import { supports } from '../../model/features';
import { LIMITS } from '../../model/kinds';
import { ApiError, badRequest, missingArgument } from '../errors';
import { supportedPermissionSettings } from '../group-settings';
import { subscriptionOf } from '../indexes';
import { expectDict } from '../params';
import {
  hasMetadataAccess,
  holdsRealmSetting,
  isAdmin,
  isGuest,
  isModerator,
  isOwner,
} from '../permissions';
import type { EventQueue, RequestContext, Route, ServerCore } from '../router';
import type { StoredChannel } from '../state';
import { PLAN_TYPES, realmPlanType } from '../state';
import {
  avatarUrl,
  channelToApi,
  folderToApi,
  groupToApi,
  linkifierToApi,
  renderMarkdown,
  settingToApi,
  sortedFolders,
  sortedLinkifiers,
  subscriptionToApi,
  userToApi,
  zulipVersion,
} from '../views';
import { folderNameLimit } from './channel-folders';

/** Queues are garbage-collected after 10 minutes without a request. */
export const QUEUE_IDLE_TIMEOUT_MS = 10 * 60 * 1000;

/** Drops idle queues; returns the queue if it is alive and belongs to the user. */
function liveQueue(core: ServerCore, id: string, userId: number, now: number): EventQueue {
  for (const [qid, q] of core.queues)
    if (now - q.lastAccess > QUEUE_IDLE_TIMEOUT_MS) core.queues.delete(qid);
  const q = core.queues.get(id);
  if (!q || q.userId !== userId)
    throw new ApiError(`Bad event queue ID: ${id}`, {
      code: 'BAD_EVENT_QUEUE_ID',
      data: { queue_id: id },
    });
  q.lastAccess = now;
  return q;
}

const ALL_TYPES = [
  'realm',
  'realm_user',
  'realm_user_groups',
  'subscription',
  'stream',
  'default_streams',
  'realm_linkifiers',
  'realm_playgrounds',
  'saved_snippets',
  'channel_folders',
];

function stringListParam(ctx: RequestContext, name: string): string[] | undefined {
  return ctx.params.stringList(name);
}

function realmData(ctx: RequestContext): Record<string, unknown> {
  const { org, featureLevel: fl, user } = ctx;
  const r = org.realm;
  const site = ctx.core.site();
  const out: Record<string, unknown> = {
    realm_name: r.name,
    realm_description: renderMarkdown(r.description),
    realm_uri: site,
    realm_url: site,
    realm_date_created: r.dateCreated,
    realm_message_retention_days: r.messageRetentionDays ?? -1,
    realm_enable_spectator_access: r.enableSpectatorAccess,
    server_web_public_streams_enabled: r.webPublicStreamsEnabled,
    realm_default_code_block_language: r.defaultCodeBlockLanguage,
    realm_moderation_request_channel_id: r.moderationRequestChannelId ?? -1,
    realm_waiting_period_threshold: r.waitingPeriodThreshold,
    realm_plan_type: realmPlanType(r),
    zulip_plan_is_not_limited: realmPlanType(r) !== PLAN_TYPES.limited,
    realm_empty_topic_display_name: 'general chat',
    realm_mandatory_topics: r.topicsPolicy === 'disable_empty_topic',
    max_stream_name_length: LIMITS.channelName,
    max_stream_description_length: LIMITS.channelDescription,
    max_topic_length: 60,
    max_message_length: 10000,
    server_supported_permission_settings: supportedPermissionSettings(fl),
  };
  for (const [k, v] of Object.entries(org.realm.settings)) {
    if (k === 'can_set_topics_policy_group' && !supports(fl, 'topicsPolicy')) continue;
    // Anonymous values without deactivated members, as `get_group_setting_value_for_register_api`
    // reports them (zerver/lib/user_groups.py `get_members_and_subgroups_of_groups`).
    out[`realm_${k}`] = settingToApi(org, v);
  }
  if (supports(fl, 'topicsPolicy')) out.realm_topics_policy = r.topicsPolicy;
  if (fl >= 397) out.max_bulk_new_subscription_messages = 100;
  if (fl >= 410) {
    out.max_channel_folder_name_length = folderNameLimit(fl);
    out.max_channel_folder_description_length = LIMITS.channelFolderDescription;
  }
  out.can_create_public_streams = holdsRealmSetting(org, user, 'can_create_public_channel_group');
  out.can_create_private_streams = holdsRealmSetting(org, user, 'can_create_private_channel_group');
  out.can_create_streams =
    Boolean(out.can_create_public_streams) || Boolean(out.can_create_private_streams);
  out.can_create_web_public_streams = holdsRealmSetting(
    org,
    user,
    'can_create_web_public_channel_group',
  );
  out.can_subscribe_other_users = holdsRealmSetting(org, user, 'can_add_subscribers_group');
  return out;
}

function register(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const { org, user, featureLevel: fl } = ctx;
  p.declare('apply_markdown', 'slim_presence', 'presence_history_limit_days');
  // Default true for authenticated requests (FL 92); realm_users always carry profile_data.
  const userView = { clientGravatar: p.bool('client_gravatar') ?? true, profileData: true };
  p.declare('all_public_streams', 'narrow');
  const eventTypes = stringListParam(ctx, 'event_types');
  const fetchTypes = stringListParam(ctx, 'fetch_event_types') ?? eventTypes ?? ALL_TYPES;
  const incRaw = p.json('include_subscribers');
  if (incRaw !== undefined && typeof incRaw !== 'boolean' && !(incRaw === 'partial' && fl >= 412))
    throw badRequest('include_subscribers is not a boolean');
  const withSubscribers = incRaw === true || incRaw === 'partial';
  const capsRaw = p.json('client_capabilities');
  const caps = capsRaw === undefined ? {} : expectDict(capsRaw, 'client_capabilities');
  const cap = (name: string): boolean => caps[name] === true;
  const want = (t: string): boolean => fetchTypes.includes(t);

  const queue: EventQueue = {
    id: randomUUID(),
    userId: user.id,
    lastAccess: ctx.now,
    lastEventId: -1,
    events: [],
    eventTypes: eventTypes ?? null,
    capabilities: caps,
    waiters: [],
  };
  ctx.core.queues.set(queue.id, queue);
  const out: Record<string, unknown> = {
    queue_id: queue.id,
    last_event_id: -1,
    zulip_feature_level: fl,
    zulip_version: zulipVersion(fl),
    zulip_merge_base: zulipVersion(fl),
  };
  const visibleChannel = (ch: StoredChannel): boolean =>
    (cap('archived_channels') || !ch.isArchived) && hasMetadataAccess(org, user, ch);

  if (want('realm')) Object.assign(out, realmData(ctx));
  if (want('realm_user')) {
    out.realm_users = org.users.filter((u) => u.isActive).map((u) => userToApi(u, userView));
    out.realm_non_active_users = org.users
      .filter((u) => !u.isActive)
      .map((u) => userToApi(u, userView));
    out.cross_realm_bots = [];
    Object.assign(out, {
      user_id: user.id,
      email: user.email,
      delivery_email: user.email,
      full_name: user.fullName,
      is_admin: isAdmin(user),
      is_owner: isOwner(user),
      is_moderator: isModerator(user),
      is_guest: isGuest(user),
      avatar_source: 'G',
      avatar_url: avatarUrl(user.email),
      avatar_url_medium: avatarUrl(user.email),
    });
  }
  if (want('realm_user_groups'))
    out.realm_user_groups = org.groups
      .filter((g) => cap('include_deactivated_groups') || !g.deactivated)
      .sort((a, b) => a.id - b.id)
      .map((g) => groupToApi(org, g));
  if (want('subscription')) {
    const channels = [...org.channels].sort((a, b) => a.id - b.id);
    const subscribed: unknown[] = [];
    const unsubscribed: unknown[] = [];
    const never: unknown[] = [];
    for (const ch of channels) {
      if (!cap('archived_channels') && ch.isArchived) continue;
      const sub = subscriptionOf(org, user.id, ch.id);
      if (sub?.active) subscribed.push(subscriptionToApi(org, fl, ch, sub, withSubscribers));
      else if (sub) {
        if (hasMetadataAccess(org, user, ch))
          unsubscribed.push(subscriptionToApi(org, fl, ch, sub, withSubscribers));
      } else if (hasMetadataAccess(org, user, ch)) {
        const c = channelToApi(org, fl, ch);
        if (withSubscribers)
          c.subscribers = subscriptionToApi(org, fl, ch, undefined, true).subscribers;
        never.push(c);
      }
    }
    out.subscriptions = subscribed;
    out.unsubscribed = unsubscribed;
    out.never_subscribed = never;
  }
  if (want('stream'))
    out.streams = org.channels
      .filter(visibleChannel)
      .sort((a, b) => a.id - b.id)
      .map((ch) => channelToApi(org, fl, ch));
  if (want('default_streams')) out.realm_default_streams = [...org.defaultChannelIds];
  if (want('realm_linkifiers'))
    out.realm_linkifiers = cap('linkifier_url_template')
      ? sortedLinkifiers(org).map((l) => linkifierToApi(fl, l))
      : [];
  if (want('realm_playgrounds'))
    out.realm_playgrounds = org.playgrounds.map((pg) => ({
      id: pg.id,
      name: pg.name,
      pygments_language: pg.pygmentsLanguage,
      url_template: pg.urlTemplate,
    }));
  if (want('saved_snippets') && supports(fl, 'savedSnippets'))
    out.saved_snippets = org.snippets
      .filter((s) => s.userId === user.id)
      .map((s) => ({ id: s.id, title: s.title, content: s.content, date_created: s.dateCreated }));
  if (want('channel_folders') && supports(fl, 'channelFolders'))
    out.channel_folders = sortedFolders(fl, org.folders).map((f) => folderToApi(fl, f));
  return out;
}

async function getEvents(ctx: RequestContext): Promise<Record<string, unknown>> {
  const id = ctx.params.string('queue_id');
  if (id === undefined) throw missingArgument('queue_id');
  const lastEventId = ctx.params.int('last_event_id') ?? -1;
  const dontBlock = ctx.params.bool('dont_block') ?? false;
  ctx.params.declare('user_client', 'slim_presence');
  const q = liveQueue(ctx.core, id, ctx.user.id, ctx.now);
  q.events = q.events.filter((e) => e.id > lastEventId);
  if (q.events.length === 0 && !dontBlock) {
    // Long-poll until an event arrives; after heartbeatMs, answer with a heartbeat.
    let timer: NodeJS.Timeout | undefined;
    const arrived = await new Promise<boolean>((resolve) => {
      const wake = (): void => resolve(true);
      q.waiters.push(wake);
      timer = setTimeout(() => {
        q.waiters = q.waiters.filter((w) => w !== wake);
        resolve(false);
      }, ctx.core.heartbeatMs);
    });
    clearTimeout(timer);
    q.lastAccess = ctx.core.clock.now();
    if (!arrived && q.events.length === 0) {
      q.lastEventId += 1;
      q.events.push({ type: 'heartbeat', id: q.lastEventId });
    }
  }
  return { events: q.events, queue_id: q.id };
}

/** Register, events and server settings. */
export const registerRoutes: Route[] = [
  { method: 'POST', path: '/register', handler: register },
  { method: 'GET', path: '/events', handler: getEvents },
  {
    method: 'DELETE',
    path: '/events',
    handler: (ctx) => {
      const id = ctx.params.string('queue_id');
      if (id === undefined) throw missingArgument('queue_id');
      liveQueue(ctx.core, id, ctx.user.id, ctx.now);
      ctx.core.queues.delete(id);
      return {};
    },
  },
  {
    method: 'GET',
    path: '/server_settings',
    auth: 'none',
    handler: (ctx) => {
      const site = ctx.core.site();
      return {
        authentication_methods: { password: true, dev: false, email: true },
        external_authentication_methods: [],
        zulip_feature_level: ctx.featureLevel,
        zulip_version: zulipVersion(ctx.featureLevel),
        zulip_merge_base: zulipVersion(ctx.featureLevel),
        push_notifications_enabled: false,
        is_incompatible: false,
        email_auth_enabled: true,
        require_email_format_usernames: true,
        realm_uri: site,
        realm_url: site,
        realm_name: ctx.org.realm.name,
        realm_icon: `${site}/static/images/logo/zulip-icon-128x128.png`,
        realm_description: renderMarkdown(ctx.org.realm.description),
        realm_web_public_access_enabled: ctx.org.realm.enableSpectatorAccess,
      };
    },
  },
];
