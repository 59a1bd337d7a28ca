/**
 * User-group members and subgroups: changes, permissions, reads and the Notification Bot's
 * messages, ported from Zulip's zerver/tests/test_user_groups.py (UserGroupAPITestCase,
 * UserGroupTestCase). Every case runs at the emulator's newest feature level unless it names
 * another.
 */
import type { StoredMessage } from '../../src/emulator/state';
import { expectError, expectSuccess } from '../support/emulator-client';
import { groupsWorld, sorted } from './user-groups-support';
import type { GroupsWorld } from './user-groups-support';

let w: GroupsWorld;
beforeEach(async () => {
  w = await groupsWorld();
});
afterEach(() => w.z.close());

const NOTHING_TO_DO =
  'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".';

/** Direct members as `GET /user_groups/{id}/members?direct_member_only=true` reports them. */
async function directMembersOf(id: number): Promise<number[]> {
  const r = await w.as('owner').get(`/user_groups/${id}/members`, { direct_member_only: true });
  expectSuccess(r);
  return sorted(r.body.members as number[]);
}

async function directSubgroupsOf(id: number): Promise<number[]> {
  const r = await w.as('owner').get(`/user_groups/${id}/subgroups`, { direct_subgroup_only: true });
  expectSuccess(r);
  return sorted(r.body.subgroups as number[]);
}

/** A user's mention as Zulip writes it (`silent_mention_syntax_for_user`). */
const mention = (local: string): string => {
  const u = w.z.org.users.find((x) => x.id === w.uid(local))!;
  return `@_**${u.fullName}|${u.id}**`;
};

describe('test_user_groups.py UserGroupAPITestCase.test_update_members_of_user_group', () => {
  let support: number;
  beforeEach(async () => {
    support = await w.create('alice', 'support', ['alice']);
  });
  const post = (who: string, params: Record<string, unknown>) =>
    w.as(who).post(`/user_groups/${support}/members`, params);

  it('adding a member: the member gets "X added you to the group Y." from the Notification Bot', async () => {
    const before = w.messages().length;
    expectSuccess(await post('alice', { add: [w.uid('bob')] }));
    expect(await directMembersOf(support)).toEqual(sorted([w.uid('alice'), w.uid('bob')]));
    const sent = w.messages().slice(before);
    expect(sent).toHaveLength(1);
    const m = sent[0] as StoredMessage;
    expect(m.content).toBe(`${mention('alice')} added you to the group @_*support*.`);
    expect(m.type).toBe('private');
    expect(m.recipientIds).toContain(w.uid('bob'));
    expect(m.senderId).toBe(w.z.org.notificationBotId);
    expect(w.z.org.users.some((u) => u.id === m.senderId)).toBe(false);
    expect(m.flags[String(w.uid('bob'))]).toEqual([]);
  });

  it('adding a member already there', async () => {
    expectSuccess(await post('alice', { add: [w.uid('bob')] }));
    const before = w.messages().length;
    expectError(
      await post('alice', { add: [w.uid('bob')] }),
      `User ${w.uid('bob')} is already a member of this group`,
    );
    expect(await directMembersOf(support)).toEqual(sorted([w.uid('alice'), w.uid('bob')]));
    expect(w.messages().length).toBe(before);
  });

  it('adding oneself, a bot and a deactivated user: "Invalid user ID" for the deactivated one, nothing added', async () => {
    w.realm('can_manage_all_groups', 'role:members');
    expectError(
      await post('owner', { add: [w.uid('owner'), w.uid('former'), w.uid('deploy-bot')] }),
      `Invalid user ID: ${w.uid('former')}`,
    );
    expect(await directMembersOf(support)).toEqual([w.uid('alice')]);
  });

  it('adding oneself and a bot notifies nobody', async () => {
    const before = w.messages().length;
    expectSuccess(await post('owner', { add: [w.uid('owner'), w.uid('deploy-bot')] }));
    expect(await directMembersOf(support)).toEqual(
      sorted([w.uid('alice'), w.uid('owner'), w.uid('deploy-bot')]),
    );
    expect(w.messages().length).toBe(before);
  });

  it('removing a member: "X removed you from the group Y."', async () => {
    expectSuccess(await post('alice', { add: [w.uid('bob')] }));
    const before = w.messages().length;
    expectSuccess(await post('alice', { delete: [w.uid('bob')] }));
    expect(await directMembersOf(support)).toEqual([w.uid('alice')]);
    const sent = w.messages().slice(before);
    expect(sent.map((m) => [m.content, m.recipientIds.includes(w.uid('bob'))])).toEqual([
      [`${mention('alice')} removed you from the group @_*support*.`, true],
    ]);
  });

  it('removing a member who is not there', async () => {
    expectError(
      await post('alice', { delete: [w.uid('bob')] }),
      `There is no member '${w.uid('bob')}' in this user group`,
    );
  });

  it('removing oneself, a bot and a deactivated member: "Invalid user ID" (users are checked first)', async () => {
    w.group('support').members.push(w.uid('owner'), w.uid('deploy-bot'), w.uid('former'));
    expectError(
      await post('owner', { delete: [w.uid('former'), w.uid('owner'), w.uid('deploy-bot')] }),
      `Invalid user ID: ${w.uid('former')}`,
    );
    expect(w.members('support')).toContain(w.uid('owner'));
  });

  it('removing oneself and a bot notifies nobody', async () => {
    w.group('support').members.push(w.uid('owner'), w.uid('deploy-bot'));
    const before = w.messages().length;
    expectSuccess(await post('owner', { delete: [w.uid('owner'), w.uid('deploy-bot')] }));
    expect(await directMembersOf(support)).toEqual([w.uid('alice')]);
    expect(w.messages().length).toBe(before);
  });

  it('several members added at once: one message each, in one transaction with the other changes', async () => {
    const before = w.messages().length;
    expectSuccess(
      await post('alice', { add: [w.uid('bob'), w.uid('carol')], delete: [w.uid('alice')] }),
    );
    expect(await directMembersOf(support)).toEqual(sorted([w.uid('bob'), w.uid('carol')]));
    const sent = w.messages().slice(before);
    expect(sent.map((m) => m.content)).toEqual([
      `${mention('alice')} added you to the group @_*support*.`,
      `${mention('alice')} added you to the group @_*support*.`,
    ]);
    // A failing part rolls back the whole request, messages included.
    const after = w.messages().length;
    expectError(
      await post('owner', { add: [w.uid('dave')], delete: [w.uid('erin')] }),
      `There is no member '${w.uid('erin')}' in this user group`,
    );
    expect(w.messages().length).toBe(after);
    expect(await directMembersOf(support)).toEqual(sorted([w.uid('bob'), w.uid('carol')]));
  });

  it('add_subgroups and delete_subgroups on the members endpoint', async () => {
    const leadership = await w.create('carol', 'leadership', ['carol']);
    const admins = w.gid('role:administrators');
    expectSuccess(await post('alice', { add_subgroups: [leadership, admins] }));
    expect(await directSubgroupsOf(support)).toEqual(sorted([leadership, admins]));
    expectSuccess(await post('alice', { delete_subgroups: [admins] }));
    expect(await directSubgroupsOf(support)).toEqual([leadership]);
  });

  it('nothing to do', async () => {
    expectError(await post('alice', {}), NOTHING_TO_DO);
    expectError(await post('alice', { add: [], delete: [] }), NOTHING_TO_DO);
  });

  it('FL 391 and later: members of a deactivated group can be removed and added', async () => {
    expectSuccess(await w.as('alice').post(`/user_groups/${support}/deactivate`));
    expectSuccess(await post('alice', { delete: [w.uid('alice')] }));
    expectError(
      await w.as('alice').get(`/user_groups/${support}/members`),
      'User group is deactivated.',
    );
    expect(w.members('support')).toEqual([]);
    expectSuccess(await post('alice', { add: [w.uid('alice')] }));
    expect(w.members('support')).toEqual([w.uid('alice')]);
  });

  it('FL 390 and below: a deactivated group\'s members cannot change ("User group is deactivated.")', async () => {
    const old = await groupsWorld({ featureLevel: 390 });
    try {
      const retired = old.gid('retired-team');
      expectError(
        await old.as('owner').post(`/user_groups/${retired}/members`, { add: [old.uid('alice')] }),
        'User group is deactivated.',
      );
      expect(old.members('retired-team')).toEqual([old.uid('erin')]);
    } finally {
      await old.z.close();
    }
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_realm_level_setting_for_updating_members', () => {
  let support: number;
  beforeEach(async () => {
    support = await w.create('owner', 'support', ['bob']);
    w.setting('support', 'can_manage_group', 'role:nobody');
    w.setting('support', 'can_add_members_group', 'role:nobody');
  });
  const add = (who: string) =>
    w.as(who).post(`/user_groups/${support}/members`, { add: [w.uid('dave')] });
  const remove = (who: string) =>
    w.as(who).post(`/user_groups/${support}/members`, { delete: [w.uid('dave')] });

  it('can_manage_all_groups = administrators: moderators may not, administrators may', async () => {
    w.realm('can_manage_all_groups', 'role:administrators');
    expectError(await add('moderator'), 'Insufficient permission');
    expectSuccess(await add('admin'));
    expectError(await remove('moderator'), 'Insufficient permission');
    expectSuccess(await remove('admin'));
    expect(w.members('support')).toEqual([w.uid('bob')]);
  });

  it('can_manage_all_groups = moderators: members may not, moderators may', async () => {
    w.realm('can_manage_all_groups', 'role:moderators');
    expectError(await add('carol'), 'Insufficient permission');
    expectSuccess(await add('moderator'));
    expectError(await remove('alice'), 'Insufficient permission');
    expectSuccess(await remove('moderator'));
  });

  it('can_manage_all_groups = a named group, then an anonymous group', async () => {
    const bobGroup = await w.create('owner', 'bob_group', ['bob']);
    w.realm('can_manage_all_groups', bobGroup);
    expectError(await add('moderator'), 'Insufficient permission');
    expectSuccess(await add('bob'));
    expectError(await remove('moderator'), 'Insufficient permission');
    expectSuccess(await remove('bob'));
    w.realm('can_manage_all_groups', {
      direct_members: [w.uid('bob')],
      direct_subgroups: sorted([w.gid('role:administrators'), w.gid('role:moderators')]),
    });
    expectError(await add('carol'), 'Insufficient permission');
    expectSuccess(await add('moderator'));
    expectError(await remove('alice'), 'Insufficient permission');
    expectSuccess(await remove('admin'));
    expectSuccess(await add('bob'));
    expectSuccess(await remove('bob'));
  });

  it('can_manage_all_groups = members: guests are refused before any permission check', async () => {
    w.realm('can_manage_all_groups', 'role:members');
    expectError(await add('guest'), 'Not allowed for guest users');
    expectSuccess(await add('carol'));
    expectError(await remove('guest'), 'Not allowed for guest users');
    expectSuccess(await remove('carol'));
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_group_level_setting_for_adding_members', () => {
  let support: number;
  beforeEach(async () => {
    support = await w.create('owner', 'support', ['bob']);
    w.realm('can_manage_all_groups', 'role:nobody');
  });
  const add = (who: string) =>
    w.as(who).post(`/user_groups/${support}/members`, { add: [w.uid('dave')] });
  const reset = () => {
    w.group('support').members = [w.uid('bob')];
  };

  it('by default can_add_members_group is the creator', async () => {
    expectError(await add('admin'), 'Insufficient permission');
    expectSuccess(await add('owner'));
    expect(w.members('support')).toEqual(sorted([w.uid('bob'), w.uid('dave')]));
  });

  it('a system group; role:everyone (set directly) still refuses guests', async () => {
    w.setting('support', 'can_manage_group', 'role:nobody');
    w.setting('support', 'can_add_members_group', 'role:owners');
    expectError(await add('admin'), 'Insufficient permission');
    expectSuccess(await add('owner'));
    reset();
    w.setting('support', 'can_add_members_group', 'role:everyone');
    expectError(await add('guest'), 'Not allowed for guest users');
    expectSuccess(await add('carol'));
  });

  it('an anonymous group with subgroups', async () => {
    const leadership = await w.create('alice', 'leadership', ['alice']);
    w.setting('support', 'can_manage_group', 'role:nobody');
    w.setting('support', 'can_add_members_group', {
      direct_members: [w.uid('carol')],
      direct_subgroups: sorted([leadership, w.gid('role:owners')]),
    });
    expectError(await add('admin'), 'Insufficient permission');
    for (const who of ['alice', 'carol', 'owner']) {
      expectSuccess(await add(who));
      reset();
    }
  });

  it('can_manage_group holders need not be in can_add_members_group', async () => {
    w.setting('support', 'can_manage_group', {
      direct_members: [w.uid('bob')],
      direct_subgroups: [],
    });
    w.setting('support', 'can_add_members_group', {
      direct_members: [w.uid('alice')],
      direct_subgroups: [],
    });
    expectSuccess(await add('bob'));
    reset();
    expectSuccess(await add('alice'));
    reset();
    expectError(await add('carol'), 'Insufficient permission');
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_group_level_setting_for_removing_members', () => {
  let support: number;
  beforeEach(async () => {
    support = await w.create('owner', 'support', ['bob', 'dave'], {
      can_manage_group: w.gid('role:nobody'),
    });
    w.realm('can_manage_all_groups', 'role:nobody');
  });
  const remove = (who: string) =>
    w.as(who).post(`/user_groups/${support}/members`, { delete: [w.uid('dave')] });
  const reset = () => {
    w.group('support').members = sorted([w.uid('bob'), w.uid('dave')]);
  };

  it('by default can_remove_members_group is nobody, even for the creator', async () => {
    expectError(await remove('admin'), 'Insufficient permission');
    expectError(await remove('owner'), 'Insufficient permission');
    expect(w.members('support')).toEqual(sorted([w.uid('bob'), w.uid('dave')]));
  });

  it('a system group; role:everyone (set directly) still refuses guests', async () => {
    w.setting('support', 'can_remove_members_group', 'role:owners');
    expectError(await remove('admin'), 'Insufficient permission');
    expectSuccess(await remove('owner'));
    reset();
    w.setting('support', 'can_remove_members_group', 'role:everyone');
    expectError(await remove('guest'), 'Not allowed for guest users');
    expectSuccess(await remove('carol'));
  });

  it('an anonymous group with subgroups', async () => {
    const leadership = await w.create('alice', 'leadership', ['alice']);
    w.setting('support', 'can_remove_members_group', {
      direct_members: [w.uid('carol')],
      direct_subgroups: sorted([leadership, w.gid('role:owners')]),
    });
    expectError(await remove('admin'), 'Insufficient permission');
    for (const who of ['alice', 'carol', 'owner']) {
      expectSuccess(await remove(who));
      reset();
    }
  });

  it('can_manage_group holders need not be in can_remove_members_group', async () => {
    w.setting('support', 'can_manage_group', {
      direct_members: [w.uid('bob')],
      direct_subgroups: [],
    });
    w.setting('support', 'can_remove_members_group', {
      direct_members: [w.uid('alice')],
      direct_subgroups: [],
    });
    expectSuccess(await remove('bob'));
    reset();
    expectSuccess(await remove('alice'));
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_adding_yourself_to_group', () => {
  let support: number;
  beforeEach(async () => {
    support = await w.create('bob', 'support', ['bob']);
    w.realm('can_manage_all_groups', 'role:nobody');
    w.setting('support', 'can_manage_group', 'role:nobody');
    w.setting('support', 'can_add_members_group', 'role:nobody');
  });
  const join = async (who: string, error?: string) => {
    const r = await w.as(who).post(`/user_groups/${support}/members`, { add: [w.uid(who)] });
    if (error !== undefined) {
      expectError(r, error);
      expect(w.members('support')).toEqual([w.uid('bob')]);
    } else {
      expectSuccess(r);
      expect(w.members('support')).toEqual(sorted([w.uid('bob'), w.uid(who)]));
      w.group('support').members = [w.uid('bob')];
    }
  };

  it('can_join_group = administrators', async () => {
    w.setting('support', 'can_join_group', 'role:administrators');
    await join('moderator', 'Insufficient permission');
    await join('admin');
    await join('owner');
  });

  it('can_join_group = a named group, then an anonymous group', async () => {
    const leadership = await w.create('alice', 'leadership', ['alice', 'carol']);
    w.setting('support', 'can_join_group', leadership);
    await join('admin', 'Insufficient permission');
    await join('alice');
    w.setting('support', 'can_join_group', {
      direct_members: [w.uid('moderator')],
      direct_subgroups: [leadership],
    });
    await join('admin', 'Insufficient permission');
    await join('carol');
    await join('moderator');
  });

  it('can_add_members_group lets one join without can_join_group', async () => {
    await join('admin', 'Insufficient permission');
    w.setting('support', 'can_add_members_group', 'role:administrators');
    await join('admin');
  });

  it('can_manage_group, then can_manage_all_groups, let one join', async () => {
    w.setting('support', 'can_manage_group', 'role:administrators');
    await join('admin');
    w.setting('support', 'can_manage_group', 'role:nobody');
    await join('admin', 'Insufficient permission');
    w.realm('can_manage_all_groups', 'role:administrators');
    await join('admin');
  });

  it('joining with another user needs can_add_members_group, whatever can_join_group says', async () => {
    w.setting('support', 'can_join_group', 'role:members');
    expectError(
      await w.as('alice').post(`/user_groups/${support}/members`, {
        add: [w.uid('alice'), w.uid('carol')],
      }),
      'Insufficient permission',
    );
    expect(w.members('support')).toEqual([w.uid('bob')]);
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_leaving_a_group', () => {
  let support: number;
  beforeEach(async () => {
    support = await w.create('bob', 'support', ['bob']);
    w.realm('can_manage_all_groups', 'role:nobody');
    w.setting('support', 'can_manage_group', 'role:nobody');
  });
  const leave = async (who: string, error?: string) => {
    w.group('support').members = sorted([w.uid('bob'), w.uid(who)]);
    const r = await w.as(who).post(`/user_groups/${support}/members`, { delete: [w.uid(who)] });
    if (error !== undefined) {
      expectError(r, error);
      expect(w.members('support')).toEqual(sorted([w.uid('bob'), w.uid(who)]));
    } else {
      expectSuccess(r);
      expect(w.members('support')).toEqual([w.uid('bob')]);
    }
  };

  it('can_leave_group = administrators', async () => {
    w.setting('support', 'can_leave_group', 'role:administrators');
    await leave('moderator', 'Insufficient permission');
    await leave('admin');
    await leave('owner');
  });

  it('can_leave_group = a named group, then an anonymous group', async () => {
    const leadership = await w.create('alice', 'leadership', ['alice', 'carol']);
    w.setting('support', 'can_leave_group', leadership);
    await leave('admin', 'Insufficient permission');
    await leave('alice');
    w.setting('support', 'can_leave_group', {
      direct_members: [w.uid('moderator')],
      direct_subgroups: [leadership],
    });
    await leave('admin', 'Insufficient permission');
    await leave('carol');
    await leave('moderator');
  });

  it('can_remove_members_group, can_manage_group and can_manage_all_groups each let one leave', async () => {
    w.setting('support', 'can_leave_group', 'role:nobody');
    await leave('admin', 'Insufficient permission');
    w.setting('support', 'can_remove_members_group', 'role:administrators');
    await leave('admin');
    w.setting('support', 'can_remove_members_group', 'role:nobody');
    w.setting('support', 'can_manage_group', 'role:administrators');
    await leave('admin');
    w.setting('support', 'can_manage_group', 'role:nobody');
    w.realm('can_manage_all_groups', 'role:owners');
    await leave('owner');
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_editing_system_user_groups', () => {
  it.each(['owner', 'admin', 'bob'])('%s: system groups are not editable', async (who) => {
    const full = w.gid('role:fullmembers');
    const c = w.as(who);
    expectError(
      await c.patch(`/user_groups/${full}`, {
        name: 'Full members user group',
        description: 'Full members system user group.',
      }),
      'Insufficient permission',
    );
    expectError(
      await c.post(`/user_groups/${full}/members`, { add: [w.uid('dave')] }),
      'Insufficient permission',
    );
    expectError(
      await c.post(`/user_groups/${full}/members`, { delete: [w.uid('bob')] }),
      'Insufficient permission',
    );
    expect(w.group('role:fullmembers').name).toBe('role:fullmembers');
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_updating_subgroups_of_user_group', () => {
  let leadership: number;
  let support: number;
  let test: number;
  beforeEach(async () => {
    leadership = await w.create('owner', 'leadership', ['owner', 'admin', 'alice']);
    support = await w.create('alice', 'support', ['alice', 'bob']);
    test = await w.create('alice', 'test', ['alice']);
  });
  const sub = (who: string, id: number, params: Record<string, unknown>) =>
    w.as(who).post(`/user_groups/${id}/subgroups`, params);

  it('the creator (can_manage_group) adds and removes a subgroup; removing it again fails', async () => {
    expectSuccess(await sub('alice', support, { add: [leadership] }));
    expect(await directSubgroupsOf(support)).toEqual([leadership]);
    expectSuccess(await sub('alice', support, { delete: [leadership] }));
    expect(await directSubgroupsOf(support)).toEqual([]);
    expectError(
      await sub('alice', support, { delete: [leadership] }),
      `User group ${leadership} is not a subgroup of this group.`,
    );
  });

  it('adding a subgroup twice', async () => {
    expectSuccess(await sub('alice', support, { add: [leadership] }));
    expectError(
      await sub('alice', support, { add: [leadership] }),
      `User group ${leadership} is already a subgroup of this group.`,
    );
    expect(await directSubgroupsOf(support)).toEqual([leadership]);
  });

  it('cycles: the message names the group being edited, directly and through a chain', async () => {
    expectSuccess(await sub('alice', support, { add: [leadership] }));
    expectError(
      await sub('owner', leadership, { add: [support] }),
      `User group ${leadership} is already a subgroup of one of the passed subgroups.`,
    );
    expectSuccess(await sub('alice', test, { add: [support] }));
    expectError(
      await sub('owner', leadership, { add: [test] }),
      `User group ${leadership} is already a subgroup of one of the passed subgroups.`,
    );
    expect(await directSubgroupsOf(test)).toEqual([support]);
    expect(await directSubgroupsOf(leadership)).toEqual([]);
  });

  it('a group cannot be its own subgroup', async () => {
    expectError(
      await sub('alice', support, { add: [support] }),
      `User group ${support} is already a subgroup of one of the passed subgroups.`,
    );
  });

  it('an unknown supergroup, an unknown subgroup (nothing added; test_add_subgroup_from_wrong_realm, test_has_user_group_access_for_subgroup: a group of no realm here), nothing to do', async () => {
    expectSuccess(await sub('alice', support, { add: [leadership] }));
    expectError(await sub('alice', 123456, { add: [test] }), 'Invalid user group');
    expectError(
      await sub('alice', support, { add: [test, 123456] }),
      'Invalid user group ID: 123456',
    );
    expect(await directSubgroupsOf(support)).toEqual([leadership]);
    expectError(await sub('alice', support, { delete: [123456] }), 'Invalid user group ID: 123456');
    expectError(
      await sub('alice', support, {}),
      'Nothing to do. Specify at least one of "add" or "delete".',
    );
  });

  it('a deactivated group keeps taking subgroups (FL 391), but cannot be one', async () => {
    expectSuccess(await sub('alice', support, { add: [leadership] }));
    expectSuccess(await w.as('alice').post(`/user_groups/${support}/deactivate`));
    expectSuccess(await sub('alice', support, { delete: [leadership] }));
    expect(w.group('support').subgroups).toEqual([]);
    expectSuccess(await sub('alice', support, { add: [leadership] }));
    expect(w.group('support').subgroups).toEqual([leadership]);
    expectError(await sub('alice', test, { add: [support] }), 'User group is deactivated.');
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_permission_to_add_subgroups_to_group', () => {
  let leadership: number;
  let support: number;
  beforeEach(async () => {
    leadership = await w.create('bob', 'leadership', ['bob']);
    support = await w.create('alice', 'support', ['alice']);
    w.setting('support', 'can_manage_group', 'role:nobody');
    w.realm('can_manage_all_groups', 'role:nobody');
    w.setting('support', 'can_add_members_group', 'role:nobody');
  });
  const check = async (who: string, error?: string) => {
    const r = await w.as(who).post(`/user_groups/${support}/subgroups`, { add: [leadership] });
    if (error !== undefined) {
      expectError(r, error);
      expect(w.group('support').subgroups).toEqual([]);
    } else {
      expectSuccess(r);
      expect(w.group('support').subgroups).toEqual([leadership]);
      w.group('support').subgroups = [];
    }
  };

  it('can_add_members_group: nobody, owners, a named group', async () => {
    await check('owner', 'Insufficient permission');
    w.setting('support', 'can_add_members_group', 'role:owners');
    await check('admin', 'Insufficient permission');
    await check('owner');
    const test = await w.create('erin', 'test', ['erin']);
    w.setting('support', 'can_add_members_group', test);
    await check('owner', 'Insufficient permission');
    await check('erin');
  });

  it('can_add_members_group: an anonymous group', async () => {
    w.setting('support', 'can_add_members_group', {
      direct_members: [w.uid('bob')],
      direct_subgroups: [w.gid('role:owners')],
    });
    await check('erin', 'Insufficient permission');
    await check('admin', 'Insufficient permission');
    await check('owner');
    await check('bob');
  });

  it('can_manage_group, then can_manage_all_groups, as anonymous groups', async () => {
    const anon = { direct_members: [w.uid('bob')], direct_subgroups: [w.gid('role:owners')] };
    w.setting('support', 'can_manage_group', anon);
    await check('admin', 'Insufficient permission');
    await check('owner');
    await check('bob');
    w.setting('support', 'can_manage_group', 'role:nobody');
    w.realm('can_manage_all_groups', anon);
    await check('admin', 'Insufficient permission');
    await check('owner');
    await check('bob');
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_permission_to_remove_subgroups_from_group', () => {
  let leadership: number;
  let support: number;
  beforeEach(async () => {
    leadership = await w.create('bob', 'leadership', ['bob']);
    support = await w.create('alice', 'support', ['alice']);
    w.group('support').subgroups = [leadership];
    w.realm('can_manage_all_groups', 'role:nobody');
  });
  const check = async (who: string, error?: string) => {
    const r = await w.as(who).post(`/user_groups/${support}/subgroups`, { delete: [leadership] });
    if (error !== undefined) {
      expectError(r, error);
      expect(w.group('support').subgroups).toEqual([leadership]);
    } else {
      expectSuccess(r);
      expect(w.group('support').subgroups).toEqual([]);
      w.group('support').subgroups = [leadership];
    }
  };

  it('can_manage_group: owners, a named group, an anonymous group', async () => {
    w.setting('support', 'can_manage_group', 'role:owners');
    await check('admin', 'Insufficient permission');
    await check('owner');
    const test = await w.create('erin', 'test', ['erin']);
    w.setting('support', 'can_manage_group', test);
    await check('owner', 'Insufficient permission');
    await check('erin');
    w.setting('support', 'can_manage_group', {
      direct_members: [w.uid('bob')],
      direct_subgroups: [w.gid('role:owners')],
    });
    await check('erin', 'Insufficient permission');
    await check('admin', 'Insufficient permission');
    await check('owner');
    await check('bob');
  });

  it('can_manage_all_groups: owners, a named group, an anonymous group', async () => {
    w.setting('support', 'can_manage_group', 'role:nobody');
    w.realm('can_manage_all_groups', 'role:owners');
    await check('owner');
    await check('admin', 'Insufficient permission');
    const test = await w.create('owner', 'test', ['erin']);
    w.realm('can_manage_all_groups', test);
    await check('owner', 'Insufficient permission');
    await check('erin');
    w.realm('can_manage_all_groups', {
      direct_members: [w.uid('bob')],
      direct_subgroups: [w.gid('role:owners')],
    });
    await check('erin', 'Insufficient permission');
    await check('owner');
    await check('bob');
  });

  it('removing subgroups needs can_manage_group: can_remove_members_group is not enough (remove_subgroups_from_group_backend)', async () => {
    w.setting('support', 'can_manage_group', 'role:nobody');
    w.setting('support', 'can_remove_members_group', 'role:owners');
    await check('owner', 'Insufficient permission');
    // The same holder may remove members.
    w.group('support').members.push(w.uid('dave'));
    expectSuccess(
      await w.as('owner').post(`/user_groups/${support}/members`, { delete: [w.uid('dave')] }),
    );
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_get_is_user_group_member_status', () => {
  const status = async (groupId: number, userId: number, params: Record<string, unknown> = {}) => {
    const r = await w.as('admin').get(`/user_groups/${groupId}/members/${userId}`, params);
    return r;
  };

  it('unknown user, unknown group', async () => {
    expectError(await status(w.gid('role:administrators'), 1111), 'No such user');
    expectError(await status(123456, w.uid('admin')), 'Invalid user group');
  });

  it('direct and recursive membership, whoever asks', async () => {
    const admins = w.gid('role:administrators');
    for (const who of ['admin', 'alice']) {
      const c = w.as(who);
      const is = async (u: string, params: Record<string, unknown> = {}) =>
        (await c.get(`/user_groups/${admins}/members/${w.uid(u)}`, params)).body
          .is_user_group_member as boolean;
      expect(await is('bob')).toBe(false);
      expect(await is('admin')).toBe(true);
      // The owner is in role:owners, a subgroup of role:administrators.
      expect(await is('owner')).toBe(true);
      expect(await is('owner', { direct_member_only: true })).toBe(false);
    }
  });

  it('a deactivated user is "User is deactivated"; a bot is "No such user" (access_user_by_id)', async () => {
    const admins = w.gid('role:administrators');
    w.z.org.users.find((u) => u.id === w.uid('admin'))!.isActive = false;
    expectError(
      await w.as('alice').get(`/user_groups/${admins}/members/${w.uid('admin')}`),
      'User is deactivated',
    );
    expectError(
      await w
        .as('alice')
        .get(`/user_groups/${w.gid('role:members')}/members/${w.uid('deploy-bot')}`),
      'No such user',
    );
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_get_user_group_members', () => {
  it('unknown group; recursive and direct members, whoever asks', async () => {
    expectError(await w.as('admin').get('/user_groups/123456/members'), 'Invalid user group');
    const mods = w.gid('role:moderators');
    for (const who of ['admin', 'alice']) {
      const c = w.as(who);
      const all = await c.get(`/user_groups/${mods}/members`);
      expect(sorted(all.body.members as number[])).toEqual(
        sorted([w.uid('owner'), w.uid('admin'), w.uid('alan'), w.uid('moderator')]),
      );
      const direct = await c.get(`/user_groups/${mods}/members`, { direct_member_only: true });
      expect(direct.body.members).toEqual([w.uid('moderator')]);
    }
  });

  it('deactivated users are not members', async () => {
    const mods = w.gid('role:moderators');
    w.z.org.users.find((u) => u.id === w.uid('moderator'))!.isActive = false;
    const c = w.as('admin');
    expect(
      (await c.get(`/user_groups/${mods}/members`, { direct_member_only: true })).body.members,
    ).toEqual([]);
    expect(
      sorted(
        (await c.get(`/user_groups/${mods}/members`, { direct_member_only: false })).body
          .members as number[],
      ),
    ).toEqual(sorted([w.uid('owner'), w.uid('admin'), w.uid('alan')]));
  });

  it("a deactivated group's members and subgroups are not readable (access_user_group_to_read_membership)", async () => {
    const retired = w.gid('retired-team');
    expectError(
      await w.as('alice').get(`/user_groups/${retired}/members`),
      'User group is deactivated.',
    );
    expectError(
      await w.as('alice').get(`/user_groups/${retired}/subgroups`),
      'User group is deactivated.',
    );
    expectError(
      await w.as('alice').get(`/user_groups/${retired}/members/${w.uid('erin')}`),
      'User group is deactivated.',
    );
  });
});

describe('test_user_groups.py UserGroupAPITestCase.test_get_subgroups_of_user_group', () => {
  it('unknown group; recursive and direct subgroups, whoever asks', async () => {
    expectError(await w.as('admin').get('/user_groups/123456/subgroups'), 'Invalid user group');
    const mods = w.gid('role:moderators');
    for (const who of ['admin', 'alice']) {
      const c = w.as(who);
      const all = await c.get(`/user_groups/${mods}/subgroups`);
      expect(sorted(all.body.subgroups as number[])).toEqual(
        sorted([w.gid('role:administrators'), w.gid('role:owners')]),
      );
      const direct = await c.get(`/user_groups/${mods}/subgroups`, { direct_subgroup_only: true });
      expect(direct.body.subgroups).toEqual([w.gid('role:administrators')]);
    }
  });
});

describe('test_user_groups.py UserGroupTestCase.test_subgroups_of_role_based_system_groups', () => {
  const CHAIN = [
    'role:owners',
    'role:administrators',
    'role:moderators',
    'role:fullmembers',
    'role:members',
    'role:everyone',
    'role:internet',
  ];
  it.each(CHAIN.map((name, i) => [name, CHAIN.slice(0, i)] as const))(
    '%s: recursive strict subgroups',
    async (name, below) => {
      const r = await w.as('alice').get(`/user_groups/${w.gid(name)}/subgroups`);
      expect(sorted(r.body.subgroups as number[])).toEqual(sorted(below.map((n) => w.gid(n))));
    },
  );

  it('role:nobody has no subgroups and no members', async () => {
    const nobody = w.gid('role:nobody');
    expect((await w.as('alice').get(`/user_groups/${nobody}/subgroups`)).body.subgroups).toEqual(
      [],
    );
    expect((await w.as('alice').get(`/user_groups/${nobody}/members`)).body.members).toEqual([]);
  });
});

describe('test_user_groups.py UserGroupTestCase.test_is_user_in_group', () => {
  it('moderators: direct for the moderator, through a subgroup for the administrator, not for a member; a deactivated administrator is in none', async () => {
    const c = w.as('alice');
    const is = async (group: string, u: string, direct = false) =>
      (
        await c.get(`/user_groups/${w.gid(group)}/members/${w.uid(u)}`, {
          direct_member_only: direct,
        })
      ).body.is_user_group_member as boolean;
    expect(await is('role:moderators', 'moderator')).toBe(true);
    expect(await is('role:moderators', 'admin')).toBe(true);
    expect(await is('role:moderators', 'admin', true)).toBe(false);
    expect(await is('role:administrators', 'admin', true)).toBe(true);
    expect(await is('role:moderators', 'alice')).toBe(false);
    expect(await is('role:moderators', 'alice', true)).toBe(false);
  });
});

describe('test_user_groups.py UserGroupTestCase.test_recursive_queries_for_user_groups', () => {
  let leadership: number;
  let staff: number;
  let managers: number;
  let everyone: number;
  beforeEach(async () => {
    leadership = await w.create('owner', 'Leadership', ['owner']);
    staff = await w.create('owner', 'Staff', ['admin'], { subgroups: [leadership] });
    managers = await w.create('owner', 'Managers', ['dave', 'erin'], { subgroups: [leadership] });
    everyone = await w.create('owner', 'Everyone', ['moderator'], { subgroups: [staff, managers] });
  });
  const get = async (path: string, key: string) =>
    sorted((await w.as('alice').get(path)).body[key] as number[]);

  it('recursive strict subgroups', async () => {
    expect(await get(`/user_groups/${leadership}/subgroups`, 'subgroups')).toEqual([]);
    expect(await get(`/user_groups/${staff}/subgroups`, 'subgroups')).toEqual([leadership]);
    expect(await get(`/user_groups/${everyone}/subgroups`, 'subgroups')).toEqual(
      sorted([leadership, staff, managers]),
    );
  });

  it('recursive members, and who is a member of what', async () => {
    expect(await get(`/user_groups/${leadership}/members`, 'members')).toEqual([w.uid('owner')]);
    expect(await get(`/user_groups/${staff}/members`, 'members')).toEqual(
      sorted([w.uid('owner'), w.uid('admin')]),
    );
    expect(await get(`/user_groups/${everyone}/members`, 'members')).toEqual(
      sorted(['owner', 'admin', 'moderator', 'dave', 'erin'].map(w.uid)),
    );
    const is = async (g: number, u: string) =>
      (await w.as('alice').get(`/user_groups/${g}/members/${w.uid(u)}`)).body
        .is_user_group_member as boolean;
    for (const g of [leadership, staff, everyone, managers])
      expect(await is(g, 'owner')).toBe(true);
    expect([
      await is(staff, 'admin'),
      await is(everyone, 'admin'),
      await is(managers, 'admin'),
    ]).toEqual([true, true, false]);
    expect(await is(everyone, 'moderator')).toBe(true);
  });

  it('a deactivated user is no longer a recursive member', async () => {
    w.z.org.users.find((u) => u.id === w.uid('admin'))!.isActive = false;
    expect(await get(`/user_groups/${staff}/members`, 'members')).toEqual([w.uid('owner')]);
    expect(await get(`/user_groups/${everyone}/members`, 'members')).toEqual(
      sorted(['owner', 'moderator', 'dave', 'erin'].map(w.uid)),
    );
  });
});

describe('test_user_groups.py UserGroupTestCase.test_get_user_group_member_ids_distinct', () => {
  it('a user both direct and through a subgroup appears once', async () => {
    const a = await w.create('owner', 'A', ['carol']);
    const b = await w.create('owner', 'B', ['alice']);
    const s = await w.create('owner', 'S', ['alice'], { subgroups: [a, b] });
    const r = await w.as('alice').get(`/user_groups/${s}/members`);
    expect(sorted(r.body.members as number[])).toEqual(sorted([w.uid('alice'), w.uid('carol')]));
  });
});
