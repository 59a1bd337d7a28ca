/**
 * Who holds a group-setting permission, user by user, as the embedded server's Zulip-following
 * checks say: the oracle of the differential test of the plan's effective permissions
 * (effective-permissions-differential.test.ts). Each permission is the check Zulip runs for
 * the ability it gives, built from the emulator's own functions (src/emulator/permissions.ts)
 * and named after the Zulip function it follows (FL 442).
 *
 * What a check needs besides the setting and the roles is left out, as the plan leaves it out
 * (README, "Who gains and who loses"): access to the channel (being subscribed to a private
 * channel, or its being public), and a bot acting for its owner.
 */
import {
  canAdministerChannel,
  holdsRealmSetting,
  holdsSetting,
  isAdmin,
  isGuest,
} from '../../src/emulator/permissions';
import type { OrgState, StoredChannel, StoredGroup, StoredUser } from '../../src/emulator/state';
import {
  CHANNEL_PERMISSIONS,
  GROUP_PERMISSIONS,
  ORGANIZATION_PERMISSIONS,
} from '../../src/model/permissions';
import type {
  ChannelPermissionName,
  GroupPermissionName,
  OrganizationPermissionName,
} from '../../src/model/permissions';

/**
 * Whether to count what Zulip lets through on every channel and group whatever its settings:
 * organization administrators, and the organization-level settings (the plan counts them only
 * on the permissions it lists; see the test).
 */
export interface OracleOptions {
  readonly implied: boolean;
}

/** zerver/lib/user_groups.py `user_has_permission_for_group_setting` on a channel's setting. */
function channelSetting(org: OrgState, u: StoredUser, ch: StoredChannel, wire: string): boolean {
  const info = Object.values(CHANNEL_PERMISSIONS).find((i) => i.wire === wire);
  if (info && !info.allowEveryone && isGuest(u)) return false;
  return holdsSetting(org, u, ch.settings[wire]);
}

/** The same on a group's setting. */
function groupSetting(org: OrgState, u: StoredUser, g: StoredGroup, wire: string): boolean {
  const info = Object.values(GROUP_PERMISSIONS).find((i) => i.wire === wire);
  if (info && !info.allowEveryone && isGuest(u)) return false;
  return holdsSetting(org, u, g.settings[wire]);
}

/** A check: `realm` is the organization-level setting's, `admin` whether u is an administrator. */
type Check<O> = (
  org: OrgState,
  u: StoredUser,
  o: O,
  realm: (wire: string) => boolean,
  admin: boolean,
) => boolean;

/** Channel abilities by the plan's permission name. */
const CHANNEL: Record<ChannelPermissionName, Check<StoredChannel>> = {
  // zerver/lib/streams.py get_streams_to_which_user_cannot_add_subscribers
  canAddSubscribersGroup: (org, u, ch, realm, admin) =>
    realm('can_add_subscribers_group') ||
    admin ||
    (!isGuest(u) &&
      (holdsSetting(org, u, ch.settings.can_administer_channel_group) ||
        holdsSetting(org, u, ch.settings.can_add_subscribers_group))),
  // check_stream_access_for_delete_or_update_requiring_metadata_access
  canAdministerChannelGroup: (org, u, ch, _realm, admin) =>
    admin
      ? canAdministerChannel(org, u, ch)
      : channelSetting(org, u, ch, 'can_administer_channel_group'),
  // check_user_can_create_new_topics
  canCreateTopicGroup: (org, u, ch) => channelSetting(org, u, ch, 'can_create_topic_group'),
  // zerver/views/message_edit.py validate_can_delete_message: can_delete_any_message, then
  // can_delete_any_message_in_channel
  canDeleteAnyMessageGroup: (org, u, ch, realm) =>
    realm('can_delete_any_message_group') ||
    channelSetting(org, u, ch, 'can_delete_any_message_group'),
  // validate_can_delete_message for one's own message: any message first, then own
  canDeleteOwnMessageGroup: (org, u, ch, realm) =>
    realm('can_delete_any_message_group') ||
    channelSetting(org, u, ch, 'can_delete_any_message_group') ||
    realm('can_delete_own_message_group') ||
    channelSetting(org, u, ch, 'can_delete_own_message_group'),
  // zerver/lib/streams.py can_move_messages_out_of_channel
  canMoveMessagesOutOfChannelGroup: (org, u, ch, realm, admin) =>
    admin ||
    realm('can_move_messages_between_channels_group') ||
    channelSetting(org, u, ch, 'can_administer_channel_group') ||
    channelSetting(org, u, ch, 'can_move_messages_out_of_channel_group'),
  // can_edit_topic: can_move_messages_to_another_topic, then can_move_messages_within_channel
  canMoveMessagesWithinChannelGroup: (org, u, ch, realm, admin) =>
    realm('can_move_messages_between_topics_group') ||
    admin ||
    channelSetting(org, u, ch, 'can_administer_channel_group') ||
    channelSetting(org, u, ch, 'can_move_messages_within_channel_group'),
  // bulk_can_remove_subscribers_from_streams (its metadata-access step left out, see above)
  canRemoveSubscribersGroup: (org, u, ch, _realm, admin) =>
    admin ||
    (!isGuest(u) &&
      (holdsSetting(org, u, ch.settings.can_administer_channel_group) ||
        holdsSetting(org, u, ch.settings.can_remove_subscribers_group))),
  // can_resolve_topics: can_resolve_topic, then can_resolve_topics_in_stream
  canResolveTopicsGroup: (org, u, ch, realm) =>
    realm('can_resolve_topics_group') || channelSetting(org, u, ch, 'can_resolve_topics_group'),
  // check_stream_access_based_on_can_send_message_group
  canSendMessageGroup: (org, u, ch) => channelSetting(org, u, ch, 'can_send_message_group'),
  // user_has_content_access: is_user_in_groups_granting_content_access, after the guest check
  canSubscribeGroup: (org, u, ch) =>
    !isGuest(u) &&
    (holdsSetting(org, u, ch.settings.can_subscribe_group) ||
      holdsSetting(org, u, ch.settings.can_add_subscribers_group)),
};

/**
 * zerver/lib/user_groups.py `access_user_group_for_update`: the organization's
 * can_manage_all_groups, then the group's can_manage_group, then the permission asked.
 */
function accessGroupForUpdate(
  org: OrgState,
  u: StoredUser,
  g: StoredGroup,
  wire: string,
  realm: (wire: string) => boolean,
): boolean {
  if (g.isSystemGroup) return false;
  if (realm('can_manage_all_groups')) return true;
  if (groupSetting(org, u, g, 'can_manage_group')) return true;
  return wire !== 'can_manage_group' && groupSetting(org, u, g, wire);
}

/** Group abilities (zerver/views/user_groups.py). */
const GROUP: Record<GroupPermissionName, Check<StoredGroup>> = {
  canAddMembersGroup: (org, u, g, realm) =>
    accessGroupForUpdate(org, u, g, 'can_add_members_group', realm),
  // add_members_to_group_backend: joining oneself by can_join_group, else can_add_members_group
  canJoinGroup: (org, u, g, realm) =>
    accessGroupForUpdate(org, u, g, 'can_join_group', realm) ||
    accessGroupForUpdate(org, u, g, 'can_add_members_group', realm),
  // remove_members_from_group_backend: leaving by can_leave_group, else can_remove_members_group
  canLeaveGroup: (org, u, g, realm) =>
    accessGroupForUpdate(org, u, g, 'can_leave_group', realm) ||
    accessGroupForUpdate(org, u, g, 'can_remove_members_group', realm),
  canManageGroup: (org, u, g, realm) => accessGroupForUpdate(org, u, g, 'can_manage_group', realm),
  // zerver/lib/mention.py sender_can_mention_group
  canMentionGroup: (org, u, g) => groupSetting(org, u, g, 'can_mention_group'),
  canRemoveMembersGroup: (org, u, g, realm) =>
    accessGroupForUpdate(org, u, g, 'can_remove_members_group', realm),
};

/** Organization abilities: `UserProfile.has_permission` and what Zulip adds to it. */
const ORGANIZATION: Partial<Record<OrganizationPermissionName, Check<null>>> = {
  // zerver/lib/users.py check_can_create_bot: whoever may create bots may create these too
  canCreateWriteOnlyBotsGroup: (_org, _u, _o, realm) =>
    realm('can_create_bots_group') || realm('can_create_write_only_bots_group'),
  // validate_can_delete_message: whoever may delete any message may delete their own
  canDeleteOwnMessageGroup: (_org, _u, _o, realm) =>
    realm('can_delete_any_message_group') || realm('can_delete_own_message_group'),
  // zerver/models/users.py can_set_delete_message_policy, can_set_topics_policy
  canSetDeleteMessagePolicyGroup: (_org, _u, _o, realm, admin) =>
    admin || realm('can_set_delete_message_policy_group'),
  canSetTopicsPolicyGroup: (_org, _u, _o, realm, admin) =>
    admin || realm('can_set_topics_policy_group'),
};

/** The object of a permission: a channel, a named group, or the organization (null). */
export type PermissionObject =
  | { readonly kind: 'channel'; readonly o: StoredChannel }
  | { readonly kind: 'userGroup'; readonly o: StoredGroup }
  | { readonly kind: 'organizationSettings' };

/**
 * The active users who hold the permission `name` of `object` in `org`, by ID. `implied: false`
 * leaves out what administrators and organization-level settings get on channels and groups.
 */
export function holders(
  org: OrgState,
  object: PermissionObject,
  name: string,
  options: OracleOptions,
): Set<number> {
  const out = new Set<number>();
  for (const u of org.users) {
    if (!u.isActive) continue;
    const realm = (wire: string): boolean => options.implied && holdsRealmSetting(org, u, wire);
    const admin = options.implied && isAdmin(u);
    let holds: boolean;
    if (object.kind === 'channel')
      holds = CHANNEL[name as ChannelPermissionName](org, u, object.o, realm, admin);
    else if (object.kind === 'userGroup')
      holds = GROUP[name as GroupPermissionName](org, u, object.o, realm, admin);
    else {
      // The organization's own settings: always with what Zulip adds to them.
      const own = (wire: string): boolean => holdsRealmSetting(org, u, wire);
      const check = ORGANIZATION[name as OrganizationPermissionName];
      const wire = ORGANIZATION_PERMISSIONS[name as OrganizationPermissionName].wire;
      holds = check ? check(org, u, null, own, isAdmin(u)) : own(wire);
    }
    if (holds) out.add(u.id);
  }
  return out;
}
