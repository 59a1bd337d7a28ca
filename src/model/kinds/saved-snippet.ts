import { z } from 'zod';
import { plainSchemas } from './schemas';
import type { KeyedFacts, KindSpec } from './spec';
import { exactKey } from './spec';

export const { desired: SavedSnippetSchema, live: LiveSavedSnippetSchema } = plainSchemas({
  title: z.string(),
  content: z.string(),
});
export type DesiredSavedSnippet = z.infer<typeof SavedSnippetSchema>;
export type LiveSavedSnippet = z.infer<typeof LiveSavedSnippetSchema>;

/** A saved snippet of the applying account, keyed by its title. */
export const savedSnippet = {
  collection: 'savedSnippets',
  construct: 'SavedSnippet',
  title: 'Saved snippets (applying account)',
  nouns: ['saved snippet', 'saved snippets'],
  listOrder: 5,
  rank: 6,
  compareKey: exactKey,
  removal: 'delete',
  ordered: false,
  ignorable: ['content'],
  actions: ['create', 'update', 'rename', 'delete'],
  events: ['saved_snippets'],
  sortedBy: (d: DesiredSavedSnippet) => [d.title],
  // `Organization`'s `prune` option for this kind, with the documentation its users read.
  prune: {
    /** Delete the applying account's undeclared saved snippets. @default false */
    savedSnippet: false,
  },
  /** Sorted by title. */
  desiredSchema: z.array(SavedSnippetSchema),
  /** The applying account's own snippets. */
  liveSchema: z.array(LiveSavedSnippetSchema),
  // Zulip strips the title and the content (zerver/views/saved_snippets.py
  // `create_saved_snippet`, `edit_saved_snippet`).
  keyed: {
    key: (d) => d.title.trim(),
    keyProperty: 'title',
    liveKey: (l) => l.title,
    desired: (d) => ({ title: d.title.trim(), content: d.content.trim() }),
    created: (d) => ({ title: d.title.trim(), content: d.content }),
    live: (l) => ({ title: l.title, content: l.content.trim() }),
    removed: (l) => ({ title: l.title, content: l.content }),
    updatable: ['content'],
    replaces: [],
    followsRenames: true,
    constructId: { word: 'snippet', suffix: '-snippet' },
  } satisfies KeyedFacts<DesiredSavedSnippet, LiveSavedSnippet>,
} as const satisfies KindSpec;
