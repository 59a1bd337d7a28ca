import { supports } from '../../model/features';
import { ROLES } from '../../model/kinds';
import type { SystemGroupName } from '../../model/kinds';
import {
  groupMembersEvent,
  listeningLevel,
  sendPeerSubscriberEvents,
  sendStreamDeletionEvent,
} from '../events';
import { updateUsersInFullMembersSystemGroup } from '../full-members';
import {
  findUser,
  hasMetadataAccess,
  isAdmin,
  isDirectMember,
  isSubscribed,
  subscriberIds,
} from '../permissions';
import type { RequestContext } from '../router';
import { systemGroupId } from '../state';
import type { StoredChannel, StoredUser } from '../state';
import { channelToApi, settingToApi } from '../views';

/*
 * The events of a user's deactivation and reactivation, as Zulip sends them when every user may
 * access every other (`can_access_all_users_group` is role:everyone, the default, so
 * `user_access_restricted_in_realm` is false): `realm_user` events go to every active user. Not
 * emulated: an organization that sets `can_access_all_users_group` to role:members, where Zulip
 * sends them only to those who can access the user and the guests who cannot get `user_group`
 * `remove_members` / `realm_user` `remove` instead (zerver/actions/users.py `do_deactivate_user`,
 * zerver/actions/create_user.py `do_reactivate_user`).
 */

/** zerver/models/realms.py `Realm.get_human_admin_users`: active human administrators and owners. */
function humanAdminIds(ctx: RequestContext): number[] {
  return ctx.org.users.filter((u) => u.isActive && !u.isBot && isAdmin(u)).map((u) => u.id);
}

/**
 * zerver/models/users.py `bot_owner_user_ids`: the human administrators and the bot's owner
 * (a bot of the embedded server has no default channels, so it is never a private bot).
 */
function botOwnerUserIds(ctx: RequestContext, bot: StoredUser): number[] {
  const ids = new Set(humanAdminIds(ctx));
  if (bot.botOwnerId !== null) ids.add(bot.botOwnerId);
  return [...ids];
}

function realmBotUpdate(ctx: RequestContext, bot: StoredUser, users: number[], data: object): void {
  ctx.events.push({
    users,
    event: { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...data } },
  });
}

function realmUserUpdate(ctx: RequestContext, user: StoredUser, data: object): void {
  ctx.events.push({
    users: 'all',
    event: { type: 'realm_user', op: 'update', person: { user_id: user.id, ...data } },
  });
}

/** The channels of the user's active subscriptions, by channel ID, that `keep` keeps. */
function subscribedChannels(
  ctx: RequestContext,
  user: StoredUser,
  keep: (ch: StoredChannel) => boolean,
): Map<StoredChannel, number[]> {
  const channels = ctx.org.channels
    .filter((ch) => keep(ch) && isSubscribed(ctx.org, user.id, ch.id))
    .sort((a, b) => a.id - b.id);
  return new Map(channels.map((ch) => [ch, [user.id]]));
}

/**
 * zerver/actions/users.py `do_deactivate_user` with `send_events_for_user_deactivation`: the
 * user's active bots first (each alone), then the user. Each sends `subscription` `peer_remove`
 * for its channels (since FL 377; archived ones too since FL 428, `exclude_archived=False`),
 * `realm_user` `update` with `is_active: false`, and for a bot `realm_bot` `update` to
 * `bot_owner_user_ids`.
 */
export function deactivateUser(ctx: RequestContext, target: StoredUser): void {
  const victims = [
    ...ctx.org.users.filter((u) => u.isBot && u.isActive && u.botOwnerId === target.id),
    target,
  ];
  for (const u of victims) {
    if (!u.isActive) continue;
    u.isActive = false;
    if (supports(ctx.featureLevel, 'peerRemoveOnUserDeactivation')) {
      const archivedToo = supports(ctx.featureLevel, 'peerRemoveOnUserDeactivationArchived');
      const channels = subscribedChannels(ctx, u, (ch) => archivedToo || !ch.isArchived);
      sendPeerSubscriberEvents(ctx, 'peer_remove', channels);
    }
    realmUserUpdate(ctx, u, { is_active: false });
    if (u.isBot) realmBotUpdate(ctx, u, botOwnerUserIds(ctx, u), { is_active: false });
  }
}

/**
 * zerver/actions/bots.py `send_bot_owner_update_events`, for a bot whose deactivated owner
 * passes to the acting user: `realm_bot` `delete` to the previous owner unless an
 * administrator, then `realm_bot` `update` with `owner_id` and `realm_user` `update` with
 * `bot_owner_id`. Only an administrator can reactivate a bot whose owner is deactivated
 * (`can_admin_user`), so the `realm_bot` `add` for a new owner who is not one never applies.
 */
function botOwnerUpdateEvents(ctx: RequestContext, bot: StoredUser, previous?: StoredUser): void {
  const users = new Set(botOwnerUserIds(ctx, bot));
  if (previous && !isAdmin(previous)) {
    ctx.events.push({
      users: [previous.id],
      event: { type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } },
    });
    users.delete(previous.id);
  }
  realmBotUpdate(ctx, bot, [...users], { owner_id: ctx.user.id });
  realmUserUpdate(ctx, bot, { bot_owner_id: ctx.user.id });
}

/**
 * The `update_dict` / `update` events of `send_update_events_for_anonymous_group_settings`
 * for the anonymous group-setting values that name the user directly, to every active user:
 * `user_group` `update` for a group's setting, `realm` `update_dict` for the organization's
 * (a channel's sends none). Zulip orders them by the anonymous groups' IDs, which the embedded
 * server does not keep: here the groups' settings come first, by group ID, then the realm's.
 */
function anonymousSettingEvents(ctx: RequestContext, user: StoredUser): void {
  const names = (v: unknown): boolean =>
    typeof v === 'object' &&
    v !== null &&
    (v as { direct_members: number[] }).direct_members.includes(user.id);
  const groups = [...ctx.org.groups].sort((a, b) => a.id - b.id);
  for (const g of groups)
    for (const [name, v] of Object.entries(g.settings))
      if (names(v))
        ctx.events.push({
          users: 'all',
          event: {
            type: 'user_group',
            op: 'update',
            group_id: g.id,
            data: { [name]: settingToApi(ctx.org, v) },
          },
        });
  for (const [name, v] of Object.entries(ctx.org.realm.settings))
    if (names(v))
      ctx.events.push({
        users: 'all',
        event: {
          type: 'realm',
          op: 'update_dict',
          property: 'default',
          data: { [name]: settingToApi(ctx.org, v) },
        },
      });
}

/**
 * zerver/actions/create_user.py `do_reactivate_user`: a bot whose owner is deactivated passes
 * to the acting user; then `realm_user` `update` with `is_active: true`; for a human,
 * `realm_export_consent` to the human administrators (`allow_private_data_export` is never
 * set here: Zulip's default, false); for a bot, `realm_bot` `update` and the owner change's
 * events; `subscription` `peer_add` for its channels that are not archived;
 * `user_group` `add_members` for each group it is a direct member of (system groups included,
 * by group ID) to every active user; and the anonymous group settings that name it.
 */
export function reactivateUser(ctx: RequestContext, target: StoredUser): void {
  target.isActive = true;
  let previousOwner: StoredUser | undefined;
  if (target.isBot && target.botOwnerId !== null) {
    const owner = findUser(ctx.org, target.botOwnerId);
    if (owner && !owner.isActive) {
      previousOwner = owner;
      target.botOwnerId = ctx.user.id;
    }
  }
  realmUserUpdate(ctx, target, { is_active: true });
  if (!target.isBot)
    ctx.events.push({
      users: humanAdminIds(ctx),
      event: { type: 'realm_export_consent', user_id: target.id, consented: false },
    });
  if (target.isBot) {
    realmBotUpdate(ctx, target, botOwnerUserIds(ctx, target), { is_active: true });
    if (previousOwner) botOwnerUpdateEvents(ctx, target, previousOwner);
  }
  sendPeerSubscriberEvents(
    ctx,
    'peer_add',
    subscribedChannels(ctx, target, (ch) => !ch.isArchived),
  );
  const groups = ctx.org.groups.filter((g) => isDirectMember(target, g));
  for (const g of groups.sort((a, b) => a.id - b.id))
    ctx.events.push(groupMembersEvent('add_members', g.id, [target.id]));
  anonymousSettingEvents(ctx, target);
}

/** zerver/lib/user_groups.py `get_system_user_group_for_user`: a guest's is role:everyone. */
function systemGroupOfRole(role: number): SystemGroupName {
  switch (role) {
    case ROLES.owner:
      return 'role:owners';
    case ROLES.administrator:
      return 'role:administrators';
    case ROLES.moderator:
      return 'role:moderators';
    case ROLES.member:
      return 'role:members';
    default:
      return 'role:everyone';
  }
}

/** `get_streams_for_user(include_all=True)`: the channels, not archived, the user sees. */
function accessibleChannels(ctx: RequestContext, user: StoredUser): StoredChannel[] {
  return ctx.org.channels
    .filter((ch) => !ch.isArchived && hasMetadataAccess(ctx.org, user, ch))
    .sort((a, b) => a.id - b.id);
}

/**
 * zerver/actions/users.py `do_change_user_role`: `realm_user` `update` with the role; the
 * user leaves its old role's system group and joins the new one's (`user_group`
 * `remove_members`, `add_members`); when a member's role is involved, role:fullmembers
 * follows for that user (`update_users_in_full_members_system_group`: a provisional member
 * does not join it); then
 * `send_stream_events_for_role_update`, to the user: `stream` `create` for the channels it can
 * now see, with a `subscription` `peer_add` of each one's subscribers (private channels first),
 * and `stream` `delete` for those it no longer sees. The role:fullmembers change sends its own
 * channel events first (`bulk_remove_members_from_user_groups` / `bulk_add_members_to_user_groups`:
 * a channel a setting naming role:fullmembers shows or hides), which the last ones may repeat.
 */
export function changeUserRole(ctx: RequestContext, user: StoredUser, role: number): void {
  const old = user.role;
  if (old === role) return;
  const before = accessibleChannels(ctx, user);
  user.role = role;
  realmUserUpdate(ctx, user, { role });
  const roleGroup = (r: number): number => systemGroupId(ctx.org, systemGroupOfRole(r));
  ctx.events.push(groupMembersEvent('remove_members', roleGroup(old), [user.id]));
  ctx.events.push(groupMembersEvent('add_members', roleGroup(role), [user.id]));
  if (old === ROLES.member || role === ROLES.member)
    updateUsersInFullMembersSystemGroup(
      ctx.org,
      ctx.now,
      ctx.events,
      [user.id],
      listeningLevel(ctx),
    );
  const after = accessibleChannels(ctx, user);
  const gained = after.filter((ch) => !before.includes(ch));
  if (gained.length > 0) {
    ctx.events.push({
      users: [user.id],
      event: {
        type: 'stream',
        op: 'create',
        streams: gained.map((ch) => channelToApi(ctx.org, ctx.featureLevel, ch)),
      },
    });
    // bulk_get_subscriber_peer_info: the private channels, then the public ones.
    const ordered = [
      ...gained.filter((ch) => ch.inviteOnly),
      ...gained.filter((ch) => !ch.inviteOnly),
    ];
    for (const ch of ordered)
      ctx.events.push({
        users: [user.id],
        event: {
          type: 'subscription',
          op: 'peer_add',
          stream_ids: [ch.id],
          user_ids: subscriberIds(ctx.org, ch.id),
        },
      });
  }
  const lost = before.filter((ch) => !after.includes(ch));
  if (lost.length > 0) sendStreamDeletionEvent(ctx.events, [user.id], lost);
}
