import type { DesiredLinkifier } from '../desired-state';
import type { LiveLinkifier } from '../live-state';
import type { KeyedFacts, KindSpec } from './spec';
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
  events: ['realm_linkifiers'],
  // Zulip strips both (zerver/actions/realm_linkifiers.py `do_add_linkifier`,
  // `do_update_linkifier`): compare and send what it will store.
  keyed: {
    key: (d) => d.pattern.trim(),
    keyProperty: 'pattern',
    liveKey: (l) => l.pattern,
    desired: (d) => ({ pattern: d.pattern.trim(), urlTemplate: d.urlTemplate.trim() }),
    live: (l) => ({ pattern: l.pattern, urlTemplate: l.urlTemplate }),
    updatable: ['urlTemplate'],
    replaces: [],
    followsRenames: true,
  } satisfies KeyedFacts<DesiredLinkifier, LiveLinkifier>,
} as const satisfies KindSpec;
