import { z } from 'zod';
import { successWith } from './common';

/** Message flags a client may change (2.7a). */
export const SETTABLE_MESSAGE_FLAGS = ['read', 'starred', 'collapsed'] as const;
/** A personal message flag (`read`, `starred`...). */
export type MessageFlag =
  | (typeof SETTABLE_MESSAGE_FLAGS)[number]
  | 'mentioned'
  | 'stream_wildcard_mentioned'
  | 'topic_wildcard_mentioned'
  | 'has_alert_word'
  | 'historical'
  | 'wildcard_mentioned';

/** `POST /messages/flags` parameters. */
export interface UpdateMessageFlagsParams {
  readonly messages: readonly number[];
  readonly op: 'add' | 'remove';
  readonly flag: MessageFlag;
}

/** The zod schema of the {@link ZulipClient.updateMessageFlags} response (`POST /messages/flags`). */
export const UpdateMessageFlagsResponseSchema = successWith({
  messages: z.array(z.number().int()),
  ignored_because_not_subscribed_channels: z.array(z.number().int()).optional(),
});
/** The {@link ZulipClient.updateMessageFlags} response (`POST /messages/flags`), as parsed. */
export type UpdateMessageFlagsResponse = z.infer<typeof UpdateMessageFlagsResponseSchema>;

/** One narrow term: `{operator, operand, negated?}` or the legacy `[operator, operand]`. */
export type NarrowTerm =
  | {
      readonly operator: string;
      readonly operand: string | number | readonly number[];
      readonly negated?: boolean | undefined;
    }
  | readonly [string, string];

/** `POST /messages/flags/narrow` parameters. */
export interface UpdateMessageFlagsForNarrowParams {
  /** A message ID as a string, or `newest`, `oldest`, `first_unread` (plain string). */
  readonly anchor: string;
  readonly include_anchor?: boolean | undefined;
  readonly num_before: number;
  readonly num_after: number;
  readonly narrow: readonly NarrowTerm[];
  readonly op: 'add' | 'remove';
  readonly flag: MessageFlag;
}

/** The zod schema of the {@link ZulipClient.updateMessageFlagsForNarrow} response (`POST /messages/flags/narrow`). */
export const UpdateMessageFlagsForNarrowResponseSchema = successWith({
  processed_count: z.number().int(),
  updated_count: z.number().int(),
  first_processed_id: z.number().int().nullable(),
  last_processed_id: z.number().int().nullable(),
  found_oldest: z.boolean(),
  found_newest: z.boolean(),
  ignored_because_not_subscribed_channels: z.array(z.number().int()).optional(),
});
/** The {@link ZulipClient.updateMessageFlagsForNarrow} response (`POST /messages/flags/narrow`), as parsed. */
export type UpdateMessageFlagsForNarrowResponse = z.infer<
  typeof UpdateMessageFlagsForNarrowResponseSchema
>;

/** `POST /messages/{message_id}/reactions` parameters. */
export interface AddReactionParams {
  readonly emoji_name: string;
  readonly emoji_code?: string | undefined;
  readonly reaction_type?:
    'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji' | 'service_extra_emoji';
}

/** A draft (2.7); `id` is never sent. */
export interface Draft {
  readonly type: '' | 'stream' | 'private';
  readonly to: readonly number[];
  readonly topic: string;
  readonly content: string;
  readonly timestamp?: number | undefined;
}

/** The zod schema of the {@link ZulipClient.createDrafts} response (`POST /drafts`). */
export const CreateDraftsResponseSchema = successWith({ ids: z.array(z.number().int()) });
/** The {@link ZulipClient.createDrafts} response (`POST /drafts`), as parsed. */
export type CreateDraftsResponse = z.infer<typeof CreateDraftsResponseSchema>;

/** `PATCH /scheduled_messages/{id}` parameters. */
export interface UpdateScheduledMessageParams {
  readonly type?: 'direct' | 'channel' | 'stream' | 'private' | undefined;
  /** A channel ID, or user IDs. */
  readonly to?: number | readonly number[] | undefined;
  readonly content?: string | undefined;
  readonly topic?: string | undefined;
  readonly scheduled_delivery_timestamp?: number | undefined;
}
