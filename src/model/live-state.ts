import { z } from 'zod';
import { intListSchema } from './int-list';
import { TOPICS_POLICIES } from './kinds';
import type { KindCollection } from './kinds';

/**
 * The live organization as read from Zulip, in one typed shape: Zulip IDs kept (apply needs
 * them), field names in camelCase, volatile fields (traffic, counts, rendered HTML) dropped.
 * The engine maps IDs to natural keys when it diffs. `zulip-cdk snapshot` writes exactly this
 * (no secrets are in it), and `plan --live FILE` reads it back.
 */

export const LIVE_STATE_FORMAT_VERSION = 1;

/** `Realm.PLAN_TYPE_LIMITED`: Zulip Cloud Free, where `ensure_not_on_limited_plan` refuses some writes. */
export const PLAN_TYPE_LIMITED = 2;

/** A group-setting value as Zulip sends it: a group ID, or an anonymous group. */
export const WireGroupSettingValueSchema = z.union([
  z.number().int(),
  z.strictObject({
    direct_members: z.array(z.number().int()),
    direct_subgroups: z.array(z.number().int()),
  }),
]);
export type WireGroupSettingValue = z.infer<typeof WireGroupSettingValueSchema>;

const permissions = z.record(z.string(), WireGroupSettingValueSchema);

export const LiveUserSchema = z.strictObject({
  id: z.number().int(),
  /** The real address (`delivery_email` where visible, else `email`). */
  email: z.string(),
  fullName: z.string(),
  role: z.number().int(),
  isActive: z.boolean(),
  isBot: z.boolean(),
  /** A bot's owner (Zulip deactivates a user's bots with the user). */
  botOwnerId: z.number().int().optional(),
  /**
   * Custom profile field values by field ID, as Zulip stores them (text; a user field's user
   * IDs as a JSON list); absent when the user has none (and in older snapshots).
   */
  profileData: z.record(z.string(), z.string()).optional(),
});
export type LiveUser = z.infer<typeof LiveUserSchema>;

export const LiveUserGroupSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  isSystemGroup: z.boolean(),
  deactivated: z.boolean(),
  creatorId: z.number().int().nullable(),
  /** Direct members, user IDs, sorted. */
  members: intListSchema(),
  /** Direct subgroups, group IDs, sorted. */
  subgroups: intListSchema(),
  /** By wire name, e.g. `can_manage_group`. */
  permissions,
});
export type LiveUserGroup = z.infer<typeof LiveUserGroupSchema>;

export const LiveChannelSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  private: z.boolean(),
  webPublic: z.boolean(),
  historyPublicToSubscribers: z.boolean(),
  defaultChannel: z.boolean(),
  /** null: the organization's default; -1: unlimited (as Zulip reports them). */
  messageRetentionDays: z.number().int().nullable(),
  topicsPolicy: z.enum(TOPICS_POLICIES).nullable(),
  folderId: z.number().int().nullable(),
  archived: z.boolean(),
  creatorId: z.number().int().nullable(),
  /** By wire name, e.g. `can_send_message_group`. */
  permissions,
  /** Subscribed user IDs, sorted; null when the reader could not see them. */
  subscribers: intListSchema().nullable(),
});
export type LiveChannel = z.infer<typeof LiveChannelSchema>;

export const LiveChannelFolderSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  archived: z.boolean(),
  order: z.number().int(),
});
export type LiveChannelFolder = z.infer<typeof LiveChannelFolderSchema>;

export const LiveLinkifierSchema = z.strictObject({
  id: z.number().int(),
  pattern: z.string(),
  urlTemplate: z.string(),
});
export type LiveLinkifier = z.infer<typeof LiveLinkifierSchema>;

export const LivePlaygroundSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  pygmentsLanguage: z.string(),
  urlTemplate: z.string(),
});
export type LivePlayground = z.infer<typeof LivePlaygroundSchema>;

export const LiveSavedSnippetSchema = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
});
export type LiveSavedSnippet = z.infer<typeof LiveSavedSnippetSchema>;

/** A default channel group (`realm_default_stream_groups` of `POST /register`). */
export const LiveDefaultChannelGroupSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** Channel IDs, as Zulip lists them (by channel name). */
  channelIds: z.array(z.number().int()),
});
export type LiveDefaultChannelGroup = z.infer<typeof LiveDefaultChannelGroupSchema>;
/** A custom emoji, deactivated ones included (Zulip keeps them). */
export const LiveCustomEmojiSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  deactivated: z.boolean(),
  authorId: z.number().int().nullable(),
  /** Where Zulip serves the image (`source_url`, relative to the site or absolute). */
  sourceUrl: z.string(),
  /**
   * SHA-256 and size of the image as uploaded (`<source_url>.original`, which Zulip keeps next
   * to the resized image), for active emoji; null when it could not be read.
   */
  image: z.strictObject({ sha256: z.string(), size: z.number().int() }).nullable(),
});
export type LiveCustomEmoji = z.infer<typeof LiveCustomEmojiSchema>;

/** A custom profile field (`custom_profile_fields` of `POST /register`). */
export const LiveCustomProfileFieldSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  /** Zulip's field type (1 short text ... 8 pronouns). */
  type: z.number().int(),
  hint: z.string(),
  /** As Zulip sends it: a JSON string (`""` for types without data). */
  fieldData: z.string(),
  order: z.number().int(),
  displayInProfileSummary: z.boolean(),
  required: z.boolean(),
  editableByUser: z.boolean(),
});
export type LiveCustomProfileField = z.infer<typeof LiveCustomProfileFieldSchema>;

/** The applying account's own settings on one channel it is subscribed to. */
export const LiveSubscriptionSettingsSchema = z.strictObject({
  channelId: z.number().int(),
  color: z.string(),
  isMuted: z.boolean(),
  pinToTop: z.boolean(),
  /** null: follows the user's global default. */
  desktopNotifications: z.boolean().nullable(),
  audibleNotifications: z.boolean().nullable(),
  pushNotifications: z.boolean().nullable(),
  emailNotifications: z.boolean().nullable(),
  wildcardMentionsNotify: z.boolean().nullable(),
});
export type LiveSubscriptionSettings = z.infer<typeof LiveSubscriptionSettingsSchema>;

/**
 * The organization's settings as `POST /register` reports them (`realm_<wire>`), by wire name:
 * `properties` as sent (channels by ID, -1 for none; `null` seconds for unlimited) for the
 * properties of `ORGANIZATION_PROPERTIES`, `permissions` for `ORGANIZATION_PERMISSIONS`. A
 * setting the server does not have (an older feature level) is absent.
 */
export const LiveOrganizationSettingsSchema = z.strictObject({
  properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  permissions,
});
export type LiveOrganizationSettings = z.infer<typeof LiveOrganizationSettingsSchema>;

export const ServerInfoSchema = z.strictObject({
  /** The site URL, e.g. `https://chat.example.com`. */
  site: z.string(),
  featureLevel: z.number().int(),
  version: z.string(),
  realmName: z.string(),
  limits: z.strictObject({
    channelName: z.number().int(),
    channelDescription: z.number().int(),
    channelFolderName: z.number().int().nullable(),
    channelFolderDescription: z.number().int().nullable(),
  }),
  /** Whether the server allows web-public channels (`server_web_public_streams_enabled` and `realm_enable_spectator_access`). */
  webPublicChannelsEnabled: z.boolean(),
  /**
   * `realm_plan_type` (zerver/models/realms.py: 1 self-hosted, 2 Zulip Cloud Free, 3 Cloud
   * Standard, 4 Standard free, 10 Plus); null when unknown (snapshots made before it was read).
   */
  planType: z.number().int().nullable().default(null),
  /**
   * Whether Zulip posts notices into a channel about changes to it (renames, description,
   * privacy, posting permission, retention, topics policy, archiving): the realm's
   * `send_channel_events_messages` from feature level 434; always before it.
   */
  channelEventsMessages: z.boolean().default(true),
});
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

export const LiveStateSchema = z.strictObject({
  formatVersion: z.literal(LIVE_STATE_FORMAT_VERSION),
  server: ServerInfoSchema,
  /** The account the state was read with (and that apply will act as). */
  me: z.strictObject({ userId: z.number().int(), email: z.string(), role: z.number().int() }),
  /** Active and deactivated users, bots included. */
  users: z.array(LiveUserSchema),
  /** System groups, named groups, deactivated groups. */
  userGroups: z.array(LiveUserGroupSchema),
  /** Every channel the account can see, archived ones included. */
  channels: z.array(LiveChannelSchema),
  /** Archived folders included, sorted by order. Empty when the server has no folders. */
  channelFolders: z.array(LiveChannelFolderSchema),
  /** In processing order. */
  linkifiers: z.array(LiveLinkifierSchema),
  playgrounds: z.array(LivePlaygroundSchema),
  /** The applying account's own snippets. */
  savedSnippets: z.array(LiveSavedSnippetSchema),
  /** Custom emoji by ID; absent in snapshots made before they were read. */
  customEmoji: z.array(LiveCustomEmojiSchema).default([]),
  /** The applying account's own subscriptions. */
  subscriptionSettings: z.array(LiveSubscriptionSettingsSchema),
  /** The organization's settings; null in snapshots made before they were read. */
  organizationSettings: LiveOrganizationSettingsSchema.nullable().default(null),
  /**
   * Sorted by name; empty for a guest, to whom Zulip shows none. Absent in snapshots made
   * before default channel groups were read.
   */
  defaultChannelGroups: z.array(LiveDefaultChannelGroupSchema).default([]),
  /** Sorted by order (Zulip's display order); absent in snapshots made before they were read. */
  customProfileFields: z.array(LiveCustomProfileFieldSchema).default([]),
  /** How many HTTP requests reading it took. */
  requestCount: z.number().int().optional(),
});
export type LiveState = z.infer<typeof LiveStateSchema>;
/** A compile error when a kind of `RESOURCE_KINDS` has no collection in the live state. */
type _EveryKindIsLive = Pick<LiveState, KindCollection>;
