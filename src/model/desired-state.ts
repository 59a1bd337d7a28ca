import { z } from 'zod';
import { PRUNABLE_KINDS, RESOURCE_KINDS, KIND_SPECS, kindCollectionSchemas } from './kinds';

/**
 * The desired state: what synth writes and plan reads. Plain JSON, keyed by natural keys
 * (names, emails, patterns), never by Zulip IDs.
 *
 * A property that is absent was not declared: the planner holds it at Zulip's default
 * (for the server's feature level, and `{creator}` where Zulip's default is the creator).
 * Collections that are absent (a channel's `subscribers`) are not managed at all.
 *
 * Each kind's schemas are in its spec file (`src/model/kinds/<kind>.ts`, `desiredSchema`), with
 * the order synth writes its collection in; they are re-exported here.
 */

export const DESIRED_STATE_FORMAT_VERSION = 1;

export {
  GroupSettingValueSchema,
  LifecycleSchema,
  MembershipSchema,
  type GroupSettingValue,
  type Lifecycle,
  type Membership,
} from './kinds/schemas';
export { ChannelFolderSchema, type DesiredChannelFolder } from './kinds/channel-folder';
export { UserGroupSchema, type DesiredUserGroup } from './kinds/user-group';
export {
  ChannelSchema,
  RetentionSchema,
  type DesiredChannel,
  type Retention,
} from './kinds/channel';
export { LinkifierSchema, type DesiredLinkifier } from './kinds/linkifier';
export { PlaygroundSchema, type DesiredPlayground } from './kinds/playground';
export { SavedSnippetSchema, type DesiredSavedSnippet } from './kinds/saved-snippet';
export {
  CustomEmojiSchema,
  EmojiImageSchema,
  type DesiredCustomEmoji,
  type EmojiImage,
} from './kinds/custom-emoji';
export { UserSchema, type DesiredUser } from './kinds/user';
export {
  SubscriptionSettingsSchema,
  subscriptionPropertyNames,
  type DesiredSubscriptionSettings,
} from './kinds/subscription-settings';
export {
  OrganizationSettingsSchema,
  type DesiredOrganizationSettings,
} from './kinds/organization-settings';
export {
  DefaultUserSettingsSchema,
  type DesiredDefaultUserSettings,
} from './kinds/default-user-settings';
export {
  DefaultChannelGroupSchema,
  type DesiredDefaultChannelGroup,
} from './kinds/default-channel-group';
export {
  CustomProfileFieldSchema,
  type DesiredCustomProfileField,
} from './kinds/custom-profile-field';
export { AllowedDomainSchema, type DesiredAllowedDomain } from './kinds/allowed-domain';

export const PruneSchema = z.strictObject(
  Object.fromEntries(PRUNABLE_KINDS.map((k) => [k, z.boolean().optional()])) as Record<
    (typeof PRUNABLE_KINDS)[number],
    z.ZodOptional<z.ZodBoolean>
  >,
);
export type Prune = z.infer<typeof PruneSchema>;

/**
 * Guards on a plan's blast radius (`Organization` `guards`, overridable per run by `plan` and
 * `apply` flags). A plan that goes beyond one is a safety finding: apply refuses it (exit 4)
 * unless `--force` (or `--allow-privileged` for privileged changes). Every limit is optional;
 * the defaults are in `DEFAULT_GUARDS` (src/engine/guards.ts).
 */
export const GuardsSchema = z.strictObject({
  /** The most members (users and subgroups) or subscribers one change may remove from one group or channel. */
  maxMembersRemoved: z.number().int().nonnegative().optional(),
  /** The most, in percent of its members now, a change may remove from one group or channel (default 25). */
  maxMembersRemovedPercent: z.number().min(0).max(100).optional(),
  /** The percentage applies to groups and channels with at least this many members (default 4). */
  minMembersForPercent: z.number().int().nonnegative().optional(),
  /** The fewest owners (active people) a plan may leave the organization with (default 1). */
  minOwners: z.number().int().nonnegative().optional(),
  /** The fewest administrators, owners included, a plan may leave (default 1). */
  minAdministrators: z.number().int().nonnegative().optional(),
  /** A plan may not leave fewer administrators than this percentage of today's (default 50). */
  minAdministratorsPercent: z.number().min(0).max(100).optional(),
  /** Privileged changes (giving someone an administrator-level ability) need no `--allow-privileged` (default false). */
  allowPrivileged: z.boolean().optional(),
});
export type Guards = z.infer<typeof GuardsSchema>;

export const DesiredStateSchema = z.strictObject({
  formatVersion: z.literal(DESIRED_STATE_FORMAT_VERSION),
  organization: z.strictObject({
    /** The construct id of the organization, e.g. `acme`. */
    id: z.string(),
    path: z.string(),
    /** Per kind: remove undeclared live objects. Off by default. */
    prune: PruneSchema,
    /** Removals above this count are a safety finding (default 10). */
    maxRemovals: z.number().int().nonnegative().optional(),
    /** Guards on the blast radius of a plan; absent: the defaults. */
    guards: GuardsSchema.optional(),
  }),
  /** Every kind's collection (`desiredSchema` in its spec), in the order of `RESOURCE_KINDS`. */
  ...kindCollectionSchemas('desiredSchema'),
});
export type DesiredState = z.infer<typeof DesiredStateSchema>;

/** An empty desired state, for tests and as a starting point. */
export function emptyDesiredState(id = 'org'): DesiredState {
  return {
    formatVersion: DESIRED_STATE_FORMAT_VERSION,
    organization: { id, path: id, prune: {} },
    ...Object.fromEntries(RESOURCE_KINDS.map((k) => [KIND_SPECS[k].collection, []])),
  } as DesiredState;
}
