/**
 * Checks that creating and updating a channel share (zerver/views/streams.py validates the
 * same parameters in `create_channel` and `update_stream_backend`).
 */
import { supports } from '../../model/features';
import type { TopicsPolicy } from '../../model/kinds';
import { CHANNEL_SETTINGS_ZULIP_ORDER } from '../../model/permissions';
import type { PermissionSettingInfo } from '../../model/permissions';
import { TOPICS_POLICIES } from '../../model/kinds';
import { checkChannelName } from '../../model/rules';
import {
  ApiError,
  badRequest,
  incompatibleParameters,
  insufficientPermission,
  ownerRequired,
} from '../errors';
import { holdsRealmSetting, holdsSetting, isAdmin, isGuest, isOwner } from '../permissions';
import { NOT_JSON, parseJson } from '../json-parse';
import type { Params } from '../params';
import type { RequestContext } from '../router';
import { systemGroupId } from '../state';
import type { StoredChannel, StoredGroupSetting } from '../state';
import { channelByName } from './common';
import { messages } from './messages';

/**
 * Parses `message_retention_days` (`parse_message_retention_days`): null = realm default,
 * -1 = unlimited. `v` is the decoded JSON string or integer ({@link retentionParam}).
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
export function checkRetentionAllowed(ctx: RequestContext): void {
  if (!isOwner(ctx.user)) throw ownerRequired();
  if (!ctx.org.realm.planAllowsRetention)
    throw badRequest('Available on Zulip Cloud Standard. Upgrade to access.');
}

export function parseTopicsPolicy(ctx: RequestContext, raw: string): TopicsPolicy {
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
export function checkTopicGroupForHistory(
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
export function checkFolder(ctx: RequestContext, id: number): number {
  if (!ctx.org.folders.some((x) => x.id === id)) throw badRequest('Invalid channel folder ID');
  return id;
}

/** The `default_streams` event: the whole list of IDs, to active users who are not guests. */
export function defaultStreamsEvent(ctx: RequestContext): void {
  // An ID list since FL 330 (channel objects before); zerver/actions/default_streams.py
  // notify_default_streams sends it to `active_non_guest_user_ids`.
  const list = [...ctx.org.defaultChannelIds];
  const users = ctx.org.users.filter((u) => u.isActive && !isGuest(u)).map((u) => u.id);
  ctx.events.push({ users, event: { type: 'default_streams', default_streams: list } });
}

export function inZulipOrder<T>(
  list: Array<[PermissionSettingInfo, T]>,
): Array<[PermissionSettingInfo, T]> {
  const rank = (i: PermissionSettingInfo): number =>
    (CHANNEL_SETTINGS_ZULIP_ORDER as readonly string[]).indexOf(i.wire);
  return [...list].sort((a, b) => rank(a[0]) - rank(b[0]));
}

/** The settings every channel view declares last, in the same order. */
const LATER_SETTINGS = [
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_resolve_topics_group',
  'can_send_message_group',
  'can_subscribe_group',
] as const;

/**
 * The channel settings in the order a view's signature declares them: typed_endpoint
 * (zerver/lib/typed_endpoint.py) parses a view's parameters in that order and reports the
 * first malformed one. Each list is the view's own (zerver/views/streams.py); they differ in
 * where can_administer_channel_group and can_create_topic_group come.
 */
export const SETTING_PARAMETER_ORDER = {
  update_stream_backend: [
    'can_add_subscribers_group',
    'can_create_topic_group',
    'can_administer_channel_group',
    'can_delete_any_message_group',
    'can_delete_own_message_group',
    ...LATER_SETTINGS,
  ],
  create_channel: [
    'can_add_subscribers_group',
    'can_create_topic_group',
    'can_delete_any_message_group',
    'can_delete_own_message_group',
    'can_administer_channel_group',
    ...LATER_SETTINGS,
  ],
  add_subscriptions_backend: [
    'can_add_subscribers_group',
    'can_delete_any_message_group',
    'can_delete_own_message_group',
    'can_administer_channel_group',
    'can_create_topic_group',
    ...LATER_SETTINGS,
  ],
} as const;

/** Settings sorted as a view's signature declares them ({@link SETTING_PARAMETER_ORDER}). */
export function inParameterOrder(
  infos: readonly PermissionSettingInfo[],
  view: keyof typeof SETTING_PARAMETER_ORDER,
): PermissionSettingInfo[] {
  const order: readonly string[] = SETTING_PARAMETER_ORDER[view];
  return [...infos].sort((a, b) => order.indexOf(a.wire) - order.indexOf(b.wire));
}

/**
 * `message_retention_days` as typed_endpoint parses `Json[str] | Json[int]` (strict): a JSON
 * string or integer; anything else fails both members, and the first error, the `json[str]`
 * member's, is reported. The value itself is checked later (`parseRetention`).
 */
export function retentionParam(p: Params): unknown {
  const raw = p.raw_('message_retention_days');
  if (raw === undefined) return undefined;
  const v = parseJson(raw);
  if (v === NOT_JSON) throw badRequest('message_retention_days["json[str]"] is not valid JSON');
  if (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v))) return v;
  throw badRequest('message_retention_days["json[str]"] is not a string');
}

export const DELETE_MESSAGE_SETTINGS = [
  'can_delete_any_message_group',
  'can_delete_own_message_group',
];

/** `UserProfile.can_set_topics_policy`: administrators, or `can_set_topics_policy_group`. */
export function canSetTopicsPolicy(ctx: RequestContext): boolean {
  return isAdmin(ctx.user) || holdsRealmSetting(ctx.org, ctx.user, 'can_set_topics_policy_group');
}

/**
 * `UserProfile.can_set_delete_message_policy`: administrators, or
 * `can_set_delete_message_policy_group` (Zulip's default: moderators).
 */
export function canSetDeleteMessagePolicy(ctx: RequestContext): boolean {
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
export function validateTopicsPolicy(
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
export function checkNameAvailable(ctx: RequestContext, name: string): void {
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
