/**
 * User groups, planned by the generic keyed planner (`./keyed.ts`) with the hooks below:
 * permissions (settings naming groups created later deferred to an update), members, and the
 * release of a group's own settings before it is deactivated. The expansion of a group into
 * the users it holds after the plan, and its members, are in `./cross-kind.ts`.
 */
import type { DesiredUserGroup } from '../../model/desired-state';
import { creatorDefault, isSystemGroupName } from '../../model/kinds';
import type { LiveUserGroup } from '../../model/live-state';
import { GROUP_PERMISSIONS } from '../../model/permissions';
import type { PermissionSettingInfo } from '../../model/permissions';
import type { Change, PropertyChange } from '../plan-format';
import type { KeyedPlan } from './keyed';
import { groupMembership, groupsCreatedLater } from './cross-kind';
import type { Planner } from './planner';
import { groupAddress, groupsIn } from './planner';
import { createPermissions, updatePermissions } from './permissions';

/** User groups, for the generic keyed planner (one per plan: it knows the groups created later). */
export function userGroups(p: Planner): KeyedPlan<DesiredUserGroup, LiveUserGroup> {
  const createdLater = groupsCreatedLater(p);
  return {
    kind: 'userGroup',
    unmanaged: (l) => l.isSystemGroup || l.deactivated,
    match: (p, d) => p.groupMatch.get(d.name) ?? undefined,
    check: (p, d, base) => {
      if (!isSystemGroupName(d.name)) return true;
      p.errors.push(`${base.address} (${d.path}): system groups cannot be declared`);
      return false;
    },
    restoreNeeds: {
      feature: 'groupReactivation',
      what: 'the group is deactivated and reactivating it',
    },
    create: (p, d, base, props) => {
      if (p.limitedPlan())
        p.errors.push(
          `${base.address} (${d.path}): Zulip Cloud Free does not create user groups ("Available on Zulip Cloud Standard. Upgrade to access.", ensure_not_on_limited_plan); upgrade the organization's plan, or remove the group from the configuration`,
        );
      const deferred: PropertyChange[] = [];
      const refs = createPermissions(
        p,
        GROUP_PERMISSIONS,
        d.permissions,
        base.address,
        d.path,
        props,
        createdLater.get(d.name),
        deferred,
      );
      return {
        meta: { refs: refs.map(groupAddress) },
        then: () => {
          if (deferred.length > 0)
            p.addUpdate(base, null, deferred, {
              refs: deferred.flatMap((p) => groupsIn(p.after)).map(groupAddress),
            });
          groupMembership(p, d, null, base.address);
        },
      };
    },
    update: (p, d, l, base, props) => {
      const meta = { refs: [] as string[], releases: [] as string[] };
      updatePermissions(
        p,
        GROUP_PERMISSIONS,
        d.permissions,
        l,
        l.creatorId,
        d.lifecycle,
        base.address,
        d.path,
        props,
        meta,
      );
      return {
        meta: { refs: meta.refs.map(groupAddress), releases: meta.releases.map(groupAddress) },
        then: () => groupMembership(p, d, l, base.address),
      };
    },
    removing: releaseOwnSettings,
  };
}

/**
 * Zulip refuses to deactivate a group that any active group's setting names, the group's own
 * settings included (zerver/lib/user_groups.py `check_user_group_can_be_deactivated` does not
 * exclude it): "Cannot deactivate user group in use." A group about to be deactivated whose
 * own settings name it (directly or inside an anonymous group) has them set first to the
 * applying account alone, which keeps the account able to deactivate it.
 */
function releaseOwnSettings(
  p: Planner,
  l: LiveUserGroup,
  base: Pick<Change, 'kind' | 'address' | 'key' | 'path'>,
): void {
  const props: PropertyChange[] = [];
  const after = creatorDefault(p.live.me.userId, p.idx.usersById);
  for (const [name, info] of Object.entries(
    GROUP_PERMISSIONS as Record<string, PermissionSettingInfo>,
  )) {
    const old = l.permissions[info.wire];
    if (old === undefined) continue;
    const names = typeof old === 'number' ? old === l.id : old.direct_subgroups.includes(l.id);
    if (!names) continue;
    props.push({
      property: `permissions.${name}`,
      before: p.idx.groupSettingToNatural(old),
      after,
      wire: info.wire,
      old,
    });
  }
  if (props.length === 0) return;
  p.addUpdate(base, l.id, props);
}
