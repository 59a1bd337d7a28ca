import type { KindSpec } from './spec';
import { exactKey } from './spec';

/**
 * A custom emoji, keyed by its name (Zulip's names are lower case only, so exact comparison is
 * Zulip's). Zulip never deletes an emoji: removing one deactivates it (`do_remove_realm_emoji`),
 * and a new image under the same name is a new emoji (`replace`: deactivate, then upload).
 */
export const customEmoji = {
  collection: 'customEmoji',
  title: 'Custom emoji',
  nouns: ['custom emoji', 'custom emoji'],
  listOrder: 8,
  rank: 6,
  compareKey: exactKey,
  removal: 'deactivate',
  ordered: false,
  ignorable: ['image'],
  actions: ['create', 'replace', 'deactivate'],
} as const satisfies KindSpec;
