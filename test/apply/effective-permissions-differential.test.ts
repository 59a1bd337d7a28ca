/**
 * The plan's effective permissions held against the embedded server's own checks. For seeded
 * random organizations (test/import/random-org.ts, with join dates, a waiting period and
 * organization settings drawn too) and seeded random edits that touch permissions (group
 * members and subgroups, new groups nested in others, channel, group and organization
 * settings, roles, the waiting period), the plan is made against the embedded server and
 * applied; then for every permission the plan lists, who holds it before and after is counted
 * user by user with the server's checks (./permission-oracle.ts) and compared with the plan's
 * counts, gains and losses. The other way round, a permission whose holders the apply changed
 * and that the plan does not list is a miss.
 */
import { startEmulator } from '../../src/emulator';
import type { OrgState } from '../../src/emulator';
import type { StoredGroupSetting } from '../../src/emulator/state';
import { systemGroupId } from '../../src/emulator/state';
import { applyPlan, plan } from '../../src/engine';
import type { Plan } from '../../src/engine';
import { emptyDesiredState } from '../../src/model';
import type {
  DesiredChannel,
  DesiredState,
  DesiredUser,
  DesiredUserGroup,
  GroupSettingValue,
  LiveState,
} from '../../src/model';
import { parseResourceAddress, resourceAddress } from '../../src/model/address';
import { SYSTEM_GROUP_NAMES } from '../../src/model/kinds';
import { channel } from '../../src/model/kinds/channel';
import {
  CHANNEL_PERMISSIONS,
  GROUP_PERMISSIONS,
  ORGANIZATION_PERMISSIONS,
  disallowedSystemGroup,
} from '../../src/model/permissions';
import type { PermissionSettingInfo } from '../../src/model/permissions';
import { readLiveState } from '../../src/provider/read-live-state';
import { ZulipApplyTarget } from '../../src/provider/write-target';
import { ZulipClient } from '../../src/zulip';
import { prng } from '../../bench/org-generator';
import { randomOrg } from '../import/random-org';
import { holders } from './permission-oracle';
import { reachesGroup } from './random-edits';
import type { PermissionObject } from './permission-oracle';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const DAY = 86_400_000;
const FL = 478;
/**
 * Seeds 1-16, and 30 and 32, where the plan would take the account's content access away with
 * can_add_subscribers_group before a later setting of the same request needs it: the plan
 * leaves that change for the next one (src/engine/plan/content-access.ts).
 */
const SEEDS = [...Array.from({ length: 16 }, (_, i) => i + 1), 30, 32];
/** Names listed per gained or lost list by the plan (its default). */
const MAX_NAMES = 20;
/** A declared channel's properties other than its permissions, left as they are. */
const CHANNEL_PROPERTIES: string[] = [
  ...channel.keyed.updatable.filter((p) => p !== 'name'),
  'folder',
];

type Rnd = () => number;
const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;

/** The random organization with join dates, a waiting period and organization settings drawn. */
function organization(seed: number): OrgState {
  const rnd = prng(seed * 7919);
  const org = randomOrg(seed, FL);
  for (const u of org.users)
    u.dateJoined = new Date(NOW - Math.floor(rnd() * 10 * DAY)).toISOString();
  org.realm.waitingPeriodThreshold = pick(rnd, [0, 2, 5]);
  // role:fullmembers as Zulip keeps it for these dates, filled at load.
  org.fullMembersStored = false;
  const sys = (name: string): number => systemGroupId(org, name as 'role:members');
  const named = org.groups.filter((g) => !g.isSystemGroup && !g.deactivated).map((g) => g.id);
  const active = org.users.filter((u) => u.isActive);
  const owners = org.users.filter((u) => u.isActive && u.role === 100 && !u.isBot);
  for (const [name, info] of Object.entries(ORGANIZATION_PERMISSIONS) as [
    string,
    PermissionSettingInfo,
  ][]) {
    if (name === 'canAccessAllUsersGroup' || rnd() < 0.5) continue;
    const systems = SYSTEM_GROUP_NAMES.filter((n) => disallowedSystemGroup(info, n) === undefined);
    let value: StoredGroupSetting;
    if (name === 'canManageAllGroups' || name === 'canCreateGroups')
      // The applying owner keeps managing groups.
      value = { direct_members: owners.map((u) => u.id), direct_subgroups: [pick(rnd, named)] };
    else if (info.requireSystemGroup || rnd() < 0.4) value = sys(pick(rnd, systems));
    else if (rnd() < 0.5) value = pick(rnd, named);
    else
      value = {
        direct_members: [pick(rnd, active).id, pick(rnd, active).id]
          .filter((x, i, a) => a.indexOf(x) === i)
          .sort((a, b) => a - b),
        direct_subgroups: [pick(rnd, named)],
      };
    org.realm.settings[info.wire] = value;
  }
  return org;
}

/** Seeded random edits of the live organization that touch permissions. */
function edits(seed: number, live: LiveState): DesiredState {
  const rnd = prng(seed * 104729);
  const d = emptyDesiredState('acme');
  const email = new Map(live.users.map((u) => [u.id, u.email] as const));
  const groupName = new Map(live.userGroups.map((g) => [g.id, g.name] as const));
  const activeUsers = live.users.filter((u) => u.isActive);
  const humans = activeUsers.filter((u) => !u.isBot && u.id !== live.me.userId);
  const namedGroups = live.userGroups.filter((g) => !g.isSystemGroup && !g.deactivated);
  const channels = live.channels.filter((c) => !c.archived);
  // The subgroup graph as the edits leave it, to keep it free of cycles.
  const subgroups = new Map<string, Set<string>>(
    namedGroups.map((g) => [g.name, new Set(g.subgroups.map((s) => groupName.get(s) as string))]),
  );
  const reaches = (from: string, to: string): boolean =>
    reachesGroup(from, to, (g) => subgroups.get(g) ?? []);
  const groups = new Map<string, DesiredUserGroup>();
  const groupDecl = (name: string): DesiredUserGroup => {
    let g = groups.get(name);
    if (!g) {
      const l = namedGroups.find((x) => x.name === name);
      const members = (l?.members ?? [])
        .filter((id) => activeUsers.some((u) => u.id === id))
        .map((id) => email.get(id) as string);
      g = {
        path: `acme/groups/${name}`,
        name,
        members: { mode: 'exact', users: members, groups: [...(subgroups.get(name) ?? [])] },
        permissions: {},
        lifecycle: { ignoreChanges: ['description'] },
      };
      groups.set(name, g);
    }
    return g;
  };
  const channelDecls = new Map<string, DesiredChannel>();
  const users = new Map<string, DesiredUser>();
  const orgSettings: {
    path: string;
    properties: Record<string, number>;
    permissions: Record<string, GroupSettingValue>;
  } = { path: 'acme/settings', properties: {}, permissions: {} };
  const newGroups: string[] = [];

  const value = (info: PermissionSettingInfo): GroupSettingValue => {
    const systems = SYSTEM_GROUP_NAMES.filter((n) => disallowedSystemGroup(info, n) === undefined);
    const r = rnd();
    if (info.requireSystemGroup || r < 0.35) return pick(rnd, systems);
    const names = [...namedGroups.map((g) => g.name), ...newGroups];
    if (r < 0.6) return pick(rnd, names);
    const us = [pick(rnd, activeUsers), pick(rnd, activeUsers)].map((u) => u.email);
    const gs = rnd() < 0.5 ? [pick(rnd, names)] : [pick(rnd, systems)];
    return { users: [...new Set(us)].sort(), groups: gs };
  };
  const settings = (table: Record<string, PermissionSettingInfo>, skip: string[] = []) =>
    Object.entries(table).filter(([n]) => !skip.includes(n));

  const steps = 5 + Math.floor(rnd() * 4);
  for (let i = 0; i < steps; i++) {
    const kind = pick(rnd, [
      'members',
      'members',
      'newGroup',
      'channel',
      'channel',
      'group',
      'organization',
      'role',
      'role',
      'waiting',
    ]);
    if (kind === 'members') {
      const g = groupDecl(pick(rnd, namedGroups).name);
      for (let k = 0; k < 2; k++) {
        if (rnd() < 0.5) g.members.users = g.members.users.filter((_, j) => j !== k);
        else {
          const u = pick(rnd, activeUsers).email;
          if (!g.members.users.includes(u)) g.members.users.push(u);
        }
      }
      const s = pick(rnd, namedGroups).name;
      if (rnd() < 0.5 && g.members.groups.length > 0) {
        const gone = pick(rnd, g.members.groups);
        g.members.groups = g.members.groups.filter((x) => x !== gone);
        subgroups.get(g.name)?.delete(gone);
      } else if (!reaches(s, g.name)) {
        g.members.groups.push(s);
        subgroups.get(g.name)?.add(s);
      }
    } else if (kind === 'newGroup') {
      const name = `new ${seed}-${i}`;
      const members = [pick(rnd, activeUsers), pick(rnd, activeUsers)].map((u) => u.email);
      const sub = rnd() < 0.6 ? [pick(rnd, namedGroups).name] : [];
      subgroups.set(name, new Set(sub));
      groups.set(name, {
        path: `acme/groups/${name}`,
        name,
        members: { mode: 'exact', users: [...new Set(members)], groups: sub },
        permissions: {},
      });
      newGroups.push(name);
      const parent = pick(rnd, namedGroups).name;
      if (!reaches(name, parent)) {
        groupDecl(parent).members.groups.push(name);
        subgroups.get(parent)?.add(name);
      }
    } else if (kind === 'channel') {
      const ch = pick(rnd, channels);
      let c = channelDecls.get(ch.name);
      if (!c) {
        c = {
          path: `acme/channels/${ch.name}`,
          name: ch.name,
          permissions: {},
          // Only its permissions are managed.
          lifecycle: { ignoreChanges: CHANNEL_PROPERTIES },
        };
        channelDecls.set(ch.name, c);
      }
      // A private channel with protected history keeps can_create_topic_group at everyone.
      const skip = ch.private && !ch.historyPublicToSubscribers ? ['canCreateTopicGroup'] : [];
      for (let k = 0; k < 2; k++) {
        const [name, info] = pick(rnd, settings(CHANNEL_PERMISSIONS, skip));
        (c.permissions as Record<string, GroupSettingValue>)[name] = value(info);
      }
    } else if (kind === 'group') {
      const g = groupDecl(pick(rnd, namedGroups).name);
      for (let k = 0; k < 2; k++) {
        const [name, info] = pick(rnd, settings(GROUP_PERMISSIONS));
        (g.permissions as Record<string, GroupSettingValue>)[name] = value(info);
      }
    } else if (kind === 'organization') {
      const [name, info] = pick(
        rnd,
        settings(ORGANIZATION_PERMISSIONS, ['canAccessAllUsersGroup']),
      );
      orgSettings.permissions[name] =
        name === 'canManageAllGroups' || name === 'canCreateGroups'
          ? pick(rnd, ['role:owners', 'role:administrators'])
          : value(info);
    } else if (kind === 'role') {
      const u = pick(rnd, humans);
      const role = pick(rnd, ['member', 'member', 'moderator', 'administrator', 'guest'] as const);
      users.set(u.email, { path: `acme/users/${u.id}`, email: u.email, role: role });
    } else {
      orgSettings.properties.waitingPeriodThreshold = pick(rnd, [0, 1, 3, 7]);
    }
  }
  d.userGroups.push(...groups.values());
  d.channels.push(...channelDecls.values());
  d.users.push(...users.values());
  if (Object.keys(orgSettings.properties).length + Object.keys(orgSettings.permissions).length > 0)
    d.organizationSettings.push(orgSettings);
  return d;
}

/** The object of an address in an organization, or undefined when it does not exist there. */
function objectOf(org: OrgState, address: string): PermissionObject | undefined {
  const a = parseResourceAddress(address);
  if (!a) throw new Error(`not an address: ${address}`);
  if (a.kind === 'organizationSettings') return { kind: 'organizationSettings' };
  if (a.kind === 'channel') {
    const o = org.channels.find((c) => c.name === a.key && !c.isArchived);
    return o ? { kind: 'channel', o } : undefined;
  }
  if (a.kind === 'userGroup') {
    const o = org.groups.find((g) => g.name === a.key && !g.isSystemGroup && !g.deactivated);
    return o ? { kind: 'userGroup', o } : undefined;
  }
  throw new Error(`no permissions on ${address}`);
}

/** Every permission of every object of an organization, by address and permission name. */
function allPermissions(org: OrgState): [address: string, name: string][] {
  const out: [string, string][] = [];
  for (const n of Object.keys(ORGANIZATION_PERMISSIONS))
    out.push([resourceAddress('organizationSettings', 'organization'), n]);
  for (const c of org.channels)
    if (!c.isArchived)
      for (const n of Object.keys(CHANNEL_PERMISSIONS))
        out.push([resourceAddress('channel', c.name), n]);
  for (const g of org.groups)
    if (!g.isSystemGroup && !g.deactivated)
      for (const n of Object.keys(GROUP_PERMISSIONS))
        out.push([resourceAddress('userGroup', g.name), n]);
  return out;
}

/** The differences between the plan's effective permissions and the server's checks. */
function differences(p: Plan, before: OrgState, after: OrgState): string[] {
  const out: string[] = [];
  const emailOf = new Map(before.users.map((u) => [u.id, u.email] as const));
  for (const u of after.users) emailOf.set(u.id, u.email);
  const names = (ids: Iterable<number>): string[] =>
    [...ids].map((id) => emailOf.get(id) as string).sort();
  const count = (
    address: string,
    name: string,
    implied: boolean,
  ): { b: Set<number> | null; a: Set<number> } => {
    const ob = objectOf(before, address);
    const oa = objectOf(after, address);
    return {
      b: ob ? holders(before, ob, name, { implied }) : null,
      a: oa ? holders(after, oa, name, { implied }) : new Set(),
    };
  };
  const effects = p.permissions?.effects ?? [];
  const listed = new Set(effects.map((e) => `${e.address} ${e.permission}`));
  for (const e of effects) {
    const name = e.permission.replace(/^permissions\./, '');
    const { b, a } = count(e.address, name, true);
    const gained = names([...a].filter((u) => !b?.has(u)));
    const lost = names([...(b ?? [])].filter((u) => !a.has(u)));
    const want = {
      before: b === null ? null : b.size,
      after: a.size,
      gained: { count: gained.length, users: gained.slice(0, MAX_NAMES) },
      lost: { count: lost.length, users: lost.slice(0, MAX_NAMES) },
    };
    const got = { before: e.before, after: e.after, gained: e.gained, lost: e.lost };
    if (JSON.stringify(got) !== JSON.stringify(want))
      out.push(`${e.address} ${name}: plan ${JSON.stringify(got)}, server ${JSON.stringify(want)}`);
  }
  // Misses: permissions of objects that exist on both sides whose holders changed. What
  // administrators and organization-level settings get on every channel and group is counted
  // only on the permissions the plan lists for another reason (README, "Who gains and who
  // loses"): a new administrator is not listed as gaining every channel's administration. So
  // a miss is a user who gains (loses) the permission, and would without them too.
  for (const [address, name] of allPermissions(after)) {
    if (listed.has(`${address} permissions.${name}`)) continue;
    const { b, a } = count(address, name, true);
    if (b === null) continue;
    const own = count(address, name, false);
    const ownB = own.b ?? new Set<number>();
    const gained = names([...a].filter((u) => !b.has(u) && own.a.has(u) && !ownB.has(u)));
    const lost = names([...b].filter((u) => !a.has(u) && ownB.has(u) && !own.a.has(u)));
    if (gained.length + lost.length > 0)
      out.push(`${address} ${name}: missing; gained ${gained.join(',')} lost ${lost.join(',')}`);
  }
  return out;
}

/** Plans the edits of one seed against its organization, applies them; the differences. */
async function run(seed: number): Promise<{ found: string[]; effects: number }> {
  const z = await startEmulator({
    state: organization(seed),
    featureLevel: FL,
    rateLimit: false,
    clock: { now: () => NOW },
  });
  const client = ZulipClient.forEmbeddedOwner(z);
  try {
    const live = await readLiveState(client);
    const before = structuredClone(z.org);
    const p = plan(edits(seed, live), live);
    const result = await applyPlan(p, new ZulipApplyTarget(client, p), {
      allowDestroy: true,
      force: true,
      allowPrivileged: true,
    });
    expect(result.outcome).toBe('applied');
    return {
      found: differences(p, before, z.org).map((d) => `seed ${seed}: ${d}`),
      effects: p.permissions?.effects.length ?? 0,
    };
  } finally {
    await client.close();
    await z.close();
  }
}

describe("the plan's effective permissions against the embedded server's checks", () => {
  it.each(SEEDS)('random organization and edits, seed %i', async (seed) => {
    const { found, effects } = await run(seed);
    expect(effects).toBeGreaterThan(0);
    expect(found).toEqual([]);
  });
});
