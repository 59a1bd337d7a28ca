import {
  CHANNEL_PERMISSIONS,
  GROUP_PERMISSIONS,
  disallowedSystemGroup,
  organizationPermissionByWire,
} from '../model/permissions';
import type { PermissionSettingInfo } from '../model/permissions';
import { supports } from '../model/features';
import { ApiError, badRequest, expectationMismatch } from './errors';
import { findGroup, findUser } from './permissions';
import { realmPermissionInfos } from './realm-settings';
import { systemGroupId } from './state';
import type { OrgState, StoredGroupSetting, StoredUser } from './state';

/** Which object a setting belongs to. */
export type SettingScope = 'channel' | 'group' | 'realm';

/** Channel settings available at a feature level, in Zulip's order. */
export function channelSettingInfos(featureLevel: number): PermissionSettingInfo[] {
  return Object.values(CHANNEL_PERMISSIONS).filter(
    (i: PermissionSettingInfo) => i.feature === undefined || supports(featureLevel, i.feature),
  );
}

/** The six user-group settings. */
export function groupSettingInfos(): PermissionSettingInfo[] {
  return Object.values(GROUP_PERMISSIONS);
}

/** The rules of a realm setting (`Realm.REALM_PERMISSION_GROUP_SETTINGS`). */
export function realmSettingInfo(wire: string): PermissionSettingInfo {
  return (
    organizationPermissionByWire(wire) ?? { wire, default: 'role:nobody', allowEveryone: true }
  );
}

/** Zulip's `are_both_group_setting_values_equal`. */
export function settingsEqual(a: StoredGroupSetting, b: StoredGroupSetting): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const sameSet = (x: number[], y: number[]): boolean => {
    const sx = new Set(x);
    const sy = new Set(y);
    return sx.size === sy.size && [...sx].every((v) => sy.has(v));
  };
  return (
    sameSet(a.direct_members, b.direct_members) && sameSet(a.direct_subgroups, b.direct_subgroups)
  );
}

/**
 * The shape of a group-setting value, as the request parser checks it before the view runs:
 * `int | UserGroupMembersData` (zerver/lib/types.py, a plain dataclass), validated strictly by
 * pydantic (zerver/lib/typed_endpoint.py `parse_value_for_parameter`). An integer, or a dict
 * whose `direct_members` and `direct_subgroups` are lists of integers (strict inside the
 * dataclass too: `1.0` is a float, a `JsonFloat` here, no integer); other keys are ignored
 * (a plain dataclass does not forbid extras). Anything else fails both members of the union,
 * and Zulip reports the first error, the `int` member's: `name["int"] is not an integer`.
 * Nothing is looked up.
 */
export function groupSettingShape(raw: unknown, name: string): StoredGroupSetting {
  if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
  const intList = (v: unknown): v is number[] =>
    Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isInteger(x));
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const d = raw as Record<string, unknown>;
    if (intList(d.direct_members) && intList(d.direct_subgroups))
      return { direct_members: d.direct_members, direct_subgroups: d.direct_subgroups };
  }
  throw badRequest(`${name}["int"] is not an integer`);
}

/** Checks that the users and groups of a (shape-checked) value exist. */
export function checkSettingExists(org: OrgState, v: StoredGroupSetting): void {
  if (typeof v === 'number') {
    const g = findGroup(org, v);
    if (!g || (!g.isSystemGroup && g.name === '')) throw badRequest(`Invalid user group ID: ${v}`);
    return;
  }
  for (const m of v.direct_members)
    if (!findUser(org, m)) throw badRequest(`Invalid user ID: ${m}`);
  for (const s of v.direct_subgroups)
    if (!findGroup(org, s)) throw badRequest(`Invalid user group ID: ${s}`);
}

/**
 * Canonicalises a (shape-checked) value as `parse_group_setting_value` does: a set with only
 * one subgroup is that group, an empty set is `role:nobody`.
 */
export function canonicalSetting(org: OrgState, v: StoredGroupSetting): StoredGroupSetting {
  if (typeof v === 'number') return v;
  const um = [...new Set(v.direct_members)].sort((a, b) => a - b);
  const us = [...new Set(v.direct_subgroups)].sort((a, b) => a - b);
  if (um.length === 0 && us.length === 1 && us[0] !== undefined) return us[0];
  if (um.length === 0 && us.length === 0) return systemGroupId(org, 'role:nobody');
  return { direct_members: um, direct_subgroups: us };
}

/**
 * Parses and canonicalises a group-setting value (`parse_group_setting_value`): a set with only
 * one subgroup is that group, an empty set is `role:nobody`. Checks users and groups exist.
 */
export function parseGroupSettingValue(
  org: OrgState,
  raw: unknown,
  name: string,
): StoredGroupSetting {
  const v = groupSettingShape(raw, name);
  checkSettingExists(org, v);
  return canonicalSetting(org, v);
}

/** Rejects values a setting does not allow (`validate_group_setting_value` and friends). */
export function checkAllowed(
  org: OrgState,
  info: PermissionSettingInfo,
  value: StoredGroupSetting,
): void {
  if (typeof value !== 'number') return;
  const g = findGroup(org, value);
  if (!g) throw badRequest(`Invalid user group ID: ${value}`);
  if (g.deactivated) throw badRequest('User group is deactivated.');
  // check_setting_configuration_for_system_groups (zerver/lib/user_groups.py).
  if (!g.isSystemGroup) {
    if (info.requireSystemGroup === true) throw systemGroupRequired(info.wire);
    return;
  }
  if (disallowedSystemGroup(info, g.name) !== undefined)
    throw badRequest(`'${info.wire}' setting cannot be set to '${g.name}' group.`);
}

/** `SystemGroupRequiredError` (zerver/lib/exceptions.py). */
export function systemGroupRequired(wire: string): ApiError {
  return new ApiError(`'${wire}' must be a system user group.`, {
    code: 'SYSTEM_GROUP_REQUIRED',
    data: { setting_name: wire },
  });
}

/**
 * Checks a new (canonical) value as `access_user_group_for_setting` does, lookups included
 * (zerver/lib/user_groups.py): a group ID must name a group ("Invalid user group"), active
 * ("User group is deactivated."), allowed for the setting
 * (`check_setting_configuration_for_system_groups`); an anonymous value's members must be
 * active users ("Invalid user ID: N", `user_ids_to_users`) and its subgroups named groups
 * ("Invalid user group ID: N"), active ("User group is deactivated.").
 */
export function accessSettingValue(
  org: OrgState,
  info: PermissionSettingInfo,
  value: StoredGroupSetting,
): void {
  if (typeof value === 'number') {
    const g = findGroup(org, value);
    if (!g || (!g.isSystemGroup && g.name === '')) throw badRequest('Invalid user group');
    if (g.deactivated) throw badRequest('User group is deactivated.');
    checkAllowed(org, info, value);
    return;
  }
  // access_user_group_api_value_for_setting: an anonymous group is never a system group.
  if (info.requireSystemGroup === true) throw systemGroupRequired(info.wire);
  for (const m of value.direct_members)
    if (findUser(org, m)?.isActive !== true) throw badRequest(`Invalid user ID: ${m}`);
  const subgroups = value.direct_subgroups.map((id) => {
    const g = findGroup(org, id);
    if (!g || (!g.isSystemGroup && g.name === '')) throw badRequest(`Invalid user group ID: ${id}`);
    return g;
  });
  if (subgroups.some((g) => g.deactivated)) throw badRequest('User group is deactivated.');
}

/** A `{new, old?}` change request (`GroupSettingChangeRequest`), shape-checked only. */
export interface SettingChangeRequest {
  readonly new: StoredGroupSetting;
  readonly old: StoredGroupSetting | undefined;
}

/**
 * The shape of a `{new, old?}` update, as the request parser checks it before the view runs
 * (`GroupSettingChangeRequest`, zerver/lib/user_groups.py, a plain dataclass, validated by
 * zerver/lib/typed_endpoint.py `parse_value_for_parameter`): anything but a dict is pydantic's
 * `dataclass_type` (test_user_groups.py `do_test_update_user_group_permission_settings`); in a
 * dict, fields are checked in order, `new` (required) then `old` (optional, `null` as absent),
 * and other keys are ignored. Nothing is looked up.
 */
export function settingUpdateShape(raw: unknown, name: string): SettingChangeRequest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw badRequest(`${name} does not have the expected format`);
  const d = raw as Record<string, unknown>;
  if (!('new' in d)) throw badRequest(`${name}["new"] field is missing: Field required`);
  return {
    new: groupSettingShape(d.new, `${name}["new"]`),
    old:
      d.old === undefined || d.old === null
        ? undefined
        : groupSettingShape(d.old, `${name}["old"]`),
  };
}

/** Parses a `{new, old?}` update; throws `EXPECTATION_MISMATCH` when `old` differs. */
export function parseSettingUpdate(
  org: OrgState,
  raw: unknown,
  info: PermissionSettingInfo,
  current: StoredGroupSetting,
): StoredGroupSetting {
  const req = settingUpdateShape(raw, info.wire);
  checkSettingExists(org, req.new);
  const next = canonicalSetting(org, req.new);
  if (req.old !== undefined) {
    checkSettingExists(org, req.old);
    if (!settingsEqual(canonicalSetting(org, req.old), current)) throw expectationMismatch();
  }
  checkAllowed(org, info, next);
  return next;
}

/** The default value of a setting for a new object created by `creator`. */
export function defaultSettingValue(
  org: OrgState,
  info: PermissionSettingInfo,
  creator: StoredUser,
): StoredGroupSetting {
  if (info.default === 'creator') return { direct_members: [creator.id], direct_subgroups: [] };
  return systemGroupId(org, info.default);
}

/** `server_supported_permission_settings` as the server at this level sends it. */
export function supportedPermissionSettings(featureLevel: number): Record<string, unknown> {
  const entry = (info: PermissionSettingInfo, scope: SettingScope): Record<string, unknown> => {
    let defaultName: string = info.default;
    if (info.default === 'creator')
      defaultName =
        scope === 'group'
          ? 'group_creator'
          : supports(featureLevel, 'channelCreatorDefault')
            ? 'channel_creator'
            : 'stream_creator_or_nobody';
    return {
      require_system_group: false,
      allow_internet_group: false,
      allow_nobody_group: true,
      allow_everyone_group: info.allowEveryone,
      default_group_name: defaultName,
      default_for_system_groups: scope === 'group' ? 'role:nobody' : null,
      allowed_system_groups: [],
    };
  };
  const realm: Record<string, unknown> = {};
  for (const i of realmPermissionInfos(featureLevel))
    realm[i.wire] = {
      ...entry(i, 'realm'),
      require_system_group: i.requireSystemGroup === true,
      allow_nobody_group: i.allowNobody !== false,
      allowed_system_groups: i.allowedSystemGroups ?? [],
    };
  return {
    realm,
    stream: Object.fromEntries(
      channelSettingInfos(featureLevel).map((i) => [i.wire, entry(i, 'channel')]),
    ),
    group: Object.fromEntries(groupSettingInfos().map((i) => [i.wire, entry(i, 'group')])),
  };
}
