import { z } from 'zod';
import { intListSchema } from '../../model/int-list';
import { USER_GROUP_SETTINGS } from '../../model/permissions';
import type { UserGroupSettingName } from '../../model/permissions';
import { optionalGroupSettings, successListing, successWith } from './common';
import type { GroupSettingUpdates, GroupSettingValues } from './common';

/** The wire names come from the model's permission table (`GROUP_PERMISSIONS`). */
export { USER_GROUP_SETTINGS };
export type { UserGroupSettingName };

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
  ...optionalGroupSettings(USER_GROUP_SETTINGS),
});
/** A user group as Zulip sends it, as parsed by {@link WireUserGroupSchema}. */
export type WireUserGroup = z.infer<typeof WireUserGroupSchema>;

/** The zod schema of the {@link ZulipClient.getUserGroups} response (`GET /user_groups`). */
export const GetUserGroupsResponseSchema = successListing('user_groups', WireUserGroupSchema);
/** The {@link ZulipClient.getUserGroups} response (`GET /user_groups`), as parsed. */
export type GetUserGroupsResponse = z.infer<typeof GetUserGroupsResponseSchema>;

/** `GET /user_groups` parameters. */
export interface GetUserGroupsParams {
  /** FL 294. */
  readonly include_deactivated_groups?: boolean | undefined;
}

/** A user group's group settings on creation: name to value. */
export type UserGroupSettingValues = GroupSettingValues<UserGroupSettingName>;
/** A user group's group settings in an update: name to `{new, old}`. */
export type UserGroupSettingUpdates = GroupSettingUpdates<UserGroupSettingName>;

/** `POST /user_groups/create` parameters. Atomic. */
export interface CreateUserGroupParams extends UserGroupSettingValues {
  readonly name: string;
  readonly description: string;
  readonly members: readonly number[];
  /** FL 311. */
  readonly subgroups?: readonly number[] | undefined;
}

/** The zod schema of the {@link ZulipClient.createUserGroup} response (`POST /user_groups/create`). */
export const CreateUserGroupResponseSchema = successWith({
  /** FL 317. */
  group_id: z.number().int().optional(),
});
/** The {@link ZulipClient.createUserGroup} response (`POST /user_groups/create`), as parsed. */
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
/** What Zulip says, in the data of its error, when a group to deactivate is still used by a setting. */
export type GroupInUseObjection = z.infer<typeof GroupInUseObjectionSchema>;
