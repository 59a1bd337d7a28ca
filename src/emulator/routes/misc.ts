import { FEATURES } from '../../model/features';
import { ApiError } from '../errors';
import { hasMetadataAccess, isSubscribed } from '../permissions';
import type { Route } from '../router';
import { accessTargetUser, pathInt, requireHuman } from './common';

/** Endpoints that fit no other file. Peripheral endpoints (drafts, flags, ...) go here or beside. */
export const miscRoutes: Route[] = [
  {
    // The emulator has no push devices, so the test notification always finds none. New in
    // Zulip 11.0, feature level 420 (api_docs/changelog.md; NOTES section 6 does not list it).
    method: 'POST',
    path: '/mobile_push/e2ee/test_notification',
    minLevel: FEATURES.e2eeTestNotification.level,
    handler: (ctx) => {
      // zerver/views/push_notifications.py send_e2ee_test_push_notification_api
      // (@human_users_only), then NoActivePushDeviceError.
      requireHuman(ctx);
      ctx.params.int('push_account_id');
      throw new ApiError('No active registered push device', { code: 'NO_ACTIVE_PUSH_DEVICE' });
    },
  },
  {
    method: 'GET',
    path: '/users/{user_id}/channels',
    minLevel: FEATURES.userChannels.level,
    handler: (ctx) => {
      // get_subscribed_channels_backend: access_user_by_id, then the target's channels (archived
      // ones too) that the caller has metadata access to.
      const uid = accessTargetUser(ctx, pathInt(ctx, 'user_id')).id;
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
