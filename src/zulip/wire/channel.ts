import { z } from 'zod';
import { TOPICS_POLICIES } from '../../model/kinds';
import type { TopicsPolicy } from '../../model/kinds';
import { CHANNEL_GROUP_SETTINGS } from '../../model/permissions';
import type { ChannelGroupSettingName } from '../../model/permissions';
import { optionalGroupSettings, successListing, successWith } from './common';
import type { GroupSettingUpdates, GroupSettingValues, MessageRetentionParam } from './common';

/** The wire names come from the model's permission table (`CHANNEL_PERMISSIONS`). */
export { CHANNEL_GROUP_SETTINGS } from '../../model/permissions';
export type { ChannelGroupSettingName } from '../../model/permissions';

/** A channel as `GET /streams`, `GET /streams/{id}` and `/register` send it (loose). */
export const WireChannelSchema = z.looseObject({
  stream_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  rendered_description: z.string().optional(),
  date_created: z.number().optional(),
  creator_id: z.number().int().nullable().optional(),
  invite_only: z.boolean(),
  is_web_public: z.boolean().optional(),
  history_public_to_subscribers: z.boolean().optional(),
  /** null: the organization's default; -1: unlimited. */
  message_retention_days: z.number().int().nullable().optional(),
  first_message_id: z.number().int().nullable().optional(),
  is_archived: z.boolean().optional(),
  is_default: z.boolean().optional(),
  folder_id: z.number().int().nullable().optional(),
  topics_policy: z.enum(TOPICS_POLICIES).or(z.string()).optional(),
  subscriber_count: z.number().optional(),
  stream_weekly_traffic: z.number().nullable().optional(),
  ...optionalGroupSettings(CHANNEL_GROUP_SETTINGS),
});
/** A channel as Zulip sends it, as parsed by {@link WireChannelSchema}. */
export type WireChannel = z.infer<typeof WireChannelSchema>;

/** The zod schema of the {@link ZulipClient.getStreams} response (`GET /streams`). */
export const GetStreamsResponseSchema = successListing('streams', WireChannelSchema);
/** The {@link ZulipClient.getStreams} response (`GET /streams`), as parsed. */
export type GetStreamsResponse = z.infer<typeof GetStreamsResponseSchema>;
/** The zod schema of the {@link ZulipClient.getStream} response (`GET /streams/{stream_id}`). */
export const GetStreamResponseSchema = successWith({ stream: WireChannelSchema });
/** The {@link ZulipClient.getStream} response (`GET /streams/{stream_id}`), as parsed. */
export type GetStreamResponse = z.infer<typeof GetStreamResponseSchema>;
/** The zod schema of the {@link ZulipClient.getStreamMembers} response (`GET /streams/{stream_id}/members`). */
export const GetStreamMembersResponseSchema = successWith({
  subscribers: z.array(z.number().int()),
});
/** The {@link ZulipClient.getStreamMembers} response (`GET /streams/{stream_id}/members`), as parsed. */
export type GetStreamMembersResponse = z.infer<typeof GetStreamMembersResponseSchema>;
/** The zod schema of the {@link ZulipClient.createChannel} response (`POST /channels/create`). */
export const CreateChannelResponseSchema = successWith({ id: z.number().int() });
/** The {@link ZulipClient.createChannel} response (`POST /channels/create`), as parsed. */
export type CreateChannelResponse = z.infer<typeof CreateChannelResponseSchema>;

/** `GET /streams` parameters. */
export interface GetStreamsParams {
  readonly include_public?: boolean | undefined;
  readonly include_web_public?: boolean | undefined;
  readonly include_subscribed?: boolean | undefined;
  /** FL 315. */
  readonly exclude_archived?: boolean | undefined;
  /** FL 356; replaces `include_all_active`. */
  readonly include_all?: boolean | undefined;
  readonly include_all_active?: boolean | undefined;
  readonly include_default?: boolean | undefined;
  readonly include_owner_subscribed?: boolean | undefined;
  /** FL 356. */
  readonly include_can_access_content?: boolean | undefined;
}

/** Group settings as initial values (create). */
export type ChannelGroupSettingValues = GroupSettingValues<ChannelGroupSettingName>;
/** Group settings as `{new, old?}` changes (update). */
export type ChannelGroupSettingUpdates = GroupSettingUpdates<ChannelGroupSettingName>;

/** The settings that creating a channel and `PATCH /streams` spell alike. */
export interface ChannelSharedSettings {
  readonly is_web_public?: boolean | undefined;
  readonly history_public_to_subscribers?: boolean | undefined;
  readonly is_default_stream?: boolean | undefined;
  /** JSON-encoded, strings included (`"unlimited"`). */
  readonly message_retention_days?: MessageRetentionParam | undefined;
}

/** The creation settings shared by `POST /channels/create` and `POST /users/me/subscriptions`. */
export interface ChannelCreationSettings extends ChannelGroupSettingValues, ChannelSharedSettings {
  readonly announce?: boolean | undefined;
  readonly invite_only?: boolean | undefined;
  /** FL 392, JSON-encoded on creation (`"inherit"`), unlike PATCH /streams. */
  readonly topics_policy?: TopicsPolicy | undefined;
  /** FL 389. */
  readonly folder_id?: number | undefined;
}

/** `POST /channels/create` (FL 417) parameters. */
export interface CreateChannelParams extends ChannelCreationSettings {
  readonly name: string;
  readonly description?: string | undefined;
  /** Required: user IDs to subscribe (may be empty). */
  readonly subscribers: readonly number[];
  /** FL 397. */
  readonly send_new_subscription_messages?: boolean | undefined;
}

/** `PATCH /streams/{stream_id}` parameters. The endpoint is not atomic (NOTES 2.2). */
export interface UpdateStreamParams extends ChannelGroupSettingUpdates, ChannelSharedSettings {
  readonly description?: string | undefined;
  readonly new_name?: string | undefined;
  readonly is_private?: boolean | undefined;
  /** FL 388: only `false` (unarchive) does anything. */
  readonly is_archived?: boolean | undefined;
  /** FL 389: a folder ID, or null to take the channel out of its folder. */
  readonly folder_id?: number | null | undefined;
  /** FL 392, plain string. */
  readonly topics_policy?: TopicsPolicy | undefined;
}
