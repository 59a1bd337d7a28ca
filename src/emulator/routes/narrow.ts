import { ApiError, badRequest } from '../errors';
import { expectList } from '../params';
import { subscriptionOf } from '../indexes';
import type { RequestContext } from '../router';
import type { StoredMessage, StoredUser } from '../state';
import { channelByName, userByIdOrEmail } from './common';
import { RESOLVED_TOPIC_PREFIX } from './message-send';

/**
 * Narrows as Zulip reads them (zerver/lib/narrow.py): `NarrowParameter` checks each term's
 * shape while the request is parsed; `NarrowBuilder` checks the operators and operands when it
 * builds the query, whether or not any message would match (`BadNarrowOperatorError`, code
 * `BAD_NARROW`, with the description in `desc`).
 *
 * What the emulator cannot know it answers as a server without that data would: it has no
 * uploads (`has:attachment` and `has:image` look for `/user_uploads/` links), no followed
 * topics (`is:followed` matches nothing) and no alert words; `search` matches messages whose
 * content or topic contains every word (or quoted phrase), without Zulip's stemming.
 */
export interface NarrowTerm {
  operator: string;
  operand: unknown;
  negated: boolean;
}

const CHANNEL_OPERATORS = ['channel', 'stream'];
/** zerver/lib/narrow.py `NarrowParameter.validate_terms`: operators taking an ID or a string. */
const ID_OPERATORS = [
  ...CHANNEL_OPERATORS,
  'id',
  'sender',
  'group-pm-with',
  'dm-including',
  'with',
];
const IDS_OPERATORS = ['pm-with', 'dm'];
/** `Message.MAX_POSSIBLE_MESSAGE_ID`. */
const MAX_POSSIBLE_MESSAGE_ID = 2147483647;

/** Python's `isinstance(x, int)` for a JSON value (booleans are ints in Python). */
const isPyInt = (v: unknown): boolean =>
  typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v));

/** Python's `str()` of an operand, as the error descriptions show it. */
function pyStr(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pyStr).join(', ')}]`;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return String(v);
}

const badNarrow = (desc: string): ApiError =>
  new ApiError(`Invalid narrow operator: ${desc}`, { code: 'BAD_NARROW', data: { desc } });

/**
 * One term as `NarrowParameter` validates it: the legacy pair or a dict (`convert_term`), the
 * model's typed fields, then the operand by operator (`validate_terms`).
 */
function parseNarrowTerm(term: unknown, i: number): NarrowTerm {
  const invalid = (why: string): ApiError =>
    badRequest(`Invalid narrow[${i}]: Value error, ${why}`);
  let t: Record<string, unknown>;
  if (Array.isArray(term)) {
    if (term.length !== 2 || term.some((x) => typeof x !== 'string'))
      throw invalid('element is not a string pair');
    t = { operator: term[0], operand: term[1] };
  } else if (typeof term === 'object' && term !== null) {
    t = term as Record<string, unknown>;
    if (t.operand === undefined || t.operand === null) throw invalid('operand is missing');
    if (t.operator === undefined || t.operator === null) throw invalid('operator is missing');
  } else throw invalid('dict or list required');
  if (typeof t.operator !== 'string') throw badRequest(`narrow[${i}]["operator"] is not a string`);
  const negated = t.negated === undefined ? false : t.negated;
  if (typeof negated !== 'boolean') throw badRequest(`narrow[${i}]["negated"] is not a boolean`);
  const { operator, operand } = t;
  if (ID_OPERATORS.includes(operator)) {
    if (typeof operand !== 'string' && !isPyInt(operand))
      throw badRequest('operand is not a string or integer');
  } else if (IDS_OPERATORS.includes(operator)) {
    if (typeof operand !== 'string') {
      if (!Array.isArray(operand)) throw badRequest('operand is not a string or an integer list');
      operand.forEach((x, j) => {
        if (!isPyInt(x)) throw badRequest(`operand[${j}] is not an integer`);
      });
    }
  } else if (typeof operand !== 'string') throw badRequest('operand is not a string');
  else if (operator === 'search' && operand.trim() === '')
    throw badRequest('operand cannot be blank.');
  return { operator, operand, negated };
}

/** `narrow: Json[list[NarrowParameter] | None]`: the parsed terms ([] for null). */
export function parseNarrow(raw: unknown): NarrowTerm[] {
  if (raw === undefined || raw === null) return [];
  return expectList(raw, 'narrow').map(parseNarrowTerm);
}

type Predicate = (m: StoredMessage) => boolean;

/** A user as `get_user_including_cross_realm` / `..._by_id_...` find one: any state. */
const userOf = (ctx: RequestContext, operand: unknown): StoredUser | undefined =>
  typeof operand === 'string' || typeof operand === 'number'
    ? userByIdOrEmail(ctx, operand)
    : undefined;

const isMutedChannel = (ctx: RequestContext, channelId: number | null): boolean =>
  channelId !== null && subscriptionOf(ctx.org, ctx.user.id, channelId)?.isMuted === true;

/**
 * zerver/lib/narrow.py `update_narrow_terms_containing_with_operator` (GET /messages only): a
 * `with` term is replaced by the conversation of the message it names, or dropped when the
 * message is out of reach and the other terms name a conversation.
 */
export function resolveWithOperator(
  ctx: RequestContext,
  narrow: NarrowTerm[],
  canAccess: (m: StoredMessage) => boolean,
): NarrowTerm[] {
  const withTerms = narrow.filter((t) => t.operator === 'with');
  if (withTerms.length > 1)
    throw new ApiError("Invalid narrow operator combination: Duplicate 'with' operators.", {
      code: 'BAD_NARROW',
      data: { desc: "Duplicate 'with' operators." },
    });
  const withTerm = withTerms[0];
  if (withTerm === undefined) return narrow;
  const rest = narrow.filter((t) => t !== withTerm);
  const raw = withTerm.operand;
  const id =
    typeof raw === 'number' ? raw : /^\s*[+-]?\d+\s*$/.test(String(raw)) ? Number(raw) : NaN;
  if (Number.isNaN(id)) throw badNarrow("Invalid 'with' operator");
  const m = ctx.org.messages?.find((x) => x.id === id);
  if (m === undefined || !canAccess(m)) {
    const ops = rest.map((t) => t.operator);
    const definesConversation =
      ops.some((o) => o === 'dm' || o === 'pm-with') ||
      (ops.some((o) => CHANNEL_OPERATORS.includes(o)) && ops.includes('topic'));
    if (definesConversation) return rest;
    throw badNarrow("Invalid 'with' operator");
  }
  const others = rest.filter(
    (t) => !['stream', 'channel', 'topic', 'dm', 'pm-with'].includes(t.operator),
  );
  const conversation: NarrowTerm[] =
    m.type === 'stream'
      ? [
          { operator: 'channel', operand: m.channelId, negated: false },
          { operator: 'topic', operand: m.topic, negated: false },
        ]
      : [{ operator: 'dm', operand: m.recipientIds, negated: false }];
  return [...conversation, ...others];
}

/**
 * `NarrowBuilder.add_term` for every term, in order: a predicate on messages, or the
 * `BadNarrowOperatorError` the first bad term raises.
 */
export function compileNarrow(ctx: RequestContext, narrow: NarrowTerm[]): Predicate {
  const me = String(ctx.user.id);
  const flagsOf = (m: StoredMessage): string[] => m.flags[me] ?? [];
  let channelNarrow = false;
  let dmNarrow = false;
  // check_not_both_channel_and_dm_narrow: negated terms do not count.
  const conversationKind = (negated: boolean, kind: 'channel' | 'dm'): void => {
    if (negated) return;
    if (kind === 'channel') channelNarrow = true;
    else dmNarrow = true;
    if (channelNarrow && dmNarrow)
      throw badNarrow('No message can be both a channel message and direct message');
  };
  const dmUsers = (operand: unknown): StoredUser[] => {
    const keys: unknown[] =
      typeof operand === 'string' ? operand.split(',') : (operand as unknown[]);
    return keys.map((k) => {
      const u = userOf(ctx, k);
      if (!u) throw badNarrow(`unknown user in ${pyStr(operand)}`);
      return u;
    });
  };
  const byTerm = (t: NarrowTerm): Predicate => {
    const { operand } = t;
    const text = String(operand);
    switch (t.operator) {
      case 'has':
        if (text === 'reaction') return (m) => m.reactions.length > 0;
        if (text === 'link') return (m) => /https?:\/\/\S/.test(m.content);
        if (text === 'attachment') return (m) => m.content.includes('/user_uploads/');
        if (text === 'image')
          return (m) => /\/user_uploads\/\S+\.(png|jpe?g|gif|webp)\b/i.test(m.content);
        throw badNarrow(`unknown 'has' operand ${text}`);
      case 'in':
        if (text === 'home') return (m) => !isMutedChannel(ctx, m.channelId);
        if (text === 'all') return () => true;
        throw badNarrow(`unknown 'in' operand ${text}`);
      case 'is':
        return byIs(t);
      case 'channel':
      case 'stream': {
        conversationKind(t.negated, 'channel');
        const ch =
          typeof operand === 'string'
            ? channelByName(ctx, operand)
            : ctx.org.channels.find((c) => c.id === operand);
        if (!ch) throw badNarrow(`unknown channel ${pyStr(operand)}`);
        return (m) => m.type === 'stream' && m.channelId === ch.id;
      }
      case 'channels':
      case 'streams': {
        conversationKind(t.negated, 'channel');
        const ok =
          text === 'public'
            ? (c: (typeof ctx.org.channels)[number]) =>
                !c.inviteOnly && c.historyPublicToSubscribers
            : text === 'web-public'
              ? (c: (typeof ctx.org.channels)[number]) =>
                  c.isWebPublic && !c.inviteOnly && c.historyPublicToSubscribers
              : undefined;
        if (!ok) throw badNarrow(`unknown channels operand ${text}`);
        const ids = new Set(ctx.org.channels.filter(ok).map((c) => c.id));
        return (m) => m.channelId !== null && ids.has(m.channelId);
      }
      case 'topic':
        conversationKind(t.negated, 'channel');
        return (m) => m.type === 'stream' && m.topic.toLowerCase() === text.toLowerCase();
      case 'sender': {
        const u = userOf(ctx, operand);
        if (!u) throw badNarrow(`unknown user ${pyStr(operand)}`);
        return (m) => m.senderId === u.id;
      }
      case 'near':
        return () => true;
      case 'id': {
        if (!/^\d+$/.test(pyStr(operand)) || Number(operand) > MAX_POSSIBLE_MESSAGE_ID)
          throw badNarrow('Invalid message ID');
        return (m) => m.id === Number(operand);
      }
      case 'search':
        return bySearch(text);
      case 'dm':
      case 'pm-with':
      case 'pm_with': {
        conversationKind(t.negated, 'dm');
        const users = dmUsers(operand);
        if (users.length === 0) return () => false;
        const ids = new Set([ctx.user.id, ...users.map((u) => u.id)]);
        return (m) =>
          m.type === 'private' &&
          m.recipientIds.length === ids.size &&
          m.recipientIds.every((id) => ids.has(id));
      }
      case 'dm-including':
      case 'group-pm-with':
      case 'group_pm_with': {
        conversationKind(t.negated, 'dm');
        const u = userOf(ctx, operand);
        if (!u) throw badNarrow(`unknown user ${pyStr(operand)}`);
        if (t.operator === 'dm-including')
          return (m) =>
            m.type === 'private' && (u.id === ctx.user.id || m.recipientIds.includes(u.id));
        return (m) =>
          m.type === 'private' && m.recipientIds.length > 2 && m.recipientIds.includes(u.id);
      }
      default:
        throw badNarrow(`unknown operator ${t.operator}`);
    }
  };
  const byIs = (t: NarrowTerm): Predicate => {
    const operand = String(t.operand);
    switch (operand) {
      case 'resolved':
        return (m) => m.type === 'stream' && m.topic.startsWith(RESOLVED_TOPIC_PREFIX);
      case 'dm':
      case 'private':
        // A negated is:dm counts as a channel term.
        conversationKind(false, t.negated ? 'channel' : 'dm');
        return (m) => m.type === 'private';
      case 'starred':
        return (m) => flagsOf(m).includes('starred');
      case 'unread':
        return (m) => m.flags[me] !== undefined && !flagsOf(m).includes('read');
      case 'mentioned':
        return (m) =>
          flagsOf(m).some((f) =>
            [
              'mentioned',
              'stream_wildcard_mentioned',
              'topic_wildcard_mentioned',
              'group_mentioned',
            ].includes(f),
          );
      case 'alerted':
        return (m) => flagsOf(m).includes('has_alert_word');
      case 'followed':
        return () => false;
      case 'muted':
        return (m) => isMutedChannel(ctx, m.channelId);
      default:
        throw badNarrow(`unknown 'is' operand ${operand}`);
    }
  };
  const predicates = narrow.map((t) => {
    const p = byTerm(t);
    return t.negated ? (m: StoredMessage) => !p(m) : p;
  });
  return (m) => predicates.every((p) => p(m));
}

/** `search`: every word or "quoted phrase" in the content or the topic, case-insensitively. */
function bySearch(operand: string): Predicate {
  const words = (operand.match(/"[^"]+"|\S+/g) ?? []).map((w) =>
    (w.startsWith('"') && w.endsWith('"') ? w.slice(1, -1) : w).toLowerCase(),
  );
  return (m) => {
    const haystack = `${m.topic}\n${m.content}`.toLowerCase();
    return words.every((w) => haystack.includes(w));
  };
}

/** zerver/lib/narrow.py `LARGER_THAN_MAX_MESSAGE_ID`, the anchor `newest` stands for. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

/**
 * zerver/lib/narrow.py `parse_anchor_value`: the anchor as a message ID, undefined for
 * `first_unread`; Python's `int()` of anything else, clamped to [0, LARGER_THAN_MAX_MESSAGE_ID].
 */
export function parseAnchor(raw: string | undefined, useFirstUnread: boolean): number | undefined {
  if (useFirstUnread) return undefined;
  if (raw === undefined) throw badRequest("Missing 'anchor' argument.");
  if (raw === 'oldest') return 0;
  if (raw === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (raw === 'first_unread') return undefined;
  if (!/^\s*[+-]?\d+(_\d+)*\s*$/.test(raw)) throw badRequest('Invalid anchor');
  const anchor = Number(raw.trim().replace(/_/g, ''));
  return Math.min(Math.max(anchor, 0), LARGER_THAN_MAX_MESSAGE_ID);
}

/**
 * zerver/lib/narrow.py `update_narrow_terms_containing_empty_topic_fallback_name`: the first
 * `topic` term naming "general chat" names the empty topic.
 */
export function renameGeneralChatTopic(narrow: NarrowTerm[]): NarrowTerm[] {
  const i = narrow.findIndex((t) => t.operator === 'topic');
  const term = narrow[i];
  if (term === undefined || term.operand !== 'general chat') return narrow;
  return narrow.map((t, j) => (j === i ? { ...t, operand: '' } : t));
}
