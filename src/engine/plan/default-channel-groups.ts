/**
 * Default channel groups (`/default_stream_groups`): keyed by name, with a description and a
 * set of channels; planned by the generic keyed planner with the hooks below. Runs after the channels (it reads `channelMatch` and `desiredChannels`:
 * a group names channels as they are called after the plan, and waits for their creation,
 * rename or change of default status).
 *
 * Zulip's rules followed here (zerver/actions/default_streams.py, zerver/views/streams.py):
 * - a default channel cannot be added to a group (`do_create_default_stream_group`,
 *   `do_add_streams_to_default_stream_group`);
 * - channels are found by name with content access (`access_stream_by_name`): an archived
 *   channel, or a private one the applying account cannot read, cannot be added or removed;
 * - `update_default_stream_group_info` refuses an empty `new_description` without a new name,
 *   so a description cannot be cleared.
 */
import { channelNameKey, resourceAddress } from '../../model/address';
import type { LiveChannel, LiveDefaultChannelGroup } from '../../model/live-state';
import type { DesiredDefaultChannelGroup, GroupSettingValue } from '../../model/desired-state';
import { contentAccess, expandGroup } from './cross-kind';
import type { KeyedPlan } from './keyed';
import type { Planner } from './planner';
import { groupAddress, isIgnored } from './planner';

/** A channel as a group refers to it after the plan. */
interface ChannelRef {
  /** The name it has after the plan (what apply sends). */
  readonly name: string;
  /** The live channel, or undefined when the plan creates it. */
  readonly live: LiveChannel | undefined;
  /** Whether it is a default channel after the plan. */
  readonly defaultAfter: boolean;
  readonly address: string;
  /**
   * Whether the applying account can read it after the plan (Zulip finds a group's channels
   * only among those: `access_stream_by_name`), and whether only because the plan subscribes
   * the account (the group's change must then wait for that subscription).
   */
  readonly readable: boolean;
  readonly readableThroughPlan: boolean;
  /**
   * The membership changes of the groups through which the account reads a private channel the
   * plan creates (the group's change waits for them: groups are counted after the plan).
   */
  readonly readableThroughGroups: readonly string[];
}

const byName = (a: string, b: string): number => {
  const x = channelNameKey(a);
  const y = channelNameKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** What a default channel group's planning shares: the channels as they are after the plan. */
interface Context {
  readonly resolve: (name: string) => ChannelRef | undefined;
  readonly nameAfter: (id: number) => string | undefined;
}

function context(p: Planner): Context {
  // Live channel ID → the desired key that manages it.
  const managedBy = new Map<number, string>();
  for (const [key, l] of p.channelMatch) if (l) managedBy.set(l.id, key);

  const me = p.live.me;
  const subscribedAfter = (key: string): boolean =>
    p.channelSubscribersAfter.get(key)?.has(me.userId) === true;
  /** Whether a declared permission value holds the applying account after the plan. */
  const holdsMe = (v: GroupSettingValue | undefined): boolean => {
    if (v === undefined) return false;
    if (typeof v === 'string') return expandGroup(p, v).has(me.userId);
    return (
      v.users.some((e) => e.toLowerCase() === me.email.toLowerCase()) ||
      v.groups.some((g) => expandGroup(p, g).has(me.userId))
    );
  };
  /** The membership changes of the groups a declared value names, through declared subgroups. */
  const memberships = (v: GroupSettingValue | undefined): string[] => {
    const out = new Set<string>();
    const walk = (name: string): void => {
      const id = `${groupAddress(name)}#membership`;
      if (out.has(id)) return;
      out.add(id);
      for (const g of p.desiredGroups.get(name)?.members.groups ?? []) walk(g);
    };
    if (typeof v === 'string') walk(v);
    else for (const g of v?.groups ?? []) walk(g);
    return [...out];
  };
  /** A channel a declared group names, after the plan; undefined when there is none. */
  const resolve = (name: string): ChannelRef | undefined => {
    const key = channelNameKey(name);
    const d = p.desiredChannels.get(key);
    if (d) {
      const l = p.channelMatch.get(key) ?? undefined;
      if (d.archived === true) return undefined;
      const now = l !== undefined && (!l.private || contentAccess(p, l));
      // A channel the plan creates private: readable when the account is subscribed to it or
      // in its can_add_subscribers_group or can_subscribe_group (`user_has_content_access`).
      const viaGroups = [d.permissions.canAddSubscribersGroup, d.permissions.canSubscribeGroup];
      const created = l === undefined && (d.private !== true || viaGroups.some((v) => holdsMe(v)));
      const viaPlan = !now && !created && subscribedAfter(key);
      return {
        name: d.name.trim(),
        live: l,
        defaultAfter: d.defaultChannel === true,
        address: resourceAddress('channel', d.name.trim()),
        readable: now || created || viaPlan,
        readableThroughPlan: viaPlan,
        readableThroughGroups:
          created && d.private === true ? viaGroups.filter(holdsMe).flatMap(memberships) : [],
      };
    }
    const l = p.idx.channelsByKey.get(key);
    if (!l || l.archived) return undefined;
    // A live channel another declaration renames away from this name is not this name any more.
    if (managedBy.has(l.id)) return undefined;
    return {
      name: l.name,
      live: l,
      defaultAfter: l.defaultChannel,
      address: resourceAddress('channel', l.name),
      readable: !l.private || contentAccess(p, l),
      readableThroughPlan: false,
      readableThroughGroups: [],
    };
  };
  /** The name a live channel has after the plan. */
  const nameAfter = (id: number): string | undefined => {
    const l = p.idx.channelsById.get(id);
    if (!l) return undefined;
    const key = managedBy.get(id);
    const d = key === undefined ? undefined : p.desiredChannels.get(key);
    return d ? d.name.trim() : l.name;
  };

  return { resolve, nameAfter };
}

/** A declared group's channels after the plan, the ones it adds and the meta of its change. */
function groupChannels(
  p: Planner,
  ctx: Context,
  d: DesiredDefaultChannelGroup,
  l: LiveDefaultChannelGroup | undefined,
  address: string,
) {
  const where = `${address} (${d.path})`;
  const refs: ChannelRef[] = [];
  for (const name of d.channels) {
    const r = ctx.resolve(name);
    if (!r) {
      const l = p.idx.channelsByKey.get(channelNameKey(name));
      p.errors.push(
        l?.archived === true || p.desiredChannels.get(channelNameKey(name))?.archived === true
          ? `${where}: channel '${name}' is archived; Zulip adds only active channels to a default channel group ("Invalid channel name '${name}'"). Remove it from channels, or unarchive it`
          : `${where}: channel '${name}' does not exist; declare it or fix the name`,
      );
      continue;
    }
    refs.push(r);
  }
  const liveIds = new Set(l?.channelIds ?? []);
  const ignoreChannels = l !== undefined && isIgnored(d.lifecycle, 'channels');
  // Channels the plan adds to the group: Zulip refuses default channels and private
  // channels the applying account cannot read.
  const adding = ignoreChannels ? [] : refs.filter((r) => !r.live || !liveIds.has(r.live.id));
  const refused = new Set<ChannelRef>();
  for (const r of adding) {
    if (r.defaultAfter) {
      refused.add(r);
      p.errors.push(
        `${where}: channel '${r.name}' is a default channel, and Zulip refuses to add a default channel to a default channel group ("'${r.name}' is a default channel and cannot be added to '${d.name}'"). Remove it from channels, or make it not a default channel (defaultChannel: false)`,
      );
    } else if (!r.readable) {
      refused.add(r);
      warnNoAccess(p, r.name, `adding #${r.name} to the group`, address, d.path);
    }
  }
  const after = refs.filter((r) => !refused.has(r));
  // Changes must wait for the channels they name to exist under their new names and, for the
  // ones they add, to stop being default channels.
  const meta = {
    refs: [...new Set(refs.map((r) => r.address))],
    after: [
      ...adding
        .filter((r) => r.live?.defaultChannel === true && !r.defaultAfter)
        .map((r) => `${r.address}#update`),
      ...adding.filter((r) => r.readableThroughPlan).map((r) => `${r.address}#membership`),
      ...adding.flatMap((r) => r.readableThroughGroups),
    ],
  };
  const afterNames = [...new Set(after.map((r) => r.name))].sort(byName);
  return { ignoreChannels, after, meta, afterNames };
}

export function defaultChannelGroups(
  p: Planner,
): KeyedPlan<DesiredDefaultChannelGroup, LiveDefaultChannelGroup> {
  const ctx = context(p);
  return {
    kind: 'defaultChannelGroup',
    create: (p, d, base, props) => {
      const { meta, afterNames } = groupChannels(p, ctx, d, undefined, base.address);
      props.channels = afterNames;
      return { meta };
    },
    update: (p, d, l, base, props) => {
      const { ignoreChannels, after, meta, afterNames } = groupChannels(p, ctx, d, l, base.address);
      const description = d.description ?? '';
      if (!isIgnored(d.lifecycle, 'description') && description !== l.description) {
        if (description === '')
          p.warn(
            'NOT_WRITABLE',
            `left out of this plan: clearing the description. Zulip cannot clear a default channel group's description ("You must pass "new_description" or "new_group_name"."); give it a description, or delete and declare the group again`,
            base.address,
            d.path,
          );
        else p.prop(props, d.lifecycle, 'description', l.description, description);
      }
      if (!ignoreChannels) {
        const beforeNames: string[] = [];
        for (const id of l.channelIds) {
          const name = ctx.nameAfter(id);
          if (name === undefined) continue;
          const ch = p.idx.channelsById.get(id);
          const kept = after.some((r) => r.live?.id === id);
          if (!kept && ch?.private === true && !contentAccess(p, ch)) {
            // Zulip cannot remove it either: it stays, and the plan says so.
            warnNoAccess(p, ch.name, `removing #${name} from the group`, base.address, d.path);
            afterNames.push(name);
          }
          beforeNames.push(name);
        }
        beforeNames.sort(byName);
        afterNames.sort(byName);
        p.prop(props, d.lifecycle, 'channels', beforeNames, [...new Set(afterNames)]);
        // Channels are removed by their names after the plan: a rename goes first.
        meta.refs = [
          ...new Set([...meta.refs, ...beforeNames.map((n) => resourceAddress('channel', n))]),
        ];
      }
      return { meta };
    },
    removed: (p, g) => ({
      name: g.name,
      description: g.description,
      channels: g.channelIds
        .map((id) => p.idx.channelsById.get(id)?.name ?? `channel#${id}`)
        .sort(byName),
    }),
  };
}

function warnNoAccess(
  p: Planner,
  channel: string,
  what: string,
  address: string,
  path: string,
): void {
  const me = p.live.me.email;
  p.warn(
    'NO_CONTENT_ACCESS',
    `left out of this plan: ${what}. Zulip finds a group's channels by name only among those the applying account can read (access_stream_by_name), and ${me} cannot read the private channel #${channel}: it is not subscribed to it, nor in its can_add_subscribers_group or can_subscribe_group (organization administrators get no exception). Subscribe ${me} to it, or apply as a subscriber.`,
    address,
    path,
  );
}
