/**
 * Creating channels and subscribing users to them: `POST /channels/create`
 * (`create_channel`), and what `add_subscriptions_backend` uses to make a new channel.
 */
import { supports } from '../../model/features';
import type { TopicsPolicy } from '../../model/kinds';
import type { PermissionSettingInfo } from '../../model/permissions';
import { LIMITS } from '../../model/kinds';
import {
  checkChannelDescription,
  checkChannelName,
  storedChannelDescription,
} from '../../model/rules';
import { missingArgument, badRequest, insufficientPermission } from '../errors';
import {
  canonicalSetting,
  channelSettingInfos,
  checkAllowed,
  checkSettingExists,
  defaultSettingValue,
  groupSettingShape,
} from '../group-settings';
import { hasMetadataAccess, holdsRealmSetting, isAdmin } from '../permissions';
import type { Params } from '../params';
import type { RequestContext } from '../router';
import { newSubscription, nextId, systemGroupId } from '../state';
import type { StoredChannel, StoredGroupSetting } from '../state';
import { pickColors } from '../colors';
import { channelPeerAudience } from '../events';
import { addSubscription, subscriptionOf, userById } from '../indexes';
import { channelToApi, subscriptionToApi } from '../views';
import { sendSubscribedAndNewChannelNotifications } from '../subscription-notices';
import { beforeChange } from '../transaction';
import { requireNonGuest } from './common';
import {
  parseRetention,
  checkRetentionAllowed,
  parseTopicsPolicy,
  checkTopicGroupForHistory,
  checkFolder,
  defaultStreamsEvent,
  inParameterOrder,
  inZulipOrder,
  retentionParam,
  DELETE_MESSAGE_SETTINGS,
  canSetDeleteMessagePolicy,
  validateTopicsPolicy,
  checkNameAvailable,
} from './channel-rules';

/**
 * `folder_id` of a channel being created (FL 389+), null when absent. The parameter is
 * `Json[int] | None` (create_channel, add_subscriptions_backend): the `None` is its default,
 * not a value the JSON may take, so a JSON `null` is "folder_id is not an integer" too (unlike
 * update_stream_backend's `Json[int | None]`).
 */
export function folderIdParam(ctx: RequestContext): number | null {
  if (!supports(ctx.featureLevel, 'channelFolders')) return null;
  const f = ctx.params.json('folder_id');
  if (f === undefined) return null;
  if (typeof f !== 'number' || !Number.isInteger(f))
    throw badRequest('folder_id is not an integer');
  return f;
}

/**
 * `topics_policy` on creation: `Json[...]` in add_subscriptions_backend and create_channel
 * (unlike PATCH /streams, where it is a plain str), so `"inherit"` arrives JSON-quoted.
 */
export function creationTopicsPolicy(ctx: RequestContext, p: Params): TopicsPolicy | undefined {
  const v = p.json('topics_policy');
  if (v === undefined) return undefined;
  // parse_enum_from_string_value runs on None too: KeyError, "Invalid topics_policy".
  if (v === null) throw badRequest('Invalid topics_policy');
  if (typeof v !== 'string') throw badRequest('topics_policy is not a string');
  return parseTopicsPolicy(ctx, v);
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

/**
 * Reads and checks the creation parameters of a subscription request that creates a channel
 * (before any channel is made); their shapes were checked while parsing
 * (subscriptions.ts `addSubscriptionsFromRequest`), and so were the folder, the retention value
 * and the topics policy. list_to_streams' order: the group settings
 * (`access_requested_group_permissions_for_streams`), then
 * `check_channel_creation_permissions`. Like Zulip, nothing refuses a channel both private and
 * web-public here (only `update_stream_backend` answers "Invalid parameters").
 */
export function readCreationParams(ctx: RequestContext, p: Params): ChannelCreation {
  const fl = ctx.featureLevel;
  const inviteOnly = p.bool('invite_only') ?? false;
  const isWebPublic = p.bool('is_web_public') ?? false;
  const history = p.bool('history_public_to_subscribers');
  const isDefault = p.bool('is_default_stream') ?? false;
  const retentionRaw = retentionParam(p);
  const topicsPolicy = supports(fl, 'topicsPolicy') ? creationTopicsPolicy(ctx, p) : undefined;
  const shapes: Array<[PermissionSettingInfo, StoredGroupSetting]> = [];
  for (const info of channelSettingInfos(fl)) {
    const v = p.json(info.wire);
    if (v !== undefined) shapes.push([info, groupSettingShape(v, info.wire)]);
  }
  const settings = accessRequestedGroupPermissions(ctx, shapes, inviteOnly, history);
  const retention = retentionRaw === undefined ? null : parseRetention(retentionRaw);
  checkChannelCreationPermissions(ctx, { inviteOnly, isDefault, isWebPublic, retention });
  return {
    inviteOnly,
    isWebPublic,
    historyPublicToSubscribers: history,
    isDefault,
    retention,
    topicsPolicy: topicsPolicy ?? 'inherit',
    folderId: folderIdParam(ctx),
    settings,
  };
}

/**
 * zerver/lib/streams.py `access_requested_group_permissions_for_streams`: each setting given,
 * in Zulip's order: the protected-history rule of `can_create_topic_group`, the groups exist
 * and are allowed for the setting, and the delete settings (but nobody) need
 * `can_set_delete_message_policy`.
 */
function accessRequestedGroupPermissions(
  ctx: RequestContext,
  shapes: Array<[PermissionSettingInfo, StoredGroupSetting]>,
  inviteOnly: boolean,
  history: boolean | undefined,
): Record<string, StoredGroupSetting> {
  const { org } = ctx;
  const settings: Record<string, StoredGroupSetting> = {};
  for (const [info, shape] of inZulipOrder(shapes)) {
    const value = canonicalSetting(org, shape);
    // validate_can_create_topic_group_setting_for_protected_history_streams: a given
    // history_public_to_subscribers as sent (false refuses even for a public channel, whose
    // history create_stream_if_needed makes public later); else the default of invite_only.
    if (info.wire === 'can_create_topic_group')
      checkTopicGroupForHistory(ctx, history ?? !inviteOnly, value);
    checkSettingExists(org, shape);
    checkAllowed(org, info, value);
    if (
      DELETE_MESSAGE_SETTINGS.includes(info.wire) &&
      value !== systemGroupId(org, 'role:nobody') &&
      !canSetDeleteMessagePolicy(ctx)
    )
      throw insufficientPermission();
    settings[info.wire] = value;
  }
  return settings;
}

/** zerver/lib/streams.py `check_channel_creation_permissions`, in its order. */
function checkChannelCreationPermissions(
  ctx: RequestContext,
  c: { inviteOnly: boolean; isDefault: boolean; isWebPublic: boolean; retention: number | null },
): void {
  const { org } = ctx;
  checkCanCreate(ctx, c);
  if (c.isDefault && !isAdmin(ctx.user)) throw insufficientPermission();
  if (c.inviteOnly && c.isDefault) throw badRequest('A default channel cannot be private.');
  if (c.isWebPublic) {
    if (!(org.realm.webPublicStreamsEnabled && org.realm.enableSpectatorAccess))
      throw badRequest('Web-public channels are not enabled.');
    if (!holdsRealmSetting(org, ctx.user, 'can_create_web_public_channel_group'))
      throw insufficientPermission();
  }
  if (c.retention !== null) checkRetentionAllowed(ctx);
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
  // create_stream_if_needed: a web-public channel to every active user, guests included.
  ctx.events.push({
    users: channelPeerAudience(ctx, ch),
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
    if (existing) beforeChange(ctx, existing).active = true;
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
      users: channelPeerAudience(ctx, ch).filter((u) => !added.includes(u)),
      event: { type: 'subscription', op: 'peer_add', stream_ids: [ch.id], user_ids: added },
    });
  }
  return added;
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
export function createChannelRoute(ctx: RequestContext): Record<string, unknown> {
  requireNonGuest(ctx);
  const p = ctx.params;
  const fl = ctx.featureLevel;
  const { org } = ctx;
  // Parameters in the order of create_channel's signature (typed_endpoint).
  const announce = p.bool('announce') ?? false;
  const shapes: Array<[PermissionSettingInfo, StoredGroupSetting]> = [];
  for (const info of inParameterOrder(channelSettingInfos(fl), 'create_channel')) {
    const v = p.json(info.wire);
    if (v !== undefined) shapes.push([info, groupSettingShape(v, info.wire)]);
  }
  const description = p.string('description', { maxLength: LIMITS.channelDescription }) ?? '';
  const folderId = folderIdParam(ctx);
  const history = p.bool('history_public_to_subscribers');
  const inviteOnly = p.bool('invite_only') ?? false;
  const isWebPublic = p.bool('is_web_public') ?? false;
  const isDefault = p.bool('is_default_stream') ?? false;
  const retentionRaw = retentionParam(p) ?? 'realm_default';
  // StringConstraints(strip_whitespace=True, min_length=1): pydantic's `string_too_short`
  // with min_length 1, which parse_value_for_parameter words "name cannot be blank".
  const name = p.requiredString('name', { strip: true, nonBlank: true });
  const subscribers = p.intList('subscribers');
  if (subscribers === undefined) throw missingArgument('subscribers');
  const topicsPolicy = supports(fl, 'topicsPolicy') ? creationTopicsPolicy(ctx, p) : undefined;

  checkNameAvailable(ctx, name);
  if (folderId !== null) checkFolder(ctx, folderId);
  const retention = parseRetention(retentionRaw);
  if (topicsPolicy !== undefined) validateTopicsPolicy(ctx, topicsPolicy, undefined);
  checkChannelCreationPermissions(ctx, { inviteOnly, isDefault, isWebPublic, retention });
  const settings = accessRequestedGroupPermissions(ctx, shapes, inviteOnly, history);
  for (const wire of CREATE_CHANNEL_IGNORED) delete settings[wire];
  if (subscribers.length > 0) {
    // bulk_access_users_by_id
    const users = subscribers.map((id) => userById(org, id));
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
    // No direct messages about a channel the request created: only the announcement and the
    // "channel created" notice.
    sendSubscribedAndNewChannelNotifications(ctx, {
      newSubscriptions: [],
      created: [ch],
      announce,
      dms: false,
    });
  }
  return { id: ch.id };
}
