import { channelNameKey } from '../../model/address';
import { KIND_SPECS } from '../../model/kinds';
import type { KeyedFacts, KindCollection, KindSpec, ResourceKind } from '../../model/kinds';
import type { LiveState } from '../../model/live-state';
import type { CreateChange } from '../plan-format';

/**
 * The ID of the object a create made, found by natural key in a fresh read, or undefined when
 * the create did not land. Used after a create whose outcome is unknown (a dropped connection,
 * a 5xx): Zulip creates are not idempotent, so apply never repeats one without this check.
 * `before` is the state read before writing: a snippet (titles are not unique) counts as
 * landed only if it is new.
 */
export function findCreated(
  change: CreateChange,
  live: LiveState,
  before: LiveState,
): number | undefined {
  const key = change.key;
  switch (change.kind) {
    case 'channelFolder':
      return live.channelFolders.find(
        (f) => !f.archived && channelNameKey(f.name) === channelNameKey(key),
      )?.id;
    case 'savedSnippet': {
      const old = new Set(before.savedSnippets.map((s) => s.id));
      return live.savedSnippets.find((s) => s.title === key && !old.has(s.id))?.id;
    }
    case 'customEmoji': {
      // An archived emoji keeps its name: only a new, active one of that name is the create.
      const old = new Set(before.customEmoji.map((e) => e.id));
      return live.customEmoji.find((e) => e.name === key && !e.deactivated && !old.has(e.id))?.id;
    }
    default:
      return findByKey(change.kind, key, live);
  }
}

/** The live object of a keyed kind with this natural key, as its spec compares and reads keys. */
function findByKey(kind: ResourceKind, key: string, live: LiveState): number | undefined {
  const spec: KindSpec = KIND_SPECS[kind];
  const facts = spec.keyed as KeyedFacts<never, { id: number }> | undefined;
  if (!facts) return undefined;
  const objects = live[spec.collection as KindCollection] as unknown as readonly { id: number }[];
  const wanted = spec.compareKey(key);
  return objects.find((l) => spec.compareKey(facts.liveKey(l)) === wanted)?.id;
}
