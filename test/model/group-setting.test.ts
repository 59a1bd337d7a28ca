import {
  canonicalGroupSetting,
  groupSettingsEqual,
  canonicalWireGroupSetting,
} from '../../src/model';

describe('group-setting canonicalisation (Zulip parse_group_setting_value)', () => {
  it.each([
    [{ users: [], groups: ['eng'] }, 'eng'],
    [{ users: [], groups: [] }, 'role:nobody'],
    [
      { users: ['b@x', 'a@x', 'a@x'], groups: ['z', 'y'] },
      { users: ['a@x', 'b@x'], groups: ['y', 'z'] },
    ],
    ['role:administrators', 'role:administrators'],
  ])('%j becomes %j', (input, expected) => {
    expect(canonicalGroupSetting(input)).toEqual(expected);
  });

  it('compares sets, and never a group with a set', () => {
    expect(
      groupSettingsEqual({ users: ['a', 'b'], groups: [] }, { users: ['b', 'a'], groups: [] }),
    ).toBe(true);
    expect(groupSettingsEqual('eng', { users: ['a'], groups: ['eng'] })).toBe(false);
    expect(groupSettingsEqual('eng', { users: [], groups: ['eng'] })).toBe(true);
  });

  it('canonicalises the wire form the same way', () => {
    expect(canonicalWireGroupSetting({ direct_members: [], direct_subgroups: [] }, 99)).toBe(99);
    expect(canonicalWireGroupSetting({ direct_members: [], direct_subgroups: [7] }, 99)).toBe(7);
    expect(canonicalWireGroupSetting({ direct_members: [3, 1], direct_subgroups: [] }, 99)).toEqual(
      {
        direct_members: [1, 3],
        direct_subgroups: [],
      },
    );
  });
});
