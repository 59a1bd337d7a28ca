import { sendStreamDeletionEvent } from './events';
import {
  findUser,
  inChannelMetadataAudience,
  isGuest,
  METADATA_SETTINGS,
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
 *
 * The same before/after reading serves a change of one channel: a metadata-granting setting
 * (zerver/actions/streams.py `do_change_stream_group_based_setting`) and private → public
 * (`do_change_stream_permission`), where the candidates are the users with an event queue.
 */

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

/** Whether a user is in a channel's `bulk_can_access_stream_metadata_user_ids` (active only). */
function seesPrivateChannel(org: OrgState, userId: number, ch: StoredChannel): boolean {
  const u = findUser(org, userId);
  return u !== undefined && u.isActive && inChannelMetadataAudience(org, u, ch);
}

/** The private channels a change may show or hide, and which candidates saw each before. */
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
  return accessOf(org, featureLevel, channels, readCandidates());
}

/**
 * Before a change of one channel (a metadata-granting setting, its privacy): the candidates
 * (user IDs: those with a queue) who see it, when it is private (a public channel's audience
 * does not depend on groups). Undefined when nothing can change, or without a feature level.
 */
export function privateChannelAccessBefore(
  org: OrgState,
  featureLevel: number | undefined,
  ch: StoredChannel,
  candidates: readonly number[],
): ChannelAccessBefore | undefined {
  if (featureLevel === undefined || !ch.inviteOnly) return undefined;
  return accessOf(org, featureLevel, [ch], candidates);
}

/** Private `channels` with the `candidates` who see each; undefined without candidates. */
function accessOf(
  org: OrgState,
  featureLevel: number,
  channels: readonly StoredChannel[],
  candidates: readonly number[],
): ChannelAccessBefore | undefined {
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
 * `stream` `create` (`send_stream_creation_event`) then `subscription` `peer_add` of its active
 * subscribers (sorted) of each channel, to its users. The `for_unarchiving` flag Zulip adds is
 * Tornado's, not sent to clients (test_events.py `check_stream_create` allows no other field).
 */
function sendCreations(
  org: OrgState,
  featureLevel: number,
  events: PendingEvent[],
  changes: ReadonlyArray<readonly [StoredChannel, number[]]>,
): void {
  for (const [ch, users] of changes) {
    const streams = [channelToApi(org, featureLevel, ch)];
    events.push({ users, event: { type: 'stream', op: 'create', streams } });
    const peers = { stream_ids: [ch.id], user_ids: subscriberIds(org, ch.id) };
    events.push({ users, event: { type: 'subscription', op: 'peer_add', ...peers } });
  }
}

/**
 * After members or subgroups were added (`bulk_add_members_to_user_groups`,
 * `add_subgroups_to_user_group`): for each channel, `stream` `create` and `subscription`
 * `peer_add` to the users who gained metadata access.
 */
export function sendGainedChannelEvents(
  org: OrgState,
  events: PendingEvent[],
  access: ChannelAccessBefore | undefined,
): void {
  if (access === undefined) return;
  sendCreations(org, access.featureLevel, events, accessChanges(org, access, true));
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

/** Whether a channel setting gives metadata access (`stream_permission_group_settings_granting_metadata_access`). */
export function grantsMetadataAccess(setting: string): boolean {
  return (METADATA_SETTINGS as readonly string[]).includes(setting);
}

/**
 * After a channel's group setting was set (zerver/actions/streams.py
 * `do_change_stream_group_based_setting`), with `access` read before it for a
 * metadata-granting setting of a private channel: `update`, the setting's `stream` `update`
 * event to the channel's audience, goes to that audience but the users who gained metadata
 * access; then those get `stream` `create` and `subscription` `peer_add`, and the users who lost
 * it `stream` `delete`. Without `access` (another setting, a public channel), `update` as is.
 */
export function sendSettingChangeEvents(
  org: OrgState,
  events: PendingEvent[],
  update: PendingEvent & { users: readonly number[] },
  access: ChannelAccessBefore | undefined,
): void {
  if (access === undefined) {
    events.push(update);
    return;
  }
  const gained = accessChanges(org, access, true);
  const skip = new Set(gained.flatMap(([, ids]) => ids));
  events.push({ ...update, users: update.users.filter((id) => !skip.has(id)) });
  sendCreations(org, access.featureLevel, events, gained);
  sendLostChannelEvents(org, events, access);
}

/**
 * After a private channel was made public (zerver/actions/streams.py
 * `do_change_stream_permission`), with `access` read before: `stream` `create` and
 * `subscription` `peer_add` to the active non-guests who did not see it while it was private
 * (`notify_stream_creation_ids`, the same set as `peer_notify_user_ids`). Their IDs, whom the
 * `stream` `update` event that follows skips. Users who lose access when a channel becomes
 * private get nothing: Zulip sends them no event.
 */
export function sendMadePublicEvents(
  org: OrgState,
  events: PendingEvent[],
  access: ChannelAccessBefore | undefined,
): ReadonlySet<number> {
  if (access === undefined) return new Set();
  const changes = [...access.before].map(([ch, saw]): [StoredChannel, number[]] => [
    ch,
    access.candidates.filter((id) => {
      const u = findUser(org, id);
      return !saw.has(id) && u !== undefined && u.isActive && !isGuest(u);
    }),
  ]);
  sendCreations(
    org,
    access.featureLevel,
    events,
    changes.filter(([, users]) => users.length > 0),
  );
  return new Set(changes.flatMap(([, users]) => users));
}
