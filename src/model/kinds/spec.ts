/** What a plan's change does to its object (`action` of a change in the saved plan). */
export const CHANGE_ACTIONS = [
  'create',
  'update',
  'rename',
  'unarchive',
  'reactivate',
  'archive',
  'deactivate',
  'delete',
  'replace',
  'reorder',
  'membership',
] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** The removal an undeclared live object of a prunable kind gets when pruning is on. */
export type RemovalAction = 'archive' | 'deactivate' | 'delete';

/**
 * The plain facts about one resource kind, read by the constructs, the planner, the renderers,
 * the importer and the CLI. One file per kind in this folder; `index.ts` gathers them in
 * `KIND_SPECS`. A fact that only one kind has (a folder's emptiness, a channel's subscribers)
 * is not here: it stays with the code that handles that kind.
 */
export interface KindSpec {
  /** The desired state's array of this kind; also the importer's and the CLI's name for it. */
  readonly collection: string;
  /** Heading of the kind's section in a rendered plan (`Channel folders`). */
  readonly title: string;
  /** The kind in a count the CLI prints (`1 channel folder`, `2 channel folders`). */
  readonly nouns: readonly [singular: string, plural: string];
  /** Place in the counts the CLI prints (synth, import) and in `import --include`. */
  readonly listOrder: number;
  /**
   * The planner's finishing order among changes that are ready at once: kinds other objects
   * refer to (folders, groups) first. See `rank` in `src/engine/plan-finish.ts`.
   */
  readonly rank: number;
  /** The natural key as Zulip compares it: equal results are the same object. */
  readonly compareKey: (key: string) => string;
  /**
   * What pruning does to an undeclared live object: Zulip archives channels and folders,
   * deactivates groups, deletes linkifiers, playgrounds and snippets; `none` when the kind is
   * never pruned (users are not created or removed, subscription settings follow channels).
   */
  readonly removal: RemovalAction | 'none';
  /** True when the declaration order is Zulip's order (folders, linkifiers); else sorted. */
  readonly ordered: boolean;
  /**
   * The property names `lifecycle.ignoreChanges` accepts: the desired object's property names,
   * except that permission settings are named one by one (`canSendMessageGroup`, not
   * `permissions`). An ignored property is still used when the object is created; afterwards
   * the planner leaves it as it is live.
   */
  readonly ignorable: readonly string[];
  /**
   * The changes the planner makes for this kind. The provider's handler table
   * (`src/provider/write-target.ts`) is typed against it: an action listed here without a
   * handler is a compile error, and apply refuses any other action (`PLAN_INVALID`).
   */
  readonly actions: readonly ChangeAction[];
}

/** Exact comparison: keys that differ only in case are different objects. */
export function exactKey(key: string): string {
  return key;
}
