import { z } from 'zod';
import { plainSchemas } from './schemas';
import type { KeyedFacts, KindSpec } from './spec';
import { playgroundKey } from '../address';
import { exactKey } from './spec';

export const { desired: PlaygroundSchema, live: LivePlaygroundSchema } = plainSchemas({
  name: z.string(),
  pygmentsLanguage: z.string(),
  urlTemplate: z.string(),
});
export type DesiredPlayground = z.infer<typeof PlaygroundSchema>;
export type LivePlayground = z.infer<typeof LivePlaygroundSchema>;

/** A code playground, keyed by `language/name` (Zulip's uniqueness is the pair; see {@link playgroundKey}). */
export const playground = {
  collection: 'playgrounds',
  construct: 'CodePlayground',
  title: 'Code playgrounds',
  nouns: ['code playground', 'code playgrounds'],
  listOrder: 4,
  rank: 5,
  compareKey: exactKey,
  removal: 'delete',
  ordered: false,
  ignorable: ['urlTemplate'],
  actions: ['create', 'replace', 'delete'],
  events: ['realm_playgrounds'],
  sortedBy: (d: DesiredPlayground) => [d.pygmentsLanguage, d.name],
  // `Organization`'s `prune` option for this kind, with the documentation its users read.
  prune: {
    /** Delete undeclared code playgrounds. @default false */
    playground: false,
  },
  /** Sorted by language, then name. */
  desiredSchema: z.array(PlaygroundSchema),
  liveSchema: z.array(LivePlaygroundSchema),
  // Zulip has no PATCH for playgrounds: a change is a delete and a create.
  keyed: {
    key: (d) => playgroundKey({ pygmentsLanguage: d.pygmentsLanguage.trim(), name: d.name.trim() }),
    keyProperty: 'name',
    liveKey: playgroundKey,
    desired: (d) => ({
      name: d.name.trim(),
      pygmentsLanguage: d.pygmentsLanguage.trim(),
      urlTemplate: d.urlTemplate.trim(),
    }),
    live: (l) => ({
      name: l.name,
      pygmentsLanguage: l.pygmentsLanguage,
      urlTemplate: l.urlTemplate,
    }),
    updatable: [],
    replaces: ['name', 'pygmentsLanguage', 'urlTemplate'],
    followsRenames: true,
  } satisfies KeyedFacts<DesiredPlayground, LivePlayground>,
} as const satisfies KindSpec;
