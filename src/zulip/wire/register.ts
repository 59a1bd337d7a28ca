import { z } from 'zod';
import { inPlace } from '../../model/check-in-place';
import { WireRealmEmojiSchema } from './realm-emoji';
import { WireChannelSchema } from './channel';
import { WireChannelFolderSchema } from './channel-folder';
import { ORGANIZATION_PROPERTIES } from '../../model/organization-settings';
import type { OrganizationPropertyType } from '../../model/organization-settings';
import { ORGANIZATION_PERMISSIONS } from '../../model/permissions';
import { WireGroupSettingSchema, successWith } from './common';
import { WireDefaultStreamGroupSchema } from './default-stream-group';
import { WireCustomProfileFieldSchema } from './custom-profile-field';
import { WireLinkifierSchema } from './linkifier';
import { WirePlaygroundSchema } from './playground';
import { WireRealmDomainSchema } from './realm-domain';
import { WireSavedSnippetSchema } from './saved-snippet';
import { WireSubscriptionSchema } from './subscription';
import { WireUserSchema } from './user';
import { WireUserGroupSchema } from './user-group';
import { WireUserSettingsDefaultsSchema } from './user-settings-defaults';

/** `client_capabilities` of `POST /register`. */
export interface ClientCapabilities {
  /**
   * Required whenever `client_capabilities` is sent (zerver/lib/events.py `ClientCapabilities`:
   * Zulip answers 400 `client_capabilities["notification_settings_null"] field is missing`).
   * `true` keeps a subscription's notification settings null when they follow the user's
   * defaults; with `false` Zulip fills in the user's global defaults (`post_process_state`).
   */
  readonly notification_settings_null: boolean;
  readonly bulk_message_deletion?: boolean | undefined;
  readonly user_avatar_url_field_optional?: boolean | undefined;
  readonly stream_typing_notifications?: boolean | undefined;
  readonly user_settings_object?: boolean | undefined;
  readonly linkifier_url_template?: boolean | undefined;
  readonly user_list_incomplete?: boolean | undefined;
  readonly include_deactivated_groups?: boolean | undefined;
  readonly archived_channels?: boolean | undefined;
  readonly empty_topic_name?: boolean | undefined;
  readonly simplified_presence_events?: boolean | undefined;
}

/** `POST /register` parameters. */
export interface RegisterParams {
  readonly apply_markdown?: boolean | undefined;
  readonly client_gravatar?: boolean | undefined;
  /**
   * `'partial'` needs FL 412. A plain string literal on the wire (`Literal["true", "false",
   * "partial"]` in zerver/views/events_register.py), never JSON-quoted.
   */
  readonly include_subscribers?: boolean | 'partial' | undefined;
  readonly slim_presence?: boolean | undefined;
  readonly presence_history_limit_days?: number | undefined;
  readonly event_types?: readonly string[] | undefined;
  readonly all_public_streams?: boolean | undefined;
  readonly client_capabilities?: ClientCapabilities | undefined;
  readonly fetch_event_types?: readonly string[] | undefined;
  readonly narrow?: readonly (readonly string[])[] | undefined;
}

/**
 * The register call that reads a whole organization in one request (NOTES 2.1). Follow it
 * with `deleteEventQueue(queue_id)`.
 */
export const ORG_READ_REGISTER_PARAMS = {
  fetch_event_types: [
    'realm',
    'realm_user',
    'realm_user_groups',
    'subscription',
    'default_streams',
    'default_stream_groups',
    'realm_linkifiers',
    'realm_playgrounds',
    'realm_emoji',
    'saved_snippets',
    'channel_folders',
    // Not 'stream': Zulip's `streams` lists the channels the subscription lists already hold,
    // with the same fields (`do_get_streams(include_all=True)` and
    // `gather_subscriptions_helper` both follow metadata access), about a fifth of the body.
    'custom_profile_fields',
    // The allowed domains: two fields each, sent to every account (no ID).
    'realm_domains',
    'realm_user_settings_defaults',
  ],
  include_subscribers: true,
  client_capabilities: {
    // Null notification settings mean "as the user's defaults": the configuration's `inherit`.
    notification_settings_null: true,
    linkifier_url_template: true,
    include_deactivated_groups: true,
    archived_channels: true,
    empty_topic_name: true,
    user_list_incomplete: false,
  },
} as const satisfies RegisterParams;

/**
 * The `POST /register` response: only what zulip-cdk reads is typed; everything else passes
 * through. The lists of users, groups and channels (a million subscriber IDs and 80 MB of JSON
 * at the largest sizes) are checked in place, not copied (`inPlace`, issue 17).
 */
export const RegisterResponseSchema = successWith({
  queue_id: z.string().nullable().optional(),
  last_event_id: z.number().int().optional(),
  /** The client-side timeout to use for `GET /events` (Zulip: 90 s, above its 45 s heartbeat). */
  event_queue_longpoll_timeout_seconds: z.number().optional(),
  /** Absent on servers older than Zulip 3.0, which count as feature level 0. */
  zulip_feature_level: z.number().int().default(0),
  zulip_version: z.string(),
  zulip_merge_base: z.string().optional(),
  user_id: z.number().int().optional(),
  email: z.string().optional(),
  delivery_email: z.string().optional(),
  full_name: z.string().optional(),
  is_admin: z.boolean().optional(),
  is_owner: z.boolean().optional(),
  user_role: z.number().int().optional(),
  realm_name: z.string().optional(),
  realm_plan_type: z.number().int().optional(),
  max_stream_name_length: z.number().int().optional(),
  max_stream_description_length: z.number().int().optional(),
  max_topic_length: z.number().int().optional(),
  max_message_length: z.number().int().optional(),
  max_channel_folder_name_length: z.number().int().optional(),
  max_channel_folder_description_length: z.number().int().optional(),
  max_bulk_new_subscription_messages: z.number().int().optional(),
  server_web_public_streams_enabled: z.boolean().optional(),
  realm_enable_spectator_access: z.boolean().optional(),
  /** FL 434. */
  realm_send_channel_events_messages: z.boolean().optional(),
  /** `Realm.get_enabled_video_chat_providers`: by name, the providers this server offers. */
  realm_available_video_chat_providers: z
    .record(z.string(), z.looseObject({ id: z.number().int() }))
    .optional(),
  server_supported_permission_settings: z.looseObject({}).optional(),
  realm_users: inPlace(z.array(WireUserSchema)).optional(),
  realm_non_active_users: inPlace(z.array(WireUserSchema)).optional(),
  realm_bots: z.array(z.looseObject({})).optional(),
  cross_realm_bots: z.array(z.looseObject({})).optional(),
  realm_user_groups: inPlace(z.array(WireUserGroupSchema)).optional(),
  subscriptions: inPlace(z.array(WireSubscriptionSchema)).optional(),
  unsubscribed: inPlace(z.array(WireSubscriptionSchema)).optional(),
  never_subscribed: inPlace(z.array(WireSubscriptionSchema)).optional(),
  /** Channel IDs since FL 330; channel objects before. */
  realm_default_streams: z.array(z.union([z.number().int(), z.looseObject({})])).optional(),
  /** Empty for a guest (zerver/lib/events.py `fetch_initial_state_data`). */
  realm_default_stream_groups: z.array(WireDefaultStreamGroupSchema).optional(),
  custom_profile_fields: z.array(WireCustomProfileFieldSchema).optional(),
  realm_linkifiers: z.array(WireLinkifierSchema).optional(),
  realm_playgrounds: z.array(WirePlaygroundSchema).optional(),
  realm_domains: z.array(WireRealmDomainSchema).optional(),
  realm_emoji: z.record(z.string(), WireRealmEmojiSchema).optional(),
  saved_snippets: z.array(WireSavedSnippetSchema).optional(),
  channel_folders: z.array(WireChannelFolderSchema).optional(),
  streams: inPlace(z.array(WireChannelSchema)).optional(),
  realm_user_settings_defaults: WireUserSettingsDefaultsSchema.optional(),
});
/** The {@link ZulipClient.register} response (`POST /register`), as parsed. */
export type RegisterResponse = z.infer<typeof RegisterResponseSchema>;

/** `GET /events` parameters (zerver/tornado/views.py get_events_backend). */
export interface GetEventsParams {
  /** The queue `POST /register` returned. */
  readonly queue_id: string;
  /** The highest event ID received and acknowledged; events up to it are dropped from the queue. */
  readonly last_event_id: number;
  /** Answer at once, with no events if there are none, instead of long-polling. */
  readonly dont_block?: boolean;
}

/**
 * One event of a queue: every event has an `id` and a `type`; the rest depends on the type (and
 * `op`), described in Zulip's API documentation (`GET /events`). Kept loose: a newer server's
 * fields pass through.
 */
export const WireEventSchema = z.looseObject({
  id: z.number().int(),
  type: z.string(),
  op: z.string().optional(),
});
/** One event of a queue, as parsed by {@link WireEventSchema}. */
export type WireEvent = z.infer<typeof WireEventSchema>;

/** The `GET /events` response: the events newer than `last_event_id` (a heartbeat when idle). */
export const GetEventsResponseSchema = successWith({
  events: z.array(WireEventSchema),
  queue_id: z.string().optional(),
});
/** The {@link ZulipClient.getEvents} response (`GET /events`), as parsed. */
export type GetEventsResponse = z.infer<typeof GetEventsResponseSchema>;
const REALM_PROPERTY_WIRE: Record<OrganizationPropertyType, z.ZodType> = {
  string: z.string(),
  boolean: z.boolean(),
  integer: z.number().int(),
  seconds: z.number().int().nullable(),
  retention: z.number().int(),
  channel: z.number().int(),
  enum: z.string(),
  choice: z.number().int(),
  url: z.string().nullable(),
};

/**
 * The organization's settings in a `POST /register` response (`realm_<wire>`, fetched with
 * `realm`; zerver/lib/events.py `fetch_initial_state_data`): each property of
 * `ORGANIZATION_PROPERTIES` with its wire type (channels as IDs, -1 for none; time limits null
 * for unlimited; retention -1 for unlimited; `topics_policy` and
 * `message_edit_history_visibility_policy` by name) and each setting of
 * `ORGANIZATION_PERMISSIONS` as a group-setting value. A setting the server's level lacks is
 * absent. Parsed from the (loose) register response on its own, so its keys stay typed.
 */
export const RegisterRealmSettingsSchema = z.looseObject({
  ...Object.fromEntries(
    Object.values(ORGANIZATION_PROPERTIES).map((i) => [
      `realm_${i.wire}`,
      REALM_PROPERTY_WIRE[i.type].optional(),
    ]),
  ),
  ...Object.fromEntries(
    Object.values(ORGANIZATION_PERMISSIONS).map((i) => [
      `realm_${i.wire}`,
      WireGroupSettingSchema.optional(),
    ]),
  ),
});

/** `GET /server_settings` (unauthenticated). */
export const ServerSettingsSchema = successWith({
  /** Absent on servers older than Zulip 3.0, which count as feature level 0. */
  zulip_feature_level: z.number().int().default(0),
  zulip_version: z.string(),
  zulip_merge_base: z.string().optional(),
  push_notifications_enabled: z.boolean().optional(),
  realm_name: z.string().optional(),
  realm_uri: z.string().optional(),
  realm_url: z.string().optional(),
  authentication_methods: z.looseObject({}).optional(),
});
/** The {@link ZulipClient.getServerSettings} response (`GET /server_settings`), as parsed. */
export type ServerSettings = z.infer<typeof ServerSettingsSchema>;
