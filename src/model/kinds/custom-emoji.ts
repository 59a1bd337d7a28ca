import type { DesiredCustomEmoji } from '../desired-state';
import type { LiveCustomEmoji } from '../live-state';
import type { KeyedFacts, KindSpec, PlanObject } from './spec';
import { BY_NAME } from './spec';
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
  // zerver/actions/realm_emoji.py notify_realm_emoji.
  events: ['realm_emoji'],
  // An image is compared by its digest; a new one is a `replace`. Emoji have no rename: Zulip
  // keeps a deactivated emoji, and `renamedFrom` is not followed.
  keyed: {
    ...BY_NAME,
    desired: (d) => ({
      name: d.name,
      image: d.image ? { sha256: d.image.sha256, size: d.image.size } : null,
    }),
    created: (d) => ({ name: d.name, image: { ...d.image } }),
    live: liveEmoji,
    updatable: [],
    replaces: ['image'],
    removedFlag: 'deactivated',
    followsRenames: false,
  } satisfies KeyedFacts<DesiredCustomEmoji, LiveCustomEmoji>,
} as const satisfies KindSpec;

/** What a reviewer sees of a live emoji: its name and its image's digest, never its bytes. */
function liveEmoji(l: LiveCustomEmoji): PlanObject {
  return {
    name: l.name,
    image: l.image === null ? null : { sha256: l.image.sha256, size: l.image.size },
  };
}
