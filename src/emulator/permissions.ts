import type { OrgState, StoredChannel, StoredGroup, StoredGroupSetting, StoredUser } from './state';
import { ROLES } from '../model/kinds';
import { organizationPermissionByWire, refusesGuests } from '../model/permissions';
import { SYSTEM_GROUP_ROLE } from '../model/system-groups';
import { FULL_MEMBERS, isProvisionalMember } from './full-members';
import {
  groupById,
  subscriptionOf,
  subscriptionRowsOfChannelByUserId,
  subscriptionRowsUnique,
  userById,
} from './indexes';

/** Role checks, as Zulip's `UserProfile` properties. */
export const isOwner = (u: StoredUser): boolean => u.role === ROLES.owner;
export const isAdmin = (u: StoredUser): boolean => u.role <= ROLES.administrator;
export const isModerator = (u: StoredUser): boolean => u.role <= ROLES.moderator;
export const isGuest = (u: StoredUser): boolean => u.role === ROLES.guest;

export function findGroup(org: OrgState, id: number): StoredGroup | undefined {
  return groupById(org, id);
}

export function findUser(org: OrgState, id: number): StoredUser | undefined {
  return userById(org, id);
}

/** Whether a user with this ID exists and is active. */
function isActiveUser(org: OrgState, id: number): boolean {
  return userById(org, id)?.isActive === true;
}

/**
 * The role whose users are the direct members of a system group derived from roles; undefined
 * for role:fullmembers, whose members are stored as Zulip stores them (full-members.ts), and
 * for the groups without members (role:nobody, role:internet).
 */
function derivedRole(g: StoredGroup): number | undefined {
  return g.name === FULL_MEMBERS ? undefined : SYSTEM_GROUP_ROLE[g.name];
}

/** Whether the group's direct members are its stored `members` (not derived from roles). */
function hasStoredMembers(g: StoredGroup): boolean {
  return !g.isSystemGroup || g.name === FULL_MEMBERS;
}

/**
 * Direct members of a group, active users only, sorted. System groups derive theirs from
 * roles, but role:fullmembers, which stores them.
 */
export function directMembers(org: OrgState, g: StoredGroup): number[] {
  let ids: number[];
  if (hasStoredMembers(g)) ids = g.members.filter((id) => isActiveUser(org, id));
  else {
    const role = derivedRole(g);
    ids =
      role === undefined
        ? []
        : org.users.filter((u) => u.role === role && u.isActive).map((u) => u.id);
  }
  return ids.sort((a, b) => a - b);
}

/**
 * {@link directMembers} for every group of one answer: the users are sorted into system
 * groups by role once, instead of one pass over every user per system group.
 */
export function directMembersReader(org: OrgState): (g: StoredGroup) => number[] {
  const byRole = new Map<number, number[]>();
  for (const u of org.users) {
    if (!u.isActive) continue;
    let ids = byRole.get(u.role);
    if (!ids) byRole.set(u.role, (ids = []));
    ids.push(u.id);
  }
  for (const ids of byRole.values()) ids.sort((a, b) => a - b);
  return (g) => {
    if (hasStoredMembers(g)) return directMembers(org, g);
    const role = derivedRole(g);
    return role === undefined ? [] : [...(byRole.get(role) ?? [])];
  };
}

/** Whether the user is one of `directMembers(org, g)`, without listing them. */
export function isDirectMember(user: StoredUser, g: StoredGroup): boolean {
  if (hasStoredMembers(g)) return g.members.includes(user.id);
  const role = derivedRole(g);
  return role !== undefined && user.role === role;
}

/** Every group reachable through subgroups, the group itself included. */
export function descendantGroups(org: OrgState, groupId: number): Set<number> {
  const seen = new Set<number>();
  const stack = [groupId];
  while (stack.length > 0) {
    const id = stack.pop() as number;
    if (seen.has(id)) continue;
    seen.add(id);
    const g = findGroup(org, id);
    if (g) stack.push(...g.subgroups);
  }
  return seen;
}

/** All (recursive) members of a group, active users only, sorted. */
export function recursiveMembers(org: OrgState, groupId: number): number[] {
  const out = new Set<number>();
  for (const id of descendantGroups(org, groupId)) {
    const g = findGroup(org, id);
    if (g) for (const m of directMembers(org, g)) out.add(m);
  }
  return [...out].sort((a, b) => a - b);
}

/** Whether the user is a (recursive) member of the group. */
export function isInGroup(org: OrgState, userId: number, groupId: number): boolean {
  // The user of the ID (the first, as a scan finds it) must be active; then membership of any
  // group reachable through subgroups, as `recursiveMembers(org, groupId).includes(userId)`.
  const user = userById(org, userId);
  if (!user?.isActive) return false;
  for (const id of descendantGroups(org, groupId)) {
    const g = findGroup(org, id);
    if (g && isDirectMember(user, g)) return true;
  }
  return false;
}

/** Whether the user holds a group-setting value. Deactivated users hold nothing. */
export function holdsSetting(
  org: OrgState,
  user: StoredUser,
  value: StoredGroupSetting | undefined,
): boolean {
  if (value === undefined || !user.isActive) return false;
  if (typeof value === 'number') return isInGroup(org, user.id, value);
  if (value.direct_members.includes(user.id)) return true;
  return value.direct_subgroups.some((g) => isInGroup(org, user.id, g));
}

/**
 * Whether a group-setting value is the named system group (Zulip's
 * `setting.named_user_group.name == SystemGroups.X`): an anonymous value never is.
 */
export function isSystemGroupSetting(
  org: OrgState,
  value: StoredGroupSetting | undefined,
  name: string,
): boolean {
  if (typeof value !== 'number') return false;
  const g = findGroup(org, value);
  return g?.isSystemGroup === true && g.name === name;
}

/**
 * Whether the user holds a realm-level group setting, e.g. `can_create_groups`
 * (zerver/models/users.py `UserProfile.has_permission`: `user_has_permission_for_group_setting`,
 * so never a guest for a setting that does not allow role:everyone).
 */
export function holdsRealmSetting(org: OrgState, user: StoredUser, name: string): boolean {
  const info = organizationPermissionByWire(name);
  if (info && refusesGuests(info) && isGuest(user)) return false;
  return holdsSetting(org, user, org.realm.settings[name]);
}

/**
 * zerver/lib/user_groups.py `check_user_has_permission_by_role`: whether the user holds a
 * setting whose value is the named system group, read from the user's role and, for
 * role:fullmembers, from `is_provisional_member` at `now` (the date joined and the threshold,
 * not the group's stored members). Zulip reads the direct message settings so
 * (`check_can_send_direct_message`).
 */
export function hasPermissionByRole(
  org: OrgState,
  user: StoredUser,
  systemGroupName: string,
  now: number,
): boolean {
  switch (systemGroupName) {
    case 'role:nobody':
      return false;
    case 'role:everyone':
      return true;
  }
  if (isGuest(user)) return false;
  switch (systemGroupName) {
    case 'role:members':
      return true;
    case 'role:owners':
      return isOwner(user);
    case 'role:administrators':
      return isAdmin(user);
    case 'role:moderators':
      return isModerator(user);
  }
  // The full members' case.
  return user.role !== ROLES.member || !isProvisionalMember(org.realm, user, now);
}

export function isSubscribed(org: OrgState, userId: number, channelId: number): boolean {
  if (subscriptionRowsUnique(org)) return subscriptionOf(org, userId, channelId)?.active === true;
  return org.subscriptions.some(
    (s) => s.userId === userId && s.channelId === channelId && s.active,
  );
}

/** Active subscriber IDs of a channel, active users only, sorted. */
export function subscriberIds(org: OrgState, channelId: number): number[] {
  return subscriberIdsOf(org, channelId, (id) => isActiveUser(org, id));
}

function subscriberIdsOf(
  org: OrgState,
  channelId: number,
  isActive: (userId: number) => boolean,
): number[] {
  const out: number[] = [];
  if (subscriptionRowsUnique(org)) {
    // Rows kept sorted by user ID: nothing to sort.
    for (const s of subscriptionRowsOfChannelByUserId(org, channelId))
      if (s.active && isActive(s.userId)) out.push(s.userId);
    return out;
  }
  for (const s of org.subscriptions)
    if (s.channelId === channelId && s.active && isActive(s.userId)) out.push(s.userId);
  return out.sort((a, b) => a - b);
}

/**
 * {@link subscriberIds} for every channel of one answer (a register lists them all): which
 * users are active is read once, into a table by ID, instead of one user lookup per
 * subscription row (1,000,000 at scale 10, each a cache miss); each list is computed once.
 */
export function subscriberIdsReader(org: OrgState): (channelId: number) => readonly number[] {
  let maxId = 0;
  let dense = true;
  for (const u of org.users)
    if (!Number.isInteger(u.id) || u.id < 0) dense = false;
    else if (u.id > maxId) maxId = u.id;
  let isActive = (id: number): boolean => isActiveUser(org, id);
  if (dense && maxId <= 1 << 24) {
    const active = new Uint8Array(maxId + 1);
    // The first user of an ID decides, as userById finds it.
    for (let i = org.users.length - 1; i >= 0; i--) {
      const u = org.users[i] as StoredUser;
      active[u.id] = u.isActive ? 1 : 0;
    }
    isActive = (id) => active[id] === 1;
  }
  const lists = new Map<number, readonly number[]>();
  return (channelId) => {
    let ids = lists.get(channelId);
    if (ids === undefined) lists.set(channelId, (ids = subscriberIdsOf(org, channelId, isActive)));
    return ids;
  };
}

/** Realm administrators, and members of `can_administer_channel_group`. */
export function canAdministerChannel(org: OrgState, user: StoredUser, ch: StoredChannel): boolean {
  // Never guests through the group: the setting does not allow role:everyone
  // (zerver/lib/streams.py can_administer_accessible_channel).
  if (isAdmin(user)) return true;
  return !isGuest(user) && holdsSetting(org, user, ch.settings.can_administer_channel_group);
}

/**
 * Content access (FL 349): web-public channels; public channels for non-guests; subscribers;
 * members of `can_add_subscribers_group` or `can_subscribe_group`.
 */
export function hasContentAccess(org: OrgState, user: StoredUser, ch: StoredChannel): boolean {
  if (ch.isWebPublic) return true;
  if (!ch.inviteOnly && !isGuest(user)) return true;
  return hasChannelContentAccessHelper(org, user, ch);
}

/**
 * zerver/lib/message.py `has_channel_content_access_helper`: content access through a
 * subscription or the groups granting it, not through the channel being public.
 */
export function hasChannelContentAccessHelper(
  org: OrgState,
  user: StoredUser,
  ch: StoredChannel,
): boolean {
  if (isSubscribed(org, user.id, ch.id)) return true;
  // Guests get nothing from the group settings (zerver/lib/streams.py user_has_content_access:
  // the guest check comes first, as the settings have allow_everyone_group=False).
  if (isGuest(user)) return false;
  return (
    holdsSetting(org, user, ch.settings.can_add_subscribers_group) ||
    holdsSetting(org, user, ch.settings.can_subscribe_group)
  );
}

/** Metadata access: content access, realm administrators, and channel administrators. */
export function hasMetadataAccess(org: OrgState, user: StoredUser, ch: StoredChannel): boolean {
  // user_has_metadata_access: a guest's access ends with web-public and subscribed channels.
  return hasContentAccess(org, user, ch) || (!isGuest(user) && canAdministerChannel(org, user, ch));
}

/** The three settings that give metadata access (`stream_permission_group_settings_granting_metadata_access`). */
export const METADATA_SETTINGS = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_subscribe_group',
] as const;

/**
 * Whether an active user is among the users zerver/lib/streams.py
 * `bulk_can_access_stream_metadata_user_ids` gives for a channel, the audience of its `stream`
 * events: for a public channel (`is_public`: not `invite_only`, web-public included) every
 * non-guest and its guest subscribers; for a private one its subscribers, the administrators
 * (`get_admin_users_and_bots`) and the non-guest members of its three metadata-granting
 * settings (`get_users_dict_with_metadata_access_to_streams_via_permission_groups`). Unlike
 * {@link hasMetadataAccess}, a guest not subscribed to a web-public channel is not in it.
 */
export function inChannelMetadataAudience(
  org: OrgState,
  user: StoredUser,
  ch: StoredChannel,
): boolean {
  const guest = isGuest(user);
  if (!ch.inviteOnly && !guest) return true;
  if (isSubscribed(org, user.id, ch.id)) return true;
  if (guest) return false;
  if (isAdmin(user)) return true;
  return METADATA_SETTINGS.some((s) => holdsSetting(org, user, ch.settings[s]));
}

/**
 * Whether the user may see the channel's subscribers (zerver/lib/subscription_info.py
 * `validate_user_access_to_subscribers_helper`): web-public channels; a guest only those they
 * are subscribed to; administrators and members of the three metadata-granting group settings
 * every channel; others public channels and the private channels they are subscribed to.
 * Where this is false, Zulip's subscription lists carry `subscribers: []`
 * (`bulk_get_subscriber_user_ids`), and `GET /streams/{id}/members` refuses.
 */
export function canSeeSubscribers(org: OrgState, user: StoredUser, ch: StoredChannel): boolean {
  if (ch.isWebPublic) return true;
  const subscribed = isSubscribed(org, user.id, ch.id);
  if (isGuest(user)) return subscribed;
  if (isAdmin(user)) return true;
  if (
    holdsSetting(org, user, ch.settings.can_administer_channel_group) ||
    holdsSetting(org, user, ch.settings.can_add_subscribers_group) ||
    holdsSetting(org, user, ch.settings.can_subscribe_group)
  )
    return true;
  return !ch.inviteOnly || subscribed;
}
