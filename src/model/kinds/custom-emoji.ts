import { z } from 'zod';
import { entrySchema, liveSchema } from './schemas';
import type { KeyedFacts, KindSpec, PlanObject } from './spec';
import { BY_NAME } from './spec';
import { exactKey } from './spec';

/**
 * An emoji's image as synth found it: where (relative to the directory synth ran in, with `/`,
 * or absolute when outside it), its SHA-256 and size. Never its bytes: apply reads the file
 * and checks the digest again.
 */
export const EmojiImageSchema = z.strictObject({
  file: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
  /** By the file's first bytes: `image/png`, `image/gif`, `image/jpeg`, `image/webp`, `image/avif`. */
  contentType: z.string(),
});
export type EmojiImage = z.infer<typeof EmojiImageSchema>;

export const CustomEmojiSchema = entrySchema({
  name: z.string(),
  /** Absent only when the emoji is declared deactivated. */
  image: EmojiImageSchema.optional(),
  /** Zulip keeps a deactivated emoji (messages that used it still show it); its name is free again. */
  deactivated: z.boolean().optional(),
});
export type DesiredCustomEmoji = z.infer<typeof CustomEmojiSchema>;

/** A custom emoji, deactivated ones included (Zulip keeps them). */
export const LiveCustomEmojiSchema = liveSchema({
  name: z.string(),
  deactivated: z.boolean(),
  authorId: z.number().int().nullable(),
  /** Where Zulip serves the image (`source_url`, relative to the site or absolute). */
  sourceUrl: z.string(),
  /**
   * SHA-256 and size of the image as uploaded (`<source_url>.original`, which Zulip keeps next
   * to the resized image), for active emoji; null when it could not be read.
   */
  image: z.strictObject({ sha256: z.string(), size: z.number().int() }).nullable(),
});
export type LiveCustomEmoji = z.infer<typeof LiveCustomEmojiSchema>;

/**
 * A custom emoji, keyed by its name (Zulip's names are lower case only, so exact comparison is
 * Zulip's). Zulip never deletes an emoji: removing one deactivates it (`do_remove_realm_emoji`),
 * and a new image under the same name is a new emoji (`replace`: deactivate, then upload).
 */
export const customEmoji = {
  collection: 'customEmoji',
  construct: 'CustomEmoji',
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
  sortedBy: (d: DesiredCustomEmoji) => [d.name],
  // `Organization`'s `prune` option for this kind, with the documentation its users read.
  prune: {
    /** Deactivate undeclared custom emoji (Zulip's only removal: the emoji is kept, its name freed). @default false */
    customEmoji: false,
  },
  /** Sorted by name. Absent in files written before custom emoji existed. */
  desiredSchema: z.array(CustomEmojiSchema).default([]),
  /** Custom emoji by ID; absent in snapshots made before they were read. */
  liveSchema: z.array(LiveCustomEmojiSchema).default([]),
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
