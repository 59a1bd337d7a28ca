/**
 * Channel routes: reads (`GET /streams`, one channel, its subscribers, `get_stream_id`) and
 * default channels here; creation in channel-create.ts, updates and archiving in
 * channel-update.ts (as zerver/views/streams.py groups them).
 */
import { FEATURES } from '../../model/features';
import { missingArgument, badRequest } from '../errors';
import {
  hasContentAccess,
  hasMetadataAccess,
  holdsSetting,
  isAdmin,
  isGuest,
  isSubscribed,
  subscriberIds,
} from '../permissions';
import type { RequestContext, Route } from '../router';
import type { StoredChannel } from '../state';
import { channelToApi } from '../views';
import { accessStreamById, channelByName, pathInt, requireAdmin } from './common';
import { defaultStreamsEvent } from './channel-rules';
import { createChannelRoute } from './channel-create';
import { updateChannel, archiveChannel } from './channel-update';

/**
 * GET /streams: zerver/lib/streams.py `do_get_streams` and `get_streams_for_user`. Since FL 356
 * `include_all_active` is `include_all` and anyone may ask (all channels with metadata
 * access). Sorted by name.
 */
function listChannels(ctx: RequestContext): Record<string, unknown> {
  const p = ctx.params;
  const fl = ctx.featureLevel;
  const { org, user } = ctx;
  const includePublic = (p.bool('include_public') ?? true) && !isGuest(user);
  const includeWebPublic = p.bool('include_web_public') ?? false;
  const includeSubscribed = p.bool('include_subscribed') ?? true;
  const excludeArchived = p.bool('exclude_archived') ?? true;
  // Every level the emulator serves is past FL 356: include_all_active is include_all.
  const includeAll = (p.bool('include_all') ?? false) || (p.bool('include_all_active') ?? false);
  const includeDefault = p.bool('include_default') ?? false;
  const includeOwnerSubscribed = (p.bool('include_owner_subscribed') ?? false) && user.isBot;
  const includeContent = p.bool('include_can_access_content') ?? false;
  const owner =
    includeOwnerSubscribed && user.botOwnerId !== null && user.botOwnerId !== undefined
      ? user.botOwnerId
      : undefined;
  const out = org.channels.filter((ch) => {
    if (excludeArchived && ch.isArchived) return false;
    if (includeAll) return hasMetadataAccess(org, user, ch);
    if (includeContent && hasContentAccess(org, user, ch)) return true;
    if (owner !== undefined && isSubscribed(org, owner, ch.id)) return true;
    if (includeContent) return false;
    if (includeSubscribed && isSubscribed(org, user.id, ch.id)) return true;
    if (includePublic && !ch.inviteOnly) return true;
    if (
      includeWebPublic &&
      ch.isWebPublic &&
      !ch.inviteOnly &&
      ch.historyPublicToSubscribers &&
      !ch.isArchived
    )
      return true;
    return false;
  });
  return {
    streams: out
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id))
      .map((ch) =>
        channelToApi(
          org,
          fl,
          ch,
          includeDefault ? { isDefault: org.defaultChannelIds.includes(ch.id) } : {},
        ),
      ),
  };
}

/**
 * `access_stream_by_id(..., require_content_access=False)` for GET /streams/{id}: an active
 * channel the user can read, or whose metadata they may see (administrators, members of the
 * metadata-granting settings, never guests through them).
 */
function accessActiveChannelMetadata(ctx: RequestContext, id: number): StoredChannel {
  const { org, user } = ctx;
  const ch = org.channels.find((c) => c.id === id);
  if (!ch || ch.isArchived) throw badRequest('Invalid channel ID');
  if (hasContentAccess(org, user, ch) || isAdmin(user)) return ch;
  if (
    !isGuest(user) &&
    [
      ch.settings.can_administer_channel_group,
      ch.settings.can_add_subscribers_group,
      ch.settings.can_subscribe_group,
    ].some((v) => holdsSetting(org, user, v))
  )
    return ch;
  throw badRequest('Invalid channel ID');
}

function defaultChannelId(ctx: RequestContext): number {
  const id = ctx.params.int('stream_id');
  if (id === undefined) throw missingArgument('stream_id');
  return id;
}

/** Channel routes. */
export const channelRoutes: Route[] = [
  { method: 'GET', path: '/streams', handler: listChannels },
  {
    method: 'GET',
    path: '/streams/{stream_id}',
    // get_stream_backend: access_stream_by_id(require_content_access=False).
    handler: (ctx) => ({
      stream: channelToApi(
        ctx.org,
        ctx.featureLevel,
        accessActiveChannelMetadata(ctx, pathInt(ctx, 'stream_id')),
      ),
    }),
  },
  {
    method: 'GET',
    path: '/streams/{stream_id}/members',
    // get_subscribers_backend: metadata access to an active channel.
    handler: (ctx) => {
      const ch = accessStreamById(ctx, pathInt(ctx, 'stream_id'), { requireContentAccess: false });
      return { subscribers: subscriberIds(ctx.org, ch.id) };
    },
  },
  { method: 'PATCH', path: '/streams/{stream_id}', handler: updateChannel },
  { method: 'DELETE', path: '/streams/{stream_id}', handler: archiveChannel },
  {
    method: 'GET',
    path: '/get_stream_id',
    handler: (ctx) => {
      // json_get_stream_id: access_stream_by_name (an active channel with content access).
      const name = ctx.params.requiredString('stream');
      const ch = channelByName(ctx, name);
      if (!ch || ch.isArchived || !hasContentAccess(ctx.org, ctx.user, ch))
        throw badRequest(`Invalid channel name '${name}'`);
      return { stream_id: ch.id };
    },
  },
  {
    method: 'POST',
    path: '/channels/create',
    handler: createChannelRoute,
    minLevel: FEATURES.channelsCreate.level,
  },
  {
    method: 'POST',
    path: '/default_streams',
    handler: (ctx) => {
      // add_default_stream: content access to an active channel (no bypass for administrators).
      requireAdmin(ctx);
      const ch = accessStreamById(ctx, defaultChannelId(ctx));
      if (ch.inviteOnly) throw badRequest('Private channels cannot be made default.');
      if (!ctx.org.defaultChannelIds.includes(ch.id)) {
        ctx.org.defaultChannelIds.push(ch.id);
        defaultStreamsEvent(ctx);
      }
      return {};
    },
  },
  {
    method: 'DELETE',
    path: '/default_streams',
    handler: (ctx) => {
      // remove_default_stream: metadata access to an active channel.
      requireAdmin(ctx);
      const ch = accessStreamById(ctx, defaultChannelId(ctx), { requireContentAccess: false });
      if (ctx.org.defaultChannelIds.includes(ch.id)) {
        ctx.org.defaultChannelIds = ctx.org.defaultChannelIds.filter((x) => x !== ch.id);
        defaultStreamsEvent(ctx);
      }
      return {};
    },
  },
];
