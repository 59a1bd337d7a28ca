import { ApiError, badRequest, incompatibleParameters } from '../errors';
import { checkEmojiRequest, getEmojiData } from '../emoji';
import {
  hasChannelContentAccessHelper,
  hasContentAccess,
  isGuest,
  subscriberIds,
} from '../permissions';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { OrgState, StoredMessage, StoredUser } from '../state';
import { avatarUrl, renderMarkdown } from '../views';
import { pathInt } from './common';
import { updateMessage } from './message-edit';
import { parseSendRequest } from './message-send';
import {
  LARGER_THAN_MAX_MESSAGE_ID,
  compileNarrow,
  parseAnchor,
  parseNarrow,
  renameGeneralChatTopic,
  resolveWithOperator,
} from './narrow';

export function messages(org: OrgState): StoredMessage[] {
  org.messages ??= [];
  return org.messages;
}

/**
 * Whether the user can read the message: a UserMessage row, or content access to its channel
 * where history is public to subscribers (a channel with protected history shows a user only
 * the messages they received: zerver/lib/narrow.py `get_base_query_for_search`).
 */
export function canAccessMessage(ctx: RequestContext, m: StoredMessage): boolean {
  if (m.flags[String(ctx.user.id)] !== undefined) return true;
  if (m.type !== 'stream' || m.channelId === null) return false;
  const ch = ctx.org.channels.find((c) => c.id === m.channelId);
  return (
    ch !== undefined && ch.historyPublicToSubscribers && hasContentAccess(ctx.org, ctx.user, ch)
  );
}

/**
 * zerver/lib/message.py `has_message_access` (not modifying): a direct message needs a
 * UserMessage row; a channel message is open to non-guests in a public channel, else needs
 * content access through a subscription or the groups granting it
 * (`has_channel_content_access_helper`) and, where history is protected, a UserMessage row too.
 */
export function hasMessageAccess(ctx: RequestContext, m: StoredMessage): boolean {
  const hasRow = m.flags[String(ctx.user.id)] !== undefined;
  if (m.type !== 'stream' || m.channelId === null) return hasRow;
  const ch = ctx.org.channels.find((c) => c.id === m.channelId);
  if (!ch) return false;
  if (!ch.inviteOnly && !isGuest(ctx.user)) return true;
  const content = hasChannelContentAccessHelper(ctx.org, ctx.user, ch);
  return ch.historyPublicToSubscribers ? content : hasRow && content;
}

/** Creates a message with UserMessage rows for its recipients. */
export function storeMessage(
  ctx: RequestContext,
  m: Omit<StoredMessage, 'id' | 'flags' | 'reactions' | 'timestamp'>,
): StoredMessage {
  const flags: Record<string, string[]> = {};
  const users =
    m.type === 'stream' && m.channelId !== null
      ? subscriberIds(ctx.org, m.channelId)
      : m.recipientIds;
  for (const u of users) flags[String(u)] = [];
  flags[String(m.senderId)] = ['read'];
  const msg: StoredMessage = {
    ...m,
    id: nextId(ctx.org),
    flags,
    reactions: [],
    timestamp: Math.floor(ctx.now / 1000),
  };
  messages(ctx.org).push(msg);
  return msg;
}

/** `POST /messages` (./message-send.ts), storing the message it checked. */
function sendMessage(ctx: RequestContext): Record<string, unknown> {
  const msg = parseSendRequest(ctx);
  const base = { senderId: ctx.user.id, content: msg.content };
  if (msg.type === 'stream')
    return {
      id: storeMessage(ctx, {
        ...base,
        type: 'stream',
        channelId: msg.channel.id,
        topic: msg.topic,
        recipientIds: [],
      }).id,
    };
  const ids = [...new Set([ctx.user.id, ...msg.users.map((u) => u.id)])].sort((a, b) => a - b);
  return {
    id: storeMessage(ctx, {
      ...base,
      type: 'private',
      channelId: null,
      topic: '',
      recipientIds: ids,
    }).id,
  };
}

/** `NonNegativeInt`: "x is too small" below zero. */
export function nonNegative(v: number, name: string): number {
  if (v < 0) throw badRequest(`${name} is too small`);
  return v;
}

/** The first unread message of the narrow's matches, else the newest (narrow.py). */
export function firstUnreadAnchor(ctx: RequestContext, all: StoredMessage[]): number {
  const key = String(ctx.user.id);
  return (
    all.find((m) => !(m.flags[key] ?? ['read']).includes('read'))?.id ?? LARGER_THAN_MAX_MESSAGE_ID
  );
}

/**
 * zerver/views/reactions.py add_reaction (zerver/actions/reactions.py check_add_reaction) and
 * remove_reaction. A reaction with the code of another user's reaction votes for it and takes
 * its name; removing needs only the code (or a name to look it up).
 */
function reaction(ctx: RequestContext, add: boolean): Record<string, unknown> {
  const p = ctx.params;
  const codeParam = p.string('emoji_code');
  const nameParam = add ? p.requiredString('emoji_name') : p.string('emoji_name');
  const typeParam = p.string('reaction_type');
  const m = messages(ctx.org).find((x) => x.id === pathInt(ctx, 'message_id'));
  if (!m || !canAccessMessage(ctx, m)) throw badRequest('Invalid message(s)');
  if (!add) {
    const type = typeParam ?? 'unicode_emoji';
    let code = codeParam;
    if (code === undefined) {
      if (nameParam === undefined)
        throw badRequest(
          'At least one of the following arguments must be present: emoji_name, emoji_code',
        );
      code = getEmojiData(ctx.org, nameParam).code;
    }
    const existing = m.reactions.find(
      (r) => r.userId === ctx.user.id && r.emojiCode === code && r.reactionType === type,
    );
    if (!existing)
      throw new ApiError("Reaction doesn't exist.", { code: 'REACTION_DOES_NOT_EXIST' });
    m.reactions = m.reactions.filter((r) => r !== existing);
    return {};
  }
  let name = nameParam ?? '';
  let code = codeParam;
  let type = typeParam;
  if (code === undefined || type === undefined) {
    const data = getEmojiData(ctx.org, name);
    code ??= data.code;
    type ??= data.type;
  }
  const same = (r: StoredMessage['reactions'][number]): boolean =>
    r.emojiCode === code && r.reactionType === type;
  if (m.reactions.some((r) => r.userId === ctx.user.id && same(r)))
    throw new ApiError('Reaction already exists.', { code: 'REACTION_ALREADY_EXISTS' });
  const vote = m.reactions.find(same);
  if (vote) name = vote.emojiName;
  else checkEmojiRequest(ctx.org, name, code, type);
  // A reaction to a message the user has no UserMessage row for creates a historical one.
  m.flags[String(ctx.user.id)] ??= ['read', 'historical'];
  m.reactions.push({ userId: ctx.user.id, emojiName: name, emojiCode: code, reactionType: type });
  return {};
}

// ---- GET /messages and PATCH /messages/{message_id} ----

/** zerver/lib/narrow.py: `MAX_MESSAGES_PER_FETCH`. */
const MAX_MESSAGES_PER_FETCH = 5000;

/**
 * A message as `GET /messages` returns it (zerver/lib/message_cache.py MessageDict
 * build_message_dict + finalize_payload). The emulator has no Recipient rows: a channel
 * message's `recipient_id` is its channel ID, a direct message's the smallest participant ID.
 */
export function messageToApi(
  ctx: RequestContext,
  m: StoredMessage,
  opts: { applyMarkdown: boolean; clientGravatar: boolean },
): Record<string, unknown> {
  const sender = ctx.org.users.find((u) => u.id === m.senderId);
  const senderEmail = sender?.email ?? '';
  const out: Record<string, unknown> = {
    id: m.id,
    sender_id: m.senderId,
    content: opts.applyMarkdown ? renderMarkdown(m.content) : m.content,
    recipient_id: m.type === 'stream' ? (m.channelId ?? 0) : Math.min(...m.recipientIds),
    timestamp: m.timestamp,
    client: 'Internal',
    subject: m.topic,
    topic_links: [],
    is_me_message: m.content.startsWith('/me '),
    reactions: m.reactions.map((r) => ({
      emoji_name: r.emojiName,
      emoji_code: r.emojiCode,
      reaction_type: r.reactionType,
      user_id: r.userId,
    })),
    submessages: [],
    sender_full_name: sender?.fullName ?? '',
    sender_email: senderEmail,
    sender_realm_str: ctx.org.realm.stringId,
    display_recipient:
      m.type === 'stream'
        ? (ctx.org.channels.find((c) => c.id === m.channelId)?.name ?? '')
        : m.recipientIds
            .map((id) => ctx.org.users.find((u) => u.id === id))
            .filter((u): u is StoredUser => u !== undefined)
            .sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0))
            .map((u) => ({
              id: u.id,
              email: u.email,
              full_name: u.fullName,
              is_mirror_dummy: false,
            })),
    type: m.type,
    avatar_url: opts.clientGravatar ? null : avatarUrl(senderEmail),
    content_type: opts.applyMarkdown ? 'text/html' : 'text/x-markdown',
    flags: m.flags[String(ctx.user.id)] ?? ['read', 'historical'],
  };
  if (m.type === 'stream') out.stream_id = m.channelId;
  if (m.lastEditTimestamp !== undefined) out.last_edit_timestamp = m.lastEditTimestamp;
  return out;
}

/** `Json[list[NonNegativeInt] | None]`: the first bad element is the one reported. */
function nonNegativeIntList(raw: unknown, name: string): number[] | undefined {
  if (raw === null) return undefined;
  if (!Array.isArray(raw)) throw badRequest(`${name} is not a list`);
  return raw.map((v: unknown, i) => {
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw badRequest(`${name}[${i}] is not an integer`);
    return nonNegative(v, `${name}[${i}]`);
  });
}

/**
 * `GET /messages`: zerver/views/message_fetch.py get_messages_backend. Its parameters in
 * signature order, then the parameter combination, `parse_anchor_value`,
 * `clean_narrow_for_message_fetch` (the `with` operator), the size and range checks, and the
 * narrow's terms as `NarrowBuilder` checks them (./narrow.ts), by anchor or by `message_ids`.
 */
function getMessages(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  p.bool('allow_empty_topic_name');
  const anchorRaw = p.string('anchor');
  const applyMarkdown = p.bool('apply_markdown') ?? true;
  const clientGravatar = p.bool('client_gravatar') ?? true;
  const idsRaw = p.json('message_ids');
  const messageIds = idsRaw === undefined ? undefined : nonNegativeIntList(idsRaw, 'message_ids');
  let includeAnchor = p.bool('include_anchor') ?? true;
  let narrow = parseNarrow(p.json('narrow'));
  const numAfter = nonNegative(p.int('num_after') ?? 0, 'num_after');
  const numBefore = nonNegative(p.int('num_before') ?? 0, 'num_before');
  const useFirstUnread = p.bool('use_first_unread_anchor') ?? false;
  if (
    (numBefore > 0 || numAfter > 0 || anchorRaw !== undefined || useFirstUnread) &&
    messageIds !== undefined
  )
    throw incompatibleParameters([
      'num_before',
      'num_after',
      'anchor',
      'message_ids',
      'include_anchor',
      'use_first_unread_anchor',
    ]);
  if (messageIds !== undefined) includeAnchor = false;
  let anchor: number | undefined;
  if (messageIds === undefined) anchor = parseAnchor(anchorRaw, useFirstUnread);
  narrow = resolveWithOperator(ctx, renameGeneralChatTopic(narrow), (m) =>
    canAccessMessage(ctx, m),
  );
  const requested = messageIds === undefined ? numBefore + numAfter : messageIds.length;
  if (requested > MAX_MESSAGES_PER_FETCH)
    throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  if (numBefore > 0 && numAfter > 0 && !includeAnchor)
    throw badRequest('The anchor can only be excluded at an end of the range');
  const matches = compileNarrow(ctx, narrow);
  const view = { applyMarkdown, clientGravatar };
  const all = messages(ctx.org)
    .filter((m) => canAccessMessage(ctx, m) && matches(m))
    .sort((a, b) => a.id - b.id);
  if (messageIds !== undefined) {
    const wanted = new Set(messageIds);
    return {
      messages: all.filter((m) => wanted.has(m.id)).map((m) => messageToApi(ctx, m, view)),
      history_limited: false,
      found_anchor: false,
      found_oldest: false,
      found_newest: false,
    };
  }
  const a = anchor ?? firstUnreadAnchor(ctx, all);
  // zerver/lib/narrow.py post_process_limited_query; an anchor at or past the newest
  // message takes everything as "before" it.
  const anchoredLeft = a === 0;
  const anchoredRight = a >= LARGER_THAN_MAX_MESSAGE_ID;
  const before = anchoredRight ? all : all.filter((m) => m.id < a);
  const at = anchoredRight || !includeAnchor ? [] : all.filter((m) => m.id === a);
  const after = anchoredRight ? [] : all.filter((m) => m.id > a);
  const beforeList = numBefore === 0 ? [] : before.slice(-numBefore);
  const afterList = after.slice(0, anchoredRight ? 0 : numAfter);
  const list = [...beforeList, ...at, ...afterList];
  return {
    messages: list.map((m) => messageToApi(ctx, m, view)),
    anchor: a,
    found_anchor: at.length === 1,
    found_oldest: anchoredLeft || beforeList.length < numBefore,
    found_newest: anchoredRight || afterList.length < numAfter,
    history_limited: false,
  };
}

/** Message routes: sending, fetching, editing, reactions (flags: ./message-flags.ts). */
export const messageRoutes: Route[] = [
  { method: 'POST', path: '/messages', handler: sendMessage },
  { method: 'GET', path: '/messages', handler: getMessages },
  { method: 'PATCH', path: '/messages/{message_id}', handler: (ctx) => updateMessage(ctx) },
  {
    method: 'POST',
    path: '/messages/{message_id}/reactions',
    handler: (ctx) => reaction(ctx, true),
  },
  {
    method: 'DELETE',
    path: '/messages/{message_id}/reactions',
    handler: (ctx) => reaction(ctx, false),
  },
];
