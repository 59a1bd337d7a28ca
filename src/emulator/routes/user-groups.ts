import { checkUserGroupName } from '../../model/rules';
import { ApiError, badRequest, insufficientPermission, missingArgument } from '../errors';
import {
  checkAllowed,
  defaultSettingValue,
  groupSettingInfos,
  parseGroupSettingValue,
  parseSettingUpdate,
  settingsEqual,
} from '../group-settings';
import type { Params } from '../params';
import {
  descendantGroups,
  directMembers,
  findGroup,
  holdsRealmSetting,
  holdsSetting,
  recursiveMembers,
} from '../permissions';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { StoredGroup, StoredGroupSetting } from '../state';
import { groupToApi, settingToApi } from '../views';
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

function accessGroup(ctx: RequestContext, id: number): StoredGroup {
  const g = findGroup(ctx.org, id);
  if (!g || (!g.isSystemGroup && g.name === '')) throw badRequest('Invalid user group');
  return g;
}

function canManage(ctx: RequestContext, g: StoredGroup): boolean {
  return (
    holdsRealmSetting(ctx.org, ctx.user, 'can_manage_all_groups') ||
    holdsSetting(ctx.org, ctx.user, g.settings.can_manage_group)
  );
}

/** A group to edit: not a system group ("Insufficient permission"). */
function accessGroupForEdit(ctx: RequestContext, id: number): StoredGroup {
  const g = accessGroup(ctx, id);
  if (g.isSystemGroup) throw insufficientPermission();
  return g;
}

function checkNameFree(ctx: RequestContext, name: string, except?: StoredGroup): void {
  const problem = checkUserGroupName(name);
  if (problem) throw badRequest(problem);
  if (ctx.org.groups.some((g) => g.name === name && g !== except))
    throw badRequest(`User group '${name}' already exists.`);
}

function intList(p: Params, name: string): number[] | undefined {
  return p.intList(name);
}

function checkUsers(ctx: RequestContext, ids: number[]): void {
  for (const id of ids) {
    const u = ctx.org.users.find((x) => x.id === id);
    if (!u) throw badRequest(`Invalid user ID: ${id}`);
    if (!u.isActive) throw badRequest('User is deactivated');
  }
}

function checkSubgroups(ctx: RequestContext, ids: number[]): StoredGroup[] {
  return ids.map((id) => {
    const g = findGroup(ctx.org, id);
    if (!g || (!g.isSystemGroup && g.name === '')) throw badRequest(`Invalid user group ID: ${id}`);
    return g;
  });
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

function createGroup(ctx: RequestContext): Record<string, unknown> {
  requireMemberOrAdmin(ctx);
  const p = ctx.params;
  const name = p.requiredString('name');
  const description = p.requiredString('description');
  const members = intList(p, 'members');
  if (members === undefined) throw missingArgument('members');
  const subgroups = intList(p, 'subgroups') ?? [];
  const raw: Array<[string, unknown]> = [];
  for (const info of groupSettingInfos()) {
    const v = p.json(info.wire);
    if (v !== undefined) raw.push([info.wire, v]);
  }
  if (!holdsRealmSetting(ctx.org, ctx.user, 'can_create_groups')) throw insufficientPermission();
  checkNameFree(ctx, name);
  checkUsers(ctx, members);
  checkSubgroups(ctx, subgroups);
  const settings: Record<string, StoredGroupSetting> = {};
  for (const info of groupSettingInfos()) {
    const given = raw.find(([k]) => k === info.wire);
    if (given) {
      const v = parseGroupSettingValue(ctx.org, given[1], info.wire);
      checkAllowed(ctx.org, info, v);
      settings[info.wire] = v;
    } else settings[info.wire] = defaultSettingValue(ctx.org, info, ctx.user);
  }
  const g: StoredGroup = {
    id: nextId(ctx.org),
    name,
    description,
    isSystemGroup: false,
    members: [...new Set(members)],
    subgroups: [...new Set(subgroups)],
    deactivated: false,
    creatorId: ctx.user.id,
    dateCreated: Math.floor(ctx.now / 1000),
    settings,
  };
  ctx.org.groups.push(g);
  groupEvent(ctx, { op: 'add', group: groupToApi(ctx.org, g) });
  return ctx.featureLevel >= 317 ? { group_id: g.id } : {};
}

function updateGroup(ctx: RequestContext): Record<string, unknown> {
  requireMemberOrAdmin(ctx);
  const p = ctx.params;
  const g = accessGroupForEdit(ctx, pathInt(ctx, 'user_group_id'));
  const name = p.string('name');
  const description = p.string('description');
  const deactivated = ctx.featureLevel >= 386 ? p.bool('deactivated') : undefined;
  const updates: Array<[ReturnType<typeof groupSettingInfos>[number], unknown]> = [];
  for (const info of groupSettingInfos()) {
    const v = p.json(info.wire);
    if (v !== undefined) updates.push([info, v]);
  }
  if (
    name === undefined &&
    description === undefined &&
    deactivated === undefined &&
    updates.length === 0
  )
    throw badRequest('No new data supplied');
  if (!canManage(ctx, g)) throw insufficientPermission();
  return atomic(ctx, () => {
    const data: Record<string, unknown> = {};
    if (name !== undefined && name !== g.name) {
      checkNameFree(ctx, name, g);
      g.name = name;
      data.name = name;
    }
    if (description !== undefined && description !== g.description) {
      g.description = description;
      data.description = description;
    }
    for (const [info, raw] of updates) {
      const current = g.settings[info.wire] as StoredGroupSetting;
      const next = parseSettingUpdate(
        ctx.org,
        raw,
        info,
        settingToApi(ctx.org, current) ?? current,
      );
      if (settingsEqual(next, current)) continue;
      g.settings[info.wire] = next;
      data[info.wire] = settingToApi(ctx.org, next);
    }
    if (deactivated === false && g.deactivated) {
      g.deactivated = false;
      data.deactivated = false;
      groupEvent(ctx, { op: 'add', group: groupToApi(ctx.org, g) }, { without: true });
    }
    if (Object.keys(data).length > 0) groupEvent(ctx, { op: 'update', group_id: g.id, data });
    return {};
  });
}

function updateMembers(ctx: RequestContext): Record<string, unknown> {
  requireMemberOrAdmin(ctx);
  const p = ctx.params;
  const g = accessGroupForEdit(ctx, pathInt(ctx, 'user_group_id'));
  const add = intList(p, 'add') ?? [];
  const del = intList(p, 'delete') ?? [];
  const withSubgroups = ctx.featureLevel >= 311;
  const addSub = withSubgroups ? (intList(p, 'add_subgroups') ?? []) : [];
  const delSub = withSubgroups ? (intList(p, 'delete_subgroups') ?? []) : [];
  if (add.length + del.length + addSub.length + delSub.length === 0)
    throw badRequest(
      withSubgroups
        ? 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'
        : 'Nothing to do. Specify at least one of "add" or "delete".',
    );
  if (g.deactivated && ctx.featureLevel < 391) throw badRequest('User group is deactivated.');
  const manage = canManage(ctx, g);
  const me = ctx.user.id;
  const addOthers = add.some((u) => u !== me) || addSub.length > 0;
  if (addOthers && !manage && !holdsSetting(ctx.org, ctx.user, g.settings.can_add_members_group))
    throw insufficientPermission();
  if (
    add.includes(me) &&
    !manage &&
    !holdsSetting(ctx.org, ctx.user, g.settings.can_join_group) &&
    !holdsSetting(ctx.org, ctx.user, g.settings.can_add_members_group)
  )
    throw insufficientPermission();
  const delOthers = del.some((u) => u !== me) || delSub.length > 0;
  if (delOthers && !manage && !holdsSetting(ctx.org, ctx.user, g.settings.can_remove_members_group))
    throw insufficientPermission();
  if (
    del.includes(me) &&
    !manage &&
    !holdsSetting(ctx.org, ctx.user, g.settings.can_leave_group) &&
    !holdsSetting(ctx.org, ctx.user, g.settings.can_remove_members_group)
  )
    throw insufficientPermission();
  return atomic(ctx, () => {
    if (add.length > 0) {
      checkUsers(ctx, add);
      for (const u of add) {
        if (g.members.includes(u) && directMembers(ctx.org, g).includes(u))
          throw badRequest(`User ${u} is already a member of this group`);
        g.members.push(u);
      }
    }
    if (del.length > 0) {
      for (const u of del) {
        if (!ctx.org.users.some((x) => x.id === u)) throw badRequest(`Invalid user ID: ${u}`);
        if (!directMembers(ctx.org, g).includes(u))
          throw badRequest(`There is no member '${u}' in this user group`);
        g.members = g.members.filter((x) => x !== u);
      }
    }
    addSubgroups(ctx, g, addSub);
    deleteSubgroups(ctx, g, delSub);
    if (add.length > 0) groupEvent(ctx, { op: 'add_members', group_id: g.id, user_ids: add });
    if (del.length > 0) groupEvent(ctx, { op: 'remove_members', group_id: g.id, user_ids: del });
    return {};
  });
}

function addSubgroups(ctx: RequestContext, g: StoredGroup, ids: number[]): void {
  if (ids.length === 0) return;
  const subs = checkSubgroups(ctx, ids);
  for (const s of subs) {
    if (g.subgroups.includes(s.id))
      throw badRequest(`User group ${s.id} is already a subgroup of this group.`);
  }
  for (const s of subs) {
    if (descendantGroups(ctx.org, s.id).has(g.id))
      throw badRequest(`User group ${s.id} is already a subgroup of one of the passed subgroups.`);
    g.subgroups.push(s.id);
  }
  groupEvent(ctx, { op: 'add_subgroups', group_id: g.id, direct_subgroup_ids: ids });
}

function deleteSubgroups(ctx: RequestContext, g: StoredGroup, ids: number[]): void {
  if (ids.length === 0) return;
  checkSubgroups(ctx, ids);
  for (const id of ids) {
    if (!g.subgroups.includes(id))
      throw badRequest(`User group ${id} is not a subgroup of this group.`);
    g.subgroups = g.subgroups.filter((x) => x !== id);
  }
  groupEvent(ctx, { op: 'remove_subgroups', group_id: g.id, direct_subgroup_ids: ids });
}

function updateSubgroups(ctx: RequestContext): Record<string, unknown> {
  requireMemberOrAdmin(ctx);
  const p = ctx.params;
  const g = accessGroupForEdit(ctx, pathInt(ctx, 'user_group_id'));
  const add = intList(p, 'add') ?? [];
  const del = intList(p, 'delete') ?? [];
  if (add.length + del.length === 0)
    throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  if (g.deactivated && ctx.featureLevel < 391) throw badRequest('User group is deactivated.');
  const manage = canManage(ctx, g);
  if (
    add.length > 0 &&
    !manage &&
    !holdsSetting(ctx.org, ctx.user, g.settings.can_add_members_group)
  )
    throw insufficientPermission();
  if (
    del.length > 0 &&
    !manage &&
    !holdsSetting(ctx.org, ctx.user, g.settings.can_remove_members_group)
  )
    throw insufficientPermission();
  return atomic(ctx, () => {
    addSubgroups(ctx, g, add);
    deleteSubgroups(ctx, g, del);
    return {};
  });
}

/** Where a group is used (`access_user_group_for_deactivation`'s objections). */
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
  for (const ch of org.channels) {
    if (ch.isArchived) continue;
    const settings = Object.keys(ch.settings)
      .filter((k) => uses(ch.settings[k]))
      .sort();
    if (settings.length > 0) out.push({ type: 'channel', channel_id: ch.id, settings });
  }
  for (const other of org.groups) {
    if (other.id === g.id || other.deactivated) continue;
    const settings = Object.keys(other.settings)
      .filter((k) => uses(other.settings[k]))
      .sort();
    if (settings.length > 0) out.push({ type: 'user_group', group_id: other.id, settings });
  }
  const realmSettings = Object.keys(org.realm.settings)
    .filter((k) => uses(org.realm.settings[k]))
    .sort();
  if (realmSettings.length > 0) out.push({ type: 'realm', settings: realmSettings });
  return out;
}

function deactivateGroup(ctx: RequestContext): Record<string, unknown> {
  requireMemberOrAdmin(ctx);
  const g = accessGroupForEdit(ctx, pathInt(ctx, 'user_group_id'));
  if (!canManage(ctx, g)) throw insufficientPermission();
  if (g.deactivated) throw badRequest('User group is already deactivated.');
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

/** User-group routes. */
export const userGroupRoutes: Route[] = [
  { method: 'GET', path: '/user_groups', handler: listGroups },
  { method: 'POST', path: '/user_groups/create', handler: createGroup },
  { method: 'PATCH', path: '/user_groups/{user_group_id}', handler: updateGroup },
  { method: 'POST', path: '/user_groups/{user_group_id}/members', handler: updateMembers },
  { method: 'POST', path: '/user_groups/{user_group_id}/subgroups', handler: updateSubgroups },
  { method: 'POST', path: '/user_groups/{user_group_id}/deactivate', handler: deactivateGroup },
  {
    method: 'GET',
    path: '/user_groups/{user_group_id}/members',
    handler: (ctx) => {
      requireMemberOrAdmin(ctx);
      const g = accessGroup(ctx, pathInt(ctx, 'user_group_id'));
      const direct = ctx.params.bool('direct_member_only') ?? false;
      return { members: direct ? directMembers(ctx.org, g) : recursiveMembers(ctx.org, g.id) };
    },
  },
  {
    method: 'GET',
    path: '/user_groups/{user_group_id}/members/{user_id}',
    handler: (ctx) => {
      requireMemberOrAdmin(ctx);
      const g = accessGroup(ctx, pathInt(ctx, 'user_group_id'));
      const uid = pathInt(ctx, 'user_id');
      const u = ctx.org.users.find((x) => x.id === uid);
      if (!u) throw badRequest('No such user');
      const direct = ctx.params.bool('direct_member_only') ?? false;
      const members = direct ? directMembers(ctx.org, g) : recursiveMembers(ctx.org, g.id);
      return { is_user_group_member: members.includes(uid) };
    },
  },
  {
    method: 'GET',
    path: '/user_groups/{user_group_id}/subgroups',
    handler: (ctx) => {
      requireMemberOrAdmin(ctx);
      const g = accessGroup(ctx, pathInt(ctx, 'user_group_id'));
      const direct = ctx.params.bool('direct_subgroup_only') ?? false;
      const ids = direct
        ? [...g.subgroups]
        : [...descendantGroups(ctx.org, g.id)].filter((x) => x !== g.id);
      return { subgroups: ids.sort((a, b) => a - b) };
    },
  },
];
