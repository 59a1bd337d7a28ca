import { z } from 'zod';
import { intListSchema } from '../../model/int-list';
import { WireGroupSettingSchema, successWith } from './common';
import type { GroupSettingParam, GroupSettingUpdate } from './common';

/** The group-valued settings of a user group, by wire name. */
export const USER_GROUP_SETTINGS = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;
export type UserGroupSettingName = (typeof USER_GROUP_SETTINGS)[number];

const optionalGroupSettings = Object.fromEntries(
  USER_GROUP_SETTINGS.map((n) => [n, WireGroupSettingSchema.optional()]),
) as Record<UserGroupSettingName, z.ZodOptional<typeof WireGroupSettingSchema>>;

/** A user group as `GET /user_groups` and `/register` send it (loose). */
export const WireUserGroupSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** Direct members only. */
  members: intListSchema(),
  direct_subgroup_ids: intListSchema(),
  is_system_group: z.boolean(),
  creator_id: z.number().int().nullable().optional(),
  date_created: z.number().nullable().optional(),
  deactivated: z.boolean().optional(),
  ...optionalGroupSettings,
});
export type WireUserGroup = z.infer<typeof WireUserGroupSchema>;

export const GetUserGroupsResponseSchema = successWith({
  user_groups: z.array(WireUserGroupSchema),
});
export type GetUserGroupsResponse = z.infer<typeof GetUserGroupsResponseSchema>;

/** `GET /user_groups` parameters. */
export interface GetUserGroupsParams {
  /** FL 294. */
  readonly include_deactivated_groups?: boolean | undefined;
}

export type UserGroupSettingValues = {
  readonly [K in UserGroupSettingName]?: GroupSettingParam | undefined;
};
export type UserGroupSettingUpdates = {
  readonly [K in UserGroupSettingName]?: GroupSettingUpdate | undefined;
};

/** `POST /user_groups/create` parameters. Atomic. */
export interface CreateUserGroupParams extends UserGroupSettingValues {
  readonly name: string;
  readonly description: string;
  readonly members: readonly number[];
  /** FL 311. */
  readonly subgroups?: readonly number[] | undefined;
}

export const CreateUserGroupResponseSchema = successWith({
  /** FL 317. */
  group_id: z.number().int().optional(),
});
export type CreateUserGroupResponse = z.infer<typeof CreateUserGroupResponseSchema>;

/** `PATCH /user_groups/{id}` parameters. Atomic. */
export interface UpdateUserGroupParams extends UserGroupSettingUpdates {
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  /** FL 386: `false` reactivates. */
  readonly deactivated?: boolean | undefined;
}

/** `POST /user_groups/{id}/members` parameters. Atomic; not idempotent (NOTES 2.6). */
export interface UpdateUserGroupMembersParams {
  readonly add?: readonly number[] | undefined;
  readonly delete?: readonly number[] | undefined;
  /** FL 311. */
  readonly add_subgroups?: readonly number[] | undefined;
  readonly delete_subgroups?: readonly number[] | undefined;
}

/** `POST /user_groups/{id}/subgroups` parameters. */
export interface UpdateUserGroupSubgroupsParams {
  readonly add?: readonly number[] | undefined;
  readonly delete?: readonly number[] | undefined;
}

/** One entry of `objections` in a `CANNOT_DEACTIVATE_GROUP_IN_USE` error (loose). */
export const GroupInUseObjectionSchema = z.looseObject({
  type: z.string(),
  supergroup_ids: z.array(z.number().int()).optional(),
  channel_id: z.number().int().optional(),
  group_id: z.number().int().optional(),
  settings: z.array(z.string()).optional(),
});
export type GroupInUseObjection = z.infer<typeof GroupInUseObjectionSchema>;
