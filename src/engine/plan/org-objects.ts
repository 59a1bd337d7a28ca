/**
 * Linkifiers and saved snippets: organization objects keyed by one string, planned by the
 * generic keyed planner from their specs' facts (`src/model/kinds/`) and what is here: Zulip
 * strips patterns, and several snippets may share a title. Code playgrounds need nothing more
 * than their spec: they have no entry (`planOf` in `./kinds.ts`).
 */
import { resourceAddress } from '../../model/address';
import type { DesiredLinkifier, DesiredSavedSnippet } from '../../model/desired-state';
import type { LiveLinkifier, LiveSavedSnippet } from '../../model/live-state';
import type { KeyedPlan } from './keyed';
import { trimRenames } from './keyed';

export const linkifiers: KeyedPlan<DesiredLinkifier, LiveLinkifier> = {
  kind: 'linkifier',
  // Zulip strips patterns: a `renamedFrom` pattern names what Zulip stored.
  declared: (p) => trimRenames(p.desired.linkifiers),
  // Zulip appends new linkifiers; the order after creates and deletes is live order + created.
  live: (p) => p.live.linkifiers,
};

export const savedSnippets: KeyedPlan<DesiredSavedSnippet, LiveSavedSnippet> = {
  kind: 'savedSnippet',
  declared: (p) => p.desired.savedSnippets,
  live: (p) => [...p.live.savedSnippets].sort((a, b) => a.id - b.id),
  // Several live snippets may share a title: the oldest is the one managed.
  index: (p, live) => {
    const byTitle = new Map<string, LiveSavedSnippet>();
    for (const l of live) {
      const first = byTitle.get(l.title);
      if (!first) byTitle.set(l.title, l);
      else
        p.warn(
          'DUPLICATE_SNIPPET',
          `several live snippets have this title; the oldest (id ${first.id}) is the one managed`,
          resourceAddress('savedSnippet', l.title),
        );
    }
    return byTitle;
  },
  // Duplicates get their id in the key so each has its own address.
  undeclaredKey: (p, l) =>
    p.live.savedSnippets.some((s) => s.title === l.title && s.id < l.id)
      ? `${l.title}#${l.id}`
      : l.title,
};
