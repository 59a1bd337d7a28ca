import { Router } from '../router';
import { channelFolderRoutes } from './channel-folders';
import { channelRoutes } from './channels';
import { miscRoutes } from './misc';
import { realmRoutes } from './realm';
import { registerRoutes } from './register';
import { savedSnippetRoutes } from './saved-snippets';
import { subscriptionRoutes } from './subscriptions';
import { userGroupRoutes } from './user-groups';
import { userRoutes } from './users';

/** Every route of the emulator. Subscription routes precede `/users/{email}`. */
export function buildRouter(): Router {
  const router = new Router();
  router.add(
    ...registerRoutes,
    ...subscriptionRoutes,
    ...miscRoutes,
    ...userRoutes,
    ...channelRoutes,
    ...channelFolderRoutes,
    ...userGroupRoutes,
    ...realmRoutes,
    ...savedSnippetRoutes,
  );
  return router;
}
