import type { GroupSettingValue } from './desired-state';
import type { WireGroupSettingValue } from './live-state';

/**
 * Canonicalises a natural-key group-setting value the way Zulip does
 * (`parse_group_setting_value`): a set holding only one group is that group, an empty set is
 * `role:nobody`; otherwise members and subgroups are sorted and de-duplicated.
 */
export function canonicalGroupSetting(value: GroupSettingValue): GroupSettingValue {
  if (typeof value === 'string') return value;
  const users = [...new Set(value.users)].sort();
  const groups = [...new Set(value.groups)].sort();
  if (users.length === 0 && groups.length === 1 && groups[0] !== undefined) return groups[0];
  if (users.length === 0 && groups.length === 0) return 'role:nobody';
  return { users, groups };
}

/** Zulip's equality (`are_both_group_setting_values_equal`) after canonicalisation. */
export function groupSettingsEqual(a: GroupSettingValue, b: GroupSettingValue): boolean {
  const ca = canonicalGroupSetting(a);
  const cb = canonicalGroupSetting(b);
  if (typeof ca === 'string' || typeof cb === 'string') return ca === cb;
  return (
    ca.users.length === cb.users.length &&
    ca.groups.length === cb.groups.length &&
    ca.users.every((u, i) => u === cb.users[i]) &&
    ca.groups.every((g, i) => g === cb.groups[i])
  );
}

/** The same canonicalisation on the wire form, given the ID of `role:nobody`. */
export function canonicalWireGroupSetting(
  value: WireGroupSettingValue,
  nobodyGroupId: number,
): WireGroupSettingValue {
  if (typeof value === 'number') return value;
  const members = [...new Set(value.direct_members)].sort((x, y) => x - y);
  const subgroups = [...new Set(value.direct_subgroups)].sort((x, y) => x - y);
  if (members.length === 0 && subgroups.length === 1 && subgroups[0] !== undefined)
    return subgroups[0];
  if (members.length === 0 && subgroups.length === 0) return nobodyGroupId;
  return { direct_members: members, direct_subgroups: subgroups };
}
