import { ROLES } from './kinds';
import type { LiveChannel, LiveUserGroup, WireGroupSettingValue } from './live-state';

/**
 * What Zulip lets one account do with a channel, computed from what `POST /register` told
 * that account: the rules of zerver/lib/streams.py and zerver/lib/subscription_info.py, so the
 * reader and the planner know before any write what Zulip would refuse.
 */

/** The account, as the access rules need it. */
export interface AccessAccount {
  readonly userId: number;
  readonly role: number;
}

/**
 * The IDs of every group the user belongs to, directly or through subgroups (Zulip's
 * `get_recursive_membership_groups`): a group whose direct members hold the user, and every
 * group that has such a group as a (transitive) subgroup.
 */
export function recursiveGroupIds(
  userId: number,
  groups: readonly Pick<LiveUserGroup, 'id' | 'members' | 'subgroups'>[],
): Set<number> {
  const parents = new Map<number, number[]>();
  for (const g of groups)
    for (const s of g.subgroups) {
      const list = parents.get(s);
      if (list) list.push(g.id);
      else parents.set(s, [g.id]);
    }
  const out = new Set<number>();
  const queue = groups.filter((g) => g.members.includes(userId)).map((g) => g.id);
  while (queue.length > 0) {
    const id = queue.pop() as number;
    if (out.has(id)) continue;
    out.add(id);
    for (const p of parents.get(id) ?? []) queue.push(p);
  }
  return out;
}

/** Whether a group-setting value (a group ID or an anonymous group) includes the user. */
export function settingIncludes(
  value: WireGroupSettingValue | undefined,
  userId: number,
  myGroups: ReadonlySet<number>,
): boolean {
  if (value === undefined) return false;
  if (typeof value === 'number') return myGroups.has(value);
  return (
    value.direct_members.includes(userId) || value.direct_subgroups.some((g) => myGroups.has(g))
  );
}

const isGuest = (a: AccessAccount): boolean => a.role === ROLES.guest;
const isAdmin = (a: AccessAccount): boolean => a.role <= ROLES.administrator;

/**
 * Access to a channel's content (zerver/lib/streams.py `user_has_content_access`): web-public,
 * subscribed, a public channel for a non-guest, or membership of the channel's
 * `can_add_subscribers_group` or `can_subscribe_group`. Organization administrators get no
 * bypass: without it Zulip refuses to add subscribers ("Unable to access channel (NAME).",
 * `filter_stream_authorization_for_adding_subscribers`) and to change privacy or the two
 * settings above ("Channel content access is required.", `update_stream_backend`).
 */
export function hasContentAccess(
  account: AccessAccount,
  channel: Pick<LiveChannel, 'webPublic' | 'private' | 'permissions'>,
  subscribed: boolean,
  myGroups: ReadonlySet<number>,
): boolean {
  if (channel.webPublic || subscribed) return true;
  if (isGuest(account)) return false;
  if (!channel.private) return true;
  return (
    settingIncludes(channel.permissions.can_add_subscribers_group, account.userId, myGroups) ||
    settingIncludes(channel.permissions.can_subscribe_group, account.userId, myGroups)
  );
}

/**
 * Whether Zulip shows the account a channel's subscribers (zerver/lib/subscription_info.py
 * `validate_user_access_to_subscribers_helper`). Where it does not, register still answers
 * `subscribers: []` (`bulk_get_subscriber_user_ids` fills every channel), which must be read as
 * "unknown", never as "nobody".
 */
export function canSeeSubscribers(
  account: AccessAccount,
  channel: Pick<LiveChannel, 'webPublic' | 'private' | 'permissions'>,
  subscribed: boolean,
  myGroups: ReadonlySet<number>,
): boolean {
  if (channel.webPublic) return true;
  const guest = isGuest(account);
  if (guest && subscribed) return true;
  // Guests cannot access public channels they are not subscribed to.
  if (guest && !channel.private) return false;
  if (isAdmin(account)) return true;
  // `has_metadata_access_to_channel_via_groups`: never for guests (these settings do not
  // allow the everyone group).
  if (
    !guest &&
    ['can_administer_channel_group', 'can_add_subscribers_group', 'can_subscribe_group'].some((s) =>
      settingIncludes(channel.permissions[s], account.userId, myGroups),
    )
  )
    return true;
  return !channel.private || subscribed;
}
