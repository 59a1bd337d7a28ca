/**
 * Channels: create, update, archive, subscribers (and the content access that changing a private
 * channel needs), and the subscription settings that follow the subscribers.
 *
 * Functions of the planner's phases (see `Planner` in `./planner.ts`): they read and write its
 * shared state.
 */
import { hasContentAccess, recursiveGroupIds } from '../../model/access';
import { channelNameKey, resourceAddress } from '../../model/address';
import type { DesiredChannel, Membership } from '../../model/desired-state';
import { SUBSCRIPTION_PROPERTIES } from '../../model/kinds';
import type { SubscriptionPropertyName } from '../../model/kinds';
import type { LiveChannel } from '../../model/live-state';
import { CHANNEL_PERMISSIONS } from '../../model/permissions';
import { normaliseChannelDescription, retentionToNatural } from '../live-index';
import type { PropertyChange } from '../plan-format';
import { joinAnd, someOf } from '../render/describe';
import type { ChangeMeta } from '../plan-finish';
import type { Planner, Props } from './planner';
import { CONTENT_ACCESS_WIRES, groupAddress, isIgnored } from './planner';
import { checkGroupRef, createPermissions, updatePermissions } from './permissions';
import { folderTarget, nameOfLiveFolder } from './folders';
import { expandGroup } from './groups';

export function planChannels(p: Planner): void {
  const claimed = new Set<number>();
  const folders = p.supports('channelFolders');
  for (const d of p.desired.channels) {
    const address = resourceAddress('channel', d.name);
    const base = { kind: 'channel' as const, address, key: d.name, path: d.path };
    const key = channelNameKey(d.name);
    const l = p.channelMatch.get(key) ?? null;
    const isPrivate = d.private ?? false;
    const folderRefs =
      typeof d.folder === 'string'
        ? [
            resourceAddress(
              'channelFolder',
              p.desiredFolders.get(channelNameKey(d.folder))?.name ?? d.folder,
            ),
          ]
        : [];
    if (!l) {
      if (d.archived === true) {
        p.removedNotFound('archived', address, d.path);
        continue;
      }
      const props: Props = {
        name: d.name.trim(),
        description: normaliseChannelDescription(d.description ?? ''),
        private: isPrivate,
        webPublic: d.webPublic ?? false,
        historyPublicToSubscribers: d.historyPublicToSubscribers ?? !isPrivate,
        defaultChannel: d.defaultChannel ?? false,
        messageRetentionDays: d.messageRetentionDays ?? 'realm_default',
      };
      if (props.messageRetentionDays !== 'realm_default')
        p.checkRetention('creating a channel with its own message retention', address, d.path);
      if (p.supports('topicsPolicy')) props.topicsPolicy = d.topicsPolicy ?? 'inherit';
      if (folders) {
        const folder = d.folder ?? null;
        if (folder !== null) folderTarget(p, folder, address, d.path);
        props.folder =
          folder === null ? null : (p.desiredFolders.get(channelNameKey(folder))?.name ?? folder);
      }
      if (d.announce !== undefined) props.announce = d.announce;
      const refs = createPermissions(p, CHANNEL_PERMISSIONS, d.permissions, address, d.path, props);
      p.addCreate(base, props, { refs: [...refs.map(groupAddress), ...folderRefs] });
      channelMembership(p, d, null, address);
      announceNeedsSubscribers(p, d, props, address);
      continue;
    }
    claimed.add(l.id);
    const renamed = channelNameKey(l.name) !== key;
    if (renamed) p.addRename(base, l.id, l.name, d.name);
    const archived = isIgnored(d.lifecycle, 'archived') ? l.archived : (d.archived ?? false);
    p.addRemoveOrRestore(base, l.id, {
      live: l.archived,
      declared: archived,
      protect: d.lifecycle?.protect,
      remove: 'archive',
      restore: 'unarchive',
      restoreNeeds: {
        feature: 'channelUnarchive',
        what: 'the channel is archived (its name stays reserved) and unarchiving',
        hint: 'rename the channel or unarchive it in Zulip',
      },
      before: { name: l.name, description: l.description, private: l.private },
    });
    if (archived) continue;
    const props: PropertyChange[] = [];
    const meta = { refs: [] as string[], releases: [] as string[] };
    const lc = d.lifecycle;
    if (!renamed) p.prop(props, lc, 'name', l.name, d.name.trim());
    p.prop(
      props,
      lc,
      'description',
      l.description,
      normaliseChannelDescription(d.description ?? ''),
    );
    p.prop(props, lc, 'private', l.private, isPrivate);
    p.prop(props, lc, 'webPublic', l.webPublic, d.webPublic ?? false);
    p.prop(
      props,
      lc,
      'historyPublicToSubscribers',
      l.historyPublicToSubscribers,
      d.historyPublicToSubscribers ?? !isPrivate,
    );
    p.prop(props, lc, 'defaultChannel', l.defaultChannel, d.defaultChannel ?? false);
    const retentionBefore = props.length;
    p.prop(
      props,
      lc,
      'messageRetentionDays',
      retentionToNatural(l.messageRetentionDays),
      d.messageRetentionDays ?? 'realm_default',
    );
    if (props.length > retentionBefore)
      p.checkRetention('changing message retention', address, d.path);
    if (p.supports('topicsPolicy') && l.topicsPolicy !== null)
      p.prop(props, lc, 'topicsPolicy', l.topicsPolicy, d.topicsPolicy ?? 'inherit');
    if (folders && !isIgnored(lc, 'folder')) {
      const folder = d.folder ?? null;
      const target = folderTarget(p, folder, address, d.path);
      p.channelFolderAfter.set(l.id, target);
      if (target !== l.folderId) {
        const before =
          l.folderId === null
            ? null
            : (p.idx.foldersById.get(l.folderId)?.name ?? `folder#${l.folderId}`);
        const after =
          folder === null ? null : (p.desiredFolders.get(channelNameKey(folder))?.name ?? folder);
        props.push({ property: 'folder', before, after });
        meta.refs.push(...folderRefs);
        if (l.folderId !== null) {
          const lf = p.idx.foldersById.get(l.folderId);
          if (lf) meta.releases.push(resourceAddress('channelFolder', nameOfLiveFolder(p, lf)));
        }
      }
    }
    const groupMeta = { refs: [] as string[], releases: [] as string[] };
    updatePermissions(
      p,
      CHANNEL_PERMISSIONS,
      d.permissions,
      l,
      l.creatorId,
      lc,
      address,
      d.path,
      props,
      groupMeta,
    );
    meta.refs.push(...groupMeta.refs.map(groupAddress));
    meta.releases.push(...groupMeta.releases.map(groupAddress));
    const updateMeta: ChangeMeta = meta;
    dropGatedProps(p, l, props, address, d.path);
    p.addUpdate(base, l.id, props, updateMeta);
    channelMembership(p, d, l, address);
  }
  warnLeftOut(p);
  for (const l of p.live.channels) {
    if (claimed.has(l.id) || l.archived) continue;
    p.undeclared('channel', l.name, l.id, {
      name: l.name,
      description: l.description,
      private: l.private,
    });
  }
}

/**
 * `POST /channels/create` returns before announcing when the channel has no subscribers
 * (zerver/views/streams.py `create_channel`): `announce` would announce nothing, and the plan
 * must not say it does: it is left out of the plan (apply then sends `announce=false`,
 * which Zulip treats the same), and said.
 */
function announceNeedsSubscribers(
  p: Planner,
  d: DesiredChannel,
  props: Props,
  address: string,
): void {
  if (props.announce !== true || !p.supports('channelsCreate')) return;
  const key = channelNameKey(d.name);
  const subscribers = p.channelSubscribersAfter.get(key)?.size ?? 0;
  // A new channel whose subscription settings the plan sets is created with the account in it.
  const withMe = p.desired.subscriptionSettings.some((s) => channelNameKey(s.channel) === key);
  if (subscribers > 0 || withMe) return;
  delete props.announce;
  p.warn(
    'NOTHING_ANNOUNCED',
    'announce: true, but Zulip announces a new channel only when it is created with subscribers; no announcement will be made: declare subscribers, or drop announce',
    address,
    d.path,
  );
}

/** The groups the applying account belongs to, directly or through subgroups (live). */
function myGroupIds(p: Planner): ReadonlySet<number> {
  p.myGroups ??= recursiveGroupIds(p.live.me.userId, p.live.userGroups);
  return p.myGroups;
}

/**
 * Whether the applying account has content access to a live channel, as Zulip decides it
 * (`user_has_content_access`): organization administrators get no bypass.
 */
export function contentAccess(p: Planner, l: LiveChannel): boolean {
  const me = p.live.me;
  const subscribed =
    l.subscribers?.includes(me.userId) === true ||
    p.live.subscriptionSettings.some((s) => s.channelId === l.id);
  return hasContentAccess(me, l, subscribed, myGroupIds(p));
}

/**
 * Zulip refuses, to an account without content access to a private channel, adding
 * subscribers ("Unable to access channel (NAME).", for the whole batch) and changing its
 * privacy, `can_add_subscribers_group` or `can_subscribe_group` ("Channel content access is
 * required."). Subscribing the account itself is refused the same way. Such changes are left
 * out of the plan, and the plan says so on the construct, once per channel, with what would
 * make them possible: apply never fails on them, nor takes other channels of a batch down
 * with it.
 */
export function leaveOut(
  p: Planner,
  l: LiveChannel,
  what: string,
  address: string,
  path: string,
): void {
  const entry = p.leftOut.get(address);
  if (entry) entry.what.push(what);
  else p.leftOut.set(address, { l, path, what: [what] });
}

/** One NO_CONTENT_ACCESS warning per channel, for what {@link leaveOut} collected. */
export function warnLeftOut(p: Planner): void {
  const me = p.live.me.email;
  for (const [address, { l, path, what }] of p.leftOut)
    p.warn(
      'NO_CONTENT_ACCESS',
      `left out of this plan: ${joinAnd(what)}. Zulip lets only accounts with access to a private channel's content do that, and the applying account (${me}) is neither subscribed to #${l.name} nor in its can_add_subscribers_group or can_subscribe_group (organization administrators get no exception). To make it possible, have a subscriber subscribe ${me} or add it to one of those groups, or apply as a subscriber.`,
      address,
      path,
    );
}

/** Removes the changes of `props` that need content access the account lacks (see above). */
function dropGatedProps(
  p: Planner,
  l: LiveChannel,
  props: PropertyChange[],
  address: string,
  path: string,
): void {
  if (!l.private) return;
  const privacy = props.find((p) => p.property === 'private');
  const settings = props.filter((p) => p.wire !== undefined && CONTENT_ACCESS_WIRES.has(p.wire));
  if ((privacy === undefined && settings.length === 0) || contentAccess(p, l)) return;
  const gated: PropertyChange[] = [...settings];
  const what: string[] = [];
  if (privacy) {
    // Web-public needs the channel public ("Invalid parameters"), and the history change was
    // reviewed as part of making it public: neither goes ahead alone.
    const web = props.find((p) => p.property === 'webPublic' && p.after === true);
    gated.push(privacy, ...props.filter((p) => p.property === 'historyPublicToSubscribers'));
    if (web) gated.push(web);
    what.push(web ? 'making it web-public' : 'making it public');
  }
  for (const p of settings)
    what.push(
      p.wire === 'can_add_subscribers_group'
        ? 'changing who may add subscribers (can_add_subscribers_group)'
        : 'changing who may subscribe (can_subscribe_group)',
    );
  const kept = props.filter((p) => !gated.includes(p));
  props.length = 0;
  props.push(...kept);
  leaveOut(p, l, joinAnd(what), address, path);
}

function channelMembership(
  p: Planner,
  d: DesiredChannel,
  l: LiveChannel | null,
  address: string,
): void {
  const key = channelNameKey(d.name);
  const have = l?.subscribers ?? null;
  const s: Membership | undefined = d.subscribers;
  if (!s || isIgnored(d.lifecycle, 'subscribers')) {
    if (have) p.channelSubscribersAfter.set(key, new Set(have));
    return;
  }
  const want = new Set<number>();
  for (const u of p.idx.usersOf(s.users)) if (u?.isActive) want.add(u.id);
  for (const g of s.groups) {
    checkGroupRef(p, g, address, d.path);
    for (const id of expandGroup(p, g)) want.add(id);
  }
  if (l && have === null) {
    p.warn(
      'SUBSCRIBERS_NOT_VISIBLE',
      'the applying account cannot see who is subscribed; subscribers left as they are',
      address,
      d.path,
    );
    return;
  }
  const current = (have ?? []).filter((id) => p.idx.usersById.get(id)?.isActive !== false);
  const currentSet = new Set(current);
  let add = [...want].filter((id) => !currentSet.has(id));
  if (add.length > 0 && l?.private === true && !contentAccess(p, l)) {
    leaveOut(p, l, `subscribing ${someOf(p.users(add).map((u) => u.email))}`, address, d.path);
    add = [];
  }
  const remove = s.mode === 'exact' ? current.filter((id) => !want.has(id)) : [];
  // The set of the current subscribers becomes the set after the plan (no copy per channel).
  const after = currentSet;
  for (const id of remove) after.delete(id);
  for (const id of add) after.add(id);
  p.channelSubscribersAfter.set(key, after);
  if (add.length + remove.length === 0) return;
  // Zulip messages each non-bot user another user subscribes to an existing channel: always
  // below FL 397, and from 397 only when asked (apply asks when the channel is announced).
  // It never messages the subscribers a channel is created with.
  const notify = l !== null && (!p.supports('sendNewSubscriptionMessages') || d.announce === true);
  const messaged = notify
    ? p
        .users(add)
        .filter((u) => u.id !== p.live.me.userId && !p.idx.usersById.get(u.id)?.isBot)
        .map((u) => u.email)
    : [];
  p.add({
    id: `${address}#membership`,
    action: 'membership',
    kind: 'channel',
    address,
    key: d.name,
    path: d.path,
    dependsOn: [],
    liveId: l?.id ?? null,
    collection: 'subscribers',
    mode: s.mode,
    add: p.users(add),
    remove: p.users(remove),
    addSubgroups: [],
    removeSubgroups: [],
    notify,
    ...(messaged.length > 0 ? { messaged } : {}),
  });
}

export function planSubscriptionSettings(p: Planner): void {
  const names = Object.keys(SUBSCRIPTION_PROPERTIES) as SubscriptionPropertyName[];
  for (const d of p.desired.subscriptionSettings) {
    const address = resourceAddress('subscriptionSettings', d.channel);
    const key = channelNameKey(d.channel);
    const channel = p.desiredChannels.has(key)
      ? p.channelMatch.get(key)
      : p.idx.channelsByKey.get(key);
    if (channel === undefined) {
      p.errors.push(`${address} (${d.path}): channel '${d.channel}' does not exist`);
      continue;
    }
    const liveSub = channel
      ? p.live.subscriptionSettings.find((s) => s.channelId === channel.id)
      : undefined;
    const props: PropertyChange[] = [];
    for (const p of names) {
      const after = d[p];
      if (after === undefined) continue;
      const before = liveSub ? liveSub[p] : null;
      // Zulip stores colours as sent; compare hex case-insensitively.
      const same =
        p === 'color' && typeof before === 'string' && typeof after === 'string'
          ? before.toLowerCase() === after.toLowerCase()
          : before === after;
      if (!same && !isIgnored(d.lifecycle, p)) props.push({ property: p, before, after });
    }
    if (props.length === 0) continue;
    if (!liveSub) {
      // Zulip sets only the caller's own subscription ("Not subscribed to channel ID N"). A
      // channel this plan creates without declared subscribers is created with the applying
      // account subscribed (apply does so for its settings); otherwise the subscribers it will
      // have after apply decide, for new and live channels alike.
      const after = p.channelSubscribersAfter.get(key);
      const createdWithoutSubscribers = channel === null && after === undefined;
      if (!createdWithoutSubscribers && !after?.has(p.live.me.userId)) {
        p.warn(
          'NOT_SUBSCRIBED',
          channel === null
            ? `the applying account (${p.live.me.email}) is not among the subscribers '${d.channel}' is created with; its subscription settings cannot be set (add the account to the channel's subscribers)`
            : `the applying account (${p.live.me.email}) is not subscribed to '${d.channel}'; its subscription settings cannot be set`,
          address,
          d.path,
        );
        continue;
      }
    }
    const channelAddress = resourceAddress(
      'channel',
      p.desiredChannels.get(key)?.name ?? channel?.name ?? d.channel,
    );
    p.addUpdate(
      { kind: 'subscriptionSettings', address, key: d.channel, path: d.path },
      channel?.id ?? null,
      props,
      { refs: [channelAddress], afterMembershipOf: channelAddress },
    );
  }
}
