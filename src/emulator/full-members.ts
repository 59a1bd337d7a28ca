import { ROLES } from '../model/kinds';
import { joinedWithinWaitingPeriod as withinWaitingPeriod } from '../model/waiting-period';
import { groupMembersEvent } from './events';
import {
  channelAccessBefore,
  sendGainedChannelEvents,
  sendLostChannelEvents,
} from './group-channel-access';
import type { PendingEvent } from './router';
import type { OrgState, StoredGroup, StoredRealm, StoredUser } from './state';

/*
 * role:fullmembers as Zulip keeps it: stored direct members (the group's `members`, deactivated
 * users included, as Zulip keeps their UserGroupMembership rows), not derived from roles. A
 * member (role MEMBER) is provisional while fewer whole days than the organization's
 * `waiting_period_threshold` have passed since they joined; Zulip adds members who are not to
 * the group when they are created (zerver/actions/create_user.py `do_create_user`) and
 * recomputes it when the threshold changes (`do_set_realm_property`), when a member's role
 * changes (`do_change_user_role`) and once a day (`promote_new_full_members`).
 */

export const FULL_MEMBERS = 'role:fullmembers';

/** The organization's waiting period, judged for `user` (src/model/waiting-period.ts). */
function joinedWithinWaitingPeriod(
  realm: StoredRealm,
  user: Pick<StoredUser, 'dateJoined'>,
  now: number,
): boolean {
  return withinWaitingPeriod(user.dateJoined, realm.waitingPeriodThreshold, now);
}

/**
 * zerver/models/users.py `UserProfile.is_provisional_member`: never a moderator or a higher
 * role; else joined within the waiting period.
 */
export function isProvisionalMember(
  realm: StoredRealm,
  user: Pick<StoredUser, 'role' | 'dateJoined'>,
  now: number,
): boolean {
  if (user.role <= ROLES.moderator) return false;
  return joinedWithinWaitingPeriod(realm, user, now);
}

/** The organization's role:fullmembers system group. */
export function fullMembersGroup(org: OrgState): StoredGroup {
  const g = org.groups.find((x) => x.isSystemGroup && x.name === FULL_MEMBERS);
  if (!g) throw new Error(`system group ${FULL_MEMBERS} missing`);
  return g;
}

/**
 * Whether a new user joins role:fullmembers (zerver/actions/create_user.py `do_create_user`: a
 * member who is not provisional).
 */
export function joinsFullMembersOnCreation(
  realm: StoredRealm,
  user: Pick<StoredUser, 'role' | 'dateJoined'>,
  now: number,
): boolean {
  return user.role === ROLES.member && !isProvisionalMember(realm, user, now);
}

/**
 * zerver/actions/user_groups.py `update_users_in_full_members_system_group`, for the users of
 * `affectedUserIds` (all users when absent or empty, as Zulip's `if affected_user_ids`): the
 * direct members who are provisional or no longer members leave the group
 * (`bulk_remove_members_from_user_groups`: `user_group` `remove_members`), then the members
 * (role MEMBER, deactivated ones included) not in it who are not provisional join it
 * (`bulk_add_members_to_user_groups`: `add_members`); each event lists its users by ID. The
 * group's `members` is replaced, never changed in place, so a caller can roll it back by
 * putting the array it had back. Returns whether the group changed.
 *
 * With `featureLevel`, each bulk function's `stream` events follow its `user_group` event: the
 * users leaving who lose metadata access to a private channel through a setting that reaches
 * role:fullmembers get `stream` `delete`, those joining who gain it `stream` `create` and
 * `subscription` `peer_add` (group-channel-access.ts). Without it (nobody listening) they are
 * not computed.
 */
export function updateUsersInFullMembersSystemGroup(
  org: OrgState,
  now: number,
  events: PendingEvent[],
  affectedUserIds: readonly number[] = [],
  featureLevel?: number,
): boolean {
  const g = fullMembersGroup(org);
  const affected = affectedUserIds.length > 0 ? new Set(affectedUserIds) : undefined;
  const concerned = (id: number): boolean => affected === undefined || affected.has(id);
  const byId = new Map(org.users.map((u) => [u.id, u] as const));
  const current = new Set(g.members);
  const leaving = g.members
    .filter((id) => {
      const u = byId.get(id);
      if (!concerned(id) || u === undefined) return false;
      return joinedWithinWaitingPeriod(org.realm, u, now) || u.role !== ROLES.member;
    })
    .sort((a, b) => a - b);
  // role:members' direct members: every user whose role is MEMBER.
  const joining = org.users
    .filter(
      (u) =>
        u.role === ROLES.member &&
        concerned(u.id) &&
        !current.has(u.id) &&
        !joinedWithinWaitingPeriod(org.realm, u, now),
    )
    .map((u) => u.id)
    .sort((a, b) => a - b);
  if (leaving.length === 0 && joining.length === 0) return false;
  const watch = (ids: number[]) => channelAccessBefore(org, featureLevel, [g.id], () => ids);
  if (leaving.length > 0) {
    const access = watch(leaving);
    const gone = new Set(leaving);
    g.members = g.members.filter((id) => !gone.has(id));
    events.push(groupMembersEvent('remove_members', g.id, leaving));
    sendLostChannelEvents(org, events, access);
  }
  if (joining.length > 0) {
    const access = watch(joining);
    g.members = [...g.members, ...joining];
    events.push(groupMembersEvent('add_members', g.id, joining));
    sendGainedChannelEvents(org, events, access);
  }
  return true;
}

/**
 * zerver/actions/user_groups.py `promote_new_full_members`, which Zulip runs daily (its
 * `promote_new_full_members` management command, from cron): the whole organization's
 * role:fullmembers recomputed, unless its `waiting_period_threshold` is 0.
 */
export function promoteNewFullMembers(
  org: OrgState,
  now: number,
  events: PendingEvent[],
  featureLevel?: number,
): boolean {
  if (org.realm.waitingPeriodThreshold === 0) return false;
  return updateUsersInFullMembersSystemGroup(org, now, events, [], featureLevel);
}

/**
 * An organization saved before role:fullmembers was stored (its `members` empty, its full
 * members then every member): the group filled by `update_users_in_full_members_system_group`
 * as of now, without events (nobody is listening at load).
 */
export function storeFullMembers(org: OrgState, now: number): void {
  if (org.fullMembersStored === true) return;
  fullMembersGroup(org).members = [];
  updateUsersInFullMembersSystemGroup(org, now, []);
  org.fullMembersStored = true;
}
