import { CHANNEL_PERMISSIONS, GROUP_PERMISSIONS } from '../src/model/permissions';
import type { PermissionSettingInfo } from '../src/model/permissions';
import { ROLES } from '../src/model/kinds';
import type { RoleName } from '../src/model/kinds';
import { emptyDesiredState } from '../src/model/desired-state';
import type {
  DesiredChannel,
  DesiredChannelFolder,
  DesiredState,
  DesiredUser,
  DesiredUserGroup,
  GroupSettingValue,
} from '../src/model/desired-state';
import { addUser, emptyOrg, newSubscription, nextId, systemGroupId } from '../src/emulator/state';
import type {
  OrgState,
  StoredChannel,
  StoredGroupSetting,
  StoredUser,
} from '../src/emulator/state';

/**
 * The bench's organization (issue 5): built directly in the emulator's state (no API calls),
 * together with the matching desired state in which about 5% of the properties differ, so the
 * plan is not trivial. Deterministic: the same scale gives the same organization.
 *
 * At scale 1: 2,000 channels, 300 groups (every tenth has two subgroups), 10,000 users and
 * exactly 100,000 subscriptions (50 per channel).
 */

export const FULL_SIZE = {
  channels: 2000,
  groups: 300,
  users: 10000,
  subscriptionsPerChannel: 50,
} as const;

export const BENCH_DOMAIN = 'bench.example';

/** What the generator made, for the report. */
export interface BenchOrgCounts {
  readonly channels: number;
  readonly groups: number;
  readonly users: number;
  readonly subscriptions: number;
  readonly folders: number;
  /** Objects that exist only in the desired state (planned as creates). */
  readonly newChannels: number;
  readonly newGroups: number;
}

export interface BenchOrg {
  /** The live organization, for `startEmulator({ state })`. */
  readonly org: OrgState;
  /** The configuration to plan against it. */
  readonly desired: DesiredState;
  readonly counts: BenchOrgCounts;
  /** The applying account (an owner). */
  readonly owner: { readonly email: string; readonly apiKey: string };
}

export interface GenerateOptions {
  /** 1 = the size; 0.1 for a quick run. */
  readonly scale?: number;
  /** Creation time of every object (UNIX ms); fixed by default so runs are comparable. */
  readonly now?: number;
  /**
   * Exact number of channels, overriding the scale for channels only (the smoke test uses
   * 20 channels).
   */
  readonly channels?: number;
}

/** A small, fast, seeded PRNG (mulberry32): the same sequence on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/**
 * Picks up to `count` distinct items of `pool` that are not in `exclude` (deterministic with
 * `rnd`). `exclude` may hold items outside the pool.
 */
function pick<T>(
  pool: readonly T[],
  count: number,
  rnd: () => number,
  exclude: ReadonlySet<T>,
): T[] {
  const out: T[] = [];
  const seen = new Set<T>(exclude);
  let excluded = 0;
  for (const x of exclude) if (poolHas(pool, x)) excluded += 1;
  const want = Math.min(count, Math.max(0, pool.length - excluded));
  while (out.length < want) {
    const x = pool[Math.floor(rnd() * pool.length)] as T;
    if (seen.has(x)) continue;
    seen.add(x);
    out.push(x);
  }
  return out;
}

const poolSets = new WeakMap<readonly unknown[], Set<unknown>>();
function poolHas<T>(pool: readonly T[], x: T): boolean {
  let set = poolSets.get(pool);
  if (!set) {
    set = new Set(pool);
    poolSets.set(pool, set);
  }
  return set.has(x);
}

/** Zulip's defaults for objects created by `creator`, with explicit overrides in wire form. */
function settingsFor(
  org: OrgState,
  infos: readonly PermissionSettingInfo[],
  creatorId: number,
  overrides: Record<string, StoredGroupSetting> = {},
): Record<string, StoredGroupSetting> {
  const out: Record<string, StoredGroupSetting> = {};
  for (const info of infos) {
    const o = overrides[info.wire];
    if (o !== undefined) out[info.wire] = o;
    else if (info.default === 'creator')
      out[info.wire] = { direct_members: [creatorId], direct_subgroups: [] };
    else out[info.wire] = systemGroupId(org, info.default);
  }
  return out;
}

const CHANNEL_INFOS = Object.values(CHANNEL_PERMISSIONS) as PermissionSettingInfo[];
const GROUP_INFOS = Object.values(GROUP_PERMISSIONS) as PermissionSettingInfo[];

/** Generates the organization and its desired state. */
export function generateBenchOrg(options: GenerateOptions = {}): BenchOrg {
  const scale = options.scale ?? 1;
  if (!(scale > 0)) throw new Error(`--scale must be positive, got ${scale}`);
  const now = options.now ?? Date.UTC(2026, 0, 1);
  const nowSec = Math.floor(now / 1000);
  const nChannels = options.channels ?? Math.max(2, Math.round(FULL_SIZE.channels * scale));
  const nGroups = Math.max(3, Math.round(FULL_SIZE.groups * scale));
  const nUsers = Math.max(
    FULL_SIZE.subscriptionsPerChannel * 2,
    Math.round(FULL_SIZE.users * scale),
  );
  const nFolders = Math.max(1, Math.round(20 * scale));
  const rnd = prng(20260101);

  const org = emptyOrg(now, 'Bench (zulip-cdk)');
  const desired = emptyDesiredState('bench');
  const orgPath = 'bench';
  desired.organization.maxRemovals = 1_000_000;

  // ---- users: one owner (the applying account), a few admins and moderators, some guests,
  // 1% deactivated; the rest members. Desired: every active human, with 1% promoted.
  const owner = addUser(org, now, {
    email: `owner@${BENCH_DOMAIN}`,
    fullName: 'Bench Owner',
    role: ROLES.owner,
  });
  const users: StoredUser[] = [owner];
  const nAdmins = Math.max(1, Math.round(10 * scale));
  const nModerators = Math.max(1, Math.round(20 * scale));
  const nGuests = Math.max(1, Math.round(50 * scale));
  for (let i = 1; i < nUsers; i++) {
    const role =
      i <= nAdmins
        ? ROLES.administrator
        : i <= nAdmins + nModerators
          ? ROLES.moderator
          : i > nUsers - nGuests
            ? ROLES.guest
            : ROLES.member;
    const u = addUser(org, now, {
      email: `user${pad(i, 5)}@${BENCH_DOMAIN}`,
      fullName: `User ${i}`,
      role,
      isActive: !(role === ROLES.member && i % 100 === 99),
    });
    users.push(u);
  }
  const active = users.filter((u) => u.isActive);
  const nonGuests = active.filter((u) => u.role !== ROLES.guest);
  const nonGuestIds = nonGuests.map((u) => u.id);
  const activeIds = active.map((u) => u.id);
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  const roleNames: Record<number, RoleName> = {
    [ROLES.owner]: 'owner',
    [ROLES.administrator]: 'administrator',
    [ROLES.moderator]: 'moderator',
    [ROLES.member]: 'member',
    [ROLES.guest]: 'guest',
  };
  const desiredUsers: DesiredUser[] = [];
  for (const [i, u] of users.entries()) {
    if (!u.isActive) continue;
    const promoted = u.role === ROLES.member && i % 100 === 50;
    desiredUsers.push({
      path: `${orgPath}/users/${u.email}`,
      email: u.email,
      role: promoted ? 'moderator' : (roleNames[u.role] ?? 'member'),
    });
  }

  // ---- folders
  const folderIds: number[] = [];
  const desiredFolders: DesiredChannelFolder[] = [];
  for (let f = 0; f < nFolders; f++) {
    const id = nextId(org);
    org.folders.push({
      id,
      name: `folder-${pad(f, 2)}`,
      description: `Folder ${f}`,
      order: f,
      isArchived: false,
      creatorId: owner.id,
      dateCreated: nowSec,
    });
    folderIds.push(id);
    desiredFolders.push({
      path: `${orgPath}/folders/folder-${pad(f, 2)}`,
      name: `folder-${pad(f, 2)}`,
      description: `Folder ${f}`,
    });
  }

  // ---- groups: `team-NNN`, 30 direct members each; every tenth has the next two as subgroups.
  const groupIds: number[] = [];
  const groupNames: string[] = [];
  const groupMembers: number[][] = [];
  const desiredGroups: DesiredUserGroup[] = [];
  for (let g = 0; g < nGroups; g++) groupIds.push(nextId(org));
  for (let g = 0; g < nGroups; g++) {
    const name = `team-${pad(g, 3)}`;
    groupNames.push(name);
    const members = pick(nonGuestIds, 30, rnd, new Set<number>()).sort((a, b) => a - b);
    groupMembers.push(members);
    const subgroups: number[] = [];
    if (g % 10 === 0) for (const s of [g + 1, g + 2]) if (s < nGroups) subgroups.push(s);
    const mentionAll = g % 7 === 3;
    org.groups.push({
      id: groupIds[g] as number,
      name,
      description: `Team ${g}`,
      isSystemGroup: false,
      members,
      subgroups: subgroups.map((s) => groupIds[s] as number),
      deactivated: false,
      creatorId: owner.id,
      dateCreated: nowSec,
      settings: settingsFor(
        org,
        GROUP_INFOS,
        owner.id,
        mentionAll ? { can_mention_group: systemGroupId(org, 'role:members') } : {},
      ),
    });
    // ~5% of groups change: description (g % 20 == 1), members (g % 20 == 2: two swapped).
    let desiredMembers = members;
    if (g % 20 === 2) {
      const added = pick(nonGuestIds, 2, rnd, new Set(members));
      desiredMembers = [...members.slice(2), ...added];
    }
    desiredGroups.push({
      path: `${orgPath}/groups/${name}`,
      name,
      description: g % 20 === 1 ? `Team ${g} (renamed team)` : `Team ${g}`,
      members: {
        mode: 'exact',
        users: desiredMembers.map((id) => emailOf.get(id) as string),
        groups: subgroups.map((s) => `team-${pad(s, 3)}`),
      },
      permissions: mentionAll ? { canMentionGroup: 'role:members' } : {},
    });
  }
  // 1% new groups, only in the configuration.
  const nNewGroups = Math.max(1, Math.round(nGroups / 100));
  for (let k = 0; k < nNewGroups; k++) {
    const name = `new-team-${pad(k, 3)}`;
    desiredGroups.push({
      path: `${orgPath}/groups/${name}`,
      name,
      description: 'A new team',
      members: {
        mode: 'exact',
        users: pick(nonGuestIds, 10, rnd, new Set<number>()).map((id) => emailOf.get(id) as string),
        groups: [],
      },
      permissions: {},
    });
  }

  // ---- channels: 50 subscribers each. Even channels subscribe a leaf team plus users; odd
  // ones list 50 users. 10% private (the owner subscribed), a quarter in a folder.
  const leafGroups = groupNames.map((_, g) => g).filter((g) => g % 10 !== 0);
  const desiredChannels: DesiredChannel[] = [];
  const perChannel = FULL_SIZE.subscriptionsPerChannel;
  let subscriptions = 0;
  for (let c = 0; c < nChannels; c++) {
    const name = `channel-${pad(c, 4)}`;
    const isPrivate = c % 10 === 9;
    const folder = c % 4 === 0 ? Math.floor(c / 4) % nFolders : null;
    const overrides: Record<string, StoredGroupSetting> = {};
    const permissions: Record<string, GroupSettingValue> = {};
    if (c % 20 === 0) {
      overrides.can_send_message_group = systemGroupId(org, 'role:administrators');
      permissions.canSendMessageGroup = 'role:administrators';
    }
    if (c % 8 === 4) {
      const g = c % nGroups;
      overrides.can_administer_channel_group = groupIds[g] as number;
      permissions.canAdministerChannelGroup = groupNames[g] as string;
    }
    const ch: StoredChannel = {
      id: nextId(org),
      name,
      description: `Channel ${c}`,
      inviteOnly: isPrivate,
      isWebPublic: false,
      historyPublicToSubscribers: !isPrivate,
      messageRetentionDays: null,
      isArchived: false,
      folderId: folder === null ? null : (folderIds[folder] as number),
      topicsPolicy: 'inherit',
      creatorId: owner.id,
      dateCreated: nowSec,
      settings: settingsFor(org, CHANNEL_INFOS, owner.id, overrides),
    };
    org.channels.push(ch);

    const subscriberGroups: string[] = [];
    const subscribers = new Set<number>();
    if (isPrivate) subscribers.add(owner.id);
    if (c % 2 === 0 && leafGroups.length > 0) {
      const g = leafGroups[c % leafGroups.length] as number;
      subscriberGroups.push(groupNames[g] as string);
      for (const m of groupMembers[g] as number[]) subscribers.add(m);
    }
    const explicit = new Set<number>(isPrivate ? [owner.id] : []);
    const pool = isPrivate ? activeIds : nonGuestIds;
    const fill = pick(pool, perChannel - subscribers.size, rnd, subscribers);
    for (const id of fill) {
      subscribers.add(id);
      explicit.add(id);
    }
    for (const uid of subscribers) {
      org.subscriptions.push(newSubscription(uid, ch.id));
      subscriptions += 1;
    }

    // ~5% of channels change each of: description, a permission, the folder, subscribers.
    let desiredExplicit = [...explicit];
    let mode: 'exact' | 'atLeast' = 'exact';
    if (c % 20 === 3) {
      // Three explicit subscribers leave, three others join.
      const removable = desiredExplicit.filter((id) => id !== owner.id);
      const gone = new Set(removable.slice(0, 3));
      const joined = pick(pool, 3, rnd, subscribers);
      desiredExplicit = [...desiredExplicit.filter((id) => !gone.has(id)), ...joined];
    } else if (c % 20 === 13) {
      // Only additions: two people join, nobody is removed.
      mode = 'atLeast';
      const joined = pick(pool, 2, rnd, subscribers);
      desiredExplicit = [...desiredExplicit, ...joined];
    }
    if (c % 20 === 7) permissions.canSendMessageGroup = 'role:moderators';
    const desiredFolder =
      c % 20 === 11 ? (folderIds.length > 1 ? ((folder ?? 0) + 1) % nFolders : null) : folder;
    desiredChannels.push({
      path: `${orgPath}/channels/${name}`,
      name,
      description: c % 20 === 1 ? `Channel ${c}: now with a longer description` : `Channel ${c}`,
      ...(isPrivate ? { private: true } : {}),
      ...(desiredFolder === null ? {} : { folder: `folder-${pad(desiredFolder, 2)}` }),
      permissions,
      subscribers: {
        mode,
        users: desiredExplicit.map((id) => emailOf.get(id) as string),
        groups: subscriberGroups,
      },
    });
  }
  // 1% new channels, only in the configuration.
  const nNewChannels = Math.max(1, Math.round(nChannels / 100));
  for (let k = 0; k < nNewChannels; k++) {
    const name = `new-channel-${pad(k, 3)}`;
    desiredChannels.push({
      path: `${orgPath}/channels/${name}`,
      name,
      description: 'A new channel',
      permissions: {},
      subscribers: {
        mode: 'exact',
        users: pick(nonGuestIds, perChannel, rnd, new Set<number>()).map(
          (id) => emailOf.get(id) as string,
        ),
        groups: [],
      },
    });
  }

  const byName = <T extends { name: string }>(a: T, b: T): number =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  desired.channelFolders = desiredFolders;
  desired.userGroups = desiredGroups.sort(byName);
  desired.channels = desiredChannels.sort(byName);
  desired.users = desiredUsers.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));

  return {
    org,
    desired,
    owner: { email: owner.email, apiKey: owner.apiKey },
    counts: {
      channels: nChannels,
      groups: nGroups,
      users: nUsers,
      subscriptions,
      folders: nFolders,
      newChannels: nNewChannels,
      newGroups: nNewGroups,
    },
  };
}

/**
 * The same organization before any configuration was applied: its users only (no groups,
 * channels, folders or subscriptions). Applying the bench's desired state to it creates
 * everything: the "apply from nothing" measurement.
 */
export function usersOnly(org: OrgState): OrgState {
  return {
    ...org,
    groups: org.groups.filter((g) => g.isSystemGroup),
    channels: [],
    subscriptions: [],
    folders: [],
    defaultChannelIds: [],
  };
}
