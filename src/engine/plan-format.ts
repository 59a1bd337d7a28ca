import { z } from 'zod';
import { MEMBERSHIP_MODES, RESOURCE_KINDS } from '../model/kinds';
import type { ChangeAction } from '../model/kinds';
import { DesiredStateSchema, GuardsSchema } from '../model/desired-state';
import { WireGroupSettingValueSchema } from '../model/live-state';

/**
 * The saved plan: plain JSON data, versioned. `zulip-cdk plan --out` writes it, `apply` reads
 * it back, the renderers turn it into text or Markdown. Values are in natural-key terms
 * (names, emails), never wire IDs, except where apply needs them: `liveId` (the live object
 * to write) and `old` (a group setting's wire value as read at plan time, sent as `{new, old}`).
 *
 * Format version 1:
 * - `changes` are in an order apply may execute them in (a topological order of `dependsOn`);
 *   `dependsOn` names the `id`s of changes that must land first, so apply may also batch or
 *   parallelise independent changes.
 * - `fingerprints` hold, for every live object the plan touches, a SHA-256 of the normalised
 *   live object (`<address>`) and of its membership (`<address>#membership`), so apply can
 *   tell what changed since review.
 * - `desired` is the desired state the plan was made from and `liveDigest` a SHA-256 of the live
 *   organization as read: apply plans again from `desired` against the organization as it is
 *   then, and refuses a plan whose changes do not follow from them (`PLAN_TAMPERED`).
 * - `digest` is the plan's review digest ({@link planDigest}): what a reviewer pins apply to.
 */
export const PLAN_FORMAT_VERSION = 1;

/** JSON values, as they appear in `before`, `after` and `properties`. */
export const JsonValueSchema = z.json();
export type JsonValue = z.infer<typeof JsonValueSchema>;

export { CHANGE_ACTIONS } from '../model/kinds';
export type { ChangeAction } from '../model/kinds';

/** Actions that remove an object from use (counted against `maxRemovals`). */
export const REMOVAL_ACTIONS = ['archive', 'deactivate', 'delete'] as const;

/**
 * Machine-readable tags of a change, so a pipeline can branch on what a plan needs or does
 * without parsing the text. Computed by `changeTags` (src/engine/change-tags.ts) from the change
 * and the plan's server when the plan is made; documented there in detail, with the Zulip
 * functions each follows.
 * - `destructive`: apply refuses the change without `--allow-destroy` (archive, deactivate,
 *   delete, unsubscribing people, removing group members or subgroups, demoting a user). The
 *   same function decides both, so the tag and apply's refusal never disagree.
 * - `irreversible`: no Zulip API call undoes it: deleting a linkifier, playground or saved snippet
 *   (there is no undelete; it can only be created again as a new object), a message retention of
 *   an existing channel that may be shorter than before (Zulip deletes the older messages; to or
 *   from `realm_default` counts, the plan not knowing the organization's period), archiving a
 *   channel or deactivating a group on a server that cannot unarchive or reactivate them. Not
 *   irreversible: replacing a playground, making history protected, role changes, renames.
 * - `archive-only`: a removal that Zulip can undo (archiving a channel or folder, deactivating a
 *   group): the object, its messages and members are kept and it can be restored.
 * - `notifies-users`: Notification Bot sends direct messages to users (people subscribed to an
 *   existing channel by someone else, members added to or removed from an existing group).
 * - `posts-message`: Notification Bot posts a message into a channel (a notice in the channel's
 *   "channel events" topic about its creation, rename, description, access, posting permission,
 *   retention, topics policy, archiving or unarchiving; the announcement of a new channel).
 */
export const CHANGE_TAGS = [
  'destructive',
  'irreversible',
  'archive-only',
  'notifies-users',
  'posts-message',
] as const;
export const ChangeTagSchema = z.enum(CHANGE_TAGS);
export type ChangeTag = (typeof CHANGE_TAGS)[number];

/**
 * Where a difference comes from, in a plan made with `--base` (the desired state of the base
 * branch): `change`, the pull request changes it (the base branch's configuration says
 * otherwise); `drift`, the base branch's configuration says the same, so the organization was
 * changed by hand and applying reverts it. Absent without `--base`.
 */
export const ORIGINS = ['change', 'drift'] as const;
export const OriginSchema = z
  .enum(ORIGINS)
  .describe(
    "With `plan --base`: `change` when this pull request makes the difference (the base branch's configuration says otherwise), `drift` when the base branch's configuration says the same, so the organization was changed by hand and applying reverts it.",
  );
export type Origin = (typeof ORIGINS)[number];

const common = {
  /** Unique within the plan: `<address>#<action>`. */
  id: z.string(),
  kind: z.enum(RESOURCE_KINDS),
  /** `kind["natural key"]`, see `resourceAddress`. */
  address: z.string(),
  /** The natural key (after the change, for renames). */
  key: z.string(),
  /** The construct path that declared the object; null for undeclared live objects. */
  path: z.string().nullable(),
  /** Ids of changes that must be applied first. */
  dependsOn: z.array(z.string()),
  /**
   * What the change needs or does, in {@link CHANGE_TAGS} order (empty when nothing of note).
   * Required: format version 1 plans made before tags existed do not parse; make them again.
   */
  tags: z.array(ChangeTagSchema),
  origin: z
    .enum([...ORIGINS, 'mixed'])
    .optional()
    .describe(
      "With `plan --base`: `change` (this pull request makes it), `drift` (it reverts a change made by hand in Zulip; the base branch's configuration says the same) or `mixed` (an update or membership change with some of each: see the `origin` of each property, member or subgroup). Absent without `--base`. Not part of the plan's digest.",
    ),
};

/** One property of an update: before (as read, in natural-key terms) and after. */
export const PropertyChangeSchema = z.strictObject({
  /** The desired-state property, e.g. `description` or `permissions.canSendMessageGroup`. */
  property: z.string(),
  /** null when the object has no value yet (subscription settings of a new subscription). */
  before: JsonValueSchema,
  after: JsonValueSchema,
  /** The Zulip parameter name for group settings, e.g. `can_send_message_group`. */
  wire: z.string().optional(),
  /** The group setting's wire value as read at plan time: send `{new, old}` with it. */
  old: WireGroupSettingValueSchema.optional(),
  origin: OriginSchema.optional(),
});
export type PropertyChange = z.infer<typeof PropertyChangeSchema>;

export const CreateChangeSchema = z.strictObject({
  action: z.literal('create'),
  ...common,
  /**
   * Every property of the new object, defaults filled in, in natural-key terms. Group
   * settings whose Zulip default is the creator hold `{users: [applying account]}`.
   */
  properties: z.record(z.string(), JsonValueSchema),
});

export const UpdateChangeSchema = z.strictObject({
  action: z.literal('update'),
  ...common,
  /**
   * The live object's ID; for `subscriptionSettings`, the channel's ID. null when the object
   * is created by this plan (subscription settings on a new channel).
   */
  liveId: z.number().int().nullable(),
  properties: z.array(PropertyChangeSchema),
});

export const RenameChangeSchema = z.strictObject({
  action: z.literal('rename'),
  ...common,
  liveId: z.number().int(),
  from: z.string(),
  to: z.string(),
});

/** Archive (channels, folders), deactivate (groups), delete (linkifiers, playgrounds, snippets). */
export const RemoveChangeSchema = z.strictObject({
  action: z.enum(['archive', 'deactivate', 'delete']),
  ...common,
  liveId: z.number().int(),
  /** `prune`: undeclared and pruning is on; `declared`: the config says archived/deactivated. */
  reason: z.enum(['prune', 'declared']),
  /** The object as read, in natural-key terms (for the reviewer). */
  before: z.record(z.string(), JsonValueSchema),
});

/** Unarchive (channels, folders) or reactivate (groups). */
export const RestoreChangeSchema = z.strictObject({
  action: z.enum(['unarchive', 'reactivate']),
  ...common,
  liveId: z.number().int(),
});

/** Zulip cannot update this object in place (playgrounds): delete, then create. */
export const ReplaceChangeSchema = z.strictObject({
  action: z.literal('replace'),
  ...common,
  liveId: z.number().int(),
  before: z.record(z.string(), JsonValueSchema),
  after: z.record(z.string(), JsonValueSchema),
});

export const ReorderChangeSchema = z.strictObject({
  action: z.literal('reorder'),
  ...common,
  kind: z.enum(['linkifier', 'channelFolder', 'customProfileField']),
  /** Live order before, by natural key. */
  before: z.array(z.string()),
  /**
   * The full order to send: every object of the kind that exists after the plan (archived
   * folders included). Undeclared objects (and those whose `order` is in `ignoreChanges`) keep
   * their slot; declared ones fill the other slots in declaration order, new ones counted from
   * the end, where Zulip appends them. `id` is null for objects this plan creates: apply fills
   * it in.
   */
  after: z.array(z.strictObject({ key: z.string(), id: z.number().int().nullable() })),
});

const MemberUserSchema = z.strictObject({
  email: z.string(),
  id: z.number().int(),
  origin: OriginSchema.optional(),
});
const MemberGroupSchema = z.strictObject({
  name: z.string(),
  id: z.number().int().nullable(),
  origin: OriginSchema.optional(),
});

/** Channel subscribers (users only, groups expanded) or a group's direct members and subgroups. */
export const MembershipChangeSchema = z.strictObject({
  action: z.literal('membership'),
  ...common,
  kind: z.enum(['channel', 'userGroup']),
  /** null when the object is created by this plan. */
  liveId: z.number().int().nullable(),
  collection: z.enum(['subscribers', 'members']),
  mode: z.enum(MEMBERSHIP_MODES),
  add: z.array(MemberUserSchema),
  remove: z.array(MemberUserSchema),
  addSubgroups: z.array(MemberGroupSchema),
  removeSubgroups: z.array(MemberGroupSchema),
  /**
   * Channels: whether Zulip messages new subscribers (Notification Bot DMs), which is what apply
   * sends as `send_new_subscription_messages` from feature level 397. Below 397 Zulip always
   * messages users added to an existing channel, so it is true there; from 397 it is the
   * channel's `announce`. Always false for a channel this plan creates: Zulip never messages
   * the subscribers a channel is created with. Group memberships: whether Zulip messages the
   * members added or removed ("X added you to the group Y", `notify_for_user_group_subscription_changes`),
   * which it does for an existing group to all but the applying account and bots.
   */
  notify: z.boolean(),
  /**
   * When `notify` is true: who gets the message (not the applying account, not bots). Channels:
   * the new subscribers (from feature level 397 Zulip sends none when one request subscribes
   * more than `max_bulk_new_subscription_messages` users). Groups: the members added and removed.
   */
  messaged: z.array(z.string()).optional(),
});

export const ChangeSchema = z.discriminatedUnion('action', [
  CreateChangeSchema,
  UpdateChangeSchema,
  RenameChangeSchema,
  RemoveChangeSchema,
  RestoreChangeSchema,
  ReplaceChangeSchema,
  ReorderChangeSchema,
  MembershipChangeSchema,
]);
/** One change of a plan: what apply will do to one object. */
export type Change = z.infer<typeof ChangeSchema>;
export type CreateChange = z.infer<typeof CreateChangeSchema>;
export type UpdateChange = z.infer<typeof UpdateChangeSchema>;
export type RenameChange = z.infer<typeof RenameChangeSchema>;
export type RemoveChange = z.infer<typeof RemoveChangeSchema>;
export type RestoreChange = z.infer<typeof RestoreChangeSchema>;
export type ReplaceChange = z.infer<typeof ReplaceChangeSchema>;
export type ReorderChange = z.infer<typeof ReorderChangeSchema>;
export type MembershipChange = z.infer<typeof MembershipChangeSchema>;

/** A change as the planner builds it, before the finishing step tags it. */
export type UntaggedChange = Change extends infer C
  ? C extends Change
    ? Omit<C, 'tags'>
    : never
  : never;

export const WARNING_CODES = [
  'UNDECLARED',
  'DEACTIVATED_USER',
  'DUPLICATE_SNIPPET',
  'SUBSCRIBERS_NOT_VISIBLE',
  'NOT_SUBSCRIBED',
  'REORDER_UNSUPPORTED',
  'CREATOR_UNKNOWN',
  'ARCHIVED_NOT_FOUND',
  'DEPENDENCY_CYCLE',
  'FOLDER_NOT_EMPTY',
  'NO_CONTENT_ACCESS',
  'NOTHING_ANNOUNCED',
  'BASE_NOT_PLANNED',
  'NOT_WRITABLE',
  'EMOJI_IMAGE_UNKNOWN',
  'DOMAIN_RESTRICTION_OFF',
  'NO_ALLOWED_DOMAIN',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

/**
 * Codes no longer given, still read in plans saved by an older zulip-cdk: `NEEDS_OWNER` (what
 * needs an organization owner is a plan error now).
 */
export const RETIRED_WARNING_CODES = ['NEEDS_OWNER'] as const;

/**
 * Warnings that stand for declared changes left out of the plan because Zulip would refuse
 * them: the organization does not match the configuration, though the plan has no change for
 * them.
 */
export const LEFT_OUT_WARNING_CODES: readonly string[] = ['NO_CONTENT_ACCESS', 'NOT_WRITABLE'];

export const WarningSchema = z.strictObject({
  code: z.enum([...WARNING_CODES, ...RETIRED_WARNING_CODES]),
  message: z.string(),
  address: z.string().optional(),
  path: z.string().optional(),
});
/** A warning of a plan (a change left out, something to know). */
export type PlanWarning = z.infer<typeof WarningSchema>;

/**
 * Findings block apply unless `--force`; `PRIVILEGED_CHANGE` (a change that gives someone an
 * administrator-level ability) needs `--allow-privileged` instead. The guards on the blast
 * radius (src/engine/guards.ts) make `TOO_MANY_MEMBERS_REMOVED`, `NO_OWNER`, `TOO_FEW_OWNERS`,
 * `TOO_FEW_ADMINISTRATORS` and `PRIVILEGED_CHANGE`.
 */
export const FINDING_CODES = [
  'PROTECTED',
  'TOO_MANY_REMOVALS',
  'SELF_ADMIN_LOSS',
  'SELF_CHANNEL_ACCESS_LOSS',
  'NO_OWNER',
  'ADMIN_REMOVED',
  'TOO_MANY_MEMBERS_REMOVED',
  'TOO_FEW_OWNERS',
  'TOO_FEW_ADMINISTRATORS',
  'PRIVILEGED_CHANGE',
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];

export const FindingSchema = z.strictObject({
  code: z.enum(FINDING_CODES),
  message: z.string(),
  address: z.string().optional(),
  path: z
    .string()
    .optional()
    .describe('The construct path of the object the finding is about, when it is declared.'),
});
/** A safety finding of a plan: apply refuses it without `--force`. */
export type SafetyFinding = z.infer<typeof FindingSchema>;

/** A run's overrides of the organization's guards (`plan`/`apply` flags). */
export const GuardOverridesSchema = GuardsSchema.extend({
  /** `--max-removals`: overrides `organization.maxRemovals`. */
  maxRemovals: z.number().int().nonnegative().optional(),
});

/**
 * A difference between the organization and the configuration that the plan leaves alone, in a
 * plan made with `--base`: a property (or membership) in `ignoreChanges`, or an object the
 * configuration does not declare (pruning off).
 */
export const IgnoredDriftSchema = z
  .strictObject({
    reason: z
      .enum(['ignoreChanges', 'undeclared'])
      .describe(
        '`ignoreChanges`: the configuration ignores this property; `undeclared`: the object is not in the configuration and pruning is off for its kind.',
      ),
    kind: z.enum(RESOURCE_KINDS),
    address: z.string(),
    /** The construct path; null for undeclared objects. */
    path: z.string().nullable(),
    property: z
      .string()
      .optional()
      .describe(
        'The property left as it is (`members` or `subscribers` for a membership); absent for an undeclared object or an ignored whole change.',
      ),
    before: JsonValueSchema.optional().describe('The value in the organization.'),
    after: JsonValueSchema.optional().describe('The value the configuration would set.'),
    add: z
      .array(z.string())
      .optional()
      .describe('For a membership: who (emails, groups by name) the configuration would add.'),
    remove: z
      .array(z.string())
      .optional()
      .describe('For a membership: who the configuration would remove.'),
    message: z.string().describe('What is left alone, in a sentence.'),
  })
  .describe('Drift that the plan leaves alone (with `--base`).');
export type IgnoredDrift = z.infer<typeof IgnoredDriftSchema>;

/**
 * The count a plan's summary puts each action in: restores (unarchive, reactivate) and removals
 * (archive, deactivate, delete) are counted together.
 */
export const SUMMARY_COUNT_OF = {
  create: 'create',
  update: 'update',
  rename: 'rename',
  unarchive: 'restore',
  reactivate: 'restore',
  archive: 'remove',
  deactivate: 'remove',
  delete: 'remove',
  replace: 'replace',
  reorder: 'reorder',
  membership: 'membership',
} as const satisfies Record<ChangeAction, string>;
/** The counts of a plan's summary, in the order the plan writes them; then `total`. */
export const SUMMARY_COUNTS = [
  'create',
  'update',
  'rename',
  'restore',
  'remove',
  'replace',
  'reorder',
  'membership',
] as const satisfies readonly (typeof SUMMARY_COUNT_OF)[ChangeAction][];
type SummaryCount = (typeof SUMMARY_COUNTS)[number] | 'total';

export const PlanSummarySchema = z.strictObject(
  Object.fromEntries(
    [...SUMMARY_COUNTS, 'total'].map((count) => [count, z.number().int()]),
  ) as Record<SummaryCount, z.ZodNumber>,
);
/** The counts of a plan, by action. */
export type PlanSummary = z.infer<typeof PlanSummarySchema>;

const HoldersSchema = z
  .strictObject({
    count: z.number().int().describe('How many users.'),
    users: z
      .array(z.string())
      .describe('The first of them by e-mail (at most 20); `count` says how many there are.'),
  })
  .describe('A set of users, counted, with the first ones named.');

/** One permission whose holders the plan changes (see src/engine/effective-permissions.ts). */
export const PermissionEffectSchema = z
  .strictObject({
    address: z.string().describe('The object the permission is on, e.g. `channel["engineering"]`.'),
    path: z
      .string()
      .nullable()
      .describe('The construct path that declared the object; null when it is not declared.'),
    permission: z
      .string()
      .describe('The desired-state property, e.g. `permissions.canAdministerChannelGroup`.'),
    wire: z.string().describe("Zulip's setting name, e.g. `can_administer_channel_group`."),
    ability: z.string().describe('What holding it lets someone do, e.g. `administer the channel`.'),
    changes: z
      .array(z.string())
      .describe(
        'Ids of the changes that make the difference: the setting itself, a membership change of a group it names (directly or through nesting), a role change, a create.',
      ),
    before: z
      .number()
      .int()
      .nullable()
      .describe('How many users hold it now; null when the plan creates the object.'),
    after: z.number().int().describe('How many users hold it after the plan.'),
    gained: HoldersSchema.describe('Users who hold it after the plan and not now.'),
    lost: HoldersSchema.describe('Users who hold it now and not after the plan.'),
    notCounted: z
      .array(z.string())
      .optional()
      .describe(
        "Organization settings (wire names) that also let people through and that the plan could not count, the organization's settings not being read.",
      ),
  })
  .describe(
    "Who holds one permission before and after the plan: the recursive members of the setting's groups (nested groups and role groups expanded, deactivated users left out, guests left out where Zulip refuses them), plus whoever Zulip always lets through (organization administrators for channel administration, channel administrators for unsubscribing, ...).",
  );
export type PermissionEffect = z.infer<typeof PermissionEffectSchema>;

const AbilitySchema = z.strictObject({ address: z.string(), permission: z.string() });

/** What one user gains and loses. */
export const UserAbilitiesSchema = z
  .strictObject({
    email: z.string(),
    gains: z.array(AbilitySchema).describe('Permissions the user gains (at most 20).'),
    gainsCount: z.number().int(),
    loses: z.array(AbilitySchema).describe('Permissions the user loses (at most 20).'),
    losesCount: z.number().int(),
  })
  .describe('The abilities one user gains and loses through the plan, by permission.');
export type UserAbilities = z.infer<typeof UserAbilitiesSchema>;

export const PlanPermissionsSchema = z
  .strictObject({
    effects: z.array(PermissionEffectSchema).describe('By address, then permission.'),
    users: z
      .array(UserAbilitiesSchema)
      .describe('Affected users by e-mail, at most 50; `usersCount` says how many there are.'),
    usersCount: z.number().int().describe('How many users gain or lose any permission.'),
  })
  .describe(
    'Effective permissions: for each permission the plan touches, who gains it and who loses it. Derived from the changes and the live organization; covered by `digest`.',
  );
export type PlanPermissions = z.infer<typeof PlanPermissionsSchema>;

/** The zod schema of a saved plan (format version {@link PLAN_FORMAT_VERSION}); see the top of this file. */
export const PlanSchema = z.strictObject({
  formatVersion: z.literal(PLAN_FORMAT_VERSION),
  /** ISO time; only when the caller asks for it, so plans stay deterministic in tests. */
  createdAt: z.string().optional(),
  /**
   * SHA-256 (hex) of what a reviewer reviews: the changes, summary and safety findings, the
   * desired state's digest, the site, the account and the targets (see `planDigest`). Not the
   * fingerprints or `liveDigest`, which any activity in the organization changes. Shown in the
   * pull-request comment; `apply --expect-digest` refuses any other plan.
   */
  digest: z.string(),
  /** SHA-256 (hex) of the canonical JSON of the desired state the plan was made from. */
  desiredDigest: z.string(),
  /** SHA-256 (hex) of the live organization as read (see `liveStateDigest`). */
  liveDigest: z.string(),
  server: z.strictObject({
    site: z.string(),
    featureLevel: z.number().int(),
    version: z.string(),
    /** Whether Zulip posts notices into channels about their changes (`send_channel_events_messages`). */
    channelEventsMessages: z.boolean().optional(),
    /**
     * When the organization was read (the server's time), ISO: what the effective permissions
     * judge Zulip's waiting period for full members by. Apply plans again with it.
     */
    readAt: z.string().optional(),
  }),
  /** The account the live state was read with; apply must run as the same account. */
  account: z.strictObject({ userId: z.number().int(), email: z.string() }),
  /** The `--target` addresses the plan was limited to, if any. */
  targets: z.array(z.string()).optional(),
  guards: GuardOverridesSchema.optional().describe(
    "The guards this run set with flags (`--max-members-removed`, `--allow-privileged`...), over the organization's `guards`; apply checks the plan with them too. Absent when no flag was given.",
  ),
  summary: PlanSummarySchema,
  changes: z.array(ChangeSchema),
  warnings: z.array(WarningSchema),
  findings: z.array(FindingSchema),
  /**
   * Who gains and who loses each permission the plan touches; absent when it touches none (and
   * in plans saved before it existed, which still parse).
   */
  permissions: PlanPermissionsSchema.optional(),
  /** Address (or `<address>#membership`) → SHA-256 of the normalised live object. */
  fingerprints: z.record(z.string(), z.string()),
  /** The desired state the plan was made from (its digest is `desiredDigest`). */
  desired: DesiredStateSchema,
  base: DesiredStateSchema.optional().describe(
    "With `plan --base`: the desired state of the base branch, which each change's `origin` was found against (apply plans again with it). Not part of the plan's digest, so a plan made with and without `--base` from the same configuration has the same digest.",
  ),
  ignoredDrift: z
    .array(IgnoredDriftSchema)
    .optional()
    .describe(
      'With `plan --base`: differences the plan leaves alone (`ignoreChanges`, undeclared objects). Not part of the digest.',
    ),
});
/** A plan, as `zulip-cdk plan --out` saves it and `apply` reads it. */
export type Plan = z.infer<typeof PlanSchema>;

/**
 * The JSON Schema (draft 2020-12) of the saved-plan format, generated from {@link PlanSchema}
 * so the two never drift apart. CI tools can validate `plan.json` with it.
 */
export function planJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(PlanSchema, { target: 'draft-2020-12' }),
    title: `zulip-cdk plan, format version ${PLAN_FORMAT_VERSION}`,
  };
}
