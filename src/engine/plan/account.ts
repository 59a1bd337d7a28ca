/**
 * What Zulip refuses the applying account whatever the object, checked once every kind is
 * planned, on the changes the plan has (so the plan says it, on each change's construct, and
 * apply never starts what the first request of a kind would stop):
 *
 * - `require_member_or_admin` (zerver/decorator.py): every user-group endpoint the handlers call
 *   (create, `PATCH /user_groups/{id}`, members, subgroups: zerver/views/user_groups.py; only
 *   `deactivate_user_group` lacks it) and the emoji upload (zerver/views/realm_emoji.py
 *   `upload_emoji`) refuse a guest ("Not allowed for guest users") and any bot, organization
 *   administrators included ("This endpoint does not accept bot requests."), before reading a
 *   parameter.
 * - `require_user_group_create_permission`: creating a group needs the organization's
 *   `can_create_groups`, and uploading an emoji its `can_add_custom_emoji_group`
 *   ("Insufficient permission"); `UserProfile.has_permission` gives administrators no bypass.
 *
 * - `access_user_group_for_update` (zerver/lib/user_groups.py) on an existing group: its
 *   `can_manage_group` or the organization's `can_manage_all_groups` for its settings, name,
 *   reactivation, deactivation and removing subgroups; besides those, `can_add_members_group`
 *   for adding members and subgroups, `can_remove_members_group` for removing members (and
 *   `can_join_group`, `can_leave_group` when the account adds or removes only itself:
 *   zerver/views/user_groups.py `add_members_to_group_backend`); "Insufficient permission". The
 *   table of who else holds a setting is the model's (`GROUP_PERMISSIONS` `alsoHeldBy`).
 *
 * A setting the account does not hold is an error only when nothing in the plan can give it
 * before the request: the account's groups are counted with what the plan's memberships add to
 * them, the organization's settings are applied before custom emoji and after user groups (the
 * kinds' ranks), and a group's own settings are updated before its members.
 */
import { recursiveGroupIds, settingIncludes } from '../../model/access';
import { KIND_SPECS, ROLES } from '../../model/kinds';
import type { ResourceKind } from '../../model/kinds';
import { GROUP_PERMISSIONS, ORGANIZATION_PERMISSIONS } from '../../model/permissions';
import type {
  GroupPermissionName,
  OrganizationPermissionName,
  PermissionSettingInfo,
} from '../../model/permissions';
import type { GroupSettingValue } from '../../model/desired-state';
import type { LiveUserGroup, WireGroupSettingValue } from '../../model/live-state';
import type { UntaggedChange } from '../plan-format';
import { myGroupIds } from './cross-kind';
import type { Planner } from './planner';

/** Changes listed by name in one error; the rest are counted. */
const LISTED = 5;

/** A change the refusal applies to, and the requests it names. */
interface Refused {
  readonly kind: ResourceKind;
  readonly actions: readonly string[];
  /** What the changes are, for the message: "user-group changes". */
  readonly what: string;
  /** The organization setting the account must hold, if any. */
  readonly setting?: {
    readonly name: OrganizationPermissionName;
    readonly actions: readonly string[];
  };
}

const REFUSED: readonly Refused[] = [
  {
    kind: 'userGroup',
    actions: ['create', 'update', 'rename', 'reactivate', 'membership'],
    what: 'user-group changes',
    setting: { name: 'canCreateGroups', actions: ['create'] },
  },
  {
    kind: 'customEmoji',
    actions: ['create', 'replace'],
    what: 'custom emoji uploads',
    setting: { name: 'canAddCustomEmojiGroup', actions: ['create', 'replace'] },
  },
];

/** The plan errors of {@link REFUSED} for the applying account (pushed to `p.errors`). */
export function checkAccount(p: Planner): void {
  const me = p.live.me;
  const user = p.idx.usersById.get(me.userId);
  const who = me.role === ROLES.guest ? 'a guest' : user?.isBot === true ? 'a bot' : undefined;
  let refusedOutright = false;
  for (const r of REFUSED) {
    const changes = p.changes.filter((c) => c.kind === r.kind && r.actions.includes(c.action));
    if (changes.length === 0) continue;
    if (who !== undefined) {
      const quoted =
        who === 'a guest'
          ? 'Not allowed for guest users'
          : 'This endpoint does not accept bot requests.';
      refusedOutright = true;
      p.accountError(
        `${listed(changes)}: Zulip refuses ${r.what} from ${who} ("${quoted}"), whatever its role, and the applying account ${me.email} is ${who}. Apply with a human organization administrator's API key`,
      );
      continue;
    }
    const setting = r.setting;
    if (!setting) continue;
    const needing = changes.filter((c) => setting.actions.includes(c.action));
    if (needing.length === 0) continue;
    const info = ORGANIZATION_PERMISSIONS[setting.name];
    const value = p.live.organizationSettings?.permissions[info.wire];
    // A server that does not report the setting: nothing to hold it against.
    if (value === undefined) continue;
    const ids = needing.map((c) => c.id);
    if (holderFor(p, ids)(value) || settingChangedFirst(p, r.kind, setting.name, ids)) continue;
    p.accountError(
      `${listed(needing)}: Zulip lets only those who may ${info.ability} make ${r.what} ("Insufficient permission": the organization's ${setting.name}, which gives organization administrators no exception), and the applying account ${me.email} may not. ${
        KIND_SPECS.organizationSettings.rank < KIND_SPECS[r.kind].rank
          ? `Add it to ${setting.name} (OrganizationSettings: applied before them)`
          : `Have an owner add it to ${setting.name} in Zulip first (a change of it in this plan is applied after them)`
      }, or apply with an account that holds it`,
    );
  }
  if (!refusedOutright) checkGroupAccess(p);
  checkRealmAdminKinds(p);
  checkRealmOwnerKinds(p);
}

/**
 * The kinds every write of which needs an organization administrator ("Must be an organization
 * administrator"): zerver/decorator.py `require_realm_admin` on each view of
 * zerver/views/realm_linkifiers.py, realm_playgrounds.py and channel_folders.py, and
 * `check_if_user_can_manage_default_streams` on each default-channel-group view
 * (zerver/views/streams.py). Custom profile fields, another such kind, are checked with their
 * values (`./custom-profile-fields.ts`).
 */
const REALM_ADMIN_KINDS: readonly { readonly kind: ResourceKind; readonly what: string }[] = [
  { kind: 'linkifier', what: 'linkifiers' },
  { kind: 'playground', what: 'code playgrounds' },
  { kind: 'channelFolder', what: 'channel folders' },
  { kind: 'defaultChannelGroup', what: 'default channel groups' },
];

function checkRealmAdminKinds(p: Planner): void {
  const me = p.live.me;
  if (me.role <= ROLES.administrator) return;
  for (const { kind, what } of REALM_ADMIN_KINDS) {
    const changes = p.changes.filter((c) => c.kind === kind);
    if (changes.length === 0) continue;
    p.accountError(
      `${listed(changes)}: Zulip lets only organization administrators change ${what} ("Must be an organization administrator"), and the applying account ${me.email} is not one. Apply with an administrator's account`,
    );
  }
}

/**
 * The kinds every write of which needs an organization owner ("Must be an organization
 * owner"): zerver/decorator.py `require_realm_owner` on each write of
 * zerver/views/realm_domains.py. One error per change, on its construct (`needsOwner`).
 */
const REALM_OWNER_KINDS: readonly { readonly kind: ResourceKind; readonly noun: string }[] = [
  { kind: 'allowedDomain', noun: 'an allowed domain' },
];

const DOING: Partial<Record<UntaggedChange['action'], string>> = {
  create: 'adding',
  update: 'changing',
  delete: 'deleting',
};

function checkRealmOwnerKinds(p: Planner): void {
  for (const { kind, noun } of REALM_OWNER_KINDS)
    for (const c of p.changes)
      if (c.kind === kind)
        p.needsOwner(`${DOING[c.action] ?? c.action} ${noun}`, c.address, c.path ?? 'undeclared');
}

type Holder = (value: WireGroupSettingValue | undefined) => boolean;

/** Whether the account holds a group's setting, directly or through whom Zulip also lets through. */
function holdsGroupSetting(
  group: LiveUserGroup,
  name: GroupPermissionName,
  holds: Holder,
  realm: Readonly<Record<string, WireGroupSettingValue>>,
): boolean {
  const info: PermissionSettingInfo = GROUP_PERMISSIONS[name];
  if (holds(group.permissions[info.wire])) return true;
  return (info.alsoHeldBy ?? []).some((h) =>
    h.kind === 'realm'
      ? holds(realm[h.wire])
      : h.kind === 'setting' &&
        holdsGroupSetting(group, h.name as GroupPermissionName, holds, realm),
  );
}

/** What a change to an existing group asks of the account: the setting, and the words for it. */
function groupNeeds(
  c: UntaggedChange,
  me: number,
): { name: GroupPermissionName; or?: GroupPermissionName; what: string }[] {
  if (c.action !== 'membership')
    return [
      {
        name: 'canManageGroup',
        what: c.action === 'update' ? 'change its description or settings' : `${c.action} it`,
      },
    ];
  const self = (list: readonly { id: number }[]): boolean =>
    list.length === 1 && list[0]?.id === me;
  const out: { name: GroupPermissionName; or?: GroupPermissionName; what: string }[] = [];
  if (c.add.length > 0)
    out.push(
      self(c.add)
        ? { name: 'canAddMembersGroup', or: 'canJoinGroup', what: 'add itself' }
        : { name: 'canAddMembersGroup', what: 'add members' },
    );
  if (c.remove.length > 0)
    out.push(
      self(c.remove)
        ? { name: 'canRemoveMembersGroup', or: 'canLeaveGroup', what: 'remove itself' }
        : { name: 'canRemoveMembersGroup', what: 'remove members' },
    );
  if (c.addSubgroups.length > 0) out.push({ name: 'canAddMembersGroup', what: 'add subgroups' });
  if (c.removeSubgroups.length > 0) out.push({ name: 'canManageGroup', what: 'remove subgroups' });
  return out;
}

/** `access_user_group_for_update` for each change of an existing group (see the note above). */
function checkGroupAccess(p: Planner): void {
  const realm = p.live.organizationSettings?.permissions;
  // Without the organization's can_manage_all_groups nothing can be decided.
  if (realm?.can_manage_all_groups === undefined) return;
  const me = p.live.me;
  const settingsUpdated = new Set(
    p.changes.flatMap((c) =>
      c.kind === 'userGroup' &&
      c.action === 'update' &&
      c.properties.some((x) => x.property.startsWith('permissions.'))
        ? [c.address]
        : [],
    ),
  );
  for (const c of p.changes) {
    if (c.kind !== 'userGroup' || !('liveId' in c) || c.liveId === null) continue;
    const group = p.idx.groupsById.get(c.liveId);
    if (!group || group.isSystemGroup) continue;
    if (c.action === 'membership' && settingsUpdated.has(c.address)) continue;
    const holds = holderFor(p, [c.id]);
    const refused = groupNeeds(c, me.userId).filter(
      (n) =>
        group.permissions[GROUP_PERMISSIONS[n.name].wire] !== undefined &&
        !holdsGroupSetting(group, n.name, holds, realm) &&
        !(n.or !== undefined && holdsGroupSetting(group, n.or, holds, realm)),
    );
    if (refused.length === 0) continue;
    const settings = [
      ...new Set([...refused.flatMap((n) => (n.or ? [n.name, n.or] : [n.name])), 'canManageGroup']),
    ];
    p.accountError(
      `${listed([c])}: Zulip lets the applying account ${me.email} ${refused.map((n) => n.what).join(', ')} only if it holds the group's ${settings.join(' or ')}, or the organization's canManageAllGroups ("Insufficient permission"), and it holds none of them. Add the account to one of them in Zulip first, or apply with an account that holds one (an owner holds canManageAllGroups by default)`,
    );
  }
}

/** `kind["a"] (path), kind["b"] (path) and 3 more`. */
export function listed(changes: readonly UntaggedChange[]): string {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const c of changes) {
    if (seen.has(c.address)) continue;
    seen.add(c.address);
    names.push(c.path === null ? `${c.address} (undeclared)` : `${c.address} (${c.path})`);
  }
  const shown = names.slice(0, LISTED).join(', ');
  return names.length > LISTED ? `${shown} and ${names.length - LISTED} more` : shown;
}

/** {@link myGroupIdsAfterPlan}, once per plan. */
const groupsAfterPlan = new WeakMap<Planner, ReadonlySet<number>>();

/**
 * The applying account's groups, recursively, once the plan's memberships have landed (see
 * {@link groupsAfter}), worked out once per plan: only user groups make memberships, and they
 * are planned before users and the checks that run once every kind is planned, the readers of
 * this.
 */
export function myGroupIdsAfterPlan(p: Planner): ReadonlySet<number> {
  let ids = groupsAfterPlan.get(p);
  if (!ids) groupsAfterPlan.set(p, (ids = recursiveGroupIds(p.live.me.userId, groupsAfter(p))));
  return ids;
}

/**
 * The plan's membership changes through which the applying account joins groups (those
 * {@link groupsAfter} counts): the ones adding it, and the ones adding a subgroup it is in after
 * the plan or that the plan creates.
 */
function myMembershipChanges(p: Planner): readonly string[] {
  let ids = membershipChanges.get(p);
  if (!ids) membershipChanges.set(p, (ids = findMyMembershipChanges(p)));
  return ids;
}

/** {@link myMembershipChanges}, once per plan (the checks that read it run after groups). */
const membershipChanges = new WeakMap<Planner, readonly string[]>();

function findMyMembershipChanges(p: Planner): string[] {
  const me = p.live.me.userId;
  const mine = myGroupIdsAfterPlan(p);
  return p.changes
    .filter(
      (c) =>
        c.kind === 'userGroup' &&
        c.action === 'membership' &&
        (c.add.some((u) => u.id === me) ||
          c.addSubgroups.some((g) => g.id === null || mine.has(g.id))),
    )
    .map((c) => c.id);
}

/**
 * Whether the account holds a setting once the plan's memberships have landed. When it holds it
 * only thanks to them, the changes `ids` wait for them, so a targeted plan (`--target`, which
 * keeps what a change waits for) and `--keep-going` (which skips what waits for a failed change)
 * do not make the requests without them.
 */
export function holderFor(p: Planner, ids: readonly string[]): Holder {
  const me = p.live.me.userId;
  return (value) => {
    if (settingIncludes(value, me, myGroupIds(p))) return true;
    if (!settingIncludes(value, me, myGroupIdsAfterPlan(p))) return false;
    const joins = myMembershipChanges(p);
    for (const id of ids) p.waitFor(id, joins);
    return true;
  };
}

/**
 * Whether a declared group-setting value (natural keys: a group's name, or users by email and
 * groups by name) includes the applying account once the plan's memberships have landed. A
 * group that is not live yet (the plan creates it) is not guessed: it counts as holding. Guests
 * hold none of the settings this is asked of (Zulip refuses them first). When a live group holds
 * it only thanks to the plan's memberships, the changes `ids` wait for them.
 */
export function holdsDeclared(
  p: Planner,
  value: GroupSettingValue | undefined,
  ids: readonly string[] = [],
): boolean {
  const me = p.live.me;
  if (me.role === ROLES.guest) return false;
  if (value === undefined) return true;
  const v = typeof value === 'string' ? { users: [], groups: [value] } : value;
  const email = me.email.toLowerCase();
  if (v.users.some((u) => u.toLowerCase() === email)) return true;
  const mine = myGroupIdsAfterPlan(p);
  const now = myGroupIds(p);
  const groups = v.groups.map((n) => p.idx.groupsByName.get(n));
  if (groups.some((g) => g === undefined || now.has(g.id))) return true;
  if (!groups.some((g) => g !== undefined && mine.has(g.id))) return false;
  const joins = myMembershipChanges(p);
  for (const id of ids) p.waitFor(id, joins);
  return true;
}

/**
 * Whether the plan changes the organization's setting before the requests of `kind` (the
 * organization's settings are applied first when their rank is lower); if so, the changes `ids`
 * wait for that change (their rank alone orders them, but does not keep it in a targeted plan).
 */
export function settingChangedFirst(
  p: Planner,
  kind: ResourceKind,
  name: OrganizationPermissionName,
  ids: readonly string[],
): boolean {
  if (KIND_SPECS.organizationSettings.rank >= KIND_SPECS[kind].rank) return false;
  const property = `permissions.${name}`;
  const change = p.changes.find(
    (c) =>
      c.kind === 'organizationSettings' &&
      c.action === 'update' &&
      c.properties.some((x) => x.property === property),
  );
  if (!change) return false;
  for (const id of ids) p.waitFor(id, [change.id]);
  return true;
}

/**
 * The groups after the plan's memberships, as far as the account's membership goes: the live
 * ones with the account and the subgroups the plan adds to them, and the groups the plan
 * creates (under ids of their own below zero) with the account and their subgroups. Creating a
 * group with subgroups, and adding a subgroup, check nothing of the subgroup
 * (`lock_subgroups_with_respect_to_supergroup`), and membership is recursive (`is_user_in_group`).
 */
export function groupsAfter(
  p: Planner,
): readonly Pick<LiveUserGroup, 'id' | 'members' | 'subgroups'>[] {
  const me = p.live.me.userId;
  const created = new Map<string, number>();
  const idOf = (liveId: number | null, name: string): number => {
    if (liveId !== null) return liveId;
    let id = created.get(name);
    if (id === undefined) created.set(name, (id = -1 - created.size));
    return id;
  };
  const added = new Map<number, { members: number[]; subgroups: number[] }>();
  for (const c of p.changes) {
    if (c.kind !== 'userGroup' || c.action !== 'membership') continue;
    const id = idOf(c.liveId, c.key);
    const entry = added.get(id) ?? { members: [], subgroups: [] };
    if (c.add.some((u) => u.id === me)) entry.members.push(me);
    for (const g of c.addSubgroups) entry.subgroups.push(idOf(g.id, g.name));
    added.set(id, entry);
  }
  if (added.size === 0) return p.live.userGroups;
  const live = p.live.userGroups.map((g) => {
    const a = added.get(g.id);
    return a
      ? {
          id: g.id,
          members: [...g.members, ...a.members],
          subgroups: [...g.subgroups, ...a.subgroups],
        }
      : g;
  });
  const made = [...created.values()].map((id) => ({
    id,
    members: added.get(id)?.members ?? [],
    subgroups: added.get(id)?.subgroups ?? [],
  }));
  return [...live, ...made];
}
