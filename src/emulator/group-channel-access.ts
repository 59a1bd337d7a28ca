import { sendStreamDeletionEvent } from './events';
import {
  findUser,
  holdsSetting,
  isAdmin,
  isGuest,
  isSubscribed,
  subscriberIds,
} from './permissions';
import type { PendingEvent } from './router';
import type { OrgState, StoredChannel, StoredGroupSetting } from './state';
import { channelToApi } from './views';

/*
 * The channel events of a change to group membership (zerver/actions/user_groups.py
 * `bulk_add_members_to_user_groups`, `bulk_remove_members_from_user_groups`,
 * `add_subgroups_to_user_group`, `remove_subgroups_from_user_group`): the channels whose
 * metadata-granting settings reach the changed groups are read before the change with who can
 * see them, and after it the users who gained that access get `stream` `create` and
 * `subscription` `peer_add` of each channel, those who lost it `stream` `delete`.
 *
 * Zulip compares the whole audience of each channel before and after
 * (`bulk_can_access_stream_metadata_user_ids`); only the users whose membership changed (the
 * users added or removed, the members of the subgroups added or removed) can be in the
 * difference, so the embedded server checks only them: same events, without reading every
 * user of every such channel. A public channel's audience (active non-guests and its guest
 * subscribers) does not depend on groups, so its events go to nobody and are not built.
 */

/** The three settings that give metadata access (`stream_permission_group_settings_granting_metadata_access`). */
const METADATA_SETTINGS = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_subscribe_group',
] as const;

/**
 * zerver/lib/user_groups.py `get_recursive_supergroups_union_for_groups`: the groups and every
 * group that has one of them as a subgroup, recursively (deactivated ones too).
 */
function recursiveSupergroups(org: OrgState, groupIds: readonly number[]): Set<number> {
  const out = new Set(groupIds);
  for (let grew = true; grew;) {
    grew = false;
    for (const g of org.groups)
      if (!out.has(g.id) && g.subgroups.some((id) => out.has(id))) {
        out.add(g.id);
        grew = true;
      }
  }
  return out;
}

/** Whether a setting's value is one of `groups`, or an anonymous value with one as a subgroup. */
function reaches(value: StoredGroupSetting | undefined, groups: ReadonlySet<number>): boolean {
  if (value === undefined) return false;
  if (typeof value === 'number') return groups.has(value);
  return value.direct_subgroups.some((id) => groups.has(id));
}

/**
 * zerver/lib/streams.py `bulk_can_access_stream_metadata_user_ids` for a private channel, for
 * one user: an active subscriber, an active administrator (or administrator bot), or an active
 * non-guest member of one of the three settings
 * (`get_users_dict_with_metadata_access_to_streams_via_permission_groups`).
 */
function seesPrivateChannel(org: OrgState, userId: number, ch: StoredChannel): boolean {
  const u = findUser(org, userId);
  if (u === undefined || !u.isActive) return false;
  if (isSubscribed(org, u.id, ch.id) || isAdmin(u)) return true;
  if (isGuest(u)) return false;
  return METADATA_SETTINGS.some((s) => holdsSetting(org, u, ch.settings[s]));
}

/** The private channels a group change may show or hide, and which candidates saw each before. */
export interface ChannelAccessBefore {
  /** The feature level of the `stream` objects. */
  readonly featureLevel: number;
  readonly candidates: readonly number[];
  readonly before: ReadonlyMap<StoredChannel, ReadonlySet<number>>;
}

/**
 * Before a membership change of `groupIds` that changes the memberships of `candidates` (user
 * IDs, read only when a channel is found): zerver/lib/streams.py `get_metadata_access_streams_via_group_ids` for the groups'
 * supergroups (channels whose `can_add_subscribers_group`, `can_administer_channel_group` or
 * `can_subscribe_group` is one of them, archived ones included, as Zulip's query does not
 * exclude them), in channel ID order, the private ones kept with the candidates who see them.
 * Undefined when nothing can change, or without a feature level (nobody to tell).
 */
export function channelAccessBefore(
  org: OrgState,
  featureLevel: number | undefined,
  groupIds: readonly number[],
  readCandidates: () => readonly number[],
): ChannelAccessBefore | undefined {
  if (featureLevel === undefined || groupIds.length === 0) return undefined;
  const groups = recursiveSupergroups(org, groupIds);
  const channels = org.channels
    .filter((ch) => ch.inviteOnly && METADATA_SETTINGS.some((s) => reaches(ch.settings[s], groups)))
    .sort((a, b) => a.id - b.id);
  if (channels.length === 0) return undefined;
  const candidates = readCandidates();
  if (candidates.length === 0) return undefined;
  const before = new Map<StoredChannel, ReadonlySet<number>>();
  for (const ch of channels)
    before.set(ch, new Set(candidates.filter((id) => seesPrivateChannel(org, id, ch))));
  return { featureLevel, candidates, before };
}

/**
 * Each channel of `access` with the users who, after the change, see it and did not (`gained`)
 * or saw it and do not: the set difference of zerver/actions/user_groups.py, candidates only.
 */
function accessChanges(
  org: OrgState,
  access: ChannelAccessBefore,
  gained: boolean,
): Array<[StoredChannel, number[]]> {
  const out: Array<[StoredChannel, number[]]> = [];
  for (const [ch, saw] of access.before) {
    const ids = gained
      ? access.candidates.filter((id) => !saw.has(id) && seesPrivateChannel(org, id, ch))
      : [...saw].filter((id) => !seesPrivateChannel(org, id, ch));
    if (ids.length > 0) out.push([ch, ids]);
  }
  return out;
}

/**
 * After members or subgroups were added (`bulk_add_members_to_user_groups`,
 * `add_subgroups_to_user_group`): for each channel, `stream` `create` (`send_stream_creation_event`)
 * then `subscription` `peer_add` of its subscribers (sorted), each to the users who gained
 * metadata access. The `for_unarchiving` flag Zulip adds is Tornado's, not sent to clients
 * (test_events.py `check_stream_create` allows no other field).
 */
export function sendGainedChannelEvents(
  org: OrgState,
  events: PendingEvent[],
  access: ChannelAccessBefore | undefined,
): void {
  if (access === undefined) return;
  for (const [ch, users] of accessChanges(org, access, true)) {
    const streams = [channelToApi(org, access.featureLevel, ch)];
    events.push({ users, event: { type: 'stream', op: 'create', streams } });
    const peers = { stream_ids: [ch.id], user_ids: subscriberIds(org, ch.id) };
    events.push({ users, event: { type: 'subscription', op: 'peer_add', ...peers } });
  }
}

/**
 * After members or subgroups were removed (`bulk_remove_members_from_user_groups`,
 * `remove_subgroups_from_user_group`): for each channel, `stream` `delete` of it
 * (`send_stream_deletion_event`) to the users who lost metadata access.
 */
export function sendLostChannelEvents(
  org: OrgState,
  events: PendingEvent[],
  access: ChannelAccessBefore | undefined,
): void {
  if (access === undefined) return;
  for (const [ch, users] of accessChanges(org, access, false))
    sendStreamDeletionEvent(events, users, [ch]);
}
