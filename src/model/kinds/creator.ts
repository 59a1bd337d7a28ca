import type { GroupSettingValue } from '../desired-state';

/**
 * Zulip's `{creator}` default of a permission setting (a channel's or a group's), in
 * natural-key terms: the anonymous group of the creator. `role:nobody` when there is no
 * creator, or when the creator is deactivated or not among the organization's users: Zulip
 * reports an anonymous group without its inactive members
 * (zerver/lib/user_groups.py `get_group_setting_value_for_api`), and would refuse them in a
 * value sent to it. The planner holds an undeclared setting at this value and the importer
 * leaves a setting at this value out, so both must ask this one function.
 *
 * @param usersById - the organization's users (active and not) by Zulip ID
 */
export function creatorDefault(
  creatorId: number | null,
  usersById: {
    get(id: number): { readonly email: string; readonly isActive: boolean } | undefined;
  },
): GroupSettingValue {
  const creator = creatorId === null ? undefined : usersById.get(creatorId);
  if (!creator?.isActive) return 'role:nobody';
  return { users: [creator.email], groups: [] };
}
