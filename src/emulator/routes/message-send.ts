import { LIMITS } from '../../model/kinds';
import { ApiError, badRequest, missingArgument } from '../errors';
import { supports } from '../../model/features';
import { NOT_JSON, parseJson } from '../json-parse';
import {
  findUser,
  holdsSetting,
  isGuest,
  isSubscribed,
  isSystemGroupSetting,
} from '../permissions';
import type { RequestContext } from '../router';
import type { StoredChannel, StoredUser } from '../state';
import { channelByName, userByIdOrEmail } from './common';
import { checkDirectMessage } from './message-direct';
import { messages } from './messages';

/** `settings.MAX_MESSAGE_LENGTH`. */
const MAX_MESSAGE_LENGTH = 10000;
/** `Message.EMPTY_TOPIC_FALLBACK_NAME`, the name the empty topic shows ("general chat"). */
export const EMPTY_TOPIC_NAME = 'general chat';
/** zerver/lib/topic.py `RESOLVED_TOPIC_PREFIX`. */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** zerver/lib/message.py `truncate_content` (lengths in code points, as Python counts). */
function truncateContent(content: string, max: number, marker: string): string {
  const chars = [...content];
  if (chars.length <= max) return content;
  return chars.slice(0, max - [...marker].length).join('') + marker;
}

/** zerver/lib/message.py `truncate_topic`: 60 characters, "..." at the end when cut. */
export const truncateTopic = (topic: string): string =>
  truncateContent(topic, LIMITS.topicName, '...');

/**
 * zerver/lib/message.py `normalize_body`: trailing whitespace and leading newlines go, an empty
 * body or a null byte is refused, a long one is cut with "[message truncated]".
 */
export function normalizeBody(body: string): string {
  const b = body.replace(/\s+$/u, '').replace(/^\n+/, '');
  if (b.length === 0) throw badRequest('Message must not be empty');
  if (b.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  return truncateContent(b, MAX_MESSAGE_LENGTH, '\n[message truncated]');
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * Who a message goes to, as zerver/lib/addressee.py `Addressee.legacy_build` makes it: a
 * channel (by ID or name, not yet looked up) and a topic, or the direct-message users.
 */
export type Addressee =
  | { type: 'stream'; channel: number | string; topic: string }
  | { type: 'private'; users: StoredUser[] };

/**
 * `Addressee.legacy_build`: one channel and a topic (stripped; "general chat" and "(no topic)"
 * are the empty topic), or at least one user, each looked up by ID or email in any state
 * (zerver/lib/addressee.py `get_user_profiles_by_ids`, `get_user_profiles`).
 */
export function legacyBuild(
  ctx: RequestContext,
  type: 'stream' | 'private',
  to: readonly (number | string)[],
  topic: string | undefined,
): Addressee {
  if (type === 'stream') {
    // `to` holds one channel: extract_stream_indicator refuses more ("Expected exactly one channel").
    const channel = to[0];
    // The emulator's users have no default sending channel.
    if (channel === undefined) throw badRequest('Missing channel');
    if (topic === undefined) throw badRequest('Missing topic');
    let t = topic.trim();
    if (t === EMPTY_TOPIC_NAME || t === '(no topic)') t = '';
    return { type: 'stream', channel, topic: t };
  }
  if (to.length === 0) throw badRequest('Message must have recipients');
  const users = to.map((x) => {
    const u = userByIdOrEmail(ctx, x);
    if (!u)
      throw badRequest(typeof x === 'number' ? `Invalid user ID ${x}` : `Invalid email '${x}'`);
    return u;
  });
  return { type: 'private', users };
}

/** The sender's owner when the sender is a bot: Zulip's send checks let a bot use its owner's rights. */
const botOwner = (ctx: RequestContext): StoredUser | undefined =>
  ctx.user.isBot && ctx.user.botOwnerId !== null
    ? findUser(ctx.org, ctx.user.botOwnerId)
    : undefined;

/**
 * zerver/lib/streams.py `access_stream_for_send_message`: `can_send_message_group` (a bot
 * may use its owner's), then the archived check, then access (web-public, public for
 * non-guests, subscribed, a bot whose owner is subscribed, or content access through
 * `can_add_subscribers_group`/`can_subscribe_group` to a channel with shared history).
 */
function accessChannelForSend(ctx: RequestContext, ch: StoredChannel): void {
  const mayPost = (u: StoredUser): boolean =>
    holdsSetting(ctx.org, u, ch.settings.can_send_message_group);
  const owner = botOwner(ctx);
  if (!mayPost(ctx.user) && !(owner && mayPost(owner)))
    throw badRequest('You do not have permission to post in this channel.');
  const refused = badRequest(`Not authorized to send to channel '${ch.name}'`);
  if (ch.isArchived) throw refused;
  if (ch.isWebPublic) return;
  if (!ch.inviteOnly && !isGuest(ctx.user)) return;
  if (isSubscribed(ctx.org, ctx.user.id, ch.id)) return;
  if (owner && isSubscribed(ctx.org, owner.id, ch.id)) return;
  const grantsContent =
    holdsSetting(ctx.org, ctx.user, ch.settings.can_add_subscribers_group) ||
    holdsSetting(ctx.org, ctx.user, ch.settings.can_subscribe_group);
  if (ch.historyPublicToSubscribers && grantsContent && !isGuest(ctx.user)) return;
  throw refused;
}

/**
 * zerver/lib/streams.py `check_for_can_create_topic_group_violation` (FL 441): a message to a
 * topic of the channel without a message yet (`messages_for_topic`: any sender, the name
 * compared case-insensitively) needs the channel's `can_create_topic_group`
 * (`check_user_can_create_new_topics`), or, for a bot, its owner's. No exemption for
 * administrators; nothing to check when the setting is role:everyone.
 */
export function checkCanCreateTopic(ctx: RequestContext, ch: StoredChannel, topic: string): void {
  if (!supports(ctx.featureLevel, 'canCreateTopicGroup')) return;
  const setting = ch.settings.can_create_topic_group;
  if (setting === undefined || isSystemGroupSetting(ctx.org, setting, 'role:everyone')) return;
  const key = topic.toLowerCase();
  const exists = messages(ctx.org).some(
    (m) => m.type === 'stream' && m.channelId === ch.id && m.topic.toLowerCase() === key,
  );
  if (exists) return;
  const owner = botOwner(ctx);
  const mayCreate = (u: StoredUser): boolean => holdsSetting(ctx.org, u, setting);
  if (mayCreate(ctx.user) || (owner && mayCreate(owner))) return;
  throw badRequest('You do not have permission to create new topics in this channel.');
}

/**
 * The channel's topics policy (its own, or the organization's): `MessagesNotAllowedInEmptyTopicError`
 * for the empty topic where it is disabled (when `emptyChecked`: a sent message, or an edit that
 * moves one), `TopicsNotAllowedError` for any other where only it is allowed.
 */
export function checkTopicsPolicy(
  ctx: RequestContext,
  ch: StoredChannel,
  topic: string,
  emptyChecked = true,
): void {
  const policy = ch.topicsPolicy === 'inherit' ? ctx.org.realm.topicsPolicy : ch.topicsPolicy;
  const empty = topic === '' || topic === '(no topic)';
  const data = { empty_topic_display_name: EMPTY_TOPIC_NAME };
  if (emptyChecked && empty && policy === 'disable_empty_topic')
    throw badRequest(
      `Sending messages to the ${EMPTY_TOPIC_NAME} is not allowed in this channel.`,
      data,
    );
  if (policy === 'empty_topic_only' && !empty)
    throw badRequest(`Only the ${EMPTY_TOPIC_NAME} topic is allowed in this channel.`, data);
}

/** A checked message: its body, and its channel and topic or its direct-message users. */
export type CheckedMessage = { content: string } & (
  | { type: 'stream'; channel: StoredChannel; topic: string }
  | { type: 'private'; users: StoredUser[] }
);

/**
 * zerver/actions/message_send.py `check_message`: the body first (`normalize_body`), then the
 * channel (by name: `StreamDoesNotExistError` with the name HTML-escaped; by ID:
 * `StreamWithIDDoesNotExistError`, whatever the sender's access), the sender's right to post
 * there, `can_create_topic_group` for a new topic and the topics policy; or the direct-message
 * rules (./message-direct.ts).
 */
export function checkMessage(
  ctx: RequestContext,
  addressee: Addressee,
  rawContent: string,
): CheckedMessage {
  const content = normalizeBody(rawContent);
  if (addressee.type === 'private') {
    checkDirectMessage(ctx, addressee.users);
    return { content, type: 'private', users: addressee.users };
  }
  const topic = truncateTopic(addressee.topic);
  const target = addressee.channel;
  let ch: StoredChannel | undefined;
  if (typeof target === 'number') {
    ch = ctx.org.channels.find((c) => c.id === target);
    if (!ch)
      throw new ApiError(`Channel with ID '${target}' does not exist`, {
        code: 'STREAM_DOES_NOT_EXIST',
        data: { stream_id: target },
      });
  } else {
    const name = target.trim();
    if (name === '') throw badRequest("Channel name can't be empty.");
    ch = channelByName(ctx, name);
    if (!ch) {
      const escaped = escapeHtml(name);
      throw new ApiError(`Channel '${escaped}' does not exist`, {
        code: 'STREAM_DOES_NOT_EXIST',
        data: { stream: escaped },
      });
    }
  }
  accessChannelForSend(ctx, ch);
  checkCanCreateTopic(ctx, ch, topic);
  checkTopicsPolicy(ctx, ch, topic);
  return { content, type: 'stream', channel: ch, topic };
}

/** Django's `escape`. */
function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}

/** zerver/actions/message_send.py `extract_stream_indicator`: a channel name or ID. */
function extractStreamIndicator(s: string): string | number {
  let data = parseJson(s);
  if (data === NOT_JSON) return s;
  if (Array.isArray(data)) {
    if (data.length !== 1) throw badRequest('Expected exactly one channel');
    data = data[0];
  }
  if (typeof data === 'string' || isInt(data)) return data;
  throw badRequest('Invalid data type for channel');
}

/** zerver/actions/message_send.py `extract_private_recipients`: emails or user IDs, not both. */
function extractPrivateRecipients(s: string): string[] | number[] {
  let data = parseJson(s);
  if (data === NOT_JSON) data = s;
  if (typeof data === 'string') data = data.split(',');
  if (!Array.isArray(data)) throw badRequest('Invalid data type for recipients');
  const list = data as unknown[];
  if (list.length === 0) return [];
  const mixed = badRequest('Recipient lists may contain emails or user IDs, but not both.');
  if (typeof list[0] === 'string') {
    if (!list.every((x): x is string => typeof x === 'string')) throw mixed;
    return [...new Set(list.map((x) => x.trim()))].filter(Boolean);
  }
  if (!isInt(list[0])) throw badRequest('Invalid data type for recipients');
  if (!list.every(isInt)) throw mixed;
  return [...new Set(list)];
}

const TYPES: Record<string, 'stream' | 'private'> = {
  stream: 'stream',
  channel: 'stream',
  private: 'private',
  direct: 'private',
};

/**
 * `POST /messages`: zerver/views/message_send.py `send_message_backend`, its parameters in
 * signature order (`content` before `to` before `type`; `type` is a `Literal`: "Invalid type"),
 * then `check_send_message` (`legacy_build`, `check_message`).
 */
export function parseSendRequest(ctx: RequestContext): CheckedMessage {
  const p = ctx.params;
  const forged = p.string('forged');
  p.declare('local_id', 'queue_id', 'widget_content');
  const content = p.requiredString('content');
  p.bool('read_by_sender');
  const sender = p.string('sender');
  const toRaw = p.raw_('to');
  const typeRaw = p.raw_('type');
  if (typeRaw === undefined) throw missingArgument('type');
  const type = TYPES[typeRaw];
  if (type === undefined) throw badRequest('Invalid type');
  p.json('time');
  const topic = (p.string('topic') ?? p.string('subject'))?.trim();
  let to: (number | string)[] = [];
  if (toRaw !== undefined)
    to = type === 'stream' ? [extractStreamIndicator(toRaw)] : extractPrivateRecipients(toRaw);
  // No emulator user can forge senders, and no client of it is a mirror.
  if (forged === 'yes' || forged === 'true') throw badRequest('User not authorized for this query');
  if (sender !== undefined) throw badRequest('Invalid mirrored message');
  return checkMessage(ctx, legacyBuild(ctx, type, to, topic), content);
}
