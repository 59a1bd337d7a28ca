import { LIMITS, ROLES } from '../../model/kinds';
import { codePointLength, firstUnprintablePosition } from '../../model/rules';
import { badRequest, ownerRequired } from '../errors';
import { isOwner } from '../permissions';
import type { RequestContext, Route } from '../router';
import type { StoredUser } from '../state';
import { userToApi } from '../views';
import type { UserViewOptions } from '../views';
import { pathInt, requireAdmin } from './common';

function userById(ctx: RequestContext, id: number): StoredUser {
  const u = ctx.org.users.find((x) => x.id === id);
  if (!u) throw badRequest('No such user');
  return u;
}

function userByEmail(ctx: RequestContext, email: string): StoredUser {
  const u = ctx.org.users.find((x) => x.email.toLowerCase() === email.toLowerCase());
  if (!u) throw badRequest('No such user');
  return u;
}

function checkFullName(name: string): string {
  const n = name.trim();
  if (codePointLength(n) > LIMITS.userFullName) throw badRequest('Name too long!');
  if (n === '') throw badRequest('Name too short!');
  if (firstUnprintablePosition(n) !== undefined || /[*`\\>"@]/.test(n))
    throw badRequest('Invalid characters in name!');
  return n;
}

function updateUser(ctx: RequestContext, target: StoredUser): Record<string, unknown> {
  const p = ctx.params;
  const fullName = p.string('full_name');
  const role = p.int('role');
  if (role !== undefined && !(Object.values(ROLES) as number[]).includes(role))
    throw badRequest('Invalid role');
  if (role !== undefined && role !== target.role) {
    if ((role === ROLES.owner || target.role === ROLES.owner) && !isOwner(ctx.user))
      throw ownerRequired();
    if (
      target.role === ROLES.owner &&
      ctx.org.users.filter((u) => u.isActive && !u.isBot && u.role === ROLES.owner).length <= 1
    )
      throw badRequest('The owner permission cannot be removed from the only organization owner.');
  }
  const name = fullName === undefined ? undefined : checkFullName(fullName);
  if (role !== undefined && role !== target.role) {
    target.role = role;
    ctx.events.push({
      users: 'all',
      event: { type: 'realm_user', op: 'update', person: { user_id: target.id, role } },
    });
  }
  if (name !== undefined && name !== target.fullName) {
    target.fullName = name;
    ctx.events.push({
      users: 'all',
      event: { type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: name } },
    });
  }
  return {};
}

/** `client_gravatar` (default true since FL 92) and `include_custom_profile_fields` (default false). */
function listOptions(ctx: RequestContext): UserViewOptions {
  return {
    clientGravatar: ctx.params.bool('client_gravatar') ?? true,
    profileData: ctx.params.bool('include_custom_profile_fields') ?? false,
  };
}

function me(ctx: RequestContext): Record<string, unknown> {
  const u = userToApi(ctx.user);
  delete u.bot_type;
  delete u.bot_owner_id;
  return { ...u, max_message_id: -1 };
}

/** User routes. `/users/me` comes before `/users/{email}`. */
export const userRoutes: Route[] = [
  {
    method: 'GET',
    path: '/users',
    handler: (ctx) => {
      const opts = listOptions(ctx);
      const ids = ctx.featureLevel >= 384 ? ctx.params.intList('user_ids') : undefined;
      const users = ctx.org.users.filter((u) => ids === undefined || ids.includes(u.id));
      if (ids)
        for (const id of ids)
          if (!users.some((u) => u.id === id)) throw badRequest(`Invalid user ID: ${id}`);
      return { members: users.map((u) => userToApi(u, opts)) };
    },
  },
  { method: 'GET', path: '/users/me', handler: me },
  {
    method: 'GET',
    path: '/users/{user_id}',
    handler: (ctx) => {
      const opts = listOptions(ctx);
      return { user: userToApi(userById(ctx, pathInt(ctx, 'user_id')), opts) };
    },
  },
  {
    method: 'PATCH',
    path: '/users/{user_id}',
    handler: (ctx) => {
      requireAdmin(ctx);
      return updateUser(ctx, userById(ctx, pathInt(ctx, 'user_id')));
    },
  },
  {
    method: 'GET',
    path: '/users/{email}',
    handler: (ctx) => {
      const opts = listOptions(ctx);
      return { user: userToApi(userByEmail(ctx, ctx.path.email ?? ''), opts) };
    },
  },
  {
    method: 'PATCH',
    path: '/users/{email}',
    minLevel: 313,
    handler: (ctx) => {
      requireAdmin(ctx);
      return updateUser(ctx, userByEmail(ctx, ctx.path.email ?? ''));
    },
  },
];
