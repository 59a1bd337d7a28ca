import { badRequest, missingArgument, notFound } from '../errors';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { StoredScheduledMessage } from '../state';
import { renderMarkdown } from '../views';
import { pathInt } from './common';
import { channelForSend, directRecipients, parseTo } from './messages';

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

function recipients(
  ctx: RequestContext,
  type: 'stream' | 'private',
  toRaw: string,
): number | number[] {
  const to = parseTo(toRaw);
  if (type === 'stream') return channelForSend(ctx, to).id;
  return directRecipients(ctx, to).map((u) => u.id);
}

function checkTime(ctx: RequestContext, ts: number): void {
  if (ts <= Math.floor(ctx.now / 1000))
    throw badRequest('Scheduled delivery time must be in the future.');
}

function mine(ctx: RequestContext): StoredScheduledMessage {
  const id = pathInt(ctx, 'scheduled_message_id');
  const m = list(ctx).find((x) => x.id === id && x.senderId === ctx.user.id);
  if (!m) throw notFound('Scheduled message does not exist');
  return m;
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
      const p = ctx.params;
      const typeRaw = p.requiredString('type');
      const toRaw = p.raw_('to');
      if (toRaw === undefined) throw missingArgument('to');
      const content = p.requiredString('content');
      const topic = (p.string('topic') ?? '').trim();
      const ts = p.int('scheduled_delivery_timestamp');
      if (ts === undefined) throw missingArgument('scheduled_delivery_timestamp');
      p.declare('read_by_sender');
      const type = TYPES[typeRaw];
      if (!type) throw badRequest('Invalid type');
      if (content.trim() === '') throw badRequest('Message must not be empty');
      const to = recipients(ctx, type, toRaw);
      checkTime(ctx, ts);
      const m: StoredScheduledMessage = {
        id: nextId(ctx.org),
        senderId: ctx.user.id,
        type,
        to,
        topic: type === 'stream' ? topic : '',
        content,
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
      const p = ctx.params;
      const typeRaw = p.string('type');
      const toRaw = p.raw_('to');
      const content = p.string('content');
      const topic = p.string('topic');
      const ts = p.int('scheduled_delivery_timestamp');
      const m = mine(ctx);
      const type = typeRaw === undefined ? undefined : TYPES[typeRaw];
      if (typeRaw !== undefined && !type) throw badRequest('Invalid type');
      if (type !== undefined && type !== m.type) {
        if (toRaw === undefined)
          throw badRequest('Recipient required when updating type of scheduled message.');
        if (type === 'stream' && topic === undefined)
          throw badRequest('Topic required when updating scheduled message type to channel.');
      }
      if (m.failed && ts === undefined)
        throw badRequest('Scheduled delivery timestamp must be in the future.');
      const nextType = type ?? m.type;
      const to = toRaw === undefined ? m.to : recipients(ctx, nextType, toRaw);
      if (ts !== undefined) checkTime(ctx, ts);
      if (content !== undefined && content.trim() === '')
        throw badRequest('Message must not be empty');
      m.type = nextType;
      m.to = to;
      if (topic !== undefined) m.topic = topic.trim();
      if (nextType === 'private') m.topic = '';
      if (content !== undefined) m.content = content;
      if (ts !== undefined) {
        m.deliveryTimestamp = ts;
        m.failed = false;
      }
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
