import { supports } from '../../model/features';
import { adminRequired, badRequest, notFound, ownerRequired } from '../errors';
import { isAdmin, isGuest, isOwner } from '../permissions';
import { hasContentAccess, hasMetadataAccess } from '../permissions';
import { channelsByName, userById } from '../indexes';
import type { RequestContext } from '../router';
import type { StoredChannel, StoredUser } from '../state';

/** `require_realm_admin`. */
export function requireAdmin(ctx: RequestContext): void {
  if (!isAdmin(ctx.user)) throw adminRequired();
}

/** `require_realm_owner`. */
export function requireOwner(ctx: RequestContext): void {
  if (!isOwner(ctx.user)) throw ownerRequired();
}

/** `require_non_guest_user`. */
export function requireNonGuest(ctx: RequestContext): void {
  if (isGuest(ctx.user)) throw badRequest('Not allowed for guest users');
}

/** `human_users_only` (zerver/decorator.py): no bots. */
export function requireHuman(ctx: RequestContext): void {
  if (ctx.user.isBot) throw badRequest('This endpoint does not accept bot requests.');
}

/** `require_member_or_admin`: no guests, no bots (every user-group endpoint). */
export function requireMemberOrAdmin(ctx: RequestContext): void {
  if (isGuest(ctx.user)) throw badRequest('Not allowed for guest users');
  requireHuman(ctx);
}

/** A path parameter as an integer (the router only lets digits through). */
export function pathInt(ctx: RequestContext, name: string): number {
  return Number(ctx.path[name]);
}

/**
 * One of the caller's own items (a draft, a saved snippet, a scheduled message) by the ID in
 * the path; another user's item is as missing as one that does not exist (Zulip's
 * `access_draft`, `do_edit_saved_snippet`, `access_scheduled_message`: 404 with `missing`).
 */
export function ownItem<T extends { id: number }>(
  ctx: RequestContext,
  items: readonly T[],
  path: { param: string; missing: string },
  owner: (item: T) => number,
): T {
  const id = pathInt(ctx, path.param);
  const item = items.find((x) => x.id === id && owner(x) === ctx.user.id);
  if (!item) throw notFound(path.missing);
  return item;
}

/** A channel the user has metadata access to, else "Invalid channel ID". */
export function accessChannelById(ctx: RequestContext, id: number): StoredChannel {
  const ch = ctx.org.channels.find((c) => c.id === id);
  if (!ch || !hasMetadataAccess(ctx.org, ctx.user, ch)) throw badRequest('Invalid channel ID');
  return ch;
}

/**
 * zerver/lib/streams.py `access_stream_by_id`: the channel, else "Invalid channel ID" when it
 * does not exist, is archived (`require_active_channel`, the default) or the user lacks content
 * access (with `requireContentAccess: false`, metadata access is enough).
 */
export function accessStreamById(
  ctx: RequestContext,
  id: number,
  opts: { requireContentAccess?: boolean; requireActive?: boolean } = {},
): StoredChannel {
  const ch = ctx.org.channels.find((c) => c.id === id);
  const access = opts.requireContentAccess === false ? hasMetadataAccess : hasContentAccess;
  if (!ch || ((opts.requireActive ?? true) && ch.isArchived) || !access(ctx.org, ctx.user, ch))
    throw badRequest('Invalid channel ID');
  return ch;
}

/**
 * zerver/lib/users.py `access_user_by_id(..., for_admin=False)` as `GET /users/{id}/channels`
 * and `GET /users/{id}/subscriptions/{stream_id}` use it: unknown users and, before FL 458
 * (which lets these checks take bot users, ../shared/zulip-api/NOTES.md), bots are "No such
 * user"; deactivated users "User is deactivated".
 */
export function accessTargetUser(ctx: RequestContext, id: number): StoredUser {
  const u = userById(ctx.org, id);
  if (!u || (u.isBot && !supports(ctx.featureLevel, 'botsAsTargetUsers')))
    throw badRequest('No such user');
  if (!u.isActive) throw badRequest('User is deactivated');
  return u;
}

/** A channel by name, case-insensitively after stripping, archived ones included. */
export function channelByName(ctx: RequestContext, name: string): StoredChannel | undefined {
  return channelsByName(ctx.org)(name);
}

/** A user by ID or email (any state), for principals. */
export function userByIdOrEmail(ctx: RequestContext, p: number | string): StoredUser | undefined {
  return typeof p === 'number'
    ? ctx.org.users.find((u) => u.id === p)
    : ctx.org.users.find((u) => u.email.toLowerCase() === p.toLowerCase());
}

/** Zulip's `transaction.atomic` (see ../transaction.ts). */
export { atomic } from '../transaction';
