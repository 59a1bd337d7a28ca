import { supports } from './features';
import { nameOfWireValue, oneOfProblem, wholeNumberProblem } from './organization-settings';
import type { FeatureName } from './features';

/**
 * The organization's default user settings (Zulip's `RealmUserDefault`, zerver/models/users.py
 * `UserBaseSettings`: "Default user settings" in the organization settings, what a new user
 * starts with): one table read by the construct, the desired-state schema, the planner, the
 * provider, the importer and the embedded server. Each entry is the name the constructs use,
 * the `PATCH /realm/user_settings_defaults` parameter (the key in the register's
 * `realm_user_settings_defaults`), how its value is written, Zulip's default and the feature
 * that added it. Alphabetical by name: the order of the props, of a plan's properties and of
 * an import (Zulip checks and writes them in the order of its view's signature, alphabetical by
 * wire name: `defaultUserSettingsByWire`).
 *
 * Value types, in natural terms (the wire form in brackets):
 * - `boolean`, `integer`: as they are (`Json[bool]`, `Json[int]`).
 * - `enum`: one of the names of `values` [its value there: a number for Zulip's integer
 *   choices, JSON-encoded; the same string for its string choices, sent plain].
 * - `emojiset`: an emoji set the server offers (`emojiset_choices` in the register).
 * - `sound`: a notification sound the server has (`available_notification_sounds`), or 'none'.
 *
 * Left out, as Zulip's endpoint leaves them out: `default_language` (set with the
 * organization's language, `PATCH /realm`), `enable_login_emails` and `allow_private_data_export`
 * (security and privacy, the user's own) and `enable_marketing_emails` (the sign-up form's).
 * Names follow Zulip's words in its interface: channel for stream, DM for private message,
 * organization for realm.
 */
export type DefaultUserSettingType = 'boolean' | 'integer' | 'enum' | 'emojiset' | 'sound';

export interface DefaultUserSettingInfo {
  /** The `PATCH /realm/user_settings_defaults` parameter and the register key. */
  readonly wire: string;
  readonly type: DefaultUserSettingType;
  /** Zulip's default for a new organization, in natural terms. */
  readonly default: string | number | boolean;
  /** The feature that introduced it, if newer than Zulip 10.2's baseline. */
  readonly feature?: FeatureName;
  /** An `enum`'s names, in Zulip's order, each with its wire value. */
  readonly values?: Readonly<Record<string, string | number>>;
  /** The names of `values` newer than Zulip 10.2's baseline, with the feature that added each. */
  readonly valueFeatures?: Readonly<Record<string, FeatureName>>;
  /** Smallest and largest integer Zulip takes. */
  readonly min?: number;
  readonly max?: number;
  /** What it is, in a few words, for readers of this table (the construct's TSDoc says more). */
  readonly what: string;
}

/** A value in natural terms (an enum by name). */
export type DefaultUserSettingValue = string | number | boolean;

/** The emoji sets Zulip has offered (`UserBaseSettings.EMOJISET_CHOICES`; `google-blob` before FL 442). */
export const EMOJISETS = ['google', 'twitter', 'text', 'google-blob'] as const;

/** `email_notifications_batching_period_seconds`: at most a week (`check_settings_values`). */
const MAX_BATCHING_PERIOD_SECONDS = 7 * 24 * 60 * 60;
/** A `PositiveSmallIntegerField`: what the database column holds. */
const SMALL_INT = { min: 0, max: 32767 } as const;

/** `AUTOMATICALLY_CHANGE_VISIBILITY_POLICY_*`. */
const VISIBILITY_POLICY = { on_participation: 1, on_send: 2, on_initiation: 3, never: 4 } as const;
const AUTOMATIC_ALWAYS_NEVER = { automatic: 1, always: 2, never: 3 } as const;
const bool = (what: string, d: boolean, feature?: FeatureName) =>
  ({ type: 'boolean', default: d, what, ...(feature ? { feature } : {}) }) as const;

export const DEFAULT_USER_SETTINGS = {
  automaticallyFollowTopicsPolicy: {
    wire: 'automatically_follow_topics_policy',
    type: 'enum',
    default: 'on_initiation',
    values: VISIBILITY_POLICY,
    what: 'topics followed automatically',
  },
  automaticallyFollowTopicsWhereMentioned: {
    wire: 'automatically_follow_topics_where_mentioned',
    ...bool('topics where the user is mentioned followed automatically', true),
  },
  automaticallyUnmuteTopicsInMutedChannelsPolicy: {
    wire: 'automatically_unmute_topics_in_muted_streams_policy',
    type: 'enum',
    default: 'on_send',
    values: VISIBILITY_POLICY,
    what: 'topics unmuted automatically in muted channels',
  },
  colorScheme: {
    wire: 'color_scheme',
    type: 'enum',
    default: 'automatic',
    values: { automatic: 1, dark: 2, light: 3 },
    what: 'color theme',
  },
  demoteInactiveChannels: {
    wire: 'demote_inactive_streams',
    type: 'enum',
    default: 'automatic',
    values: AUTOMATIC_ALWAYS_NEVER,
    what: 'inactive channels demoted in the left sidebar',
  },
  desktopIconCountDisplay: {
    wire: 'desktop_icon_count_display',
    type: 'enum',
    default: 'messages',
    values: { messages: 1, dm_mention_followed_topic: 2, dm_mention: 3, none: 4 },
    what: 'unread count badge of the desktop app and browser tab',
  },
  displayEmojiReactionUsers: {
    wire: 'display_emoji_reaction_users',
    ...bool('names of reacting users shown', true),
  },
  dmContentInDesktopNotifications: {
    wire: 'pm_content_in_desktop_notifications',
    ...bool('DM content in desktop notifications', true),
  },
  emailAddressVisibility: {
    wire: 'email_address_visibility',
    type: 'enum',
    // zerver/actions/create_realm.py get_email_address_visibility_default: admins, but
    // moderators for education and everyone for business organizations.
    default: 'admins',
    values: { everyone: 1, members: 2, admins: 3, nobody: 4, moderators: 5 },
    what: "who may see the user's real e-mail address",
  },
  emailNotificationsBatchingPeriodSeconds: {
    wire: 'email_notifications_batching_period_seconds',
    type: 'integer',
    default: 120,
    min: 1,
    max: MAX_BATCHING_PERIOD_SECONDS,
    what: 'delay before e-mail notifications are batched and sent (seconds)',
  },
  emojiset: { wire: 'emojiset', type: 'emojiset', default: 'google', what: 'emoji set' },
  enableChannelAudibleNotifications: {
    wire: 'enable_stream_audible_notifications',
    ...bool('audible notifications for channel messages', false),
  },
  enableChannelDesktopNotifications: {
    wire: 'enable_stream_desktop_notifications',
    ...bool('desktop notifications for channel messages', false),
  },
  enableChannelEmailNotifications: {
    wire: 'enable_stream_email_notifications',
    ...bool('e-mail notifications for channel messages', false),
  },
  enableChannelPushNotifications: {
    wire: 'enable_stream_push_notifications',
    ...bool('mobile notifications for channel messages', false),
  },
  enableDesktopNotifications: {
    wire: 'enable_desktop_notifications',
    ...bool('desktop notifications for DMs and mentions', true),
  },
  enableDigestEmails: {
    wire: 'enable_digest_emails',
    ...bool('digest e-mails when away', true),
  },
  enableDraftsSynchronization: {
    wire: 'enable_drafts_synchronization',
    ...bool('drafts synchronized to the server', true),
  },
  enableFollowedTopicAudibleNotifications: {
    wire: 'enable_followed_topic_audible_notifications',
    ...bool('audible notifications for followed topics', true),
  },
  enableFollowedTopicDesktopNotifications: {
    wire: 'enable_followed_topic_desktop_notifications',
    ...bool('desktop notifications for followed topics', true),
  },
  enableFollowedTopicEmailNotifications: {
    wire: 'enable_followed_topic_email_notifications',
    ...bool('e-mail notifications for followed topics', true),
  },
  enableFollowedTopicPushNotifications: {
    wire: 'enable_followed_topic_push_notifications',
    ...bool('mobile notifications for followed topics', true),
  },
  enableFollowedTopicWildcardMentionsNotify: {
    wire: 'enable_followed_topic_wildcard_mentions_notify',
    ...bool('notifications for @all mentions in followed topics', true),
  },
  enableOfflineEmailNotifications: {
    wire: 'enable_offline_email_notifications',
    ...bool('e-mail notifications for DMs and mentions when offline', true),
  },
  enableOfflinePushNotifications: {
    wire: 'enable_offline_push_notifications',
    ...bool('mobile notifications for DMs and mentions when offline', true),
  },
  enableOnlinePushNotifications: {
    wire: 'enable_online_push_notifications',
    ...bool('mobile notifications even when online', true),
  },
  enableSounds: {
    wire: 'enable_sounds',
    ...bool('audible notifications for DMs and mentions', true),
  },
  enterSends: { wire: 'enter_sends', ...bool('Enter sends a message', false) },
  fluidLayoutWidth: { wire: 'fluid_layout_width', ...bool('full-width display', false) },
  hideAiFeatures: { wire: 'hide_ai_features', ...bool('AI features hidden', false) },
  highContrastMode: { wire: 'high_contrast_mode', ...bool('high contrast mode', false) },
  leftSideUserlist: {
    wire: 'left_side_userlist',
    ...bool(
      'user list in the left sidebar in narrow windows (not in the web app since Zulip 6.0)',
      false,
    ),
  },
  messageContentInEmailNotifications: {
    wire: 'message_content_in_email_notifications',
    ...bool('message content in e-mail notifications', true),
  },
  notificationSound: {
    wire: 'notification_sound',
    type: 'sound',
    default: 'zulip',
    what: 'notification sound',
  },
  organizationNameInEmailNotificationsPolicy: {
    wire: 'realm_name_in_email_notifications_policy',
    type: 'enum',
    default: 'automatic',
    values: AUTOMATIC_ALWAYS_NEVER,
    what: 'organization name in the subject of notification e-mails',
  },
  presenceEnabled: {
    wire: 'presence_enabled',
    ...bool('availability shown to other users', true),
  },
  receivesTypingNotifications: {
    wire: 'receives_typing_notifications',
    ...bool("others' typing shown", true),
  },
  resolvedTopicNoticeAutoReadPolicy: {
    wire: 'resolved_topic_notice_auto_read_policy',
    type: 'enum',
    default: 'except_followed',
    values: { always: 'always', except_followed: 'except_followed', never: 'never' },
    feature: 'resolvedTopicNoticeAutoReadPolicy',
    what: 'resolved-topic notices marked as read automatically',
  },
  sendChannelTypingNotifications: {
    wire: 'send_stream_typing_notifications',
    ...bool('typing shown to others in channels', true),
  },
  sendDmTypingNotifications: {
    wire: 'send_private_typing_notifications',
    ...bool('typing shown to others in DMs', true),
  },
  sendReadReceipts: { wire: 'send_read_receipts', ...bool('read receipts sent', true) },
  starredMessageCounts: {
    wire: 'starred_message_counts',
    ...bool('number of starred messages shown', true),
  },
  translateEmoticons: {
    wire: 'translate_emoticons',
    ...bool('emoticons converted to emoji', false),
  },
  twentyFourHourTime: { wire: 'twenty_four_hour_time', ...bool('24-hour time', false) },
  userListStyle: {
    wire: 'user_list_style',
    type: 'enum',
    default: 'with_avatar',
    values: { compact: 1, with_status: 2, with_avatar: 3 },
    what: 'style of the user list',
  },
  webAnimateImagePreviews: {
    wire: 'web_animate_image_previews',
    type: 'enum',
    default: 'on_hover',
    values: { always: 'always', on_hover: 'on_hover', never: 'never' },
    what: 'animated images played in the message feed',
  },
  webChannelDefaultView: {
    wire: 'web_channel_default_view',
    type: 'enum',
    default: 'first_topic',
    values: { first_topic: 1, channel_feed: 2, topic_list: 3, top_unread: 4 },
    valueFeatures: {
      topic_list: 'webChannelDefaultViewTopicList',
      top_unread: 'webChannelDefaultViewTopUnread',
    },
    what: 'where a click on a channel leads',
  },
  webChannelUnreadsCountDisplayPolicy: {
    wire: 'web_stream_unreads_count_display_policy',
    type: 'enum',
    default: 'unmuted_channels',
    values: { all_channels: 1, unmuted_channels: 2, no_channels: 3 },
    what: 'channels shown with an unread count',
  },
  webEscapeNavigatesToHomeView: {
    wire: 'web_escape_navigates_to_home_view',
    ...bool('Escape goes to the home view', true),
  },
  webFontSizePx: {
    wire: 'web_font_size_px',
    type: 'integer',
    default: 16,
    ...SMALL_INT,
    what: 'font size (pixels; the web app offers 12 to 20)',
  },
  webHomeView: {
    wire: 'web_home_view',
    type: 'enum',
    default: 'inbox',
    values: { recent_topics: 'recent_topics', inbox: 'inbox', all_messages: 'all_messages' },
    what: 'home view (recent conversations, inbox or combined feed)',
  },
  webInboxShowChannelFolders: {
    wire: 'web_inbox_show_channel_folders',
    ...bool('channel folders in the inbox', true, 'webInboxShowChannelFolders'),
  },
  webLeftSidebarShowChannelFolders: {
    wire: 'web_left_sidebar_show_channel_folders',
    ...bool('channel folders in the left sidebar', true, 'webLeftSidebarShowChannelFolders'),
  },
  webLeftSidebarUnreadsCountSummary: {
    wire: 'web_left_sidebar_unreads_count_summary',
    ...bool(
      'unread counts summarized in the left sidebar',
      true,
      'webLeftSidebarUnreadsCountSummary',
    ),
  },
  webLineHeightPercent: {
    wire: 'web_line_height_percent',
    type: 'integer',
    default: 140,
    ...SMALL_INT,
    what: 'line spacing (percent)',
  },
  webMarkReadOnScrollPolicy: {
    wire: 'web_mark_read_on_scroll_policy',
    type: 'enum',
    default: 'always',
    values: { always: 1, conversation_only: 2, never: 3 },
    what: 'messages marked as read on scroll',
  },
  webNavigateToSentMessage: {
    wire: 'web_navigate_to_sent_message',
    ...bool('the view moves to a message just sent', true),
  },
  webSuggestUpdateTimezone: {
    wire: 'web_suggest_update_timezone',
    ...bool('an offer to update the time zone when it differs', true),
  },
  wildcardMentionsNotify: {
    wire: 'wildcard_mentions_notify',
    ...bool('notifications for @all mentions', true),
  },
} as const satisfies Record<string, DefaultUserSettingInfo>;
export type DefaultUserSettingName = keyof typeof DEFAULT_USER_SETTINGS;
export const DEFAULT_USER_SETTING_NAMES = Object.keys(
  DEFAULT_USER_SETTINGS,
) as DefaultUserSettingName[];

/**
 * The settings in the order of zerver/views/realm.py `update_realm_user_settings_defaults`'s
 * signature (alphabetical by wire name), the order Zulip checks and writes them in.
 */
export function defaultUserSettingsByWire(): DefaultUserSettingInfo[] {
  return (Object.values(DEFAULT_USER_SETTINGS) as DefaultUserSettingInfo[]).sort((a, b) =>
    a.wire < b.wire ? -1 : 1,
  );
}

/** The one key of the default user settings: one per organization. */
export const DEFAULT_USER_SETTINGS_KEY = 'organization';

/** The names of an `enum`, in Zulip's order. */
export function enumNames(info: DefaultUserSettingInfo): string[] {
  return Object.keys(info.values ?? {});
}

/** Problems with one declared value, before the server is asked, in words for the construct path. */
export function defaultUserSettingProblem(
  info: DefaultUserSettingInfo,
  value: unknown,
): string | undefined {
  switch (info.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'expected true or false';
    case 'integer':
      return wholeNumberProblem(value, info);
    case 'enum':
      return oneOfProblem(value, enumNames(info));
    case 'emojiset':
      return oneOfProblem(value, EMOJISETS);
    case 'sound':
      return typeof value === 'string' && value.length > 0
        ? undefined
        : "expected the name of a notification sound, or 'none'";
  }
}

/**
 * A register value in natural terms (an integer choice by name; one Zulip added after this
 * table stays a number). Undefined when the server did not send it.
 */
export function defaultUserSettingFromWire(
  info: DefaultUserSettingInfo,
  wire: unknown,
): DefaultUserSettingValue | undefined {
  if (wire === undefined || wire === null) return undefined;
  if (info.type === 'enum') {
    const name = nameOfWireValue(info.values ?? {}, wire);
    if (name !== undefined) return name;
  }
  return wire as DefaultUserSettingValue;
}

/** A value in natural terms as `PATCH /realm/user_settings_defaults` takes it. */
export function defaultUserSettingToWire(
  info: DefaultUserSettingInfo,
  value: DefaultUserSettingValue,
): string | number | boolean {
  if (info.type === 'enum' && typeof value === 'string' && Object.hasOwn(info.values ?? {}, value))
    return (info.values ?? {})[value] ?? value;
  return value;
}

/** The feature a declared value needs beyond its setting's (a newer choice of an enum). */
export function defaultUserSettingValueFeature(
  info: DefaultUserSettingInfo,
  value: unknown,
): FeatureName | undefined {
  const features = info.valueFeatures ?? {};
  return typeof value === 'string' && Object.hasOwn(features, value) ? features[value] : undefined;
}

/** Zulip's default of every setting a server at `featureLevel` has, by wire name in wire form. */
export function defaultUserSettingsWire(
  featureLevel: number,
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const info of Object.values(DEFAULT_USER_SETTINGS) as DefaultUserSettingInfo[])
    if (info.feature === undefined || supports(featureLevel, info.feature))
      out[info.wire] = defaultUserSettingToWire(info, info.default);
  return out;
}
