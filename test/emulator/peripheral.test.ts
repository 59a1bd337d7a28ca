import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let alice: TestClient;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  alice = clientFor(z, 'alice');
});
afterEach(() => z.close());

const ch = (name: string) => z.org.channels.find((c) => c.name === name)!;
const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;

describe('drafts', () => {
  test('create, list, edit, delete; validation', async () => {
    const r = await alice.post('/drafts', {
      drafts: [
        { type: 'stream', to: [ch('general').id], topic: 't', content: 'hello' },
        {
          type: 'private',
          to: [user('bob').id],
          topic: 'ignored',
          content: 'hi',
          timestamp: 1700000000,
        },
      ],
    });
    expectSuccess(r);
    expect(r.body.ids).toHaveLength(2);
    const list = await alice.get('/drafts');
    expect(list.body.count).toBe(2);
    expect(list.body.drafts[1]).toMatchObject({ topic: '', timestamp: 1700000000 });
    expectError(
      await alice.post('/drafts', {
        drafts: [{ type: 'stream', to: [1, 2], topic: 't', content: 'c' }],
      }),
      'Must specify exactly 1 channel ID for channel messages',
    );
    expectError(
      await alice.post('/drafts', {
        drafts: [{ type: 'stream', to: [ch('leadership').id], topic: 't', content: 'c' }],
      }),
      'Invalid channel ID',
    );
    expectError(
      await alice.post('/drafts', { drafts: [{ type: 'x', to: [], topic: '', content: '' }] }),
      'Invalid drafts[0]["type"]',
    );
    expectError(
      await alice.post('/drafts', { drafts: [{ to: [], topic: '', content: '' }] }),
      'drafts[0]["type"] field is missing: Field required',
    );
    expectError(
      await alice.post('/drafts', {
        drafts: [{ type: '', to: [], topic: '', content: 'a\u0000' }],
      }),
      'Message must not contain null bytes',
    );
    const id = r.body.ids[0] as number;
    expectSuccess(
      await alice.patch(`/drafts/${id}`, {
        draft: { type: '', to: [], topic: '', content: 'edited' },
      }),
    );
    expectError(
      await clientFor(z, 'bob').delete(`/drafts/${id}`),
      'Draft does not exist',
      'BAD_REQUEST',
      404,
    );
    expectSuccess(await alice.delete(`/drafts/${id}`));
    expectError(
      await alice.patch(`/drafts/${id}`, { draft: { type: '', to: [], topic: '', content: 'x' } }),
      'Draft does not exist',
      'BAD_REQUEST',
      404,
    );
  });
});

describe('user status', () => {
  test('set and read; errors', async () => {
    expectError(await alice.post('/users/me/status', {}), 'Client did not pass any new values.');
    expectError(
      await alice.post('/users/me/status', { status_text: 'x'.repeat(61) }),
      'status_text is too long (limit: 60 characters)',
    );
    expectError(
      await alice.post('/users/me/status', { status_text: 'x', emoji_code: '1f697' }),
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    );
    expectError(
      await alice.post('/users/me/status', { emoji_name: 'invalid' }),
      "Emoji 'invalid' does not exist",
    );
    expectSuccess(
      await alice.post('/users/me/status', { status_text: 'on vacation', emoji_name: 'car' }),
    );
    const s = await alice.get(`/users/${user('alice').id}/status`);
    expect(s.body.status).toEqual({
      status_text: 'on vacation',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    expectError(
      await alice.post(`/users/${user('bob').id}/status`, { status_text: 'x' }),
      // access_user_by_id(for_admin=True), zerver/lib/users.py access_user_common
      'Insufficient permission',
    );
    expectError(
      await alice.post('/users/me/status', { emoji_name: 'car', emoji_code: '1f600' }),
      'Invalid emoji name.',
    );
    expectError(
      await alice.post('/users/me/status', { emoji_name: 'car', reaction_type: 'realm_emoji' }),
      'Invalid custom emoji.',
    );
    const admin = clientFor(z, 'admin');
    expectSuccess(await admin.post(`/users/${user('bob').id}/status`, { status_text: 'busy' }));
    // The administrator variant (FL 407) has no `away`.
    const away = await admin.post(`/users/${user('bob').id}/status`, {
      status_text: 'out',
      away: true,
    });
    expectSuccess(away);
    expect(away.body.ignored_parameters_unsupported).toEqual(['away']);
    expect(z.org.userStatus?.[String(user('bob').id)]).toMatchObject({
      statusText: 'out',
      away: false,
    });
  });
});

describe('presence', () => {
  test('report and read, legacy and modern formats', async () => {
    expectError(await alice.post('/users/me/presence', { status: 'away' }), 'Invalid status: away');
    const legacy = await alice.post('/users/me/presence', { status: 'active' });
    expect(legacy.body.presences[user('alice').email].aggregated.status).toBe('active');
    const modern = await clientFor(z, 'bob').post('/users/me/presence', {
      status: 'idle',
      last_update_id: -1,
    });
    expect(Object.keys(modern.body.presences).sort()).toEqual(
      [String(user('alice').id), String(user('bob').id)].sort(),
    );
    const ping = await alice.post('/users/me/presence', { status: 'active', ping_only: true });
    expect(ping.body).not.toHaveProperty('presences');
    expect((await alice.get('/realm/presence')).body.presences).toHaveProperty([user('bob').email]);
    expect(
      (await alice.get(`/users/${user('alice').id}/presence`)).body.presence.aggregated.status,
    ).toBe('active');
    expectError(
      await alice.get(`/users/${user('carol').email}/presence`),
      `No presence data for ${user('carol').email}`,
    );
  });
});

describe('navigation views (FL 390)', () => {
  test('create, pin built-ins, fragments with slashes, errors', async () => {
    expectError(
      await alice.post('/navigation_views', { fragment: 'inbox', is_pinned: true, name: 'Mine' }),
      'Built-in views cannot have a custom name.',
    );
    expectSuccess(
      await alice.post('/navigation_views', {
        fragment: 'narrow/channel/9-general',
        is_pinned: true,
        name: 'General',
      }),
    );
    expectError(
      await alice.post('/navigation_views', {
        fragment: 'narrow/channel/9-general',
        is_pinned: true,
        name: 'General',
      }),
      'Navigation view already exists.',
    );
    expectSuccess(
      await alice.patch('/navigation_views/narrow/channel/9-general', { is_pinned: false }),
    );
    // Zulip's get_navigation_view: a built-in view needs its row before a PATCH.
    expectError(
      await alice.patch('/navigation_views/inbox', { is_pinned: false }),
      'Navigation view does not exist.',
      'BAD_REQUEST',
      404,
    );
    expectSuccess(await alice.post('/navigation_views', { fragment: 'inbox', is_pinned: true }));
    expectSuccess(await alice.patch('/navigation_views/inbox', { is_pinned: false }));
    const list = await alice.get('/navigation_views');
    expect(list.body.navigation_views).toEqual([
      { fragment: 'narrow/channel/9-general', is_pinned: false, name: 'General' },
      { fragment: 'inbox', is_pinned: false, name: null },
    ]);
    expectError(
      await alice.delete('/navigation_views/nope'),
      'Navigation view does not exist.',
      'BAD_REQUEST',
      404,
    );
    const old = await startEmulator({ featureLevel: 372, rateLimit: false });
    try {
      expect((await clientFor(old, 'alice').get('/navigation_views')).status).toBe(404);
    } finally {
      await old.close();
    }
  });
});

test('e2ee test notification: no push devices in the emulator', async () => {
  const r = await alice.post('/mobile_push/e2ee/test_notification', { push_account_id: 1 });
  expect(r.status).toBe(400);
  expect(r.body.code).toBe('NO_ACTIVE_PUSH_DEVICE');
});
