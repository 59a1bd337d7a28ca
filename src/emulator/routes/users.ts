import { FEATURES, supports } from '../../model/features';
import { ROLES } from '../../model/kinds';
import { checkFullName, codePointLength, fullNameKey, pyStrip } from '../../model/rules';
import { adminRequired, badRequest, insufficientPermission, ownerRequired } from '../errors';
import { fullMembersGroup } from '../full-members';
import { findUser, holdsRealmSetting, isAdmin, isOwner } from '../permissions';
import type { Handler, RequestContext, Route } from '../router';
import type { StoredUser } from '../state';
import { realmProperty } from '../realm-settings';
import { userToApi } from '../views';
import type { UserViewOptions } from '../views';
import { pathInt } from './common';
import { changeUserRole, deactivateUser, reactivateUser } from './user-activation';
import { atomicValues, readProfileData, updateProfileData } from './custom-profile-fields';
import type { ProfileItem } from './custom-profile-fields';

/**
 * zerver/lib/users.py `access_user_common`: bots and deactivated users only where the endpoint
 * allows them; administrative access (`for_admin`) needs `can_admin_user` (a realm
 * administrator, or the bot's owner), else "Insufficient permission".
 */
interface AccessOptions {
  allowDeactivated?: boolean;
  allowBots?: boolean;
  forAdmin: boolean;
}

function accessCommon(ctx: RequestContext, target: StoredUser, opts: AccessOptions): StoredUser {
  if (target.isBot && opts.allowBots !== true) throw badRequest('No such user');
  if (!target.isActive && opts.allowDeactivated !== true) throw badRequest('User is deactivated');
  if (opts.forAdmin && !(target.botOwnerId === ctx.user.id || isAdmin(ctx.user)))
    throw insufficientPermission();
  return target;
}

/** `access_user_by_id`: "No such user" for an ID that is not a user of the realm. */
function accessUserById(ctx: RequestContext, id: number, opts: AccessOptions): StoredUser {
  const u = findUser(ctx.org, id);
  if (!u) throw badRequest('No such user');
  return accessCommon(ctx, u, opts);
}

/**
 * `access_user_by_email`: by delivery email, case-insensitively after strip. Every user of the
 * embedded server shows its email to everyone, so the visibility filter never hides one.
 */
function accessUserByEmail(ctx: RequestContext, email: string, opts: AccessOptions): StoredUser {
  const key = email.trim().toLowerCase();
  const u = ctx.org.users.find((x) => x.email.toLowerCase() === key);
  if (!u) throw badRequest('No such user');
  return accessCommon(ctx, u, opts);
}

/** `UserProfile.ROLE_TYPES`, as `check_int_in_validator` reports a value outside it. */
function readRole(ctx: RequestContext): number | undefined {
  const role = ctx.params.int('role');
  if (role !== undefined && !(Object.values(ROLES) as number[]).includes(role))
    throw badRequest('Invalid role: Value error, Not in the list of possible values');
  return role;
}

/** zerver/views/users.py `check_last_owner`: the target is the realm's only human owner. */
function isLastOwner(ctx: RequestContext, target: StoredUser): boolean {
  const owners = ctx.org.users.filter((u) => u.isActive && !u.isBot && u.role === ROLES.owner);
  return target.role === ROLES.owner && !target.isBot && owners.length === 1;
}

/**
 * zerver/lib/users.py `check_full_name` (the rule is the model's): the stripped name, or Zulip's
 * error; with the organization's `require_unique_names`, a name another user has (bots and
 * deactivated users included, `target` excluded) compared NFKC-normalized and case-folded.
 */
function validFullName(ctx: RequestContext, raw: string, target: StoredUser): string {
  const problem = checkFullName(raw);
  if (problem !== undefined) throw badRequest(problem.message);
  if (realmProperty(ctx.org, 'require_unique_names') === true) {
    const key = fullNameKey(raw);
    if (ctx.org.users.some((u) => u.id !== target.id && fullNameKey(u.fullName) === key))
      throw badRequest('Unique names required in this organization.');
  }
  return pyStrip(raw);
}

/**
 * `update_user_backend` runs in one transaction. It changes only the target's role and full
 * name, and role:fullmembers's members with the role, so those (and the request's events) are
 * what a refusal rolls back: a snapshot of the whole organization per request (`atomic`)
 * costs hundreds of milliseconds in a large one.
 */
function updateUserAtomically<T>(ctx: RequestContext, target: StoredUser, fn: () => T): T {
  const before = { role: target.role, fullName: target.fullName };
  const fullMembers = fullMembersGroup(ctx.org);
  // Replaced, never changed in place, by update_users_in_full_members_system_group.
  const members = fullMembers.members;
  const events = ctx.events.length;
  try {
    return fn();
  } catch (e) {
    Object.assign(target, before);
    fullMembers.members = members;
    ctx.events.length = events;
    throw e;
  }
}

/**
 * zerver/views/users.py `update_user_backend` (inside the atomic `update_user_by_id_api` /
 * `update_user_by_email_api`): `new_email` needs `can_change_user_emails` (never granted
 * here); a role change needs an owner when owners are involved and an administrator
 * otherwise, and never removes the last owner; a full name that is blank after strip or
 * unchanged is ignored.
 */
function updateUser(
  ctx: RequestContext,
  fullName: string | undefined,
  newEmail: string | undefined,
  role: number | undefined,
  target: StoredUser,
): Record<string, unknown> {
  if (newEmail !== undefined) throw badRequest('User not authorized to change user emails');
  if (role !== undefined && role !== target.role) {
    if ((role === ROLES.owner || target.role === ROLES.owner) && !isOwner(ctx.user))
      throw ownerRequired();
    if (!isAdmin(ctx.user)) throw adminRequired();
    if (target.role === ROLES.owner && isLastOwner(ctx, target))
      throw badRequest('The owner permission cannot be removed from the only organization owner.');
    changeUserRole(ctx, target, role);
  }
  if (fullName !== undefined && fullName !== target.fullName && pyStrip(fullName) !== '') {
    const name = validFullName(ctx, fullName, target);
    if (name !== target.fullName) {
      target.fullName = name;
      ctx.events.push({
        users: 'all',
        event: {
          type: 'realm_user',
          op: 'update',
          person: { user_id: target.id, full_name: name },
        },
      });
    }
  }
  return {};
}

/**
 * The parameters of `update_user_by_*_api`, in the view's order: typed_endpoint parses them all,
 * `profile_data`'s whole shape included, before the view looks up the user.
 */
function readUpdateParams(ctx: RequestContext): {
  fullName: string | undefined;
  newEmail: string | undefined;
  profileData: ProfileItem[] | undefined;
  role: number | undefined;
} {
  const fullName = ctx.params.string('full_name');
  const newEmail = ctx.params.string('new_email');
  const rawProfileData = ctx.params.json('profile_data');
  const profileData = rawProfileData === undefined ? undefined : readProfileData(rawProfileData);
  const role = readRole(ctx);
  return { fullName, newEmail, profileData, role };
}

/**
 * `update_user_backend` in its transaction: role and full name, then `profile_data`; a refusal
 * rolls back all of them.
 */
function updateTarget(
  ctx: RequestContext,
  target: StoredUser,
  p: ReturnType<typeof readUpdateParams>,
): Record<string, unknown> {
  return atomicValues(ctx, target, () =>
    updateUserAtomically(ctx, target, () => {
      updateUser(ctx, p.fullName, p.newEmail, p.role, target);
      if (p.profileData !== undefined) updateProfileData(ctx, target, p.profileData);
      return {};
    }),
  );
}

/** `client_gravatar` (default true since FL 92) and `include_custom_profile_fields` (default false). */
function listOptions(ctx: RequestContext): UserViewOptions {
  return {
    clientGravatar: ctx.params.bool('client_gravatar') ?? true,
    profileData: ctx.params.bool('include_custom_profile_fields') ?? false,
    featureLevel: ctx.featureLevel,
  };
}

function me(ctx: RequestContext): Record<string, unknown> {
  // get_profile_backend: get_users_for_api with its defaults (profile data included), so a
  // bot's has its bot_type and bot_owner_id as format_user_row adds them.
  const u = userToApi(ctx.user, { featureLevel: ctx.featureLevel });
  return { ...u, max_message_id: -1 };
}

/** The user of the path's `user_id`, deactivated users and bots included (`forAdmin`: for a change). */
function anyUserInPath(ctx: RequestContext, forAdmin: boolean): StoredUser {
  const opts = { allowDeactivated: true, allowBots: true, forAdmin };
  return accessUserById(ctx, pathInt(ctx, 'user_id'), opts);
}

/** The user of the path's `email`, as {@link anyUserInPath} takes the path's `user_id`. */
function anyUserByEmailInPath(ctx: RequestContext, forAdmin: boolean): StoredUser {
  const opts = { allowDeactivated: true, allowBots: true, forAdmin };
  return accessUserByEmail(ctx, ctx.path.email ?? '', opts);
}

/** How a route finds its target user in the path (`forAdmin`: for a change). */
type UserInPath = (ctx: RequestContext, forAdmin: boolean) => StoredUser;

/** A read of one user found by `find`: the view options first, then the user. */
function getUser(find: UserInPath): Handler {
  return (ctx) => {
    const opts = listOptions(ctx);
    return { user: userToApi(find(ctx, false), opts) };
  };
}

/** `update_user_backend` on the user found by `find`: the parameters first, then the user. */
function patchUser(find: UserInPath): Handler {
  return (ctx) => {
    const p = readUpdateParams(ctx);
    return updateTarget(ctx, find(ctx, true), p);
  };
}

/** User routes. `/users/me` comes before `/users/{email}`. */
export const userRoutes: Route[] = [
  {
    method: 'GET',
    path: '/users',
    handler: (ctx) => {
      const opts = listOptions(ctx);
      const ids = supports(ctx.featureLevel, 'usersByIds')
        ? ctx.params.intList('user_ids')
        : undefined;
      // get_realm_user_dicts_from_ids: IDs that are not users of the realm are left out.
      const wanted = ids === undefined ? undefined : new Set(ids);
      const users = ctx.org.users.filter((u) => wanted === undefined || wanted.has(u.id));
      return { members: users.map((u) => userToApi(u, opts)) };
    },
  },
  { method: 'GET', path: '/users/me', handler: me },
  // get_member_backend: deactivated users and bots too, read-only access.
  { method: 'GET', path: '/users/{user_id}', handler: getUser(anyUserInPath) },
  // zerver/views/users.py update_user_by_id_api
  { method: 'PATCH', path: '/users/{user_id}', handler: patchUser(anyUserInPath) },
  {
    // zerver/views/users.py deactivate_user_backend
    method: 'DELETE',
    path: '/users/{user_id}',
    handler: (ctx) => {
      const comment = ctx.params.string('deactivation_notification_comment');
      if (comment !== undefined && codePointLength(comment) > 2000)
        throw badRequest('deactivation_notification_comment is too long (limit: 2000 characters)');
      const target = accessUserById(ctx, pathInt(ctx, 'user_id'), { forAdmin: true });
      if (target.role === ROLES.owner && !isOwner(ctx.user)) throw ownerRequired();
      if (isLastOwner(ctx, target))
        throw badRequest('Cannot deactivate the only organization owner');
      deactivateUser(ctx, target);
      return {};
    },
  },
  {
    // zerver/views/users.py reactivate_user_backend, zerver/actions/create_user.py
    // do_reactivate_user (a bot whose owner is deactivated passes to the acting user).
    method: 'POST',
    path: '/users/{user_id}/reactivate',
    handler: (ctx) => {
      const target = anyUserInPath(ctx, true);
      // zerver/lib/users.py check_can_create_bot: reactivating a bot needs the right to create
      // one (can_create_bots_group; for an incoming webhook, can_create_write_only_bots_group).
      if (
        target.isBot &&
        !holdsRealmSetting(ctx.org, ctx.user, 'can_create_bots_group') &&
        !(
          target.botType === 2 &&
          holdsRealmSetting(ctx.org, ctx.user, 'can_create_write_only_bots_group')
        )
      )
        throw insufficientPermission();
      // zerver/lib/users.py check_bot_name_available (is_activation): no active user has the
      // bot's name (compared exactly, stripped).
      const name = pyStrip(target.fullName);
      if (target.isBot && ctx.org.users.some((u) => u.isActive && u.fullName === name))
        throw badRequest(
          `There is already an active bot named "${target.fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
        );
      reactivateUser(ctx, target);
      return {};
    },
  },
  // get_user_by_email
  { method: 'GET', path: '/users/{email}', handler: getUser(anyUserByEmailInPath) },
  // zerver/views/users.py update_user_by_email_api
  {
    method: 'PATCH',
    path: '/users/{email}',
    minLevel: FEATURES.usersByEmail.level,
    handler: patchUser(anyUserByEmailInPath),
  },
];
