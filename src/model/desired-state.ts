import { z } from 'zod';
import {
  CHANNEL_PERMISSION_NAMES,
  GROUP_PERMISSION_NAMES,
  ORGANIZATION_PERMISSION_NAMES,
} from './permissions';
import type {
  ChannelPermissionName,
  GroupPermissionName,
  OrganizationPermissionName,
} from './permissions';
import { ORGANIZATION_PROPERTY_NAMES } from './organization-settings';
import type { OrganizationPropertyName } from './organization-settings';
import {
  MEMBERSHIP_MODES,
  PRUNABLE_KINDS,
  ROLE_NAMES,
  SUBSCRIPTION_PROPERTIES,
  TOPICS_POLICIES,
} from './kinds';
import type { KindCollection, RoleName, SubscriptionPropertyName } from './kinds';
import { EXTERNAL_ACCOUNT_SUBTYPES, PROFILE_FIELD_TYPE_NAMES } from './custom-profile-fields';
import type { ProfileFieldType } from './custom-profile-fields';

/**
 * The desired state: what synth writes and plan reads. Plain JSON, keyed by natural keys
 * (names, emails, patterns), never by Zulip IDs.
 *
 * A property that is absent was not declared: the planner holds it at Zulip's default
 * (for the server's feature level, and `{creator}` where Zulip's default is the creator).
 * Collections that are absent (a channel's `subscribers`) are not managed at all.
 */

export const DESIRED_STATE_FORMAT_VERSION = 1;

/**
 * A group-setting value by natural key: the name of a group (a system group such as
 * `role:administrators`, or a user group), or an explicit set of users (by email) and
 * groups (by name).
 */
export const GroupSettingValueSchema = z.union([
  z.string().min(1),
  z.strictObject({
    users: z.array(z.string()),
    groups: z.array(z.string()),
  }),
]);
export type GroupSettingValue = z.infer<typeof GroupSettingValueSchema>;

/** Lifecycle options, on every resource. */
export const LifecycleSchema = z.strictObject({
  /** Never archived, deactivated or deleted by apply. */
  protect: z.boolean().optional(),
  /** Properties left as they are live (names of the resource's properties). */
  ignoreChanges: z.array(z.string()).optional(),
  /** Earlier natural keys: a live object under one of these names is renamed, not replaced. */
  renamedFrom: z.array(z.string()).optional(),
});
export type Lifecycle = z.infer<typeof LifecycleSchema>;

const base = {
  /** The construct path that declared it, for messages. */
  path: z.string(),
  lifecycle: LifecycleSchema.optional(),
};

/** The schema of one desired object of a kind: its own fields, its construct path and lifecycle. */
function entrySchema<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject({ ...base, ...shape });
}

export const MembershipSchema = z.strictObject({
  mode: z.enum(MEMBERSHIP_MODES),
  /** Users by email. */
  users: z.array(z.string()),
  /** Groups by name; for channel subscribers they are expanded to their members. */
  groups: z.array(z.string()),
});
export type Membership = z.infer<typeof MembershipSchema>;

function permissionsSchema<K extends string>(names: readonly K[]) {
  const shape = Object.fromEntries(names.map((n) => [n, GroupSettingValueSchema.optional()]));
  return z.strictObject(shape as Record<K, z.ZodOptional<typeof GroupSettingValueSchema>>);
}

export const ChannelFolderSchema = entrySchema({
  name: z.string(),
  description: z.string().optional(),
  archived: z.boolean().optional(),
});
export type DesiredChannelFolder = z.infer<typeof ChannelFolderSchema>;

export const UserGroupSchema = entrySchema({
  name: z.string(),
  description: z.string().optional(),
  /** Direct members and subgroups. */
  members: MembershipSchema,
  permissions: permissionsSchema<GroupPermissionName>(GROUP_PERMISSION_NAMES),
  /** A deactivated group keeps its name reserved. */
  deactivated: z.boolean().optional(),
});
export type DesiredUserGroup = z.infer<typeof UserGroupSchema>;

export const RetentionSchema = z.union([
  z.number().int().positive(),
  z.literal('realm_default'),
  z.literal('unlimited'),
]);
export type Retention = z.infer<typeof RetentionSchema>;

export const ChannelSchema = entrySchema({
  name: z.string(),
  description: z.string().optional(),
  private: z.boolean().optional(),
  webPublic: z.boolean().optional(),
  historyPublicToSubscribers: z.boolean().optional(),
  defaultChannel: z.boolean().optional(),
  messageRetentionDays: RetentionSchema.optional(),
  topicsPolicy: z.enum(TOPICS_POLICIES).optional(),
  /** Folder by name; `null` means in no folder. */
  folder: z.string().nullable().optional(),
  archived: z.boolean().optional(),
  permissions: permissionsSchema<ChannelPermissionName>(CHANNEL_PERMISSION_NAMES),
  /** Who is subscribed; absent means subscriptions are not managed for this channel. */
  subscribers: MembershipSchema.optional(),
  /** Announce the channel's creation through the notification bot. */
  announce: z.boolean().optional(),
});
export type DesiredChannel = z.infer<typeof ChannelSchema>;

export const LinkifierSchema = entrySchema({ pattern: z.string(), urlTemplate: z.string() });
export type DesiredLinkifier = z.infer<typeof LinkifierSchema>;

export const PlaygroundSchema = entrySchema({
  name: z.string(),
  pygmentsLanguage: z.string(),
  urlTemplate: z.string(),
});
export type DesiredPlayground = z.infer<typeof PlaygroundSchema>;

export const SavedSnippetSchema = entrySchema({ title: z.string(), content: z.string() });
export type DesiredSavedSnippet = z.infer<typeof SavedSnippetSchema>;

export const UserSchema = entrySchema({
  email: z.string(),
  role: z.enum(ROLE_NAMES as [RoleName, ...RoleName[]]).optional(),
  fullName: z.string().optional(),
  /** false: deactivated (offboarded); true: active (reactivated if need be); absent: not managed. */
  active: z.boolean().optional(),
  /**
   * Values of custom profile fields, by field label: text (a choice field's choice by its text,
   * a date as `YYYY-MM-DD`), users by e-mail for a user field, null to clear. A field left out
   * is not managed.
   */
  profile: z.record(z.string(), z.union([z.string(), z.array(z.string()), z.null()])).optional(),
});
export type DesiredUser = z.infer<typeof UserSchema>;

export const DefaultChannelGroupSchema = entrySchema({
  name: z.string(),
  description: z.string().optional(),
  /** Channels by name, sorted by name. */
  channels: z.array(z.string()),
});
export type DesiredDefaultChannelGroup = z.infer<typeof DefaultChannelGroupSchema>;
/**
 * An emoji's image as synth found it: where (relative to the directory synth ran in, with `/`,
 * or absolute when outside it), its SHA-256 and size. Never its bytes: apply reads the file
 * and checks the digest again.
 */
export const EmojiImageSchema = z.strictObject({
  file: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
  /** By the file's first bytes: `image/png`, `image/gif`, `image/jpeg`, `image/webp`, `image/avif`. */
  contentType: z.string(),
});
export type EmojiImage = z.infer<typeof EmojiImageSchema>;

export const CustomEmojiSchema = entrySchema({
  name: z.string(),
  /** Absent only when the emoji is declared deactivated. */
  image: EmojiImageSchema.optional(),
  /** Zulip keeps a deactivated emoji (messages that used it still show it); its name is free again. */
  deactivated: z.boolean().optional(),
});
export type DesiredCustomEmoji = z.infer<typeof CustomEmojiSchema>;

/** A custom profile field (`/realm/profile_fields`), keyed by its label. */
export const CustomProfileFieldSchema = z.strictObject({
  ...base,
  /** The label, as Zulip stores it (stripped). */
  name: z.string(),
  type: z.enum(PROFILE_FIELD_TYPE_NAMES as [ProfileFieldType, ...ProfileFieldType[]]),
  hint: z.string().optional(),
  /** A choice field's choices, by text, in display order. */
  choices: z.array(z.string()).optional(),
  /** An external account field's kind of account; `urlPattern` for `custom`. */
  externalAccount: z
    .strictObject({ subtype: z.enum(EXTERNAL_ACCOUNT_SUBTYPES), urlPattern: z.string().optional() })
    .optional(),
  displayInProfileSummary: z.boolean().optional(),
  required: z.boolean().optional(),
  editableByUser: z.boolean().optional(),
});
export type DesiredCustomProfileField = z.infer<typeof CustomProfileFieldSchema>;

const subscriptionPropertyNames = Object.keys(
  SUBSCRIPTION_PROPERTIES,
) as SubscriptionPropertyName[];
/**
 * The settings of a subscription (each optional: absent is left as it is), the same in the
 * desired state and (through `propsSchema`) in the `SubscriptionSettings` construct's props.
 */
const subscriptionSettingValues = {
  color: z.string().optional(),
  isMuted: z.boolean().optional(),
  pinToTop: z.boolean().optional(),
  desktopNotifications: z.boolean().optional(),
  audibleNotifications: z.boolean().optional(),
  pushNotifications: z.boolean().optional(),
  emailNotifications: z.boolean().optional(),
  wildcardMentionsNotify: z.boolean().optional(),
} satisfies Record<SubscriptionPropertyName, z.ZodOptional>;

export const SubscriptionSettingsSchema = entrySchema({
  /** The channel, by name. These settings apply to the applying account only. */
  channel: z.string(),
  ...subscriptionSettingValues,
});
export type DesiredSubscriptionSettings = z.infer<typeof SubscriptionSettingsSchema>;
export { subscriptionPropertyNames };

const organizationPropertyValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * The organization's settings and permissions (one entry at most). Only what is present is
 * managed: a property or permission left out is left as it is live (unlike the other kinds,
 * where an absent property is held at Zulip's default). Channel-valued settings hold the
 * channel's name, or null for none. The shapes of the values are checked per property
 * (`organizationPropertyProblem`) by the construct and again by the planner.
 */
export const OrganizationSettingsSchema = z.strictObject({
  path: z.string(),
  properties: z.strictObject(
    Object.fromEntries(
      ORGANIZATION_PROPERTY_NAMES.map((n) => [n, organizationPropertyValue.optional()]),
    ) as Record<OrganizationPropertyName, z.ZodOptional<typeof organizationPropertyValue>>,
  ),
  permissions: permissionsSchema<OrganizationPermissionName>(ORGANIZATION_PERMISSION_NAMES),
});
export type DesiredOrganizationSettings = z.infer<typeof OrganizationSettingsSchema>;

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
  /** In declaration order: the order Zulip shows them in. */
  channelFolders: z.array(ChannelFolderSchema),
  /** Sorted by name. */
  userGroups: z.array(UserGroupSchema),
  /** Sorted by name. */
  channels: z.array(ChannelSchema),
  /** In declaration order: the order Zulip applies them in. */
  linkifiers: z.array(LinkifierSchema),
  /** Sorted by language, then name. */
  playgrounds: z.array(PlaygroundSchema),
  /** Sorted by title. */
  savedSnippets: z.array(SavedSnippetSchema),
  /** Sorted by name. Absent in files written before custom emoji existed. */
  customEmoji: z.array(CustomEmojiSchema).default([]),
  /** Sorted by email. */
  users: z.array(UserSchema),
  /** Sorted by channel. */
  subscriptionSettings: z.array(SubscriptionSettingsSchema),
  /** At most one: the organization's settings and permissions (absent in older files). */
  organizationSettings: z.array(OrganizationSettingsSchema).max(1).default([]),
  /** Sorted by name. Absent in desired states written before default channel groups existed. */
  defaultChannelGroups: z.array(DefaultChannelGroupSchema).default([]),
  /**
   * In declaration order: the order Zulip shows them in. Absent in desired states written
   * before custom profile fields existed.
   */
  customProfileFields: z.array(CustomProfileFieldSchema).default([]),
});
export type DesiredState = z.infer<typeof DesiredStateSchema>;
/** A compile error when a kind of `RESOURCE_KINDS` has no collection in the desired state. */
type _EveryKindIsDesired = Pick<DesiredState, KindCollection>;

/** An empty desired state, for tests and as a starting point. */
export function emptyDesiredState(id = 'org'): DesiredState {
  return {
    formatVersion: DESIRED_STATE_FORMAT_VERSION,
    organization: { id, path: id, prune: {} },
    channelFolders: [],
    userGroups: [],
    channels: [],
    linkifiers: [],
    playgrounds: [],
    savedSnippets: [],
    customEmoji: [],
    users: [],
    subscriptionSettings: [],
    organizationSettings: [],
    defaultChannelGroups: [],
    customProfileFields: [],
  };
}
