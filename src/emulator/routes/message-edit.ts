import { createHash } from 'node:crypto';
import { ApiError, badRequest } from '../errors';
import {
  canAdministerChannel,
  holdsRealmSetting,
  holdsSetting,
  isAdmin,
  isModerator,
} from '../permissions';
import { realmProperty } from '../realm-settings';
import type { RequestContext } from '../router';
import type { StoredChannel, StoredMessage, StoredUser } from '../state';
import { pathInt } from './common';
import { canAccessMessage, messages } from './messages';
import {
  EMPTY_TOPIC_NAME,
  RESOLVED_TOPIC_PREFIX,
  checkCanCreateTopic,
  checkTopicsPolicy,
  normalizeBody,
  truncateTopic,
} from './message-send';

/** The grace zerver/actions/message_edit.py check_update_message adds to the time limits. */
const EDIT_LIMIT_BUFFER_SECONDS = 20;

/** A realm time limit in seconds, or null for none (`message_content_edit_limit_seconds`, ...). */
function limitSeconds(ctx: RequestContext, wire: string): number | null {
  const v = realmProperty(ctx.org, wire);
  return typeof v === 'number' ? v : null;
}

/** zerver/actions/message_edit.py `validate_user_can_edit_message` (content edits). */
function validateUserCanEditMessage(ctx: RequestContext, m: StoredMessage, age: number): void {
  if (realmProperty(ctx.org, 'allow_message_editing') === false)
    throw badRequest('Your organization has turned off message editing');
  if (m.senderId !== ctx.user.id)
    throw badRequest("You don't have permission to edit this message");
  const limit = limitSeconds(ctx, 'message_content_edit_limit_seconds');
  if (limit !== null && age > limit + EDIT_LIMIT_BUFFER_SECONDS)
    throw badRequest('The time limit for editing this message has passed');
}

/**
 * zerver/lib/streams.py `can_edit_topic` (the organization's
 * `can_move_messages_between_topics_group`, or `can_move_messages_within_channel`: realm and
 * channel administrators and the channel's `can_move_messages_within_channel_group`) and
 * `can_resolve_topics` (the organization's or the channel's `can_resolve_topics_group`).
 */
function canEditTopic(ctx: RequestContext, ch: StoredChannel): boolean {
  const u: StoredUser = ctx.user;
  if (holdsRealmSetting(ctx.org, u, 'can_move_messages_between_topics_group')) return true;
  if (isAdmin(u) || canAdministerChannel(ctx.org, u, ch)) return true;
  return holdsSetting(ctx.org, u, ch.settings.can_move_messages_within_channel_group);
}
const canResolveTopics = (ctx: RequestContext, ch: StoredChannel): boolean =>
  holdsRealmSetting(ctx.org, ctx.user, 'can_resolve_topics_group') ||
  holdsSetting(ctx.org, ctx.user, ch.settings.can_resolve_topics_group);

/**
 * `PATCH /messages/{message_id}`: zerver/views/message_edit.py update_message_backend (its
 * parameters in signature order; `propagate_mode` is a `Literal`) and
 * zerver/actions/message_edit.py check_update_message, for content and topic edits: access,
 * `validate_user_can_edit_message` for a content edit, `validate_message_edit_payload`,
 * `build_message_edit_request` (the body normalised, "(deleted)" for an empty one; the topic
 * truncated; the topics policy), then the topic permission and its time limit (moderators and
 * administrators have none). Moving to another channel is not modelled: `stream_id` is reported
 * as an ignored parameter.
 */
export function updateMessage(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const id = pathInt(ctx, 'message_id');
  const content = p.string('content');
  const prevContentSha256 = p.string('prev_content_sha256');
  const propagateMode = p.string('propagate_mode') ?? 'change_one';
  if (!['change_later', 'change_one', 'change_all'].includes(propagateMode))
    throw badRequest('Invalid propagate_mode');
  p.bool('send_notification_to_new_thread');
  p.bool('send_notification_to_old_thread');
  let topic = (p.string('topic') ?? p.string('subject'))?.trim();
  const m = messages(ctx.org).find((x) => x.id === id);
  const ch = m?.type === 'stream' ? ctx.org.channels.find((c) => c.id === m.channelId) : undefined;
  // access_message(is_modifying_message=True): messages of archived channels are out of reach.
  if (!m || !canAccessMessage(ctx, m) || ch?.isArchived === true)
    throw badRequest('Invalid message(s)');
  const now = Math.floor(ctx.now / 1000);
  const age = now - m.timestamp;
  if (content !== undefined) validateUserCanEditMessage(ctx, m, age);
  if (topic !== undefined) {
    if (topic === EMPTY_TOPIC_NAME) topic = '';
    if (topic === m.topic) topic = undefined;
  }
  // validate_message_edit_payload
  if (topic === undefined && content === undefined) throw badRequest('Nothing to change');
  if (m.type !== 'stream' && topic !== undefined)
    throw badRequest('Direct messages cannot have topics.');
  if (propagateMode !== 'change_one' && topic === undefined)
    throw badRequest('Invalid propagate_mode without topic edit');
  if (topic === RESOLVED_TOPIC_PREFIX.trim() || topic === RESOLVED_TOPIC_PREFIX + EMPTY_TOPIC_NAME)
    throw badRequest('General chat cannot be marked as resolved');
  if (
    prevContentSha256 !== undefined &&
    prevContentSha256 !== createHash('sha256').update(m.content).digest('hex')
  )
    throw new ApiError("'prev_content_sha256' value does not match the expected value.", {
      code: 'EXPECTATION_MISMATCH',
      data: { field_name: 'prev_content_sha256' },
    });
  // build_message_edit_request
  const newContent =
    content === undefined
      ? undefined
      : normalizeBody(content.replace(/\s+$/u, '') === '' ? '(deleted)' : content);
  const target = topic === undefined ? undefined : truncateTopic(topic);
  const moved: StoredMessage[] = [m];
  if (ch) {
    // build_message_edit_request's topics policy.
    checkTopicsPolicy(ctx, ch, target ?? m.topic, target !== undefined);
    if (topic !== undefined && target !== undefined) {
      checkTopicEdit(ctx, ch, m, topic, target, age);
      if (propagateMode !== 'change_one') moved.push(...sameTopic(ctx, m, propagateMode));
    }
  }
  if (newContent !== undefined) {
    m.content = newContent;
    m.lastEditTimestamp = now;
  }
  if (target !== undefined)
    for (const x of moved) {
      x.topic = target;
      x.lastEditTimestamp = now;
    }
  return { detached_uploads: [] };
}

/**
 * check_update_message for a topic edit: resolving or unresolving needs `can_resolve_topics`;
 * any other rename needs `can_edit_topic` and, below moderator, happens within the realm's
 * `move_messages_within_stream_limit_seconds` (plus the grace), and, into a topic without
 * messages, the channel's `can_create_topic_group`.
 */
function checkTopicEdit(
  ctx: RequestContext,
  ch: StoredChannel,
  m: StoredMessage,
  requested: string,
  target: string,
  age: number,
): void {
  const resolved =
    target.startsWith(RESOLVED_TOPIC_PREFIX) &&
    !m.topic.startsWith(RESOLVED_TOPIC_PREFIX) &&
    requested.slice(RESOLVED_TOPIC_PREFIX.length) === m.topic;
  const unresolved =
    m.topic.startsWith(RESOLVED_TOPIC_PREFIX) &&
    !target.startsWith(RESOLVED_TOPIC_PREFIX) &&
    m.topic.replace(/^[✔ ]+/u, '') === target;
  if (resolved || unresolved) {
    if (!canResolveTopics(ctx, ch))
      throw badRequest("You don't have permission to resolve topics in this channel.");
    return;
  }
  if (!canEditTopic(ctx, ch)) throw badRequest("You don't have permission to edit this message");
  const limit = limitSeconds(ctx, 'move_messages_within_stream_limit_seconds');
  if (limit !== null && !isModerator(ctx.user) && age > limit + EDIT_LIMIT_BUFFER_SECONDS)
    throw badRequest("The time limit for editing this message's topic has passed.");
  // A move (not a resolve or unresolve) into a new topic: check_for_can_create_topic_group_violation.
  checkCanCreateTopic(ctx, ch, target);
}

/** The other messages of the topic a `change_later` or `change_all` edit moves along. */
function sameTopic(ctx: RequestContext, m: StoredMessage, mode: string): StoredMessage[] {
  return messages(ctx.org).filter(
    (x) =>
      x !== m &&
      x.type === 'stream' &&
      x.channelId === m.channelId &&
      x.topic.toLowerCase() === m.topic.toLowerCase() &&
      (mode === 'change_all' || x.id > m.id) &&
      canAccessMessage(ctx, x),
  );
}
