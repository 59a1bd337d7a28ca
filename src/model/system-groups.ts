import { ROLES } from './kinds';
import type { SystemGroupName } from './kinds';

/**
 * The role whose users are direct members of each system group that has members, as in Zulip:
 * every user is a direct member of the group of its role (zerver/lib/user_groups.py
 * `get_system_user_group_for_user`, `SYSTEM_USER_GROUP_ROLE_MAP`: a guest's is role:everyone),
 * and a member who is not provisional is also a direct member of role:fullmembers
 * (`add_users_to_system_user_groups`). Higher roles reach the wider groups through the subgroup
 * chain owners ⊂ administrators ⊂ moderators ⊂ fullmembers ⊂ members ⊂ everyone ⊂ internet
 * (`create_system_user_groups_for_realm`), so a group holds every user of its role or a
 * higher one (a lower role number); role:nobody and role:internet have no members.
 */
export const SYSTEM_GROUP_ROLE: Readonly<Record<string, number>> = {
  'role:owners': ROLES.owner,
  'role:administrators': ROLES.administrator,
  'role:moderators': ROLES.moderator,
  'role:fullmembers': ROLES.member,
  'role:members': ROLES.member,
  'role:everyone': ROLES.guest,
} satisfies Partial<Record<SystemGroupName, number>>;
