import {
  canonicalGroupSetting,
  groupSettingsEqual,
  canonicalWireGroupSetting,
  sendableOld,
} from '../../src/model';
import type { WireGroupSettingValue } from '../../src/model';

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

  it('compares values already canonical without copying them, and the others after', () => {
    const v = { users: ['a', 'b'], groups: ['g'] };
    expect(groupSettingsEqual(v, { users: ['a', 'b'], groups: ['g'] })).toBe(true);
    expect(groupSettingsEqual(v, { users: ['a', 'c'], groups: ['g'] })).toBe(false);
    expect(groupSettingsEqual(v, { users: ['b', 'a', 'a'], groups: ['g', 'g'] })).toBe(true);
    expect(
      groupSettingsEqual({ users: [], groups: ['g', 'h'] }, { users: [], groups: ['h', 'g'] }),
    ).toBe(true);
    // A canonical value is given back as a copy all the same.
    const c = canonicalGroupSetting(v);
    expect(c).toEqual(v);
    expect(c).not.toBe(v);
    expect(typeof c !== 'string' && c.users).not.toBe(v.users);
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

describe('sendableOld (parse_group_setting_value / validate_group_setting_value_change)', () => {
  it.each<[string, WireGroupSettingValue | undefined, WireGroupSettingValue | undefined]>([
    ['a group ID', 7, 7],
    ['no value', undefined, undefined],
    [
      'members and subgroups',
      { direct_members: [1], direct_subgroups: [2] },
      { direct_members: [1], direct_subgroups: [2] },
    ],
    [
      'two subgroups',
      { direct_members: [], direct_subgroups: [2, 3] },
      { direct_members: [], direct_subgroups: [2, 3] },
    ],
    // Zulip would read these as a group ID and never match the anonymous group it holds.
    ['one subgroup, no members', { direct_members: [], direct_subgroups: [2] }, undefined],
    ['empty', { direct_members: [], direct_subgroups: [] }, undefined],
  ])('%s', (_, old, expected) => {
    expect(sendableOld(old)).toEqual(expected);
  });
});
