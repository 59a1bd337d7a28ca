import type { KindSpec } from './spec';
import { exactKey } from './spec';

/** A code playground, keyed by `language/name` (Zulip's uniqueness is the pair). */
export const playground = {
  collection: 'playgrounds',
  title: 'Code playgrounds',
  nouns: ['code playground', 'code playgrounds'],
  listOrder: 4,
  rank: 5,
  compareKey: exactKey,
  removal: 'delete',
  ordered: false,
  ignorable: ['urlTemplate'],
  actions: ['create', 'replace', 'delete'],
} as const satisfies KindSpec;
