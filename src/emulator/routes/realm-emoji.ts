import type { Route } from '../router';

/**
 * `GET /realm/emoji`: zerver/views/realm_emoji.py list_emoji, the realm's custom emoji by ID
 * (zerver/models/realm_emoji.py get_all_custom_emoji_for_realm). The emulator models no
 * custom emoji, so the dictionary is empty.
 */
export const realmEmojiRoutes: Route[] = [
  { method: 'GET', path: '/realm/emoji', handler: () => ({ emoji: {} }) },
];
