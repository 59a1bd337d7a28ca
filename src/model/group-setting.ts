import type { GroupSettingValue } from './desired-state';
import type { WireGroupSettingValue } from './live-state';

/**
 * Canonicalises a natural-key group-setting value the way Zulip does
 * (`parse_group_setting_value`): a set holding only one group is that group, an empty set is
 * `role:nobody`; otherwise members and subgroups are sorted and de-duplicated.
 */
export function canonicalGroupSetting(value: GroupSettingValue): GroupSettingValue {
  if (typeof value === 'string') return value;
  const users = sortedUnique(value.users);
  const groups = sortedUnique(value.groups);
  if (users.length === 0 && groups.length === 1 && groups[0] !== undefined) return groups[0];
  if (users.length === 0 && groups.length === 0) return 'role:nobody';
  return { users, groups };
}

/** Whether a list of names is sorted with no name twice. */
function isSortedUnique(names: readonly string[]): boolean {
  for (let i = 1; i < names.length; i++)
    if (!((names[i - 1] as string) < (names[i] as string))) return false;
  return true;
}

/** A sorted copy of a list of names, each once (as most are already: no set then). */
function sortedUnique(names: readonly string[]): string[] {
  return isSortedUnique(names) ? names.slice() : [...new Set(names)].sort();
}

/** Whether {@link canonicalGroupSetting} gives the value as it is. */
function isCanonical(v: GroupSettingValue): boolean {
  return (
    typeof v === 'string' ||
    ((v.users.length > 0 || v.groups.length > 1) &&
      isSortedUnique(v.users) &&
      isSortedUnique(v.groups))
  );
}

/** Zulip's equality (`are_both_group_setting_values_equal`) after canonicalisation. */
export function groupSettingsEqual(a: GroupSettingValue, b: GroupSettingValue): boolean {
  // Both canonical already (the plan compares 220,000 settings at scale 10): no copies.
  const ca = isCanonical(a) ? a : canonicalGroupSetting(a);
  const cb = isCanonical(b) ? b : canonicalGroupSetting(b);
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

/**
 * The `old` to send with a group-setting change, or undefined when Zulip could never accept it.
 * Zulip reports an anonymous group without its deactivated members
 * (zerver/lib/user_groups.py `get_group_setting_value_for_api`), but reads an `old` with no
 * members and at most one subgroup as that subgroup's ID or the nobody group
 * (`parse_group_setting_value`), which never equals the anonymous group it compares it with
 * (`validate_group_setting_value_change`): every such `old` is an `EXPECTATION_MISMATCH`. The
 * change then goes without `old`; apply's re-read before writing still catches a hand change.
 */
export function sendableOld(
  old: WireGroupSettingValue | undefined,
): WireGroupSettingValue | undefined {
  if (old === undefined || typeof old === 'number') return old;
  if (old.direct_members.length === 0 && old.direct_subgroups.length <= 1) return undefined;
  return old;
}
