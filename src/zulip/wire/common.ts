import { z } from 'zod';

/**
 * A group-setting value as Zulip sends and takes it: a named group's ID, or an anonymous
 * group `{direct_members, direct_subgroups}`. Loose, so new server fields never break us.
 */
export const WireGroupSettingSchema = z.union([
  z.number().int(),
  z.looseObject({
    direct_members: z.array(z.number().int()),
    direct_subgroups: z.array(z.number().int()),
  }),
]);
/** A group-setting value on the wire (the parameter form, without extra fields). */
export type GroupSettingParam =
  | number
  | { readonly direct_members: readonly number[]; readonly direct_subgroups: readonly number[] };

/** A group-setting change on update endpoints: `{new, old?}`; `old` is checked by the server (`EXPECTATION_MISMATCH`). */
export interface GroupSettingUpdate {
  readonly new: GroupSettingParam;
  readonly old?: GroupSettingParam | undefined;
}

/** The fields of every success body. */
export const SuccessSchema = z.looseObject({
  result: z.literal('success'),
  msg: z.string(),
  ignored_parameters_unsupported: z.array(z.string()).optional(),
});
/** Zulip's success object (`result: "success"`, `msg`), for endpoints that answer nothing else. */
export type Success = z.infer<typeof SuccessSchema>;

/** Extends the success body with endpoint fields, loosely. */
export function successWith<T extends z.ZodRawShape>(shape: T) {
  return z.looseObject({
    result: z.literal('success'),
    msg: z.string(),
    ignored_parameters_unsupported: z.array(z.string()).optional(),
    ...shape,
  });
}

/**
 * A success body that lists objects under one key (`GET /user_groups` answers `user_groups`),
 * loosely, as {@link successWith}.
 */
export function successListing<K extends string, S extends z.ZodType>(key: K, element: S) {
  return successWith({ [key]: z.array(element) } as { [P in K]: z.ZodArray<S> });
}

/** The group settings of an object kind as optional fields of its wire schema. */
export function optionalGroupSettings<N extends string>(
  names: readonly N[],
): Record<N, z.ZodOptional<typeof WireGroupSettingSchema>> {
  return Object.fromEntries(names.map((n) => [n, WireGroupSettingSchema.optional()])) as Record<
    N,
    z.ZodOptional<typeof WireGroupSettingSchema>
  >;
}

/** Group settings as initial values (create), by setting name. */
export type GroupSettingValues<N extends string> = {
  readonly [K in N]?: GroupSettingParam | undefined;
};
/** Group settings as `{new, old?}` changes (update), by setting name. */
export type GroupSettingUpdates<N extends string> = {
  readonly [K in N]?: GroupSettingUpdate | undefined;
};

/** `message_retention_days` on create and update: a positive number of days, or a keyword. */
export type MessageRetentionParam = number | 'realm_default' | 'unlimited';
