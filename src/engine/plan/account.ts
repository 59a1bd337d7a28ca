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
 * A setting the account does not hold now is an error only when nothing in the plan can give
 * it before the request: the organization's settings are applied before custom emoji and after
 * user groups (the kinds' ranks), and a membership change may add the account to a group.
 */
import { recursiveGroupIds, settingIncludes } from '../../model/access';
import { KIND_SPECS, ROLES } from '../../model/kinds';
import type { ResourceKind } from '../../model/kinds';
import { ORGANIZATION_PERMISSIONS } from '../../model/permissions';
import type { OrganizationPermissionName } from '../../model/permissions';
import type { UntaggedChange } from '../plan-format';
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
  let myGroups: ReadonlySet<number> | undefined;
  for (const r of REFUSED) {
    const changes = p.changes.filter((c) => c.kind === r.kind && r.actions.includes(c.action));
    if (changes.length === 0) continue;
    if (who !== undefined) {
      const quoted =
        who === 'a guest'
          ? 'Not allowed for guest users'
          : 'This endpoint does not accept bot requests.';
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
    myGroups ??= recursiveGroupIds(me.userId, p.live.userGroups);
    if (settingIncludes(value, me.userId, myGroups)) continue;
    if (mayGain(p, r.kind, setting.name)) continue;
    p.accountError(
      `${listed(needing)}: Zulip lets only those who may ${info.ability} make ${r.what} ("Insufficient permission": the organization's ${setting.name}, which gives organization administrators no exception), and the applying account ${me.email} may not. Add it to ${setting.name} (OrganizationSettings), or apply with an account that holds it`,
    );
  }
}

/** `kind["a"] (path), kind["b"] (path) and 3 more`. */
function listed(changes: readonly UntaggedChange[]): string {
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

/**
 * Whether the plan may give the account the setting before the requests of `kind`: it changes
 * the setting itself and the organization's settings are applied first, or it adds the account
 * (or a subgroup) to a group.
 */
function mayGain(p: Planner, kind: ResourceKind, name: OrganizationPermissionName): boolean {
  const before = KIND_SPECS.organizationSettings.rank < KIND_SPECS[kind].rank;
  const property = `permissions.${name}`;
  return p.changes.some(
    (c) =>
      (before &&
        c.kind === 'organizationSettings' &&
        c.action === 'update' &&
        c.properties.some((x) => x.property === property)) ||
      (c.kind === 'userGroup' &&
        c.action === 'membership' &&
        (c.addSubgroups.length > 0 || c.add.some((u) => u.id === p.live.me.userId))),
  );
}
