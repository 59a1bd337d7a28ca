import type { KindSpec } from './spec';
import { exactKey } from './spec';

/** A saved snippet of the applying account, keyed by its title. */
export const savedSnippet = {
  collection: 'savedSnippets',
  title: 'Saved snippets (applying account)',
  nouns: ['saved snippet', 'saved snippets'],
  listOrder: 5,
  rank: 6,
  compareKey: exactKey,
  removal: 'delete',
  ordered: false,
  ignorable: ['content'],
  actions: ['create', 'update', 'rename', 'delete'],
} as const satisfies KindSpec;
