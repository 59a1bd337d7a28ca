/**
 * The resource kinds zulip-cdk manages and the registry of their facts, {@link KIND_SPECS}:
 * one file per kind in this folder. Adding a kind to {@link RESOURCE_KINDS} makes `tsc` point
 * here (the registry must have an entry for every kind) and at every table and switch
 * elsewhere that is typed over {@link ResourceKind}.
 */
import { allowedDomain } from './allowed-domain';
import { channel } from './channel';
import { channelFolder } from './channel-folder';
import { defaultChannelGroup } from './default-channel-group';
import { defaultUserSettings } from './default-user-settings';
import { customEmoji } from './custom-emoji';
import { customProfileField } from './custom-profile-field';
import { linkifier } from './linkifier';
import { organizationSettings } from './organization-settings';
import { playground } from './playground';
import { savedSnippet } from './saved-snippet';
import type { KindSpec } from './spec';
import { subscriptionSettings } from './subscription-settings';
import { user } from './user';
import { userGroup } from './user-group';

export * from './vocabulary';
export * from './spec';
export { creatorDefault } from './creator';
export * from './normalise';

/** The kinds of resource zulip-cdk manages, in the order a rendered plan shows them. */
export const RESOURCE_KINDS = [
  'channelFolder',
  'userGroup',
  'channel',
  'linkifier',
  'playground',
  'savedSnippet',
  'customEmoji',
  'user',
  'subscriptionSettings',
  'organizationSettings',
  'defaultUserSettings',
  'defaultChannelGroup',
  'customProfileField',
  'allowedDomain',
] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** Every kind's facts, by kind. */
export const KIND_SPECS = {
  channelFolder,
  userGroup,
  channel,
  linkifier,
  playground,
  savedSnippet,
  customEmoji,
  user,
  subscriptionSettings,
  organizationSettings,
  defaultUserSettings,
  defaultChannelGroup,
  customProfileField,
  allowedDomain,
} as const satisfies Record<ResourceKind, KindSpec>;

/** The name of a kind's array in the desired state (`channels`). */
export type KindCollection = (typeof KIND_SPECS)[ResourceKind]['collection'];

/** Each kind's collection with its schema in the desired (or live) state, by collection name. */
export type KindCollectionSchemas<S extends 'desiredSchema' | 'liveSchema'> = {
  [K in ResourceKind as (typeof KIND_SPECS)[K]['collection']]: (typeof KIND_SPECS)[K][S];
};

/**
 * The shape of every kind's collection in the desired (`desiredSchema`) or live (`liveSchema`)
 * state, in the order of {@link RESOURCE_KINDS}: what `DesiredStateSchema` and `LiveStateSchema`
 * are built from, so that a kind's spec is the one place its schemas are written.
 */
export function kindCollectionSchemas<S extends 'desiredSchema' | 'liveSchema'>(
  schema: S,
): KindCollectionSchemas<S> {
  return Object.fromEntries(
    RESOURCE_KINDS.map((k) => [KIND_SPECS[k].collection, KIND_SPECS[k][schema]]),
  ) as KindCollectionSchemas<S>;
}

/** The property names `ignoreChanges` accepts for kind `K`. */
export type IgnorableProperty<K extends ResourceKind> = (typeof KIND_SPECS)[K]['ignorable'][number];

/**
 * The kinds whose objects have a natural key: their spec has `keyed` facts. The generic keyed
 * planner plans them, and the importer has a default for them.
 */
export type KeyedKind = {
  [K in ResourceKind]: (typeof KIND_SPECS)[K] extends { keyed: object } ? K : never;
}[ResourceKind];

/** Kinds whose undeclared live objects can be removed (archived, deactivated or deleted) when pruning is on. */
export type PrunableKind = {
  [K in ResourceKind]: (typeof KIND_SPECS)[K]['removal'] extends 'none' ? never : K;
}[ResourceKind];

/** The name of kind `K`'s `prune` option in its spec (never for a kind that is not pruned). */
type PruneOptionOf<K extends ResourceKind> = (typeof KIND_SPECS)[K] extends {
  readonly prune: infer P;
}
  ? keyof P
  : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
/**
 * A compile error when a prunable kind's spec has no `prune` option, or one named otherwise
 * than the kind, or a kind that is never pruned has one.
 */
type _EveryPrunableKindHasItsPruneOption = Expect<
  { [K in ResourceKind]: Same<PruneOptionOf<K>, K extends PrunableKind ? K : never> }[ResourceKind]
>;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (
  i: infer I,
) => void
  ? I
  : never;
/** Every prunable kind's `prune` option as its spec declares and documents it. */
type PruneOptionDocs = UnionToIntersection<
  {
    [K in ResourceKind]: (typeof KIND_SPECS)[K] extends { readonly prune: infer P } ? P : never;
  }[ResourceKind]
>;

/**
 * The options of `Organization`'s `prune` (its `PruneOptions`): one per prunable kind, named by
 * the kind, documented in the kind's spec (`prune`). Off for every kind by default.
 */
export type KindPruneOptions = { readonly [K in keyof PruneOptionDocs]?: boolean };

function isPrunable(kind: ResourceKind): kind is PrunableKind {
  return KIND_SPECS[kind].removal !== 'none';
}

/** The prunable kinds, in the order of {@link RESOURCE_KINDS}. */
export const PRUNABLE_KINDS: readonly PrunableKind[] = RESOURCE_KINDS.filter(isPrunable);

/** The kinds in the order the CLI lists them (counts, `import --include`). */
export const LISTED_KINDS: readonly ResourceKind[] = [...RESOURCE_KINDS].sort(
  (a, b) => KIND_SPECS[a].listOrder - KIND_SPECS[b].listOrder,
);
