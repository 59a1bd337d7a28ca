import { supports } from '../../model/features';
import { checkUserGroupName } from '../../model/rules';
import type { PermissionSettingInfo } from '../../model/permissions';
import {
  ApiError,
  badRequest,
  expectationMismatch,
  insufficientPermission,
  missingArgument,
} from '../errors';
import {
  accessSettingValue,
  canonicalSetting,
  channelSettingInfos,
  defaultSettingValue,
  groupSettingInfos,
  groupSettingShape,
  realmSettingInfo,
  settingUpdateShape,
  settingsEqual,
} from '../group-settings';
import type { SettingChangeRequest } from '../group-settings';
import {
  descendantGroups,
  directMembers,
  findGroup,
  findUser,
  holdsSetting,
  isGuest,
  recursiveMembers,
} from '../permissions';
import type { RequestContext, Route } from '../router';
import { PLAN_TYPES, nextId, realmPlanType } from '../state';
import type { StoredGroup, StoredGroupSetting, StoredUser } from '../state';
import { sendNotificationDm, silentUserMention } from '../system-bots';
import { groupToApi, settingToApi } from '../views';
import { beforeChange } from '../transaction';
import { listeningLevel } from '../events';
import {
  channelAccessBefore,
  sendGainedChannelEvents,
  sendLostChannelEvents,
} from '../group-channel-access';
import type { ChannelAccessBefore } from '../group-channel-access';
import { atomic, pathInt, requireMemberOrAdmin } from './common';

/**
 * A `user_group` event, to everyone. `with`/`without`: only to queues with / without the
 * `include_deactivated_groups` capability.
 */
function groupEvent(
  ctx: RequestContext,
  event: Record<string, unknown>,
  only: { with?: boolean; without?: boolean } = {},
): void {
  ctx.events.push({
    users: 'all',
    event: { type: 'user_group', ...event },
    ...(only.with ? { capability: 'include_deactivated_groups' } : {}),
    ...(only.without ? { withoutCapability: 'include_deactivated_groups' } : {}),
  });
}

/** The six group settings by wire name (for `allow_everyone_group`). */
function groupSettingInfo(wire: string): PermissionSettingInfo {
  const info = groupSettingInfos().find((i) => i.wire === wire);
  if (!info) throw new Error(`unknown group setting ${wire}`);
  return info;
}

/**
 * `user_has_permission_for_group_setting`: guests hold no setting that does not allow
 * `role:everyone`, whatever its value.
 */
function hasSettingPermission(
  ctx: RequestContext,
  value: StoredGroupSetting | undefined,
  info: PermissionSettingInfo,
): boolean {
  if (!info.allowEveryone && isGuest(ctx.user)) return false;
  return holdsSetting(ctx.org, ctx.user, value);
}

/** `UserProfile.can_manage_all_groups` / `can_create_user_groups` (`has_permission`). */
function hasRealmPermission(ctx: RequestContext, name: string): boolean {
  return hasSettingPermission(ctx, ctx.org.realm.settings[name], realmSettingInfo(name));
}

/** A named group by ID, or undefined (anonymous groups are no user groups). */
function namedGroup(ctx: RequestContext, id: number): StoredGroup | undefined {
  const g = findGroup(ctx.org, id);
  return !g || (!g.isSystemGroup && g.name === '') ? undefined : g;
}

/**
 * `get_user_group_by_id_in_realm`: "Invalid user group" unless a named group has this ID;
 * "User group is deactivated." for a deactivated one unless allowed.
 */
function groupById(ctx: RequestContext, id: number, allowDeactivated: boolean): StoredGroup {
  const g = namedGroup(ctx, id);
  if (!g) throw badRequest('Invalid user group');
  if (!allowDeactivated && g.deactivated) throw badRequest('User group is deactivated.');
  return g;
}

type GroupPermission =
  | 'can_add_members_group'
  | 'can_join_group'
  | 'can_leave_group'
  | 'can_manage_group'
  | 'can_remove_members_group';

/**
 * `access_user_group_for_update` (zerver/lib/user_groups.py): system groups are never editable;
 * realm `can_manage_all_groups` or the group's `can_manage_group` allow everything, else the
 * named permission must be held.
 */
function accessGroupForUpdate(
  ctx: RequestContext,
  id: number,
  permission: GroupPermission,
  allowDeactivated: boolean,
): StoredGroup {
  const g = groupById(ctx, id, allowDeactivated);
  if (g.isSystemGroup) throw insufficientPermission();
  if (hasRealmPermission(ctx, 'can_manage_all_groups')) return g;
  const manage = groupSettingInfo('can_manage_group');
  if (hasSettingPermission(ctx, g.settings.can_manage_group, manage)) return g;
  if (
    permission !== 'can_manage_group' &&
    hasSettingPermission(ctx, g.settings[permission], groupSettingInfo(permission))
  )
    return g;
  throw insufficientPermission();
}

/** `accessGroupForUpdate` with a fallback permission (joining or leaving oneself). */
function accessGroupForSelf(
  ctx: RequestContext,
  id: number,
  own: GroupPermission,
  others: GroupPermission,
  allowDeactivated: boolean,
): StoredGroup {
  try {
    return accessGroupForUpdate(ctx, id, own, allowDeactivated);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return accessGroupForUpdate(ctx, id, others, allowDeactivated);
  }
}

/** `user_ids_to_users(..., allow_deactivated=False)`: "Invalid user ID: N" for the first unknown or deactivated ID. */
function activeUsers(ctx: RequestContext, ids: number[]): StoredUser[] {
  const out: StoredUser[] = [];
  for (const id of ids) {
    const u = findUser(ctx.org, id);
    if (!u?.isActive) throw badRequest(`Invalid user ID: ${id}`);
    if (!out.includes(u)) out.push(u);
  }
  return out;
}

function checkNameFree(ctx: RequestContext, name: string, except?: StoredGroup): void {
  if (ctx.org.groups.some((g) => g.name === name && g !== except))
    throw badRequest(`User group '${name}' already exists.`);
}

/** `check_user_group_name`. */
function checkName(name: string): void {
  const problem = checkUserGroupName(name);
  if (problem) throw badRequest(problem);
}

/**
 * The subgroups `lock_subgroups_with_respect_to_supergroup` hands over: "Invalid user group ID:
 * N" for the first ID that is no named group, then "User group is deactivated." for a
 * deactivated one (`has_user_group_access_for_subgroup`).
 */
function subgroupsById(ctx: RequestContext, ids: number[]): StoredGroup[] {
  const found = ids.map((id) => namedGroup(ctx, id));
  const missing = ids.find((_, i) => found[i] === undefined);
  if (missing !== undefined) throw badRequest(`Invalid user group ID: ${missing}`);
  const groups = [...new Set(found as StoredGroup[])];
  if (groups.some((g) => g.deactivated)) throw badRequest('User group is deactivated.');
  return groups;
}

function listGroups(ctx: RequestContext): Record<string, unknown> {
  requireMemberOrAdmin(ctx);
  const includeDeactivated = ctx.params.bool('include_deactivated_groups') ?? false;
  return {
    user_groups: ctx.org.groups
      .filter((g) => includeDeactivated || !g.deactivated)
      .sort((a, b) => a.id - b.id)
      .map((g) => groupToApi(ctx.org, g)),
  };
}

/**
 * `add_user_group` (zerver/views/user_groups.py): `require_user_group_create_permission` runs
 * before the parameters are read; then the plan (`ensure_not_on_limited_plan`), the members,
 * the name, the settings, the name's uniqueness (`check_add_user_group`), the subgroups.
 * Creating a group with members notifies nobody; its subgroups are a second event.
 */
function createGroup(ctx: RequestContext): Record<string, unknown> {
  requireMemberOrAdmin(ctx);
  if (!hasRealmPermission(ctx, 'can_create_groups')) throw insufficientPermission();
  const p = ctx.params;
  const raw: Array<[PermissionSettingInfo, StoredGroupSetting]> = [];
  for (const info of groupSettingInfos()) {
    const v = p.json(info.wire);
    if (v !== undefined) raw.push([info, groupSettingShape(v, info.wire)]);
  }
  const description = p.requiredString('description');
  const members = p.intList('members');
  if (members === undefined) throw missingArgument('members');
  const name = p.requiredString('name');
  const subgroups = p.intList('subgroups') ?? [];
  if (realmPlanType(ctx.org.realm) === PLAN_TYPES.limited)
    throw badRequest('Available on Zulip Cloud Standard. Upgrade to access.');
  const users = activeUsers(ctx, members);
  checkName(name);
  const settings: Record<string, StoredGroupSetting> = {};
  for (const info of groupSettingInfos()) {
    const given = raw.find(([i]) => i === info);
    if (given) {
      const v = canonicalSetting(ctx.org, given[1]);
      accessSettingValue(ctx.org, info, v);
      settings[info.wire] = v;
    } else settings[info.wire] = defaultSettingValue(ctx.org, info, ctx.user);
  }
  checkNameFree(ctx, name);
  const subs = subgroups.length > 0 ? subgroupsById(ctx, subgroups) : [];
  const g: StoredGroup = {
    id: nextId(ctx.org),
    name,
    description,
    isSystemGroup: false,
    members: users.map((u) => u.id),
    subgroups: [],
    deactivated: false,
    creatorId: ctx.user.id,
    dateCreated: Math.floor(ctx.now / 1000),
    settings,
  };
  ctx.org.groups.push(g);
  // check_add_user_group announces the group without subgroups; add_subgroups_to_user_group
  // then adds them with its own event (no channel can name the new group yet).
  groupEvent(ctx, { op: 'add', group: groupToApi(ctx.org, g) });
  if (subs.length > 0) {
    g.subgroups = subs.map((s) => s.id);
    groupEvent(ctx, { op: 'add_subgroups', group_id: g.id, direct_subgroup_ids: [...g.subgroups] });
  }
  return supports(ctx.featureLevel, 'createGroupReturnsId') ? { group_id: g.id } : {};
}

/**
 * `edit_user_group`: parameters first (a setting must be `{new, old?}`), "No new data supplied",
 * access (`can_manage_group`, deactivated groups included), then name, description,
 * reactivation and each setting in Zulip's order. A setting's `old` is compared with the value
 * as the API reports it (`get_group_setting_value_for_api`: deactivated members left out), after
 * `parse_group_setting_value` (so an `old` of one subgroup and no members is that group's ID,
 * never equal to an anonymous value); `new` is checked only when it changes something.
 */
function updateGroup(ctx: RequestContext): Record<string, unknown> {
  requireMemberOrAdmin(ctx);
  const p = ctx.params;
  const updates: Array<[PermissionSettingInfo, SettingChangeRequest]> = [];
  for (const info of groupSettingInfos()) {
    const v = p.json(info.wire);
    if (v !== undefined) updates.push([info, settingUpdateShape(v, info.wire)]);
  }
  const deactivated = supports(ctx.featureLevel, 'groupReactivation')
    ? p.bool('deactivated')
    : undefined;
  const description = p.string('description');
  const name = p.string('name');
  if (
    name === undefined &&
    description === undefined &&
    deactivated === undefined &&
    updates.length === 0
  )
    throw badRequest('No new data supplied');
  const g = accessGroupForUpdate(ctx, pathInt(ctx, 'user_group_id'), 'can_manage_group', true);
  return atomic(ctx, () => {
    beforeChange(ctx, g);
    // One `update` event per change, as each do_* action sends its own
    // (do_send_user_group_update_event); a deactivated group's rename only reaches queues with
    // `include_deactivated_groups`.
    const update = (data: Record<string, unknown>, only: { with?: boolean } = {}): void =>
      groupEvent(ctx, { op: 'update', group_id: g.id, data }, only);
    if (name !== undefined && name !== g.name) {
      checkName(name);
      checkNameFree(ctx, name, g);
      g.name = name;
      update({ name }, { with: g.deactivated });
    }
    if (description !== undefined && description !== g.description) {
      g.description = description;
      update({ description });
    }
    if (deactivated === false && g.deactivated) {
      g.deactivated = false;
      update({ deactivated: false });
      groupEvent(ctx, { op: 'add', group: groupToApi(ctx.org, g) }, { without: true });
    }
    for (const [info, req] of updates) {
      const stored = g.settings[info.wire] as StoredGroupSetting;
      const current = settingToApi(ctx.org, stored) ?? stored;
      const next = canonicalSetting(ctx.org, req.new);
      // validate_group_setting_value_change
      if (req.old !== undefined && !settingsEqual(canonicalSetting(ctx.org, req.old), current))
        throw expectationMismatch();
      if (settingsEqual(next, current)) continue;
      accessSettingValue(ctx.org, info, next);
      g.settings[info.wire] = next;
      update({ [info.wire]: settingToApi(ctx.org, next) });
    }
    return {};
  });
}

/**
 * `notify_for_user_group_subscription_changes` (zerver/views/user_groups.py): the Notification
 * Bot tells each user added or removed, except the acting user and bots.
 */
function notifyMembershipChange(
  ctx: RequestContext,
  users: StoredUser[],
  g: StoredGroup,
  added: boolean,
): void {
  const who = silentUserMention(ctx.user);
  const group = `@_*${g.name}*`;
  for (const u of users) {
    if (u.id === ctx.user.id || u.isBot) continue;
    sendNotificationDm(
      ctx,
      u,
      added
        ? `${who} added you to the group ${group}.`
        : `${who} removed you from the group ${group}.`,
    );
  }
}

/**
 * Before a change to `g`'s members or subgroups that changes the memberships of the users
 * `readIds` lists: the channels whose metadata access it may change, and who saw them, when a
 * queue may be told (group-channel-access.ts). The actions send the channel events after their
 * `user_group` event.
 */
function watchChannels(
  ctx: RequestContext,
  g: StoredGroup,
  readIds: () => readonly number[],
): ChannelAccessBefore | undefined {
  return channelAccessBefore(ctx.org, listeningLevel(ctx), [g.id], readIds);
}

/** The users whose memberships a change of these subgroups changes: their members, recursively. */
function subgroupMembers(ctx: RequestContext, subs: readonly StoredGroup[]): number[] {
  const ids = new Set<number>();
  for (const s of subs) for (const id of recursiveMembers(ctx.org, s.id)) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

/** Deactivated groups' members and subgroups are editable from FL 391. */
function membersOfDeactivatedEditable(ctx: RequestContext): boolean {
  return supports(ctx.featureLevel, 'deactivatedGroupMembersEditable');
}

/** `add_members_to_group_backend`. */
function addMembers(ctx: RequestContext, groupId: number, members: number[]): void {
  const allow = membersOfDeactivatedEditable(ctx);
  const g =
    members.length === 1 && members[0] === ctx.user.id
      ? accessGroupForSelf(ctx, groupId, 'can_join_group', 'can_add_members_group', allow)
      : accessGroupForUpdate(ctx, groupId, 'can_add_members_group', allow);
  const users = activeUsers(ctx, members);
  for (const u of users)
    if (g.members.includes(u.id))
      throw badRequest(`User ${u.id} is already a member of this group`);
  const ids = users.map((u) => u.id);
  const access = watchChannels(ctx, g, () => ids);
  beforeChange(ctx, g).members.push(...ids);
  groupEvent(ctx, { op: 'add_members', group_id: g.id, user_ids: ids });
  sendGainedChannelEvents(ctx.org, ctx.events, access);
  notifyMembershipChange(ctx, users, g, true);
}

/** `remove_members_from_group_backend`: the users are checked before the access. */
function removeMembers(ctx: RequestContext, groupId: number, members: number[]): void {
  const users = activeUsers(ctx, members);
  const allow = membersOfDeactivatedEditable(ctx);
  const g =
    members.length === 1 && members[0] === ctx.user.id
      ? accessGroupForSelf(ctx, groupId, 'can_leave_group', 'can_remove_members_group', allow)
      : accessGroupForUpdate(ctx, groupId, 'can_remove_members_group', allow);
  const direct = directMembers(ctx.org, g);
  for (const m of members)
    if (!direct.includes(m)) throw badRequest(`There is no member '${m}' in this user group`);
  const ids = users.map((u) => u.id);
  const access = watchChannels(ctx, g, () => ids);
  beforeChange(ctx, g).members = g.members.filter((x) => !ids.includes(x));
  groupEvent(ctx, { op: 'remove_members', group_id: g.id, user_ids: ids });
  sendLostChannelEvents(ctx.org, ctx.events, access);
  notifyMembershipChange(ctx, users, g, false);
}

/** The group whose subgroups change, accessed by `setting`, and the subgroups named. */
function subgroupChange(
  ctx: RequestContext,
  groupId: number,
  ids: number[],
  setting: 'can_add_members_group' | 'can_manage_group',
): { g: StoredGroup; subs: StoredGroup[] } {
  const g = accessGroupForUpdate(ctx, groupId, setting, membersOfDeactivatedEditable(ctx));
  return { g, subs: subgroupsById(ctx, ids) };
}

/**
 * `add_subgroups_to_group_backend`: access by `can_add_members_group`, then the subgroups, then
 * "already a subgroup of this group", then cycles (the message names the supergroup).
 */
function addSubgroups(ctx: RequestContext, groupId: number, ids: number[]): void {
  const { g, subs } = subgroupChange(ctx, groupId, ids, 'can_add_members_group');
  for (const s of subs)
    if (g.subgroups.includes(s.id))
      throw badRequest(`User group ${s.id} is already a subgroup of this group.`);
  if (subs.some((s) => descendantGroups(ctx.org, s.id).has(g.id)))
    throw badRequest(`User group ${g.id} is already a subgroup of one of the passed subgroups.`);
  const access = watchChannels(ctx, g, () => subgroupMembers(ctx, subs));
  beforeChange(ctx, g).subgroups.push(...subs.map((s) => s.id));
  groupEvent(ctx, {
    op: 'add_subgroups',
    group_id: g.id,
    direct_subgroup_ids: subs.map((s) => s.id),
  });
  sendGainedChannelEvents(ctx.org, ctx.events, access);
}

/** `remove_subgroups_from_group_backend`: access by `can_manage_group` (not `can_remove_members_group`). */
function removeSubgroups(ctx: RequestContext, groupId: number, ids: number[]): void {
  const { g, subs } = subgroupChange(ctx, groupId, ids, 'can_manage_group');
  for (const s of subs)
    if (!g.subgroups.includes(s.id))
      throw badRequest(`User group ${s.id} is not a subgroup of this group.`);
  const drop = subs.map((s) => s.id);
  const access = watchChannels(ctx, g, () => subgroupMembers(ctx, subs));
  beforeChange(ctx, g).subgroups = g.subgroups.filter((x) => !drop.includes(x));
  groupEvent(ctx, { op: 'remove_subgroups', group_id: g.id, direct_subgroup_ids: drop });
  sendLostChannelEvents(ctx.org, ctx.events, access);
}

/** `update_user_group_backend`: add, delete, add_subgroups, delete_subgroups, in one transaction. */
function updateMembers(ctx: RequestContext): Record<string, unknown> {
  requireMemberOrAdmin(ctx);
  const p = ctx.params;
  const withSubgroups = supports(ctx.featureLevel, 'addSubgroupsOnMembers');
  const add = p.intList('add') ?? [];
  const addSub = withSubgroups ? (p.intList('add_subgroups') ?? []) : [];
  const del = p.intList('delete') ?? [];
  const delSub = withSubgroups ? (p.intList('delete_subgroups') ?? []) : [];
  if (add.length + del.length + addSub.length + delSub.length === 0)
    throw badRequest(
      withSubgroups
        ? 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'
        : 'Nothing to do. Specify at least one of "add" or "delete".',
    );
  const id = pathInt(ctx, 'user_group_id');
  return atomic(ctx, () => {
    if (add.length > 0) addMembers(ctx, id, add);
    if (del.length > 0) removeMembers(ctx, id, del);
    if (addSub.length > 0) addSubgroups(ctx, id, addSub);
    if (delSub.length > 0) removeSubgroups(ctx, id, delSub);
    return {};
  });
}

/** `update_subgroups_of_user_group`: add, then delete, in one transaction. */
function updateSubgroups(ctx: RequestContext): Record<string, unknown> {
  requireMemberOrAdmin(ctx);
  const p = ctx.params;
  const add = p.intList('add') ?? [];
  const del = p.intList('delete') ?? [];
  if (add.length + del.length === 0)
    throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  const id = pathInt(ctx, 'user_group_id');
  return atomic(ctx, () => {
    if (add.length > 0) addSubgroups(ctx, id, add);
    if (del.length > 0) removeSubgroups(ctx, id, del);
    return {};
  });
}

/**
 * Where a group is used (`check_user_group_can_be_deactivated`): active named supergroups,
 * then settings of active channels, of active groups (the group itself included: Zulip does
 * not exclude it) and of the realm that name it, directly or as a subgroup of an anonymous value.
 */
export function groupObjections(
  ctx: RequestContext,
  g: StoredGroup,
): Array<Record<string, unknown>> {
  const { org } = ctx;
  const uses = (v: StoredGroupSetting | undefined): boolean =>
    v !== undefined && (typeof v === 'number' ? v === g.id : v.direct_subgroups.includes(g.id));
  const out: Array<Record<string, unknown>> = [];
  const supergroups = org.groups
    .filter((x) => !x.isSystemGroup && !x.deactivated && x.subgroups.includes(g.id))
    .map((x) => x.id)
    .sort((a, b) => a - b);
  if (supergroups.length > 0) out.push({ type: 'subgroup', supergroup_ids: supergroups });
  const channelOrder = channelSettingInfos(ctx.featureLevel).map((i) => i.wire);
  for (const ch of [...org.channels].sort((a, b) => a.id - b.id)) {
    if (ch.isArchived) continue;
    const settings = inOrder(Object.keys(ch.settings), channelOrder).filter((k) =>
      uses(ch.settings[k]),
    );
    if (settings.length > 0) out.push({ type: 'channel', channel_id: ch.id, settings });
  }
  const groupOrder = groupSettingInfos().map((i) => i.wire);
  for (const other of [...org.groups].sort((a, b) => a.id - b.id)) {
    if (other.deactivated) continue;
    const settings = inOrder(Object.keys(other.settings), groupOrder).filter((k) =>
      uses(other.settings[k]),
    );
    if (settings.length > 0) out.push({ type: 'user_group', group_id: other.id, settings });
  }
  // Realm.REALM_PERMISSION_GROUP_SETTINGS: create_multiuse_invite_group, then alphabetical.
  const realmSettings = inOrder(Object.keys(org.realm.settings), [
    'create_multiuse_invite_group',
  ]).filter((k) => uses(org.realm.settings[k]));
  if (realmSettings.length > 0) out.push({ type: 'realm', settings: realmSettings });
  return out;
}

/** `keys` with those in `order` first (in that order), the rest alphabetically. */
function inOrder(keys: string[], order: string[]): string[] {
  const rank = (k: string): number => {
    const i = order.indexOf(k);
    return i < 0 ? order.length : i;
  };
  return [...keys].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * `deactivate_user_group`: no `require_member_or_admin` (bots with the permission may, guests
 * fail the permission check); an already deactivated group is "User group is deactivated.".
 */
function deactivateGroup(ctx: RequestContext): Record<string, unknown> {
  const g = accessGroupForUpdate(ctx, pathInt(ctx, 'user_group_id'), 'can_manage_group', false);
  const objections = groupObjections(ctx, g);
  if (objections.length > 0)
    throw new ApiError('Cannot deactivate user group in use.', {
      code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
      data: { objections },
    });
  g.deactivated = true;
  groupEvent(ctx, { op: 'update', group_id: g.id, data: { deactivated: true } }, { with: true });
  groupEvent(ctx, { op: 'remove', group_id: g.id }, { without: true });
  return {};
}

/** `access_user_group_to_read_membership`: deactivated groups are refused. */
function groupToRead(ctx: RequestContext): StoredGroup {
  return groupById(ctx, pathInt(ctx, 'user_group_id'), false);
}

/**
 * What the two membership reads check first, in Zulip's order: the caller (members and
 * administrators), `direct_member_only`, the group (`access_user_group_to_read_membership`).
 * Returns the reader of the group's members (`get_user_group_member_ids`).
 */
function membersToRead(ctx: RequestContext): () => number[] {
  requireMemberOrAdmin(ctx);
  const direct = ctx.params.bool('direct_member_only') ?? false;
  const g = groupToRead(ctx);
  return () => (direct ? directMembers(ctx.org, g) : recursiveMembers(ctx.org, g.id));
}

/** `get_user_group_members`. */
function getMembers(ctx: RequestContext): Record<string, unknown> {
  return { members: membersToRead(ctx)() };
}

/** `get_is_user_group_member`. */
function isMember(ctx: RequestContext): Record<string, unknown> {
  const members = membersToRead(ctx);
  // access_user_by_id(for_admin=False): bots are "No such user" too.
  const uid = pathInt(ctx, 'user_id');
  const u = findUser(ctx.org, uid);
  if (!u || u.isBot) throw badRequest('No such user');
  if (!u.isActive) throw badRequest('User is deactivated');
  return { is_user_group_member: members().includes(uid) };
}

/** `get_subgroups_of_user_group`: direct subgroups, or every subgroup through subgroups. */
function getSubgroups(ctx: RequestContext): Record<string, unknown> {
  requireMemberOrAdmin(ctx);
  const direct = ctx.params.bool('direct_subgroup_only') ?? false;
  const g = groupToRead(ctx);
  const ids = direct
    ? [...g.subgroups]
    : [...descendantGroups(ctx.org, g.id)].filter((x) => x !== g.id);
  return { subgroups: ids.sort((a, b) => a - b) };
}

/** User-group routes. */
export const userGroupRoutes: Route[] = [
  { method: 'GET', path: '/user_groups', handler: listGroups },
  { method: 'POST', path: '/user_groups/create', handler: createGroup },
  { method: 'PATCH', path: '/user_groups/{user_group_id}', handler: updateGroup },
  { method: 'POST', path: '/user_groups/{user_group_id}/members', handler: updateMembers },
  { method: 'POST', path: '/user_groups/{user_group_id}/subgroups', handler: updateSubgroups },
  { method: 'POST', path: '/user_groups/{user_group_id}/deactivate', handler: deactivateGroup },
  { method: 'GET', path: '/user_groups/{user_group_id}/members', handler: getMembers },
  { method: 'GET', path: '/user_groups/{user_group_id}/members/{user_id}', handler: isMember },
  { method: 'GET', path: '/user_groups/{user_group_id}/subgroups', handler: getSubgroups },
];
