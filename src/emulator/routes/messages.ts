import { ApiError, badRequest, incompatibleParameters, missingArgument } from '../errors';
import { UNICODE_EMOJI } from '../emoji';
import { expectList } from '../params';
import { hasContentAccess, holdsRealmSetting, holdsSetting, subscriberIds } from '../permissions';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { OrgState, StoredChannel, StoredMessage, StoredUser } from '../state';
import { ROLES } from '../../model/kinds';
import { avatarUrl, renderMarkdown } from '../views';
import { channelByName, pathInt } from './common';

const MAX_TOPIC = 60;
const MAX_MESSAGE = 10000;

/** Flags users may change (2.7a); the others are set by the server. */
const EDITABLE_FLAGS = ['read', 'starred', 'collapsed'];
const ALL_FLAGS = [
  ...EDITABLE_FLAGS,
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'has_alert_word',
  'historical',
  'wildcard_mentioned',
];

export function messages(org: OrgState): StoredMessage[] {
  org.messages ??= [];
  return org.messages;
}

/** Whether the user can read the message (a UserMessage row, or content access to its channel). */
export function canAccessMessage(ctx: RequestContext, m: StoredMessage): boolean {
  if (m.flags[String(ctx.user.id)] !== undefined) return true;
  if (m.type !== 'stream' || m.channelId === null) return false;
  const ch = ctx.org.channels.find((c) => c.id === m.channelId);
  return ch !== undefined && hasContentAccess(ctx.org, ctx.user, ch);
}

/** The channel a `to` names (ID or name), with Zulip's STREAM_DOES_NOT_EXIST errors. */
export function channelForSend(ctx: RequestContext, to: unknown): StoredChannel {
  let target = to;
  if (Array.isArray(target) && target.length === 1) target = target[0];
  if (typeof target === 'number') {
    const ch = ctx.org.channels.find((c) => c.id === target);
    if (!ch || !hasContentAccess(ctx.org, ctx.user, ch))
      throw new ApiError(`Channel with ID '${target}' does not exist`, {
        code: 'STREAM_DOES_NOT_EXIST',
        data: { stream_id: target },
      });
    return ch;
  }
  if (typeof target !== 'string') throw badRequest('Invalid channel ID');
  const ch = channelByName(ctx, target);
  if (!ch || !hasContentAccess(ctx.org, ctx.user, ch))
    throw new ApiError(`Channel '${target}' does not exist`, {
      code: 'STREAM_DOES_NOT_EXIST',
      data: { stream: target },
    });
  return ch;
}

/** Direct-message recipients by ID or email. */
export function directRecipients(ctx: RequestContext, to: unknown): StoredUser[] {
  const list = Array.isArray(to) ? (to as unknown[]) : [to];
  return list.map((x) => {
    const u =
      typeof x === 'number'
        ? ctx.org.users.find((v) => v.id === x)
        : ctx.org.users.find(
            (v) => typeof x === 'string' && v.email.toLowerCase() === x.toLowerCase(),
          );
    if (!u || !u.isActive)
      throw badRequest(
        typeof x === 'number' ? `Invalid user ID ${x}` : `Invalid email '${String(x)}'`,
      );
    return u;
  });
}

/** Parses `to`: JSON when it parses, else the raw text (a channel name or an email list). */
export function parseTo(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw.includes(',') ? raw.split(',').map((s) => s.trim()) : raw;
  }
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

function sendMessage(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const type = p.requiredString('type');
  const toRaw = p.raw_('to');
  if (toRaw === undefined) throw missingArgument('to');
  const content = p.requiredString('content');
  const topic = (p.string('topic') ?? p.string('subject') ?? '').trim();
  p.declare('queue_id', 'local_id', 'read_by_sender');
  if (!['stream', 'channel', 'private', 'direct'].includes(type))
    throw badRequest('Invalid message type');
  if (content.trim() === '') throw badRequest('Message must not be empty');
  const text = [...content].slice(0, MAX_MESSAGE).join('');
  if (type === 'stream' || type === 'channel') {
    const ch = channelForSend(ctx, parseTo(toRaw));
    if (ch.isArchived) throw badRequest('Not authorized to send to channel');
    if (!holdsSetting(ctx.org, ctx.user, ch.settings.can_send_message_group))
      throw badRequest('You do not have permission to post in this channel.');
    const m = storeMessage(ctx, {
      senderId: ctx.user.id,
      type: 'stream',
      channelId: ch.id,
      topic: [...topic].slice(0, MAX_TOPIC).join(''),
      recipientIds: [],
      content: text,
    });
    return { id: m.id };
  }
  const users = directRecipients(ctx, parseTo(toRaw));
  const ids = [...new Set([ctx.user.id, ...users.map((u) => u.id)])].sort((a, b) => a - b);
  const m = storeMessage(ctx, {
    senderId: ctx.user.id,
    type: 'private',
    channelId: null,
    topic: '',
    recipientIds: ids,
    content: text,
  });
  return { id: m.id };
}

function checkFlagOp(op: string, flag: string): void {
  if (op !== 'add' && op !== 'remove') throw badRequest(`Invalid message flag operation: '${op}'`);
  if (!ALL_FLAGS.includes(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.includes(flag)) throw badRequest(`Flag not editable: '${flag}'`);
}

/** Applies a flag change to the given messages; returns the IDs changed. */
function applyFlag(ctx: RequestContext, list: StoredMessage[], op: string, flag: string): number[] {
  const changed: number[] = [];
  const key = String(ctx.user.id);
  for (const m of list) {
    let row = m.flags[key];
    if (row === undefined) {
      if (op !== 'add' || flag === 'read') continue;
      row = ['historical', 'read'];
      m.flags[key] = row;
    }
    const has = row.includes(flag);
    if (op === 'add' && !has) {
      row.push(flag);
      changed.push(m.id);
    } else if (op === 'remove' && has) {
      m.flags[key] = row.filter((f) => f !== flag);
      changed.push(m.id);
    }
  }
  return changed;
}

function flagsByIds(ctx: RequestContext): Record<string, unknown> {
  const ids = ctx.params.intList('messages');
  if (ids === undefined) throw missingArgument('messages');
  const op = ctx.params.requiredString('op');
  const flag = ctx.params.requiredString('flag');
  checkFlagOp(op, flag);
  const list = ids.map((id) => {
    const m = messages(ctx.org).find((x) => x.id === id);
    if (!m || !canAccessMessage(ctx, m)) throw badRequest('Invalid message(s)');
    return m;
  });
  const out: Record<string, unknown> = { messages: applyFlag(ctx, list, op, flag) };
  if (flag === 'read' && op === 'remove') out.ignored_because_not_subscribed_channels = [];
  return out;
}

/** Narrow filters for `/messages/flags/narrow`: channel, topic, sender, is:, dm. */
function matchesNarrow(ctx: RequestContext, m: StoredMessage, narrow: unknown[]): boolean {
  for (const term of narrow) {
    let operator: string;
    let operand: unknown;
    let negated = false;
    if (Array.isArray(term)) [operator, operand] = term as [string, unknown];
    else {
      const t = term as { operator?: string; operand?: unknown; negated?: boolean };
      operator = t.operator ?? '';
      operand = t.operand;
      negated = t.negated === true;
    }
    let ok: boolean;
    const flags = m.flags[String(ctx.user.id)] ?? [];
    switch (operator) {
      case 'channel':
      case 'stream': {
        const ch =
          typeof operand === 'number'
            ? ctx.org.channels.find((c) => c.id === operand)
            : channelByName(ctx, String(operand));
        ok = ch !== undefined && m.channelId === ch.id;
        break;
      }
      case 'topic':
        ok = m.type === 'stream' && m.topic.toLowerCase() === String(operand).toLowerCase();
        break;
      case 'sender': {
        const u = ctx.org.users.find((x) => x.id === operand || x.email === operand);
        ok = u !== undefined && m.senderId === u.id;
        break;
      }
      case 'dm':
      case 'pm-with':
        ok = m.type === 'private' && sameDmGroup(ctx, m, operand);
        break;
      case 'is':
        if (operand === 'unread')
          ok = m.flags[String(ctx.user.id)] !== undefined && !flags.includes('read');
        else if (operand === 'starred') ok = flags.includes('starred');
        else if (operand === 'mentioned') ok = flags.includes('mentioned');
        else if (operand === 'dm' || operand === 'private') ok = m.type === 'private';
        else throw badRequest(`Invalid narrow operator: unknown 'is' operand ${String(operand)}`);
        break;
      default:
        throw badRequest(`Invalid narrow operator: unknown operator ${operator}`);
    }
    if (ok === negated) return false;
  }
  return true;
}

/**
 * One narrow term as `NarrowParameter` (zerver/lib/narrow.py) accepts it: a pair of strings
 * or a dict with an operator and an operand; a `search` operand may not be blank.
 */
function checkNarrowTerm(term: unknown, i: number): void {
  const invalid = (why: string): ApiError =>
    badRequest(`Invalid narrow[${i}]: Value error, ${why}`);
  let operator: unknown;
  let operand: unknown;
  if (Array.isArray(term)) {
    if (term.length !== 2 || term.some((x) => typeof x !== 'string'))
      throw invalid('element is not a string pair');
    [operator, operand] = term as unknown[];
  } else if (typeof term === 'object' && term !== null) {
    const t = term as Record<string, unknown>;
    if (t.operand === undefined || t.operand === null) throw invalid('operand is missing');
    if (t.operator === undefined || t.operator === null) throw invalid('operator is missing');
    ({ operator, operand } = t);
  } else throw invalid('dict or list required');
  if (operator === 'search' && (typeof operand !== 'string' || operand.trim() === ''))
    throw badRequest('operand cannot be blank.');
}

function flagsByNarrow(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const anchorRaw = p.requiredString('anchor');
  const includeAnchor = p.bool('include_anchor') ?? true;
  const before = p.int('num_before');
  if (before === undefined) throw missingArgument('num_before');
  const after = p.int('num_after');
  if (after === undefined) throw missingArgument('num_after');
  const narrowRaw = p.json('narrow');
  if (narrowRaw === undefined) throw missingArgument('narrow');
  const narrow = narrowRaw === null ? [] : expectList(narrowRaw, 'narrow');
  narrow.forEach(checkNarrowTerm);
  const op = p.requiredString('op');
  const flag = p.requiredString('flag');
  checkFlagOp(op, flag);
  if (before < 0) throw badRequest('num_before is too small');
  if (after < 0) throw badRequest('num_after is too small');
  // zerver/views/message_flags.py update_message_flags_for_narrow
  if (before > 0 && after > 0 && !includeAnchor)
    throw badRequest('The anchor can only be excluded at an end of the range');
  const all = messages(ctx.org)
    .filter((m) => canAccessMessage(ctx, m) && matchesNarrow(ctx, m, narrow))
    .sort((a, b) => a.id - b.id);
  let anchor: number;
  if (anchorRaw === 'newest') anchor = Number.MAX_SAFE_INTEGER;
  else if (anchorRaw === 'oldest') anchor = 0;
  else if (anchorRaw === 'first_unread') {
    const first = all.find((m) => !(m.flags[String(ctx.user.id)] ?? ['read']).includes('read'));
    anchor = first?.id ?? Number.MAX_SAFE_INTEGER;
  } else if (/^[0-9]+$/.test(anchorRaw)) anchor = Number(anchorRaw);
  else throw badRequest('Invalid anchor');
  const older = all.filter((m) => m.id < anchor);
  const beforeList = before === 0 ? [] : older.slice(-before);
  const at = includeAnchor ? all.filter((m) => m.id === anchor) : [];
  const afterList = all.filter((m) => m.id > anchor).slice(0, after);
  const range = [...beforeList, ...at, ...afterList];
  const updated = applyFlag(ctx, range, op, flag);
  const out: Record<string, unknown> = {
    processed_count: range.length,
    updated_count: updated.length,
    first_processed_id: range[0]?.id ?? null,
    last_processed_id: range.at(-1)?.id ?? null,
    found_oldest: range.length === 0 || range[0] === all[0],
    found_newest: range.length === 0 || range.at(-1) === all.at(-1),
  };
  if (flag === 'read' && op === 'remove') out.ignored_because_not_subscribed_channels = [];
  return out;
}

/** zerver/lib/emoji.py get_emoji_data (no custom emoji in the emulator). */
function emojiData(name: string): { code: string; type: string } {
  if (name === 'zulip') return { code: 'zulip', type: 'zulip_extra_emoji' };
  const code = UNICODE_EMOJI[name];
  if (code === undefined) throw badRequest(`Emoji '${name}' does not exist`);
  return { code, type: 'unicode_emoji' };
}

/** zerver/lib/emoji.py check_emoji_request. */
function checkEmojiRequest(name: string, code: string, type: string): void {
  if (type === 'realm_emoji') throw badRequest('Invalid custom emoji.');
  if (type === 'zulip_extra_emoji') {
    if (code !== 'zulip') throw badRequest('Invalid emoji code.');
    if (name !== code) throw badRequest('Invalid emoji name.');
  } else if (type === 'unicode_emoji') {
    if (!Object.values(UNICODE_EMOJI).includes(code)) throw badRequest('Invalid emoji code.');
    if (UNICODE_EMOJI[name] !== code) throw badRequest('Invalid emoji name.');
  } else throw badRequest('Invalid emoji type.');
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
      code = emojiData(nameParam).code;
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
    const data = emojiData(name);
    code ??= data.code;
    type ??= data.type;
  }
  const same = (r: StoredMessage['reactions'][number]): boolean =>
    r.emojiCode === code && r.reactionType === type;
  if (m.reactions.some((r) => r.userId === ctx.user.id && same(r)))
    throw new ApiError('Reaction already exists.', { code: 'REACTION_ALREADY_EXISTS' });
  const vote = m.reactions.find(same);
  if (vote) name = vote.emojiName;
  else checkEmojiRequest(name, code, type);
  // A reaction to a message the user has no UserMessage row for creates a historical one.
  m.flags[String(ctx.user.id)] ??= ['read', 'historical'];
  m.reactions.push({ userId: ctx.user.id, emojiName: name, emojiCode: code, reactionType: type });
  return {};
}

// ---- GET /messages and PATCH /messages/{message_id} ----

/** zerver/lib/narrow.py: `MAX_MESSAGES_PER_FETCH`. */
const MAX_MESSAGES_PER_FETCH = 5000;
/** zerver/lib/narrow.py: `LARGER_THAN_MAX_MESSAGE_ID`, the anchor `newest` stands for. */
const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;
/** Realm defaults: `message_content_edit_limit_seconds` (600) and the 20 s grace Zulip adds. */
const CONTENT_EDIT_LIMIT_SECONDS = 600;
const EDIT_LIMIT_BUFFER_SECONDS = 20;
/** Realm default `move_messages_within_stream_limit_seconds` (one week). */
const TOPIC_EDIT_LIMIT_SECONDS = 7 * 24 * 3600;

/**
 * Whether a direct message is between the user and the `dm` operand's users (IDs, emails, or
 * comma-separated emails): zerver/lib/narrow.py by_dm matches the exact group.
 */
function sameDmGroup(ctx: RequestContext, m: StoredMessage, operand: unknown): boolean {
  const list: unknown[] = Array.isArray(operand)
    ? (operand as unknown[])
    : typeof operand === 'string'
      ? operand.split(',').map((x) => x.trim())
      : [operand];
  const ids = new Set<number>([ctx.user.id]);
  for (const x of list) {
    const u = ctx.org.users.find(
      (v) => v.id === x || (typeof x === 'string' && v.email.toLowerCase() === x.toLowerCase()),
    );
    if (!u) return false;
    ids.add(u.id);
  }
  const participants = new Set(m.recipientIds);
  return participants.size === ids.size && [...ids].every((id) => participants.has(id));
}

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

/** zerver/lib/narrow.py parse_anchor_value: the anchor as a message ID, or undefined for first_unread. */
function parseAnchor(raw: string | undefined, useFirstUnread: boolean): number | undefined {
  if (useFirstUnread) return undefined;
  if (raw === undefined) throw badRequest("Missing 'anchor' argument.");
  if (raw === 'oldest') return 0;
  if (raw === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (raw === 'first_unread') return undefined;
  if (!/^-?[0-9]+$/.test(raw)) throw badRequest('Invalid anchor');
  return Math.max(0, Number(raw));
}

/**
 * `GET /messages`: zerver/views/message_fetch.py get_messages_backend, for the narrows
 * `matchesNarrow` knows (channel, topic, sender, dm, is:), by anchor or by `message_ids`.
 */
function getMessages(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  p.declare('allow_empty_topic_name');
  const anchorRaw = p.string('anchor');
  const applyMarkdown = p.bool('apply_markdown') ?? true;
  const clientGravatar = p.bool('client_gravatar') ?? true;
  const messageIds = p.intList('message_ids');
  let includeAnchor = p.bool('include_anchor') ?? true;
  const narrowRaw = p.json('narrow');
  const numAfter = p.int('num_after') ?? 0;
  const numBefore = p.int('num_before') ?? 0;
  const useFirstUnread = p.bool('use_first_unread_anchor') ?? false;
  if (numAfter < 0) throw badRequest('num_after is too small');
  if (numBefore < 0) throw badRequest('num_before is too small');
  if (messageIds?.some((id) => id < 0)) throw badRequest('message_ids[0] is too small');
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
  const narrow =
    narrowRaw === undefined || narrowRaw === null ? [] : expectList(narrowRaw, 'narrow');
  const requested = messageIds === undefined ? numBefore + numAfter : messageIds.length;
  if (requested > MAX_MESSAGES_PER_FETCH)
    throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  if (numBefore > 0 && numAfter > 0 && !includeAnchor)
    throw badRequest('The anchor can only be excluded at an end of the range');
  const view = { applyMarkdown, clientGravatar };
  const all = messages(ctx.org)
    .filter((m) => canAccessMessage(ctx, m) && matchesNarrow(ctx, m, narrow))
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
  if (anchor === undefined) {
    // first_unread: the first unread message of the narrow, else the newest (narrow.py).
    const key = String(ctx.user.id);
    const first = all.find((m) => !(m.flags[key] ?? ['read']).includes('read'));
    anchor = first?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
  }
  const a = anchor;
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

/**
 * `PATCH /messages/{message_id}`: zerver/views/message_edit.py update_message_backend with
 * zerver/actions/message_edit.py check_update_message, for content and topic edits (moving to
 * another channel is not modelled: `stream_id` is reported as an ignored parameter).
 */
function updateMessage(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const id = pathInt(ctx, 'message_id');
  const content = p.string('content');
  const propagateMode = p.string('propagate_mode') ?? 'change_one';
  p.declare('send_notification_to_old_thread', 'send_notification_to_new_thread');
  p.declare('prev_content_sha256');
  let topic = p.string('topic') ?? p.string('subject');
  if (!['change_one', 'change_later', 'change_all'].includes(propagateMode))
    throw badRequest('Invalid propagate_mode');
  const m = messages(ctx.org).find((x) => x.id === id);
  if (!m || !canAccessMessage(ctx, m)) throw badRequest('Invalid message(s)');
  const age = Math.floor(ctx.now / 1000) - m.timestamp;
  if (content !== undefined) {
    // validate_user_can_edit_message
    if (m.senderId !== ctx.user.id)
      throw badRequest("You don't have permission to edit this message");
    if (age > CONTENT_EDIT_LIMIT_SECONDS + EDIT_LIMIT_BUFFER_SECONDS)
      throw badRequest('The time limit for editing this message has passed');
  }
  if (topic !== undefined) {
    topic = topic.trim();
    if (topic === m.topic) topic = undefined;
  }
  // validate_message_edit_payload
  if (topic === undefined && content === undefined) throw badRequest('Nothing to change');
  if (m.type !== 'stream' && topic !== undefined)
    throw badRequest('Direct messages cannot have topics.');
  if (propagateMode !== 'change_one' && topic === undefined)
    throw badRequest('Invalid propagate_mode without topic edit');
  if (topic !== undefined && [...topic].length > MAX_TOPIC)
    throw badRequest(`Topic is too long (limit: ${MAX_TOPIC} characters)`);
  const moved: StoredMessage[] = [m];
  if (topic !== undefined) {
    if (!holdsRealmSetting(ctx.org, ctx.user, 'can_move_messages_between_topics_group'))
      throw badRequest("You don't have permission to edit this message");
    if (
      ctx.user.role > ROLES.moderator &&
      age > TOPIC_EDIT_LIMIT_SECONDS + EDIT_LIMIT_BUFFER_SECONDS
    )
      throw badRequest("The time limit for editing this message's topic has passed.");
    if (propagateMode !== 'change_one')
      for (const x of messages(ctx.org))
        if (
          x !== m &&
          x.type === 'stream' &&
          x.channelId === m.channelId &&
          x.topic.toLowerCase() === m.topic.toLowerCase() &&
          (propagateMode === 'change_all' || x.id > m.id) &&
          canAccessMessage(ctx, x)
        )
          moved.push(x);
  }
  if (content !== undefined) {
    const text = content.trim() === '' ? '(deleted)' : [...content].slice(0, MAX_MESSAGE).join('');
    m.content = text;
    m.lastEditTimestamp = Math.floor(ctx.now / 1000);
  }
  if (topic !== undefined)
    for (const x of moved) {
      x.topic = topic;
      x.lastEditTimestamp = Math.floor(ctx.now / 1000);
    }
  return { detached_uploads: [] };
}

/** Message routes: sending (so flags and reactions have something to act on), flags, reactions. */
export const messageRoutes: Route[] = [
  { method: 'POST', path: '/messages', handler: sendMessage },
  { method: 'GET', path: '/messages', handler: getMessages },
  { method: 'PATCH', path: '/messages/{message_id}', handler: updateMessage },
  { method: 'POST', path: '/messages/flags', handler: flagsByIds },
  { method: 'POST', path: '/messages/flags/narrow', handler: flagsByNarrow },
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
