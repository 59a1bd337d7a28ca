import { badRequest, missingArgument } from '../errors';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { StoredScheduledMessage } from '../state';
import { renderMarkdown } from '../views';
import { ownItem } from './common';
import { checkMessage, legacyBuild, truncateTopic } from './message-send';

const TYPES: Record<string, 'stream' | 'private'> = {
  stream: 'stream',
  channel: 'stream',
  private: 'private',
  direct: 'private',
};

function list(ctx: RequestContext): StoredScheduledMessage[] {
  ctx.org.scheduledMessages ??= [];
  return ctx.org.scheduledMessages;
}

/** `to`: `Json[int | list[int]]`; pydantic reports the int branch first. */
function toParam(ctx: RequestContext): number | number[] | undefined {
  const v = ctx.params.json('to');
  if (v === undefined) return undefined;
  if (Number.isInteger(v)) return v as number;
  if (Array.isArray(v) && v.every((x) => Number.isInteger(x))) return v as number[];
  throw badRequest('to["int"] is not an integer');
}

/** `type` (check_string_in_validator(Message.API_RECIPIENT_TYPES)). */
function typeParam(ctx: RequestContext): 'stream' | 'private' | undefined {
  const raw = ctx.params.string('type');
  if (raw === undefined) return undefined;
  const type = TYPES[raw];
  if (!type) throw badRequest('Invalid type: Value error, Not in the list of possible values');
  return type;
}

/** zerver/lib/recipient_parsing.py extract_stream_id / extract_direct_message_recipient_ids. */
function extractRecipients(type: 'stream' | 'private', to: number | number[]): number[] {
  if (type === 'stream') {
    if (Array.isArray(to)) throw badRequest('Invalid data type for channel ID');
    return [to];
  }
  if (!Array.isArray(to)) throw badRequest('Invalid data type for recipients');
  return [...new Set(to)];
}

/** `DeliveryTimeNotInFutureError`. */
function checkTime(ctx: RequestContext, ts: number): void {
  if (ts <= ctx.now / 1000) throw badRequest('Scheduled delivery time must be in the future.');
}

/**
 * The message a scheduled message would send, checked as zerver/actions/scheduled_messages.py
 * does (`Addressee.legacy_build`, then `check_message`: the body before the channel).
 */
function checkScheduled(
  ctx: RequestContext,
  type: 'stream' | 'private',
  to: number[],
  topic: string | undefined,
  content: string,
): Pick<StoredScheduledMessage, 'type' | 'to' | 'topic' | 'content'> {
  const checked = checkMessage(ctx, legacyBuild(ctx, type, to, topic), content);
  if (checked.type === 'stream')
    return { type, to: checked.channel.id, topic: checked.topic, content: checked.content };
  return { type, to: checked.users.map((u) => u.id), topic: '', content: checked.content };
}

function mine(ctx: RequestContext): StoredScheduledMessage {
  const path = { param: 'scheduled_message_id', missing: 'Scheduled message does not exist' };
  return ownItem(ctx, list(ctx), path, (m) => m.senderId);
}

const toApi = (m: StoredScheduledMessage): Record<string, unknown> => ({
  scheduled_message_id: m.id,
  type: m.type,
  to: m.to,
  ...(m.type === 'stream' ? { topic: m.topic } : {}),
  content: m.content,
  rendered_content: renderMarkdown(m.content),
  scheduled_delivery_timestamp: m.deliveryTimestamp,
  failed: m.failed,
});

/**
 * The caller's undelivered scheduled messages, by delivery time (`GET /scheduled_messages` and
 * register's `scheduled_messages`: zerver/lib/scheduled_messages.py
 * get_undelivered_scheduled_messages).
 */
export function undeliveredScheduledMessages(ctx: RequestContext): Record<string, unknown>[] {
  return list(ctx)
    .filter((m) => m.senderId === ctx.user.id)
    .sort((a, b) => a.deliveryTimestamp - b.deliveryTimestamp)
    .map(toApi);
}

/** Scheduled-message routes (the caller's own). Nothing is ever delivered. */
export const scheduledMessageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/scheduled_messages',
    handler: (ctx) => ({ scheduled_messages: undeliveredScheduledMessages(ctx) }),
  },
  {
    method: 'POST',
    path: '/scheduled_messages',
    handler: (ctx) => {
      // zerver/views/scheduled_messages.py create_scheduled_message_backend
      const p = ctx.params;
      const content = p.requiredString('content');
      p.bool('read_by_sender');
      const to = toParam(ctx);
      if (to === undefined) throw missingArgument('to');
      const type = typeParam(ctx);
      if (type === undefined) throw missingArgument('type');
      const ts = p.int('scheduled_delivery_timestamp');
      if (ts === undefined) throw missingArgument('scheduled_delivery_timestamp');
      const topic = (p.string('topic') ?? p.string('subject'))?.trim();
      checkTime(ctx, ts);
      const m: StoredScheduledMessage = {
        id: nextId(ctx.org),
        senderId: ctx.user.id,
        ...checkScheduled(ctx, type, extractRecipients(type, to), topic, content),
        deliveryTimestamp: ts,
        failed: false,
      };
      list(ctx).push(m);
      return { scheduled_message_id: m.id };
    },
  },
  {
    method: 'PATCH',
    path: '/scheduled_messages/{scheduled_message_id}',
    handler: (ctx) => {
      // update_scheduled_message_backend, then edit_scheduled_message
      const p = ctx.params;
      const content = p.string('content');
      const type = typeParam(ctx);
      const ts = p.int('scheduled_delivery_timestamp');
      const to = toParam(ctx);
      const topicRaw = p.string('topic') ?? p.string('subject');
      const topic = topicRaw?.trim();
      if (
        type === undefined &&
        to === undefined &&
        topic === undefined &&
        content === undefined &&
        ts === undefined
      )
        throw badRequest('Nothing to change');
      if (type !== undefined && to === undefined)
        throw badRequest('Recipient required when updating type of scheduled message.');
      if (type === 'stream' && topic === undefined)
        throw badRequest('Topic required when updating scheduled message type to channel.');
      if (ts !== undefined) checkTime(ctx, ts);
      const m = mine(ctx);
      if (m.failed && ts === undefined)
        throw badRequest('Scheduled delivery time must be in the future.');
      // A new type, recipient or content is checked again as a whole message.
      if (type !== undefined || to !== undefined || content !== undefined) {
        const nextType = type ?? m.type;
        const recipients =
          to === undefined
            ? Array.isArray(m.to)
              ? m.to
              : [m.to]
            : extractRecipients(nextType, to);
        const checked = checkScheduled(
          ctx,
          nextType,
          recipients,
          topic ?? m.topic,
          content ?? m.content,
        );
        if (type !== undefined || to !== undefined) {
          m.type = checked.type;
          m.to = checked.to;
          m.topic = checked.topic;
        }
        if (content !== undefined) m.content = checked.content;
      }
      if (type === undefined && to === undefined && topic !== undefined && m.type === 'stream')
        m.topic = truncateTopic(topic);
      if (ts !== undefined) m.deliveryTimestamp = ts;
      m.failed = false;
      return {};
    },
  },
  {
    method: 'DELETE',
    path: '/scheduled_messages/{scheduled_message_id}',
    handler: (ctx) => {
      const m = mine(ctx);
      ctx.org.scheduledMessages = list(ctx).filter((x) => x !== m);
      return {};
    },
  },
];
