import { FEATURES } from '../../model/features';
import { badRequest, missingArgument } from '../errors';
import type { RequestContext, Route } from '../router';
import type { StoredPresence, StoredUser, StoredUserStatus } from '../state';
import { checkEmojiRequest, getEmojiData } from '../emoji';
import { isAdmin } from '../permissions';
import { pathInt, requireHuman } from './common';

function presenceMap(ctx: RequestContext): Record<string, StoredPresence> {
  ctx.org.presence ??= {};
  return ctx.org.presence;
}

function legacy(p: StoredPresence): Record<string, unknown> {
  const active = p.activeTimestamp >= p.idleTimestamp;
  const timestamp = Math.max(p.activeTimestamp, p.idleTimestamp);
  const status = active ? 'active' : 'idle';
  return {
    aggregated: { client: 'website', status, timestamp },
    website: { client: 'website', status, timestamp, pushable: false },
  };
}

/** One user's status as the API shows it (zerver/lib/user_status.py format_user_status). */
function statusToApi(s: StoredUserStatus | undefined): Record<string, unknown> {
  const status: Record<string, unknown> = {};
  if (s) {
    if (s.away) status.away = true;
    if (s.statusText) status.status_text = s.statusText;
    if (s.emojiName) {
      status.emoji_name = s.emojiName;
      status.emoji_code = s.emojiCode;
      status.reaction_type = s.reactionType;
    }
  }
  return status;
}

/**
 * Register's `user_status`: active users whose status is not empty, by user ID
 * (zerver/lib/user_status.py get_all_users_status_dict).
 */
export function allUsersStatus(ctx: RequestContext): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [uid, s] of Object.entries(ctx.org.userStatus ?? {})) {
    if (!ctx.org.users.some((u) => String(u.id) === uid && u.isActive)) continue;
    const status = statusToApi(s);
    if (Object.keys(status).length > 0) out[uid] = status;
  }
  return out;
}

/**
 * Register's `presences` and `presence_last_update_id` (zerver/lib/presence.py
 * get_presence_dict_by_realm): active human users seen in the last `historyLimitDays` (default
 * 14), by user ID in the modern format or by email in the legacy one; -1 without rows.
 */
export function realmPresences(
  ctx: RequestContext,
  slim: boolean,
  historyLimitDays: number | undefined,
): { presences: Record<string, unknown>; lastUpdateId: number } {
  const presences: Record<string, unknown> = {};
  let lastUpdateId = -1;
  if (historyLimitDays === 0) return { presences, lastUpdateId };
  const since = ctx.now / 1000 - (historyLimitDays ?? 14) * 86400;
  for (const [uid, pr] of Object.entries(presenceMap(ctx))) {
    const u = ctx.org.users.find((x) => String(x.id) === uid);
    if (!u?.isActive || u.isBot || pr.idleTimestamp < since) continue;
    lastUpdateId = Math.max(lastUpdateId, pr.lastUpdateId);
    if (slim)
      presences[uid] = { active_timestamp: pr.activeTimestamp, idle_timestamp: pr.idleTimestamp };
    else presences[u.email] = legacy(pr);
  }
  return { presences, lastUpdateId };
}

/**
 * `POST /users/me/status`, or the administrator variant for another user, which takes no
 * (deprecated) `away`: there it is reported in `ignored_parameters_unsupported`.
 */
function updateStatus(
  ctx: RequestContext,
  target: StoredUser,
  withAway: boolean,
): Record<string, unknown> {
  const p = ctx.params;
  // Signature order: `away` comes first, `status_text` last on /users/me/status.
  const away = withAway ? p.bool('away') : undefined;
  const emojiCodeParam = p.string('emoji_code');
  const emojiName = p.string('emoji_name');
  const reactionTypeParam = p.string('reaction_type');
  const statusText = p.string('status_text', { strip: true, maxLength: 60 });
  // zerver/views/presence.py update_user_status_backend: emoji_code and reaction_type alone are
  // not new values.
  if (statusText === undefined && away === undefined && emojiName === undefined)
    throw badRequest('Client did not pass any new values.');
  let emojiCode = emojiCodeParam;
  let reactionType = reactionTypeParam;
  if (emojiName === '') {
    // An empty name clears the emoji.
    emojiCode = '';
    reactionType = 'unicode_emoji';
  } else if (emojiName !== undefined) {
    if (emojiCode === undefined || reactionType === undefined) {
      const data = getEmojiData(ctx.org, emojiName);
      emojiCode ??= data.code;
      reactionType ??= data.type;
    }
  } else if (reactionType || emojiCode)
    throw badRequest(
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    );
  // check_emoji_request, for a new emoji (not a cleared one).
  if (emojiName !== undefined && emojiName !== '')
    checkEmojiRequest(ctx.org, emojiName, emojiCode ?? '', reactionType ?? '');
  ctx.org.userStatus ??= {};
  const cur = ctx.org.userStatus[String(target.id)] ?? {
    statusText: '',
    emojiName: '',
    emojiCode: '',
    reactionType: 'unicode_emoji',
    away: false,
  };
  if (emojiName !== undefined) {
    cur.emojiName = emojiName;
    cur.emojiCode = emojiCode ?? '';
    cur.reactionType = reactionType ?? 'unicode_emoji';
  }
  if (statusText !== undefined) cur.statusText = statusText;
  if (away !== undefined) cur.away = away;
  ctx.org.userStatus[String(target.id)] = cur;
  return {};
}

/** User status and presence routes. */
export const presenceRoutes: Route[] = [
  {
    method: 'POST',
    path: '/users/me/status',
    handler: (ctx) => {
      requireHuman(ctx);
      return updateStatus(ctx, ctx.user, true);
    },
  },
  {
    // The administrator variant is new in Zulip 11.0, feature level 407 (api_docs/changelog.md);
    // before that only GET exists on this path, so a POST gets 405.
    method: 'POST',
    path: '/users/{user_id}/status',
    minLevel: FEATURES.userStatusOfOthers.level,
    handler: (ctx) => {
      // update_user_status_admin: access_user_by_id(for_admin=True) (zerver/lib/users.py
      // access_user_common): unknown users and bots are "No such user", then deactivated
      // users, then "Insufficient permission" unless the caller administers the user.
      requireHuman(ctx);
      const u = ctx.org.users.find((x) => x.id === pathInt(ctx, 'user_id'));
      if (!u || u.isBot) throw badRequest('No such user');
      if (!u.isActive) throw badRequest('User is deactivated');
      if (!isAdmin(ctx.user)) throw badRequest('Insufficient permission');
      return updateStatus(ctx, u, false);
    },
  },
  {
    method: 'GET',
    path: '/users/{user_id}/status',
    handler: (ctx) => {
      // get_status_backend: access_user_by_id(for_admin=False).
      const u = ctx.org.users.find((x) => x.id === pathInt(ctx, 'user_id'));
      if (!u || u.isBot) throw badRequest('No such user');
      if (!u.isActive) throw badRequest('User is deactivated');
      return { status: statusToApi(ctx.org.userStatus?.[String(u.id)]) };
    },
  },
  {
    method: 'POST',
    path: '/users/me/presence',
    handler: (ctx) => {
      requireHuman(ctx);
      const p = ctx.params;
      const status = p.string('status');
      if (status === undefined) throw missingArgument('status');
      const lastUpdateId = p.int('last_update_id');
      p.int('history_limit_days');
      const pingOnly = p.bool('ping_only') ?? false;
      p.bool('new_user_input');
      const slim = p.bool('slim_presence') ?? false;
      if (status !== 'active' && status !== 'idle') throw badRequest(`Invalid status: ${status}`);
      const now = Math.floor(ctx.now / 1000);
      const map = presenceMap(ctx);
      const cur = map[String(ctx.user.id)] ?? {
        activeTimestamp: 0,
        idleTimestamp: 0,
        lastUpdateId: 0,
      };
      ctx.org.presenceLastUpdateId = (ctx.org.presenceLastUpdateId ?? 0) + 1;
      if (status === 'active') cur.activeTimestamp = now;
      cur.idleTimestamp = now;
      cur.lastUpdateId = ctx.org.presenceLastUpdateId;
      map[String(ctx.user.id)] = cur;
      const out: Record<string, unknown> = {
        presence_last_update_id: ctx.org.presenceLastUpdateId,
      };
      if (pingOnly) return out;
      const modern = slim || lastUpdateId !== undefined;
      const presences: Record<string, unknown> = {};
      for (const [uid, pr] of Object.entries(map)) {
        if (lastUpdateId !== undefined && pr.lastUpdateId <= lastUpdateId) continue;
        const u = ctx.org.users.find((x) => String(x.id) === uid);
        if (!u?.isActive) continue;
        if (modern)
          presences[uid] = {
            active_timestamp: pr.activeTimestamp,
            idle_timestamp: pr.idleTimestamp,
          };
        else presences[u.email] = legacy(pr);
      }
      return { ...out, server_timestamp: ctx.now / 1000, presences };
    },
  },
  {
    method: 'GET',
    path: '/realm/presence',
    handler: (ctx) => {
      const presences: Record<string, unknown> = {};
      for (const [uid, pr] of Object.entries(presenceMap(ctx))) {
        const u = ctx.org.users.find((x) => String(x.id) === uid);
        if (
          u?.isActive &&
          ctx.now / 1000 - Math.max(pr.activeTimestamp, pr.idleTimestamp) < 14 * 86400
        )
          presences[u.email] = legacy(pr);
      }
      return { server_timestamp: ctx.now / 1000, presences };
    },
  },
  {
    method: 'GET',
    path: '/users/{user_id_or_email}/presence',
    handler: (ctx) => {
      const key = ctx.path.user_id_or_email ?? '';
      const u = /^[0-9]+$/.test(key)
        ? ctx.org.users.find((x) => x.id === Number(key))
        : ctx.org.users.find((x) => x.email.toLowerCase() === key.toLowerCase());
      // zerver/views/presence.py get_presence_backend: active users only.
      if (!u?.isActive) throw badRequest('No such user');
      if (u.isBot) throw badRequest('Presence is not supported for bot users.');
      const pr = presenceMap(ctx)[String(u.id)];
      if (!pr) throw badRequest(`No presence data for ${key}`);
      const l = legacy(pr) as { aggregated: { status: string; timestamp: number } };
      const entry = { timestamp: l.aggregated.timestamp, status: l.aggregated.status };
      return { presence: { aggregated: entry, website: entry } };
    },
  },
];
