/**
 * What crosses kinds in planning, in one place: the matching of declared objects to live ones
 * (`matchAll`), the expansion of groups into the users they hold after the plan, the groups a
 * group's create cannot name yet, the content access a private channel's changes need, the
 * subscribers (and the subscription settings that follow them), and folder emptiness.
 *
 * `Planner.run()` calls `checkUsers`, `matchAll`, then each kind's planner in the order of
 * `RESOURCE_KINDS` (`KIND_PLANNERS`, `./kinds.ts`). Each reads what the phases before it wrote
 * into the planner's shared maps, and nothing else checks that order, so a kind goes after
 * every kind it reads (in `RESOURCE_KINDS`, which is also the order of a rendered plan):
 *
 * 1. `checkUsers` (`users.ts`): every e-mail the configuration names, against the live users.
 *    Writes `errors` (unknown users, once each via `unknownUserLines`) and `DEACTIVATED_USER`
 *    warnings. Later phases only leave such users out (`resolveUsers`), without a word.
 * 2. `matchAll`: declared → live, by natural key then `renamedFrom`, for folders, groups and
 *    channels (`matchLive`). Writes `desiredFolders`, `desiredGroups`, `desiredChannels`,
 *    `folderMatch`, `groupMatch`, `channelMatch`, `idx.groupRenames` (a renamed group's new
 *    name, used to describe group-setting values) and `referenced` (undeclared live groups and
 *    folders the configuration uses). It comes before any diffing because kinds refer to each
 *    other (a channel's folder and groups, a group's subgroups): every phase must resolve a
 *    reference to the same live object, whichever kind it plans.
 * 3. `channelFolder`: reads `folderMatch` and `referenced` (a referenced folder is never
 *    pruned). Pushes folder changes, archives of undeclared folders included, and the reorder.
 * 4. `userGroup`: reads `groupMatch` (also for which groups this plan creates: settings that
 *    name a group created later are deferred to an update, `groupsCreatedLater`),
 *    `desiredGroups` and `referenced`; fills the `expansions` cache (`expandGroup`: group name →
 *    the user IDs it holds after the plan).
 * 5. `channel`: reads `channelMatch`, `folderMatch`/`desiredFolders` (a channel's folder),
 *    `groupMatch` and `expansions` (subscribers through groups, content access). Writes
 *    `channelFolderAfter` (each live channel's folder after the plan),
 *    `channelSubscribersAfter` (each channel's subscribers after the plan), `myGroups` (a
 *    cache), and `leftOut`, which it reports itself after its declared channels
 *    (`warnLeftOut`). Then `keepNonEmptyFolders` reads the folder archives in `changes`
 *    (phase 3) and `channelFolderAfter`, and drops the archive of a folder a channel stays
 *    in: it must run after both.
 * 6. `linkifier`, `playground`, `savedSnippet`, `customEmoji`, `user`: independent of the maps
 *    above (they read only the live index and the desired state).
 * 7. `subscriptionSettings` (`planSubscriptionSettings`): reads `desiredChannels`,
 *    `channelMatch` and `channelSubscribersAfter` (Zulip sets only the caller's own
 *    subscription: a setting the applying account will not be subscribed to after the plan is a
 *    `NOT_SUBSCRIBED` warning), so it comes after `channel`.
 * 8. `organizationSettings` (`organization.ts`): reads `desiredChannels` and `channelMatch` (a
 *    channel-valued setting may name a channel this plan creates) and writes `referenced` for
 *    the live channels it names; after `channel`. The groups its permissions name are added to
 *    `referenced` by `matchAll`.
 * 9. `defaultChannelGroup`: reads `channelMatch`, `desiredChannels` and
 *    `channelSubscribersAfter` (a group names channels by their names after the plan, and waits
 *    for their creation, rename, change of default status or the account's subscription), so
 *    it comes after `channel`.
 */
import { hasContentAccess, recursiveGroupIds } from '../../model/access';
import { channelNameKey, resourceAddress } from '../../model/address';
import type {
  DesiredChannel,
  DesiredUserGroup,
  GroupSettingValue,
  Lifecycle,
  Membership,
} from '../../model/desired-state';
import { KIND_SPECS, SUBSCRIPTION_PROPERTIES } from '../../model/kinds';
import type { SubscriptionPropertyName } from '../../model/kinds';
import type { LiveChannel, LiveChannelFolder, LiveUserGroup } from '../../model/live-state';
import { folderRenameStandIn } from '../../model/rules';
import type { PropertyChange } from '../plan-format';
import { joinAnd, someOf } from '../words';
import { matchLive } from './keyed';
import { checkGroupRef } from './permissions';
import type { Planner, Props } from './planner';
import { CONTENT_ACCESS_WIRES, groupAddress, groupsIn, isIgnored } from './planner';

/**
 * Zulip refuses to archive a folder that still holds any channel, archived ones included:
 * drop such archives (and say why) rather than plan a step that cannot succeed.
 */
export function keepNonEmptyFolders(p: Planner): void {
  const drop = new Set<string>();
  for (const c of p.changes) {
    if (c.kind !== 'channelFolder' || c.action !== 'archive') continue;
    const remaining = p.live.channels.filter((ch) => {
      const after = p.channelFolderAfter.has(ch.id) ? p.channelFolderAfter.get(ch.id) : ch.folderId;
      return after === c.liveId;
    });
    if (remaining.length === 0) continue;
    drop.add(c.id);
    p.warn(
      'FOLDER_NOT_EMPTY',
      `not archived: Zulip archives only empty folders, and ${remaining.map((ch) => ch.name).join(', ')} would still be in it; move those channels out first`,
      c.address,
      c.path ?? undefined,
    );
  }
  if (drop.size === 0) return;
  const kept = p.changes.filter((c) => !drop.has(c.id));
  p.changes.length = 0;
  p.changes.push(...kept);
}

export function nameOfLiveFolder(p: Planner, f: LiveChannelFolder): string {
  for (const [k, m] of p.folderMatch)
    if (m?.id === f.id) return p.desiredFolders.get(k)?.name ?? f.name;
  return f.name;
}

/** The live folder ID a desired `folder` value points at; undefined when the folder is created. */
export function folderTarget(
  p: Planner,
  folder: string | null,
  address: string,
  path: string,
): number | null | undefined {
  if (folder === null) return null;
  const k = channelNameKey(folder);
  if (p.desiredFolders.has(k)) return p.folderMatch.get(k)?.id ?? undefined;
  const l = p.idx.foldersByKey.get(k);
  if (l) return l.id;
  p.errors.push(`${address} (${path}): channel folder '${folder}' does not exist`);
  return null;
}

/**
 * For each group this plan creates, the new groups that its create cannot name: itself, and
 * every new group whose create needs it first (through a setting or a subgroup), directly or
 * not. A group may manage itself, and two new groups may manage each other; Zulip can only
 * set such a value once both exist.
 */
export function groupsCreatedLater(p: Planner): Map<string, Set<string>> {
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

export function expandGroupUncached(p: Planner, name: string, seen: Set<string>): Set<number> {
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
    for (const id of l.members) if (p.idx.isActiveId(id)) out.add(id);
    for (const sub of l.subgroups) {
      const sg = p.idx.groupsById.get(sub);
      if (sg) for (const id of expandGroup(p, sg.name, seen)) out.add(id);
    }
  }
  return out;
}

export function groupMembership(
  p: Planner,
  d: DesiredUserGroup,
  l: LiveUserGroup | null,
  address: string,
): void {
  if (isIgnored(d.lifecycle, 'members')) return;
  const want = p.resolveUsers(d.members.users);
  const have = l ? p.idx.withoutInactive(l.members) : [];
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
export function nameOfLiveGroup(p: Planner, id: number): string {
  for (const [name, g] of p.groupMatch) if (g?.id === id) return name;
  return p.idx.groupNameOf(id);
}

/**
 * `POST /channels/create` returns before announcing when the channel has no subscribers
 * (zerver/views/streams.py `create_channel`): `announce` would announce nothing, and the plan
 * must not say it does: it is left out of the plan (apply then sends `announce=false`,
 * which Zulip treats the same), and said.
 */
export function announceNeedsSubscribers(
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
export function myGroupIds(p: Planner): ReadonlySet<number> {
  p.myGroups ??= recursiveGroupIds(p.live.me.userId, p.live.userGroups);
  return p.myGroups;
}

/**
 * Whether the applying account has content access to a live channel, as Zulip decides it
 * (`user_has_content_access`): organization administrators get no bypass.
 */
export function contentAccess(p: Planner, l: LiveChannel): boolean {
  return hasContentAccess(p.live.me, l, subscribedLive(p, l), myGroupIds(p));
}

/** Whether the applying account is subscribed to a live channel. */
export function subscribedLive(p: Planner, l: LiveChannel): boolean {
  return (
    l.subscribers?.includes(p.live.me.userId) === true ||
    p.live.subscriptionSettings.some((s) => s.channelId === l.id)
  );
}

/** What changing each setting that needs content access does, in the plan's words. */
export const CHANGING: Readonly<Record<string, string>> = {
  can_add_subscribers_group: 'changing who may add subscribers (can_add_subscribers_group)',
  can_subscribe_group: 'changing who may subscribe (can_subscribe_group)',
};
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
export function dropGatedProps(
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
  for (const p of settings) what.push(CHANGING[p.wire ?? ''] ?? `changing ${p.wire}`);
  const kept = props.filter((p) => !gated.includes(p));
  props.length = 0;
  props.push(...kept);
  leaveOut(p, l, joinAnd(what), address, path);
}

/**
 * A channel's subscribers after the plan, as its current ones (the live list, not copied), those
 * the plan adds and those it removes; made a set only when asked (the account's own
 * subscription, the count of a new channel's).
 */
export class SubscribersAfter {
  #set: Set<number> | undefined;

  public constructor(
    private readonly current: readonly number[],
    private readonly added: readonly number[],
    private readonly removed: readonly number[],
  ) {}

  public has(id: number): boolean {
    return this.#members().has(id);
  }

  public get size(): number {
    return this.#members().size;
  }

  #members(): Set<number> {
    if (!this.#set) {
      this.#set = new Set(this.current);
      for (const id of this.removed) this.#set.delete(id);
      for (const id of this.added) this.#set.add(id);
    }
    return this.#set;
  }
}

export function channelMembership(
  p: Planner,
  d: DesiredChannel,
  l: LiveChannel | null,
  address: string,
  beforeAdding?: () => void,
): void {
  const key = channelNameKey(d.name);
  const have = l?.subscribers ?? null;
  const s: Membership | undefined = d.subscribers;
  if (!s || isIgnored(d.lifecycle, 'subscribers')) {
    if (have) p.channelSubscribersAfter.set(key, new SubscribersAfter(have, [], []));
    return;
  }
  // The wanted users in order, each once, and marked (no sets per channel: a million
  // subscribers at the largest sizes).
  const { want, found } = p.channelMarks;
  want.clear();
  const wanted: number[] = [];
  for (const id of p.resolveUsers(s.users)) if (want.mark(id)) wanted.push(id);
  for (const g of s.groups) {
    checkGroupRef(p, g, address, d.path);
    for (const id of expandGroup(p, g)) if (want.mark(id)) wanted.push(id);
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
  const current = p.idx.withoutInactive(have ?? []);
  // One pass over the current subscribers: those not wanted, and the wanted ones found (no set
  // of the current subscribers per channel: a million at the largest sizes).
  found.clear();
  let foundCount = 0;
  const notWanted: number[] = [];
  for (const id of current)
    if (!want.has(id)) notWanted.push(id);
    else if (found.mark(id)) foundCount += 1;
  let add = foundCount === wanted.length ? [] : wanted.filter((id) => !found.has(id));
  // The channel's own update goes first: what it does to the account's access counts.
  if (add.length > 0 && l?.private === true) beforeAdding?.();
  if (add.length > 0 && l?.private === true && !contentAccess(p, l)) {
    leaveOut(p, l, `subscribing ${someOf(p.users(add).map((u) => u.email))}`, address, d.path);
    add = [];
  }
  const remove = s.mode === 'exact' ? notWanted : [];
  p.channelSubscribersAfter.set(key, new SubscribersAfter(current, add, remove));
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

/**
 * Matches declared objects to live ones by natural key, then through `renamedFrom`, before any
 * diffing: references between kinds (a channel's folder, a group's subgroups) must resolve to
 * the same live object whichever kind is planned first.
 */
export function matchAll(p: Planner): void {
  for (const f of p.desired.channelFolders) p.desiredFolders.set(channelNameKey(f.name), f);
  for (const g of p.desired.userGroups) p.desiredGroups.set(g.name, g);
  for (const c of p.desired.channels) p.desiredChannels.set(channelNameKey(c.name), c);

  const match = <D extends { name: string; lifecycle?: Lifecycle | undefined }, L>(
    kind: 'channelFolder' | 'userGroup' | 'channel',
    items: readonly D[],
    live: { get(key: string): L | undefined },
    declared: { has(key: string): boolean },
    out: Map<string, L | null>,
  ): void => {
    const key = KIND_SPECS[kind].compareKey;
    for (const d of items)
      out.set(
        key(d.name),
        matchLive(kind, d.name, d.lifecycle?.renamedFrom, live, declared).live ?? null,
      );
  };
  match(
    'channelFolder',
    p.desired.channelFolders,
    {
      // A folder left under its stand-in name by an interrupted case-only rename is the same
      // folder.
      get: (k) =>
        p.idx.foldersByKey.get(k) ?? p.idx.foldersByKey.get(channelNameKey(folderRenameStandIn(k))),
    },
    p.desiredFolders,
    p.folderMatch,
  );
  match(
    'userGroup',
    p.desired.userGroups,
    {
      get: (k) => {
        const g = p.idx.groupsByName.get(k);
        return g && !g.isSystemGroup ? g : undefined;
      },
    },
    p.desiredGroups,
    p.groupMatch,
  );
  for (const [name, g] of p.groupMatch)
    if (g && g.name !== name) p.idx.groupRenames.set(g.id, name);
  const refGroup = (name: string): void => {
    if (!p.desiredGroups.has(name)) p.referenced.add(groupAddress(name));
  };
  const refValue = (v: GroupSettingValue | undefined): void => {
    for (const g of groupsIn(v)) refGroup(g);
  };
  for (const g of p.desired.userGroups) {
    g.members.groups.forEach(refGroup);
    Object.values(g.permissions).forEach(refValue);
  }
  for (const o of p.desired.organizationSettings) Object.values(o.permissions).forEach(refValue);
  for (const c of p.desired.channels) {
    c.subscribers?.groups.forEach(refGroup);
    Object.values(c.permissions).forEach(refValue);
    if (typeof c.folder === 'string') {
      const l = p.idx.foldersByKey.get(channelNameKey(c.folder));
      if (l && !p.desiredFolders.has(channelNameKey(c.folder)))
        p.referenced.add(resourceAddress('channelFolder', l.name));
    }
  }
  match('channel', p.desired.channels, p.idx.channelsByKey, p.desiredChannels, p.channelMatch);
}
