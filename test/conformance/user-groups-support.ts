/**
 * Shared set-up for the user-group conformance cases (ported from Zulip's
 * zerver/tests/test_user_groups.py). Zulip's example users map onto the demo organization:
 * hamlet → alice, othello → bob, cordelia → carol, aaron → dave, prospero → erin (members),
 * iago → admin (administrator), desdemona → owner, shiva → moderator, polonius → guest,
 * webhook_bot → deploy-bot; a deactivated user is `former`. Where Zulip's tests change a
 * setting with an action function (`do_change_realm_permission_group_setting`, ...), the cases
 * arrange the emulator's state directly, as those tests do.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator, EmulatorOptions } from '../../src/emulator';
import type { StoredGroup, StoredGroupSetting, StoredMessage } from '../../src/emulator/state';
import { clientFor, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

export interface GroupsWorld {
  readonly z: Emulator;
  /** A client logged in as a demo user (by local part). */
  as(local: string): TestClient;
  /** A demo user's ID. */
  uid(local: string): number;
  /** A group by name (system groups by `role:` name). */
  group(name: string): StoredGroup;
  /** A group's ID by name. */
  gid(name: string): number;
  /** Sets a realm group setting, e.g. `can_manage_all_groups`, to a group name or a value. */
  realm(setting: string, value: string | StoredGroupSetting): void;
  /** Sets a group's setting directly (`do_change_user_group_permission_setting`). */
  setting(groupName: string, setting: string, value: string | StoredGroupSetting): void;
  /** Creates a group through the API as `by`, returns its ID. */
  create(
    by: string,
    name: string,
    members: string[],
    extra?: Record<string, unknown>,
  ): Promise<number>;
  /** Direct members of a group as stored, sorted. */
  members(name: string): number[];
  /** Every message so far. */
  messages(): StoredMessage[];
}

export async function groupsWorld(options: EmulatorOptions = {}): Promise<GroupsWorld> {
  const z = await startEmulator({ rateLimit: false, ...options });
  const uid = (local: string): number => {
    const u = z.org.users.find((x) => x.email.startsWith(`${local}@`));
    if (!u) throw new Error(`no user ${local}`);
    return u.id;
  };
  const group = (name: string): StoredGroup => {
    const g = z.org.groups.find((x) => x.name === name);
    if (!g) throw new Error(`no group ${name}`);
    return g;
  };
  const value = (v: string | StoredGroupSetting): StoredGroupSetting =>
    typeof v === 'string' ? group(v).id : v;
  return {
    z,
    as: (local) => clientFor(z, local),
    uid,
    group,
    gid: (name) => group(name).id,
    realm(setting, v) {
      z.org.realm.settings[setting] = value(v);
    },
    setting(groupName, setting, v) {
      group(groupName).settings[setting] = value(v);
    },
    async create(by, name, members, extra = {}) {
      const r = await clientFor(z, by).post('/user_groups/create', {
        name,
        description: '',
        members: members.map(uid),
        ...extra,
      });
      expectSuccess(r);
      return r.body.group_id as number;
    },
    members: (name) => [...group(name).members].sort((a, b) => a - b),
    messages: () => z.org.messages ?? [],
  };
}

/** IDs sorted ascending. */
export function sorted(ids: number[]): number[] {
  return [...ids].sort((a, b) => a - b);
}

/** The six group settings, in Zulip's order (`NamedUserGroup.GROUP_PERMISSION_SETTINGS`). */
export const GROUP_SETTINGS = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;
