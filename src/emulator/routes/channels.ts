import { supports } from '../../model/features';
import { TOPICS_POLICIES } from '../../model/kinds';
import type { TopicsPolicy } from '../../model/kinds';
import { CHANNEL_PERMISSIONS } from '../../model/permissions';
import type { PermissionSettingInfo } from '../../model/permissions';
import { checkChannelName, codePointLength } from '../../model/rules';
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
  parseGroupSettingValue,
  settingUpdateShape,
  settingsEqual,
} from '../group-settings';
import type { SettingChangeRequest } from '../group-settings';
import {
  canAdministerChannel,
  hasContentAccess,
  hasMetadataAccess,
  holdsRealmSetting,
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
  accessChannelById,
  accessStreamById,
  channelByName,
  pathInt,
  requireAdmin,
} from './common';

const MAX_DESCRIPTION = 1024;

/**
 * Parses `message_retention_days` (`parse_message_retention_days`): null = realm default,
 * -1 = unlimited. The parameter is `Json[str] | Json[int]` upstream, so `v` is the decoded JSON
 * (`Params.json` has already refused text that is not JSON: "... is not valid JSON").
 */
export function parseRetention(v: unknown): number | null {
  if (v === 'realm_default') return null;
  if (v === 'unlimited') return -1;
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  throw badRequest(`Bad value for 'message_retention_days': ${String(v)}`);
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

/** Folder for a channel: an active folder of the realm, else "Invalid channel folder ID". */
function checkFolder(ctx: RequestContext, id: number): number {
  const f = ctx.org.folders.find((x) => x.id === id);
  if (!f || f.isArchived) throw badRequest('Invalid channel folder ID');
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
  if (isWebPublic && inviteOnly) throw badRequest('Invalid parameters');
  // check_channel_creation_permissions: a plain "Insufficient permission" for non-administrators.
  if (isDefault && !isAdmin(ctx.user)) throw insufficientPermission();
  if (isDefault && inviteOnly) throw badRequest('A default channel cannot be private.');
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
export function checkCanCreate(ctx: RequestContext, c: ChannelCreation): void {
  const setting = c.inviteOnly
    ? 'can_create_private_channel_group'
    : 'can_create_public_channel_group';
  if (!holdsRealmSetting(ctx.org, ctx.user, setting)) throw insufficientPermission();
}

/** Validates a new channel's name and description (`check_stream_name`). */
export function checkNewChannel(ctx: RequestContext, name: string, description: string): void {
  const problem = checkChannelName(name);
  if (problem) throw badRequest(problem);
  if (codePointLength(description) > MAX_DESCRIPTION)
    throw badRequest(`description is too long (limit: ${MAX_DESCRIPTION} characters)`);
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
    description: description.replace(/\r?\n/g, ' '),
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

function listChannels(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const fl = ctx.featureLevel;
  const includePublic = p.bool('include_public') ?? true;
  const includeWebPublic = p.bool('include_web_public') ?? false;
  const includeSubscribed = p.bool('include_subscribed') ?? true;
  const excludeArchived = p.bool('exclude_archived') ?? true;
  const includeAllActive = p.bool('include_all_active') ?? false;
  const includeAll = fl >= 356 ? (p.bool('include_all') ?? false) : false;
  const includeDefault = p.bool('include_default') ?? false;
  p.declare('include_owner_subscribed');
  if (fl >= 356) p.declare('include_can_access_content');
  if (includeAllActive && !isAdmin(ctx.user))
    throw badRequest('User not authorized for this query');
  const { org, user } = ctx;
  const out = org.channels.filter((ch) => {
    if (excludeArchived && ch.isArchived) return false;
    if (includeAll || includeAllActive) return hasMetadataAccess(org, user, ch);
    if (includeSubscribed && isSubscribed(org, user.id, ch.id)) return true;
    if (includeWebPublic && ch.isWebPublic) return true;
    if (includePublic && !ch.inviteOnly && !isGuest(user)) return true;
    return false;
  });
  return {
    streams: out
      .sort((a, b) => a.id - b.id)
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

function updateChannel(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const fl = ctx.featureLevel;
  const { org, user } = ctx;
  const streamId = pathInt(ctx, 'stream_id');
  // Parameter shapes are checked before the view runs (typed_endpoint), so a malformed
  // parameter fails the request before any field is applied or the channel is looked up.
  const description = p.string('description');
  const newName = p.string('new_name');
  const isPrivate = p.bool('is_private');
  const isWebPublic = p.bool('is_web_public');
  let history = p.bool('history_public_to_subscribers');
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
  if (description !== undefined && codePointLength(description) > MAX_DESCRIPTION)
    throw badRequest(`description is too long (limit: ${MAX_DESCRIPTION} characters)`);

  const ch = accessChannelById(ctx, streamId);
  // The can_create_topic_group this request would leave (FL 441), for the protected-history rule.
  const topicGroupUpdate = settingUpdates.find(([i]) => i.wire === 'can_create_topic_group');
  const proposedTopicGroup = (): StoredGroupSetting | undefined => {
    if (topicGroupUpdate) return canonicalSetting(org, topicGroupUpdate[1].new);
    const cur = ch.settings.can_create_topic_group;
    return cur === undefined ? undefined : (settingToApi(org, cur) ?? cur);
  };

  if (!canAdministerChannel(org, user, ch))
    throw badRequest('You do not have permission to administer this channel.');

  // 1-6: privacy checks, then apply privacy.
  if (isPrivate !== undefined || isWebPublic !== undefined || history !== undefined) {
    const nextPrivate = isPrivate ?? ch.inviteOnly;
    const nextWeb = isWebPublic ?? ch.isWebPublic;
    if (history === undefined && isPrivate !== undefined) history = !nextPrivate;
    const nextHistory = history ?? ch.historyPublicToSubscribers;
    if (nextWeb && (nextPrivate || !nextHistory)) throw badRequest('Invalid parameters');
    if (!nextPrivate && !nextHistory) throw badRequest('Invalid parameters');
    const defaultAfter = isDefault ?? org.defaultChannelIds.includes(ch.id);
    if (nextPrivate && defaultAfter) throw badRequest('A default channel cannot be private.');
    if (isPrivate === false && org.realm.moderationRequestChannelId === ch.id)
      throw badRequest('Moderation request channel must be private.');
    if (isPrivate !== undefined) {
      if (ch.inviteOnly && !hasContentAccess(org, user, ch))
        throw badRequest('Channel content access is required.');
      const setting = isPrivate
        ? 'can_create_private_channel_group'
        : 'can_create_public_channel_group';
      if (!holdsRealmSetting(org, user, setting)) throw insufficientPermission();
    }
    if (isWebPublic === true && !ch.isWebPublic) {
      if (!(org.realm.webPublicStreamsEnabled && org.realm.enableSpectatorAccess))
        throw badRequest('Web-public channels are not enabled.');
      if (!holdsRealmSetting(org, user, 'can_create_web_public_channel_group'))
        throw insufficientPermission();
    }
    // Where upstream runs this check relative to the others is inferred (the FL >= 441 view was
    // not available); its tests only show that neither field is applied when it fails.
    checkTopicGroupForHistory(ctx, nextHistory, proposedTopicGroup());
    ch.inviteOnly = nextPrivate;
    ch.isWebPublic = nextWeb;
    ch.historyPublicToSubscribers = nextHistory;
    streamUpdate(ctx, ch, 'invite_only', nextPrivate, {
      history_public_to_subscribers: nextHistory,
      is_web_public: nextWeb,
    });
  } else if (topicGroupUpdate) {
    checkTopicGroupForHistory(ctx, ch.historyPublicToSubscribers, proposedTopicGroup());
  }
  if (isDefault !== undefined) {
    if (!isAdmin(user)) throw badRequest('You do not have permission to change default channels.');
    if (isDefault && ch.inviteOnly) throw badRequest('A default channel cannot be private.');
    const has = org.defaultChannelIds.includes(ch.id);
    if (isDefault && !has) org.defaultChannelIds.push(ch.id);
    if (!isDefault && has) org.defaultChannelIds = org.defaultChannelIds.filter((x) => x !== ch.id);
    if (isDefault !== has) defaultStreamsEvent(ctx);
  }
  if (retentionRaw !== undefined) {
    ch.messageRetentionDays = retentionFor(ctx, retentionRaw);
    streamUpdate(ctx, ch, 'message_retention_days', ch.messageRetentionDays);
  }
  if (isArchived === false && ch.isArchived) {
    ch.isArchived = false;
    streamUpdate(ctx, ch, 'is_archived', false);
  }
  if (topicsPolicy !== undefined) {
    if (!holdsRealmSetting(org, user, 'can_set_topics_policy_group'))
      throw insufficientPermission();
    ch.topicsPolicy = topicsPolicy;
    streamUpdate(ctx, ch, 'topics_policy', topicsPolicy);
  }
  if (description !== undefined) {
    ch.description = description.replace(/\r?\n/g, ' ');
    streamUpdate(ctx, ch, 'description', ch.description, {
      rendered_description: renderMarkdown(ch.description),
    });
  }
  if (newName !== undefined) {
    const name = newName.trim();
    if (name === ch.name) throw badRequest('Channel already has that name.');
    const problem = checkChannelName(name);
    if (problem) throw badRequest(problem);
    const other = channelByName(ctx, name);
    if (other && other.id !== ch.id) throw badRequest('Channel name is already in use.');
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
  }
  if (folder !== undefined) {
    ch.folderId = folder === null ? null : checkFolder(ctx, folder);
    streamUpdate(ctx, ch, 'folder_id', ch.folderId);
  }
  // Each setting as update_stream_backend does it: `old` compared with what GET shows, and only
  // a real change checks content access, then the new value's groups and users.
  for (const [info, req] of settingUpdates) {
    const current = ch.settings[info.wire] as StoredGroupSetting;
    const currentApi = settingToApi(org, current) ?? current;
    const next = canonicalSetting(org, req.new);
    if (req.old !== undefined && !settingsEqual(canonicalSetting(org, req.old), currentApi))
      throw expectationMismatch();
    if (settingsEqual(next, currentApi)) continue;
    if (info.needsContentAccess && ch.inviteOnly && !hasContentAccess(org, user, ch))
      throw badRequest('Channel content access is required.');
    checkSettingExists(org, req.new);
    checkAllowed(org, info, next);
    ch.settings[info.wire] = next;
    streamUpdate(ctx, ch, info.wire, settingToApi(org, next));
  }
  return {};
}

function archiveChannel(ctx: RequestContext): Record<string, unknown> {
  const ch = accessChannelById(ctx, pathInt(ctx, 'stream_id'));
  if (!canAdministerChannel(ctx.org, ctx.user, ch))
    throw badRequest('You do not have permission to administer this channel.');
  if (ch.isArchived) throw badRequest('Channel is already deactivated');
  const audience = channelAudience(ctx, ch);
  ch.isArchived = true;
  const wasDefault = ctx.org.defaultChannelIds.includes(ch.id);
  ctx.org.defaultChannelIds = ctx.org.defaultChannelIds.filter((x) => x !== ch.id);
  ctx.events.push({
    users: audience,
    event: {
      type: 'stream',
      op: 'delete',
      streams: [{ stream_id: ch.id }],
      stream_ids: [ch.id],
    },
  });
  if (wasDefault) defaultStreamsEvent(ctx);
  return {};
}

function createChannelRoute(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const name = p.requiredString('name');
  const description = p.string('description') ?? '';
  const raw = p.requiredJson('subscribers');
  if (!Array.isArray(raw)) throw badRequest('subscribers is not a list');
  const subscribers = (raw as unknown[]).map((x, i) => {
    if (typeof x !== 'number' || !Number.isInteger(x))
      throw badRequest(`subscribers[${i}] is not an integer`);
    return x;
  });
  const creation = readCreationParams(ctx, p);
  checkNewChannel(ctx, name, description);
  if (channelByName(ctx, name))
    throw new ApiError(`Channel '${name.trim()}' already exists`, {
      code: 'CHANNEL_ALREADY_EXISTS',
    });
  checkCanCreate(ctx, creation);
  for (const id of subscribers) {
    const u = ctx.org.users.find((x) => x.id === id);
    if (!u) throw badRequest('No such user');
    if (!u.isActive) throw badRequest('User is deactivated');
  }
  const ch = createChannel(ctx, name, description, creation);
  subscribeUsers(ctx, ch, subscribers);
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
    handler: (ctx) => ({
      stream: channelToApi(
        ctx.org,
        ctx.featureLevel,
        accessChannelById(ctx, pathInt(ctx, 'stream_id')),
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
      const name = ctx.params.requiredString('stream');
      const ch = channelByName(ctx, name);
      if (!ch || !hasMetadataAccess(ctx.org, ctx.user, ch))
        throw badRequest(`Invalid channel name '${name}'`);
      return { stream_id: ch.id };
    },
  },
  { method: 'POST', path: '/channels/create', handler: createChannelRoute, minLevel: 417 },
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
