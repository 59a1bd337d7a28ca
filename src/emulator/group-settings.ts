import { CHANNEL_PERMISSIONS, GROUP_PERMISSIONS } from '../model/permissions';
import type { PermissionSettingInfo } from '../model/permissions';
import { supports } from '../model/features';
import { badRequest, expectationMismatch } from './errors';
import { expectDict, expectInt, expectList } from './params';
import { findGroup, findUser } from './permissions';
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

/** Realm settings that refuse `role:everyone` (the rest allow it). */
const REALM_NO_EVERYONE = new Set([
  'can_create_groups',
  'can_manage_all_groups',
  'can_add_subscribers_group',
  'can_create_public_channel_group',
  'can_create_private_channel_group',
  'can_create_web_public_channel_group',
  'can_invite_users_group',
  'create_multiuse_invite_group',
  'can_create_bots_group',
  'can_create_write_only_bots_group',
  'can_manage_billing_group',
  'can_add_custom_emoji_group',
  'can_move_messages_between_channels_group',
  'can_set_topics_policy_group',
]);

/** The setting info of a realm setting. */
export function realmSettingInfo(wire: string): PermissionSettingInfo {
  return { wire, default: 'role:nobody', allowEveryone: !REALM_NO_EVERYONE.has(wire) };
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
 * Parses and canonicalises a group-setting value (`parse_group_setting_value`): a set with only
 * one subgroup is that group, an empty set is `role:nobody`. Checks users and groups exist.
 */
export function parseGroupSettingValue(
  org: OrgState,
  raw: unknown,
  name: string,
): StoredGroupSetting {
  if (typeof raw === 'number') {
    const id = expectInt(raw, name);
    const g = findGroup(org, id);
    if (!g || (!g.isSystemGroup && g.name === '')) throw badRequest(`Invalid user group ID: ${id}`);
    return id;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw badRequest(`${name} is not an integer`);
  const d = expectDict(raw, name);
  for (const k of Object.keys(d))
    if (k !== 'direct_members' && k !== 'direct_subgroups')
      throw badRequest(`Argument "${k}" at ${name} is unexpected`);
  if (d.direct_members === undefined)
    throw badRequest(`${name}["direct_members"] field is missing: Field required`);
  if (d.direct_subgroups === undefined)
    throw badRequest(`${name}["direct_subgroups"] field is missing: Field required`);
  const members = expectList(d.direct_members, `${name}["direct_members"]`).map((x, i) =>
    expectInt(x, `${name}["direct_members"][${i}]`),
  );
  const subgroups = expectList(d.direct_subgroups, `${name}["direct_subgroups"]`).map((x, i) =>
    expectInt(x, `${name}["direct_subgroups"][${i}]`),
  );
  for (const m of members) if (!findUser(org, m)) throw badRequest(`Invalid user ID: ${m}`);
  for (const s of subgroups)
    if (!findGroup(org, s)) throw badRequest(`Invalid user group ID: ${s}`);
  const um = [...new Set(members)].sort((a, b) => a - b);
  const us = [...new Set(subgroups)].sort((a, b) => a - b);
  if (um.length === 0 && us.length === 1 && us[0] !== undefined) return us[0];
  if (um.length === 0 && us.length === 0) return systemGroupId(org, 'role:nobody');
  return { direct_members: um, direct_subgroups: us };
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
  if (!g.isSystemGroup) return;
  if (g.name === 'role:internet' || (g.name === 'role:everyone' && !info.allowEveryone))
    throw badRequest(`'${info.wire}' setting cannot be set to '${g.name}' group.`);
}

/** Parses a `{new, old?}` update; throws `EXPECTATION_MISMATCH` when `old` differs. */
export function parseSettingUpdate(
  org: OrgState,
  raw: unknown,
  info: PermissionSettingInfo,
  current: StoredGroupSetting,
): StoredGroupSetting {
  const name = info.wire;
  const d = expectDict(raw, name);
  for (const k of Object.keys(d))
    if (k !== 'new' && k !== 'old') throw badRequest(`Argument "${k}" at ${name} is unexpected`);
  if (d.new === undefined) throw badRequest(`${name}["new"] field is missing: Field required`);
  const next = parseGroupSettingValue(org, d.new, `${name}["new"]`);
  if (d.old !== undefined) {
    const old = parseGroupSettingValue(org, d.old, `${name}["old"]`);
    if (!settingsEqual(old, current)) throw expectationMismatch();
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
          : featureLevel >= 427
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
  for (const [k, v] of Object.entries(REALM_DEFAULT_NAMES))
    realm[k] = { ...entry(realmSettingInfo(k), 'realm'), default_group_name: v };
  return {
    realm,
    stream: Object.fromEntries(
      channelSettingInfos(featureLevel).map((i) => [i.wire, entry(i, 'channel')]),
    ),
    group: Object.fromEntries(groupSettingInfos().map((i) => [i.wire, entry(i, 'group')])),
  };
}

const REALM_DEFAULT_NAMES: Record<string, string> = {
  can_add_subscribers_group: 'role:members',
  can_create_groups: 'role:members',
  can_create_public_channel_group: 'role:members',
  can_create_private_channel_group: 'role:members',
  can_create_web_public_channel_group: 'role:owners',
  can_manage_all_groups: 'role:owners',
};
