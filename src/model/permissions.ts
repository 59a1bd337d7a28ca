import type { FeatureName } from './features';
import type { SystemGroupName } from './kinds';

/**
 * One group-valued permission setting: its wire name, the feature it needs, Zulip's default
 * and which system groups Zulip refuses for it (NOTES 3.4).
 */
export interface PermissionSettingInfo {
  /** The Zulip parameter name, e.g. `can_send_message_group`. */
  readonly wire: string;
  /** The feature that introduced it, if newer than Zulip 10.2's baseline. */
  readonly feature?: FeatureName;
  /**
   * Zulip's default: a system group name, or `creator` for the anonymous group holding the
   * object's creator.
   */
  readonly default: SystemGroupName | 'creator';
  /** Whether `role:everyone` is allowed. `role:internet` never is, `role:nobody` always is. */
  readonly allowEveryone: boolean;
  /**
   * Zulip's check refuses guests although the setting allows `role:everyone` (see
   * {@link refusesGuests}).
   */
  readonly guestsRefused?: true;
  /** Whether changing it on a private channel needs content access. */
  readonly needsContentAccess?: boolean;
  /** False when `role:nobody` is refused (`allow_nobody_group`); allowed when absent. */
  readonly allowNobody?: boolean;
  /** Only a system group is accepted, never a user group or a set (`require_system_group`). */
  readonly requireSystemGroup?: boolean;
  /** The only system groups accepted, when Zulip restricts them (`allowed_system_groups`). */
  readonly allowedSystemGroups?: readonly SystemGroupName[];
  /** Changing it needs an organization owner (zerver/views/realm.py `update_realm`). */
  readonly ownerOnly?: boolean;
  /** What holding it lets someone do, for reviewers: `post`, `administer the channel`. */
  readonly ability?: string;
  /**
   * Its holders get an administrator-level ability: widening it to more people is a privileged
   * change (it needs `--allow-privileged`), and so is adding members or subgroups to a group that
   * holds it. Gathered by wire name in {@link ADMINISTRATOR_LEVEL_SETTINGS}.
   */
  readonly administratorLevel?: true;
  /**
   * Who Zulip lets through besides the setting's own group (the effective holders of a
   * permission are the group's recursive members, these, and never guests unless
   * `allowEveryone`). Read by the plan's effective permissions (src/engine/effective-permissions.ts).
   */
  readonly alsoHeldBy?: readonly ImpliedHolder[];
}

/**
 * Someone Zulip lets through for a permission besides its group:
 * - `realmAdmins`: organization administrators and owners (`is_realm_admin`);
 * - `setting`: the members of another setting of the same object, by its name in the same
 *   table (its group, not who that setting lets through in turn), e.g. channel administrators
 *   may unsubscribe anyone;
 * - `realm`: the holders of an organization-level setting, by wire name, e.g.
 *   `can_manage_all_groups` (counted when the plan knows the organization's settings).
 */
export type ImpliedHolder =
  | { readonly kind: 'realmAdmins' }
  | { readonly kind: 'setting'; readonly name: string }
  | { readonly kind: 'realm'; readonly wire: string };

const ADMINS: ImpliedHolder = { kind: 'realmAdmins' };
const CHANNEL_ADMINS: ImpliedHolder = { kind: 'setting', name: 'canAdministerChannelGroup' };
const realm = (wire: string): ImpliedHolder => ({ kind: 'realm', wire });
const setting = (name: string): ImpliedHolder => ({ kind: 'setting', name });

/**
 * Channel group settings by wire name in Zulip's own order (`Stream.stream_permission_group_settings`,
 * zerver/models/streams.py): `update_stream_backend` checks and writes the settings of one
 * `PATCH /streams/{id}` in this order, one transaction each (not alphabetical:
 * `can_resolve_topics_group` comes last).
 */
export const CHANNEL_SETTINGS_ZULIP_ORDER = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_create_topic_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_send_message_group',
  'can_subscribe_group',
  'can_resolve_topics_group',
] as const satisfies readonly ChannelGroupSettingName[];

export const CHANNEL_PERMISSIONS = {
  canAddSubscribersGroup: {
    wire: 'can_add_subscribers_group',
    feature: 'canAddSubscribersGroup',
    default: 'role:nobody',
    allowEveryone: false,
    needsContentAccess: true,
    ability: 'add subscribers',
    // zerver/lib/streams.py get_streams_to_which_user_cannot_add_subscribers
    alsoHeldBy: [ADMINS, CHANNEL_ADMINS, realm('can_add_subscribers_group')],
  },
  canAdministerChannelGroup: {
    wire: 'can_administer_channel_group',
    feature: 'canAdministerChannelGroup',
    default: 'creator',
    allowEveryone: false,
    ability: 'administer the channel',
    // zerver/lib/streams.py check_stream_access_for_delete_or_update_requiring_metadata_access
    alsoHeldBy: [ADMINS],
    // Change every setting of the channel, its permissions included, and archive it
    // (zerver/lib/streams.py is_user_in_can_administer_channel_group).
    administratorLevel: true,
  },
  canCreateTopicGroup: {
    wire: 'can_create_topic_group',
    feature: 'canCreateTopicGroup',
    default: 'role:everyone',
    allowEveryone: true,
    ability: 'start new topics',
  },
  canDeleteAnyMessageGroup: {
    wire: 'can_delete_any_message_group',
    feature: 'canDeleteMessageGroups',
    default: 'role:nobody',
    allowEveryone: true,
    ability: 'delete any message',
    // zerver/views/message_edit.py validate_can_delete_message
    alsoHeldBy: [realm('can_delete_any_message_group')],
  },
  canDeleteOwnMessageGroup: {
    wire: 'can_delete_own_message_group',
    feature: 'canDeleteMessageGroups',
    default: 'role:nobody',
    allowEveryone: true,
    ability: 'delete their own messages',
    // zerver/views/message_edit.py validate_can_delete_message: who may delete any message
    alsoHeldBy: [
      setting('canDeleteAnyMessageGroup'),
      realm('can_delete_any_message_group'),
      realm('can_delete_own_message_group'),
    ],
  },
  canMoveMessagesOutOfChannelGroup: {
    wire: 'can_move_messages_out_of_channel_group',
    feature: 'canMoveMessagesGroups',
    default: 'role:nobody',
    allowEveryone: true,
    ability: 'move messages out of the channel',
    // zerver/lib/streams.py can_move_messages_out_of_channel
    alsoHeldBy: [ADMINS, CHANNEL_ADMINS, realm('can_move_messages_between_channels_group')],
  },
  canMoveMessagesWithinChannelGroup: {
    wire: 'can_move_messages_within_channel_group',
    feature: 'canMoveMessagesGroups',
    default: 'role:nobody',
    allowEveryone: true,
    ability: 'move messages between topics',
    // zerver/lib/streams.py can_move_messages_within_channel, can_edit_topic
    alsoHeldBy: [ADMINS, CHANNEL_ADMINS, realm('can_move_messages_between_topics_group')],
  },
  canRemoveSubscribersGroup: {
    wire: 'can_remove_subscribers_group',
    default: 'role:administrators',
    allowEveryone: true,
    ability: 'unsubscribe others',
    // zerver/lib/streams.py bulk_can_remove_subscribers_from_streams: never a guest ("All the
    // permissions in this function have allow_everyone_group=False"), though the setting
    // accepts role:everyone.
    guestsRefused: true,
    alsoHeldBy: [ADMINS, CHANNEL_ADMINS],
  },
  canResolveTopicsGroup: {
    wire: 'can_resolve_topics_group',
    feature: 'canResolveTopicsGroup',
    default: 'role:nobody',
    allowEveryone: true,
    ability: 'resolve topics',
    // zerver/lib/streams.py can_resolve_topics
    alsoHeldBy: [realm('can_resolve_topics_group')],
  },
  canSendMessageGroup: {
    wire: 'can_send_message_group',
    feature: 'canSendMessageGroup',
    default: 'role:everyone',
    allowEveryone: true,
    ability: 'post',
  },
  canSubscribeGroup: {
    wire: 'can_subscribe_group',
    feature: 'canSubscribeGroup',
    default: 'role:nobody',
    allowEveryone: false,
    needsContentAccess: true,
    ability: 'subscribe themselves',
    // zerver/lib/streams.py user_has_content_access: either setting grants content access
    alsoHeldBy: [setting('canAddSubscribersGroup')],
  },
} as const satisfies Record<string, PermissionSettingInfo>;

/**
 * Settings `POST /channels/create` accepts but does not apply: at feature level 442
 * `create_channel` (zerver/views/streams.py) reads them and never passes them to
 * `create_stream_if_needed`, so the channel gets Zulip's defaults. They are still sent with the
 * create (a later Zulip may honour them) and then set with one `PATCH /streams/{id}` when they
 * differ from the default, which converges either way: Zulip ignores a PATCH to the value a
 * setting already has. Newer levels (443+) are not known here.
 */
export const IGNORED_BY_CREATE_CHANNEL = [
  'canCreateTopicGroup',
  'canDeleteAnyMessageGroup',
  'canDeleteOwnMessageGroup',
] as const satisfies readonly (keyof typeof CHANNEL_PERMISSIONS)[];

export type ChannelPermissionName = keyof typeof CHANNEL_PERMISSIONS;
export const CHANNEL_PERMISSION_NAMES = Object.keys(CHANNEL_PERMISSIONS) as ChannelPermissionName[];
/** A channel group setting's wire name (`can_send_message_group`). */
export type ChannelGroupSettingName = (typeof CHANNEL_PERMISSIONS)[ChannelPermissionName]['wire'];
/** The group-valued channel settings by wire name (newest server; older ones send fewer). */
export const CHANNEL_GROUP_SETTINGS: readonly ChannelGroupSettingName[] =
  CHANNEL_PERMISSION_NAMES.map((n) => CHANNEL_PERMISSIONS[n].wire);

export const GROUP_PERMISSIONS = {
  // zerver/lib/user_groups.py access_user_group_for_update: whoever may manage a group (or all
  // groups) may do everything to it; zerver/views/user_groups.py: one who may add (remove)
  // members may also join (leave).
  canAddMembersGroup: {
    wire: 'can_add_members_group',
    default: 'creator',
    allowEveryone: false,
    ability: 'add members',
    alsoHeldBy: [setting('canManageGroup'), realm('can_manage_all_groups')],
    // Add anyone, oneself included, to the group and so to what it holds.
    administratorLevel: true,
  },
  canJoinGroup: {
    wire: 'can_join_group',
    default: 'role:nobody',
    allowEveryone: false,
    ability: 'join the group',
    alsoHeldBy: [
      setting('canManageGroup'),
      setting('canAddMembersGroup'),
      realm('can_manage_all_groups'),
    ],
  },
  canLeaveGroup: {
    wire: 'can_leave_group',
    default: 'role:everyone',
    allowEveryone: true,
    ability: 'leave the group',
    alsoHeldBy: [
      setting('canManageGroup'),
      setting('canRemoveMembersGroup'),
      realm('can_manage_all_groups'),
    ],
  },
  canManageGroup: {
    wire: 'can_manage_group',
    default: 'creator',
    allowEveryone: false,
    ability: 'manage the group',
    alsoHeldBy: [realm('can_manage_all_groups')],
    // Change the group's settings and members, and so who holds whatever the group holds
    // (zerver/lib/user_groups.py access_user_group_for_update: managing the group includes every
    // other group permission).
    administratorLevel: true,
  },
  // zerver/lib/mention.py sender_can_mention_group
  canMentionGroup: {
    wire: 'can_mention_group',
    default: 'role:everyone',
    allowEveryone: true,
    ability: 'mention the group',
  },
  canRemoveMembersGroup: {
    wire: 'can_remove_members_group',
    default: 'role:nobody',
    allowEveryone: false,
    ability: 'remove members',
    alsoHeldBy: [setting('canManageGroup'), realm('can_manage_all_groups')],
  },
} as const satisfies Record<string, PermissionSettingInfo>;
export type GroupPermissionName = keyof typeof GROUP_PERMISSIONS;
export const GROUP_PERMISSION_NAMES = Object.keys(GROUP_PERMISSIONS) as GroupPermissionName[];
/** A user group setting's wire name (`can_manage_group`). */
export type UserGroupSettingName = (typeof GROUP_PERMISSIONS)[GroupPermissionName]['wire'];
/** The group-valued settings of a user group, by wire name. */
export const USER_GROUP_SETTINGS: readonly UserGroupSettingName[] = GROUP_PERMISSION_NAMES.map(
  (n) => GROUP_PERMISSIONS[n].wire,
);

/**
 * Organization group settings by the name the constructs use, each with Zulip's rules
 * (`Realm.REALM_PERMISSION_GROUP_SETTINGS`, zerver/models/realms.py; levels from
 * api_docs/changelog.md: every one but two is older than Zulip 10.2). Written with
 * `PATCH /realm` as `{new, old}`; `ownerOnly` as `update_realm` checks it.
 */
export const ORGANIZATION_PERMISSIONS = {
  canAccessAllUsersGroup: {
    wire: 'can_access_all_users_group',
    ability: 'see all other users',
    default: 'role:everyone',
    allowEveryone: true,
    allowNobody: false,
    requireSystemGroup: true,
    allowedSystemGroups: ['role:everyone', 'role:members'],
  },
  canAddCustomEmojiGroup: {
    wire: 'can_add_custom_emoji_group',
    ability: 'add custom emoji',
    default: 'role:members',
    allowEveryone: false,
  },
  canAddSubscribersGroup: {
    wire: 'can_add_subscribers_group',
    ability: 'add subscribers',
    default: 'role:members',
    allowEveryone: false,
  },
  canCreateBotsGroup: {
    wire: 'can_create_bots_group',
    ability: 'create bots',
    default: 'role:members',
    allowEveryone: false,
  },
  canCreateGroups: {
    wire: 'can_create_groups',
    ability: 'create user groups',
    default: 'role:members',
    allowEveryone: false,
    ownerOnly: true,
  },
  canCreatePrivateChannelGroup: {
    wire: 'can_create_private_channel_group',
    ability: 'create private channels',
    default: 'role:members',
    allowEveryone: false,
  },
  canCreatePublicChannelGroup: {
    wire: 'can_create_public_channel_group',
    ability: 'create public channels',
    default: 'role:members',
    allowEveryone: false,
  },
  canCreateWebPublicChannelGroup: {
    wire: 'can_create_web_public_channel_group',
    ability: 'create web-public channels',
    default: 'role:owners',
    allowEveryone: false,
    requireSystemGroup: true,
    allowedSystemGroups: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'],
    // Publish channels to the whole internet (zerver/models/realms.py).
    administratorLevel: true,
  },
  canCreateWriteOnlyBotsGroup: {
    wire: 'can_create_write_only_bots_group',
    ability: 'create bots that can only send messages',
    default: 'role:members',
    allowEveryone: false,
    // zerver/lib/users.py check_can_create_bot: whoever may create any bot.
    alsoHeldBy: [setting('canCreateBotsGroup')],
  },
  canDeleteAnyMessageGroup: {
    wire: 'can_delete_any_message_group',
    ability: 'delete any message',
    default: 'role:administrators',
    allowEveryone: false,
  },
  canDeleteOwnMessageGroup: {
    wire: 'can_delete_own_message_group',
    ability: 'delete their own messages',
    default: 'role:everyone',
    allowEveryone: true,
    // zerver/views/message_edit.py validate_can_delete_message: whoever may delete any message.
    alsoHeldBy: [setting('canDeleteAnyMessageGroup')],
  },
  canInviteUsersGroup: {
    wire: 'can_invite_users_group',
    ability: 'invite people to the organization',
    default: 'role:members',
    allowEveryone: false,
    ownerOnly: true,
  },
  canManageAllGroups: {
    wire: 'can_manage_all_groups',
    ability: 'manage every user group',
    default: 'role:owners',
    allowEveryone: false,
    allowNobody: false,
    ownerOnly: true,
    // Manage every group (zerver/models/realms.py).
    administratorLevel: true,
  },
  canManageBillingGroup: {
    wire: 'can_manage_billing_group',
    ability: "manage the organization's billing",
    default: 'role:administrators',
    allowEveryone: false,
    allowNobody: false,
    ownerOnly: true,
    // Manage the organization's billing and plan (zerver/models/realms.py).
    administratorLevel: true,
  },
  canMentionManyUsersGroup: {
    wire: 'can_mention_many_users_group',
    ability: 'use wildcard mentions in large channels',
    default: 'role:administrators',
    allowEveryone: true,
  },
  canMoveMessagesBetweenChannelsGroup: {
    wire: 'can_move_messages_between_channels_group',
    ability: 'move messages between channels',
    default: 'role:members',
    allowEveryone: false,
  },
  canMoveMessagesBetweenTopicsGroup: {
    wire: 'can_move_messages_between_topics_group',
    ability: 'move messages between topics',
    default: 'role:everyone',
    allowEveryone: true,
  },
  canResolveTopicsGroup: {
    wire: 'can_resolve_topics_group',
    ability: 'resolve topics',
    default: 'role:everyone',
    allowEveryone: true,
  },
  canSetDeleteMessagePolicyGroup: {
    wire: 'can_set_delete_message_policy_group',
    ability: "change channels' message deletion permissions",
    feature: 'canDeleteMessageGroups',
    default: 'role:moderators',
    allowEveryone: false,
    // zerver/models/users.py can_set_delete_message_policy
    alsoHeldBy: [ADMINS],
  },
  canSetTopicsPolicyGroup: {
    wire: 'can_set_topics_policy_group',
    ability: "change channels' topics policy",
    feature: 'topicsPolicy',
    default: 'role:members',
    allowEveryone: true,
    // zerver/models/users.py can_set_topics_policy
    alsoHeldBy: [ADMINS],
  },
  canSummarizeTopicsGroup: {
    wire: 'can_summarize_topics_group',
    ability: 'summarize topics with AI',
    default: 'role:everyone',
    allowEveryone: true,
  },
  createMultiuseInviteGroup: {
    wire: 'create_multiuse_invite_group',
    ability: 'create reusable invitation links',
    default: 'role:administrators',
    allowEveryone: false,
    ownerOnly: true,
  },
  directMessageInitiatorGroup: {
    wire: 'direct_message_initiator_group',
    ability: 'start direct message conversations',
    default: 'role:everyone',
    allowEveryone: true,
  },
  directMessagePermissionGroup: {
    wire: 'direct_message_permission_group',
    ability: 'take part in direct messages',
    default: 'role:everyone',
    allowEveryone: true,
  },
} as const satisfies Record<string, PermissionSettingInfo>;
export type OrganizationPermissionName = keyof typeof ORGANIZATION_PERMISSIONS;
export const ORGANIZATION_PERMISSION_NAMES = Object.keys(
  ORGANIZATION_PERMISSIONS,
) as OrganizationPermissionName[];
export type OrganizationGroupSettingName =
  (typeof ORGANIZATION_PERMISSIONS)[OrganizationPermissionName]['wire'];

/**
 * Organization group settings by wire name in Zulip's own order
 * (`Realm.REALM_PERMISSION_GROUP_SETTINGS`, zerver/models/realms.py): `update_realm` checks
 * and writes the settings of one `PATCH /realm` in this order, and register lists them so.
 */
export const REALM_PERMISSION_ZULIP_ORDER = [
  'create_multiuse_invite_group',
  'can_access_all_users_group',
  'can_add_subscribers_group',
  'can_add_custom_emoji_group',
  'can_create_bots_group',
  'can_create_groups',
  'can_create_public_channel_group',
  'can_create_private_channel_group',
  'can_create_web_public_channel_group',
  'can_create_write_only_bots_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_invite_users_group',
  'can_manage_all_groups',
  'can_manage_billing_group',
  'can_mention_many_users_group',
  'can_move_messages_between_channels_group',
  'can_move_messages_between_topics_group',
  'can_resolve_topics_group',
  'can_set_delete_message_policy_group',
  'can_set_topics_policy_group',
  'can_summarize_topics_group',
  'direct_message_initiator_group',
  'direct_message_permission_group',
] as const satisfies readonly OrganizationGroupSettingName[];

/** Every organization setting of the table is in the order (a compile-time check). */
type UnorderedRealmSetting = Exclude<
  OrganizationGroupSettingName,
  (typeof REALM_PERMISSION_ZULIP_ORDER)[number]
>;
const _orderIsComplete: [UnorderedRealmSetting] extends [never] ? true : UnorderedRealmSetting =
  true;

/**
 * Zulip's rule for disallowed system groups, shared by synth validation, the planner and the
 * embedded server (zerver/lib/user_groups.py `check_setting_configuration_for_system_groups`):
 * returns the offending system group, or undefined when the value is allowed.
 */
export function disallowedSystemGroup(
  info: PermissionSettingInfo,
  groupName: string,
): string | undefined {
  if (groupName === 'role:internet') return groupName;
  if (groupName === 'role:nobody' && info.allowNobody === false) return groupName;
  if (groupName === 'role:everyone' && !info.allowEveryone) return groupName;
  if (
    info.allowedSystemGroups !== undefined &&
    !(info.allowedSystemGroups as readonly string[]).includes(groupName)
  )
    return groupName;
  return undefined;
}

/** The organization's group settings by wire name (`can_create_groups`). */
const ORGANIZATION_PERMISSIONS_BY_WIRE: ReadonlyMap<string, PermissionSettingInfo> = new Map(
  Object.values(ORGANIZATION_PERMISSIONS).map((i: PermissionSettingInfo) => [i.wire, i]),
);

/** The rules of an organization group setting by its wire name; undefined for none. */
export function organizationPermissionByWire(wire: string): PermissionSettingInfo | undefined {
  return ORGANIZATION_PERMISSIONS_BY_WIRE.get(wire);
}

/**
 * Whether Zulip's check of a setting never lets a guest through, whatever its value
 * (zerver/lib/user_groups.py `user_has_permission_for_group_setting`: a setting that does not
 * allow role:everyone; and those whose check refuses guests itself, `guestsRefused`).
 */
export function refusesGuests(info: PermissionSettingInfo): boolean {
  return !info.allowEveryone || info.guestsRefused === true;
}

/**
 * The wire names of the settings flagged `administratorLevel` in the three tables above: widening
 * one to more people is a privileged change, and so is adding members or subgroups to a group
 * that holds one (src/engine/guards.ts).
 */
export const ADMINISTRATOR_LEVEL_SETTINGS: ReadonlySet<string> = new Set(
  [
    ...Object.values(CHANNEL_PERMISSIONS),
    ...Object.values(GROUP_PERMISSIONS),
    ...Object.values(ORGANIZATION_PERMISSIONS),
  ]
    .filter((info: PermissionSettingInfo) => info.administratorLevel === true)
    .map((info) => info.wire),
);
