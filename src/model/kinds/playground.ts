import type { DesiredPlayground } from '../desired-state';
import type { LivePlayground } from '../live-state';
import type { KeyedFacts, KindSpec } from './spec';
import { playgroundKey } from '../address';
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
  events: ['realm_playgrounds'],
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
