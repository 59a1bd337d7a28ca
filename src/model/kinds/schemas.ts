/**
 * The schema pieces the kinds' desired and live objects share (each kind's own schemas are in
 * its spec file). Re-exported by `../desired-state.ts` and `../live-state.ts`, which build the
 * two states from every kind's schemas.
 */
import { z } from 'zod';
import { MEMBERSHIP_MODES } from './vocabulary';

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

/** The schema of one desired object of a kind: its own fields, its construct path and lifecycle. */
export function entrySchema<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject({
    /** The construct path that declared it, for messages. */
    path: z.string(),
    lifecycle: LifecycleSchema.optional(),
    ...shape,
  });
}

/**
 * The schema of one desired object of a kind Zulip names and describes (channels, user groups,
 * channel folders, default channel groups): its `name` and `description` (absent: empty,
 * Zulip's default), then its own fields.
 */
export function describedEntrySchema<S extends z.ZodRawShape>(shape: S) {
  return entrySchema({ name: z.string(), description: z.string().optional(), ...shape });
}

export const MembershipSchema = z.strictObject({
  mode: z.enum(MEMBERSHIP_MODES),
  /** Users by email. */
  users: z.array(z.string()),
  /** Groups by name; for channel subscribers they are expanded to their members. */
  groups: z.array(z.string()),
});
export type Membership = z.infer<typeof MembershipSchema>;

/** A desired object's permissions: each setting of `names` optional, by natural key. */
export function permissionsSchema<K extends string>(names: readonly K[]) {
  const shape = Object.fromEntries(names.map((n) => [n, GroupSettingValueSchema.optional()]));
  return z.strictObject(shape as Record<K, z.ZodOptional<typeof GroupSettingValueSchema>>);
}

/** A group-setting value as Zulip sends it: a group ID, or an anonymous group. */
export const WireGroupSettingValueSchema = z.union([
  z.number().int(),
  z.strictObject({
    direct_members: z.array(z.number().int()),
    direct_subgroups: z.array(z.number().int()),
  }),
]);
export type WireGroupSettingValue = z.infer<typeof WireGroupSettingValueSchema>;

/** A live object's group settings, by wire name (`can_manage_group`). */
export const livePermissions = z.record(z.string(), WireGroupSettingValueSchema);

/** The schema of one live object of a kind: its Zulip ID, then its own fields. */
export function liveSchema<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject({ id: z.number().int(), ...shape });
}

/** The schema of one live object of a kind Zulip names and describes: see {@link describedEntrySchema}. */
export function describedLiveSchema<S extends z.ZodRawShape>(shape: S) {
  return liveSchema({ name: z.string(), description: z.string(), ...shape });
}

/**
 * The schemas of a kind whose live object is its declared one with a Zulip ID (linkifiers,
 * playgrounds, snippets): both from one shape.
 */
export function plainSchemas<S extends z.ZodRawShape>(shape: S) {
  return { desired: entrySchema(shape), live: liveSchema(shape) };
}
