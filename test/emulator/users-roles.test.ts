import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';

let z: Emulator;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
});
afterEach(() => z.close());

const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;

describe('users and roles', () => {
  test('GET /users lists everyone, deactivated users and bots included', async () => {
    const r = await clientFor(z, 'alice').get('/users');
    expect(r.body.members).toHaveLength(12);
    expect(
      r.body.members.find((u: { email: string }) => u.email.startsWith('former@')).is_active,
    ).toBe(false);
    expect(
      r.body.members.find((u: { email: string }) => u.email.startsWith('deploy-bot@')).is_bot,
    ).toBe(true);
    expectError(await clientFor(z, 'alice').get('/users/99999'), 'No such user');
    expect((await clientFor(z, 'alice').get('/users/guest@zulip-cdk.example')).body.user.role).toBe(
      600,
    );
  });

  test('user objects as Zulip formats them: client_gravatar, profile_data, date_joined', async () => {
    const alice = clientFor(z, 'alice');
    // client_gravatar defaults to true (FL 92): Gravatar users get a null avatar_url.
    const plain = (await alice.get('/users')).body.members[0];
    expect(plain.avatar_url).toBeNull();
    expect(plain).not.toHaveProperty('profile_data');
    // Python's isoformat(): microseconds and an explicit UTC offset.
    expect(plain.date_joined).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d\+00:00$/);
    const full = (
      await alice.get('/users', { client_gravatar: false, include_custom_profile_fields: true })
    ).body.members[0];
    expect(full.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
    expect(full.profile_data).toEqual({});
    const one = await alice.get(`/users/${user('bob').id}`, { client_gravatar: false });
    expect(one.body.user.avatar_url).toMatch(/^https:/);
    expect(one.body.user).not.toHaveProperty('profile_data');
    const reg = await alice.post('/register', { fetch_event_types: ['realm_user'] });
    expect(reg.body.realm_users[0].avatar_url).toBeNull();
    expect(reg.body.realm_users[0].profile_data).toEqual({});
    const reg2 = await alice.post('/register', {
      fetch_event_types: ['realm_user'],
      client_gravatar: false,
    });
    expect(reg2.body.realm_users[0].avatar_url).toMatch(/^https:/);
    await alice.delete('/events', { queue_id: reg.body.queue_id });
    await alice.delete('/events', { queue_id: reg2.body.queue_id });
  });

  test('only owners grant or remove the owner role; the last owner stays', async () => {
    const admin = clientFor(z, 'admin');
    const owner = clientFor(z, 'owner');
    // access_user_by_id(for_admin=True) refuses a non-administrator first (test_users.py
    // PermissionTest.test_user_cannot_promote_to_admin).
    expectError(
      await clientFor(z, 'alice').patch(`/users/${user('bob').id}`, { role: 300 }),
      'Insufficient permission',
    );
    expectSuccess(await admin.patch(`/users/${user('bob').id}`, { role: 300 }));
    expect(user('bob').role).toBe(300);
    expectError(
      await admin.patch(`/users/${user('bob').id}`, { role: 100 }),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectError(
      await admin.patch(`/users/${user('owner').id}`, { role: 400 }),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectError(
      await owner.patch(`/users/${user('owner').id}`, { role: 200 }),
      'The owner permission cannot be removed from the only organization owner.',
    );
    expectSuccess(await owner.patch('/users/alice@zulip-cdk.example', { role: 100 }));
    expectSuccess(await owner.patch(`/users/${user('owner').id}`, { role: 200 }));
    expectError(
      await clientFor(z, 'alice').patch(`/users/${user('bob').id}`, { role: 7 }),
      // check_int_in_validator through typed_endpoint (test_users.py test_invalid_role)
      'Invalid role: Value error, Not in the list of possible values',
    );
    expectError(
      await clientFor(z, 'alice').patch(`/users/${user('bob').id}`, { full_name: 'x'.repeat(101) }),
      'Name too long!',
    );
  });

  test('role changes move users between system groups', async () => {
    await clientFor(z, 'owner').patch(`/users/${user('carol').id}`, { role: 200 });
    const g = await clientFor(z, 'owner').get('/user_groups');
    const admins = g.body.user_groups.find(
      (x: { name: string }) => x.name === 'role:administrators',
    );
    expect(admins.members).toContain(user('carol').id);
  });
});

/** What each role may do: one row per action, one column per role. */
describe('permissions per role', () => {
  const roles = ['owner', 'admin', 'moderator', 'alice', 'guest', 'deploy-bot'] as const;
  const table: Array<
    [
      string,
      Record<(typeof roles)[number], boolean>,
      (who: string, i: number) => Promise<{ status: number }>,
    ]
  > = [
    [
      'create a linkifier (administrators)',
      {
        owner: true,
        admin: true,
        moderator: false,
        alice: false,
        guest: false,
        'deploy-bot': false,
      },
      (who, i) =>
        clientFor(z, who).post('/realm/filters', {
          pattern: `R${i}-(?P<id>[0-9]+)`,
          url_template: 'https://x/{id}',
        }),
    ],
    [
      'set a channel retention (owners)',
      {
        owner: true,
        admin: false,
        moderator: false,
        alice: false,
        guest: false,
        'deploy-bot': false,
      },
      (who) =>
        clientFor(z, who).patch(
          `/streams/${z.org.channels.find((c) => c.name === 'general')!.id}`,
          { message_retention_days: 30 },
        ),
    ],
    [
      'create a user group (members, no guests, no bots)',
      { owner: true, admin: true, moderator: true, alice: true, guest: false, 'deploy-bot': false },
      (who, i) =>
        clientFor(z, who).post('/user_groups/create', {
          name: `g${i}`,
          description: '',
          members: [],
        }),
    ],
    [
      'subscribe to a public channel (non-guests)',
      { owner: true, admin: true, moderator: true, alice: true, guest: false, 'deploy-bot': true },
      (who) =>
        clientFor(z, who).post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] }),
    ],
    [
      'create a channel folder (administrators)',
      {
        owner: true,
        admin: true,
        moderator: false,
        alice: false,
        guest: false,
        'deploy-bot': false,
      },
      (who, i) =>
        clientFor(z, who).post('/channel_folders/create', { name: `f${i}`, description: '' }),
    ],
    [
      'read channel folders (everyone)',
      { owner: true, admin: true, moderator: true, alice: true, guest: true, 'deploy-bot': true },
      (who) => clientFor(z, who).get('/channel_folders'),
    ],
    [
      'make a channel default (administrators)',
      {
        owner: true,
        admin: true,
        moderator: false,
        alice: false,
        guest: false,
        'deploy-bot': false,
      },
      (who) =>
        clientFor(z, who).post('/default_streams', {
          stream_id: z.org.channels.find((c) => c.name === 'design')!.id,
        }),
    ],
  ];
  test.each(table)('%s', async (_name, expected, act) => {
    const got: Record<string, boolean> = {};
    let i = 0;
    for (const who of roles) got[who] = (await act(who, i++)).status === 200;
    expect(got).toEqual(expected);
  });
});
