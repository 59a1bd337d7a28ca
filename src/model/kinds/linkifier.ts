import { z } from 'zod';
import { entrySchema, liveSchema } from './schemas';
import type { KeyedFacts, KindSpec } from './spec';
import { exactKey } from './spec';

const linkifierShape = { pattern: z.string(), urlTemplate: z.string() };
export const LinkifierSchema = entrySchema(linkifierShape);
export type DesiredLinkifier = z.infer<typeof LinkifierSchema>;

export const LiveLinkifierSchema = liveSchema(linkifierShape);
export type LiveLinkifier = z.infer<typeof LiveLinkifierSchema>;

/** A linkifier, keyed by its pattern; its place in the list is its precedence. */
export const linkifier = {
  collection: 'linkifiers',
  /** In declaration order: the order Zulip applies them in. */
  desiredSchema: z.array(LinkifierSchema),
  /** In processing order. */
  liveSchema: z.array(LiveLinkifierSchema),
  title: 'Linkifiers',
  nouns: ['linkifier', 'linkifiers'],
  listOrder: 3,
  rank: 4,
  compareKey: exactKey,
  removal: 'delete',
  // `Organization`'s `prune` option for this kind, with the documentation its users read.
  prune: {
    /** Delete undeclared linkifiers. @default false */
    linkifier: false,
  },
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
