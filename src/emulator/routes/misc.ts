import { badRequest } from '../errors';
import { hasMetadataAccess, isSubscribed } from '../permissions';
import type { Route } from '../router';
import { pathInt } from './common';

/** Endpoints that fit no other file. Peripheral endpoints (drafts, flags, ...) go here or beside. */
export const miscRoutes: Route[] = [
  {
    method: 'GET',
    path: '/users/{user_id}/channels',
    minLevel: 440,
    handler: (ctx) => {
      const uid = pathInt(ctx, 'user_id');
      if (!ctx.org.users.some((u) => u.id === uid)) throw badRequest('No such user');
      return {
        subscribed_channel_ids: ctx.org.channels
          .filter(
            (ch) => isSubscribed(ctx.org, uid, ch.id) && hasMetadataAccess(ctx.org, ctx.user, ch),
          )
          .map((ch) => ch.id)
          .sort((a, b) => a - b),
      };
    },
  },
];
