/**
 * User groups: create (settings naming groups created later deferred to an update), update,
 * membership, deactivate, and the expansion of a group into the users it holds after the plan.
 *
 * Functions of the planner's phases (see `Planner` in `./planner.ts`): they read and write its
 * shared state.
 */
import type { DesiredUserGroup } from '../../model/desired-state';
import { creatorDefault, isSystemGroupName } from '../../model/kinds';
import type { LiveUserGroup } from '../../model/live-state';
import { GROUP_PERMISSIONS } from '../../model/permissions';
import type { PermissionSettingInfo } from '../../model/permissions';
import type { Change, PropertyChange } from '../plan-format';
import type { KeyedPlan } from './keyed';
import type { Planner } from './planner';
import { groupAddress, groupsIn, isIgnored } from './planner';
import { checkGroupRef, createPermissions, updatePermissions } from './permissions';

/**
 * For each group this plan creates, the new groups that its create cannot name: itself, and
 * every new group whose create needs it first (through a setting or a subgroup), directly or
 * not. A group may manage itself, and two new groups may manage each other; Zulip can only
 * set such a value once both exist.
 */
function groupsCreatedLater(p: Planner): Map<string, Set<string>> {
  const created = new Set(
    p.desired.userGroups
      .filter((d) => !p.groupMatch.get(d.name) && d.deactivated !== true)
      .map((d) => d.name),
  );
  const needs = new Map<string, string[]>();
  for (const d of p.desired.userGroups) {
    if (!created.has(d.name)) continue;
    const named = [
      ...d.members.groups,
      ...Object.values(d.permissions).flatMap((v) => groupsIn(v)),
    ];
    needs.set(
      d.name,
      named.filter((g) => created.has(g) && g !== d.name),
    );
  }
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const g = stack.pop()!;
      if (g === to) return true;
      if (seen.has(g)) continue;
      seen.add(g);
      stack.push(...(needs.get(g) ?? []));
    }
    return false;
  };
  const out = new Map<string, Set<string>>();
  for (const g of created)
    out.set(g, new Set([g, ...[...created].filter((h) => h !== g && reaches(h, g))]));
  return out;
}

/** Active user IDs a desired or live group stands for after apply, following subgroups. */
export function expandGroup(p: Planner, name: string, seen?: Set<string>): Set<number> {
  // Channels share groups (role:members on many channels): expand each group once.
  if (!seen) {
    const cached = p.expansions.get(name);
    if (cached) return cached;
    const fresh = expandGroupUncached(p, name, new Set());
    p.expansions.set(name, fresh);
    return fresh;
  }
  return expandGroupUncached(p, name, seen);
}

function expandGroupUncached(p: Planner, name: string, seen: Set<string>): Set<number> {
  const out = new Set<number>();
  if (seen.has(name)) return out;
  seen.add(name);
  const d = p.desiredGroups.get(name);
  const l = d ? (p.groupMatch.get(name) ?? undefined) : p.idx.groupsByName.get(name);
  if (!d) {
    if (l) for (const id of p.idx.expandLiveGroup(l)) out.add(id);
    return out;
  }
  if (d.deactivated === true) return out;
  for (const id of p.resolveUsers(d.members.users)) out.add(id);
  for (const g of d.members.groups) for (const id of expandGroup(p, g, seen)) out.add(id);
  if (d.members.mode === 'atLeast' && l) {
    // atLeast keeps live members the config does not list.
    for (const id of l.members) if (p.idx.usersById.get(id)?.isActive) out.add(id);
    for (const sub of l.subgroups) {
      const sg = p.idx.groupsById.get(sub);
      if (sg) for (const id of expandGroup(p, sg.name, seen)) out.add(id);
    }
  }
  return out;
}

/** User groups, for the generic keyed planner (one per plan: it knows the groups created later). */
export function userGroups(p: Planner): KeyedPlan<DesiredUserGroup, LiveUserGroup> {
  const createdLater = groupsCreatedLater(p);
  return {
    kind: 'userGroup',
    declared: (p) => p.desired.userGroups,
    live: (p) => p.live.userGroups,
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

function groupMembership(
  p: Planner,
  d: DesiredUserGroup,
  l: LiveUserGroup | null,
  address: string,
): void {
  if (isIgnored(d.lifecycle, 'members')) return;
  const want = p.resolveUsers(d.members.users);
  const have = l ? l.members.filter((id) => p.idx.usersById.get(id)?.isActive !== false) : [];
  const exact = d.members.mode === 'exact';
  const haveSet = new Set(have);
  const wantSet = new Set(want);
  const add = want.filter((id) => !haveSet.has(id));
  const remove = exact ? have.filter((id) => !wantSet.has(id)) : [];
  const wantGroups = d.members.groups.map((name) => {
    checkGroupRef(p, name, address, d.path);
    const m = p.desiredGroups.has(name) ? p.groupMatch.get(name) : p.idx.groupsByName.get(name);
    return { name, id: m?.id ?? null };
  });
  const haveGroups = l?.subgroups ?? [];
  const addSubgroups = wantGroups.filter((g) => g.id === null || !haveGroups.includes(g.id));
  const removeSubgroups = exact
    ? haveGroups
        .filter((id) => !wantGroups.some((g) => g.id === id))
        .map((id) => ({ name: nameOfLiveGroup(p, id), id }))
    : [];
  if (add.length + remove.length + addSubgroups.length + removeSubgroups.length === 0) return;
  // zerver/views/user_groups.py notify_for_user_group_subscription_changes: adding or removing
  // direct members of an existing group messages each of them, but the acting account and
  // bots. Creating a group with its members messages no one.
  const messaged =
    l === null
      ? []
      : p
          .users([...add, ...remove])
          .filter((u) => u.id !== p.live.me.userId && !p.idx.usersById.get(u.id)?.isBot)
          .map((u) => u.email);
  p.add(
    {
      id: `${address}#membership`,
      action: 'membership',
      kind: 'userGroup',
      address,
      key: d.name,
      path: d.path,
      dependsOn: [],
      liveId: l?.id ?? null,
      collection: 'members',
      mode: d.members.mode,
      add: p.users(add),
      remove: p.users(remove),
      addSubgroups,
      removeSubgroups,
      notify: messaged.length > 0,
      ...(messaged.length > 0 ? { messaged } : {}),
    },
    {
      refs: addSubgroups.map((g) => groupAddress(g.name)),
      releases: removeSubgroups.map((g) => groupAddress(g.name)),
    },
  );
}

/** The desired name of a live group when the config renames it, else its live name. */
function nameOfLiveGroup(p: Planner, id: number): string {
  for (const [name, g] of p.groupMatch) if (g?.id === id) return name;
  return p.idx.groupNameOf(id);
}
