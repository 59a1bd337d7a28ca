import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let owner: TestClient;
let alice: TestClient;
let guest: TestClient;

beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  owner = clientFor(z, 'owner');
  alice = clientFor(z, 'alice');
  guest = clientFor(z, 'guest');
});
afterEach(() => z.close());

const ch = (name: string) => z.org.channels.find((c) => c.name === name)!;
const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const group = (name: string) => z.org.groups.find((g) => g.name === name)!;
const subscribed = (local: string, name: string) =>
  z.org.subscriptions.some(
    (s) => s.userId === user(local).id && s.channelId === ch(name).id && s.active,
  );

describe('POST /users/me/subscriptions', () => {
  test('guests may not subscribe', async () => {
    expectError(
      await guest.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] }),
      'Not allowed for guest users',
    );
  });

  test('creates missing channels with the request settings; existing ones ignore them', async () => {
    const r = await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'new-one', description: 'hi' }, { name: 'Design' }],
      invite_only: true,
      principals: [user('alice').id],
    });
    expectSuccess(r);
    expect(r.body.subscribed[String(user('alice').id)]).toEqual(['design', 'new-one']);
    expect(ch('new-one').inviteOnly).toBe(true);
    expect(ch('new-one').historyPublicToSubscribers).toBe(false);
    expect(ch('design').inviteOnly).toBe(false);
    const again = await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'design' }],
      principals: [user('alice').id],
    });
    expect(again.body.already_subscribed).toEqual({ [String(user('alice').id)]: ['design'] });
    expect(again.body.subscribed).toEqual({});
  });

  test('principals: No such user, User is deactivated, mixed types', async () => {
    expectError(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'design' }],
        principals: [999999],
      }),
      'No such user',
    );
    expectError(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'design' }],
        principals: [user('former').id],
      }),
      'User is deactivated',
    );
    expectError(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'design' }],
        principals: [user('alice').id, 'bob@zulip-cdk.example'],
      }),
      'principals["list[str]"][0] is not a string',
    );
    expectSuccess(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'design' }],
        principals: ['alice@zulip-cdk.example'],
      }),
    );
  });

  test('private channels: Unable to access channel, or unauthorized list when not fatal', async () => {
    expectError(
      await alice.post('/users/me/subscriptions', { subscriptions: [{ name: 'leadership' }] }),
      'Unable to access channel (leadership).',
    );
    const r = await alice.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'leadership' }, { name: 'design' }],
      authorization_errors_fatal: false,
    });
    expectSuccess(r);
    expect(r.body.unauthorized).toEqual(['leadership']);
    expect(subscribed('alice', 'design')).toBe(true);
  });

  test('can_subscribe_group lets members join a private channel', async () => {
    expectSuccess(
      await owner.patch(`/streams/${ch('leadership').id}`, {
        can_subscribe_group: { new: group('role:members').id },
      }),
    );
    expectSuccess(
      await alice.post('/users/me/subscriptions', { subscriptions: [{ name: 'leadership' }] }),
    );
  });

  test('adding others needs can_add_subscribers_group (realm for public, channel for private)', async () => {
    // The realm's can_add_subscribers_group is role:members: members may add to public channels.
    expectSuccess(
      await alice.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'design' }],
        principals: [user('bob').id],
      }),
    );
    z.org.realm.settings.can_add_subscribers_group = group('role:administrators').id;
    expectError(
      await alice.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'design' }],
        principals: [user('carol').id],
      }),
      'Insufficient permission',
    );
    expectSuccess(
      await owner.patch(`/streams/${ch('design').id}`, {
        can_add_subscribers_group: { new: group('role:members').id },
      }),
    );
    expectSuccess(
      await alice.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'design' }],
        principals: [user('carol').id],
      }),
    );
  });

  test('creating needs the realm permission; names and colours are checked; atomic', async () => {
    z.org.realm.settings.can_create_public_channel_group = group('role:administrators').id;
    expectError(
      await alice.post('/users/me/subscriptions', { subscriptions: [{ name: 'brand-new' }] }),
      'Insufficient permission',
    );
    expectError(
      await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'x'.repeat(61) }] }),
      'Channel name too long (limit: 60 characters).',
    );
    expectError(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'ok', color: 'red' }],
      }),
      'Invalid subscriptions[0]: Value error, add.color is not a valid hex color code',
    );
    expectError(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'ok', description: 'x'.repeat(1025) }],
      }),
      // AddSubscriptionData.description (ChannelDescription, max_length 1024): a typed_endpoint
      // error, named by the parameter's path.
      'subscriptions[0]["description"] is too long (limit: 1024 characters)',
    );
    expect(z.org.channels.some((c) => c.name === 'ok')).toBe(false);
    expectError(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'created-then-rolled-back' }, { name: 'leadership' }],
        principals: [user('bob').id],
        is_default_stream: true,
        invite_only: true,
      }),
      'A default channel cannot be private.',
    );
    expect(z.org.channels.some((c) => c.name === 'created-then-rolled-back')).toBe(false);
  });

  test('retention at creation needs an owner', async () => {
    expectError(
      await clientFor(z, 'admin').post('/users/me/subscriptions', {
        subscriptions: [{ name: 'kept' }],
        message_retention_days: 10,
      }),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
  });
});

describe('DELETE and PATCH /users/me/subscriptions', () => {
  test('unsubscribing a channel that does not exist', async () => {
    expectError(
      await alice.delete('/users/me/subscriptions', { subscriptions: ['nope', 'design', 'gone'] }),
      'Channel(s) (nope, gone) do not exist',
    );
  });

  test('removing others needs can_remove_subscribers_group', async () => {
    expectError(
      await alice.delete('/users/me/subscriptions', {
        subscriptions: ['general'],
        principals: [user('bob').id],
      }),
      'Insufficient permission',
    );
    const r = await clientFor(z, 'admin').delete('/users/me/subscriptions', {
      subscriptions: ['general', 'design'],
      principals: [user('bob').id],
    });
    expect(r.body).toMatchObject({ removed: ['general'], not_removed: ['design'] });
  });

  test('PATCH with nothing to do, bad delete entries', async () => {
    expectError(
      await alice.patch('/users/me/subscriptions', {}),
      'Nothing to do. Specify at least one of "add" or "delete".',
    );
    expectError(
      await alice.patch('/users/me/subscriptions', { delete: [1] }),
      'delete[0] is not a string',
    );
    const r = await alice.patch('/users/me/subscriptions', {
      add: [{ name: 'design' }],
      delete: ['general'],
    });
    expectSuccess(r);
    expect(subscribed('alice', 'design')).toBe(true);
    expect(subscribed('alice', 'general')).toBe(false);
  });
});

describe('subscription properties', () => {
  test('errors: not a boolean, unknown property, not subscribed, bad colour, missing fields', async () => {
    const general = ch('general').id;
    const post = (data: unknown) =>
      alice.post('/users/me/subscriptions/properties', { subscription_data: data });
    expectError(
      await post([{ stream_id: general, property: 'is_muted', value: 'yes' }]),
      'is_muted is not a boolean',
    );
    expectError(
      await post([{ stream_id: general, property: 'bad', value: true }]),
      'Unknown subscription property: bad',
    );
    expectError(
      await post([{ stream_id: ch('design').id, property: 'is_muted', value: true }]),
      `Not subscribed to channel ID ${ch('design').id}`,
    );
    expectError(
      await post([{ stream_id: 99999, property: 'is_muted', value: true }]),
      'Invalid channel ID',
    );
    expectError(
      await post([{ stream_id: general, property: 'color', value: 'blue' }]),
      'Invalid subscription_data[0]: Value error, color is not a valid hex color code',
    );
    expectError(
      await post([{ property: 'color', value: '#fff' }]),
      'subscription_data[0]["stream_id"] field is missing: Field required',
    );
    expectError(
      await post([{ stream_id: general, property: 'color' }]),
      'subscription_data[0]["value"] field is missing: Field required',
    );
  });

  test('not atomic: items before the failing one stay applied; in_home_view is !is_muted', async () => {
    // The values are all checked first (an unknown property applies nothing: it fails while
    // the parameter is parsed); a channel the user is not subscribed to fails mid-way.
    const general = ch('general').id;
    const r = await alice.post('/users/me/subscriptions/properties', {
      subscription_data: [
        { stream_id: general, property: 'pin_to_top', value: true },
        { stream_id: general, property: 'in_home_view', value: false },
        { stream_id: ch('design').id, property: 'pin_to_top', value: true },
      ],
    });
    expectError(r, `Not subscribed to channel ID ${ch('design').id}`);
    const sub = z.org.subscriptions.find(
      (s) => s.userId === user('alice').id && s.channelId === general,
    )!;
    expect(sub.pinToTop).toBe(true);
    expect(sub.isMuted).toBe(true);
    const list = await alice.get('/users/me/subscriptions');
    const g = list.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === general);
    expect(g).toMatchObject({ pin_to_top: true, is_muted: true, in_home_view: false });
  });
});

test('bot owners may unsubscribe their bots', async () => {
  const r = await owner.delete('/users/me/subscriptions', {
    subscriptions: ['engineering'],
    principals: [user('deploy-bot').id],
  });
  expectSuccess(r);
  z.org.realm.settings.can_add_subscribers_group = group('role:administrators').id;
  const bot = user('deploy-bot');
  bot.botOwnerId = user('alice').id;
  expectSuccess(
    await alice.delete('/users/me/subscriptions', {
      subscriptions: ['general'],
      principals: [bot.id],
    }),
  );
  expect(subscribed('deploy-bot', 'general')).toBe(false);
});
