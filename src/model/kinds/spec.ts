import type { z } from 'zod';

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
  /**
   * The class name of the kind's construct (`SavedSnippet`): what `zulip-cdk import` declares an
   * object of the kind with.
   */
  readonly construct: string;
  /**
   * The schema of {@link collection} in the desired state (the array of the kind's declared
   * objects, with the order synth writes it in): `DesiredStateSchema` is built from these.
   */
  readonly desiredSchema: z.ZodType;
  /** The schema of {@link collection} in the live state: `LiveStateSchema` is built from these. */
  readonly liveSchema: z.ZodType;
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
  /**
   * For a kind with a {@link removal}: its option in `Organization`'s `prune`, named by the kind,
   * with the TSDoc users read (`PruneOptions` is built from these), valued at its default.
   */
  readonly prune?: Readonly<Record<string, false>>;
  /** True when the declaration order is Zulip's order (folders, linkifiers); else sorted. */
  readonly ordered: boolean;
  /**
   * What synth sorts the desired collection by (compared as strings, in this order), for a kind
   * that is not {@link ordered}; absent: declaration order.
   */
  readonly sortedBy?: (d: never) => readonly string[];
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
  /**
   * The Zulip event types that announce a change to this kind (zerver/lib/event_types.py; the
   * `type` of the events Zulip's actions send: zerver/actions/streams.py `do_change_stream_*`
   * send `stream` `update`, zerver/actions/user_groups.py `user_group`, realm_linkifiers.py
   * `realm_linkifiers`, and so on): what `zulip-cdk watch` registers for. A kind whose settings
   * name groups also listens to `user_group` (a group renamed or deactivated by hand changes
   * what a setting means).
   */
  readonly events: readonly string[];
  /**
   * For a kind with a natural key, what the generic keyed planner needs of it (see
   * {@link KeyedFacts}); absent for the kinds planned by a phase of their own (users,
   * organization settings, subscription settings).
   */
  readonly keyed?: KeyedFacts<never, never>;
}

/** Exact comparison: keys that differ only in case are different objects. */
export function exactKey(key: string): string {
  return key;
}

/** A value as a plan shows it: JSON. */
export type PlanValue =
  | string
  | number
  | boolean
  | null
  | readonly PlanValue[]
  | { readonly [property: string]: PlanValue };
/** An object's properties as a plan shows them. */
export type PlanObject = Record<string, PlanValue>;

/**
 * What the generic keyed planner (`src/engine/plan/keyed.ts`) needs to know of a kind whose
 * objects have a natural key: how to key, view and compare a declared object (`D`, from the
 * desired state) and a live one (`L`, from the live state). Both views are in desired-state
 * terms, so that the planner diffs them property by property.
 */
export interface KeyedFacts<D, L> {
  /** The natural key of a declared object, as Zulip stores it (trimmed where Zulip trims). */
  readonly key: (d: D) => string;
  /** The natural key of a live object. */
  readonly liveKey: (l: L) => string;
  /** The property that holds the key (a rename changes it; it is not diffed after a rename). */
  readonly keyProperty: string;
  /**
   * The declared object with Zulip's defaults filled in, as the plan shows it and an update
   * sends it (`fl`: the server's feature level, for properties newer servers have).
   */
  readonly desired: (d: D, fl: number) => PlanObject;
  /** What a create sends, when it is not {@link desired} (a property Zulip strips on create). */
  readonly created?: (d: D, fl: number) => PlanObject;
  /** The live object in the terms of {@link desired}. */
  readonly live: (l: L) => PlanObject;
  /** What a removal (archive, deactivate, delete) shows as `before`; default {@link live}. */
  readonly removed?: (l: L) => PlanObject;
  /**
   * The properties an `update` changes in place, diffed in this order. A property missing from
   * either view is not compared (a setting the server does not report).
   */
  readonly updatable: readonly string[];
  /** The properties Zulip cannot change in place: a difference is a `replace` (delete, create). */
  readonly replaces: readonly string[];
  /** A replace for a reason {@link replaces} does not show (a change Zulip refuses in place). */
  readonly replacedWhen?: (d: D, l: L) => boolean;
  /** The properties of {@link updatable} Zulip keeps as they are on this live object: not diffed. */
  readonly fixed?: (l: L) => readonly string[];
  /** The declared flag that removes a live object and restores it (`archived`, `deactivated`). */
  readonly removedFlag?: 'archived' | 'deactivated';
  /** False when `renamedFrom` is not followed (the kind has no rename: a new key is a new object). */
  readonly followsRenames: boolean;
  /**
   * How `zulip-cdk import` names a live object's construct when the kind has no importer of its
   * own: the words of `from` (default: the value of {@link keyProperty} in {@link live}), in
   * kebab case, then `suffix` (`Welcome` → `welcome-snippet`); `word` (default: the kind, in
   * kebab case) when they have no letter or digit. `word` also names the kind in what the
   * import says it left out.
   */
  readonly constructId?: {
    readonly from?: (l: L) => string;
    readonly word?: string;
    readonly suffix?: string;
  };
}

/** The key facts of a kind keyed by its `name`, declared and live. */
export const BY_NAME = {
  key: (d: { readonly name: string }): string => d.name,
  keyProperty: 'name',
  liveKey: (l: { readonly name: string }): string => l.name,
} as const;

/**
 * The keyed facts of a kind Zulip names and describes (channel folders, user groups, default
 * channel groups): keyed by its name, seen live as its name and description, both changed in
 * place.
 */
export const NAMED_AND_DESCRIBED = {
  ...BY_NAME,
  live: (l: { readonly name: string; readonly description: string }): PlanObject => ({
    name: l.name,
    description: l.description,
  }),
  updatable: ['name', 'description'],
} as const;
