import { startEmulator } from '../../src/emulator';
import { ROLES } from '../../src/model/kinds';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let owner: TestClient;
let alice: TestClient;

beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  owner = clientFor(z, 'owner');
  alice = clientFor(z, 'alice');
});
afterEach(() => z.close());

const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const group = (name: string) => z.org.groups.find((g) => g.name === name)!;

describe('who may call user-group endpoints', () => {
  test('bots and guests are rejected everywhere, even for reading', async () => {
    const bot = clientFor(z, 'deploy-bot');
    const guest = clientFor(z, 'guest');
    for (const [m, p] of [
      ['GET', '/user_groups'],
      ['POST', '/user_groups/create'],
      ['PATCH', `/user_groups/${group('design').id}`],
      ['POST', `/user_groups/${group('design').id}/members`],
      ['POST', `/user_groups/${group('design').id}/subgroups`],
    ] as const) {
      expectError(await bot.call(m, p, {}), 'This endpoint does not accept bot requests.');
      expectError(await guest.call(m, p, {}), 'Not allowed for guest users');
    }
  });

  test('a bot still reads groups through /register', async () => {
    const r = await clientFor(z, 'deploy-bot').post('/register', {
      fetch_event_types: ['realm_user_groups'],
    });
    expect(r.body.realm_user_groups.length).toBeGreaterThan(8);
  });
});

describe('system groups', () => {
  test('nested as in Zulip, direct members only, not editable', async () => {
    const r = await owner.get('/user_groups');
    type G = { name: string; members: number[]; direct_subgroup_ids: number[] };
    const groups = r.body.user_groups as G[];
    const byName = new Map<string, G>(groups.map((g) => [g.name, g]));
    expect(byName.get('role:administrators')!.members).toEqual(
      [user('admin').id, user('alan').id].sort((a, b) => a - b),
    );
    expect(byName.get('role:administrators')!.direct_subgroup_ids).toEqual([
      group('role:owners').id,
    ]);
    expect(byName.get('role:moderators')!.direct_subgroup_ids).toEqual([
      group('role:administrators').id,
    ]);
    expect(byName.get('role:everyone')!.members).toEqual([user('guest').id]);
    expect(byName.get('role:nobody')!.members).toEqual([]);
    // Every user is a direct member of its role's group; members (all full members: the
    // waiting period is 0) of both role:members and role:fullmembers.
    const withRole = (role: number) =>
      z.org.users
        .filter((u) => u.isActive && u.role === role)
        .map((u) => u.id)
        .sort((a, b) => a - b);
    expect(withRole(ROLES.member).length).toBeGreaterThan(0);
    expect(byName.get('role:members')!.members).toEqual(withRole(ROLES.member));
    expect(byName.get('role:members')!.members).toContain(user('alice').id);
    expect(byName.get('role:fullmembers')!.members).toEqual(withRole(ROLES.member));
    expect(byName.get('role:moderators')!.members).toEqual(withRole(ROLES.moderator));
    expect(byName.get('role:owners')!.members).toEqual(withRole(ROLES.owner));
    expect(byName.get('role:internet')!.members).toEqual([]);
    // The chain: owners ⊂ administrators ⊂ moderators ⊂ fullmembers ⊂ members ⊂ everyone ⊂ internet.
    const chain = [
      'role:internet',
      'role:everyone',
      'role:members',
      'role:fullmembers',
      'role:moderators',
      'role:administrators',
      'role:owners',
    ];
    chain.forEach((name, i) =>
      expect([name, byName.get(name)!.direct_subgroup_ids]).toEqual([
        name,
        i + 1 < chain.length ? [group(chain[i + 1]!).id] : [],
      ]),
    );
    expect(byName.get('role:nobody')!.direct_subgroup_ids).toEqual([]);
    expect(byName.has('retired-team')).toBe(false);
    expectError(
      await owner.patch(`/user_groups/${group('role:members').id}`, { description: 'x' }),
      'Insufficient permission',
    );
    expectError(
      await owner.post(`/user_groups/${group('role:members').id}/members`, {
        add: [user('alice').id],
      }),
      'Insufficient permission',
    );
  });
});

describe('create', () => {
  test('names: empty, too long, prefixes, duplicates (case-sensitive, deactivated included)', async () => {
    const create = (name: string) =>
      owner.post('/user_groups/create', { name, description: '', members: [] });
    expectError(await create(''), "User group name can't be empty!");
    expectError(await create('x'.repeat(101)), 'User group name cannot exceed 100 characters.');
    for (const prefix of ['@', 'role:', 'user:', 'stream:', 'channel:'])
      expectError(await create(`${prefix}x`), `User group name cannot start with '${prefix}'.`);
    expectError(await create('design'), "User group 'design' already exists.");
    expectError(await create('retired-team'), "User group 'retired-team' already exists.");
    expectSuccess(await create('Design'));
  });

  test('members and subgroups are checked; settings default to {creator}', async () => {
    expectError(
      await owner.post('/user_groups/create', { name: 'a', description: '', members: [1111] }),
      'Invalid user ID: 1111',
    );
    expectError(
      await owner.post('/user_groups/create', {
        name: 'a',
        description: '',
        members: [],
        subgroups: [123456],
      }),
      'Invalid user group ID: 123456',
    );
    expectError(
      await owner.post('/user_groups/create', {
        name: 'a',
        description: '',
        members: [],
        can_manage_group: group('role:internet').id,
      }),
      "'can_manage_group' setting cannot be set to 'role:internet' group.",
    );
    const r = await alice.post('/user_groups/create', {
      name: 'a',
      description: '',
      members: [user('bob').id],
    });
    expectSuccess(r);
    const g = z.org.groups.find((x) => x.id === r.body.group_id)!;
    expect(g.settings.can_manage_group).toEqual({
      direct_members: [user('alice').id],
      direct_subgroups: [],
    });
    expect(g.settings.can_mention_group).toBe(group('role:everyone').id);
  });

  test('needs the realm can_create_groups', async () => {
    z.org.realm.settings.can_create_groups = group('role:administrators').id;
    expectError(
      await alice.post('/user_groups/create', { name: 'a', description: '', members: [] }),
      'Insufficient permission',
    );
  });
});

describe('update', () => {
  test('No new data supplied; Invalid user group; permission via can_manage_group', async () => {
    const id = group('design').id;
    expectError(await owner.patch(`/user_groups/${id}`, {}), 'No new data supplied');
    expectError(await owner.patch('/user_groups/99999', { name: 'x' }), 'Invalid user group');
    expectError(
      await alice.patch(`/user_groups/${id}`, { description: 'x' }),
      'Insufficient permission',
    );
    expectError(
      await owner.patch(`/user_groups/${id}`, { name: 'backend' }),
      "User group 'backend' already exists.",
    );
  });

  test('{new, old}: mismatch is EXPECTATION_MISMATCH and atomic', async () => {
    const id = group('design').id;
    expectError(
      await owner.patch(`/user_groups/${id}`, {
        description: 'not applied',
        can_mention_group: { new: group('role:members').id, old: group('role:nobody').id },
      }),
      "'old' value does not match the expected value.",
      'EXPECTATION_MISMATCH',
    );
    expect(group('design').description).toBe('Designers');
    expectSuccess(
      await owner.patch(`/user_groups/${id}`, {
        can_mention_group: { new: group('role:members').id, old: group('role:everyone').id },
      }),
    );
  });

  test('deactivate: in use gives objections; reactivate (FL 386)', async () => {
    const design = group('design').id;
    await owner.patch(`/streams/${z.org.channels.find((c) => c.name === 'design')!.id}`, {
      can_send_message_group: {
        new: { direct_members: [user('owner').id], direct_subgroups: [design] },
      },
    });
    await owner.post(`/user_groups/${group('engineering').id}/subgroups`, { add: [design] });
    const r = await owner.post(`/user_groups/${design}/deactivate`);
    expectError(r, 'Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE');
    expect(r.body.objections).toEqual([
      { type: 'subgroup', supergroup_ids: [group('engineering').id] },
      {
        type: 'channel',
        channel_id: z.org.channels.find((c) => c.name === 'design')!.id,
        settings: ['can_send_message_group'],
      },
    ]);
    expectSuccess(
      await owner.post(`/user_groups/${group('frontend').id}/members`, { add: [user('dave').id] }),
    );
    const frontend = group('frontend').id;
    await owner.post(`/user_groups/${group('engineering').id}/subgroups`, { delete: [frontend] });
    expectSuccess(await owner.post(`/user_groups/${frontend}/deactivate`));
    expectSuccess(await owner.patch(`/user_groups/${frontend}`, { deactivated: false }));
    expect(group('frontend').deactivated).toBe(false);
  });
});

describe('members and subgroups', () => {
  test('non-idempotent membership errors', async () => {
    const id = group('design').id;
    expectError(
      await owner.post(`/user_groups/${id}/members`, { add: [user('dave').id] }),
      `User ${user('dave').id} is already a member of this group`,
    );
    expectError(
      await owner.post(`/user_groups/${id}/members`, { delete: [user('alice').id] }),
      `There is no member '${user('alice').id}' in this user group`,
    );
    expectError(
      await owner.post(`/user_groups/${id}/members`, {}),
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );
    expectError(
      await owner.post(`/user_groups/${id}/subgroups`, {}),
      'Nothing to do. Specify at least one of "add" or "delete".',
    );
    // user_ids_to_users(allow_deactivated=False): test_user_groups.py
    // test_update_members_of_user_group.
    expectError(
      await owner.post(`/user_groups/${id}/members`, { add: [user('former').id] }),
      `Invalid user ID: ${user('former').id}`,
    );
  });

  test('subgroup errors and cycles', async () => {
    const eng = group('engineering').id;
    const backend = group('backend').id;
    expectError(
      await owner.post(`/user_groups/${eng}/subgroups`, { add: [backend] }),
      `User group ${backend} is already a subgroup of this group.`,
    );
    expectError(
      await owner.post(`/user_groups/${eng}/subgroups`, { delete: [group('design').id] }),
      `User group ${group('design').id} is not a subgroup of this group.`,
    );
    // The message names the group being edited (add_subgroups_to_group_backend).
    expectError(
      await owner.post(`/user_groups/${backend}/subgroups`, { add: [eng] }),
      `User group ${backend} is already a subgroup of one of the passed subgroups.`,
    );
  });

  test('atomic: a failing item leaves nothing applied', async () => {
    const id = group('design').id;
    expectError(
      await owner.post(`/user_groups/${id}/members`, { add: [user('carol').id, user('dave').id] }),
      `User ${user('dave').id} is already a member of this group`,
    );
    expect(group('design').members).not.toContain(user('carol').id);
  });

  test('joining yourself needs can_join_group; leaving needs can_leave_group', async () => {
    const id = group('design').id;
    expectError(
      await alice.post(`/user_groups/${id}/members`, { add: [user('alice').id] }),
      'Insufficient permission',
    );
    await owner.patch(`/user_groups/${id}`, { can_join_group: { new: group('role:members').id } });
    expectSuccess(await alice.post(`/user_groups/${id}/members`, { add: [user('alice').id] }));
    expectSuccess(await alice.post(`/user_groups/${id}/members`, { delete: [user('alice').id] }));
  });

  test('reads: recursive and direct members, membership check, subgroups', async () => {
    const eng = group('engineering').id;
    const all = await owner.get(`/user_groups/${eng}/members`);
    expect(all.body.members).toEqual(
      [user('moderator').id, user('alice').id, user('bob').id, user('carol').id].sort(
        (a, b) => a - b,
      ),
    );
    const direct = await owner.get(`/user_groups/${eng}/members`, { direct_member_only: true });
    expect(direct.body.members).toEqual([user('moderator').id]);
    const m = await owner.get(`/user_groups/${eng}/members/${user('alice').id}`);
    expect(m.body.is_user_group_member).toBe(true);
  });
});

describe('deactivated groups (NOTES 2.6, 3.4, 7.3: "User group is deactivated.")', () => {
  test('cannot be the value of a channel, group or creation setting', async () => {
    const retired = group('retired-team').id;
    const channel = z.org.channels.find((c) => c.name === 'design')!;
    const before = channel.settings.can_send_message_group;
    expectError(
      await owner.patch(`/streams/${channel.id}`, { can_send_message_group: { new: retired } }),
      'User group is deactivated.',
    );
    expect(channel.settings.can_send_message_group).toEqual(before);
    expectError(
      await owner.patch(`/user_groups/${group('design').id}`, {
        can_mention_group: { new: retired },
      }),
      'User group is deactivated.',
    );
    expectError(
      await owner.post('/user_groups/create', {
        name: 'uses-retired',
        description: '',
        members: [],
        can_mention_group: retired,
      }),
      'User group is deactivated.',
    );
    expect(z.org.groups.some((g) => g.name === 'uses-retired')).toBe(false);
  });

  test('members and subgroups are editable only from FL 391', async () => {
    const old = await startEmulator({ featureLevel: 372, rateLimit: false });
    try {
      const o = clientFor(old, 'owner');
      const g = (name: string) => old.org.groups.find((x) => x.name === name)!;
      const retired = g('retired-team');
      const members = [...retired.members];
      const erin = old.org.users.find((u) => u.email.startsWith('erin@'))!.id;
      const alice = old.org.users.find((u) => u.email.startsWith('alice@'))!.id;
      expectError(
        await o.post(`/user_groups/${retired.id}/members`, { add: [alice] }),
        'User group is deactivated.',
      );
      expectError(
        await o.post(`/user_groups/${retired.id}/members`, { delete: [erin] }),
        'User group is deactivated.',
      );
      expectError(
        await o.post(`/user_groups/${retired.id}/subgroups`, { add: [g('design').id] }),
        'User group is deactivated.',
      );
      expect(retired.members).toEqual(members);
      expect(retired.subgroups).toEqual([]);
    } finally {
      await old.close();
    }
    expectSuccess(
      await owner.post(`/user_groups/${group('retired-team').id}/members`, {
        add: [user('alice').id],
      }),
    );
    expect(group('retired-team').members).toContain(user('alice').id);
  });
});
