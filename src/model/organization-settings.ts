import { isUrl } from './custom-profile-fields';
import type { FeatureName } from './features';

/**
 * The organization's own settings (Zulip's `Realm.property_types` and its channel-valued
 * settings, zerver/models/realms.py) that zulip-cdk manages: one table read by the construct,
 * the desired-state schema, the planner, the provider, the importer and the embedded server.
 * Each entry is the name the constructs use, the `PATCH /realm` parameter (the register field
 * is `realm_<wire>`), how its value is written, Zulip's default, and who may change it.
 *
 * Value types, in natural terms (the wire form in brackets):
 * - `string`, `boolean`, `integer`: as they are.
 * - `seconds`: a positive number of seconds, or `'unlimited'` [null; sent as `"unlimited"`].
 * - `retention`: a positive number of days, or `'unlimited'` [-1; sent as `"unlimited"`].
 * - `channel`: a channel's name, or `null` for none [the channel's ID, or -1].
 * - `enum`: one of `values` [the same string].
 * - `choice`: one of the names of `choices` [its number there, JSON-encoded].
 * - `url`: a URL, or `null` for the server's own [the URL, or none; `null` sent as
 *   `"default"`, JSON-encoded].
 *
 * Left out, on purpose (the README says why): `authentication_methods` (server-configured
 * backends), `push_notifications_enabled` (the server's push service sets it), `org_type` and
 * `string_id` (not policy; the subdomain only for demo organizations), and the icon and logo
 * (uploads). Which video call providers a server offers depends on its configuration: the plan
 * checks `videoChatProvider` against the register's `realm_available_video_chat_providers`.
 */
export type OrganizationPropertyType =
  | 'string'
  | 'boolean'
  | 'integer'
  | 'seconds'
  | 'retention'
  | 'channel'
  | 'enum'
  | 'choice'
  | 'url';

export interface OrganizationPropertyInfo {
  /** The `PATCH /realm` parameter; `realm_<wire>` in `POST /register`. */
  readonly wire: string;
  readonly type: OrganizationPropertyType;
  /** Zulip's default for a new organization, in natural terms. */
  readonly default: string | number | boolean | null;
  /** The feature that introduced it, if newer than Zulip 10.2's baseline. */
  readonly feature?: FeatureName;
  /** Changing it needs an organization owner (zerver/views/realm.py `update_realm`). */
  readonly ownerOnly?: boolean;
  /** The values an `enum` takes. */
  readonly values?: readonly string[];
  /** A `choice`'s names, in Zulip's order, each with its number. */
  readonly choices?: Readonly<Record<string, number>>;
  /** Longest string Zulip takes (`StringConstraints(max_length=...)`). */
  readonly maxLength?: number;
  /** Smallest and largest integer Zulip takes. */
  readonly min?: number;
  readonly max?: number;
  /** What it is, for the plan's words and the TSDoc. */
  readonly what: string;
}

/**
 * `Realm.VIDEO_CHAT_PROVIDERS` by name (zerver/models/realms.py; ID 2 was Google Hangouts).
 * Zoom and BigBlueButton are offered only where the server configures them
 * (`Realm.get_enabled_video_chat_providers`).
 */
export const VIDEO_CHAT_PROVIDERS = {
  disabled: 0,
  jitsi_meet: 1,
  zoom: 3,
  big_blue_button: 4,
  zoom_server_to_server: 5,
} as const;

/** `Realm.GIF_RATING_OPTIONS` by name: the highest rating of the GIFs offered. */
export const GIF_RATINGS = { disabled: 0, g: 1, pg: 2, 'pg-13': 3, r: 4 } as const;

/** zerver/views/realm.py `JITSI_SERVER_URL_MAX_LENGTH`. */
export const JITSI_SERVER_URL_MAX_LENGTH = 200;

/** `Realm.MAX_REALM_NAME_LENGTH`, `MAX_REALM_DESCRIPTION_LENGTH`, `MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH`. */
export const ORGANIZATION_LIMITS = { name: 40, description: 1000, welcomeMessage: 8000 } as const;

/**
 * The largest number the realm's integer columns hold (`waiting_period_threshold`, the time
 * limits and `message_retention_days` are Django `IntegerField`s and `PositiveIntegerField`s,
 * PostgreSQL `integer`): Zulip checks no upper bound, and a larger value fails when the realm
 * is saved, a server error (`do_set_realm_property`).
 */
export const REALM_INTEGER_MAX = 2147483647;

export const ORGANIZATION_PROPERTIES = {
  name: {
    wire: 'name',
    type: 'string',
    default: '',
    maxLength: ORGANIZATION_LIMITS.name,
    what: 'organization name',
  },
  description: {
    wire: 'description',
    type: 'string',
    default: '',
    maxLength: ORGANIZATION_LIMITS.description,
    what: 'organization description',
  },
  defaultLanguage: {
    wire: 'default_language',
    type: 'string',
    default: 'en',
    what: 'language of new users and of the organization',
  },
  defaultCodeBlockLanguage: {
    wire: 'default_code_block_language',
    type: 'string',
    default: '',
    what: 'default language of code blocks',
  },
  welcomeMessageCustomText: {
    wire: 'welcome_message_custom_text',
    type: 'string',
    default: '',
    feature: 'welcomeMessageCustomText',
    maxLength: ORGANIZATION_LIMITS.welcomeMessage,
    what: "custom text of Welcome Bot's message",
  },
  messageRetentionDays: {
    wire: 'message_retention_days',
    type: 'retention',
    default: 'unlimited',
    ownerOnly: true,
    what: 'message retention period (days)',
  },
  newChannelAnnouncementsChannel: {
    wire: 'new_stream_announcements_stream_id',
    type: 'channel',
    default: null,
    what: 'channel for new channel announcements',
  },
  signupAnnouncementsChannel: {
    wire: 'signup_announcements_stream_id',
    type: 'channel',
    default: null,
    what: 'channel for new user announcements',
  },
  zulipUpdateAnnouncementsChannel: {
    wire: 'zulip_update_announcements_stream_id',
    type: 'channel',
    default: null,
    what: 'channel for Zulip update announcements',
  },
  moderationRequestChannel: {
    wire: 'moderation_request_channel_id',
    type: 'channel',
    default: null,
    what: 'channel for moderation requests',
  },
  waitingPeriodThreshold: {
    wire: 'waiting_period_threshold',
    type: 'integer',
    default: 0,
    min: 0,
    max: REALM_INTEGER_MAX,
    ownerOnly: true,
    what: 'waiting period before new members become full members (days)',
  },
  topicsPolicy: {
    wire: 'topics_policy',
    type: 'enum',
    default: 'allow_empty_topic',
    values: ['allow_empty_topic', 'disable_empty_topic'],
    feature: 'topicsPolicy',
    what: 'whether messages may be sent without a topic',
  },
  enableSpectatorAccess: {
    wire: 'enable_spectator_access',
    type: 'boolean',
    default: false,
    what: 'web-public channels readable without an account',
  },
  allowMessageEditing: {
    wire: 'allow_message_editing',
    type: 'boolean',
    default: true,
    what: 'message editing',
  },
  messageContentEditLimitSeconds: {
    wire: 'message_content_edit_limit_seconds',
    type: 'seconds',
    default: 600,
    what: 'time limit for editing messages (seconds)',
  },
  messageContentDeleteLimitSeconds: {
    wire: 'message_content_delete_limit_seconds',
    type: 'seconds',
    default: 600,
    what: 'time limit for deleting own messages (seconds)',
  },
  moveMessagesWithinChannelLimitSeconds: {
    wire: 'move_messages_within_stream_limit_seconds',
    type: 'seconds',
    default: 604800,
    what: 'time limit for moving messages between topics (seconds)',
  },
  moveMessagesBetweenChannelsLimitSeconds: {
    wire: 'move_messages_between_streams_limit_seconds',
    type: 'seconds',
    default: 604800,
    what: 'time limit for moving messages between channels (seconds)',
  },
  messageEditHistoryVisibilityPolicy: {
    wire: 'message_edit_history_visibility_policy',
    type: 'enum',
    default: 'all',
    values: ['all', 'moves', 'none'],
    what: 'who sees the edit history of messages',
  },
  inviteRequired: {
    wire: 'invite_required',
    type: 'boolean',
    default: true,
    ownerOnly: true,
    what: 'an invitation is required to join',
  },
  emailsRestrictedToDomains: {
    wire: 'emails_restricted_to_domains',
    type: 'boolean',
    default: false,
    ownerOnly: true,
    what: "sign-ups restricted to the organization's e-mail domains",
  },
  disallowDisposableEmailAddresses: {
    wire: 'disallow_disposable_email_addresses',
    type: 'boolean',
    default: true,
    ownerOnly: true,
    what: 'disposable e-mail addresses refused',
  },
  emailChangesDisabled: {
    wire: 'email_changes_disabled',
    type: 'boolean',
    default: false,
    what: 'users may not change their e-mail address',
  },
  nameChangesDisabled: {
    wire: 'name_changes_disabled',
    type: 'boolean',
    default: false,
    what: 'users may not change their name',
  },
  avatarChangesDisabled: {
    wire: 'avatar_changes_disabled',
    type: 'boolean',
    default: false,
    what: 'users may not change their avatar',
  },
  requireUniqueNames: {
    wire: 'require_unique_names',
    type: 'boolean',
    default: false,
    what: 'user names must be unique',
  },
  enableReadReceipts: {
    wire: 'enable_read_receipts',
    type: 'boolean',
    default: false,
    what: 'read receipts',
  },
  enableGuestUserIndicator: {
    wire: 'enable_guest_user_indicator',
    type: 'boolean',
    default: true,
    what: '"(guest)" shown after the names of guests',
  },
  enableGuestUserDmWarning: {
    wire: 'enable_guest_user_dm_warning',
    type: 'boolean',
    default: true,
    what: 'a warning when a direct message has a guest recipient',
  },
  messageContentAllowedInEmailNotifications: {
    wire: 'message_content_allowed_in_email_notifications',
    type: 'boolean',
    default: true,
    what: 'message content in e-mail notifications',
  },
  sendWelcomeEmails: {
    wire: 'send_welcome_emails',
    type: 'boolean',
    default: true,
    what: 'welcome e-mails to new users',
  },
  sendChannelEventsMessages: {
    wire: 'send_channel_events_messages',
    type: 'boolean',
    default: false,
    feature: 'channelEventsMessagesSetting',
    what: 'Notification Bot posts channel events into the channel',
  },
  digestEmailsEnabled: {
    wire: 'digest_emails_enabled',
    type: 'boolean',
    default: false,
    what: 'weekly digest e-mails to inactive users',
  },
  digestWeekday: {
    wire: 'digest_weekday',
    type: 'integer',
    default: 1,
    min: 0,
    max: 6,
    what: 'day of the week digests are sent (0 is Monday)',
  },
  inlineImagePreview: {
    wire: 'inline_image_preview',
    type: 'boolean',
    default: true,
    what: 'previews of linked images',
  },
  inlineUrlEmbedPreview: {
    wire: 'inline_url_embed_preview',
    type: 'boolean',
    default: false,
    what: 'previews of linked websites',
  },
  videoChatProvider: {
    wire: 'video_chat_provider',
    type: 'choice',
    default: 'jitsi_meet',
    choices: VIDEO_CHAT_PROVIDERS,
    what: 'video call provider',
  },
  jitsiServerUrl: {
    wire: 'jitsi_server_url',
    type: 'url',
    default: null,
    maxLength: JITSI_SERVER_URL_MAX_LENGTH,
    what: 'Jitsi Meet server for video calls',
  },
  giphyRating: {
    wire: 'giphy_rating',
    type: 'choice',
    default: 'g',
    choices: GIF_RATINGS,
    what: 'highest rating of the GIFs offered',
  },
  requireE2eePushNotifications: {
    wire: 'require_e2ee_push_notifications',
    type: 'boolean',
    default: false,
    feature: 'requireE2eePushNotifications',
    what: 'message content only in end-to-end encrypted push notifications',
  },
  wantAdvertiseInCommunitiesDirectory: {
    wire: 'want_advertise_in_communities_directory',
    type: 'boolean',
    default: false,
    what: "listed in Zulip's communities directory",
  },
} as const satisfies Record<string, OrganizationPropertyInfo>;
export type OrganizationPropertyName = keyof typeof ORGANIZATION_PROPERTIES;
export const ORGANIZATION_PROPERTY_NAMES = Object.keys(
  ORGANIZATION_PROPERTIES,
) as OrganizationPropertyName[];

/** A property's value in natural terms (channels by name). */
export type OrganizationPropertyValue = string | number | boolean | null;

/** The one key of the organization settings: one per organization. */
export const ORGANIZATION_SETTINGS_KEY = 'organization';

/**
 * The language codes Zulip offers for `default_language` (`get_available_language_codes`,
 * zerver/lib/i18n.py: English and the translations at least 5% done). The list follows the
 * server's translations; this one is what the embedded server accepts.
 */
export const LANGUAGE_CODES = [
  'ar',
  'be',
  'bg',
  'bn',
  'ca',
  'cs',
  'cy',
  'da',
  'de',
  'el',
  'en',
  'en_GB',
  'eo',
  'es',
  'fa',
  'fi',
  'fr',
  'gl',
  'gu',
  'hi',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'ml',
  'mn',
  'nl',
  'no',
  'pl',
  'pt',
  'pt_BR',
  'pt_PT',
  'ro',
  'ru',
  'si',
  'sk',
  'sr',
  'sv',
  'ta',
  'te',
  'tl',
  'tr',
  'uk',
  'vi',
  'zh-hans',
  'zh-hant',
] as const;

/** What is wrong with a value that must be one of `names`, in words. */
export function oneOfProblem(value: unknown, names: readonly string[]): string | undefined {
  return typeof value === 'string' && names.includes(value)
    ? undefined
    : `expected one of ${names.map((v) => `'${v}'`).join(', ')}`;
}

/** The name of `table` whose wire value is `wire` (Zulip's numbered choices); undefined for none. */
export function nameOfWireValue(
  table: Readonly<Record<string, unknown>>,
  wire: unknown,
): string | undefined {
  return Object.entries(table).find(([, v]) => v === wire)?.[0];
}

/** What is wrong with a whole number between `min` and `max` (each optional), in words. */
export function wholeNumberProblem(
  value: unknown,
  { min, max }: { readonly min?: number; readonly max?: number },
): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return 'expected a whole number';
  if (min !== undefined && value < min) return `must be at least ${min}`;
  if (max !== undefined && value > max) return `must be at most ${max}`;
  return undefined;
}

/** Problems with one declared property value, in words for the construct path. */
export function organizationPropertyProblem(
  info: OrganizationPropertyInfo,
  value: unknown,
): string | undefined {
  switch (info.type) {
    case 'string':
      if (typeof value !== 'string') return 'expected a string';
      if (info.maxLength !== undefined && [...value].length > info.maxLength)
        return `is ${[...value].length} characters long; Zulip allows at most ${info.maxLength}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'expected true or false';
    case 'integer':
      return wholeNumberProblem(value, info);
    case 'seconds':
    case 'retention':
      if (value === 'unlimited') return undefined;
      if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
        return `expected a positive whole number of ${info.type === 'seconds' ? 'seconds' : 'days'}, or 'unlimited'`;
      if (value > REALM_INTEGER_MAX)
        return `must be at most ${REALM_INTEGER_MAX} (what Zulip's database column holds), or 'unlimited'`;
      return undefined;
    case 'channel':
      return value === null || typeof value === 'string'
        ? undefined
        : 'expected a Channel construct, a channel name, or null for none';
    case 'enum':
      return oneOfProblem(value, info.values ?? []);
    case 'choice':
      return oneOfProblem(value, Object.keys(info.choices ?? {}));
    case 'url':
      if (value === null) return undefined;
      if (typeof value !== 'string') return "expected a URL, or null for the server's own";
      if (info.maxLength !== undefined && [...value].length > info.maxLength)
        return `is ${[...value].length} characters long; Zulip allows at most ${info.maxLength}`;
      // zerver/views/realm.py check_jitsi_url: check_capped_url (Django's URLValidator).
      return isUrl(value)
        ? undefined
        : "is not a URL Zulip takes (http, https, ftp or ftps, with a host); null for the server's own";
  }
}

/**
 * A register value (`realm_<wire>`) in natural terms; channels by ID (the caller names them).
 * Returns undefined when the server did not send it.
 */
export function organizationPropertyFromWire(
  info: OrganizationPropertyInfo,
  wire: unknown,
): OrganizationPropertyValue | undefined {
  if (wire === undefined) return undefined;
  switch (info.type) {
    case 'seconds':
      return wire === null ? 'unlimited' : (wire as number);
    case 'retention':
      return wire === -1 || wire === null ? 'unlimited' : (wire as number);
    case 'channel':
      return wire === -1 || wire === null ? null : (wire as number);
    case 'choice':
      // A number this version has no name for stays a number (the plan shows it).
      return nameOfWireValue(info.choices ?? {}, wire) ?? (wire as number);
    default:
      return wire as OrganizationPropertyValue;
  }
}
