import path from 'node:path';
import type { DesiredState } from '../model/desired-state';
import { KIND_SPECS, LISTED_KINDS, RESOURCE_KINDS } from '../model/kinds';
import type { KindCollection } from '../model/kinds';
import { countOf as count } from '../engine/words';

/** `1 channel`, `2 channels`; `many` for irregular plurals (the engine's `countOf`). */
export { count };

/**
 * `10 channels, 1 channel folder, ...`: the non-zero counts, by collection name, in the order
 * and with the nouns of the kind registry (`src/model/kinds/`).
 */
export function resourceCounts(counts: Partial<Record<KindCollection, number>>): string {
  return LISTED_KINDS.map((k) => KIND_SPECS[k])
    .filter((spec) => (counts[spec.collection] ?? 0) > 0)
    .map((spec) => count(counts[spec.collection] ?? 0, spec.nouns[0], spec.nouns[1]))
    .join(', ');
}

/** A path as the user should see it: relative to `cwd` when inside it, absolute otherwise. */
export function shownPath(cwd: string, file: string): string {
  const rel = path.relative(cwd, path.resolve(cwd, file));
  if (rel === '') return '.';
  return rel.startsWith('..') || path.isAbsolute(rel) ? path.resolve(cwd, file) : rel;
}

/** What a desired state declares, counted per kind: `12 channels, 3 user groups`. */
export function desiredCounts(desired: DesiredState): string {
  return resourceCounts(
    Object.fromEntries(
      RESOURCE_KINDS.map((k) => [
        KIND_SPECS[k].collection,
        desired[KIND_SPECS[k].collection].length,
      ]),
    ),
  );
}
