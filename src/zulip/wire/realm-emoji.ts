import { z } from 'zod';
import { successWith } from './common';

/** A custom emoji as Zulip sends it (`realm_emoji` in `/register`, `GET /realm/emoji`). */
export const WireRealmEmojiSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  source_url: z.string(),
  deactivated: z.boolean(),
  author_id: z.number().int().nullable().optional(),
  still_url: z.string().nullable().optional(),
});
export type WireRealmEmoji = z.infer<typeof WireRealmEmojiSchema>;

export const GetRealmEmojiResponseSchema = successWith({
  emoji: z.record(z.string(), WireRealmEmojiSchema),
});
export type GetRealmEmojiResponse = z.infer<typeof GetRealmEmojiResponseSchema>;
