import { ApiError, badRequest, missingArgument } from '../errors';
import { UNICODE_EMOJI } from '../emoji';
import { expectList } from '../params';
import { hasContentAccess, holdsSetting, subscriberIds } from '../permissions';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { OrgState, StoredChannel, StoredMessage, StoredUser } from '../state';
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

/** Message routes: sending (so flags and reactions have something to act on), flags, reactions. */
export const messageRoutes: Route[] = [
  { method: 'POST', path: '/messages', handler: sendMessage },
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
