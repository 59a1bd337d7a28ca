import { z } from 'zod';
import { plainSchemas } from './schemas';
import type { KeyedFacts, KindSpec } from './spec';
import { exactKey } from './spec';

export const { desired: LinkifierSchema, live: LiveLinkifierSchema } = plainSchemas({
  pattern: z.string(),
  urlTemplate: z.string(),
});
export type DesiredLinkifier = z.infer<typeof LinkifierSchema>;
export type LiveLinkifier = z.infer<typeof LiveLinkifierSchema>;

/** A linkifier, keyed by its pattern; its place in the list is its precedence. */
export const linkifier = {
  collection: 'linkifiers',
  construct: 'Linkifier',
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
  // `Organization`'s `prune` option for this kind, with the documentation its users read.
  prune: {
    /** Delete undeclared linkifiers. @default false */
    linkifier: false,
  },
  /** In declaration order: the order Zulip applies them in. */
  desiredSchema: z.array(LinkifierSchema),
  /** In processing order. */
  liveSchema: z.array(LiveLinkifierSchema),
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
    // A pattern makes a poor construct id: the site it links to says more (`github-com`).
    constructId: { from: (l) => hostOf(l.urlTemplate) },
  } satisfies KeyedFacts<DesiredLinkifier, LiveLinkifier>,
} as const satisfies KindSpec;

/** `github.com` for `https://github.com/acme/{id}`; the template itself when it has no host. */
function hostOf(template: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:www\.)?([^/?#{}]+)/i.exec(template);
  return m?.[1] ?? template;
}
