/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies */
/**
 * User groups: creation, update, settings, deactivation and reactivation, ported from Zulip's
 * zerver/tests/test_user_groups.py (UserGroupAPITestCase, UserGroupTestCase). Members and
 * subgroups are in user-group-members.test.ts. Every case runs at the emulator's newest
 * feature level unless it names another.
 */
import { PLAN_TYPES } from '../../src/emulator';
import { expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';
import { GROUP_SETTINGS, groupsWorld, sorted } from './user-groups-support';
import type { GroupsWorld } from './user-groups-support';

let w: GroupsWorld;
beforeEach(async () => {
  w = await groupsWorld();
});
afterEach(() => w.z.close());

/** A group as `GET /user_groups` (deactivated included) shows it. */
async function apiGroup(c: TestClient, id: number): Promise<any> {
  const r = await c.get('/user_groups', { include_deactivated_groups: true });
  expectSuccess(r);
  return (r.body.user_groups as any[]).find((g) => g.id === id);
}

async function groupCount(c: TestClient): Promise<number> {
  const r = await c.get('/user_groups', { include_deactivated_groups: true });
  return (r.body.user_groups as unknown[]).length;
}

const SUPPORT = { name: 'support', description: 'Support team' };

describe('test_user_groups.py UserGroupAPITestCase.test_user_group_create', () => {
  it('test_user_group_create: a member creates a group; can_manage_group defaults to {creator}, can_mention_group to role:everyone', async () => {
    const alice = w.as('alice');
    const before = await groupCount(alice);
    const r = await alice.post('/user_groups/create', { ...SUPPORT, members: [w.uid('alice')] });
    expectSuccess(r);
    expect(await groupCount(alice)).toBe(before + 1);
    const g = await apiGroup(alice, r.body.group_id);
    expect(g).toMatchObject({
      name: 'support',
      description: 'Support team',
      members: [w.uid('alice')],
      direct_subgroup_ids: [],
      is_system_group: false,
      creator_id: w.uid('alice'),
      deactivated: false,
      can_manage_group: { direct_members: [w.uid('alice')], direct_subgroups: [] },
      can_add_members_group: { direct_members: [w.uid('alice')], direct_subgroups: [] },
      can_mention_group: w.gid('role:everyone'),
      can_leave_group: w.gid('role:everyone'),
      can_join_group: w.gid('role:nobody'),
      can_remove_members_group: w.gid('role:nobody'),
    });
  });

  it('test_user_group_create: on a limited plan (Zulip Cloud Free) creation fails, and register says the plan type', async () => {
    const limited = await groupsWorld({ planType: PLAN_TYPES.limited });
    try {
      const alice = limited.as('alice');
      const before = await groupCount(alice);
      expectError(
        await alice.post('/user_groups/create', { ...SUPPORT, members: [limited.uid('alice')] }),
        'Available on Zulip Cloud Standard. Upgrade to access.',
      );
      expect(await groupCount(alice)).toBe(before);
      const reg = await alice.post('/register', { fetch_event_types: ['realm'] });
      expect([reg.body.realm_plan_type, reg.body.zulip_plan_is_not_limited]).toEqual([2, false]);
    } finally {
      await limited.z.close();
    }
    const reg = await w.as('alice').post('/register', { fetch_event_types: ['realm'] });
    expect([reg.body.realm_plan_type, reg.body.zulip_plan_is_not_limited]).toEqual([1, true]);
  });

  it('test_user_group_create: the plan is checked after the permission (require_user_group_create_permission runs first)', async () => {
    const limited = await groupsWorld({ planType: PLAN_TYPES.limited });
    try {
      limited.realm('can_create_groups', 'role:administrators');
      expectError(
        await limited.as('alice').post('/user_groups/create', { ...SUPPORT, members: [] }),
        'Insufficient permission',
      );
    } finally {
      await limited.z.close();
    }
  });

  it.each([
    ['an unknown user', () => 1111, 'Invalid user ID: 1111'],
    [
      'a deactivated user (user_ids_to_users)',
      () => w.uid('former'),
      () => `Invalid user ID: ${w.uid('former')}`,
    ],
  ] as Array<[string, () => number, string | (() => string)]>)(
    'test_user_group_create: members with %s',
    async (_what, id, msg) => {
      const alice = w.as('alice');
      const before = await groupCount(alice);
      expectError(
        await alice.post('/user_groups/create', {
          name: 'backend-team',
          description: '',
          members: [id()],
        }),
        typeof msg === 'string' ? msg : msg(),
      );
      expect(await groupCount(alice)).toBe(before);
    },
  );

  it('test_user_group_create: the same name again', async () => {
    const alice = w.as('alice');
    expectSuccess(
      await alice.post('/user_groups/create', { ...SUPPORT, members: [w.uid('alice')] }),
    );
    const before = await groupCount(alice);
    expectError(
      await alice.post('/user_groups/create', { ...SUPPORT, members: [w.uid('alice')] }),
      "User group 'support' already exists.",
    );
    expect(await groupCount(alice)).toBe(before);
  });

  it.each([
    ['a'.repeat(101), 'User group name cannot exceed 100 characters.'],
    ['', "User group name can't be empty!"],
    ['@test', "User group name cannot start with '@'."],
    ['role:manager', "User group name cannot start with 'role:'."],
    ['user:1', "User group name cannot start with 'user:'."],
    ['stream:1', "User group name cannot start with 'stream:'."],
    ['channel:1', "User group name cannot start with 'channel:'."],
  ])('test_user_group_create: name %j', async (name, msg) => {
    const alice = w.as('alice');
    const before = await groupCount(alice);
    expectError(
      await alice.post('/user_groups/create', {
        name,
        description: 'Test group',
        members: [w.uid('alice')],
      }),
      msg,
    );
    expect(await groupCount(alice)).toBe(before);
  });

  it('test_user_group_create: a name 100 characters long is accepted', async () => {
    const name = 'a'.repeat(100);
    const r = await w
      .as('alice')
      .post('/user_groups/create', { name, description: '', members: [] });
    expectSuccess(r);
    expect((await apiGroup(w.as('alice'), r.body.group_id)).name).toBe(name);
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_creating_groups_with_subgroups', () => {
  it('test_creating_groups_with_subgroups: subgroups given at creation are direct subgroups', async () => {
    const support = await w.create('alice', 'support', ['alice']);
    const r = await w.as('owner').post('/user_groups/create', {
      name: 'Troubleshooting',
      description: 'Troubleshooting team',
      members: [w.uid('bob')],
      subgroups: [support],
    });
    expectSuccess(r);
    expect((await apiGroup(w.as('owner'), r.body.group_id)).direct_subgroup_ids).toEqual([support]);
  });

  it('test_creating_groups_with_subgroups: the creator adds subgroups even when the new settings would not let them', async () => {
    const support = await w.create('alice', 'support', ['alice']);
    expect(w.z.org.realm.settings.can_manage_all_groups).toBe(w.gid('role:owners'));
    const r = await w.as('bob').post('/user_groups/create', {
      name: 'Backend',
      description: 'Backend team',
      members: [w.uid('bob')],
      subgroups: [support],
      can_manage_group: w.gid('role:administrators'),
      can_add_members_group: w.gid('role:administrators'),
    });
    expectSuccess(r);
    const g = await apiGroup(w.as('bob'), r.body.group_id);
    expect([g.direct_subgroup_ids, g.can_manage_group, g.can_add_members_group]).toEqual([
      [support],
      w.gid('role:administrators'),
      w.gid('role:administrators'),
    ]);
  });

  it('test_creating_groups_with_subgroups (lock_subgroups_with_respect_to_supergroup): unknown and deactivated subgroups', async () => {
    const alice = w.as('alice');
    const before = await groupCount(alice);
    expectError(
      await alice.post('/user_groups/create', {
        name: 'x',
        description: '',
        members: [],
        subgroups: [123456],
      }),
      'Invalid user group ID: 123456',
    );
    expectError(
      await alice.post('/user_groups/create', {
        name: 'x',
        description: '',
        members: [],
        subgroups: [w.gid('retired-team')],
      }),
      'User group is deactivated.',
    );
    expect(await groupCount(alice)).toBe(before);
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_set_group_settings_during_user_group_creation', () => {
  it.each(GROUP_SETTINGS)(
    '%s: system, named, nobody, anonymous values and their canonical forms',
    async (setting) => {
      const alice = w.as('alice');
      const leadership = await w.create('alice', 'leadership', ['alice']);
      const mods = w.gid('role:moderators');
      const check = async (name: string, value: unknown, expected: unknown) => {
        const r = await alice.post('/user_groups/create', {
          name,
          description: '',
          members: [w.uid('alice')],
          [setting]: value,
        });
        expectSuccess(r);
        expect([name, (await apiGroup(alice, r.body.group_id))[setting]]).toEqual([name, expected]);
      };
      await check('support', mods, mods);
      await check('test', leadership, leadership);
      await check('marketing', w.gid('role:nobody'), w.gid('role:nobody'));
      await check(
        'backend-team',
        { direct_members: [w.uid('bob')], direct_subgroups: [leadership, mods] },
        { direct_members: [w.uid('bob')], direct_subgroups: sorted([leadership, mods]) },
      );
      // parse_group_setting_value: one subgroup and no members is that group; nothing is nobody.
      await check('help', { direct_members: [], direct_subgroups: [mods] }, mods);
      await check('devops', { direct_members: [], direct_subgroups: [] }, w.gid('role:nobody'));
      await check('frontend-team', w.gid('role:owners'), w.gid('role:owners'));
    },
  );

  it.each(GROUP_SETTINGS)(
    '%s: role:internet, unknown groups and users are refused',
    async (setting) => {
      const alice = w.as('alice');
      const leadership = await w.create('alice', 'leadership', ['alice']);
      const mods = w.gid('role:moderators');
      const before = await groupCount(alice);
      const attempt = (value: unknown) =>
        alice.post('/user_groups/create', {
          name: 'frontend',
          description: '',
          members: [w.uid('alice')],
          [setting]: value,
        });
      expectError(
        await attempt(w.gid('role:internet')),
        `'${setting}' setting cannot be set to 'role:internet' group.`,
      );
      expectError(await attempt(123456), 'Invalid user group');
      expectError(
        await attempt({ direct_members: [1111], direct_subgroups: [leadership, mods] }),
        'Invalid user ID: 1111',
      );
      expectError(
        await attempt({ direct_members: [w.uid('bob')], direct_subgroups: [123456, mods] }),
        'Invalid user group ID: 123456',
      );
      expect(await groupCount(alice)).toBe(before);
    },
  );

  it.each([
    'can_add_members_group',
    'can_join_group',
    'can_manage_group',
    'can_remove_members_group',
  ])('%s: role:everyone is refused (allow_everyone_group=False)', async (setting) => {
    expectError(
      await w.as('alice').post('/user_groups/create', {
        name: 'frontend',
        description: '',
        members: [],
        [setting]: w.gid('role:everyone'),
      }),
      `'${setting}' setting cannot be set to 'role:everyone' group.`,
    );
  });

  it('can_mention_group cannot name a deactivated group, directly or as a subgroup', async () => {
    const alice = w.as('alice');
    const retired = w.gid('retired-team');
    const attempt = (value: unknown) =>
      alice.post('/user_groups/create', {
        name: 'social',
        description: 'Social team',
        members: [w.uid('alice')],
        can_mention_group: value,
      });
    expectError(await attempt(retired), 'User group is deactivated.');
    expectError(
      await attempt({ direct_members: [w.uid('bob')], direct_subgroups: [retired] }),
      'User group is deactivated.',
    );
  });

  it('a deactivated user cannot be a direct member of an anonymous value (user_ids_to_users)', async () => {
    expectError(
      await w.as('alice').post('/user_groups/create', {
        name: 'social',
        description: '',
        members: [],
        can_mention_group: {
          direct_members: [w.uid('former'), w.uid('bob')],
          direct_subgroups: [],
        },
      }),
      `Invalid user ID: ${w.uid('former')}`,
    );
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_user_group_get and UserGroupTestCase.test_user_groups_in_realm_serialized', () => {
  it('test_user_group_get: every active group of the realm, by ID', async () => {
    const r = await w.as('alice').get('/user_groups');
    expectSuccess(r);
    const ids = (r.body.user_groups as Array<{ id: number }>).map((g) => g.id);
    expect(ids).toEqual(sorted(w.z.org.groups.filter((g) => !g.deactivated).map((g) => g.id)));
    expect(ids).not.toContain(w.gid('retired-team'));
  });

  it('test_user_groups_in_realm_serialized: role:nobody first with nobody settings; system subgroups; deactivated users left out', async () => {
    w.z.org.users.find((u) => u.id === w.uid('bob'))!.isActive = false;
    const groups = (await w.as('alice').get('/user_groups')).body.user_groups as any[];
    expect(groups[0]).toMatchObject({
      name: 'role:nobody',
      description: 'Nobody',
      members: [],
      direct_subgroup_ids: [],
      can_manage_group: w.gid('role:nobody'),
      can_mention_group: w.gid('role:nobody'),
      deactivated: false,
      is_system_group: true,
    });
    // Zulip creates the system groups in this order (create_system_user_groups_for_realm).
    expect(groups.slice(0, 3).map((g: { name: string }) => g.name)).toEqual([
      'role:nobody',
      'role:owners',
      'role:administrators',
    ]);
    const admins = groups.find((g) => g.name === 'role:administrators');
    expect(admins.direct_subgroup_ids).toEqual([w.gid('role:owners')]);
    expect(groups.find((g) => g.name === 'backend').members).toEqual([w.uid('alice')]);
  });

  it('test_user_groups_in_realm_serialized: anonymous settings show members and subgroups; include_deactivated_groups', async () => {
    const alice = w.as('alice');
    const setting = {
      direct_members: [w.uid('bob')],
      direct_subgroups: sorted([w.gid('role:administrators'), w.gid('backend')]),
    };
    const id = await w.create('owner', 'newgroup2', ['bob'], {
      can_manage_group: setting,
      can_mention_group: setting,
    });
    const g = await apiGroup(alice, id);
    expect([g.can_manage_group, g.can_mention_group, g.members]).toEqual([
      setting,
      setting,
      [w.uid('bob')],
    ]);
    const without = (await alice.get('/user_groups')).body.user_groups as any[];
    const withDeactivated = (await alice.get('/user_groups', { include_deactivated_groups: true }))
      .body.user_groups as any[];
    expect(withDeactivated.length).toBe(without.length + 1);
    expect(withDeactivated.find((x) => x.id === w.gid('retired-team')).deactivated).toBe(true);
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_user_group_update', () => {
  let support: number;
  beforeEach(async () => {
    support = await w.create('alice', 'support', ['alice']);
  });

  it('test_user_group_update: name and description', async () => {
    expectSuccess(
      await w
        .as('alice')
        .patch(`/user_groups/${support}`, { name: 'help', description: 'Troubleshooting team' }),
    );
    const g = await apiGroup(w.as('alice'), support);
    expect([g.name, g.description]).toEqual(['help', 'Troubleshooting team']);
  });

  it('test_user_group_update: name and description each send their own update event (do_update_user_group_name, do_update_user_group_description)', async () => {
    const alice = w.as('alice');
    // Not checked against the yaml: that check is slow enough for the server to drop the idle
    // keep-alive connection the next request would reuse.
    const q = await alice.call(
      'POST',
      '/register',
      { event_types: ['user_group'] },
      { validate: false },
    );
    expectSuccess(
      await alice.patch(`/user_groups/${support}`, {
        name: 'help',
        description: 'Troubleshooting team',
      }),
    );
    const ev = await alice.get('/events', {
      queue_id: q.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    type Ev = { op: string; group_id: number; data: unknown };
    expect((ev.body.events as Ev[]).map((e) => [e.op, e.group_id, e.data])).toEqual([
      ['update', support, { name: 'help' }],
      ['update', support, { description: 'Troubleshooting team' }],
    ]);
  });

  it('test_user_group_update: nothing supplied', async () => {
    expectError(await w.as('alice').patch(`/user_groups/${support}`, {}), 'No new data supplied');
  });

  it('test_user_group_update: only the name', async () => {
    expectSuccess(await w.as('alice').patch(`/user_groups/${support}`, { name: 'help team' }));
    const g = await apiGroup(w.as('alice'), support);
    expect([g.name, g.description]).toEqual(['help team', '']);
  });

  it('test_user_group_update: an unknown group', async () => {
    expectError(
      await w.as('alice').patch('/user_groups/123456', { name: 'help' }),
      'Invalid user group',
    );
  });

  it.each([
    ['a'.repeat(101), 'User group name cannot exceed 100 characters.'],
    ['', "User group name can't be empty!"],
    ['@test', "User group name cannot start with '@'."],
    ['role:manager', "User group name cannot start with 'role:'."],
    ['user:1', "User group name cannot start with 'user:'."],
    ['stream:1', "User group name cannot start with 'stream:'."],
    ['channel:1', "User group name cannot start with 'channel:'."],
  ])('test_user_group_update: name %j', async (name, msg) => {
    expectError(await w.as('alice').patch(`/user_groups/${support}`, { name }), msg);
    expect((await apiGroup(w.as('alice'), support)).name).toBe('support');
  });

  it('test_user_group_update: a deactivated group can be renamed and described', async () => {
    expectSuccess(await w.as('alice').post(`/user_groups/${support}/deactivate`));
    expectSuccess(
      await w
        .as('alice')
        .patch(`/user_groups/${support}`, { description: 'Troubleshooting and support team' }),
    );
    expectSuccess(await w.as('alice').patch(`/user_groups/${support}`, { name: 'Support team' }));
    const g = await apiGroup(w.as('alice'), support);
    expect([g.name, g.description, g.deactivated]).toEqual([
      'Support team',
      'Troubleshooting and support team',
      true,
    ]);
  });

  it('test_user_group_update_to_already_existing_name', async () => {
    const marketing = await w.create('alice', 'marketing', ['alice']);
    void marketing;
    expectError(
      await w.as('alice').patch(`/user_groups/${support}`, { name: 'marketing' }),
      "User group 'marketing' already exists.",
    );
    // Names are unique as stored (case-sensitive), deactivated groups included.
    expectError(
      await w.as('alice').patch(`/user_groups/${support}`, { name: 'retired-team' }),
      "User group 'retired-team' already exists.",
    );
    expectSuccess(await w.as('alice').patch(`/user_groups/${support}`, { name: 'Marketing' }));
  });

  it('test_user_group_update: an invalid name with a failing setting leaves everything as it was (transaction.atomic)', async () => {
    expectError(
      await w.as('alice').patch(`/user_groups/${support}`, {
        name: 'renamed',
        can_mention_group: { new: w.gid('role:internet') },
      }),
      "'can_mention_group' setting cannot be set to 'role:internet' group.",
    );
    expect((await apiGroup(w.as('alice'), support)).name).toBe('support');
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_update_user_group_permission_settings', () => {
  let support: number;
  let marketing: number;
  let leadership: number;
  beforeEach(async () => {
    support = await w.create('alice', 'support', ['alice']);
    marketing = await w.create('alice', 'marketing', ['alice']);
    leadership = await w.create('alice', 'leadership', ['alice']);
  });

  it.each(GROUP_SETTINGS)(
    '%s: {new} to system, named, nobody and anonymous values',
    async (setting) => {
      const owner = w.as('owner');
      const mods = w.gid('role:moderators');
      const set = async (value: unknown, expected: unknown) => {
        expectSuccess(await owner.patch(`/user_groups/${support}`, { [setting]: { new: value } }));
        expect((await apiGroup(owner, support))[setting]).toEqual(expected);
      };
      await set(mods, mods);
      await set(marketing, marketing);
      await set(w.gid('role:nobody'), w.gid('role:nobody'));
      const bob = w.uid('bob');
      const erin = w.uid('erin');
      await set(
        { direct_members: [bob], direct_subgroups: [mods, marketing] },
        { direct_members: [bob], direct_subgroups: sorted([mods, marketing]) },
      );
      await set(
        { direct_members: [bob, erin], direct_subgroups: [mods, marketing] },
        { direct_members: sorted([bob, erin]), direct_subgroups: sorted([mods, marketing]) },
      );
      await set({ direct_members: [], direct_subgroups: [] }, w.gid('role:nobody'));
      await set(marketing, marketing);
      await set(w.gid('role:owners'), w.gid('role:owners'));
    },
  );

  it.each(GROUP_SETTINGS)('%s: refused values leave the setting as it was', async (setting) => {
    const owner = w.as('owner');
    const mods = w.gid('role:moderators');
    const before = (await apiGroup(owner, support))[setting];
    const attempt = (value: unknown) =>
      owner.patch(`/user_groups/${support}`, { [setting]: { new: value } });
    expectError(
      await attempt(w.gid('role:internet')),
      `'${setting}' setting cannot be set to 'role:internet' group.`,
    );
    expectError(await attempt(123456), 'Invalid user group');
    expectError(
      await attempt({ direct_members: [1111, w.uid('bob')], direct_subgroups: [mods, marketing] }),
      'Invalid user ID: 1111',
    );
    expectError(
      await attempt({
        direct_members: [w.uid('erin'), w.uid('bob')],
        direct_subgroups: [123456, marketing],
      }),
      'Invalid user group ID: 123456',
    );
    expect((await apiGroup(owner, support))[setting]).toEqual(before);
  });

  it.each(GROUP_SETTINGS)(
    "%s: a deactivated group cannot be the value, but a deactivated group's setting can change",
    async (setting) => {
      const owner = w.as('owner');
      expectSuccess(await owner.post(`/user_groups/${leadership}/deactivate`));
      expectError(
        await owner.patch(`/user_groups/${support}`, { [setting]: { new: leadership } }),
        'User group is deactivated.',
      );
      expectError(
        await owner.patch(`/user_groups/${support}`, {
          [setting]: { new: { direct_members: [w.uid('erin')], direct_subgroups: [leadership] } },
        }),
        'User group is deactivated.',
      );
      expectSuccess(
        await owner.patch(`/user_groups/${leadership}`, { [setting]: { new: marketing } }),
      );
      expect((await apiGroup(owner, leadership))[setting]).toBe(marketing);
    },
  );

  it.each(GROUP_SETTINGS)(
    '%s: a bare value instead of {new, old} does not have the expected format',
    async (setting) => {
      expectError(
        await w.as('owner').patch(`/user_groups/${leadership}`, { [setting]: support }),
        `${setting} does not have the expected format`,
      );
    },
  );
});

describe('test_user_groups.py UserGroupAPITestCase.test_update_can_mention_group_setting_with_previous_value_passed', () => {
  let support: number;
  let marketing: number;
  let alice: TestClient;
  const mismatch = (r: any) => {
    expectError(r, "'old' value does not match the expected value.", 'EXPECTATION_MISMATCH');
    // PreviousSettingValueMismatchedError: ExpectationMismatchError's data_fields.
    expect(r.body.field_name).toBe('old');
  };
  beforeEach(async () => {
    support = await w.create('alice', 'support', ['alice']);
    marketing = await w.create('alice', 'marketing', ['alice']);
    alice = w.as('alice');
  });

  it('an old value that differs (a group, or an anonymous value) is EXPECTATION_MISMATCH', async () => {
    mismatch(
      await alice.patch(`/user_groups/${support}`, {
        can_mention_group: { new: marketing, old: w.gid('role:moderators') },
      }),
    );
    mismatch(
      await alice.patch(`/user_groups/${support}`, {
        can_mention_group: {
          new: marketing,
          old: { direct_members: [w.uid('bob')], direct_subgroups: [w.gid('role:everyone')] },
        },
      }),
    );
    expect((await apiGroup(alice, support)).can_mention_group).toBe(w.gid('role:everyone'));
  });

  it('a matching old value, then an old value of one subgroup and no members (that group)', async () => {
    expectSuccess(
      await alice.patch(`/user_groups/${support}`, {
        can_mention_group: { new: marketing, old: w.gid('role:everyone') },
      }),
    );
    expect((await apiGroup(alice, support)).can_mention_group).toBe(marketing);
    const next = { direct_members: [w.uid('bob')], direct_subgroups: [w.gid('role:moderators')] };
    expectSuccess(
      await alice.patch(`/user_groups/${support}`, {
        can_mention_group: {
          new: next,
          old: { direct_members: [], direct_subgroups: [marketing] },
        },
      }),
    );
    expect((await apiGroup(alice, support)).can_mention_group).toEqual(next);
  });

  it('an anonymous current value: a group ID as old never matches; the same members and subgroups do', async () => {
    const current = {
      direct_members: [w.uid('bob')],
      direct_subgroups: [w.gid('role:moderators')],
    };
    expectSuccess(
      await alice.patch(`/user_groups/${support}`, { can_mention_group: { new: current } }),
    );
    const next = { direct_members: [w.uid('alice')], direct_subgroups: [marketing] };
    mismatch(
      await alice.patch(`/user_groups/${support}`, {
        can_mention_group: { new: next, old: w.gid('role:moderators') },
      }),
    );
    expectSuccess(
      await alice.patch(`/user_groups/${support}`, {
        can_mention_group: { new: next, old: current },
      }),
    );
    expect((await apiGroup(alice, support)).can_mention_group).toEqual(next);
  });

  it('an unknown new group with a matching old value is "Invalid user group"', async () => {
    const current = { direct_members: [w.uid('alice')], direct_subgroups: [marketing] };
    expectSuccess(
      await alice.patch(`/user_groups/${support}`, { can_mention_group: { new: current } }),
    );
    expectError(
      await alice.patch(`/user_groups/${support}`, {
        can_mention_group: { new: 123456, old: current },
      }),
      'Invalid user group',
    );
  });

  it('old is compared before new is looked up: a mismatching old with an unknown new is EXPECTATION_MISMATCH', async () => {
    mismatch(
      await alice.patch(`/user_groups/${support}`, {
        can_mention_group: { new: 123456, old: marketing },
      }),
    );
  });
});

describe('issue 11 item 6: anonymous values reported without deactivated members (get_group_setting_value_for_api, validate_group_setting_value_change)', () => {
  let support: number;
  beforeEach(async () => {
    support = await w.create('owner', 'support', ['alice']);
  });
  const deactivate = (local: string) => {
    w.z.org.users.find((u) => u.id === w.uid(local))!.isActive = false;
  };

  it('one subgroup left: reported as {[], [G]}; as old it parses to G and never matches; without old the change lands', async () => {
    const backend = w.gid('backend');
    w.setting('support', 'can_mention_group', {
      direct_members: [w.uid('bob')],
      direct_subgroups: [backend],
    });
    deactivate('bob');
    const owner = w.as('owner');
    const reported = (await apiGroup(owner, support)).can_mention_group;
    expect(reported).toEqual({ direct_members: [], direct_subgroups: [backend] });
    const r = await owner.patch(`/user_groups/${support}`, {
      can_mention_group: { new: w.gid('role:members'), old: reported },
    });
    expectError(r, "'old' value does not match the expected value.", 'EXPECTATION_MISMATCH');
    expect((await apiGroup(owner, support)).can_mention_group).toEqual(reported);
    expectSuccess(
      await owner.patch(`/user_groups/${support}`, {
        can_mention_group: { new: w.gid('role:members') },
      }),
    );
    expect((await apiGroup(owner, support)).can_mention_group).toBe(w.gid('role:members'));
  });

  it('no one left: reported as {[], []}; as old it parses to role:nobody and never matches', async () => {
    w.setting('support', 'can_mention_group', {
      direct_members: [w.uid('bob')],
      direct_subgroups: [],
    });
    deactivate('bob');
    const owner = w.as('owner');
    const reported = (await apiGroup(owner, support)).can_mention_group;
    expect(reported).toEqual({ direct_members: [], direct_subgroups: [] });
    expectError(
      await owner.patch(`/user_groups/${support}`, {
        can_mention_group: { new: w.gid('role:members'), old: reported },
      }),
      "'old' value does not match the expected value.",
      'EXPECTATION_MISMATCH',
    );
  });

  it('the stored value with the deactivated member as old does not match either; the reported one (several left) does', async () => {
    const stored = {
      direct_members: sorted([w.uid('alice'), w.uid('bob')]),
      direct_subgroups: [w.gid('backend')],
    };
    w.setting('support', 'can_mention_group', stored);
    deactivate('bob');
    const owner = w.as('owner');
    const reported = (await apiGroup(owner, support)).can_mention_group;
    expect(reported).toEqual({
      direct_members: [w.uid('alice')],
      direct_subgroups: [w.gid('backend')],
    });
    expectError(
      await owner.patch(`/user_groups/${support}`, {
        can_mention_group: { new: w.gid('role:members'), old: stored },
      }),
      "'old' value does not match the expected value.",
      'EXPECTATION_MISMATCH',
    );
    expectSuccess(
      await owner.patch(`/user_groups/${support}`, {
        can_mention_group: { new: w.gid('role:members'), old: reported },
      }),
    );
    expect((await apiGroup(owner, support)).can_mention_group).toBe(w.gid('role:members'));
  });

  it('setting the reported value as new is no change (no event), even though the stored value still has the member', async () => {
    w.setting('support', 'can_mention_group', {
      direct_members: sorted([w.uid('alice'), w.uid('bob')]),
      direct_subgroups: [],
    });
    deactivate('bob');
    const owner = w.as('owner');
    const q = await owner.call(
      'POST',
      '/register',
      { event_types: ['user_group'] },
      { validate: false },
    );
    expectSuccess(
      await owner.patch(`/user_groups/${support}`, {
        can_mention_group: { new: { direct_members: [w.uid('alice')], direct_subgroups: [] } },
      }),
    );
    const ev = await owner.get('/events', {
      queue_id: q.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expect((ev.body.events as any[]).filter((e) => e.type === 'user_group')).toEqual([]);
  });

  it('register reports realm settings the same way (get_group_setting_value_for_register_api)', async () => {
    w.realm('can_create_groups', {
      direct_members: sorted([w.uid('alice'), w.uid('bob')]),
      direct_subgroups: [w.gid('backend')],
    });
    deactivate('bob');
    const r = await w.as('owner').post('/register', { fetch_event_types: ['realm'] });
    expect(r.body.realm_can_create_groups).toEqual({
      direct_members: [w.uid('alice')],
      direct_subgroups: [w.gid('backend')],
    });
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_user_group_deactivation', () => {
  let support: number;
  let leadership: number;
  beforeEach(async () => {
    support = await w.create('owner', 'support', ['bob']);
    leadership = await w.create('bob', 'leadership', ['bob']);
    expectSuccess(
      await w.as('owner').post(`/user_groups/${support}/subgroups`, { add: [leadership] }),
    );
  });
  const deactivated = async (id: number) =>
    (await apiGroup(w.as('owner'), id)).deactivated as boolean;

  it('test_user_group_deactivation: a member needs can_manage_all_groups (or can_manage_group)', async () => {
    w.realm('can_manage_all_groups', 'role:administrators');
    expectError(
      await w.as('bob').post(`/user_groups/${support}/deactivate`),
      'Insufficient permission',
    );
    expect(await deactivated(support)).toBe(false);
    w.realm('can_manage_all_groups', 'role:members');
    expectSuccess(await w.as('bob').post(`/user_groups/${support}/deactivate`));
    expect(await deactivated(support)).toBe(true);
  });

  it('test_user_group_deactivation: administrators with can_manage_all_groups, without being members', async () => {
    w.realm('can_manage_all_groups', 'role:members');
    expectSuccess(await w.as('admin').post(`/user_groups/${support}/deactivate`));
    expect(await deactivated(support)).toBe(true);
  });

  it('test_user_group_deactivation: moderators only once can_manage_all_groups includes them', async () => {
    w.realm('can_manage_all_groups', 'role:administrators');
    expectError(
      await w.as('moderator').post(`/user_groups/${support}/deactivate`),
      'Insufficient permission',
    );
    w.realm('can_manage_all_groups', 'role:moderators');
    expectSuccess(await w.as('moderator').post(`/user_groups/${support}/deactivate`));
  });

  it("test_user_group_deactivation: the group's can_manage_group (system, then anonymous)", async () => {
    w.realm('can_manage_all_groups', 'role:administrators');
    w.setting('support', 'can_manage_group', 'role:administrators');
    expectError(
      await w.as('moderator').post(`/user_groups/${support}/deactivate`),
      'Insufficient permission',
    );
    w.setting('support', 'can_manage_group', 'role:moderators');
    expectSuccess(await w.as('moderator').post(`/user_groups/${support}/deactivate`));
    w.group('support').deactivated = false;
    w.setting('support', 'can_manage_group', {
      direct_members: [w.uid('moderator')],
      direct_subgroups: [w.gid('role:administrators')],
    });
    expectSuccess(await w.as('moderator').post(`/user_groups/${support}/deactivate`));
  });

  it('test_user_group_deactivation: a subgroup of an active group is in use; once the supergroup is deactivated it is not', async () => {
    const owner = w.as('owner');
    const r = await owner.post(`/user_groups/${leadership}/deactivate`);
    expectError(r, 'Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE');
    expect(r.body.objections).toEqual([{ type: 'subgroup', supergroup_ids: [support] }]);
    expectSuccess(await owner.post(`/user_groups/${support}/deactivate`));
    expectSuccess(await owner.post(`/user_groups/${leadership}/deactivate`));
    expect(await deactivated(leadership)).toBe(true);
  });

  it('test_user_group_deactivation: system groups cannot be deactivated', async () => {
    expectError(
      await w.as('owner').post(`/user_groups/${w.gid('role:members')}/deactivate`),
      'Insufficient permission',
    );
  });

  it('issue 11 item 6 (check_user_group_can_be_deactivated does not exclude the group itself): a group its own setting names is in use', async () => {
    const owner = w.as('owner');
    w.setting('support', 'can_mention_group', support);
    w.setting('support', 'can_manage_group', {
      direct_members: [w.uid('owner')],
      direct_subgroups: [support],
    });
    expectSuccess(await owner.post(`/user_groups/${support}/subgroups`, { delete: [leadership] }));
    const r = await owner.post(`/user_groups/${support}/deactivate`);
    expectError(r, 'Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE');
    expect(r.body.objections).toEqual([
      {
        type: 'user_group',
        group_id: support,
        settings: ['can_manage_group', 'can_mention_group'],
      },
    ]);
    expectSuccess(
      await owner.patch(`/user_groups/${support}`, {
        can_mention_group: { new: w.gid('role:everyone') },
        can_manage_group: { new: w.gid('role:nobody') },
      }),
    );
    expectSuccess(await owner.post(`/user_groups/${support}/deactivate`));
  });

  it('access_user_group_for_deactivation: an already deactivated group is "User group is deactivated."', async () => {
    expectError(
      await w.as('owner').post(`/user_groups/${w.gid('retired-team')}/deactivate`),
      'User group is deactivated.',
    );
    expectError(await w.as('owner').post('/user_groups/123456/deactivate'), 'Invalid user group');
  });

  it('deactivate_user_group has no require_member_or_admin: a bot with the permission may, a guest fails the permission', async () => {
    w.realm('can_manage_all_groups', 'role:members');
    expectSuccess(await w.as('deploy-bot').post(`/user_groups/${support}/deactivate`));
    expect(await deactivated(support)).toBe(true);
    // user_has_permission_for_group_setting: guests hold no setting that refuses role:everyone.
    w.realm('can_manage_all_groups', 'role:everyone');
    w.setting('design', 'can_manage_group', {
      direct_members: [w.uid('guest')],
      direct_subgroups: [],
    });
    expectError(
      await w.as('guest').post(`/user_groups/${w.gid('design')}/deactivate`),
      'Insufficient permission',
    );
    expect(w.group('design').deactivated).toBe(false);
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_user_group_deactivation_with_group_used_for_settings', () => {
  let support: number;
  beforeEach(async () => {
    support = await w.create('bob', 'support', ['bob']);
  });
  const inUse = async (objections: unknown) => {
    const r = await w.as('bob').post(`/user_groups/${support}/deactivate`);
    expectError(r, 'Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE');
    expect(r.body.objections).toEqual(objections);
  };
  it.each([
    'create_multiuse_invite_group',
    'can_access_all_users_group',
    'can_add_subscribers_group',
    'can_add_custom_emoji_group',
    'can_create_bots_group',
    'can_create_groups',
    'can_create_public_channel_group',
    'can_create_private_channel_group',
    'can_create_web_public_channel_group',
    'can_create_write_only_bots_group',
    'can_delete_any_message_group',
    'can_delete_own_message_group',
    'can_invite_users_group',
    'can_manage_all_groups',
    'can_manage_billing_group',
    'can_mention_many_users_group',
    'can_move_messages_between_channels_group',
    'can_move_messages_between_topics_group',
    'can_resolve_topics_group',
    'can_set_topics_policy_group',
    'can_summarize_topics_group',
    'direct_message_initiator_group',
    'direct_message_permission_group',
  ])('realm %s: as a subgroup of an anonymous value, then as the value', async (setting) => {
    w.realm('can_manage_all_groups', 'role:members');
    w.realm(setting, {
      direct_members: [w.uid('alice')],
      direct_subgroups: [w.gid('role:moderators'), support],
    });
    await inUse([{ type: 'realm', settings: [setting] }]);
    w.realm(setting, support);
    await inUse([{ type: 'realm', settings: [setting] }]);
    w.realm(setting, 'role:moderators');
    if (setting === 'can_manage_all_groups') w.realm(setting, 'role:members');
    expectSuccess(await w.as('bob').post(`/user_groups/${support}/deactivate`));
  });

  it.each([
    'can_add_subscribers_group',
    'can_administer_channel_group',
    'can_create_topic_group',
    'can_delete_any_message_group',
    'can_delete_own_message_group',
    'can_move_messages_out_of_channel_group',
    'can_move_messages_within_channel_group',
    'can_remove_subscribers_group',
    'can_send_message_group',
    'can_subscribe_group',
    'can_resolve_topics_group',
  ])(
    'channel %s: as the value, then in an anonymous value; an archived channel does not count',
    async (setting) => {
      const ch = w.z.org.channels.find((c) => c.name === 'general')!;
      ch.settings[setting] = support;
      await inUse([{ type: 'channel', channel_id: ch.id, settings: [setting] }]);
      ch.isArchived = true;
      expectSuccess(await w.as('bob').post(`/user_groups/${support}/deactivate`));
      w.group('support').deactivated = false;
      ch.isArchived = false;
      ch.settings[setting] = {
        direct_members: [w.uid('alice')],
        direct_subgroups: [w.gid('role:moderators'), support],
      };
      await inUse([{ type: 'channel', channel_id: ch.id, settings: [setting] }]);
      ch.isArchived = true;
      expectSuccess(await w.as('bob').post(`/user_groups/${support}/deactivate`));
    },
  );

  it.each(GROUP_SETTINGS)(
    'user group %s: as the value, then in an anonymous value; a deactivated group does not count',
    async (setting) => {
      const leadership = await w.create('bob', 'leadership', ['bob']);
      w.setting('leadership', setting, support);
      await inUse([{ type: 'user_group', group_id: leadership, settings: [setting] }]);
      w.group('leadership').deactivated = true;
      expectSuccess(await w.as('bob').post(`/user_groups/${support}/deactivate`));
      w.group('support').deactivated = false;
      w.group('leadership').deactivated = false;
      w.setting('leadership', setting, {
        direct_members: [w.uid('alice')],
        direct_subgroups: [w.gid('role:moderators'), support],
      });
      await inUse([{ type: 'user_group', group_id: leadership, settings: [setting] }]);
      w.group('leadership').deactivated = true;
      expectSuccess(await w.as('bob').post(`/user_groups/${support}/deactivate`));
    },
  );
});

describe('test_user_groups.py UserGroupAPITestCase.test_user_group_reactivation', () => {
  let support: number;
  beforeEach(async () => {
    support = await w.create('owner', 'support', ['bob']);
    w.group('support').deactivated = true;
  });
  const reactivate = (who: string) =>
    w.as(who).patch(`/user_groups/${support}`, { deactivated: false });
  const isDeactivated = async () => (await apiGroup(w.as('owner'), support)).deactivated as boolean;

  it('test_user_group_reactivation: a member needs can_manage_all_groups', async () => {
    w.realm('can_manage_all_groups', 'role:administrators');
    expectError(await reactivate('bob'), 'Insufficient permission');
    expect(await isDeactivated()).toBe(true);
    w.realm('can_manage_all_groups', 'role:members');
    expectSuccess(await reactivate('bob'));
    expect(await isDeactivated()).toBe(false);
  });

  it('test_user_group_reactivation: administrators and moderators as can_manage_all_groups allows', async () => {
    w.realm('can_manage_all_groups', 'role:members');
    expectSuccess(await reactivate('admin'));
    w.group('support').deactivated = true;
    w.realm('can_manage_all_groups', 'role:administrators');
    expectError(await reactivate('moderator'), 'Insufficient permission');
    w.realm('can_manage_all_groups', 'role:moderators');
    expectSuccess(await reactivate('moderator'));
    expect(await isDeactivated()).toBe(false);
  });

  it("test_user_group_reactivation: the group's can_manage_group, system then anonymous", async () => {
    w.realm('can_manage_all_groups', 'role:administrators');
    w.setting('support', 'can_manage_group', 'role:administrators');
    expectError(await reactivate('moderator'), 'Insufficient permission');
    w.setting('support', 'can_manage_group', 'role:moderators');
    expectSuccess(await reactivate('moderator'));
    w.group('support').deactivated = true;
    w.setting('support', 'can_manage_group', {
      direct_members: [w.uid('moderator')],
      direct_subgroups: [w.gid('role:administrators')],
    });
    expectSuccess(await reactivate('moderator'));
    expect(await isDeactivated()).toBe(false);
  });

  it('test_user_group_reactivation: deactivated=true does nothing to an active group', async () => {
    w.group('support').deactivated = false;
    expectSuccess(await w.as('owner').patch(`/user_groups/${support}`, { deactivated: true }));
    expect(await isDeactivated()).toBe(false);
  });

  it('FL 385 and below: deactivated is not a parameter yet (FL 386), so nothing is supplied', async () => {
    const old = await groupsWorld({ featureLevel: 385 });
    try {
      const retired = old.gid('retired-team');
      const r = await old.as('owner').patch(`/user_groups/${retired}`, { deactivated: false });
      expectError(r, 'No new data supplied');
      expect(old.group('retired-team').deactivated).toBe(true);
    } finally {
      await old.z.close();
    }
    expectSuccess(
      await w.as('owner').patch(`/user_groups/${w.gid('retired-team')}`, { deactivated: false }),
    );
    expect(w.group('retired-team').deactivated).toBe(false);
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_can_create_groups_for_creating_user_group', () => {
  const create = (who: string) =>
    w.as(who).post('/user_groups/create', {
      name: 'support',
      description: 'Support Team',
      members: [w.uid('alice')],
    });
  const created = () => w.z.org.groups.some((g) => g.name === 'support');
  const drop = () => {
    w.z.org.groups = w.z.org.groups.filter((g) => g.name !== 'support');
  };

  it('can_create_groups = administrators: moderators may not, administrators may (not being members)', async () => {
    w.realm('can_create_groups', 'role:administrators');
    expectError(await create('moderator'), 'Insufficient permission');
    expect(created()).toBe(false);
    expectSuccess(await create('admin'));
    expect(created()).toBe(true);
  });

  it('can_create_groups = moderators: members may not, moderators may', async () => {
    w.realm('can_create_groups', 'role:moderators');
    expectError(await create('alice'), 'Insufficient permission');
    expectSuccess(await create('moderator'));
  });

  it('can_create_groups = a named group, then an anonymous group', async () => {
    const daveGroup = await w.create('owner', 'dave_group', ['dave']);
    w.realm('can_create_groups', daveGroup);
    expectError(await create('moderator'), 'Insufficient permission');
    expectSuccess(await create('dave'));
    drop();
    w.realm('can_create_groups', {
      direct_members: [w.uid('carol')],
      direct_subgroups: sorted([w.gid('role:administrators'), w.gid('role:moderators')]),
    });
    expectError(await create('dave'), 'Insufficient permission');
    for (const who of ['carol', 'moderator', 'admin']) {
      expectSuccess(await create(who));
      drop();
    }
  });

  it('can_create_groups = members: guests are refused as guests', async () => {
    w.realm('can_create_groups', 'role:members');
    expectError(await create('guest'), 'Not allowed for guest users');
    expectSuccess(await create('bob'));
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_realm_level_setting_for_updating_user_groups', () => {
  let support: number;
  beforeEach(async () => {
    support = await w.create('bob', 'support', ['bob']);
  });
  const update = (who: string, name: string, description: string) =>
    w.as(who).patch(`/user_groups/${support}`, { name, description });

  it('can_manage_all_groups = administrators: moderators may not, administrators may', async () => {
    w.setting('support', 'can_manage_group', 'role:nobody');
    w.realm('can_manage_all_groups', 'role:administrators');
    expectError(
      await update('moderator', 'help', 'Troubleshooting team'),
      'Insufficient permission',
    );
    expectSuccess(await update('admin', 'help', 'Troubleshooting team'));
    const g = await apiGroup(w.as('admin'), support);
    expect([g.name, g.description]).toEqual(['help', 'Troubleshooting team']);
  });

  it('can_manage_all_groups = moderators: a member outside the group may not; the creator still may (can_manage_group)', async () => {
    w.realm('can_manage_all_groups', 'role:moderators');
    expectError(await update('alice', 'help', 'x'), 'Insufficient permission');
    expectSuccess(await update('admin', 'support1', 'Support team - test'));
    expectSuccess(await update('bob', 'support', 'Support team'));
    expect((await apiGroup(w.as('bob'), support)).description).toBe('Support team');
  });

  it('can_manage_all_groups = members: guests are refused as guests, members may', async () => {
    w.setting('support', 'can_manage_group', 'role:nobody');
    w.realm('can_manage_all_groups', 'role:members');
    expectError(
      await update('guest', 'help', 'Troubleshooting team'),
      'Not allowed for guest users',
    );
    expectSuccess(await update('carol', 'help', 'Troubleshooting team'));
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_group_level_setting_for_updating_user_groups', () => {
  let support: number;
  beforeEach(async () => {
    support = await w.create('bob', 'support', ['bob', 'admin']);
    w.realm('can_manage_all_groups', 'role:nobody');
  });
  const update = (who: string, name: string) =>
    w.as(who).patch(`/user_groups/${support}`, { name, description: `${name} team` });

  it('can_manage_group = nobody: even administrators and members of the group may not', async () => {
    w.setting('support', 'can_manage_group', 'role:nobody');
    expectError(await update('admin', 'help'), 'Insufficient permission');
    expectError(await update('bob', 'help'), 'Insufficient permission');
    expect(w.group('support').description).toBe('');
  });

  it('can_manage_group = owners, then members (guests refused as guests)', async () => {
    w.setting('support', 'can_manage_group', 'role:owners');
    expectError(await update('admin', 'help'), 'Insufficient permission');
    expectSuccess(await update('owner', 'help'));
    w.setting('help', 'can_manage_group', 'role:members');
    expectError(await update('guest', 'support'), 'Not allowed for guest users');
    expectSuccess(await update('carol', 'support'));
  });

  it('can_manage_group = an anonymous group with a named and a system subgroup', async () => {
    const leadership = await w.create('alice', 'leadership', ['alice']);
    w.setting('support', 'can_manage_group', {
      direct_members: [w.uid('carol')],
      direct_subgroups: sorted([leadership, w.gid('role:owners')]),
    });
    expectError(await update('admin', 'help'), 'Insufficient permission');
    expectSuccess(await update('alice', 'help'));
    expectSuccess(await update('carol', 'support'));
    expectSuccess(await update('owner', 'help'));
    expect(w.group('help').description).toBe('help team');
  });
});
