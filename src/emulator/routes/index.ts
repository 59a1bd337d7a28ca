import { Router } from '../router';
import { channelFolderRoutes } from './channel-folders';
import { channelRoutes } from './channels';
import { customProfileFieldRoutes } from './custom-profile-fields';
import { defaultStreamGroupRoutes } from './default-stream-groups';
import { draftRoutes } from './drafts';
import { messageFlagRoutes } from './message-flags';
import { messageRoutes } from './messages';
import { miscRoutes } from './misc';
import { navigationViewRoutes } from './navigation-views';
import { presenceRoutes } from './presence';
import { realmRoutes } from './realm';
import { realmDomainRoutes } from './realm-domains';
import { realmEmojiRoutes } from './realm-emoji';
import { realmSettingsRoutes } from './realm-settings';
import { registerRoutes } from './register';
import { savedSnippetRoutes } from './saved-snippets';
import { scheduledMessageRoutes } from './scheduled-messages';
import { subscriptionRoutes } from './subscriptions';
import { userGroupRoutes } from './user-groups';
import { userRoutes } from './users';
import { userSettingsDefaultsRoutes } from './user-settings-defaults';

/** Every route of the emulator. Subscription routes precede `/users/{email}`. */
export function buildRouter(): Router {
  const router = new Router();
  router.add(
    ...registerRoutes,
    ...subscriptionRoutes,
    ...miscRoutes,
    ...presenceRoutes,
    ...customProfileFieldRoutes,
    ...userRoutes,
    ...channelRoutes,
    ...defaultStreamGroupRoutes,
    ...channelFolderRoutes,
    ...userGroupRoutes,
    ...realmRoutes,
    ...realmDomainRoutes,
    ...realmSettingsRoutes,
    ...userSettingsDefaultsRoutes,
    ...realmEmojiRoutes,
    ...savedSnippetRoutes,
    ...draftRoutes,
    ...navigationViewRoutes,
    ...messageRoutes,
    ...messageFlagRoutes,
    ...scheduledMessageRoutes,
  );
  return router;
}
