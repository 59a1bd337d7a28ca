import { badRequest, missingArgument } from '../errors';
import { isSubscribed } from '../permissions';
import type { RequestContext, Route } from '../router';
import type { StoredMessage } from '../state';
import { atomic, beforeChange } from '../transaction';
import {
  canAccessMessage,
  firstUnreadAnchor,
  hasMessageAccess,
  messages,
  nonNegative,
} from './messages';
import { compileNarrow, parseAnchor, parseNarrow, renameGeneralChatTopic } from './narrow';

/**
 * The flags of the API in their bit order (zerver/models/messages.py
 * `AbstractUserMessage.ALL_FLAGS` without `NON_API_FLAGS`), the order `flags_list` gives.
 */
const API_FLAGS = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'force_expand',
  'force_collapse',
  'has_alert_word',
  'historical',
];
/** `AbstractUserMessage.NON_EDITABLE_FLAGS`. */
const NON_EDITABLE_FLAGS = [
  'has_alert_word',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'historical',
  'force_expand',
  'force_collapse',
];
/** zerver/lib/user_message.py `DEFAULT_HISTORICAL_FLAGS`: a message without a UserMessage row. */
const DEFAULT_HISTORICAL_FLAGS = ['read', 'historical'];

/** A row's flags with one added or removed, in bit order. */
export function withFlag(row: readonly string[], flag: string, add: boolean): string[] {
  return API_FLAGS.filter((f) => (f === flag ? add : row.includes(f)));
}

/**
 * zerver/actions/message_flags.py `do_update_message_flags`: the flag ("Invalid flag",
 * "Flag not editable"), the operation; marking unread skips the channel messages of channels
 * the user is not subscribed to (returned, sorted); the messages whose flag already has the
 * wanted value are left out; of the rest, those without a UserMessage row must be messages the
 * user can access (`bulk_access_messages`: "Invalid message(s)", an unknown ID included) and
 * get a historical row. Returns how many messages changed.
 */
function doUpdateMessageFlags(
  ctx: RequestContext,
  op: string,
  flag: string,
  ids: readonly number[],
): { count: number; ignoredChannels: number[] } {
  if (!API_FLAGS.includes(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (NON_EDITABLE_FLAGS.includes(flag)) throw badRequest(`Flag not editable: '${flag}'`);
  if (op !== 'add' && op !== 'remove') throw badRequest(`Invalid message flag operation: '${op}'`);
  const add = op === 'add';
  const wanted = new Set(ids);
  const byId = new Map<number, StoredMessage>();
  for (const m of messages(ctx.org)) if (wanted.has(m.id)) byId.set(m.id, m);
  let list = [...ids];
  const ignored = new Set<number>();
  if (flag === 'read' && !add) {
    const unsubscribed = (id: number): boolean => {
      const m = byId.get(id);
      if (m?.type !== 'stream' || m.channelId === null) return false;
      if (isSubscribed(ctx.org, ctx.user.id, m.channelId)) return false;
      ignored.add(m.channelId);
      return true;
    };
    list = list.filter((id) => !unsubscribed(id));
  }
  const key = String(ctx.user.id);
  const rowOf = (id: number): string[] | undefined => byId.get(id)?.flags[key];
  list = list.filter((id) => (rowOf(id) ?? DEFAULT_HISTORICAL_FLAGS).includes(flag) !== add);
  const historical = list.filter((id) => rowOf(id) === undefined);
  if (historical.some((id) => !hasAccess(ctx, byId.get(id))))
    throw badRequest('Invalid message(s)');
  atomic(ctx, () => {
    for (const id of new Set(list)) {
      const m = byId.get(id) as StoredMessage;
      beforeChange(ctx, m);
      m.flags[key] = withFlag(m.flags[key] ?? DEFAULT_HISTORICAL_FLAGS, flag, add);
    }
  });
  return { count: list.length, ignoredChannels: [...ignored].sort((a, b) => a - b) };
}

const hasAccess = (ctx: RequestContext, m: StoredMessage | undefined): boolean =>
  m !== undefined && hasMessageAccess(ctx, m);

/**
 * `POST /messages/flags`: zerver/views/message_flags.py `update_message_flags`, its parameters
 * in signature order (flag, messages, op). `messages` echoes the request's IDs, as Zulip does
 * ("included for backwards compatibility"), not the ones changed.
 */
function flagsByIds(ctx: RequestContext): Record<string, unknown> {
  const flag = ctx.params.requiredString('flag');
  const ids = ctx.params.intList('messages');
  if (ids === undefined) throw missingArgument('messages');
  const op = ctx.params.requiredString('op');
  const { ignoredChannels } = doUpdateMessageFlags(ctx, op, flag, ids);
  return { messages: ids, ignored_because_not_subscribed_channels: ignoredChannels };
}

/** A required `Json[NonNegativeInt]` parameter. */
function requiredCount(ctx: RequestContext, name: string): number {
  const v = ctx.params.int(name);
  if (v === undefined) throw missingArgument(name);
  return nonNegative(v, name);
}

/** zerver/views/message_flags.py `MAX_MESSAGES_PER_UPDATE`. */
const MAX_MESSAGES_PER_UPDATE = 5000;

/**
 * `POST /messages/flags/narrow`: zerver/views/message_flags.py update_message_flags_for_narrow,
 * its parameters in signature order (anchor, flag, include_anchor, narrow, num_after,
 * num_before, op), then `parse_anchor_value`, the range check, the clamp, the narrow
 * (`fetch_messages`) and last `do_update_message_flags` on the messages found.
 */
function flagsByNarrow(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const anchorRaw = p.requiredString('anchor');
  const flag = p.requiredString('flag');
  const includeAnchor = p.bool('include_anchor') ?? true;
  const narrowRaw = p.json('narrow');
  if (narrowRaw === undefined) throw missingArgument('narrow');
  const narrow = parseNarrow(narrowRaw);
  let after = requiredCount(ctx, 'num_after');
  let before = requiredCount(ctx, 'num_before');
  const op = p.requiredString('op');
  const anchorValue = parseAnchor(anchorRaw, false);
  if (before > 0 && after > 0 && !includeAnchor)
    throw badRequest('The anchor can only be excluded at an end of the range');
  before = Math.min(before, Math.max(MAX_MESSAGES_PER_UPDATE - after, MAX_MESSAGES_PER_UPDATE / 2));
  after = Math.min(after, MAX_MESSAGES_PER_UPDATE - before);
  const matches = compileNarrow(ctx, renameGeneralChatTopic(narrow));
  const all = messages(ctx.org)
    .filter((m) => canAccessMessage(ctx, m) && matches(m))
    .sort((a, b) => a.id - b.id);
  const anchor = anchorValue ?? firstUnreadAnchor(ctx, all);
  const older = all.filter((m) => m.id < anchor);
  const beforeList = before === 0 ? [] : older.slice(-before);
  const at = includeAnchor ? all.filter((m) => m.id === anchor) : [];
  const afterList = all.filter((m) => m.id > anchor).slice(0, after);
  const range = [...beforeList, ...at, ...afterList];
  const ids = range.map((m) => m.id);
  const { count, ignoredChannels } = doUpdateMessageFlags(ctx, op, flag, ids);
  return {
    processed_count: range.length,
    updated_count: count,
    first_processed_id: ids[0] ?? null,
    last_processed_id: ids.at(-1) ?? null,
    found_oldest: range.length === 0 || range[0] === all[0],
    found_newest: range.length === 0 || range.at(-1) === all.at(-1),
    ignored_because_not_subscribed_channels: ignoredChannels,
  };
}

/** The flag routes: by message ID and by narrow. */
export const messageFlagRoutes: Route[] = [
  { method: 'POST', path: '/messages/flags', handler: flagsByIds },
  { method: 'POST', path: '/messages/flags/narrow', handler: flagsByNarrow },
];
