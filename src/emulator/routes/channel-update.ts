/** Updating and archiving a channel: `update_stream_backend` and `deactivate_stream_backend`. */
import { maybeSetChannelSettingsNone } from '../realm-settings';
import { supports } from '../../model/features';
import type { PermissionSettingInfo } from '../../model/permissions';
import { LIMITS } from '../../model/kinds';
import { channelPrivacyProblems, storedChannelDescription } from '../../model/rules';
import { badRequest, expectationMismatch, insufficientPermission } from '../errors';
import {
  canonicalSetting,
  channelSettingInfos,
  checkAllowed,
  checkSettingExists,
  settingUpdateShape,
  settingsEqual,
} from '../group-settings';
import type { SettingChangeRequest } from '../group-settings';
import {
  hasContentAccess,
  holdsRealmSetting,
  holdsSetting,
  isAdmin,
  isGuest,
} from '../permissions';
import { NOT_JSON, parseJson } from '../json-parse';
import type { RequestContext } from '../router';
import type { StoredChannel, StoredGroupSetting } from '../state';
import {
  channelAudience,
  listeningLevel,
  listeningUsers,
  sendStreamDeletionEvent,
} from '../events';
import {
  grantsMetadataAccess,
  privateChannelAccessBefore,
  sendMadePublicEvents,
  sendSettingChangeEvents,
} from '../group-channel-access';
import type { ChannelAccessBefore } from '../group-channel-access';
import {
  channelToApi,
  POST_POLICY_ADMINS,
  renderMarkdown,
  settingToApi,
  streamPostPolicy,
} from '../views';
import {
  accessPermissionsNotice,
  descriptionNotice,
  permissionPolicyName,
  postingPermissionNotice,
  renameNotice,
  retentionNotice,
  sendChannelEventsNotice,
  topicsPolicyNotice,
} from '../channel-notices';
import { pathInt } from './common';
import { removeChannelFromGroups } from './default-stream-groups';
import {
  canSetDeleteMessagePolicy,
  checkFolder,
  checkNameAvailable,
  checkRetentionAllowed,
  checkTopicGroupForHistory,
  defaultStreamsEvent,
  DELETE_MESSAGE_SETTINGS,
  inParameterOrder,
  inZulipOrder,
  parseRetention,
  parseTopicsPolicy,
  retentionParam,
  validateTopicsPolicy,
} from './channel-rules';

/** PATCH /streams: checks retention permission and plan, then parses it (update_stream_backend). */
function retentionFor(ctx: RequestContext, raw: unknown): number | null {
  checkRetentionAllowed(ctx);
  return parseRetention(raw);
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
    event: streamUpdateEvent(ch, property, value, extra),
  });
}

/** A `stream` `update` event of one property. */
function streamUpdateEvent(
  ch: StoredChannel,
  property: string,
  value: unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'stream',
    op: 'update',
    stream_id: ch.id,
    name: ch.name,
    property,
    value,
    ...extra,
  };
}

/**
 * zerver/actions/streams.py `do_change_stream_group_based_setting` for
 * `can_send_message_group`: when the legacy `stream_post_policy` it implies changes
 * (`get_stream_post_policy_value_based_on_group_setting`), a `stream` `update` of
 * `stream_post_policy`, then one of `is_announcement_only`, to the channel's audience.
 */
function postPolicyEvents(
  ctx: RequestContext,
  ch: StoredChannel,
  before: StoredGroupSetting,
  users: number[],
): void {
  const old = streamPostPolicy(ctx.org, before);
  const policy = streamPostPolicy(ctx.org, ch.settings.can_send_message_group);
  if (old === policy) return;
  ctx.events.push({ users, event: streamUpdateEvent(ch, 'stream_post_policy', policy) });
  const announcementOnly = policy === POST_POLICY_ADMINS;
  ctx.events.push({
    users,
    event: streamUpdateEvent(ch, 'is_announcement_only', announcementOnly),
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

/** Who of the users with a queue sees a private channel before a change of it. */
function accessBefore(ctx: RequestContext, ch: StoredChannel): ChannelAccessBefore | undefined {
  return privateChannelAccessBefore(ctx.org, listeningLevel(ctx), ch, listeningUsers(ctx));
}

/** Whether a channel has active subscriptions, deactivated users' included. */
function hasSubscriptionRows(ctx: RequestContext, ch: StoredChannel): boolean {
  return ctx.org.subscriptions.some((s) => s.channelId === ch.id && s.active);
}

/**
 * `do_unarchive_stream` under its own name (PATCH /streams/{id} `is_archived=false`): `stream`
 * `update` of `is_archived` to the queues with the `archived_channels` capability, `stream`
 * `create` to the others (Tornado routes Zulip's `for_unarchiving` flag so and does not deliver
 * it: test_events.py test_unarchiving_stream).
 */
function unarchive(ctx: RequestContext, ch: StoredChannel): void {
  if (!ch.isArchived) throw badRequest('Channel is not currently deactivated');
  if (ch.inviteOnly && !hasSubscriptionRows(ctx, ch))
    throw badRequest('Channel is private and have no subscribers');
  ch.isArchived = false;
  // Older archiving left some private channels web-public; unarchiving repairs that.
  if (ch.inviteOnly && ch.isWebPublic) ch.isWebPublic = false;
  const audience = channelAudience(ctx, ch);
  ctx.events.push({
    users: audience,
    capability: 'archived_channels',
    event: streamUpdateEvent(ch, 'is_archived', false),
  });
  ctx.events.push({
    users: audience,
    withoutCapability: 'archived_channels',
    event: { type: 'stream', op: 'create', streams: [channelToApi(ctx.org, ctx.featureLevel, ch)] },
  });
  sendChannelEventsNotice(ctx, ch, `Channel #**${ch.name}** has been unarchived.`);
}

/**
 * PATCH /streams/{id}, as zerver/views/streams.py `update_stream_backend` does it: parameters
 * checked first, then access, the privacy rules, and each change applied in the view's order.
 * The view is not one transaction: what was applied before an error stays applied (each group
 * setting is its own transaction), and so do its events and notices.
 */
export function updateChannel(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const fl = ctx.featureLevel;
  const { org, user } = ctx;
  const streamId = pathInt(ctx, 'stream_id');
  // Parameter shapes are checked before the view runs (typed_endpoint), in the order of
  // update_stream_backend's signature, so the first malformed parameter fails the request
  // before any field is applied or the channel is looked up.
  // Json[GroupSettingChangeRequest]: a missing `new` and value shapes.
  const settingUpdates: Array<[PermissionSettingInfo, SettingChangeRequest]> = [];
  for (const info of inParameterOrder(channelSettingInfos(fl), 'update_stream_backend')) {
    const v = p.json(info.wire);
    if (v !== undefined) settingUpdates.push([info, settingUpdateShape(v, info.wire)]);
  }
  const description = p.string('description', { maxLength: LIMITS.channelDescription });
  // `Json[int | None] | MissingType`: null takes the channel out of its folder. The union's
  // other member, pydantic_partials' sentinel, takes only the sentinel (`is_instance_schema`),
  // so a malformed value fails both and the first member, `json[nullable[int]]`, is reported.
  let folder: number | null | undefined;
  const folderRaw = supports(fl, 'channelFolders') ? p.raw_('folder_id') : undefined;
  if (folderRaw !== undefined) {
    const at = 'folder_id["json[nullable[int]]"]';
    const f = parseJson(folderRaw);
    if (f === NOT_JSON) throw badRequest(`${at} is not valid JSON`);
    if (f !== null && (typeof f !== 'number' || !Number.isInteger(f)))
      throw badRequest(`${at} is not an integer`);
    folder = f;
  }
  const history = p.bool('history_public_to_subscribers');
  const isArchived = supports(fl, 'channelUnarchive') ? p.bool('is_archived') : undefined;
  const isDefault = p.bool('is_default_stream');
  const isPrivate = p.bool('is_private');
  const isWebPublic = p.bool('is_web_public');
  const retentionRaw = retentionParam(p);
  const newName = p.string('new_name');
  // A plain str whose enum check is a validator of the parameter (parse_enum_from_string_value).
  const topicsRaw = supports(fl, 'topicsPolicy') ? p.string('topics_policy') : undefined;
  const topicsPolicy = topicsRaw === undefined ? undefined : parseTopicsPolicy(ctx, topicsRaw);

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
    // do_change_stream_permission: applied and announced even when nothing changes. Made
    // public, the channel's new audience gets `stream` `create` and `peer_add` first, and the
    // update goes to the others; made private, those who lose it get nothing.
    const oldPolicy = permissionPolicyName(ch);
    const madePublic = ch.inviteOnly && !proposedPrivate ? accessBefore(ctx, ch) : undefined;
    ch.inviteOnly = proposedPrivate;
    ch.isWebPublic = proposedWeb;
    ch.historyPublicToSubscribers = proposedHistory;
    const created = sendMadePublicEvents(org, ctx.events, madePublic);
    ctx.events.push({
      users: channelAudience(ctx, ch).filter((id) => !created.has(id)),
      event: streamUpdateEvent(ch, 'invite_only', proposedPrivate, {
        history_public_to_subscribers: proposedHistory,
        is_web_public: proposedWeb,
      }),
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
    // The event names the channel by its old name.
    streamUpdate(ctx, ch, 'name', name, { name: before });
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
    // do_change_stream_group_based_setting: who sees a private channel, read before a
    // metadata-granting setting changes, for the events of who gains or loses it.
    const access = grantsMetadataAccess(info.wire) ? accessBefore(ctx, ch) : undefined;
    ch.settings[info.wire] = next;
    const nextApi = settingToApi(org, next) ?? next;
    const update = {
      users: channelAudience(ctx, ch),
      event: streamUpdateEvent(ch, info.wire, nextApi),
    };
    sendSettingChangeEvents(org, ctx.events, update, access);
    if (info.wire === 'can_send_message_group') {
      postPolicyEvents(ctx, ch, current, update.users);
      sendChannelEventsNotice(ctx, ch, postingPermissionNotice(ctx, user, currentApi, nextApi));
    }
  }
  return {};
}

/** DELETE /streams/{id}: `deactivate_stream_backend` and `do_deactivate_stream`. */
export function archiveChannel(ctx: RequestContext): Record<string, unknown> {
  const ch = accessChannelForUpdate(ctx, pathInt(ctx, 'stream_id'));
  if (ch.isArchived) throw badRequest('Channel is already deactivated');
  const audience = channelAudience(ctx, ch);
  ch.isArchived = true;
  maybeSetChannelSettingsNone(ctx, ch.id);
  const wasDefault = ctx.org.defaultChannelIds.includes(ch.id);
  ctx.org.defaultChannelIds = ctx.org.defaultChannelIds.filter((x) => x !== ch.id);
  if (wasDefault) defaultStreamsEvent(ctx);
  removeChannelFromGroups(ctx, ch.id);
  // From FL 378, clients with the archived_channels capability learn the channel is archived;
  // the others that it is gone (send_stream_deletion_event with for_archiving). Before, every
  // client got the delete.
  const updates = supports(ctx.featureLevel, 'archivingUpdateEvents');
  if (updates)
    ctx.events.push({
      users: audience,
      capability: 'archived_channels',
      event: streamUpdateEvent(ch, 'is_archived', true),
    });
  sendStreamDeletionEvent(
    ctx.events,
    audience,
    [ch],
    updates ? { withoutCapability: 'archived_channels' } : {},
  );
  // Posted into the archived channel, read for everyone.
  sendChannelEventsNotice(ctx, ch, `Channel #**${ch.name}** has been archived.`, {
    allRead: true,
  });
  return {};
}
