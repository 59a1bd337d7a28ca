/**
 * The shape of group-setting parameters, as Zulip's request parser checks it before any view
 * runs (zerver/lib/typed_endpoint.py `parse_value_for_parameter`, pydantic in strict mode,
 * reporting the first error only). A new object's setting is `Json[int | UserGroupMembersData]`
 * (zerver/lib/types.py); a change is `Json[GroupSettingChangeRequest]` (zerver/lib/user_groups.py,
 * `new` required, `old` optional). Both are plain dataclasses, so keys they do not name are
 * ignored, and a value that fits neither member of the union reports the `int` member's error:
 * `name["int"] is not an integer`.
 *
 * Pydantic's strict mode (`validate_python(..., strict=True)`) holds for the dataclasses inside
 * the parameter too: a number written with a fraction or an exponent (`1.0`, `1e0`) is a float,
 * which no `int` takes, as an ID or as a member of `direct_members` / `direct_subgroups`.
 *
 * Zulip's tests check only the bare-value case of a change
 * (test_user_groups.py `do_test_update_user_group_permission_settings`: "does not have the
 * expected format", ported in user-groups.test.ts); the other cases follow from the types and
 * from what the same parser reports for `to: Json[int | list[int]]`
 * (test_scheduled_messages.py `test_schedule_message`: 'to["int"] is not an integer').
 * desdemona → owner, hamlet → alice.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient, TestResponse } from '../support/emulator-client';

let z: Emulator;
let owner: TestClient;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  owner = clientFor(z, 'owner');
});
afterEach(() => z.close());

const uid = (local: string): number => z.org.users.find((u) => u.email.startsWith(`${local}@`))!.id;
const gid = (name: string): number => z.org.groups.find((g) => g.name === name)!.id;

/** The endpoints creating an object with a group setting, and that setting's name. */
const CREATE: Array<[string, string, (setting: string, value: unknown) => Promise<TestResponse>]> =
  [
    [
      'POST /user_groups/create (create_user_group)',
      'can_manage_group',
      (setting, value) =>
        owner.post('/user_groups/create', {
          name: 'support',
          description: '',
          members: [uid('alice')],
          [setting]: value,
        }),
    ],
    [
      'POST /channels/create (create_channel)',
      'can_send_message_group',
      (setting, value) =>
        owner.post('/channels/create', {
          name: 'new-channel',
          subscribers: [uid('owner')],
          [setting]: value,
        }),
    ],
    [
      'POST /users/me/subscriptions (add_subscriptions_backend)',
      'can_send_message_group',
      (setting, value) =>
        owner.post('/users/me/subscriptions', {
          subscriptions: [{ name: 'new-channel' }],
          [setting]: value,
        }),
    ],
  ];

describe.each(CREATE)('%s: Json[int | UserGroupMembersData]', (_endpoint, setting, send) => {
  it.each([
    ['a dict without direct_subgroups', () => ({ direct_members: [uid('alice')] })],
    ['a dict without direct_members', () => ({ direct_subgroups: [] })],
    ['a member that is not an integer', () => ({ direct_members: ['x'], direct_subgroups: [] })],
    ['a boolean', () => true],
    ['a list of IDs', () => [uid('alice')]],
    ['an ID as a JSON string', () => `"${gid('role:members')}"`],
    ['null', () => null],
    // strict=True reaches into the union's dataclass: a number written with a fraction or an
    // exponent is a float, no int, even when whole.
    ['an ID written 1.0', () => `${gid('role:members')}.0`],
    ['an ID written 1e0', () => `${gid('role:members')}e0`],
    [
      'a member written 1.0',
      () => `{"direct_members": [${uid('alice')}.0], "direct_subgroups": []}`,
    ],
    [
      'a subgroup written 1e0',
      () => `{"direct_members": [], "direct_subgroups": [${gid('role:members')}e0]}`,
    ],
  ])('%s: \'<setting>["int"] is not an integer\'', async (_what, value) => {
    expectError(await send(setting, value()), `${setting}["int"] is not an integer`);
  });

  it('keys a UserGroupMembersData does not name are ignored', async () => {
    expectSuccess(
      await send(setting, {
        direct_members: [uid('alice')],
        direct_subgroups: [gid('role:administrators')],
        note: 'ignored',
      }),
    );
  });
});

/** The endpoints changing a group setting, the setting's name and a value it accepts. */
const UPDATE: Array<
  [string, string, () => number, (setting: string, value: unknown) => Promise<TestResponse>]
> = [
  [
    'PATCH /user_groups/{id} (edit_user_group)',
    'can_manage_group',
    () => gid('role:administrators'),
    async (setting, value) => {
      const created = await owner.post('/user_groups/create', {
        name: 'support',
        description: '',
        members: [uid('alice')],
      });
      expectSuccess(created);
      return owner.patch(`/user_groups/${created.body.group_id as number}`, { [setting]: value });
    },
  ],
  [
    'PATCH /streams/{id} (update_stream_backend)',
    'can_send_message_group',
    () => gid('role:members'),
    (setting, value) =>
      owner.patch(`/streams/${z.org.channels.find((c) => c.name === 'general')!.id}`, {
        [setting]: value,
      }),
  ],
  [
    'PATCH /realm (update_realm)',
    'can_create_groups',
    () => gid('role:members'),
    (setting, value) => owner.patch('/realm', { [setting]: value }),
  ],
];

describe.each(UPDATE)('%s: Json[GroupSettingChangeRequest]', (_endpoint, setting, ok, send) => {
  it.each([
    ['no new', () => ({ old: ok() }), '["new"] field is missing: Field required'],
    [
      'a misspelt new (unknown keys are ignored)',
      () => ({ neww: ok() }),
      '["new"] field is missing: Field required',
    ],
    [
      'no new and a bad old: new is reported first',
      () => ({ old: 'x' }),
      '["new"] field is missing: Field required',
    ],
    [
      'new a dict without direct_subgroups',
      () => ({ new: { direct_members: [uid('alice')] } }),
      '["new"]["int"] is not an integer',
    ],
    ['new a string', () => ({ new: 'x' }), '["new"]["int"] is not an integer'],
    ['new null', () => ({ new: null }), '["new"]["int"] is not an integer'],
    [
      'new and old both bad: new is reported first',
      () => ({ new: 'x', old: 'y' }),
      '["new"]["int"] is not an integer',
    ],
    ['old a string', () => ({ new: ok(), old: 'x' }), '["old"]["int"] is not an integer'],
    [
      'old a dict without direct_members',
      () => ({ new: ok(), old: { direct_subgroups: [] } }),
      '["old"]["int"] is not an integer',
    ],
    // strict=True reaches into the dataclasses: a float is no int, even when whole.
    ['new an ID written 1.0', () => `{"new": ${ok()}.0}`, '["new"]["int"] is not an integer'],
    [
      'new a member written 1e0',
      () => `{"new": {"direct_members": [${uid('alice')}e0], "direct_subgroups": []}}`,
      '["new"]["int"] is not an integer',
    ],
    [
      'old an ID written 1.0',
      () => `{"new": ${ok()}, "old": ${ok()}.0}`,
      '["old"]["int"] is not an integer',
    ],
    [
      'old a subgroup written 1.0',
      () => `{"new": ${ok()}, "old": {"direct_members": [], "direct_subgroups": [${ok()}.0]}}`,
      '["old"]["int"] is not an integer',
    ],
  ])('%s', async (_what, value, msg) => {
    expectError(await send(setting, value()), `${setting}${msg}`);
  });

  it('old null counts as not sent; unknown keys are ignored', async () => {
    expectSuccess(await send(setting, { new: ok(), old: null, note: 'ignored' }));
  });
});
