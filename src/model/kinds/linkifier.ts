import type { KindSpec } from './spec';
import { exactKey } from './spec';

/** A linkifier, keyed by its pattern; its place in the list is its precedence. */
export const linkifier = {
  collection: 'linkifiers',
  title: 'Linkifiers',
  nouns: ['linkifier', 'linkifiers'],
  listOrder: 3,
  rank: 4,
  compareKey: exactKey,
  removal: 'delete',
  ordered: true,
  ignorable: ['urlTemplate', 'order'],
  actions: ['create', 'update', 'rename', 'delete', 'reorder'],
} as const satisfies KindSpec;
