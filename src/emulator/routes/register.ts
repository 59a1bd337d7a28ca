import { randomUUID } from 'node:crypto';
import { supports } from '../../model/features';
import { LIMITS } from '../../model/kinds';
import { ApiError, badRequest, missingArgument } from '../errors';
import { supportedPermissionSettings } from '../group-settings';
import {
  ENABLED_VIDEO_CHAT_PROVIDERS,
  realmOrgType,
  realmPermissionInfos,
  realmProperty,
  realmPropertyInfos,
} from '../realm-settings';
import { subscriptionOf } from '../indexes';
import { expectBool, expectDict } from '../params';
import {
  canSeeSubscribers,
  directMembersReader,
  hasMetadataAccess,
  holdsRealmSetting,
  isAdmin,
  isGuest,
  isModerator,
  isOwner,
  subscriberIdsReader,
} from '../permissions';
import { realmEmojiDict } from './realm-emoji';
import type { EventQueue, RequestContext, Route, ServerCore } from '../router';
import type { StoredChannel, StoredSubscription, StoredUser } from '../state';
import { LazyList } from '../json-body';
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
  sortedByName,
  subscriptionToApi,
  userToApi,
  zulipVersion,
} from '../views';
import { folderNameLimit } from './channel-folders';
import { defaultChannelGroupsToApi } from './default-stream-groups';
import { draftsForRegister } from './drafts';
import { messages } from './messages';
import { navigationViewsOf } from './navigation-views';
import { allUsersStatus, realmPresences } from './presence';
import { realmDomainsToApi } from './realm-domains';
import { undeliveredScheduledMessages } from './scheduled-messages';
import { userSettingsDefaultsToApi } from './user-settings-defaults';
import { PROFILE_FIELD_TYPES_FOR_REGISTER, profileFieldsToApi } from './custom-profile-fields';
import { isPronounsFieldTypeSupported, withoutPronounsType } from '../compatibility';

/** Queues are garbage-collected after 10 minutes without a request. */
export const QUEUE_IDLE_TIMEOUT_MS = 10 * 60 * 1000;

/** zerver/tornado/exceptions.py BadEventQueueIdError. */
function badEventQueue(id: string): ApiError {
  return new ApiError(`Bad event queue ID: ${id}`, {
    code: 'BAD_EVENT_QUEUE_ID',
    data: { queue_id: id },
  });
}

/**
 * Drops every event queue at once, as Zulip's garbage collector does with queues idle for
 * {@link QUEUE_IDLE_TIMEOUT_MS}: the next `GET /events` on any of them answers
 * `BAD_EVENT_QUEUE_ID`. A long-poll waiting on one now is finished first with what the queue
 * holds, as ClientDescriptor.cleanup does (zerver/tornado/event_queue.py). Returns how many.
 */
export function expireAllQueues(core: ServerCore): number {
  const all = [...core.queues.values()];
  core.queues.clear();
  for (const q of all) for (const w of q.waiters.splice(0)) w();
  return all.length;
}

/** Drops idle queues; returns the queue if it is alive and belongs to the user. */
function liveQueue(core: ServerCore, id: string, userId: number, now: number): EventQueue {
  for (const [qid, q] of core.queues)
    if (now - q.lastAccess > QUEUE_IDLE_TIMEOUT_MS) core.queues.delete(qid);
  const q = core.queues.get(id);
  if (!q || q.userId !== userId) throw badEventQueue(id);
  q.lastAccess = now;
  return q;
}

/**
 * `ClientCapabilities` (zerver/lib/events.py): a JSON dict whose `notification_settings_null`
 * key is required once the dict is sent; every other key is an optional boolean and unknown
 * keys are ignored. Absent, it defaults to `{notification_settings_null: false}`
 * (`DEFAULT_CLIENT_CAPABILITIES`). Errors follow zerver/lib/typed_endpoint.py's templates, first
 * field first.
 */
const CAPABILITIES = [
  'notification_settings_null',
  'bulk_message_deletion',
  'user_avatar_url_field_optional',
  'stream_typing_notifications',
  'linkifier_url_template',
  'user_list_incomplete',
  'include_deactivated_groups',
  'archived_channels',
  'empty_topic_name',
  'simplified_presence_events',
  'user_settings_object',
] as const;

function clientCapabilities(ctx: RequestContext): Record<string, unknown> {
  const raw = ctx.params.json('client_capabilities');
  if (raw === undefined) return { notification_settings_null: false };
  const caps = expectDict(raw, 'client_capabilities');
  for (const name of CAPABILITIES) {
    const v = caps[name];
    const where = `client_capabilities["${name}"]`;
    if (v === undefined) {
      if (name === 'notification_settings_null')
        throw badRequest(`${where} field is missing: Field required`);
      continue;
    }
    expectBool(v, where);
  }
  return caps;
}

/**
 * `include_subscribers`: since FL 412 a plain string literal, "true", "false" or "partial"
 * (`Literal[...]`: anything else is "Invalid include_subscribers"; zerver/views/streams.py
 * parse_include_subscribers); before, a JSON boolean (Zulip 10.2 `Json[bool]`).
 */
function includeSubscribers(ctx: RequestContext): boolean | 'partial' {
  const p = ctx.params;
  if (!supports(ctx.featureLevel, 'includeSubscribersPartial'))
    return p.bool('include_subscribers') ?? false;
  const v = p.string('include_subscribers') ?? 'false';
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'partial') return 'partial';
  throw badRequest('Invalid include_subscribers');
}

/**
 * The stream-level notification settings that `post_process_state` fills in for clients
 * without `notification_settings_null` (zerver/lib/stream_subscription.py
 * handle_stream_notifications_compatibility: `wildcard_mentions_notify` stays null). The value
 * is the user's `enable_stream_<setting>`; the emulator has no per-user notification settings,
 * so every user has Zulip's defaults for a new user, all false (zerver/models/users.py
 * `enable_stream_desktop_notifications` ... `enable_stream_audible_notifications`).
 */
const STREAM_NOTIFICATION_DEFAULTS: Record<string, boolean> = {
  desktop_notifications: false,
  audible_notifications: false,
  push_notifications: false,
  email_notifications: false,
};

function fillNotificationDefaults(sub: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(STREAM_NOTIFICATION_DEFAULTS))
    if (sub[k] === null) sub[k] = v;
}

function realmData(ctx: RequestContext): Record<string, unknown> {
  const { org, featureLevel: fl } = ctx;
  const r = org.realm;
  const site = ctx.core.site();
  const out: Record<string, unknown> = {
    realm_uri: site,
    realm_url: site,
    realm_date_created: r.dateCreated,
    server_web_public_streams_enabled: r.webPublicStreamsEnabled,
    realm_plan_type: realmPlanType(r),
    realm_org_type: realmOrgType(org),
    realm_available_video_chat_providers: ENABLED_VIDEO_CHAT_PROVIDERS,
    zulip_plan_is_not_limited: realmPlanType(r) !== PLAN_TYPES.limited,
    realm_empty_topic_display_name: 'general chat',
    realm_mandatory_topics: r.topicsPolicy === 'disable_empty_topic',
    max_stream_name_length: LIMITS.channelName,
    max_stream_description_length: LIMITS.channelDescription,
    max_topic_length: 60,
    max_message_length: 10000,
    server_supported_permission_settings: supportedPermissionSettings(fl),
  };
  for (const info of realmPermissionInfos(fl)) {
    const v = org.realm.settings[info.wire];
    // Anonymous values without deactivated members, as `get_group_setting_value_for_register_api`
    // reports them (zerver/lib/user_groups.py `get_members_and_subgroups_of_groups`).
    if (v !== undefined) out[`realm_${info.wire}`] = settingToApi(org, v);
  }
  // Realm.property_types as stored (the description raw, not rendered), the channel settings
  // as IDs or -1, the enums by name (zerver/lib/events.py `fetch_initial_state_data`).
  for (const info of realmPropertyInfos(fl))
    out[`realm_${info.wire}`] = realmProperty(org, info.wire);
  out.realm_allow_edit_history =
    realmProperty(org, 'message_edit_history_visibility_policy') !== 'none';
  if (supports(fl, 'sendNewSubscriptionMessages')) out.max_bulk_new_subscription_messages = 100;
  if (supports(fl, 'channelFolderLimitsInRegister')) {
    out.max_channel_folder_name_length = folderNameLimit(fl);
    out.max_channel_folder_description_length = LIMITS.channelFolderDescription;
  }
  return out;
}

/**
 * The `realm_user` part of the state (zerver/lib/events.py fetch_initial_state_data): the
 * users, split by `post_process_state` into active and not active lists (sorted by ID, without
 * `is_active`), and the caller's own data and creation rights. `can_subscribe_other_users` was
 * removed at FL 341 (api_docs/changelog.md).
 */
function realmUserData(
  ctx: RequestContext,
  userView: { clientGravatar: boolean; profileData: boolean; featureLevel: number },
): Record<string, unknown> {
  const { org, user } = ctx;
  const withoutIsActive = { ...userView, isActive: false };
  const view = (u: StoredUser): Record<string, unknown> => userToApi(u, withoutIsActive);
  const sorted = [...org.users].sort((a, b) => a.id - b.id);
  // Built while the body is written (100,000 users at scale 10).
  const list = (users: StoredUser[]): LazyList<StoredUser> => new LazyList(users, view);
  const canPrivate = holdsRealmSetting(org, user, 'can_create_private_channel_group');
  const canPublic = holdsRealmSetting(org, user, 'can_create_public_channel_group');
  const canWebPublic = holdsRealmSetting(org, user, 'can_create_web_public_channel_group');
  return {
    realm_users: list(sorted.filter((u) => u.isActive)),
    realm_non_active_users: list(sorted.filter((u) => !u.isActive)),
    cross_realm_bots: [],
    avatar_source: 'G',
    avatar_url_medium: avatarUrl(user.email),
    avatar_url: avatarUrl(user.email),
    can_create_private_streams: canPrivate,
    can_create_public_streams: canPublic,
    can_create_web_public_streams: canWebPublic,
    can_create_streams: canPrivate || canPublic || canWebPublic,
    can_invite_others_to_realm: holdsRealmSetting(org, user, 'can_invite_users_group'),
    is_admin: isAdmin(user),
    is_owner: isOwner(user),
    is_moderator: isModerator(user),
    is_guest: isGuest(user),
    user_id: user.id,
    email: user.email,
    delivery_email: user.email,
    full_name: user.fullName,
  };
}

/**
 * The `subscription` part (zerver/lib/subscription_info.py gather_subscriptions_helper): each
 * list sorted by channel name (Python's code-point order), `subscribers: []` where the user may
 * not see them, and without `notification_settings_null` the null stream notification settings
 * of `subscriptions` and `unsubscribed` made the user's defaults (post_process_state). The
 * objects are built while the body is written.
 */
function subscriptionData(
  ctx: RequestContext,
  opts: { withSubscribers: boolean; archivedChannels: boolean; notificationDefaults: boolean },
  idsOf: (channelId: number) => readonly number[],
): Record<string, unknown> {
  const { org, user, featureLevel: fl } = ctx;
  const { withSubscribers } = opts;
  type Row = { ch: StoredChannel; sub: StoredSubscription };
  const subscribed: Row[] = [];
  const unsubscribed: Row[] = [];
  const never: StoredChannel[] = [];
  for (const ch of org.channels) {
    if (!opts.archivedChannels && ch.isArchived) continue;
    const sub = subscriptionOf(org, user.id, ch.id);
    if (sub?.active) subscribed.push({ ch, sub });
    else if (sub) {
      if (hasMetadataAccess(org, user, ch)) unsubscribed.push({ ch, sub });
    } else if (hasMetadataAccess(org, user, ch)) never.push(ch);
  }
  const subView = ({ ch, sub }: Row): Record<string, unknown> => {
    const out = subscriptionToApi(org, fl, ch, sub, withSubscribers, user, idsOf(ch.id));
    if (opts.notificationDefaults) fillNotificationDefaults(out);
    return out;
  };
  const neverView = (ch: StoredChannel): Record<string, unknown> => {
    const ids = idsOf(ch.id);
    const c = channelToApi(org, fl, ch, { subscriberIds: ids });
    if (withSubscribers) c.subscribers = canSeeSubscribers(org, user, ch) ? ids : [];
    return c;
  };
  const byName = (r: Row): string => r.ch.name;
  return {
    subscriptions: new LazyList(sortedByName(subscribed, byName), subView),
    unsubscribed: new LazyList(sortedByName(unsubscribed, byName), subView),
    never_subscribed: new LazyList(sortedByName(never), neverView),
  };
}

/**
 * `POST /register` (zerver/views/events_register.py events_register_backend,
 * zerver/lib/events.py do_events_register, fetch_initial_state_data, post_process_state).
 * `fetch_event_types` (else `event_types`, else everything) chooses the state sent; `event_types`
 * alone chooses the events the queue gets. `queue_id`, `last_event_id` and the version fields
 * are always there; unknown types are ignored. Modelled types: realm, realm_user,
 * realm_user_groups, subscription, stream, default_streams, default_stream_groups, realm_linkifiers, realm_filters,
 * realm_playgrounds, realm_domains, saved_snippets, channel_folders, drafts, scheduled_messages,
 * navigation_views, presence, user_status, message, starred_messages,
 * realm_user_settings_defaults.
 */
function register(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const { org, user, featureLevel: fl } = ctx;
  p.bool('apply_markdown');
  const slimPresence = p.bool('slim_presence') ?? false;
  const historyLimitDays = p.int('presence_history_limit_days');
  p.int('queue_lifespan_secs');
  // Default true for authenticated requests (FL 92); realm_users always carry profile_data.
  const userView = {
    clientGravatar: p.bool('client_gravatar') ?? true,
    profileData: true,
    featureLevel: ctx.featureLevel,
  };
  const allPublicStreams = p.bool('all_public_streams');
  p.declare('narrow');
  const eventTypes = p.stringList('event_types');
  const fetchTypes = p.stringList('fetch_event_types') ?? eventTypes;
  const inc = includeSubscribers(ctx);
  const withSubscribers = inc !== false;
  const caps = clientCapabilities(ctx);
  const cap = (name: string): boolean => caps[name] === true;
  // events_register_backend: `can_access_public_streams` is false for guests.
  if (allPublicStreams === true && isGuest(user))
    throw badRequest('User not authorized for this query');
  const pronounsSupported = isPronounsFieldTypeSupported(ctx.userAgent);
  const want = (t: string): boolean => fetchTypes === undefined || fetchTypes.includes(t);

  // Each channel's subscribers once per request (its count and its list are in several parts).
  const idsOf = subscriberIdsReader(org);
  const queue: EventQueue = {
    id: randomUUID(),
    userId: user.id,
    lastAccess: ctx.now,
    lastEventId: -1,
    events: [],
    eventTypes: eventTypes ?? null,
    capabilities: caps,
    pronounsFieldTypeSupported: pronounsSupported,
    waiters: [],
  };
  ctx.core.queues.set(queue.id, queue);
  const out: Record<string, unknown> = {
    queue_id: queue.id,
    zulip_version: zulipVersion(fl),
    zulip_feature_level: fl,
    zulip_merge_base: zulipVersion(fl),
  };

  if (want('presence')) {
    // Modern presence when the client asks for it (fetch_initial_state_data).
    const slim = slimPresence || cap('simplified_presence_events');
    const pr = realmPresences(ctx, slim, historyLimitDays);
    out.presences = pr.presences;
    out.presence_last_update_id = pr.lastUpdateId;
    out.server_timestamp = ctx.now / 1000;
  }
  if (want('realm_user_groups')) {
    const members = directMembersReader(org);
    out.realm_user_groups = new LazyList(
      org.groups
        .filter((g) => cap('include_deactivated_groups') || !g.deactivated)
        .sort((a, b) => a.id - b.id),
      (g) => groupToApi(org, g, members),
    );
  }
  if (want('realm')) Object.assign(out, realmData(ctx));
  // fetch_initial_state_data: `get_realm_domains`, for every account.
  if (want('realm_domains')) out.realm_domains = realmDomainsToApi(org);
  if (want('realm_user_settings_defaults'))
    out.realm_user_settings_defaults = userSettingsDefaultsToApi(org, fl);
  if (want('realm_linkifiers'))
    out.realm_linkifiers = cap('linkifier_url_template')
      ? sortedLinkifiers(org).map((l) => linkifierToApi(fl, l))
      : [];
  if (want('realm_filters')) out.realm_filters = [];
  if (want('realm_playgrounds'))
    out.realm_playgrounds = org.playgrounds.map((pg) => ({
      id: pg.id,
      name: pg.name,
      pygments_language: pg.pygmentsLanguage,
      url_template: pg.urlTemplate,
    }));
  if (want('realm_emoji')) out.realm_emoji = realmEmojiDict(org);
  if (want('realm_user')) Object.assign(out, realmUserData(ctx, userView));
  if (want('message')) {
    const mine = messages(org).filter((m) => m.flags[String(user.id)] !== undefined);
    out.max_message_id = mine.reduce((max, m) => Math.max(max, m.id), -1);
  }
  if (want('saved_snippets') && supports(fl, 'savedSnippets'))
    out.saved_snippets = org.snippets
      .filter((s) => s.userId === user.id)
      .map((s) => ({ id: s.id, title: s.title, content: s.content, date_created: s.dateCreated }));
  if (want('navigation_views') && supports(fl, 'navigationViews'))
    out.navigation_views = navigationViewsOf(ctx);
  if (want('drafts')) out.drafts = draftsForRegister(ctx);
  if (want('scheduled_messages')) out.scheduled_messages = undeliveredScheduledMessages(ctx);
  if (want('subscription'))
    Object.assign(
      out,
      subscriptionData(
        ctx,
        {
          withSubscribers,
          archivedChannels: cap('archived_channels'),
          // post_process_state: without notification_settings_null, null stream notification
          // settings become the user's defaults.
          notificationDefaults: caps.notification_settings_null !== true,
        },
        idsOf,
      ),
    );
  if (want('channel_folders') && supports(fl, 'channelFolders'))
    out.channel_folders = sortedFolders(fl, org.folders).map((f) => folderToApi(fl, f));
  if (want('starred_messages'))
    out.starred_messages = messages(org)
      .filter((m) => (m.flags[String(user.id)] ?? []).includes('starred'))
      .map((m) => m.id)
      .sort((a, b) => a - b);
  if (want('stream')) {
    // do_get_streams(include_all=True, exclude_archived=not archived_channels): archived
    // channels only from FL 378 (before it, only the subscription lists had them), by name.
    const archived = cap('archived_channels') && supports(fl, 'archivedChannelsInRegisterStreams');
    out.streams = new LazyList(
      sortedByName(
        org.channels.filter(
          (ch) => (archived || !ch.isArchived) && hasMetadataAccess(org, user, ch),
        ),
      ),
      (ch) => channelToApi(org, fl, ch, { subscriberIds: idsOf(ch.id) }),
    );
  }
  // Guests are told the organization has no default channels.
  if (want('default_streams'))
    out.realm_default_streams = isGuest(user) ? [] : [...org.defaultChannelIds];
  // Guests are told there are none (fetch_initial_state_data).
  if (want('default_stream_groups'))
    out.realm_default_stream_groups = isGuest(user) ? [] : defaultChannelGroupsToApi(org);
  if (want('user_status')) out.user_status = allUsersStatus(ctx);
  // fetch_initial_state_data: the fields in order, and the types by keyword; a client without
  // the pronouns type gets pronouns fields as short text, and no PRONOUNS type.
  if (want('custom_profile_fields')) {
    const fields = profileFieldsToApi(org);
    if (pronounsSupported) {
      out.custom_profile_fields = fields;
      out.custom_profile_field_types = PROFILE_FIELD_TYPES_FOR_REGISTER;
    } else {
      out.custom_profile_fields = withoutPronounsType(fields);
      const { PRONOUNS: _, ...types } = PROFILE_FIELD_TYPES_FOR_REGISTER;
      out.custom_profile_field_types = types;
    }
  }

  out.last_event_id = -1;
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

/** `DELETE /events`: the queue is deleted (Zulip's Tornado `cleanup_event_queue`). */
function deleteQueue(ctx: RequestContext): Record<string, unknown> {
  const id = ctx.params.string('queue_id');
  if (id === undefined) throw missingArgument('queue_id');
  const q = liveQueue(ctx.core, id, ctx.user.id, ctx.now);
  ctx.core.queues.delete(id);
  // ClientDescriptor.cleanup (zerver/tornado/event_queue.py) finishes a connected
  // long-poll first: it answers with what the queue holds.
  for (const w of q.waiters.splice(0)) w();
  return {};
}

/** Register, events and server settings. */
export const registerRoutes: Route[] = [
  { method: 'POST', path: '/register', handler: register },
  { method: 'GET', path: '/events', handler: getEvents },
  { method: 'DELETE', path: '/events', handler: deleteQueue },
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
