/**
 * `UserGroup.setPermissions`: added so that imported groups which manage themselves (or refer to
 * each other) can be declared; props cannot name a construct before it exists.
 */
import { Permission, SystemGroup, Testing, UserGroup } from '../../src';

test('a group can hold its own permission, and groups can refer to each other', () => {
  const org = Testing.organization();
  const a = new UserGroup(org, 'a', { name: 'a', members: ['ann@example.com'] });
  const b = new UserGroup(org, 'b', { name: 'b', canManageGroup: a });
  a.setPermissions({ canManageGroup: a, canAddMembersGroup: Permission.anyOf({ groups: [a, b] }) });
  const state = Testing.synth(org);
  expect(state.userGroups.find((g) => g.name === 'a')?.permissions).toEqual({
    canManageGroup: 'a',
    canAddMembersGroup: { users: [], groups: ['a', 'b'] },
  });
  expect(state.userGroups.find((g) => g.name === 'b')?.permissions).toEqual({
    canManageGroup: 'a',
  });
});

test('a setting given later replaces the one in props; bad values are reported with the path', () => {
  const org = Testing.organization();
  const a = new UserGroup(org, 'a', { name: 'a', canMentionGroup: SystemGroup.MEMBERS });
  a.setPermissions({ canMentionGroup: SystemGroup.MODERATORS });
  expect(Testing.synth(org).userGroups[0]?.permissions).toEqual({
    canMentionGroup: 'role:moderators',
  });
  a.setPermissions({ canJoinGroup: SystemGroup.EVERYONE });
  (a as unknown as { setPermissions: (p: object) => void }).setPermissions({
    canManageGroup: 'a',
    canFlyGroup: a,
  });
  const problems = Testing.validate(org).map((p) => `${p.path}: ${p.message}`);
  expect(problems).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^test\/a: setPermissions got unknown setting 'canFlyGroup'/),
      expect.stringMatching(/^test\/a: setPermissions canManageGroup: expected a SystemGroup/),
      expect.stringMatching(/^test\/a: canJoinGroup cannot be role:everyone/),
    ]),
  );
});
