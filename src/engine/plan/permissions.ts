/**
 * Permission settings (group-setting values) of groups and channels: their effective values
 * on create, their changes on update, and the references to groups they make.
 *
 * Functions of the planner's phases (see `Planner` in `./planner.ts`): they read and write its
 * shared state.
 */
import type { GroupSettingValue, Lifecycle } from '../../model/desired-state';
import { canonicalGroupSetting, groupSettingsEqual } from '../../model/group-setting';
import { creatorDefault, isSystemGroupName } from '../../model/kinds';
import type { LiveState, WireGroupSettingValue } from '../../model/live-state';
import type { PermissionSettingInfo } from '../../model/permissions';
import { disallowedSystemGroup } from '../../model/permissions';
import type { PropertyChange } from '../plan-format';
import type { Planner, Props } from './planner';
import { groupsIn, isIgnored } from './planner';

/** Checks a group reference: a system group, a declared group, or a live one. */
export function checkGroupRef(p: Planner, name: string, address: string, path: string): void {
  if (isSystemGroupName(name)) return;
  if (p.desiredGroups.has(name)) return;
  const l = p.idx.groupsByName.get(name);
  if (l && !l.deactivated) return;
  p.errors.push(
    `${address} (${path}): user group '${name}' ${l ? 'is deactivated' : 'does not exist'}`,
  );
}

/** A desired group-setting value in canonical natural-key terms, users as live emails. */
function desiredGroupSetting(
  p: Planner,
  value: GroupSettingValue,
  address: string,
  path: string,
): GroupSettingValue {
  if (typeof value === 'string') {
    checkGroupRef(p, value, address, path);
    return value;
  }
  const users = p.resolveUsers(value.users).map((id) => p.idx.emailOf(id));
  for (const g of value.groups) checkGroupRef(p, g, address, path);
  return canonicalGroupSetting({ users, groups: value.groups });
}

/**
 * What Zulip refuses in a value as it reads it (zerver/lib/user_groups.py
 * `parse_group_setting_value`: a set of one group and no user is that group, an empty set is
 * `role:nobody`; then `check_setting_configuration_for_system_groups`): the resolved value
 * `after` of a declared set of users and groups (synth checks a group named alone): it can be
 * such a set only here (users left out because they are deactivated) or as written, naming a
 * system group the setting does not allow.
 */
function checkResolvedSetting(
  p: Planner,
  name: string,
  info: PermissionSettingInfo,
  after: GroupSettingValue,
  address: string,
  path: string,
): void {
  if (typeof after !== 'string' || !isSystemGroupName(after)) return;
  const bad = disallowedSystemGroup(info, after);
  if (bad === undefined) return;
  p.errors.push(
    `${address} (${path}): permissions.${name} comes to '${bad}'${bad === 'role:nobody' ? ' (no user left: the users it names are deactivated or none)' : ''}, which Zulip refuses for this setting ("'${info.wire}' setting cannot be set to '${bad}' group."): name a group or user it allows`,
  );
}

const settingsOfTable = new WeakMap<
  Record<string, PermissionSettingInfo>,
  readonly (readonly [name: string, info: PermissionSettingInfo, property: string])[]
>();

/** A table's settings with their plan property names, listed once per table. */
function settingsOf(
  table: Record<string, PermissionSettingInfo>,
): readonly (readonly [name: string, info: PermissionSettingInfo, property: string])[] {
  let settings = settingsOfTable.get(table);
  if (!settings) {
    settings = Object.entries(table).map(([name, info]) => [name, info, `permissions.${name}`]);
    settingsOfTable.set(table, settings);
  }
  return settings;
}

function permissionSupported(p: Planner, info: PermissionSettingInfo): boolean {
  return info.feature === undefined || p.supports(info.feature);
}

/**
 * Effective permissions of an object this plan creates (`creator` is the applying account).
 * A declared value naming a group in `later` cannot be sent with the create (the group does
 * not exist yet: the object itself, or a new group whose create needs this one): the object
 * is created with Zulip's default and the value goes into `deferred`, an update after it.
 */
export function createPermissions(
  p: Planner,
  table: Record<string, PermissionSettingInfo>,
  declared: Partial<Record<string, GroupSettingValue>>,
  address: string,
  path: string,
  props: Props,
  later: ReadonlySet<string> = new Set(),
  deferred: PropertyChange[] = [],
): string[] {
  const refs: string[] = [];
  for (const [name, info] of Object.entries(table)) {
    if (!permissionSupported(p, info)) continue;
    const value = declared[name];
    const fallback =
      info.default === 'creator' ? creatorDefault(p.live.me.userId, p.idx.usersById) : info.default;
    const after = value !== undefined ? desiredGroupSetting(p, value, address, path) : fallback;
    if (typeof value === 'object') checkResolvedSetting(p, name, info, after, address, path);
    if (groupsIn(after).some((g) => later.has(g))) {
      props[`permissions.${name}`] = fallback;
      refs.push(...groupsIn(fallback));
      const old = wireOfDefault(p, fallback);
      deferred.push({
        property: `permissions.${name}`,
        before: fallback,
        after,
        wire: info.wire,
        ...(old !== undefined ? { old } : {}),
      });
      continue;
    }
    props[`permissions.${name}`] = after;
    refs.push(...groupsIn(after));
  }
  return refs;
}

/** The wire value Zulip gives a new object for a default (a system group, or `{creator}`). */
function wireOfDefault(p: Planner, value: GroupSettingValue): WireGroupSettingValue | undefined {
  if (typeof value === 'string') return p.idx.groupsByName.get(value)?.id;
  const users = value.users.map((email) => p.idx.user(email)?.id);
  if (value.groups.length > 0 || users.some((id) => id === undefined)) return undefined;
  return { direct_members: users as number[], direct_subgroups: [] };
}

/** Property changes of group settings on a live object. */
export function updatePermissions(
  p: Planner,
  table: Record<string, PermissionSettingInfo>,
  declared: Partial<Record<string, GroupSettingValue>>,
  live: { permissions: Record<string, LiveState['channels'][number]['permissions'][string]> },
  creatorId: number | null,
  lifecycle: Lifecycle | undefined,
  address: string,
  path: string,
  out: PropertyChange[],
  meta: { refs: string[]; releases: string[] },
): void {
  for (const [name, info, property] of settingsOf(table)) {
    if (!permissionSupported(p, info)) continue;
    const old = live.permissions[info.wire];
    if (old === undefined || isIgnored(lifecycle, property)) continue;
    const value = declared[name];
    let after: GroupSettingValue;
    if (value !== undefined) after = desiredGroupSetting(p, value, address, path);
    else if (info.default === 'creator') {
      // Without a known creator we cannot tell what Zulip's default was: leave it.
      if (creatorId === null) continue;
      after = creatorDefault(creatorId, p.idx.usersById);
    } else after = info.default;
    const before = p.idx.groupSettingToNatural(old);
    if (groupSettingsEqual(before, after)) continue;
    // Only a value that is sent: the register leaves deactivated users out of a live set, so a
    // declared set naming them may read as the system group Zulip refuses while it is unchanged.
    if (typeof value === 'object') checkResolvedSetting(p, name, info, after, address, path);
    out.push({ property, before, after, wire: info.wire, old });
    const afterGroups = groupsIn(after);
    meta.refs.push(...afterGroups);
    meta.releases.push(...groupsIn(before).filter((g) => !afterGroups.includes(g)));
  }
}
