import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ZulipCdkError } from '../../model/errors';

/** The message inside an outgoing-webhook payload (seed 6.3; loose). */
export const OutgoingWebhookMessageSchema = z.looseObject({
  avatar_url: z.string().nullable().optional(),
  client: z.string().optional(),
  content: z.string(),
  content_type: z.string().optional(),
  display_recipient: z.union([
    z.string(),
    z.array(
      z.looseObject({
        id: z.number().int(),
        email: z.string(),
        full_name: z.string(),
        is_mirror_dummy: z.boolean().optional(),
      }),
    ),
  ]),
  edit_history: z
    .array(
      z.looseObject({
        user_id: z.number().int().nullable(),
        timestamp: z.number().int(),
        prev_content: z.string().optional(),
        prev_rendered_content: z.string().optional(),
        prev_stream: z.number().int().optional(),
        prev_topic: z.string().optional(),
        stream: z.number().int().optional(),
        topic: z.string().optional(),
      }),
    )
    .optional(),
  id: z.number().int(),
  is_me_message: z.boolean().optional(),
  last_edit_timestamp: z.number().int().optional(),
  last_moved_timestamp: z.number().int().optional(),
  reactions: z
    .array(
      z.looseObject({
        emoji_name: z.string(),
        emoji_code: z.string(),
        reaction_type: z.string(),
        user_id: z.number().int(),
      }),
    )
    .optional(),
  recipient_id: z.number().int().optional(),
  sender_email: z.string(),
  sender_full_name: z.string(),
  sender_id: z.number().int(),
  sender_realm_str: z.string().optional(),
  stream_id: z.number().int().optional(),
  subject: z.string().optional(),
  submessages: z.array(z.looseObject({})).optional(),
  timestamp: z.number().int(),
  topic_links: z.array(z.looseObject({ text: z.string(), url: z.string() })).optional(),
  type: z.enum(['stream', 'private']),
  rendered_content: z.string().optional(),
});

/** The outgoing-webhook payload as Zulip sends it, token included. */
export const OutgoingWebhookPayloadSchema = z.looseObject({
  bot_email: z.string(),
  bot_full_name: z.string(),
  data: z.string(),
  /** `direct_message` (FL 201; `private_message` before), `mention`, ... */
  trigger: z.string(),
  token: z.string(),
  message: OutgoingWebhookMessageSchema,
});

/** The payload without its token: what {@link parseOutgoingWebhook} returns. */
export const OutgoingWebhookSchema = OutgoingWebhookPayloadSchema.omit({ token: true });
/** A parsed, token-checked outgoing-webhook notification. The token is not kept. */
export type OutgoingWebhook = z.infer<typeof OutgoingWebhookSchema>;

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

/** Compares two secrets in constant time (also when their lengths differ). */
export function tokensEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected)) && given.length === expected.length;
}

/**
 * Parses an outgoing-webhook request body (a JSON string, Buffer or parsed object) and checks
 * its `token` against `expectedToken` in constant time. Throws `WEBHOOK_INVALID_PAYLOAD` or
 * `WEBHOOK_BAD_TOKEN`; no error ever contains either token.
 */
export function parseOutgoingWebhook(body: unknown, expectedToken: string): OutgoingWebhook {
  if (expectedToken === '') {
    throw new ZulipCdkError('WEBHOOK_BAD_TOKEN', 'No expected webhook token was configured.', {
      hint: "Pass the bot's outgoing-webhook token.",
    });
  }
  let value: unknown = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      value = JSON.parse(body.toString()) as unknown;
    } catch {
      throw new ZulipCdkError('WEBHOOK_INVALID_PAYLOAD', 'The outgoing-webhook body is not JSON.');
    }
  }
  const parsed = OutgoingWebhookPayloadSchema.safeParse(value);
  if (!parsed.success) {
    // Report paths only: values (the token among them) never reach the message.
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(root)'))];
    throw new ZulipCdkError(
      'WEBHOOK_INVALID_PAYLOAD',
      `The outgoing-webhook payload is invalid at: ${fields.join(', ')}.`,
    );
  }
  if (!tokensEqual(parsed.data.token, expectedToken)) {
    throw new ZulipCdkError('WEBHOOK_BAD_TOKEN', 'The outgoing-webhook token does not match.', {
      hint: "Check the bot's token in the receiver's configuration.",
    });
  }
  const { token: _token, ...rest } = parsed.data;
  return rest;
}
