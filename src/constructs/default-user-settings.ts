import type { Construct } from 'constructs';
import { z } from 'zod';
import type { DesiredDefaultUserSettings } from '../model/desired-state';
import {
  DEFAULT_USER_SETTINGS,
  DEFAULT_USER_SETTING_NAMES,
  DEFAULT_USER_SETTINGS_KEY,
  defaultUserSettingProblem,
} from '../model/default-user-settings';
import type { DefaultUserSettingInfo } from '../model/default-user-settings';
import { ZulipResource } from './resource';
import { resourceGuard } from './symbols';

/**
 * Props of {@link DefaultUserSettings}: the settings a new user of the organization starts
 * with. Every one is optional, and one left out is left as it is live: declare what your
 * organization's policy fixes. Choices are named (`colorScheme: 'dark'`), where Zulip's API
 * numbers some of them.
 */
export interface DefaultUserSettingsProps {
  /**
   * Topics followed automatically (`automatically_follow_topics_policy`).
   * @default - left as it is live (Zulip's default for a new organization: 'on_initiation')
   */
  readonly automaticallyFollowTopicsPolicy?:
    'on_participation' | 'on_send' | 'on_initiation' | 'never';
  /**
   * Topics where the user is mentioned followed automatically (`automatically_follow_topics_where_mentioned`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly automaticallyFollowTopicsWhereMentioned?: boolean;
  /**
   * Topics unmuted automatically in muted channels (`automatically_unmute_topics_in_muted_streams_policy`).
   * @default - left as it is live (Zulip's default for a new organization: 'on_send')
   */
  readonly automaticallyUnmuteTopicsInMutedChannelsPolicy?:
    'on_participation' | 'on_send' | 'on_initiation' | 'never';
  /**
   * Color theme (`color_scheme`).
   * @default - left as it is live (Zulip's default for a new organization: 'automatic')
   */
  readonly colorScheme?: 'automatic' | 'dark' | 'light';
  /**
   * Inactive channels demoted in the left sidebar (`demote_inactive_streams`).
   * @default - left as it is live (Zulip's default for a new organization: 'automatic')
   */
  readonly demoteInactiveChannels?: 'automatic' | 'always' | 'never';
  /**
   * Unread count badge of the desktop app and browser tab (`desktop_icon_count_display`).
   * @default - left as it is live (Zulip's default for a new organization: 'messages')
   */
  readonly desktopIconCountDisplay?:
    'messages' | 'dm_mention_followed_topic' | 'dm_mention' | 'none';
  /**
   * Names of reacting users shown (`display_emoji_reaction_users`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly displayEmojiReactionUsers?: boolean;
  /**
   * DM content in desktop notifications (`pm_content_in_desktop_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly dmContentInDesktopNotifications?: boolean;
  /**
   * Who may see the user's real e-mail address (`email_address_visibility`). The choice the
   * sign-up form preselects: a user signing up there may pick another, which Zulip keeps.
   * @default - left as it is live (Zulip's default for a new organization: 'admins';
   * 'moderators' for an education organization, 'everyone' for a business one)
   */
  readonly emailAddressVisibility?: 'everyone' | 'members' | 'admins' | 'nobody' | 'moderators';
  /**
   * Delay before e-mail notifications are batched and sent (seconds) (`email_notifications_batching_period_seconds`). From 1 to 604800.
   * @default - left as it is live (Zulip's default for a new organization: 120)
   */
  readonly emailNotificationsBatchingPeriodSeconds?: number;
  /**
   * Emoji set (`emojiset`). One the server offers ('google-blob' only on older servers).
   * @default - left as it is live (Zulip's default for a new organization: 'google')
   */
  readonly emojiset?: 'google' | 'twitter' | 'text' | 'google-blob';
  /**
   * Audible notifications for channel messages (`enable_stream_audible_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly enableChannelAudibleNotifications?: boolean;
  /**
   * Desktop notifications for channel messages (`enable_stream_desktop_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly enableChannelDesktopNotifications?: boolean;
  /**
   * E-mail notifications for channel messages (`enable_stream_email_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly enableChannelEmailNotifications?: boolean;
  /**
   * Mobile notifications for channel messages (`enable_stream_push_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly enableChannelPushNotifications?: boolean;
  /**
   * Desktop notifications for DMs and mentions (`enable_desktop_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableDesktopNotifications?: boolean;
  /**
   * Digest e-mails when away (`enable_digest_emails`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableDigestEmails?: boolean;
  /**
   * Drafts synchronized to the server (`enable_drafts_synchronization`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableDraftsSynchronization?: boolean;
  /**
   * Audible notifications for followed topics (`enable_followed_topic_audible_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableFollowedTopicAudibleNotifications?: boolean;
  /**
   * Desktop notifications for followed topics (`enable_followed_topic_desktop_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableFollowedTopicDesktopNotifications?: boolean;
  /**
   * E-mail notifications for followed topics (`enable_followed_topic_email_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableFollowedTopicEmailNotifications?: boolean;
  /**
   * Mobile notifications for followed topics (`enable_followed_topic_push_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableFollowedTopicPushNotifications?: boolean;
  /**
   * Notifications for @all mentions in followed topics (`enable_followed_topic_wildcard_mentions_notify`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableFollowedTopicWildcardMentionsNotify?: boolean;
  /**
   * E-mail notifications for DMs and mentions when offline (`enable_offline_email_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableOfflineEmailNotifications?: boolean;
  /**
   * Mobile notifications for DMs and mentions when offline (`enable_offline_push_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableOfflinePushNotifications?: boolean;
  /**
   * Mobile notifications even when online (`enable_online_push_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableOnlinePushNotifications?: boolean;
  /**
   * Audible notifications for DMs and mentions (`enable_sounds`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly enableSounds?: boolean;
  /**
   * Enter sends a message (`enter_sends`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly enterSends?: boolean;
  /**
   * Full-width display (`fluid_layout_width`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly fluidLayoutWidth?: boolean;
  /**
   * AI features hidden (`hide_ai_features`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly hideAiFeatures?: boolean;
  /**
   * High contrast mode (`high_contrast_mode`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly highContrastMode?: boolean;
  /**
   * User list in the left sidebar in narrow windows (not in the web app since Zulip 6.0) (`left_side_userlist`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly leftSideUserlist?: boolean;
  /**
   * Message content in e-mail notifications (`message_content_in_email_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly messageContentInEmailNotifications?: boolean;
  /**
   * Notification sound (`notification_sound`). A sound the server has (Zulip's own include 'zulip' and 'ding'), or 'none'.
   * @default - left as it is live (Zulip's default for a new organization: 'zulip')
   */
  readonly notificationSound?: string;
  /**
   * Organization name in the subject of notification e-mails (`realm_name_in_email_notifications_policy`).
   * @default - left as it is live (Zulip's default for a new organization: 'automatic')
   */
  readonly organizationNameInEmailNotificationsPolicy?: 'automatic' | 'always' | 'never';
  /**
   * Availability shown to other users (`presence_enabled`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly presenceEnabled?: boolean;
  /**
   * Others' typing shown (`receives_typing_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly receivesTypingNotifications?: boolean;
  /**
   * Resolved-topic notices marked as read automatically (`resolved_topic_notice_auto_read_policy`). Feature level 385.
   * @default - left as it is live (Zulip's default for a new organization: 'except_followed')
   */
  readonly resolvedTopicNoticeAutoReadPolicy?: 'always' | 'except_followed' | 'never';
  /**
   * Typing shown to others in channels (`send_stream_typing_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly sendChannelTypingNotifications?: boolean;
  /**
   * Typing shown to others in DMs (`send_private_typing_notifications`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly sendDmTypingNotifications?: boolean;
  /**
   * Read receipts sent (`send_read_receipts`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly sendReadReceipts?: boolean;
  /**
   * Number of starred messages shown (`starred_message_counts`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly starredMessageCounts?: boolean;
  /**
   * Emoticons converted to emoji (`translate_emoticons`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly translateEmoticons?: boolean;
  /**
   * 24-hour time (`twenty_four_hour_time`).
   * @default - left as it is live (Zulip's default for a new organization: false)
   */
  readonly twentyFourHourTime?: boolean;
  /**
   * Style of the user list (`user_list_style`).
   * @default - left as it is live (Zulip's default for a new organization: 'with_avatar')
   */
  readonly userListStyle?: 'compact' | 'with_status' | 'with_avatar';
  /**
   * Animated images played in the message feed (`web_animate_image_previews`).
   * @default - left as it is live (Zulip's default for a new organization: 'on_hover')
   */
  readonly webAnimateImagePreviews?: 'always' | 'on_hover' | 'never';
  /**
   * Where a click on a channel leads (`web_channel_default_view`). 'topic_list' needs feature level 383, 'top_unread' needs feature level 401.
   * @default - left as it is live (Zulip's default for a new organization: 'first_topic')
   */
  readonly webChannelDefaultView?: 'first_topic' | 'channel_feed' | 'topic_list' | 'top_unread';
  /**
   * Channels shown with an unread count (`web_stream_unreads_count_display_policy`).
   * @default - left as it is live (Zulip's default for a new organization: 'unmuted_channels')
   */
  readonly webChannelUnreadsCountDisplayPolicy?:
    'all_channels' | 'unmuted_channels' | 'no_channels';
  /**
   * Escape goes to the home view (`web_escape_navigates_to_home_view`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly webEscapeNavigatesToHomeView?: boolean;
  /**
   * Font size (pixels; the web app offers 12 to 20) (`web_font_size_px`). From 0 to 32767.
   * @default - left as it is live (Zulip's default for a new organization: 16)
   */
  readonly webFontSizePx?: number;
  /**
   * Home view (recent conversations, inbox or combined feed) (`web_home_view`).
   * @default - left as it is live (Zulip's default for a new organization: 'inbox')
   */
  readonly webHomeView?: 'recent_topics' | 'inbox' | 'all_messages';
  /**
   * Channel folders in the inbox (`web_inbox_show_channel_folders`). Feature level 431.
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly webInboxShowChannelFolders?: boolean;
  /**
   * Channel folders in the left sidebar (`web_left_sidebar_show_channel_folders`). Feature level 411.
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly webLeftSidebarShowChannelFolders?: boolean;
  /**
   * Unread counts summarized in the left sidebar (`web_left_sidebar_unreads_count_summary`). Feature level 398.
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly webLeftSidebarUnreadsCountSummary?: boolean;
  /**
   * Line spacing (percent) (`web_line_height_percent`). From 0 to 32767.
   * @default - left as it is live (Zulip's default for a new organization: 140)
   */
  readonly webLineHeightPercent?: number;
  /**
   * Messages marked as read on scroll (`web_mark_read_on_scroll_policy`).
   * @default - left as it is live (Zulip's default for a new organization: 'always')
   */
  readonly webMarkReadOnScrollPolicy?: 'always' | 'conversation_only' | 'never';
  /**
   * The view moves to a message just sent (`web_navigate_to_sent_message`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly webNavigateToSentMessage?: boolean;
  /**
   * An offer to update the time zone when it differs (`web_suggest_update_timezone`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly webSuggestUpdateTimezone?: boolean;
  /**
   * Notifications for @all mentions (`wildcard_mentions_notify`).
   * @default - left as it is live (Zulip's default for a new organization: true)
   */
  readonly wildcardMentionsNotify?: boolean;
}

const valueSchema = z.custom<unknown>((v) => v !== undefined, { message: 'expected a value' });

const PropsSchema = z.strictObject(
  Object.fromEntries(DEFAULT_USER_SETTING_NAMES.map((n) => [n, valueSchema.optional()])),
);

/**
 * The organization's default user settings, as code: what a new user gets for notifications,
 * the home view, the color theme, the emoji set, e-mail address visibility, typing and read
 * receipts ("Default user settings" in Zulip's organization settings). One per organization.
 * Written with `PATCH /realm/user_settings_defaults`, which needs an organization
 * administrator's API key; it changes what new users start with, never existing users'
 * settings. Bots do not get them, a user who imports the settings of their account in another
 * organization of the server when signing up gets those instead, and the e-mail address
 * visibility is only preselected in the sign-up form (zerver/lib/create_user.py).
 *
 * @example
 * new DefaultUserSettings(org, 'user-defaults', {
 *   webHomeView: 'recent_topics',
 *   colorScheme: 'dark',
 *   twentyFourHourTime: true,
 *   emailAddressVisibility: 'admins',
 *   enableDigestEmails: false,
 *   emailNotificationsBatchingPeriodSeconds: 300,
 * });
 */
export class DefaultUserSettings extends ZulipResource {
  /** True when `x` is a {@link DefaultUserSettings}. */
  public static readonly isDefaultUserSettings =
    resourceGuard<DefaultUserSettings>('defaultUserSettings');

  private readonly props: DefaultUserSettingsProps;

  public constructor(scope: Construct, id: string, props: DefaultUserSettingsProps = {}) {
    super(scope, id, 'defaultUserSettings', 'DefaultUserSettings', PropsSchema, props);
    this.props = props;
  }

  /** Always `organization`: there is one per organization. */
  public get naturalKey(): string {
    return DEFAULT_USER_SETTINGS_KEY;
  }

  protected describeKey(): string {
    return 'the default user settings';
  }

  protected override keyNote(): string {
    return ' (an organization has one DefaultUserSettings: merge them)';
  }

  protected validateResource(): string[] {
    const problems: string[] = [];
    const p = this.props as Record<string, unknown>;
    for (const name of DEFAULT_USER_SETTING_NAMES) {
      const value = p[name];
      if (value === undefined) continue;
      const info: DefaultUserSettingInfo = DEFAULT_USER_SETTINGS[name];
      const problem = defaultUserSettingProblem(info, value);
      if (problem !== undefined) problems.push(`${name}: ${problem}`);
    }
    return problems;
  }

  /** @internal */
  public _toDesired(): DesiredDefaultUserSettings {
    const p = this.props as Record<string, unknown>;
    const properties: DesiredDefaultUserSettings['properties'] = {};
    for (const name of DEFAULT_USER_SETTING_NAMES) {
      const v = p[name];
      if (v !== undefined) properties[name] = v as string | number | boolean;
    }
    return { path: this.node.path, properties };
  }
}
