import { badRequest } from '../errors';
import { subscriptionRowsOfUser } from '../indexes';
import {
  findGroup,
  hasPermissionByRole,
  holdsRealmSetting,
  holdsSetting,
  isGuest,
  isSubscribed,
  isSystemGroupSetting,
} from '../permissions';
import type { RequestContext } from '../router';
import type { StoredGroupSetting, StoredMessage, StoredUser } from '../state';
import { messages } from './messages';

/*
 * The rules of zerver/actions/message_send.py `check_message` for a direct message, in its
 * order: the sender's access to the recipients, the recipients' state
 * (zerver/lib/recipient_users.py `validate_recipient_user_profiles`), then the organization's
 * `direct_message_permission_group` and `direct_message_initiator_group`
 * (`check_can_send_direct_message`).
 *
 * The embedded server has no Recipient rows: a direct message stores its participants (the
 * sender included). With Zulip's default `PREFER_DIRECT_MESSAGE_GROUP = False`, a conversation
 * of one or two participants is a personal one, of three or more a direct message group whose
 * Subscription rows are its participants'.
 */

/** Whether the message is a direct message among exactly these participants. */
function isConversation(m: StoredMessage, participants: ReadonlySet<number>): boolean {
  if (m.type !== 'private' || m.recipientIds.length !== participants.size) return false;
  return m.recipientIds.every((id) => participants.has(id));
}

/**
 * zerver/lib/users.py `get_inaccessible_user_ids`: a guest outside the organization's
 * `can_access_all_users_group` reaches the bots, the active users subscribed to a channel or a
 * direct message group they are subscribed to, and the users they have exchanged a personal
 * message with; the other recipients are out of reach.
 */
function inaccessibleUserIds(ctx: RequestContext, targets: readonly StoredUser[]): number[] {
  const sender = ctx.user;
  // check_user_can_access_all_users
  if (!isGuest(sender) || holdsRealmSetting(ctx.org, sender, 'can_access_all_users_group'))
    return [];
  let possible = targets.filter((u) => !u.isBot);
  if (possible.length === 0) return [];
  // Common Subscription rows: channels, then direct message groups (is_user_active=True).
  const channels = subscriptionRowsOfUser(ctx.org, sender.id)
    .filter((s) => s.active)
    .map((s) => s.channelId);
  const groups = messages(ctx.org).filter(
    (m) => m.type === 'private' && m.recipientIds.length > 2 && m.recipientIds.includes(sender.id),
  );
  possible = possible.filter(
    (u) =>
      !u.isActive ||
      (!channels.some((c) => isSubscribed(ctx.org, u.id, c)) &&
        !groups.some((m) => m.recipientIds.includes(u.id))),
  );
  // Personal messages between the sender and the user, either way (a self-DM for the sender).
  return possible
    .filter((u) => {
      const pair = new Set([sender.id, u.id]);
      return !messages(ctx.org).some((m) => isConversation(m, pair));
    })
    .map((u) => u.id);
}

/**
 * Whether the user holds a direct message setting: for a system group, by role
 * (`check_user_has_permission_by_role`: a member is a full member by the date joined at this
 * moment, whether or not `promote_new_full_members` has run); else by group membership
 * (`is_user_in_group`).
 */
function holdsDirectMessageSetting(
  ctx: RequestContext,
  user: StoredUser,
  value: StoredGroupSetting | undefined,
): boolean {
  const g = typeof value === 'number' ? findGroup(ctx.org, value) : undefined;
  if (g?.isSystemGroup === true) return hasPermissionByRole(ctx.org, user, g.name, ctx.now);
  return holdsSetting(ctx.org, user, value);
}

/**
 * zerver/actions/message_send.py `check_can_send_direct_message`: nothing for a bot sender or
 * a conversation with bots and the sender only; else one of the participants must hold
 * `direct_message_permission_group` (`DirectMessagePermissionError`: "Direct messages are
 * disabled in this organization." when it is role:nobody), and the sender must hold
 * `direct_message_initiator_group` unless the conversation has a message already
 * (`DirectMessageInitiationError`).
 */
function checkCanSendDirectMessage(ctx: RequestContext, users: readonly StoredUser[]): void {
  const sender = ctx.user;
  if (sender.isBot) return;
  if (users.every((u) => u.isBot || u.id === sender.id)) return;
  const settings = ctx.org.realm.settings;
  const permission = settings.direct_message_permission_group;
  const participants = [...users, sender];
  if (!participants.some((u) => holdsDirectMessageSetting(ctx, u, permission))) {
    if (isSystemGroupSetting(ctx.org, permission, 'role:nobody'))
      throw badRequest('Direct messages are disabled in this organization.');
    throw badRequest('This conversation does not include any users who can authorize it.');
  }
  if (holdsDirectMessageSetting(ctx, sender, settings.direct_message_initiator_group)) return;
  const ids = new Set(participants.map((u) => u.id));
  if (!messages(ctx.org).some((m) => isConversation(m, ids)))
    throw badRequest('You do not have permission to initiate direct message conversations.');
}

/**
 * `check_message` for a direct message: `check_sender_can_access_recipients`, then
 * `validate_recipient_user_profiles` (a deactivated recipient: "'x' is no longer using
 * Zulip."), then `check_can_send_direct_message`.
 */
export function checkDirectMessage(ctx: RequestContext, users: readonly StoredUser[]): void {
  if (inaccessibleUserIds(ctx, users).length > 0)
    throw badRequest('You do not have permission to access some of the recipients.');
  const gone = users.find((u) => !u.isActive);
  if (gone) throw badRequest(`'${gone.email}' is no longer using Zulip.`);
  checkCanSendDirectMessage(ctx, users);
}
