import { z } from 'zod';
import { kindCollectionSchemas } from './kinds';

/**
 * The live organization as read from Zulip, in one typed shape: Zulip IDs kept (apply needs
 * them), field names in camelCase, volatile fields (traffic, counts, rendered HTML) dropped.
 * The engine maps IDs to natural keys when it diffs. `zulip-cdk snapshot` writes exactly this
 * (no secrets are in it), and `plan --live FILE` reads it back. Each kind's schemas are in its
 * spec file (`src/model/kinds/<kind>.ts`, `liveSchema`); they are re-exported here.
 */

export const LIVE_STATE_FORMAT_VERSION = 1;

/** `Realm.PLAN_TYPE_LIMITED`: Zulip Cloud Free, where `ensure_not_on_limited_plan` refuses some writes. */
export const PLAN_TYPE_LIMITED = 2;

export { WireGroupSettingValueSchema, type WireGroupSettingValue } from './kinds/schemas';
export { LiveChannelFolderSchema, type LiveChannelFolder } from './kinds/channel-folder';
export { LiveUserGroupSchema, type LiveUserGroup } from './kinds/user-group';
export { LiveChannelSchema, type LiveChannel } from './kinds/channel';
export { LiveLinkifierSchema, type LiveLinkifier } from './kinds/linkifier';
export { LivePlaygroundSchema, type LivePlayground } from './kinds/playground';
export { LiveSavedSnippetSchema, type LiveSavedSnippet } from './kinds/saved-snippet';
export { LiveCustomEmojiSchema, type LiveCustomEmoji } from './kinds/custom-emoji';
export { LiveUserSchema, type LiveUser } from './kinds/user';
export {
  LiveSubscriptionSettingsSchema,
  type LiveSubscriptionSettings,
} from './kinds/subscription-settings';
export {
  LiveOrganizationSettingsSchema,
  type LiveOrganizationSettings,
} from './kinds/organization-settings';
export {
  LiveDefaultUserSettingsSchema,
  type LiveDefaultUserSettings,
} from './kinds/default-user-settings';
export {
  LiveDefaultChannelGroupSchema,
  type LiveDefaultChannelGroup,
} from './kinds/default-channel-group';
export {
  LiveCustomProfileFieldSchema,
  type LiveCustomProfileField,
} from './kinds/custom-profile-field';
export {
  LiveAllowedDomainSchema,
  allowedDomainIds,
  type LiveAllowedDomain,
} from './kinds/allowed-domain';

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
   * When `webPublicChannelsEnabled` is false: whether the server itself allows web-public
   * channels (`server_web_public_streams_enabled`, its WEB_PUBLIC_STREAMS_ENABLED), so that
   * turning the organization's spectator access on enables them. Absent when
   * `webPublicChannelsEnabled` is true (it is implied), and in snapshots made before it was read.
   */
  webPublicChannelsAllowed: z.boolean().optional(),
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
  /**
   * The video call providers the server offers, by name (`realm_available_video_chat_providers`:
   * Zoom and BigBlueButton only where the server configures them); absent when unknown
   * (snapshots made before it was read).
   */
  videoChatProviders: z.array(z.string()).optional(),
  /**
   * The server's time when the state was read (the register response's `Date`, else the
   * reader's clock), ISO. What the plan judges the waiting period for full members by; not
   * part of the state's digest (`liveStateDigest`). Absent in older snapshots.
   */
  readAt: z.string().optional(),
});
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

export const LiveStateSchema = z.strictObject({
  formatVersion: z.literal(LIVE_STATE_FORMAT_VERSION),
  server: ServerInfoSchema,
  /** The account the state was read with (and that apply will act as). */
  me: z.strictObject({ userId: z.number().int(), email: z.string(), role: z.number().int() }),
  /** Every kind's collection (`liveSchema` in its spec), in the order of `RESOURCE_KINDS`. */
  ...kindCollectionSchemas('liveSchema'),
  /** How many HTTP requests reading it took. */
  requestCount: z.number().int().optional(),
});
export type LiveState = z.infer<typeof LiveStateSchema>;
