import type { Construct } from 'constructs';
import { z } from 'zod';
import type { DesiredOrganizationSettings } from '../model/desired-state';
import {
  ORGANIZATION_PROPERTIES,
  ORGANIZATION_PROPERTY_NAMES,
  ORGANIZATION_SETTINGS_KEY,
  organizationPropertyProblem,
} from '../model/organization-settings';
import type { OrganizationPropertyInfo } from '../model/organization-settings';
import { ORGANIZATION_PERMISSIONS, ORGANIZATION_PERMISSION_NAMES } from '../model/permissions';
import type { OrganizationPermissionName, PermissionSettingInfo } from '../model/permissions';
import { Channel } from './channel';
import { checkPermission } from './checks';
import { Permission, resolvePermission } from './permission';
import type { PermissionValue } from './permission';
import { permissionSchema } from './props';
import { ZulipResource } from './resource';
import { resourceGuard } from './symbols';
import { SystemGroup } from './system-group';

/**
 * Props of {@link OrganizationSettings}: the organization's settings and permissions. Every
 * one is optional, and one left out is left as it is live: declare what your organization's
 * policy fixes, and review every change to it. (Unlike a channel's settings, which are held at
 * Zulip's defaults, an organization's settings have no default anyone would want silently.)
 */
export interface OrganizationSettingsProps {
  /**
   * Organization name (`name`). At most 40 characters.
   * @default - left as it is live (Zulip's default for a new organization: '')
   */
  readonly name?: string;
  /**
   * Organization description (`description`). At most 1000 characters.
   * @default - left as it is live (Zulip's default for a new organization: '')
   */
  readonly description?: string;
  /**
   * Language of new users and of the organization (`default_language`).
   * @default - left as it is live (Zulip's default for a new organization: 'en')
   */
  readonly defaultLanguage?: string;
  /**
   * Default language of code blocks (`default_code_block_language`).
   * @default - left as it is live (Zulip's default for a new organization: '')
   */
  readonly defaultCodeBlockLanguage?: string;
  /**
   * Custom text of Welcome Bot's message (`welcome_message_custom_text`). At most 8000 characters. Feature level 416.
   * @default - left as it is live (Zulip's default for a new organization: '')
   */
  readonly welcomeMessageCustomText?: string;
  /**
   * Message retention period (days) (`message_retention_days`). At most 2147483647, or `'unlimited'` to keep messages forever. Refused on Zulip Cloud Free. Changing it needs an organization owner's API key.
   * @default - left as it is live (Zulip's default for a new organization: 'unlimited')
   */
  readonly messageRetentionDays?: number | 'unlimited';
  /**
   * Channel for new channel announcements (`new_stream_announcements_stream_id`). A Channel construct or a channel name; `null` for none.
   * @default - left as it is live (Zulip's default for a new organization: none)
   */
  readonly newChannelAnnouncementsChannel?: Channel | string | null;
  /**
   * Channel for new user announcements (`signup_announcements_stream_id`). A Channel construct or a channel name; `null` for none.
   * @default - left as it is live (Zulip's default for a new organization: none)
   */
  readonly signupAnnouncementsChannel?: Channel | string | null;
  /**
   * Channel for Zulip update announcements (`zulip_update_announcements_stream_id`). A Channel construct or a channel name; `null` for none.
   * @default - left as it is live (Zulip's default for a new organization: none)
   */
  readonly zulipUpdateAnnouncementsChannel?: Channel | string | null;
  /**
   * Channel for moderation requests (`moderation_request_channel_id`). A Channel construct or a channel name; `null` for none. Zulip takes only a private channel.
   * @default - left as it is live (Zulip's default for a new organization: none)
   */
  readonly moderationRequestChannel?: Channel | string | null;
  /**
   * Waiting period before new members become full members (days) (`waiting_period_threshold`). At most 2147483647. Changing it needs an organization owner's API key.
   * @default - left as it is live (Zulip's default for a new organization: 0)
   */
  readonly waitingPeriodThreshold?: number;
  /**
   * Whether messages may be sent without a topic (`topics_policy`). Feature level 392.
   * @default - left as it is live (Zulip's default for a new organization: 'allow_empty_topic')
   */
  readonly topicsPolicy?: 'allow_empty_topic' | 'disable_empty_topic';
  /**
   * Web-public channels readable without an account (`enable_spectator_access`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly enableSpectatorAccess?: boolean;
  /**
   * Message editing (`allow_message_editing`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly allowMessageEditing?: boolean;
  /**
   * Time limit for editing messages (seconds) (`message_content_edit_limit_seconds`). At most 2147483647, or `'unlimited'` for no limit.
   * @default - left as it is live (Zulip's default for a new organization: 600)
   */
  readonly messageContentEditLimitSeconds?: number | 'unlimited';
  /**
   * Time limit for deleting own messages (seconds) (`message_content_delete_limit_seconds`). At most 2147483647, or `'unlimited'` for no limit.
   * @default - left as it is live (Zulip's default for a new organization: 600)
   */
  readonly messageContentDeleteLimitSeconds?: number | 'unlimited';
  /**
   * Time limit for moving messages between topics (seconds) (`move_messages_within_stream_limit_seconds`). At most 2147483647, or `'unlimited'` for no limit.
   * @default - left as it is live (Zulip's default for a new organization: 604800)
   */
  readonly moveMessagesWithinChannelLimitSeconds?: number | 'unlimited';
  /**
   * Time limit for moving messages between channels (seconds) (`move_messages_between_streams_limit_seconds`). At most 2147483647, or `'unlimited'` for no limit.
   * @default - left as it is live (Zulip's default for a new organization: 604800)
   */
  readonly moveMessagesBetweenChannelsLimitSeconds?: number | 'unlimited';
  /**
   * Who sees the edit history of messages (`message_edit_history_visibility_policy`).
   * @default - left as it is live (Zulip's default for a new organization: 'all')
   */
  readonly messageEditHistoryVisibilityPolicy?: 'all' | 'moves' | 'none';
  /**
   * An invitation is required to join (`invite_required`). Changing it needs an organization owner's API key.
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly inviteRequired?: boolean;
  /**
   * Sign-ups restricted to the organization's e-mail domains (`emails_restricted_to_domains`), declared with `AllowedDomain`; Zulip turns it off when it deletes the last one. Changing it needs an organization owner's API key.
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly emailsRestrictedToDomains?: boolean;
  /**
   * Disposable e-mail addresses refused (`disallow_disposable_email_addresses`). Changing it needs an organization owner's API key.
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly disallowDisposableEmailAddresses?: boolean;
  /**
   * Users may not change their e-mail address (`email_changes_disabled`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly emailChangesDisabled?: boolean;
  /**
   * Users may not change their name (`name_changes_disabled`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly nameChangesDisabled?: boolean;
  /**
   * Users may not change their avatar (`avatar_changes_disabled`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly avatarChangesDisabled?: boolean;
  /**
   * User names must be unique (`require_unique_names`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly requireUniqueNames?: boolean;
  /**
   * Read receipts (`enable_read_receipts`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly enableReadReceipts?: boolean;
  /**
   * "(guest)" shown after the names of guests (`enable_guest_user_indicator`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableGuestUserIndicator?: boolean;
  /**
   * A warning when a direct message has a guest recipient (`enable_guest_user_dm_warning`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableGuestUserDmWarning?: boolean;
  /**
   * Message content in e-mail notifications (`message_content_allowed_in_email_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly messageContentAllowedInEmailNotifications?: boolean;
  /**
   * Welcome e-mails to new users (`send_welcome_emails`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly sendWelcomeEmails?: boolean;
  /**
   * Notification Bot posts channel events into the channel (`send_channel_events_messages`). Feature level 434.
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly sendChannelEventsMessages?: boolean;
  /**
   * Weekly digest e-mails to inactive users (`digest_emails_enabled`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly digestEmailsEnabled?: boolean;
  /**
   * Day of the week digests are sent (0 is Monday) (`digest_weekday`).
   * @default - left as it is live (Zulip's default for a new organization: 1)
   */
  readonly digestWeekday?: number;
  /**
   * Previews of linked images (`inline_image_preview`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly inlineImagePreview?: boolean;
  /**
   * Previews of linked websites (`inline_url_embed_preview`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly inlineUrlEmbedPreview?: boolean;
  /**
   * Video call provider (`video_chat_provider`). Zoom and BigBlueButton need the server's own
   * configuration (`'zoom'` with its OAuth app, `'zoom_server_to_server'` with a
   * server-to-server app): the plan refuses a provider the server does not offer.
   * @default - left as it is live (Zulip's default for a new organization: 'jitsi_meet')
   */
  readonly videoChatProvider?:
    'disabled' | 'jitsi_meet' | 'zoom' | 'big_blue_button' | 'zoom_server_to_server';
  /**
   * Jitsi Meet server for video calls (`jitsi_server_url`): a URL of at most 200 characters;
   * `null` for the server's own (its `JITSI_SERVER_URL`, sent as `"default"`).
   * @default - left as it is live (Zulip's default for a new organization: null)
   */
  readonly jitsiServerUrl?: string | null;
  /**
   * Highest rating of the GIFs offered (`giphy_rating`): `'disabled'` turns the GIF picker off.
   * @default - left as it is live (Zulip's default for a new organization: 'g')
   */
  readonly giphyRating?: 'disabled' | 'g' | 'pg' | 'pg-13' | 'r';
  /**
   * Message content only in end-to-end encrypted push notifications
   * (`require_e2ee_push_notifications`): devices without end-to-end encryption get "New
   * message" instead of the content. Feature level 409.
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly requireE2eePushNotifications?: boolean;
  /**
   * Listed in Zulip's communities directory (`want_advertise_in_communities_directory`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly wantAdvertiseInCommunitiesDirectory?: boolean;

  /**
   * `can_access_all_users_group`. Only a system group: SystemGroup.EVERYONE, SystemGroup.MEMBERS.
   * @default - left as it is live (Zulip's default: SystemGroup.EVERYONE)
   */
  readonly canAccessAllUsersGroup?: PermissionValue;
  /**
   * `can_add_custom_emoji_group`. Zulip refuses SystemGroup.EVERYONE.
   * @default - left as it is live (Zulip's default: SystemGroup.MEMBERS)
   */
  readonly canAddCustomEmojiGroup?: PermissionValue;
  /**
   * `can_add_subscribers_group`. Zulip refuses SystemGroup.EVERYONE.
   * @default - left as it is live (Zulip's default: SystemGroup.MEMBERS)
   */
  readonly canAddSubscribersGroup?: PermissionValue;
  /**
   * `can_create_bots_group`. Zulip refuses SystemGroup.EVERYONE.
   * @default - left as it is live (Zulip's default: SystemGroup.MEMBERS)
   */
  readonly canCreateBotsGroup?: PermissionValue;
  /**
   * `can_create_groups`. Zulip refuses SystemGroup.EVERYONE. Changing it needs an organization owner's API key.
   * @default - left as it is live (Zulip's default: SystemGroup.MEMBERS)
   */
  readonly canCreateGroups?: PermissionValue;
  /**
   * `can_create_private_channel_group`. Zulip refuses SystemGroup.EVERYONE.
   * @default - left as it is live (Zulip's default: SystemGroup.MEMBERS)
   */
  readonly canCreatePrivateChannelGroup?: PermissionValue;
  /**
   * `can_create_public_channel_group`. Zulip refuses SystemGroup.EVERYONE.
   * @default - left as it is live (Zulip's default: SystemGroup.MEMBERS)
   */
  readonly canCreatePublicChannelGroup?: PermissionValue;
  /**
   * `can_create_web_public_channel_group`. Only a system group: SystemGroup.MODERATORS, SystemGroup.ADMINISTRATORS, SystemGroup.OWNERS, SystemGroup.NOBODY.
   * @default - left as it is live (Zulip's default: SystemGroup.OWNERS)
   */
  readonly canCreateWebPublicChannelGroup?: PermissionValue;
  /**
   * `can_create_write_only_bots_group`. Zulip refuses SystemGroup.EVERYONE.
   * @default - left as it is live (Zulip's default: SystemGroup.MEMBERS)
   */
  readonly canCreateWriteOnlyBotsGroup?: PermissionValue;
  /**
   * `can_delete_any_message_group`. Zulip refuses SystemGroup.EVERYONE.
   * @default - left as it is live (Zulip's default: SystemGroup.ADMINISTRATORS)
   */
  readonly canDeleteAnyMessageGroup?: PermissionValue;
  /**
   * `can_delete_own_message_group`.
   * @default - left as it is live (Zulip's default: SystemGroup.EVERYONE)
   */
  readonly canDeleteOwnMessageGroup?: PermissionValue;
  /**
   * `can_invite_users_group`. Zulip refuses SystemGroup.EVERYONE. Changing it needs an organization owner's API key.
   * @default - left as it is live (Zulip's default: SystemGroup.MEMBERS)
   */
  readonly canInviteUsersGroup?: PermissionValue;
  /**
   * `can_manage_all_groups`. Zulip refuses SystemGroup.EVERYONE and SystemGroup.NOBODY. Changing it needs an organization owner's API key.
   * @default - left as it is live (Zulip's default: SystemGroup.OWNERS)
   */
  readonly canManageAllGroups?: PermissionValue;
  /**
   * `can_manage_billing_group`. Zulip refuses SystemGroup.EVERYONE and SystemGroup.NOBODY. Changing it needs an organization owner's API key.
   * @default - left as it is live (Zulip's default: SystemGroup.ADMINISTRATORS)
   */
  readonly canManageBillingGroup?: PermissionValue;
  /**
   * `can_mention_many_users_group`.
   * @default - left as it is live (Zulip's default: SystemGroup.ADMINISTRATORS)
   */
  readonly canMentionManyUsersGroup?: PermissionValue;
  /**
   * `can_move_messages_between_channels_group`. Zulip refuses SystemGroup.EVERYONE.
   * @default - left as it is live (Zulip's default: SystemGroup.MEMBERS)
   */
  readonly canMoveMessagesBetweenChannelsGroup?: PermissionValue;
  /**
   * `can_move_messages_between_topics_group`.
   * @default - left as it is live (Zulip's default: SystemGroup.EVERYONE)
   */
  readonly canMoveMessagesBetweenTopicsGroup?: PermissionValue;
  /**
   * `can_resolve_topics_group`.
   * @default - left as it is live (Zulip's default: SystemGroup.EVERYONE)
   */
  readonly canResolveTopicsGroup?: PermissionValue;
  /**
   * `can_set_delete_message_policy_group`. Zulip refuses SystemGroup.EVERYONE. Feature level 407.
   * @default - left as it is live (Zulip's default: SystemGroup.MODERATORS)
   */
  readonly canSetDeleteMessagePolicyGroup?: PermissionValue;
  /**
   * `can_set_topics_policy_group`. Feature level 392.
   * @default - left as it is live (Zulip's default: SystemGroup.MEMBERS)
   */
  readonly canSetTopicsPolicyGroup?: PermissionValue;
  /**
   * `can_summarize_topics_group`.
   * @default - left as it is live (Zulip's default: SystemGroup.EVERYONE)
   */
  readonly canSummarizeTopicsGroup?: PermissionValue;
  /**
   * `create_multiuse_invite_group`. Zulip refuses SystemGroup.EVERYONE. Changing it needs an organization owner's API key.
   * @default - left as it is live (Zulip's default: SystemGroup.ADMINISTRATORS)
   */
  readonly createMultiuseInviteGroup?: PermissionValue;
  /**
   * `direct_message_initiator_group`.
   * @default - left as it is live (Zulip's default: SystemGroup.EVERYONE)
   */
  readonly directMessageInitiatorGroup?: PermissionValue;
  /**
   * `direct_message_permission_group`.
   * @default - left as it is live (Zulip's default: SystemGroup.EVERYONE)
   */
  readonly directMessagePermissionGroup?: PermissionValue;
}

const valueSchema = z.custom<unknown>((v) => v !== undefined, { message: 'expected a value' });

const PropsSchema = z.strictObject({
  ...(Object.fromEntries(
    ORGANIZATION_PROPERTY_NAMES.map((n) => [n, valueSchema.optional()]),
  ) as Record<string, z.ZodOptional<typeof valueSchema>>),
  ...(Object.fromEntries(
    ORGANIZATION_PERMISSION_NAMES.map((n) => [n, permissionSchema.optional()]),
  ) as Record<OrganizationPermissionName, z.ZodOptional<typeof permissionSchema>>),
});

/**
 * The organization's settings and permissions, as code: who may create channels, invite
 * people, create and manage groups, add emoji, move and delete messages, mention many people,
 * see all users, create bots; and the settings an administrator reviews (name, description,
 * announcement channels, waiting period, time limits, invitations, retention). One per
 * organization. Written with `PATCH /realm`, permissions as `{new, old}`, so a change made by
 * hand after review is reported instead of overwritten. Some settings need an organization
 * owner's API key (their TSDoc says so); the plan warns before apply when the applying account
 * is not an owner.
 *
 * @example
 * const announcements = new Channel(org, 'announcements', { name: 'announcements' });
 * new OrganizationSettings(org, 'settings', {
 *   name: 'Acme',
 *   inviteRequired: true,
 *   waitingPeriodThreshold: 3,
 *   newChannelAnnouncementsChannel: announcements,
 *   messageContentEditLimitSeconds: 'unlimited',
 *   canCreatePublicChannelGroup: SystemGroup.FULL_MEMBERS,
 *   canCreateWebPublicChannelGroup: SystemGroup.NOBODY,
 *   canInviteUsersGroup: SystemGroup.ADMINISTRATORS,
 *   canManageAllGroups: SystemGroup.ADMINISTRATORS,
 *   directMessagePermissionGroup: Permission.anyOf({ groups: [SystemGroup.MEMBERS] }),
 * });
 */
export class OrganizationSettings extends ZulipResource {
  /** True when `x` is an {@link OrganizationSettings}. */
  public static readonly isOrganizationSettings =
    resourceGuard<OrganizationSettings>('organizationSettings');

  private readonly props: OrganizationSettingsProps;

  public constructor(scope: Construct, id: string, props: OrganizationSettingsProps = {}) {
    super(scope, id, 'organizationSettings', 'OrganizationSettings', PropsSchema, props);
    this.props = props;
  }

  /** Always `organization`: there is one per organization. */
  public get naturalKey(): string {
    return ORGANIZATION_SETTINGS_KEY;
  }

  protected describeKey(): string {
    return 'the organization settings';
  }

  protected override keyNote(): string {
    return ' (an organization has one OrganizationSettings: merge them)';
  }

  protected validateResource(): string[] {
    const problems: string[] = [];
    const p = this.props as Record<string, unknown>;
    for (const name of ORGANIZATION_PROPERTY_NAMES) {
      const value = p[name];
      if (value === undefined) continue;
      const info: OrganizationPropertyInfo = ORGANIZATION_PROPERTIES[name];
      if (info.type === 'channel' && Channel.isChannel(value)) {
        const foreign = this.foreignReference(value, `${name}: channel`);
        if (foreign) problems.push(foreign);
        if (value.archived)
          problems.push(
            `${name} names channel '${value.channelName}' (${value.node.path}), which is declared archived: Zulip refuses an archived channel there; choose another`,
          );
        continue;
      }
      const problem = organizationPropertyProblem(info, value);
      if (problem) {
        problems.push(`${name}: ${problem}`);
        continue;
      }
      if (
        typeof value === 'string' &&
        info.type === 'string' &&
        name !== 'description' &&
        name !== 'welcomeMessageCustomText' &&
        value !== value.trim()
      )
        problems.push(`${name} '${value}' has leading or trailing whitespace: remove it`);
      if (name === 'name' && typeof value === 'string' && value.trim() === '')
        problems.push('name is empty: give the organization a name');
    }
    for (const name of ORGANIZATION_PERMISSION_NAMES) {
      const v = this.props[name];
      if (v === undefined) continue;
      const info: PermissionSettingInfo = ORGANIZATION_PERMISSIONS[name];
      problems.push(...checkPermission(this, name, info, v));
      if (
        info.requireSystemGroup === true &&
        (Permission.isPermission(v) || !SystemGroup.isSystemGroup(v))
      )
        problems.push(
          `${name} must be a system group (Zulip: "'${info.wire}' must be a system user group."): use one of ${(info.allowedSystemGroups ?? []).join(', ')}`,
        );
    }
    return problems;
  }

  /** @internal */
  public _toDesired(): DesiredOrganizationSettings {
    const p = this.props as Record<string, unknown>;
    const properties: DesiredOrganizationSettings['properties'] = {};
    for (const name of ORGANIZATION_PROPERTY_NAMES) {
      const v = p[name];
      if (v === undefined) continue;
      properties[name] = Channel.isChannel(v)
        ? v.channelName
        : (v as string | number | boolean | null);
    }
    const permissions: DesiredOrganizationSettings['permissions'] = {};
    for (const name of ORGANIZATION_PERMISSION_NAMES) {
      const v = this.props[name];
      if (v !== undefined) permissions[name] = resolvePermission(v);
    }
    return { path: this.node.path, properties, permissions };
  }
}
