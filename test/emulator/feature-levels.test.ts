import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectSuccess } from '../support/emulator-client';

const FULL_REGISTER = {
  fetch_event_types: ['realm', 'subscription', 'stream', 'channel_folders', 'saved_snippets'],
  client_capabilities: { notification_settings_null: true, archived_channels: true },
};

describe('feature level 372 (Zulip 10.2)', () => {
  let z: Emulator;
  beforeAll(async () => {
    z = await startEmulator({ featureLevel: 372, rateLimit: false });
  });
  afterAll(() => z.close());

  test('no channel folders: endpoints 404, no folder fields anywhere', async () => {
    const owner = clientFor(z, 'owner');
    expect((await owner.get('/channel_folders')).status).toBe(404);
    expect(
      (await owner.post('/channel_folders/create', { name: 'x', description: '' })).status,
    ).toBe(404);
    const reg = await owner.post('/register', FULL_REGISTER);
    expect(reg.body).not.toHaveProperty('channel_folders');
    expect(reg.body).not.toHaveProperty('max_channel_folder_name_length');
    expect(reg.body).not.toHaveProperty('realm_topics_policy');
    expect(reg.body.zulip_version).toBe('10.2');
    for (const c of reg.body.streams) {
      expect(c).not.toHaveProperty('folder_id');
      expect(c).not.toHaveProperty('topics_policy');
      expect(c).not.toHaveProperty('subscriber_count');
      expect(c).not.toHaveProperty('can_delete_any_message_group');
      expect(c).toHaveProperty('can_subscribe_group');
    }
    const perms = reg.body.server_supported_permission_settings.stream;
    expect(Object.keys(perms).sort()).toEqual([
      'can_add_subscribers_group',
      'can_administer_channel_group',
      'can_remove_subscribers_group',
      'can_send_message_group',
      'can_subscribe_group',
    ]);
    expect(perms.can_administer_channel_group.default_group_name).toBe('stream_creator_or_nobody');
  });

  test('newer parameters are ignored and reported', async () => {
    const owner = clientFor(z, 'owner');
    const id = z.org.channels.find((c) => c.name === 'design')!.id;
    const r = await owner.patch(`/streams/${id}`, {
      topics_policy: 'disable_empty_topic',
      folder_id: 1,
      description: 'x',
    });
    expectSuccess(r);
    // Sorted, as zerver/lib/typed_endpoint.py reports them.
    expect(r.body.ignored_parameters_unsupported).toEqual(['folder_id', 'topics_policy']);
    expect(z.org.channels.find((c) => c.id === id)!.topicsPolicy).toBe('inherit');
    const s = await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'design' }],
      send_new_subscription_messages: false,
    });
    expect(s.body.ignored_parameters_unsupported).toEqual(['send_new_subscription_messages']);
    expect(s.body).not.toHaveProperty('new_subscription_messages_sent');
  });
});

describe('feature level 421 (Zulip 11.0)', () => {
  test('folders with order, topics_policy, the newer channel settings; no can_create_topic_group', async () => {
    const z = await startEmulator({ featureLevel: 421, rateLimit: false });
    try {
      const reg = await clientFor(z, 'owner').post('/register', FULL_REGISTER);
      expect(reg.body.channel_folders[0]).toHaveProperty('order');
      expect(reg.body.max_channel_folder_name_length).toBe(60);
      expect(reg.body.zulip_version).toBe('11.0');
      const c = reg.body.streams[0];
      expect(c).toHaveProperty('topics_policy', 'inherit');
      expect(c).toHaveProperty('can_delete_any_message_group');
      expect(c).not.toHaveProperty('can_create_topic_group');
      expect(
        reg.body.server_supported_permission_settings.stream.can_administer_channel_group
          .default_group_name,
      ).toBe('stream_creator_or_nobody');
    } finally {
      await z.close();
    }
  });
});

describe('feature level 478 (newest)', () => {
  test('can_create_topic_group, channel_creator default name, linkifier extras', async () => {
    const z = await startEmulator({ rateLimit: false });
    try {
      const owner = clientFor(z, 'owner');
      const reg = await owner.post('/register', FULL_REGISTER);
      expect(reg.body.streams[0]).toHaveProperty('can_create_topic_group');
      expect(
        reg.body.server_supported_permission_settings.stream.can_administer_channel_group
          .default_group_name,
      ).toBe('channel_creator');
      const l = await owner.get('/realm/linkifiers');
      expect(l.body.linkifiers[0]).toMatchObject({
        example_input: null,
        reverse_template: null,
        alternative_url_templates: [],
      });
    } finally {
      await z.close();
    }
  });
});

/**
 * Endpoints that NOTES section 6 does not list, at the levels of Zulip's API changelog:
 * `POST /users/{user_id}/status` (FL 407) and `POST /mobile_push/e2ee/test_notification` (FL 420).
 */
describe.each([
  [406, false, false],
  [407, true, false],
  [419, true, false],
  [420, true, true],
])('feature level %i: admin user status %s, e2ee test notification %s', (level, status, e2ee) => {
  test('the endpoints exist exactly from their levels', async () => {
    const z = await startEmulator({ featureLevel: level, rateLimit: false });
    try {
      const admin = clientFor(z, 'admin');
      const bob = z.org.users.find((u) => u.email.startsWith('bob@'))!;
      const s = await admin.post(`/users/${bob.id}/status`, { status_text: 'busy' });
      if (status) expectSuccess(s);
      else {
        // Only GET exists on the path before FL 407.
        expect(s.status).toBe(405);
        expect(s.body.allowed_methods).toEqual(['GET']);
        expect(z.org.userStatus?.[String(bob.id)]).toBeUndefined();
      }
      const n = await admin.post('/mobile_push/e2ee/test_notification', {});
      if (e2ee) expect([n.status, n.body.code]).toEqual([400, 'NO_ACTIVE_PUSH_DEVICE']);
      else expect([n.status, n.body.msg]).toEqual([404, 'Invalid API endpoint']);
    } finally {
      await z.close();
    }
  });
});
