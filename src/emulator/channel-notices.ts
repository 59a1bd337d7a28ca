import { supports } from '../model/features';
import type { TopicsPolicy } from '../model/kinds';
import { findGroup, findUser } from './permissions';
import type { RequestContext } from './router';
import { notificationBotId } from './system-bots';
import type { StoredChannel, StoredGroupSetting, StoredUser } from './state';
import { storeMessage } from './routes/messages';

/**
 * The notices Notification Bot posts into a channel when it changes (zerver/actions/streams.py:
 * rename, description, access and posting permissions, retention, topics policy, archiving and
 * unarchiving), through zerver/actions/message_send.py `maybe_send_channel_events_notice`.
 */

/** The topic of the notices (`channel_events_topic_name`): "" in an empty-topic-only channel. */
export function channelEventsTopic(ch: StoredChannel): string {
  return ch.topicsPolicy === 'empty_topic_only' ? '' : 'channel events';
}

/** Whether Zulip posts the notices: always before FL 434, then per the realm setting. */
export function channelEventsMessagesEnabled(ctx: RequestContext): boolean {
  if (!supports(ctx.featureLevel, 'channelEventsMessagesSetting')) return true;
  return ctx.org.realm.sendChannelEventsMessages === true;
}

/**
 * Posts a notice into the channel as Notification Bot (`maybe_send_channel_events_notice`).
 * `allRead`: the archiving notice is sent with no unread user (`limit_unread_user_ids=set()`).
 */
export function sendChannelEventsNotice(
  ctx: RequestContext,
  ch: StoredChannel,
  content: string,
  opts: { allRead?: boolean; readBy?: number } = {},
): void {
  if (!channelEventsMessagesEnabled(ctx)) return;
  botChannelMessage(ctx, ch, channelEventsTopic(ch), content, opts);
}

/**
 * A channel message from Notification Bot (`internal_prep_stream_message`, `do_send_messages`),
 * unread for the subscribers but `readBy` (`mark_as_read`), or for none with `allRead`.
 */
export function botChannelMessage(
  ctx: RequestContext,
  ch: StoredChannel,
  topic: string,
  content: string,
  opts: { allRead?: boolean; readBy?: number } = {},
): void {
  const botId = notificationBotId(ctx.org);
  const m = storeMessage(ctx, {
    senderId: botId,
    type: 'stream',
    channelId: ch.id,
    topic,
    recipientIds: [],
    // Message content is stored without trailing whitespace (normalize_body).
    content: content.trimEnd(),
  });
  // The bot is not a user of the organization: no UserMessage row for it.
  delete m.flags[String(botId)];
  if (opts.allRead)
    for (const row of Object.values(m.flags)) if (!row.includes('read')) row.push('read');
  const own = opts.readBy === undefined ? undefined : m.flags[String(opts.readBy)];
  if (own && !own.includes('read')) own.push('read');
}

/**
 * The "channel created" notice (zerver/views/streams.py
 * `send_user_subscribed_and_new_channel_notifications`), read for its creator.
 */
export function sendChannelCreatedNotice(ctx: RequestContext, ch: StoredChannel): void {
  const description = ch.description === '' ? '*No description.*' : ch.description;
  sendChannelEventsNotice(
    ctx,
    ch,
    `**${permissionPolicyName(ch)}** channel created by ${silentMention(ctx.user)}. **Description:**` +
      `\n\`\`\`\` quote\n${description}\n\`\`\`\``,
    { readBy: ctx.user.id },
  );
}

/** `silent_mention_syntax_for_user`. */
export function silentMention(user: Pick<StoredUser, 'fullName' | 'id'>): string {
  return `@_**${user.fullName}|${user.id}**`;
}

/** `Stream.PERMISSION_POLICIES` names. */
export function permissionPolicyName(p: {
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean;
  isWebPublic: boolean;
}): string {
  if (p.isWebPublic) return 'Web-public';
  if (!p.inviteOnly) return 'Public';
  return p.historyPublicToSubscribers ? 'Private, shared history' : 'Private, protected history';
}

/** `send_change_stream_permission_notification`. */
export function accessPermissionsNotice(
  user: StoredUser,
  oldPolicy: string,
  newPolicy: string,
): string {
  return (
    `${silentMention(user)} changed the [access permissions](/help/channel-permissions) ` +
    `for this channel from **${oldPolicy}** to **${newPolicy}**.`
  );
}

/** `do_rename_stream`'s notice. */
export function renameNotice(user: StoredUser, oldName: string, newName: string): string {
  return `${silentMention(user)} renamed channel **${oldName}** to **${newName}**.`;
}

/** `send_change_stream_description_notification`. */
export function descriptionNotice(user: StoredUser, oldText: string, newText: string): string {
  const shown = (t: string): string => (t === '' ? '*No description.*' : t);
  return (
    `${silentMention(user)} changed the description for this channel.\n\n` +
    `* **Old description:**\n\`\`\`\` quote\n${shown(oldText)}\n\`\`\`\`\n` +
    `* **New description:**\n\`\`\`\` quote\n${shown(newText)}\n\`\`\`\``
  );
}

/**
 * `send_change_stream_message_retention_days_notification`: null (the realm default) reads as
 * the realm's value, -1 is forever.
 */
export function retentionNotice(
  ctx: RequestContext,
  user: StoredUser,
  oldValue: number | null,
  newValue: number | null,
): string {
  const realmValue = ctx.org.realm.messageRetentionDays ?? -1;
  const o = oldValue ?? realmValue;
  const n = newValue ?? realmValue;
  let oldText: string;
  let newText: string;
  let summary: string;
  const deleted = (days: number): string =>
    `Messages in this channel will now be automatically deleted ${days} days after they are sent.`;
  if (o === -1) {
    oldText = 'Forever';
    newText = `${n} days`;
    summary = deleted(n);
  } else if (n === -1) {
    oldText = `${o} days`;
    newText = 'Forever';
    summary = 'Messages in this channel will now be retained forever.';
  } else {
    oldText = `${o} days`;
    newText = `${n} days`;
    summary = deleted(n);
  }
  return (
    `${silentMention(user)} has changed the [message retention period](/help/message-retention-policy) for this channel:\n` +
    `* **Old retention period**: ${oldText}\n` +
    `* **New retention period**: ${newText}\n\n` +
    summary
  );
}

const TOPICS_POLICY_NAMES: Record<TopicsPolicy, string> = {
  inherit: 'Automatic',
  allow_empty_topic: '*general chat* topic allowed',
  disable_empty_topic: 'No *general chat* topic',
  empty_topic_only: 'Only *general chat* topic allowed',
};

/** `do_set_stream_property`'s notice for `topics_policy`. */
export function topicsPolicyNotice(user: StoredUser, from: TopicsPolicy, to: TopicsPolicy): string {
  return (
    `${silentMention(user)} changed the "Allow posting to the *general chat* topic?" setting ` +
    `from **${TOPICS_POLICY_NAMES[from]}** to **${TOPICS_POLICY_NAMES[to]}**.`
  );
}

/**
 * `get_users_string_with_permission`: a named group as a silent group mention; an anonymous
 * value as its groups, then its users, each sorted by ID.
 */
function whoHolds(ctx: RequestContext, v: StoredGroupSetting): string {
  const group = (id: number): string => `@_*${findGroup(ctx.org, id)?.name ?? String(id)}*`;
  if (typeof v === 'number') return group(v);
  const groups = [...v.direct_subgroups]
    .filter((id) => findGroup(ctx.org, id) !== undefined)
    .sort((a, b) => a - b)
    .map(group);
  const users = [...v.direct_members]
    .sort((a, b) => a - b)
    .map((id) => findUser(ctx.org, id))
    .filter((u): u is StoredUser => u !== undefined)
    .map(silentMention);
  return [...groups, ...users].join(', ');
}

/** `send_stream_posting_permission_update_notification` (`can_send_message_group` changes). */
export function postingPermissionNotice(
  ctx: RequestContext,
  user: StoredUser,
  oldValue: StoredGroupSetting,
  newValue: StoredGroupSetting,
): string {
  return (
    `${silentMention(user)} changed the [posting permissions](/help/channel-posting-policy) ` +
    `for this channel:\n\n` +
    `* **Old**: ${whoHolds(ctx, oldValue)}\n` +
    `* **New**: ${whoHolds(ctx, newValue)}\n`
  );
}
