import { badRequest, missingArgument } from '../errors';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { StoredScheduledMessage } from '../state';
import { renderMarkdown } from '../views';
import { ownItem } from './common';
import { channelForSend, directRecipients } from './messages';

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
function recipients(
  ctx: RequestContext,
  type: 'stream' | 'private',
  to: number | number[],
): number | number[] {
  if (type === 'stream') {
    if (Array.isArray(to)) throw badRequest('Invalid data type for channel ID');
    return channelForSend(ctx, to).id;
  }
  if (!Array.isArray(to)) throw badRequest('Invalid data type for recipients');
  return directRecipients(ctx, [...new Set(to)]).map((u) => u.id);
}

/** `DeliveryTimeNotInFutureError`. */
function checkTime(ctx: RequestContext, ts: number): void {
  if (ts <= ctx.now / 1000) throw badRequest('Scheduled delivery time must be in the future.');
}

/** check_message's content rule (normalize_body). */
function checkContent(content: string): string {
  const body = content.trimEnd().replace(/^\n+/, '');
  if (body === '') throw badRequest('Message must not be empty');
  if (body.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  return body;
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
      const topic = (p.string('topic') ?? p.string('subject') ?? '').trim();
      checkTime(ctx, ts);
      const target = recipients(ctx, type, to);
      const body = checkContent(content);
      const m: StoredScheduledMessage = {
        id: nextId(ctx.org),
        senderId: ctx.user.id,
        type,
        to: target,
        topic: type === 'stream' ? topic : '',
        content: body,
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
      const nextType = type ?? m.type;
      const target = to === undefined ? m.to : recipients(ctx, nextType, to);
      const body = content === undefined ? m.content : checkContent(content);
      if (type !== undefined || to !== undefined) {
        m.type = nextType;
        m.to = target;
        m.topic = nextType === 'stream' ? (topic ?? m.topic) : '';
      } else if (topic !== undefined && m.type === 'stream') m.topic = topic;
      m.content = body;
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
