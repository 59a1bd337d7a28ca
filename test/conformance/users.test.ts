/**
 * Conformance: users, ported from zerver/tests/test_users.py (Zulip at feature level 442) for
 * the endpoints the embedded server serves: `GET /users`, `GET /users/{id}`,
 * `GET /users/{email}`, `GET /users/me`, `PATCH /users/{id}` and `/users/{email}`,
 * `DELETE /users/{id}` and `POST /users/{id}/reactivate`.
 * Zulip's users map to the seed's: desdemona → owner, iago → admin (alan is a second
 * administrator), shiva → moderator, hamlet → alice, othello → bob, cordelia → carol,
 * polonius → guest, default_bot → deploy-bot (owned by the owner).
 */
import { Organization, Testing, User } from 'zulip-cdk';
import { startEmulator } from '../../src/emulator';
import { setRealmProperty } from '../../src/emulator/realm-settings';
import { NAME_INVALID_CHARS } from '../../src/model/rules';
import type { Emulator } from '../../src/emulator';
import { validateResponse } from '../support/openapi-validate';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let desdemona: TestClient;
let iago: TestClient;

// Parse zulip.yaml before any emulator socket exists: a first validation inside a test blocks
// the event loop for seconds under load, past the server's 5 s keep-alive, and the next
// request on the pooled socket can then fail with ECONNRESET.
beforeAll(() => {
  validateResponse('GET', '/users/me', 200, { result: 'success', msg: '' });
});
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  desdemona = clientFor(z, 'owner');
  iago = clientFor(z, 'admin');
});
afterEach(() => z.close());

const OWNER = 100;
const ADMIN = 200;
const MODERATOR = 300;
const MEMBER = 400;
const GUEST = 600;

const email = (local: string): string => `${local}@zulip-cdk.example`;
const id = (local: string): number => z.org.users.find((u) => u.email === email(local))!.id;

interface ApiUser {
  user_id: number;
  email: string;
  full_name: string;
  role: number;
  is_active: boolean;
  is_owner: boolean;
  is_admin: boolean;
  is_guest: boolean;
  is_bot: boolean;
  avatar_url: string | null;
  profile_data?: unknown;
}

async function user(local: string, c: TestClient = iago): Promise<ApiUser> {
  const res = await c.get(`/users/${id(local)}`);
  expectSuccess(res);
  return res.body.user as ApiUser;
}

async function members(
  c: TestClient = iago,
  params: Record<string, unknown> = {},
): Promise<ApiUser[]> {
  const res = await c.get('/users', params);
  expectSuccess(res);
  return res.body.members as ApiUser[];
}

describe('test_users.py PermissionTest', () => {
  it('test_updating_non_existent_user: "No such user"', async () => {
    expectError(await iago.patch('/users/1000', {}), 'No such user');
  });

  it('test_owner_api: owners grant and remove the owner role', async () => {
    const list = await members();
    expect(list.find((u) => u.user_id === id('owner'))?.is_owner).toBe(true);
    expect(list.find((u) => u.user_id === id('bob'))?.is_owner).toBe(false);
    expectSuccess(await desdemona.patch(`/users/${id('bob')}`, { role: OWNER }));
    expect(await user('bob')).toMatchObject({ role: OWNER, is_owner: true });
    expectSuccess(await desdemona.patch(`/users/${id('bob')}`, { role: MEMBER }));
    expect(await user('bob')).toMatchObject({ role: MEMBER, is_owner: false });
  });

  it('test_owner_api: the only owner keeps the owner role', async () => {
    expectSuccess(await desdemona.patch(`/users/${id('admin')}`, { role: OWNER }));
    // iago, now an owner, demotes desdemona; then nobody can demote iago
    expectSuccess(await iago.patch(`/users/${id('owner')}`, { role: MEMBER }));
    expect((await user('owner')).role).toBe(MEMBER);
    expectError(
      await iago.patch(`/users/${id('admin')}`, { role: MEMBER }),
      'The owner permission cannot be removed from the only organization owner.',
    );
    expect((await user('admin')).role).toBe(OWNER);
  });

  it("test_owner_api: an administrator cannot change an owner's role", async () => {
    expectError(
      await iago.patch(`/users/${id('owner')}`, { role: MEMBER }),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await user('owner')).role).toBe(OWNER);
  });

  it('test_admin_api: administrators give and take the administrator role', async () => {
    const list = await members(desdemona);
    expect(list.find((u) => u.user_id === id('owner'))?.is_admin).toBe(true);
    expect(list.find((u) => u.user_id === id('bob'))?.is_admin).toBe(false);
    expectSuccess(await desdemona.patch(`/users/${id('bob')}`, { role: ADMIN }));
    expect(await user('bob')).toMatchObject({ role: ADMIN, is_admin: true });
    expectSuccess(await desdemona.patch(`/users/${id('bob')}`, { role: MEMBER }));
    expect(await user('bob')).toMatchObject({ role: MEMBER, is_admin: false });
  });

  it.each(['bob', 'moderator', 'guest'])(
    'test_admin_api: only administrators patch other users ("Insufficient permission" for %s)',
    async (who) => {
      expectError(
        await clientFor(z, who).patch(`/users/${id('alice')}`, { role: GUEST }),
        'Insufficient permission',
      );
      expect((await user('alice')).role).toBe(MEMBER);
    },
  );

  it('test_user_cannot_promote_to_admin: not even oneself', async () => {
    expectError(
      await clientFor(z, 'alice').patch(`/users/${id('alice')}`, { role: ADMIN }),
      'Insufficient permission',
    );
    expect((await user('alice')).role).toBe(MEMBER);
  });

  it('test_admin_user_can_change_full_name', async () => {
    expectSuccess(await iago.patch(`/users/${id('alice')}`, { full_name: 'new name' }));
    expect((await user('alice')).full_name).toBe('new name');
  });

  it('test_non_admin_cannot_change_full_name', async () => {
    expectError(
      await clientFor(z, 'alice').patch(`/users/${id('bob')}`, { full_name: 'new name' }),
      'Insufficient permission',
    );
    expect((await user('bob')).full_name).toBe('Bob Member');
  });

  it.each([
    ['a'.repeat(101), 'Name too long!', 'test_admin_cannot_set_long_full_name'],
    ['iago|72', 'Invalid format!', 'test_not_allowed_format'],
    ['Hello- 12iago|72', 'Invalid format!', 'test_not_allowed_format_complex'],
    ['iago|\u0667\u0662', 'Invalid format!', "check_full_name: Python's \\d is any digit"],
    ['iago|72\n', 'Invalid format!', 'check_full_name: $ before a final newline'],
    [
      'Opheli*',
      'Invalid characters in name!',
      'test_admin_cannot_set_full_name_with_invalid_characters',
    ],
  ])('%#: full name %j is refused: %s (%s)', async (fullName, msg) => {
    expectError(await iago.patch(`/users/${id('alice')}`, { full_name: fullName }), msg);
    expect((await user('alice')).full_name).toBe('Alice Member');
  });

  // One rule (src/model/rules.ts `checkFullName`) for synth and for the embedded server: a
  // name synth accepts is one Zulip accepts, and the other way round.
  it.each([
    ...NAME_INVALID_CHARS.map(
      (c) =>
        [
          `Opheli${c}`,
          'Invalid characters in name!',
          `test_admin_cannot_set_full_name_with_invalid_characters, with ${JSON.stringify(c)}`,
        ] as const,
    ),
    ['iago|72', 'Invalid format!', 'test_not_allowed_format'],
    ['Hello- 12iago|72', 'Invalid format!', 'test_not_allowed_format_complex'],
    ['Hello- 12iago|72k', undefined, 'test_allowed_format_complex'],
  ] as const)('%#: synth and the server agree on full name %j (%s; %s)', async (fullName, msg) => {
    const org = new Organization(Testing.app(), 'acme');
    new User(org, 'alice', { email: email('alice'), fullName });
    const problems = Testing.validate(org);
    const res = await iago.patch(`/users/${id('alice')}`, { full_name: fullName });
    if (msg === undefined) {
      expect(problems).toEqual([]);
      expectSuccess(res);
    } else {
      expect(problems).toEqual([
        { path: 'acme/alice', message: expect.stringContaining(`Zulip refuses it ("${msg}")`) },
      ]);
      expectError(res, msg);
    }
  });

  it('test_allowed_format_complex: "Hello- 12iago|72k" is a fine name', async () => {
    expectSuccess(await iago.patch(`/users/${id('alice')}`, { full_name: 'Hello- 12iago|72k' }));
    expect((await user('alice')).full_name).toBe('Hello- 12iago|72k');
  });

  it('test_admin_cannot_set_empty_full_name: an empty name is a no-op', async () => {
    expectSuccess(await iago.patch(`/users/${id('alice')}`, { full_name: '' }));
    expectSuccess(await iago.patch(`/users/${id('alice')}`, { full_name: '   ' }));
    expect((await user('alice')).full_name).toBe('Alice Member');
  });

  it('test_require_unique_names: NFKC-normalized, case-folded, deactivated users included', async () => {
    // do_set_realm_property, as the Zulip test does.
    setRealmProperty(z.org, 'require_unique_names', true);
    // Zulip's names, with iago's name (Ada Admin) for "iago".
    for (const fullName of ['aDA aDMIN', '𝕒𝕕𝕒 𝕒𝕕𝕞𝕚𝕟', 'ａｄａ ａｄｍｉｎ', '𝒶𝒹𝒶 𝒶𝒹𝓂𝒾𝓃'])
      expectError(
        await desdemona.patch(`/users/${id('alice')}`, { full_name: fullName }),
        'Unique names required in this organization.',
      );
    // check for uniqueness including deactivated users
    expectSuccess(await desdemona.delete(`/users/${id('admin')}`));
    expectError(
      await desdemona.patch(`/users/${id('alice')}`, { full_name: 'Ada Admin' }),
      'Unique names required in this organization.',
    );
    expect((await user('alice', desdemona)).full_name).toBe('Alice Member');
    // Its own name, and a name nobody has, are fine.
    expectSuccess(await desdemona.patch(`/users/${id('alice')}`, { full_name: 'ALICE member' }));
    setRealmProperty(z.org, 'require_unique_names', false);
    expectSuccess(await desdemona.patch(`/users/${id('bob')}`, { full_name: 'Ada Admin' }));
  });

  it('check_full_name: the name is stripped', async () => {
    expectSuccess(await iago.patch(`/users/${id('alice')}`, { full_name: '  Alice B  ' }));
    expect((await user('alice')).full_name).toBe('Alice B');
  });

  it('test_invalid_role', async () => {
    expectError(
      await iago.patch(`/users/${id('alice')}`, { role: 1000 }),
      'Invalid role: Value error, Not in the list of possible values',
    );
    expect((await user('alice')).role).toBe(MEMBER);
  });

  it('update_user_by_id_api: role is a JSON integer', async () => {
    expectError(
      await iago.patch(`/users/${id('alice')}`, { role: 'admin' }),
      'role is not valid JSON',
    );
    expectError(
      await iago.patch(`/users/${id('alice')}`, { role: '"200"' }),
      'role is not an integer',
    );
  });

  it('update_user_backend: new_email needs can_change_user_emails', async () => {
    expectError(
      await desdemona.patch(`/users/${id('alice')}`, { new_email: 'new@zulip-cdk.example' }),
      'User not authorized to change user emails',
    );
  });

  it('update_user_by_id_api: atomic, a refused role change keeps the name too', async () => {
    expectError(
      await iago.patch(`/users/${id('owner')}`, { full_name: 'Renamed', role: MEMBER }),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await user('owner')).full_name).toBe('Olivia Owner');
  });

  it('test_access_user_by_id: a deactivated user can still be patched by an administrator', async () => {
    expectSuccess(await iago.patch(`/users/${id('former')}`, { full_name: 'Frank F' }));
    expect((await user('former')).full_name).toBe('Frank F');
  });

  it("UserProfile.can_admin_user: a bot's owner may rename it, but not change its role", async () => {
    const bot = z.org.users.find((u) => u.email === email('deploy-bot'))!;
    bot.botOwnerId = id('alice');
    const hamlet = clientFor(z, 'alice');
    expectSuccess(await hamlet.patch(`/users/${bot.id}`, { full_name: 'Deployer' }));
    expectError(
      await hamlet.patch(`/users/${bot.id}`, { role: MODERATOR }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(await user('deploy-bot')).toMatchObject({ full_name: 'Deployer', role: MEMBER });
  });

  // check_user_role_change: desdemona changes the role; the user's flags and system group follow.
  const FLAGS: Record<number, [boolean, boolean, boolean, string]> = {
    [OWNER]: [true, true, false, 'role:owners'],
    [ADMIN]: [false, true, false, 'role:administrators'],
    [MODERATOR]: [false, false, false, 'role:moderators'],
    [MEMBER]: [false, false, false, 'role:members'],
    [GUEST]: [false, false, true, 'role:everyone'],
  };
  it.each([
    ['test_change_regular_member_to_guest', 'alice', MEMBER, GUEST],
    ['test_change_guest_to_regular_member', 'guest', GUEST, MEMBER],
    ['test_change_admin_to_guest', 'admin', ADMIN, GUEST],
    ['test_change_guest_to_admin', 'guest', GUEST, ADMIN],
    ['test_change_owner_to_guest', 'admin', OWNER, GUEST],
    ['test_change_guest_to_owner', 'guest', GUEST, OWNER],
    ['test_change_admin_to_owner', 'admin', ADMIN, OWNER],
    ['test_change_owner_to_admin', 'admin', OWNER, ADMIN],
    ['test_change_owner_to_moderator', 'admin', OWNER, MODERATOR],
    ['test_change_moderator_to_owner', 'moderator', MODERATOR, OWNER],
    ['test_change_admin_to_moderator', 'admin', ADMIN, MODERATOR],
    ['test_change_moderator_to_admin', 'moderator', MODERATOR, ADMIN],
    ['test_change_guest_to_moderator', 'guest', GUEST, MODERATOR],
    ['test_change_moderator_to_guest', 'moderator', MODERATOR, GUEST],
  ])('%s', async (_name, local, from, to) => {
    if (from === OWNER)
      expectSuccess(await desdemona.patch(`/users/${id(local)}`, { role: OWNER }));
    expect((await user(local)).role).toBe(from);
    expectSuccess(await desdemona.patch(`/users/${id(local)}`, { role: to }));
    const [isOwner, isAdmin, isGuest, group] = FLAGS[to]!;
    expect(await user(local)).toMatchObject({
      role: to,
      is_owner: isOwner,
      is_admin: isAdmin,
      is_guest: isGuest,
    });
    const groups = (await desdemona.get('/user_groups')).body.user_groups as Array<{
      name: string;
      members: number[];
    }>;
    expect(groups.find((g) => g.name === group)?.members).toContain(id(local));
    expect(groups.find((g) => g.name === FLAGS[from]![3])?.members ?? []).not.toContain(id(local));
  });
});

describe('test_users.py UpdateUserByEmailEndpointTest', () => {
  it('test_update_user_by_email: PATCH /users/{email}', async () => {
    expectSuccess(await iago.patch(`/users/${email('alice')}`, { full_name: 'Newname' }));
    expect((await user('alice')).full_name).toBe('Newname');
  });

  it('update_user_by_email_api: an unknown email is "No such user"', async () => {
    expectError(
      await iago.patch('/users/nobody@zulip-cdk.example', { full_name: 'X' }),
      'No such user',
    );
  });

  it('update_user_by_email_api: members get "Insufficient permission"', async () => {
    expectError(
      await clientFor(z, 'bob').patch(`/users/${email('alice')}`, { full_name: 'X' }),
      'Insufficient permission',
    );
  });
});

describe('test_users.py ActivateTest', () => {
  it('test_api: deactivate, then reactivate', async () => {
    expectSuccess(await iago.delete(`/users/${id('alice')}`));
    expect((await user('alice')).is_active).toBe(false);
    expectSuccess(await iago.post(`/users/${id('alice')}/reactivate`));
    expect((await user('alice')).is_active).toBe(true);
  });

  it('test_stream_subscriber_count_upon_deactivate / _upon_reactivate', async () => {
    const counts = async (): Promise<Record<string, number>> => {
      const res = await iago.get('/streams', { include_all: true });
      const out: Record<string, number> = {};
      for (const s of res.body.streams as Array<{ name: string; subscriber_count: number }>)
        out[s.name] = s.subscriber_count;
      return out;
    };
    const before = await counts();
    expectSuccess(await iago.delete(`/users/${id('alice')}`));
    const after = await counts();
    // alice is subscribed to general and engineering; design is not hers
    expect(after.general).toBe(before.general! - 1);
    expect(after.engineering).toBe(before.engineering! - 1);
    expect(after.design).toBe(before.design);
    expectSuccess(await iago.post(`/users/${id('alice')}/reactivate`));
    expect(await counts()).toEqual(before);
  });

  it('test_api_with_nonexistent_user: an administrator cannot deactivate an owner', async () => {
    expectError(
      await iago.delete(`/users/${id('owner')}`),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await user('owner')).is_active).toBe(true);
  });

  it.each([
    ['1000', 'a user that does not exist'],
    ['bot', 'a bot (allow_bots is false)'],
  ])('test_api_with_nonexistent_user: "No such user" for %s (%s)', async (which) => {
    const target = which === 'bot' ? id('deploy-bot') : 1000;
    expectError(await desdemona.delete(`/users/${target}`), 'No such user');
  });

  it('test_api_with_nonexistent_user: the only owner cannot be deactivated', async () => {
    expectSuccess(await desdemona.patch(`/users/${id('admin')}`, { role: OWNER }));
    expectSuccess(await iago.delete(`/users/${id('owner')}`));
    expectError(
      await iago.delete(`/users/${id('admin')}`),
      'Cannot deactivate the only organization owner',
    );
    expect((await user('admin')).is_active).toBe(true);
  });

  it('test_api_with_nonexistent_user: reactivating a user that does not exist', async () => {
    expectError(await iago.post('/users/1000/reactivate'), 'No such user');
  });

  it('test_api_with_insufficient_permissions: members neither deactivate nor reactivate', async () => {
    const othello = clientFor(z, 'bob');
    expectError(await othello.delete(`/users/${id('alice')}`), 'Insufficient permission');
    expectError(await othello.post(`/users/${id('former')}/reactivate`), 'Insufficient permission');
    expect((await user('alice')).is_active).toBe(true);
    expect((await user('former')).is_active).toBe(false);
  });

  // test_email_sent sends a deactivation_notification_comment; the view types it
  // `Annotated[str, StringConstraints(max_length=2000)]` (deactivate_user_backend), a limit in
  // characters (code points) checked while the parameters are parsed, before the user is looked up.
  it('test_email_sent: deactivation_notification_comment is at most 2000 characters', async () => {
    const tooLong = 'deactivation_notification_comment is too long (limit: 2000 characters)';
    expectError(
      await iago.delete(`/users/${id('alice')}`, {
        deactivation_notification_comment: 'x'.repeat(2001),
      }),
      tooLong,
    );
    expectError(
      await iago.delete('/users/1000', { deactivation_notification_comment: 'x'.repeat(2001) }),
      tooLong,
    );
    expect((await user('alice')).is_active).toBe(true);
    expectSuccess(
      await iago.delete(`/users/${id('alice')}`, {
        deactivation_notification_comment: '\u{1F600}'.repeat(2000),
      }),
    );
    expect((await user('alice')).is_active).toBe(false);
  });

  it('test_access_user_by_id: deactivating a deactivated user is "User is deactivated"', async () => {
    expectError(await iago.delete(`/users/${id('former')}`), 'User is deactivated');
  });

  it("do_deactivate_user: the user's bots are deactivated first", async () => {
    expectSuccess(await desdemona.patch(`/users/${id('admin')}`, { role: OWNER }));
    expectSuccess(await iago.delete(`/users/${id('owner')}`));
    expect((await user('deploy-bot')).is_active).toBe(false);
  });

  it('reactivate_user_backend: reactivating a bot needs can_create_bots_group (check_can_create_bot)', async () => {
    const bot = z.org.users.find((u) => u.isBot);
    if (bot) bot.isActive = false;
    const owners = z.org.groups.find((g) => g.name === 'role:owners')?.id ?? -1;
    z.org.realm.settings.can_create_bots_group = owners;
    z.org.realm.settings.can_create_write_only_bots_group = owners;
    expectError(
      await iago.post(`/users/${id('deploy-bot')}/reactivate`),
      'Insufficient permission',
    );
    expectSuccess(await desdemona.post(`/users/${id('deploy-bot')}/reactivate`));
  });

  it('reactivate_user_backend: a bot whose name an active user has is not reactivated (check_bot_name_available, is_activation)', async () => {
    const bot = z.org.users.find((u) => u.email === email('deploy-bot'))!;
    bot.isActive = false;
    expectSuccess(await iago.patch(`/users/${id('alice')}`, { full_name: bot.fullName }));
    expectError(
      await iago.post(`/users/${bot.id}/reactivate`),
      `There is already an active bot named "${bot.fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
    );
    expect((await user('deploy-bot')).is_active).toBe(false);
    expectSuccess(await iago.patch(`/users/${id('alice')}`, { full_name: 'Alice Member' }));
    expectSuccess(await iago.post(`/users/${bot.id}/reactivate`));
  });
});

describe('test_users.py GetProfileTest', () => {
  it.each([
    ['alice', 'Alice Member', MEMBER, false, false, false],
    ['admin', 'Ada Admin', ADMIN, true, false, false],
    ['owner', 'Olivia Owner', OWNER, true, true, false],
    ['moderator', 'Mona Moderator', MODERATOR, false, false, false],
    ['guest', 'Gus Guest', GUEST, false, false, true],
  ])(
    'test_get_user_profile: /users/me of %s',
    async (local, fullName, role, isAdmin, isOwner, isGuest) => {
      const res = await clientFor(z, local).get('/users/me');
      expectSuccess(res);
      expect(res.body).toMatchObject({
        email: email(local),
        delivery_email: email(local),
        full_name: fullName,
        user_id: id(local),
        is_bot: false,
        is_admin: isAdmin,
        is_owner: isOwner,
        is_guest: isGuest,
        role,
      });
    },
  );

  it('test_get_user_profile: GET /users/{id}, with and without profile data', async () => {
    const hamlet = clientFor(z, 'alice');
    const res = await hamlet.get(`/users/${id('bob')}`);
    expectSuccess(res);
    expect(res.body.user).toMatchObject({
      email: email('bob'),
      full_name: 'Bob Member',
      user_id: id('bob'),
      is_bot: false,
      is_admin: false,
      is_owner: false,
    });
    expect(res.body.user).not.toHaveProperty('profile_data');
    const withData = await hamlet.get(`/users/${id('bob')}`, {
      include_custom_profile_fields: true,
    });
    expect(withData.body.user).toHaveProperty('profile_data');
  });

  it('test_get_user_profile: an unknown ID is "No such user"; bots are found', async () => {
    const hamlet = clientFor(z, 'alice');
    expectError(await hamlet.get('/users/99999'), 'No such user');
    const bot = await hamlet.get(`/users/${id('deploy-bot')}`);
    expect(bot.body.user).toMatchObject({ email: email('deploy-bot'), is_bot: true });
  });

  it('get_member_backend: a deactivated user is found (allow_deactivated)', async () => {
    expect(await user('former', clientFor(z, 'alice'))).toMatchObject({ is_active: false });
  });

  it('test_get_user_by_email: by email, with and without profile data', async () => {
    const hamlet = clientFor(z, 'alice');
    const res = await hamlet.get(`/users/${email('alice')}`);
    expectSuccess(res);
    expect(res.body.user).toMatchObject({
      email: email('alice'),
      full_name: 'Alice Member',
      is_bot: false,
    });
    expect(res.body.user).not.toHaveProperty('profile_data');
    const withData = await hamlet.get(`/users/${email('alice')}`, {
      include_custom_profile_fields: true,
    });
    expect(withData.body.user).toHaveProperty('profile_data');
  });

  it('test_cross_realm_dicts: date_joined is to the minute (format_user_row: isoformat(timespec="minutes"))', async () => {
    const joined = z.org.users.find((u) => u.email === email('alice'))!.dateJoined;
    const res = await desdemona.get(`/users/${id('alice')}`);
    expectSuccess(res);
    expect(res.body.user.date_joined).toBe(`${joined.slice(0, 16)}+00:00`);
    expect(res.body.user.date_joined).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d\+00:00$/);
  });

  it('test_get_user_by_email: "invalid" is "No such user"; bots are found', async () => {
    const hamlet = clientFor(z, 'alice');
    expectError(await hamlet.get('/users/invalid'), 'No such user');
    const bot = await hamlet.get(`/users/${email('deploy-bot')}`);
    expect(bot.body.user).toMatchObject({ email: email('deploy-bot'), is_bot: true });
  });

  it('access_user_by_email: case-insensitive', async () => {
    const res = await clientFor(z, 'alice').get(`/users/${email('BOB')}`);
    expectSuccess(res);
    expect(res.body.user.user_id).toBe(id('bob'));
  });

  it('test_get_all_profiles_avatar_urls / test_client_gravatar_option', async () => {
    const cordelia = clientFor(z, 'carol');
    const find = (list: ApiUser[]): ApiUser => list.find((u) => u.user_id === id('alice'))!;
    expect(find(await members(cordelia, { client_gravatar: true })).avatar_url).toBeNull();
    expect(find(await members(cordelia)).avatar_url).toBeNull(); // default true
    expect(find(await members(cordelia, { client_gravatar: false })).avatar_url).toContain(
      'gravatar.com',
    );
  });

  it('test_get_user_dicts_with_ids: an administrator gets exactly the users asked for', async () => {
    const ids = [id('alice'), id('admin'), id('deploy-bot'), id('carol'), id('owner')];
    const got = await members(desdemona, { user_ids: ids });
    expect(got.map((u) => u.user_id).sort()).toEqual([...ids].sort());
  });

  // test_custom_profile_data.py ListCustomProfileFieldTest (zerver/lib/users.py format_user_row).
  it('test_get_custom_profile_fields_from_api: a human has profile_data, a bot bot_type and bot_owner_id instead', async () => {
    const HUMAN_KEYS = [
      'avatar_url',
      'avatar_version',
      'date_joined',
      'delivery_email',
      'email',
      'full_name',
      'is_active',
      'is_admin',
      'is_bot',
      'is_guest',
      'is_imported_stub',
      'is_owner',
      'role',
      'timezone',
      'user_id',
    ];
    const all = await members(iago, {
      client_gravatar: false,
      include_custom_profile_fields: true,
    });
    const human = all.find((u) => u.user_id === id('admin'))!;
    const bot = all.find((u) => u.user_id === id('deploy-bot'))!;
    expect(Object.keys(human).sort()).toEqual([...HUMAN_KEYS, 'profile_data'].sort());
    expect(Object.keys(bot).sort()).toEqual([...HUMAN_KEYS, 'bot_owner_id', 'bot_type'].sort());
    expect(bot).toMatchObject({ bot_type: 1, bot_owner_id: id('owner'), is_imported_stub: false });
    for (const u of await members(iago, { client_gravatar: false }))
      expect(u).not.toHaveProperty('profile_data');
  });

  it('test_get_custom_profile_fields_from_api_for_single_user: /users/me has profile_data', async () => {
    const res = await iago.get('/users/me');
    expectSuccess(res);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'result',
        'msg',
        'max_message_id',
        'user_id',
        'avatar_url',
        'full_name',
        'email',
        'is_bot',
        'is_admin',
        'is_owner',
        'role',
        'profile_data',
        'avatar_version',
        'timezone',
        'delivery_email',
        'is_active',
        'is_guest',
        'date_joined',
        'is_imported_stub',
      ].sort(),
    );
  });

  it('get_profile_backend: a bot asking for /users/me gets its bot_type and bot_owner_id (format_user_row), no profile_data', async () => {
    const res = await clientFor(z, 'deploy-bot').get('/users/me');
    expectSuccess(res);
    expect(res.body).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: id('owner') });
    expect(res.body).not.toHaveProperty('profile_data');
  });

  it('format_user_row: is_imported_stub only from feature level 433 (api_docs/changelog.md)', async () => {
    const old = await startEmulator({ featureLevel: 432, rateLimit: false });
    try {
      const res = await clientFor(old, 'admin').get('/users/me');
      expectSuccess(res);
      expect(res.body).not.toHaveProperty('is_imported_stub');
    } finally {
      await old.close();
    }
  });

  it('get_realm_user_dicts_from_ids: IDs that are not users are left out, not an error', async () => {
    const got = await members(desdemona, { user_ids: [id('alice'), 99999] });
    expect(got.map((u) => u.user_id)).toEqual([id('alice')]);
  });
});
