import { FEATURES, supports } from '../../model/features';
import type { TopicsPolicy } from '../../model/kinds';
import { CHANNEL_PERMISSIONS, CHANNEL_SETTINGS_ZULIP_ORDER } from '../../model/permissions';
import type { PermissionSettingInfo } from '../../model/permissions';
import { LIMITS, TOPICS_POLICIES } from '../../model/kinds';
import {
  channelPrivacyProblems,
  checkChannelDescription,
  checkChannelName,
  storedChannelDescription,
} from '../../model/rules';
import {
  ApiError,
  missingArgument,
  badRequest,
  expectationMismatch,
  incompatibleParameters,
  insufficientPermission,
  ownerRequired,
} from '../errors';
import {
  canonicalSetting,
  channelSettingInfos,
  checkAllowed,
  checkSettingExists,
  defaultSettingValue,
  groupSettingShape,
  parseGroupSettingValue,
  settingUpdateShape,
  settingsEqual,
} from '../group-settings';
import type { SettingChangeRequest } from '../group-settings';
import {
  hasContentAccess,
  hasMetadataAccess,
  holdsRealmSetting,
  holdsSetting,
  isAdmin,
  isGuest,
  isOwner,
  isSubscribed,
  subscriberIds,
} from '../permissions';
import type { Params } from '../params';
import type { RequestContext, Route } from '../router';
import { newSubscription, nextId, systemGroupId } from '../state';
import type { StoredChannel, StoredGroupSetting } from '../state';
import { pickColors } from '../colors';
import { channelAudience } from '../events';
import { addSubscription, subscriptionOf, userById } from '../indexes';
import { channelToApi, renderMarkdown, settingToApi, subscriptionToApi } from '../views';
import {
  accessPermissionsNotice,
  descriptionNotice,
  permissionPolicyName,
  postingPermissionNotice,
  renameNotice,
  retentionNotice,
  sendChannelCreatedNotice,
  sendChannelEventsNotice,
  topicsPolicyNotice,
} from '../channel-notices';
import { accessStreamById, channelByName, pathInt, requireAdmin, requireNonGuest } from './common';
import { messages } from './messages';

/**
 * Parses `message_retention_days` (`parse_message_retention_days`): null = realm default,
 * -1 = unlimited. The parameter is `Json[str] | Json[int]` upstream, so `v` is the decoded JSON
 * (`Params.json` has already refused text that is not JSON: "... is not valid JSON").
 */
export function parseRetention(v: unknown): number | null {
  if (v === 'realm_default') return null;
  if (v === 'unlimited') return -1;
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  // RequestVariableConversionError (zerver/lib/retention.py parse_message_retention_days).
  throw new ApiError(`Bad value for 'message_retention_days': ${String(v)}`, {
    code: 'REQUEST_VARIABLE_INVALID',
    data: { var_name: 'message_retention_days', bad_value: v },
  });
}

/** Owners only, and not on a limited plan (`ensure_not_on_limited_plan`). */
function checkRetentionAllowed(ctx: RequestContext): void {
  if (!isOwner(ctx.user)) throw ownerRequired();
  if (!ctx.org.realm.planAllowsRetention)
    throw badRequest('Available on Zulip Cloud Standard. Upgrade to access.');
}

/** PATCH /streams: checks retention permission and plan, then parses it (update_stream_backend). */
function retentionFor(ctx: RequestContext, raw: unknown): number | null {
  checkRetentionAllowed(ctx);
  return parseRetention(raw);
}

/**
 * Creation: the value is parsed first (parse_message_retention_days while building the stream
 * dicts), and only a value other than the realm default needs an owner
 * (check_channel_creation_permissions: `message_retention_days is not None`).
 */
function creationRetention(ctx: RequestContext, raw: unknown): number | null {
  const parsed = parseRetention(raw);
  if (parsed !== null) checkRetentionAllowed(ctx);
  return parsed;
}

/**
 * `topics_policy` on creation: `Json[...]` in add_subscriptions_backend and create_channel
 * (unlike PATCH /streams, where it is a plain str), so `"inherit"` arrives JSON-quoted.
 */
function creationTopicsPolicy(ctx: RequestContext, p: Params): TopicsPolicy | undefined {
  const v = p.json('topics_policy');
  if (v === undefined) return undefined;
  // parse_enum_from_string_value runs on None too: KeyError, "Invalid topics_policy".
  if (v === null) throw badRequest('Invalid topics_policy');
  if (typeof v !== 'string') throw badRequest('topics_policy is not a string');
  return parseTopicsPolicy(ctx, v);
}

function parseTopicsPolicy(ctx: RequestContext, raw: string): TopicsPolicy {
  const allowed = TOPICS_POLICIES.filter(
    (p) => p !== 'empty_topic_only' || supports(ctx.featureLevel, 'emptyTopicOnly'),
  );
  if (!(allowed as readonly string[]).includes(raw)) throw badRequest('Invalid topics_policy');
  return raw as TopicsPolicy;
}

/**
 * FL 441: a private channel with protected history needs `can_create_topic_group` to be exactly
 * `role:everyone` (zerver/lib/streams.py
 * `validate_can_create_topic_group_setting_for_protected_history_streams`); an anonymous value,
 * even one naming role:everyone among others, does not qualify. `value` is canonical, so
 * `{direct_members: [], direct_subgroups: [everyone]}` has become the group's ID already.
 */
function checkTopicGroupForHistory(
  ctx: RequestContext,
  historyPublic: boolean,
  value: StoredGroupSetting | undefined,
): void {
  if (historyPublic || value === undefined) return;
  if (value !== systemGroupId(ctx.org, 'role:everyone'))
    throw incompatibleParameters(['history_public_to_subscribers', 'can_create_topic_group']);
}

/**
 * Folder for a channel (zerver/lib/channel_folders.py `get_channel_folder_by_id`): any folder
 * of the realm, archived ones included, else "Invalid channel folder ID".
 */
function checkFolder(ctx: RequestContext, id: number): number {
  if (!ctx.org.folders.some((x) => x.id === id)) throw badRequest('Invalid channel folder ID');
  return id;
}

/** What a channel is created with (`POST /channels/create`, or subscribing to a new name). */
export interface ChannelCreation {
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean | undefined;
  isDefault: boolean;
  retention: number | null;
  topicsPolicy: TopicsPolicy;
  folderId: number | null;
  settings: Record<string, StoredGroupSetting>;
}

/** Reads and checks the creation parameters of a request (before any channel is made). */
export function readCreationParams(
  ctx: RequestContext,
  p: Params,
  opts: { validate: boolean } = { validate: true },
): ChannelCreation {
  const fl = ctx.featureLevel;
  p.declare('announce');
  if (supports(fl, 'sendNewSubscriptionMessages')) p.declare('send_new_subscription_messages');
  const inviteOnly = p.bool('invite_only') ?? false;
  const isWebPublic = p.bool('is_web_public') ?? false;
  const history = p.bool('history_public_to_subscribers');
  const isDefault = p.bool('is_default_stream') ?? false;
  const retentionRaw = p.json('message_retention_days');
  // Parsed with the parameters, as the enum check is a validator of the parameter upstream.
  const topicsPolicy = supports(fl, 'topicsPolicy') ? creationTopicsPolicy(ctx, p) : undefined;
  let folderId: number | null = null;
  if (supports(fl, 'channelFolders')) {
    const f = p.json('folder_id');
    if (f !== undefined && f !== null) {
      if (typeof f !== 'number' || !Number.isInteger(f))
        throw badRequest('folder_id is not an integer');
      folderId = f;
    }
  }
  const rawSettings: Array<[PermissionSettingInfo, unknown]> = [];
  for (const info of channelSettingInfos(fl)) {
    const v = p.json(info.wire);
    if (v !== undefined) rawSettings.push([info, v]);
  }

  const creation: ChannelCreation = {
    inviteOnly,
    isWebPublic,
    historyPublicToSubscribers: history,
    isDefault,
    retention: null,
    topicsPolicy: 'inherit',
    folderId,
    settings: {},
  };
  if (!opts.validate) return creation;
  if (isWebPublic) {
    if (!(ctx.org.realm.webPublicStreamsEnabled && ctx.org.realm.enableSpectatorAccess))
      throw badRequest('Web-public channels are not enabled.');
    if (!holdsRealmSetting(ctx.org, ctx.user, 'can_create_web_public_channel_group'))
      throw insufficientPermission();
  }
  // The cross-field rules on the new channel's privacy (history follows `inviteOnly`, so of
  // the history rules only the web-public one can break, and then web-public-private does too).
  const privacy = channelPrivacyProblems({
    private: inviteOnly,
    webPublic: isWebPublic,
    historyPublicToSubscribers: inviteOnly ? (history ?? false) : true,
    defaultChannel: isDefault,
  });
  const invalid = privacy.find((x) => x.rule !== 'default-private');
  if (invalid) throw badRequest(invalid.message);
  // check_channel_creation_permissions: a plain "Insufficient permission" for non-administrators.
  if (isDefault && !isAdmin(ctx.user)) throw insufficientPermission();
  const defaultPrivate = privacy.find((x) => x.rule === 'default-private');
  if (defaultPrivate) throw badRequest(defaultPrivate.message);
  creation.retention = retentionRaw === undefined ? null : creationRetention(ctx, retentionRaw);
  if (topicsPolicy !== undefined) {
    // add_subscriptions_backend: only a policy other than `inherit` needs the permission.
    if (
      topicsPolicy !== 'inherit' &&
      !holdsRealmSetting(ctx.org, ctx.user, 'can_set_topics_policy_group')
    )
      throw insufficientPermission();
    creation.topicsPolicy = topicsPolicy;
  }
  if (folderId !== null) checkFolder(ctx, folderId);
  for (const [info, raw] of rawSettings) {
    const value = parseGroupSettingValue(ctx.org, raw, info.wire);
    checkAllowed(ctx.org, info, value);
    creation.settings[info.wire] = value;
  }
  if (supports(fl, 'canCreateTopicGroup')) {
    // get_default_value_for_history_public_to_subscribers: private channels default to
    // protected history; public channels always have public history.
    const historyPublic = inviteOnly ? (history ?? false) : true;
    const info = CHANNEL_PERMISSIONS.canCreateTopicGroup;
    const value = creation.settings[info.wire] ?? defaultSettingValue(ctx.org, info, ctx.user);
    checkTopicGroupForHistory(ctx, historyPublic, value);
  }
  return creation;
}

/** Whether the user may create a channel of this privacy. */
export function checkCanCreate(ctx: RequestContext, c: Pick<ChannelCreation, 'inviteOnly'>): void {
  const setting = c.inviteOnly
    ? 'can_create_private_channel_group'
    : 'can_create_public_channel_group';
  if (!holdsRealmSetting(ctx.org, ctx.user, setting)) throw insufficientPermission();
}

/** Validates a new channel's name and description (`check_stream_name`). */
export function checkNewChannel(ctx: RequestContext, name: string, description: string): void {
  const problem = checkChannelName(name);
  if (problem) throw badRequest(problem);
  const tooLong = checkChannelDescription(description);
  if (tooLong) throw badRequest(tooLong);
}

/** The `default_streams` event: the whole list of IDs, to active users who are not guests. */
export function defaultStreamsEvent(ctx: RequestContext): void {
  // An ID list since FL 330 (channel objects before); zerver/actions/default_streams.py
  // notify_default_streams sends it to `active_non_guest_user_ids`.
  const list = [...ctx.org.defaultChannelIds];
  const users = ctx.org.users.filter((u) => u.isActive && !isGuest(u)).map((u) => u.id);
  ctx.events.push({ users, event: { type: 'default_streams', default_streams: list } });
}

/** A `stream` `update` event for one property. */
function streamUpdate(
  ctx: RequestContext,
  ch: StoredChannel,
  property: string,
  value: unknown,
  extra: Record<string, unknown> = {},
): void {
  ctx.events.push({
    users: channelAudience(ctx, ch),
    event: {
      type: 'stream',
      op: 'update',
      stream_id: ch.id,
      name: ch.name,
      property,
      value,
      ...extra,
    },
  });
}

/** Creates a channel (no subscriptions). */
export function createChannel(
  ctx: RequestContext,
  name: string,
  description: string,
  c: ChannelCreation,
): StoredChannel {
  const settings: Record<string, StoredGroupSetting> = {};
  for (const info of channelSettingInfos(ctx.featureLevel))
    settings[info.wire] = c.settings[info.wire] ?? defaultSettingValue(ctx.org, info, ctx.user);
  const ch: StoredChannel = {
    id: nextId(ctx.org),
    name: name.trim(),
    // ChannelDescription: each \n becomes a space (a \r stays).
    description: storedChannelDescription(description),
    inviteOnly: c.inviteOnly,
    isWebPublic: c.isWebPublic,
    historyPublicToSubscribers: c.inviteOnly ? (c.historyPublicToSubscribers ?? false) : true,
    messageRetentionDays: c.retention,
    isArchived: false,
    folderId: c.folderId,
    topicsPolicy: c.topicsPolicy,
    creatorId: ctx.user.id,
    dateCreated: Math.floor(ctx.now / 1000),
    settings,
  };
  ctx.org.channels.push(ch);
  ctx.events.push({
    users: channelAudience(ctx, ch),
    event: { type: 'stream', op: 'create', streams: [channelToApi(ctx.org, ctx.featureLevel, ch)] },
  });
  if (c.isDefault) {
    ctx.org.defaultChannelIds.push(ch.id);
    defaultStreamsEvent(ctx);
  }
  return ch;
}

/**
 * Subscribes users to a channel; returns the IDs that were newly subscribed. A reactivated
 * subscription keeps its color; a new one gets `colorOf(userId)`, by default the user's next
 * unused palette color (`pick_colors`).
 */
export function subscribeUsers(
  ctx: RequestContext,
  ch: StoredChannel,
  userIds: number[],
  colorOf?: (userId: number) => string | undefined,
): number[] {
  const added: number[] = [];
  // send_stream_creation_events_for_previously_inaccessible_streams: a user who could not see
  // the channel before (a member added to a private channel, a guest to a public one) gets it
  // created first.
  const unseen: number[] = [];
  for (const uid of userIds) {
    const existing = subscriptionOf(ctx.org, uid, ch.id);
    if (existing?.active) continue;
    const u = userById(ctx.org, uid);
    if (u && !hasMetadataAccess(ctx.org, u, ch)) unseen.push(uid);
    if (existing) existing.active = true;
    else {
      const color = colorOf?.(uid) ?? pickColors(ctx.org, uid, [ch]).get(ch.id);
      addSubscription(ctx.org, newSubscription(uid, ch.id, color));
    }
    added.push(uid);
  }
  if (unseen.length > 0)
    ctx.events.push({
      users: unseen,
      event: {
        type: 'stream',
        op: 'create',
        streams: [channelToApi(ctx.org, ctx.featureLevel, ch)],
      },
    });
  if (added.length > 0) {
    for (const uid of added) {
      const sub = subscriptionOf(ctx.org, uid, ch.id);
      ctx.events.push({
        users: [uid],
        event: {
          type: 'subscription',
          op: 'add',
          subscriptions: [subscriptionToApi(ctx.org, ctx.featureLevel, ch, sub, true)],
        },
      });
    }
    ctx.events.push({
      users: channelAudience(ctx, ch).filter((u) => !added.includes(u)),
      event: { type: 'subscription', op: 'peer_add', stream_ids: [ch.id], user_ids: added },
    });
  }
  return added;
}

/**
 * GET /streams: zerver/lib/streams.py `do_get_streams` and `get_streams_for_user`. Since FL 356
 * `include_all_active` is `include_all` and anyone may ask (all channels with metadata
 * access). Sorted by name.
 */
function listChannels(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const fl = ctx.featureLevel;
  const { org, user } = ctx;
  const includePublic = (p.bool('include_public') ?? true) && !isGuest(user);
  const includeWebPublic = p.bool('include_web_public') ?? false;
  const includeSubscribed = p.bool('include_subscribed') ?? true;
  const excludeArchived = p.bool('exclude_archived') ?? true;
  // Every level the emulator serves is past FL 356: include_all_active is include_all.
  const includeAll = (p.bool('include_all') ?? false) || (p.bool('include_all_active') ?? false);
  const includeDefault = p.bool('include_default') ?? false;
  const includeOwnerSubscribed = (p.bool('include_owner_subscribed') ?? false) && user.isBot;
  const includeContent = p.bool('include_can_access_content') ?? false;
  const owner =
    includeOwnerSubscribed && user.botOwnerId !== null && user.botOwnerId !== undefined
      ? user.botOwnerId
      : undefined;
  const out = org.channels.filter((ch) => {
    if (excludeArchived && ch.isArchived) return false;
    if (includeAll) return hasMetadataAccess(org, user, ch);
    if (includeContent && hasContentAccess(org, user, ch)) return true;
    if (owner !== undefined && isSubscribed(org, owner, ch.id)) return true;
    if (includeContent) return false;
    if (includeSubscribed && isSubscribed(org, user.id, ch.id)) return true;
    if (includePublic && !ch.inviteOnly) return true;
    if (
      includeWebPublic &&
      ch.isWebPublic &&
      !ch.inviteOnly &&
      ch.historyPublicToSubscribers &&
      !ch.isArchived
    )
      return true;
    return false;
  });
  return {
    streams: out
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id))
      .map((ch) =>
        channelToApi(
          org,
          fl,
          ch,
          includeDefault ? { isDefault: org.defaultChannelIds.includes(ch.id) } : {},
        ),
      ),
  };
}

function inZulipOrder<T>(
  list: Array<[PermissionSettingInfo, T]>,
): Array<[PermissionSettingInfo, T]> {
  const rank = (i: PermissionSettingInfo): number =>
    (CHANNEL_SETTINGS_ZULIP_ORDER as readonly string[]).indexOf(i.wire);
  return [...list].sort((a, b) => rank(a[0]) - rank(b[0]));
}

const DELETE_MESSAGE_SETTINGS = ['can_delete_any_message_group', 'can_delete_own_message_group'];

/** `UserProfile.can_set_topics_policy`: administrators, or `can_set_topics_policy_group`. */
function canSetTopicsPolicy(ctx: RequestContext): boolean {
  return isAdmin(ctx.user) || holdsRealmSetting(ctx.org, ctx.user, 'can_set_topics_policy_group');
}

/**
 * `UserProfile.can_set_delete_message_policy`: administrators, or
 * `can_set_delete_message_policy_group` (Zulip's default: moderators).
 */
function canSetDeleteMessagePolicy(ctx: RequestContext): boolean {
  if (isAdmin(ctx.user)) return true;
  const v =
    ctx.org.realm.settings.can_set_delete_message_policy_group ??
    systemGroupId(ctx.org, 'role:moderators');
  return holdsSetting(ctx.org, ctx.user, v);
}

/**
 * `validate_topics_policy` (zerver/lib/streams.py): a policy other than `inherit` needs the
 * permission; `empty_topic_only` on an existing channel needs every message in the empty topic.
 */
function validateTopicsPolicy(
  ctx: RequestContext,
  policy: TopicsPolicy,
  ch: StoredChannel | undefined,
): void {
  if (policy !== 'inherit' && !canSetTopicsPolicy(ctx)) throw insufficientPermission();
  if (
    ch !== undefined &&
    policy === 'empty_topic_only' &&
    messages(ctx.org).some((m) => m.channelId === ch.id && m.topic !== '')
  )
    // CannotSetTopicsPolicyError
    throw badRequest(
      'To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.',
      { empty_topic_display_name: 'general chat' },
    );
}

/**
 * `check_stream_name_available`: the name's rules, then no channel of the realm (archived ones
 * included) with that name, case-insensitively. Since `POST /channels/create` (FL 417) that is
 * `ChannelExistsError` (409 `CHANNEL_ALREADY_EXISTS`); before, NOTES 2.2 records a plain error.
 */
function checkNameAvailable(ctx: RequestContext, name: string): void {
  const problem = checkChannelName(name);
  if (problem) throw badRequest(problem);
  if (!channelByName(ctx, name)) return;
  if (!supports(ctx.featureLevel, 'channelsCreate'))
    throw badRequest('Channel name is already in use.');
  throw new ApiError(`Channel '${name}' already exists`, {
    status: 409,
    code: 'CHANNEL_ALREADY_EXISTS',
    data: { channel_name: name },
  });
}

/**
 * `access_stream_for_delete_or_update_requiring_metadata_access` (zerver/lib/streams.py), for
 * PATCH and DELETE /streams/{id}: archived channels included; administrators, then members of
 * `can_administer_channel_group` (never guests: the setting does not allow role:everyone); a
 * user who can read the channel learns they may not administer it; anyone else gets
 * "Invalid channel ID".
 */
function accessChannelForUpdate(ctx: RequestContext, id: number): StoredChannel {
  const { org, user } = ctx;
  const ch = org.channels.find((c) => c.id === id);
  if (!ch) throw badRequest('Invalid channel ID');
  if (isAdmin(user)) return ch;
  if (!isGuest(user) && holdsSetting(org, user, ch.settings.can_administer_channel_group))
    return ch;
  if (hasContentAccess(org, user, ch))
    throw badRequest('You do not have permission to administer this channel.');
  throw badRequest('Invalid channel ID');
}

/**
 * `access_stream_by_id(..., require_content_access=False)` for GET /streams/{id}: an active
 * channel the user can read, or whose metadata they may see (administrators, members of the
 * metadata-granting settings, never guests through them).
 */
function accessActiveChannelMetadata(ctx: RequestContext, id: number): StoredChannel {
  const { org, user } = ctx;
  const ch = org.channels.find((c) => c.id === id);
  if (!ch || ch.isArchived) throw badRequest('Invalid channel ID');
  if (hasContentAccess(org, user, ch) || isAdmin(user)) return ch;
  if (
    !isGuest(user) &&
    [
      ch.settings.can_administer_channel_group,
      ch.settings.can_add_subscribers_group,
      ch.settings.can_subscribe_group,
    ].some((v) => holdsSetting(org, user, v))
  )
    return ch;
  throw badRequest('Invalid channel ID');
}

/** Whether a channel has active subscriptions, deactivated users' included. */
function hasSubscriptionRows(ctx: RequestContext, ch: StoredChannel): boolean {
  return ctx.org.subscriptions.some((s) => s.channelId === ch.id && s.active);
}

/** `do_unarchive_stream` under its own name (PATCH /streams/{id} `is_archived=false`). */
function unarchive(ctx: RequestContext, ch: StoredChannel): void {
  if (!ch.isArchived) throw badRequest('Channel is not currently deactivated');
  if (ch.inviteOnly && !hasSubscriptionRows(ctx, ch))
    throw badRequest('Channel is private and have no subscribers');
  ch.isArchived = false;
  // Older archiving left some private channels web-public; unarchiving repairs that.
  if (ch.inviteOnly && ch.isWebPublic) ch.isWebPublic = false;
  streamUpdate(ctx, ch, 'is_archived', false);
  ctx.events.push({
    users: channelAudience(ctx, ch),
    event: {
      type: 'stream',
      op: 'create',
      streams: [channelToApi(ctx.org, ctx.featureLevel, ch)],
      for_unarchiving: true,
    },
  });
  sendChannelEventsNotice(ctx, ch, `Channel #**${ch.name}** has been unarchived.`);
}

/**
 * PATCH /streams/{id}, as zerver/views/streams.py `update_stream_backend` does it: parameters
 * checked first, then access, the privacy rules, and each change applied in the view's order.
 * The view is not one transaction: what was applied before an error stays applied (each group
 * setting is its own transaction), and so do its events and notices.
 */
function updateChannel(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const fl = ctx.featureLevel;
  const { org, user } = ctx;
  const streamId = pathInt(ctx, 'stream_id');
  // Parameter shapes are checked before the view runs (typed_endpoint), so a malformed
  // parameter fails the request before any field is applied or the channel is looked up.
  const description = p.string('description', { maxLength: LIMITS.channelDescription });
  const newName = p.string('new_name');
  const isPrivate = p.bool('is_private');
  const isWebPublic = p.bool('is_web_public');
  const history = p.bool('history_public_to_subscribers');
  const isDefault = p.bool('is_default_stream');
  const retentionRaw = p.json('message_retention_days');
  const isArchived = supports(fl, 'channelUnarchive') ? p.bool('is_archived') : undefined;
  let folder: number | null | undefined;
  if (supports(fl, 'channelFolders') && p.has('folder_id')) {
    const f = p.json('folder_id');
    if (f !== null && (typeof f !== 'number' || !Number.isInteger(f)))
      throw badRequest('folder_id is not an integer');
    folder = f;
  }
  // A plain str whose enum check is a validator of the parameter (parse_enum_from_string_value).
  const topicsRaw = supports(fl, 'topicsPolicy') ? p.string('topics_policy') : undefined;
  const topicsPolicy = topicsRaw === undefined ? undefined : parseTopicsPolicy(ctx, topicsRaw);
  // Json[GroupSettingChangeRequest]: unknown keys, a missing `new` and value shapes.
  const settingUpdates: Array<[PermissionSettingInfo, SettingChangeRequest]> = [];
  for (const info of channelSettingInfos(fl)) {
    const v = p.json(info.wire);
    if (v !== undefined) settingUpdates.push([info, settingUpdateShape(v, info.wire)]);
  }

  const ch = accessChannelForUpdate(ctx, streamId);

  // The proposed privacy: history follows is_private unless sent (private channels default to
  // protected history, public ones to public history).
  const proposedPrivate = isPrivate ?? ch.inviteOnly;
  const proposedWeb = isWebPublic ?? ch.isWebPublic;
  const proposedDefault = isDefault ?? org.defaultChannelIds.includes(ch.id);
  const proposedHistory =
    history ?? (isPrivate !== undefined ? !isPrivate : ch.historyPublicToSubscribers);
  const [privacyProblem] = channelPrivacyProblems({
    private: proposedPrivate,
    webPublic: proposedWeb,
    historyPublicToSubscribers: proposedHistory,
    defaultChannel: proposedDefault,
  });
  if (privacyProblem) throw badRequest(privacyProblem.message);
  if (!proposedPrivate && org.realm.moderationRequestChannelId === ch.id)
    throw badRequest('Moderation request channel must be private.');
  if (isPrivate !== undefined && !hasContentAccess(org, user, ch))
    throw badRequest('Channel content access is required.');
  if (isPrivate !== undefined) {
    const setting = isPrivate
      ? 'can_create_private_channel_group'
      : 'can_create_public_channel_group';
    if (!holdsRealmSetting(org, user, setting)) throw insufficientPermission();
  }
  // Checked whenever is_web_public=true is sent, even for a channel that already is.
  if (isWebPublic === true) {
    if (!(org.realm.webPublicStreamsEnabled && org.realm.enableSpectatorAccess))
      throw badRequest('Web-public channels are not enabled.');
    if (!holdsRealmSetting(org, user, 'can_create_web_public_channel_group'))
      throw insufficientPermission();
  }

  if (topicsPolicy !== undefined) {
    validateTopicsPolicy(ctx, topicsPolicy, ch);
    // do_set_stream_property: nothing happens when the value does not change.
    if (topicsPolicy !== ch.topicsPolicy) {
      const before = ch.topicsPolicy;
      ch.topicsPolicy = topicsPolicy;
      streamUpdate(ctx, ch, 'topics_policy', topicsPolicy);
      sendChannelEventsNotice(ctx, ch, topicsPolicyNotice(user, before, topicsPolicy));
    }
  }

  const topicGroupSent = settingUpdates.some(([i]) => i.wire === 'can_create_topic_group');
  // FL 441: protected history needs can_create_topic_group = role:everyone. Without a new
  // value in the request, the channel's current value is checked (on every request that
  // leaves the history protected); a new value is checked in the settings loop below.
  if (supports(fl, 'canCreateTopicGroup') && !proposedHistory && !topicGroupSent)
    checkTopicGroupForHistory(ctx, false, ch.settings.can_create_topic_group);

  if (isPrivate !== undefined || isWebPublic !== undefined || history !== undefined) {
    // do_change_stream_permission: applied and announced even when nothing changes.
    const oldPolicy = permissionPolicyName(ch);
    ch.inviteOnly = proposedPrivate;
    ch.isWebPublic = proposedWeb;
    ch.historyPublicToSubscribers = proposedHistory;
    streamUpdate(ctx, ch, 'invite_only', proposedPrivate, {
      history_public_to_subscribers: proposedHistory,
      is_web_public: proposedWeb,
    });
    sendChannelEventsNotice(
      ctx,
      ch,
      accessPermissionsNotice(user, oldPolicy, permissionPolicyName(ch)),
    );
  }
  if (isDefault !== undefined) {
    // CannotManageDefaultChannelError
    if (!isAdmin(user)) throw badRequest('You do not have permission to change default channels.');
    const has = org.defaultChannelIds.includes(ch.id);
    if (isDefault && !has) org.defaultChannelIds.push(ch.id);
    if (!isDefault && has) org.defaultChannelIds = org.defaultChannelIds.filter((x) => x !== ch.id);
    if (isDefault !== has) defaultStreamsEvent(ctx);
  }
  if (retentionRaw !== undefined) {
    const before = ch.messageRetentionDays;
    ch.messageRetentionDays = retentionFor(ctx, retentionRaw);
    streamUpdate(ctx, ch, 'message_retention_days', ch.messageRetentionDays);
    sendChannelEventsNotice(ctx, ch, retentionNotice(ctx, user, before, ch.messageRetentionDays));
  }
  // Only `false` does anything; `true` is accepted and ignored.
  if (isArchived === false) unarchive(ctx, ch);
  if (
    settingUpdates.some(([i]) => DELETE_MESSAGE_SETTINGS.includes(i.wire)) &&
    !canSetDeleteMessagePolicy(ctx)
  )
    throw insufficientPermission();
  if (description !== undefined) {
    // do_change_stream_description: newlines become spaces; announced even when unchanged.
    const before = ch.description;
    ch.description = storedChannelDescription(description);
    streamUpdate(ctx, ch, 'description', ch.description, {
      rendered_description: renderMarkdown(ch.description),
    });
    sendChannelEventsNotice(ctx, ch, descriptionNotice(user, before, ch.description));
  }
  if (newName !== undefined) {
    const name = newName.trim();
    if (name === ch.name) throw badRequest('Channel already has that name.');
    // A case-only rename skips the availability (and name) checks.
    if (name.toLowerCase() !== ch.name.toLowerCase()) checkNameAvailable(ctx, name);
    const before = ch.name;
    ch.name = name;
    ctx.events.push({
      users: channelAudience(ctx, ch),
      event: {
        type: 'stream',
        op: 'update',
        stream_id: ch.id,
        name: before,
        property: 'name',
        value: name,
      },
    });
    sendChannelEventsNotice(ctx, ch, renameNotice(user, before, name));
  }
  if (folder !== undefined) {
    ch.folderId = folder === null ? null : checkFolder(ctx, folder);
    streamUpdate(ctx, ch, 'folder_id', ch.folderId);
  }
  // Each setting as update_stream_backend does it, one transaction each: `old` compared with
  // what GET shows, and only a real change checks content access, the protected-history rule,
  // then the new value's groups and users. An error leaves the earlier settings applied.
  for (const [info, req] of inZulipOrder(settingUpdates)) {
    const current = ch.settings[info.wire] as StoredGroupSetting;
    const currentApi = settingToApi(org, current) ?? current;
    const next = canonicalSetting(org, req.new);
    if (req.old !== undefined && !settingsEqual(canonicalSetting(org, req.old), currentApi))
      throw expectationMismatch();
    if (settingsEqual(next, currentApi)) continue;
    if (info.needsContentAccess && !hasContentAccess(org, user, ch))
      throw badRequest('Channel content access is required.');
    if (info.wire === 'can_create_topic_group' && !proposedHistory)
      checkTopicGroupForHistory(ctx, false, next);
    checkSettingExists(org, req.new);
    checkAllowed(org, info, next);
    ch.settings[info.wire] = next;
    const nextApi = settingToApi(org, next) ?? next;
    streamUpdate(ctx, ch, info.wire, nextApi);
    if (info.wire === 'can_send_message_group')
      sendChannelEventsNotice(ctx, ch, postingPermissionNotice(ctx, user, currentApi, nextApi));
  }
  return {};
}

/** DELETE /streams/{id}: `deactivate_stream_backend` and `do_deactivate_stream`. */
function archiveChannel(ctx: RequestContext): Record<string, unknown> {
  const ch = accessChannelForUpdate(ctx, pathInt(ctx, 'stream_id'));
  if (ch.isArchived) throw badRequest('Channel is already deactivated');
  const audience = channelAudience(ctx, ch);
  ch.isArchived = true;
  // maybe_set_moderation_or_announcement_channels_none
  if (ctx.org.realm.moderationRequestChannelId === ch.id)
    ctx.org.realm.moderationRequestChannelId = null;
  const wasDefault = ctx.org.defaultChannelIds.includes(ch.id);
  ctx.org.defaultChannelIds = ctx.org.defaultChannelIds.filter((x) => x !== ch.id);
  if (wasDefault) defaultStreamsEvent(ctx);
  // Clients with the archived_channels capability learn the channel is archived; the others
  // that it is gone (send_stream_deletion_event with for_archiving).
  if (supports(ctx.featureLevel, 'channelIsArchived'))
    ctx.events.push({
      users: audience,
      capability: 'archived_channels',
      event: {
        type: 'stream',
        op: 'update',
        stream_id: ch.id,
        name: ch.name,
        property: 'is_archived',
        value: true,
      },
    });
  ctx.events.push({
    users: audience,
    ...(supports(ctx.featureLevel, 'channelIsArchived')
      ? { withoutCapability: 'archived_channels' }
      : {}),
    event: {
      type: 'stream',
      op: 'delete',
      streams: [{ stream_id: ch.id }],
      stream_ids: [ch.id],
    },
  });
  // Posted into the archived channel, read for everyone.
  sendChannelEventsNotice(ctx, ch, `Channel #**${ch.name}** has been archived.`, {
    allRead: true,
  });
  return {};
}

/**
 * Settings `create_channel` (FL 442) parses and checks but does not pass on to
 * `create_stream_if_needed`: the new channel gets their defaults. Zulip's behaviour after FL
 * 442 is not known; the emulator keeps ignoring them.
 */
const CREATE_CHANNEL_IGNORED = [
  'can_create_topic_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
];

/**
 * POST /channels/create (FL 417), as zerver/views/streams.py `create_channel`: guests refused
 * first, then the parameters, the name, the folder, retention, topics policy, the creation
 * permissions and the group settings, in that order; the whole view is one transaction.
 * `send_new_subscription_messages` is not one of its parameters.
 */
function createChannelRoute(ctx: RequestContext): Record<string, unknown> {
  requireNonGuest(ctx);
  const p = ctx.params;
  const fl = ctx.featureLevel;
  const { org } = ctx;
  p.bool('announce');
  const shapes: Array<[PermissionSettingInfo, StoredGroupSetting]> = [];
  for (const info of channelSettingInfos(fl)) {
    const v = p.json(info.wire);
    if (v !== undefined) shapes.push([info, groupSettingShape(v, info.wire)]);
  }
  const description = p.string('description', { maxLength: LIMITS.channelDescription }) ?? '';
  let folderId: number | null = null;
  if (supports(fl, 'channelFolders')) {
    const f = p.json('folder_id');
    if (f !== undefined && f !== null) {
      if (typeof f !== 'number' || !Number.isInteger(f))
        throw badRequest('folder_id is not an integer');
      folderId = f;
    }
  }
  const history = p.bool('history_public_to_subscribers');
  const inviteOnly = p.bool('invite_only') ?? false;
  const isWebPublic = p.bool('is_web_public') ?? false;
  const isDefault = p.bool('is_default_stream') ?? false;
  const retentionRaw = p.json('message_retention_days') ?? 'realm_default';
  // StringConstraints(strip_whitespace=True, min_length=1)
  const name = p.requiredString('name').trim();
  if (name === '') throw badRequest('name is too short.');
  const subscribers = p.intList('subscribers');
  if (subscribers === undefined) throw missingArgument('subscribers');
  const topicsPolicy = supports(fl, 'topicsPolicy') ? creationTopicsPolicy(ctx, p) : undefined;

  checkNameAvailable(ctx, name);
  if (folderId !== null) checkFolder(ctx, folderId);
  const retention = parseRetention(retentionRaw);
  if (topicsPolicy !== undefined) validateTopicsPolicy(ctx, topicsPolicy, undefined);
  // check_channel_creation_permissions
  checkCanCreate(ctx, { inviteOnly });
  if (isDefault && !isAdmin(ctx.user)) throw insufficientPermission();
  if (inviteOnly && isDefault) throw badRequest('A default channel cannot be private.');
  if (isWebPublic) {
    if (!(org.realm.webPublicStreamsEnabled && org.realm.enableSpectatorAccess))
      throw badRequest('Web-public channels are not enabled.');
    if (!holdsRealmSetting(org, ctx.user, 'can_create_web_public_channel_group'))
      throw insufficientPermission();
  }
  if (retention !== null) checkRetentionAllowed(ctx);
  // access_requested_group_permissions_for_streams
  const settings: Record<string, StoredGroupSetting> = {};
  for (const [info, shape] of inZulipOrder(shapes)) {
    const value = canonicalSetting(org, shape);
    if (info.wire === 'can_create_topic_group')
      checkTopicGroupForHistory(ctx, inviteOnly ? (history ?? false) : true, value);
    checkSettingExists(org, shape);
    checkAllowed(org, info, value);
    if (
      DELETE_MESSAGE_SETTINGS.includes(info.wire) &&
      value !== systemGroupId(org, 'role:nobody') &&
      !canSetDeleteMessagePolicy(ctx)
    )
      throw insufficientPermission();
    if (!CREATE_CHANNEL_IGNORED.includes(info.wire)) settings[info.wire] = value;
  }
  if (subscribers.length > 0) {
    // bulk_access_users_by_id
    const users = subscribers.map((id) => org.users.find((x) => x.id === id));
    if (users.some((u) => u === undefined)) throw badRequest('No such user');
    if (users.some((u) => u !== undefined && !u.isActive)) throw badRequest('User is deactivated');
  }
  const ch = createChannel(ctx, name, description, {
    inviteOnly,
    isWebPublic,
    historyPublicToSubscribers: history,
    isDefault,
    retention,
    topicsPolicy: topicsPolicy ?? 'inherit',
    folderId,
    settings,
  });
  // Without subscribers the view returns before any notification.
  if (subscribers.length > 0) {
    subscribeUsers(ctx, ch, subscribers);
    sendChannelCreatedNotice(ctx, ch);
  }
  return { id: ch.id };
}

function defaultChannelId(ctx: RequestContext): number {
  const id = ctx.params.int('stream_id');
  if (id === undefined) throw missingArgument('stream_id');
  return id;
}

/** Channel routes. */
export const channelRoutes: Route[] = [
  { method: 'GET', path: '/streams', handler: listChannels },
  {
    method: 'GET',
    path: '/streams/{stream_id}',
    // get_stream_backend: access_stream_by_id(require_content_access=False).
    handler: (ctx) => ({
      stream: channelToApi(
        ctx.org,
        ctx.featureLevel,
        accessActiveChannelMetadata(ctx, pathInt(ctx, 'stream_id')),
      ),
    }),
  },
  {
    method: 'GET',
    path: '/streams/{stream_id}/members',
    // get_subscribers_backend: metadata access to an active channel.
    handler: (ctx) => {
      const ch = accessStreamById(ctx, pathInt(ctx, 'stream_id'), { requireContentAccess: false });
      return { subscribers: subscriberIds(ctx.org, ch.id) };
    },
  },
  { method: 'PATCH', path: '/streams/{stream_id}', handler: updateChannel },
  { method: 'DELETE', path: '/streams/{stream_id}', handler: archiveChannel },
  {
    method: 'GET',
    path: '/get_stream_id',
    handler: (ctx) => {
      // json_get_stream_id: access_stream_by_name (an active channel with content access).
      const name = ctx.params.requiredString('stream');
      const ch = channelByName(ctx, name);
      if (!ch || ch.isArchived || !hasContentAccess(ctx.org, ctx.user, ch))
        throw badRequest(`Invalid channel name '${name}'`);
      return { stream_id: ch.id };
    },
  },
  {
    method: 'POST',
    path: '/channels/create',
    handler: createChannelRoute,
    minLevel: FEATURES.channelsCreate.level,
  },
  {
    method: 'POST',
    path: '/default_streams',
    handler: (ctx) => {
      // add_default_stream: content access to an active channel (no bypass for administrators).
      requireAdmin(ctx);
      const ch = accessStreamById(ctx, defaultChannelId(ctx));
      if (ch.inviteOnly) throw badRequest('Private channels cannot be made default.');
      if (!ctx.org.defaultChannelIds.includes(ch.id)) {
        ctx.org.defaultChannelIds.push(ch.id);
        defaultStreamsEvent(ctx);
      }
      return {};
    },
  },
  {
    method: 'DELETE',
    path: '/default_streams',
    handler: (ctx) => {
      // remove_default_stream: metadata access to an active channel.
      requireAdmin(ctx);
      const ch = accessStreamById(ctx, defaultChannelId(ctx), { requireContentAccess: false });
      if (ctx.org.defaultChannelIds.includes(ch.id)) {
        ctx.org.defaultChannelIds = ctx.org.defaultChannelIds.filter((x) => x !== ch.id);
        defaultStreamsEvent(ctx);
      }
      return {};
    },
  },
];
