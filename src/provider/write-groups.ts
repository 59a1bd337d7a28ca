import { ZulipCdkError } from '../model/errors';
import { GROUP_PERMISSIONS } from '../model/permissions';
import type { ApplyContext } from '../engine/apply';
import type { CreateChange, MembershipChange, UpdateChange } from '../engine/plan-format';
import type { ZulipClient } from '../zulip/client';
import type { GroupSettingParam, GroupSettingUpdate } from '../zulip/wire/common';
import type { UserGroupSettingName } from '../zulip/wire/user-group';
import { createdId, text, withOld } from './write-values';

function wireOf(property: string): UserGroupSettingName | undefined {
  const name = property.startsWith('permissions.') ? property.slice('permissions.'.length) : '';
  const info = (GROUP_PERMISSIONS as Record<string, { wire: string } | undefined>)[name];
  return info?.wire as UserGroupSettingName | undefined;
}

function subgroupId(ctx: ApplyContext, g: { name: string; id: number | null }): number {
  return g.id ?? ctx.groupId(g.name);
}

/**
 * Creates a group with its members, subgroups and all six settings in one
 * `POST /user_groups/create` (atomic). Returns the new group's ID.
 */
export async function createGroup(
  client: ZulipClient,
  change: CreateChange,
  ctx: ApplyContext,
  fold: MembershipChange | undefined,
): Promise<number> {
  const p = change.properties;
  const settings: Partial<Record<UserGroupSettingName, GroupSettingParam>> = {};
  for (const [property, value] of Object.entries(p)) {
    const wire = wireOf(property);
    if (wire !== undefined) settings[wire] = ctx.wireGroupSetting(value);
  }
  const subgroups = (fold?.addSubgroups ?? []).map((g) => subgroupId(ctx, g));
  const res = await client.createUserGroup({
    name: typeof p.name === 'string' ? p.name : change.key,
    description: typeof p.description === 'string' ? p.description : '',
    members: (fold?.add ?? []).map((u) => u.id),
    ...(subgroups.length > 0 ? { subgroups } : {}),
    ...settings,
  });
  if (res.group_id !== undefined) return res.group_id;
  // Before FL 317 the response has no ID: find it by name (names are unique).
  const groups = await client.getUserGroups({ include_deactivated_groups: true });
  const g = groups.user_groups.find((x) => x.name === change.key);
  return createdId(g?.id, `The group '${change.key}'`);
}

/** One atomic `PATCH /user_groups/{id}`: description and settings as `{new, old}`. */
export async function updateGroup(
  client: ZulipClient,
  change: UpdateChange,
  ctx: ApplyContext,
): Promise<void> {
  const id = change.liveId ?? ctx.groupId(change.key);
  const params: Record<string, string | GroupSettingUpdate> = {};
  for (const p of change.properties) {
    const wire = wireOf(p.property);
    if (wire !== undefined) {
      params[wire] = {
        new: ctx.wireGroupSetting(p.after),
        ...withOld(p.old),
      };
    } else if (p.property === 'description' || p.property === 'name') {
      params[p.property] = text(p.after);
    } else
      throw new ZulipCdkError(
        'PLAN_INVALID',
        `The plan changes a user-group property zulip-cdk cannot write: ${p.property}`,
      );
  }
  await client.updateUserGroup(id, params);
}

/** All member and subgroup changes of one group in one `POST /user_groups/{id}/members`. */
export async function updateGroupMembers(
  client: ZulipClient,
  change: MembershipChange,
  ctx: ApplyContext,
): Promise<void> {
  const id = change.liveId ?? ctx.groupId(change.key);
  const add = change.add.map((u) => u.id);
  const del = change.remove.map((u) => u.id);
  const addSub = change.addSubgroups.map((g) => subgroupId(ctx, g));
  const delSub = change.removeSubgroups.map((g) => subgroupId(ctx, g));
  await client.updateUserGroupMembers(id, {
    ...(add.length > 0 ? { add } : {}),
    ...(del.length > 0 ? { delete: del } : {}),
    ...(addSub.length > 0 ? { add_subgroups: addSub } : {}),
    ...(delSub.length > 0 ? { delete_subgroups: delSub } : {}),
  });
}
