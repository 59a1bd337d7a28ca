import type { RequestContext } from './router';
import { nextId } from './state';
import type { OrgState, StoredMessage, StoredUser } from './state';
import { storeMessage } from './routes/messages';

/**
 * Zulip's Notification Bot (`settings.NOTIFICATION_BOT`): a cross-realm system bot, so not one
 * of the organization's users; it sends the server's own notices.
 */
export const NOTIFICATION_BOT = {
  email: 'notification-bot@zulip.com',
  fullName: 'Notification Bot',
} as const;

/** The Notification Bot's ID, allocated (from the realm's ID counter) when first needed. */
export function notificationBotId(org: OrgState): number {
  org.notificationBotId ??= nextId(org);
  return org.notificationBotId;
}

/**
 * A direct message from the Notification Bot to one user (`internal_prep_private_message` and
 * `do_send_messages`): unread for the recipient, who gets the only UserMessage row here.
 */
export function sendNotificationDm(
  ctx: RequestContext,
  recipient: StoredUser,
  content: string,
): StoredMessage {
  const bot = notificationBotId(ctx.org);
  const m = storeMessage(ctx, {
    senderId: bot,
    type: 'private',
    channelId: null,
    topic: '',
    recipientIds: [bot, recipient.id].sort((a, b) => a - b),
    content,
  });
  delete m.flags[String(bot)];
  return m;
}

/** Zulip's silent mention of a user (zerver/lib/mention.py `silent_mention_syntax_for_user`). */
export function silentUserMention(u: StoredUser): string {
  return `@_**${u.fullName}|${u.id}**`;
}
