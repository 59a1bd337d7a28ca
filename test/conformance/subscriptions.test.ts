/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- JSON bodies are untyped by nature */
/**
 * Subscriptions, ported from Zulip's zerver/tests/test_subs.py, test_subscription_settings.py
 * and the subscription parts of test_users.py / test_channel_fetch.py (Zulip main, feature
 * level 442). Black-box HTTP against the embedded server; every response is checked against
 * zulip.yaml by the test client. Unless a case names levels, it holds at every level the
 * embedded server supports (the subscription rules it checks are older than FL 372).
 *
 * Zulip's test users map onto the demo organization: hamlet/cordelia/othello (members) are
 * alice/bob/carol/dave/erin, iago (administrator) is admin/alan, desdemona (owner) is owner,
 * polonius (guest) is guest.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { addUser, nextId } from '../../src/emulator/state';
import type { StoredGroupSetting } from '../../src/emulator/state';
import { ROLES } from '../../src/model/kinds';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;

async function start(featureLevel?: number): Promise<void> {
  z = await startEmulator({
    rateLimit: false,
    heartbeatMs: 200,
    ...(featureLevel === undefined ? {} : { featureLevel }),
  });
}

beforeEach(() => start());
afterEach(() => z.close());

const as = (local: string): TestClient => clientFor(z, local);
const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const id = (local: string): number => user(local).id;
const ch = (name: string) => z.org.channels.find((c) => c.name === name)!;
const group = (name: string) => z.org.groups.find((g) => g.name === name)!;
const only = (...locals: string[]): StoredGroupSetting => ({
  direct_members: locals.map(id),
  direct_subgroups: [],
});
const isSubscribed = (local: string, name: string): boolean =>
  z.org.subscriptions.some(
    (s) => s.userId === id(local) && s.channelId === ch(name).id && s.active,
  );

/** A channel made by the owner with exactly these subscribers (POST /channels/create). */
async function makeChannel(
  name: string,
  subscribers: string[],
  opts: Record<string, unknown> = {},
): Promise<number> {
  const r = await as('owner').post('/channels/create', {
    name,
    subscribers: subscribers.map(id),
    ...opts,
  });
  expectSuccess(r);
  return r.body.id as number;
}

const subscribeVia = (
  who: string,
  names: Array<string | Record<string, unknown>>,
  extra: Record<string, unknown> = {},
) =>
  as(who).post('/users/me/subscriptions', {
    subscriptions: names.map((n) => (typeof n === 'string' ? { name: n } : n)),
    ...extra,
  });

/** Names of the active subscriptions of a user, read back over the API. */
async function subscribedNames(who: string): Promise<string[]> {
  const r = await as(who).get('/users/me/subscriptions');
  expectSuccess(r);
  return (r.body.subscriptions as Array<{ name: string }>).map((s) => s.name).sort();
}

async function mySub(who: string, name: string): Promise<any> {
  const r = await as(who).get('/users/me/subscriptions');
  return (r.body.subscriptions as any[]).find((s) => s.name === name);
}

async function members(name: string): Promise<number[]> {
  const r = await as('owner').get(`/streams/${ch(name).id}/members`);
  expectSuccess(r);
  return [...(r.body.subscribers as number[])].sort((a, b) => a - b);
}

async function registerQueue(who: string): Promise<string> {
  const r = await as(who).post('/register', {
    event_types: ['subscription', 'stream', 'default_streams'],
    client_capabilities: { notification_settings_null: true },
  });
  expectSuccess(r);
  return r.body.queue_id as string;
}

async function events(who: string, queue: string): Promise<any[]> {
  const r = await as(who).get('/events', { queue_id: queue, last_event_id: -1, dont_block: true });
  expectSuccess(r);
  return (r.body.events as any[]).filter((e) => e.type !== 'heartbeat');
}

describe('SubscriptionRestApiTest (PATCH /users/me/subscriptions)', () => {
  it('test_basic_add_delete: add creates and subscribes, delete unsubscribes; both views answer', async () => {
    const added = await as('alice').patch('/users/me/subscriptions', {
      add: [{ name: 'my_test_stream_1' }],
    });
    expectSuccess(added);
    expect(added.body).toMatchObject({
      subscribed: { [id('alice')]: ['my_test_stream_1'] },
      already_subscribed: {},
      removed: [],
      not_removed: [],
    });
    expect(await subscribedNames('alice')).toContain('my_test_stream_1');
    const deleted = await as('alice').patch('/users/me/subscriptions', {
      delete: ['my_test_stream_1'],
    });
    expectSuccess(deleted);
    expect(deleted.body).toMatchObject({
      subscribed: {},
      already_subscribed: {},
      removed: ['my_test_stream_1'],
      not_removed: [],
    });
    expect(await subscribedNames('alice')).not.toContain('my_test_stream_1');
  });

  it('test_add_with_color: PATCH add with a color; a bad color on POST is refused', async () => {
    expectSuccess(
      await as('alice').patch('/users/me/subscriptions', {
        add: [{ name: 'my_test_stream_2', color: '#afafaf' }],
      }),
    );
    expect((await mySub('alice', 'my_test_stream_2')).color).toBe('#afafaf');
    expectError(
      await subscribeVia('alice', [{ name: 'my_test_stream_3', color: '#0g0g0g' }]),
      'Invalid subscriptions[0]: Value error, add.color is not a valid hex color code',
    );
    expect(z.org.channels.some((c) => c.name === 'my_test_stream_3')).toBe(false);
  });

  it.each([
    [
      ['foo'],
      'Invalid add[0]: Input should be a valid dictionary or instance of AddSubscriptionData',
    ],
    [[{ bogus: 'foo' }], 'add[0]["name"] field is missing: Field required'],
    [[{ name: {} }], 'add[0]["name"] is not a string'],
  ])('test_bad_add_parameters: add=%j', async (add, msg) => {
    expectError(await as('alice').patch('/users/me/subscriptions', { add }), msg);
  });

  it('test_bad_principals: principals [{}] with add', async () => {
    expectError(
      await as('alice').patch('/users/me/subscriptions', {
        add: [{ name: 'my_new_stream' }],
        principals: [{}],
      }),
      'principals["list[str]"][0] is not a string',
    );
  });

  it('test_bad_delete_parameters: delete items must be strings', async () => {
    expectError(
      await as('alice').patch('/users/me/subscriptions', {
        delete: [{ name: 'my_test_stream_1' }],
      }),
      'delete[0] is not a string',
    );
  });

  it.each([[{}], [{ add: [], delete: [] }]])(
    'test_add_or_delete_not_specified: %j',
    async (params) => {
      expectError(
        await as('alice').patch('/users/me/subscriptions', params),
        'Nothing to do. Specify at least one of "add" or "delete".',
      );
    },
  );

  it.each([
    ['test_patch_enforces_valid_stream_name_check', '', "Channel name can't be empty."],
    ['test_stream_name_too_long', 'a'.repeat(61), 'Channel name too long (limit: 60 characters).'],
    [
      'test_stream_name_contains_null',
      'abc\0',
      'Invalid character in channel name, at position 4.',
    ],
  ])('%s: delete [%j]', async (_name, stream, msg) => {
    expectError(await as('alice').patch('/users/me/subscriptions', { delete: [stream] }), msg);
  });

  it('test_compose_views_rollback: a failing delete undoes the add of the same request', async () => {
    expectError(
      await as('alice').patch('/users/me/subscriptions', {
        add: [{ name: 'rolled_back' }],
        delete: ['no_such_channel'],
      }),
      'Channel(s) (no_such_channel) do not exist',
    );
    expect(z.org.channels.some((c) => c.name === 'rolled_back')).toBe(false);
    expect(await subscribedNames('alice')).not.toContain('rolled_back');
  });

  it('update_subscriptions_backend: principals and creation parameters of the request apply to add', async () => {
    const r = await as('alice').patch('/users/me/subscriptions', {
      add: [{ name: 'patched_private' }],
      principals: [id('bob')],
      invite_only: true,
    });
    expectSuccess(r);
    expect(r.body.subscribed).toEqual({ [id('bob')]: ['patched_private'] });
    expect(ch('patched_private').inviteOnly).toBe(true);
    expect(isSubscribed('alice', 'patched_private')).toBe(false);
  });

  it('update_subscriptions_backend: a guest is refused even with only "delete" (add_subscriptions_backend always runs)', async () => {
    expectError(
      await as('guest').patch('/users/me/subscriptions', { delete: ['general'] }),
      'Not allowed for guest users',
    );
    expect(isSubscribed('guest', 'general')).toBe(true);
  });
});

describe('SubscriptionRestApiTest (PATCH /users/me/subscriptions/{stream_id})', () => {
  it('test_api_valid_property: color', async () => {
    expectSuccess(
      await as('alice').patch(`/users/me/subscriptions/${ch('general').id}`, {
        property: 'color',
        value: '#c2c2c2',
      }),
    );
    expect((await mySub('alice', 'general')).color).toBe('#c2c2c2');
  });

  it('test_api_invalid_property: Unknown subscription property', async () => {
    expectError(
      await as('alice').patch(`/users/me/subscriptions/${ch('general').id}`, {
        property: 'invalid',
        value: 'somevalue',
      }),
      'Unknown subscription property: invalid',
    );
  });

  it('test_api_invalid_stream_id: Invalid channel ID', async () => {
    expectError(
      await as('alice').patch('/users/me/subscriptions/121121', {
        property: 'is_muted',
        value: true,
      }),
      'Invalid channel ID',
    );
  });
});

describe('SubscriptionAPITest: channel names', () => {
  it.each([
    ['new\n\rstream', 'Invalid character in channel name, at position 4.'],
    ['new\ufffestream', 'Invalid character in channel name, at position 4.'],
  ])('test_invalid_stream_name: %j', async (name, msg) => {
    expectError(await subscribeVia('alice', [{ name, description: 'this is description' }]), msg);
  });

  it('test_subscriptions_add_too_long', async () => {
    expectError(
      await subscribeVia('alice', ['a'.repeat(61)]),
      'Channel name too long (limit: 60 characters).',
    );
  });

  it('test_subscriptions_add_stream_with_null', async () => {
    expectError(
      await subscribeVia('alice', ['abc\0']),
      'Invalid character in channel name, at position 4.',
    );
  });

  it('test_subscriptions_add_invalid_stream: empty name', async () => {
    expectError(await subscribeVia('alice', ['']), "Channel name can't be empty.");
  });

  it('AddSubscriptionData: a description over 1024 characters fails while parsing, for any item', async () => {
    const long = 'a'.repeat(1025);
    expectError(
      await subscribeVia('alice', ['general', { name: 'design', description: long }]),
      'subscriptions[1]["description"] is too long (limit: 1024 characters)',
    );
    expectError(
      await as('alice').patch('/users/me/subscriptions', {
        add: [{ name: 'new_one', description: long }],
      }),
      'add[0]["description"] is too long (limit: 1024 characters)',
    );
    expect(isSubscribed('alice', 'design')).toBe(false);
  });

  it('FL 362: channels are subscribed to and unsubscribed from when archived too', async () => {
    const r = await subscribeVia('bob', ['old-projects']);
    expectSuccess(r);
    expect(r.body.subscribed).toEqual({ [id('bob')]: ['old-projects'] });
    expect(isSubscribed('bob', 'old-projects')).toBe(true);
  });

  it('test_non_ascii_stream_subscription', async () => {
    const r = await subscribeVia('alice', ['general', 'hümbüǵ']);
    expectSuccess(r);
    expect(r.body.subscribed).toEqual({ [id('alice')]: ['hümbüǵ'] });
    expect(r.body.already_subscribed).toEqual({ [id('alice')]: ['general'] });
    expect(await subscribedNames('alice')).toContain('hümbüǵ');
  });
});

describe('SubscriptionAPITest._test_group_based_settings_for_creating_streams', () => {
  it.each([
    [
      'test_user_settings_for_creating_private_streams',
      'can_create_private_channel_group',
      true,
      false,
    ],
    [
      'test_user_settings_for_creating_public_streams',
      'can_create_public_channel_group',
      false,
      false,
    ],
    [
      'test_user_settings_for_creating_web_public_streams',
      'can_create_web_public_channel_group',
      false,
      true,
    ],
  ])('%s: %s', async (_name, setting, inviteOnly, webPublic) => {
    const create = (who: string, name: string) =>
      subscribeVia(who, [name], { invite_only: inviteOnly, is_web_public: webPublic });
    const setRealm = (v: StoredGroupSetting): void => {
      z.org.realm.settings[setting] = v;
    };
    setRealm(group('role:administrators').id);
    expectError(await create('bob', 'new_stream1'), 'Insufficient permission');
    expect(z.org.channels.some((c) => c.name === 'new_stream1')).toBe(false);
    expectSuccess(await create('admin', 'new_stream1'));
    // Full members with a waiting period of 100000 days: bob, who joined today, is not one.
    setRealm(group('role:fullmembers').id);
    const threshold = (days: number) =>
      as('owner').patch('/realm', { waiting_period_threshold: days });
    expectSuccess(await threshold(100000));
    expectError(await create('bob', 'new_stream2'), 'Insufficient permission');
    expectSuccess(await threshold(0));
    expectSuccess(await create('bob', 'new_stream2'));
    setRealm(addGroup('Leadership', ['owner']));
    expectError(await create('admin', 'new_stream3'), 'Insufficient permission');
    expectSuccess(await create('owner', 'new_stream3'));
    setRealm({ direct_members: [id('bob')], direct_subgroups: [addGroup('Staff', ['admin'])] });
    expectError(await create('owner', 'new_stream4'), 'Insufficient permission');
    expectSuccess(await create('admin', 'new_stream4'));
    expectSuccess(await create('bob', 'new_stream5'));
    expect(ch('new_stream5').inviteOnly).toBe(inviteOnly);
    expect(ch('new_stream5').isWebPublic).toBe(webPublic);
  });
});

describe('SubscriptionAPITest: GET /users/me/subscriptions', () => {
  it.each([[{}], [{ include_subscribers: 'false' }]])(
    'test_successful_subscriptions_list: %j has no subscribers field',
    async (params) => {
      const r = await as('alice').get('/users/me/subscriptions', params);
      expectSuccess(r);
      const subs = r.body.subscriptions as any[];
      for (const s of subs) {
        expect(typeof s.color).toBe('string');
        expect(typeof s.invite_only).toBe('boolean');
        expect(s).not.toHaveProperty('subscribers');
        expect(s).not.toHaveProperty('partial_subscribers');
      }
      // gather_subscriptions: active channels only (old-projects is archived), sorted by name.
      expect(subs.map((s) => s.name)).toEqual(['announcements', 'engineering', 'general']);
    },
  );

  it('test_successful_subscriptions_list_subscribers: include_subscribers=true', async () => {
    const r = await as('alice').get('/users/me/subscriptions', { include_subscribers: 'true' });
    expectSuccess(r);
    const eng = (r.body.subscriptions as any[]).find((s) => s.name === 'engineering');
    expect([...eng.subscribers].sort((a: number, b: number) => a - b)).toEqual(
      ['owner', 'moderator', 'alice', 'bob', 'carol', 'deploy-bot'].map(id).sort((a, b) => a - b),
    );
  });

  it('list_subscriptions_backend: include_subscribers is a plain "true"/"false"/"partial" (FL 412+)', async () => {
    expectSuccess(
      await as('alice').get('/users/me/subscriptions', { include_subscribers: 'partial' }),
    );
    expectError(
      await as('alice').get('/users/me/subscriptions', { include_subscribers: '"partial"' }),
      'Invalid include_subscribers',
    );
  });

  it('test_list_respects_invite_only_bit (InviteOnlyStreamTest)', async () => {
    expectSuccess(await subscribeVia('alice', ['Saxony'], { invite_only: true }));
    expectSuccess(await subscribeVia('alice', ['Normandy'], { invite_only: false }));
    expect((await mySub('alice', 'Saxony')).invite_only).toBe(true);
    expect((await mySub('alice', 'Normandy')).invite_only).toBe(false);
  });

  it('test_gather_subscriptions_deactivated_streams: an archived channel leaves the lists unless archived_channels is declared', async () => {
    for (const n of ['stream1', 'stream2']) await makeChannel(n, ['admin', 'bob', 'carol']);
    const before = (await as('bob').get('/users/me/subscriptions')).body.subscriptions.length;
    expectSuccess(await as('admin').delete(`/streams/${ch('stream1').id}`));
    for (const who of ['admin', 'bob']) {
      const names = await subscribedNames(who);
      expect(names).not.toContain('stream1');
      expect(names).toContain('stream2');
    }
    expect((await as('bob').get('/users/me/subscriptions')).body.subscriptions.length).toBe(
      before - 1,
    );
    const withArchived = await as('admin').post('/register', {
      fetch_event_types: ['subscription'],
      client_capabilities: { notification_settings_null: true, archived_channels: true },
    });
    expect(withArchived.body.subscriptions.map((s: any) => s.name)).toContain('stream1');
  });
});

describe('SubscriptionAPITest: subscribing', () => {
  it('test_successful_subscriptions_add: new and already subscribed channels', async () => {
    const r = await subscribeVia('alice', ['general', 'engineering', 'Verona2', 'Denmark5']);
    expectSuccess(r);
    expect([...r.body.subscribed[id('alice')]].sort()).toEqual(['Denmark5', 'Verona2']);
    expect([...r.body.already_subscribed[id('alice')]].sort()).toEqual(['engineering', 'general']);
    expect(await subscribedNames('alice')).toEqual(
      ['Denmark5', 'Verona2', 'announcements', 'engineering', 'general'].sort(),
    );
  });

  it('test_successful_subscriptions_add_with_announce: announce is accepted', async () => {
    const r = await subscribeVia('alice', ['general', 'Verona2'], { announce: true });
    expectSuccess(r);
    expect(r.body).not.toHaveProperty('ignored_parameters_unsupported');
    expect(r.body.subscribed).toEqual({ [id('alice')]: ['Verona2'] });
  });

  it('test_stream_creator_id: the acting user creates the channel even when subscribing others', async () => {
    const r = await subscribeVia('admin', ['new_stream'], {
      principals: [id('alice'), id('dave')],
    });
    expectSuccess(r);
    const streams = await as('admin').get('/streams');
    const made = (streams.body.streams as any[]).find((s) => s.name === 'new_stream');
    expect(made.creator_id).toBe(id('admin'));
    expect(isSubscribed('admin', 'new_stream')).toBe(false);
  });

  it('test_multi_user_subscription: subscribe two others, then oneself', async () => {
    const q = await registerQueue('bob');
    const r = await subscribeVia('alice', ['multi_user_stream'], {
      principals: [id('bob'), id('admin')],
    });
    expectSuccess(r);
    expect(await members('multi_user_stream')).toEqual(
      [id('admin'), id('bob')].sort((a, b) => a - b),
    );
    const add = (await events('bob', q)).find((e) => e.type === 'subscription' && e.op === 'add');
    expect([...add.subscriptions[0].subscribers].sort()).toEqual([id('admin'), id('bob')].sort());
    expectSuccess(
      await subscribeVia('alice', ['multi_user_stream'], { principals: [id('alice')] }),
    );
    expect(await members('multi_user_stream')).toHaveLength(3);
    const peer = (await events('bob', q)).find(
      (e) => e.type === 'subscription' && e.op === 'peer_add',
    );
    expect(peer.user_ids).toEqual([id('alice')]);
  });

  it('test_users_getting_add_peer_event: old subscribers get peer_add, the new ones do not', async () => {
    expectSuccess(
      await subscribeVia('alice', ['multi_user_stream'], {
        principals: [id('alice'), id('carol')],
      }),
    );
    const qCarol = await registerQueue('carol');
    const qDave = await registerQueue('dave');
    expectSuccess(
      await subscribeVia('alice', ['multi_user_stream'], { principals: [id('dave'), id('erin')] }),
    );
    const carolPeer = (await events('carol', qCarol)).filter((e) => e.op === 'peer_add');
    expect(carolPeer).toHaveLength(1);
    expect([...carolPeer[0].user_ids].sort()).toEqual([id('dave'), id('erin')].sort());
    expect((await events('dave', qDave)).filter((e) => e.op === 'peer_add')).toEqual([]);
  });

  it('test_subscribing_to_stream_without_permission_to_post: members subscribe to an admins-only channel', async () => {
    await makeChannel('stream_name1', []);
    ch('stream_name1').settings.can_send_message_group = group('role:administrators').id;
    const r = await subscribeVia('alice', ['stream_name1']);
    expectSuccess(r);
    expect(r.body.subscribed).toEqual({ [id('alice')]: ['stream_name1'] });
    expect(r.body.already_subscribed).toEqual({});
    ch('stream_name1').settings.can_send_message_group = {
      direct_members: [id('bob')],
      direct_subgroups: [group('role:moderators').id],
    };
    const r2 = await subscribeVia('carol', ['stream_name1']);
    expect(r2.body.subscribed).toEqual({ [id('carol')]: ['stream_name1'] });
  });

  it.each([
    ['public', false],
    ['private', true],
  ])('test_guest_user_subscribe: a guest may not subscribe (%s channel)', async (_k, priv) => {
    await makeChannel('guest_target', ['owner'], { invite_only: priv });
    expectError(await subscribeVia('guest', ['guest_target']), 'Not allowed for guest users');
    expect(isSubscribed('guest', 'guest_target')).toBe(false);
  });

  it('test_guest_user_subscribe: others may subscribe a guest; the guest gets the channel created for them', async () => {
    const q = await registerQueue('guest');
    const r = await subscribeVia('alice', ['engineering'], {
      principals: [id('guest'), id('dave')],
    });
    expectSuccess(r);
    expect(r.body.subscribed).toEqual({
      [id('guest')]: ['engineering'],
      [id('dave')]: ['engineering'],
    });
    const evs = await events('guest', q);
    const create = evs.filter((e) => e.type === 'stream' && e.op === 'create');
    expect(create).toHaveLength(1);
    expect(create[0].streams[0].stream_id).toBe(ch('engineering').id);
    expect(evs.some((e) => e.type === 'subscription' && e.op === 'add')).toBe(true);
  });

  it('test_private_stream_subscription: a member newly added to a private channel gets it created first', async () => {
    await makeChannel('private', ['alice'], { invite_only: true });
    const q = await registerQueue('bob');
    expectSuccess(await subscribeVia('alice', ['private'], { principals: [id('bob')] }));
    const evs = await events('bob', q);
    expect(evs.map((e) => `${e.type}/${e.op}`)).toEqual(['stream/create', 'subscription/add']);
    expect(evs[0].streams[0].name).toBe('private');
    expect([...evs[1].subscriptions[0].subscribers].sort()).toEqual(
      [id('alice'), id('bob')].sort(),
    );
  });

  it('test_private_stream_subscription: peer_add for a private channel goes to its subscribers and the administrators, not to other members', async () => {
    await makeChannel('private', ['alice'], { invite_only: true });
    const qAlice = await registerQueue('alice');
    const qAlan = await registerQueue('alan');
    const qDave = await registerQueue('dave');
    expectSuccess(await subscribeVia('alice', ['private'], { principals: [id('bob')] }));
    for (const who of [
      ['alice', qAlice],
      ['alan', qAlan],
    ] as const) {
      const peer = (await events(who[0], who[1])).filter((e) => e.op === 'peer_add');
      expect(peer.map((e) => e.user_ids)).toEqual([[id('bob')]]);
    }
    expect(await events('dave', qDave)).toEqual([]);
  });

  it.each([
    ['', (local: string): number | string => id(local)],
    ['_legacy_emails', (local: string): number | string => user(local).email],
  ])(
    'test_subscriptions_add_for_principal%s: subscribe someone else to a new and their current channels',
    async (_k, principal) => {
      const r = await subscribeVia('alice', ['general', 'design', 'Venice8'], {
        principals: [principal('dave')],
      });
      expectSuccess(r);
      expect([...r.body.subscribed[id('dave')]].sort()).toEqual(['Venice8']);
      expect([...r.body.already_subscribed[id('dave')]].sort()).toEqual(['design', 'general']);
      expect(await subscribedNames('dave')).toContain('Venice8');
      // The last message: the "channel created" notice, in the new channel.
      const last = z.org.messages!.at(-1)!;
      expect([last.channelId, last.topic, last.senderId]).toEqual([
        ch('Venice8').id,
        'channel events',
        z.org.notificationBotId,
      ]);
      expect(last.content).toContain(
        `**Public** channel created by @_**${user('alice').fullName}|${id('alice')}**. **Description:**\n\`\`\`\` quote`,
      );
    },
  );

  it('test_subscriptions_add_for_principal_deactivated: User is deactivated', async () => {
    expectSuccess(await subscribeVia('alice', ['design'], { principals: [id('bob')] }));
    user('bob').isActive = false;
    expectError(
      await subscribeVia('alice', ['engineering', 'announcements'], { principals: [id('bob')] }),
      'User is deactivated',
    );
  });

  it('test_subscriptions_add_for_principal_invite_only: others can be subscribed to a new private channel', async () => {
    const r = await subscribeVia('alice', ['Saxony8'], {
      principals: [id('dave')],
      invite_only: true,
    });
    expectSuccess(r);
    expect(r.body.subscribed).toEqual({ [id('dave')]: ['Saxony8'] });
    expect(ch('Saxony8').inviteOnly).toBe(true);
    expect(ch('Saxony8').historyPublicToSubscribers).toBe(false);
    expect(await subscribedNames('dave')).toContain('Saxony8');
  });

  it('test_non_ascii_subscription_for_principal', async () => {
    const r = await subscribeVia('alice', ['hümbüǵ'], { principals: [id('admin')] });
    expect(r.body.subscribed).toEqual({ [id('admin')]: ['hümbüǵ'] });
  });

  it.each([
    [
      'test_subscription_add_invalid_principal_legacy_emails',
      'rosencrantz-and-guildenstern@zulip.com',
    ],
    ['test_subscription_add_invalid_principal', 999],
    // A user of another realm: here the Notification Bot, a cross-realm bot.
    ['test_subscription_add_principal_other_realm', () => z.org.notificationBotId!],
  ])('%s: No such user', async (_name, given) => {
    if (typeof given === 'function') expectSuccess(await subscribeVia('owner', ['make the bot']));
    const principal = typeof given === 'function' ? given() : given;
    expectError(
      await subscribeVia('alice', ['general'], { principals: [principal] }),
      'No such user',
    );
  });

  it('test_subscriptions_add_notification_default_none: new subscriptions inherit notification settings', async () => {
    expectSuccess(await subscribeVia('alice', ['Venice9'], { principals: [id('admin')] }));
    expect(await mySub('admin', 'Venice9')).toMatchObject({
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
      is_muted: false,
      pin_to_top: false,
    });
  });

  it('test_stream_subscriber_count_upon_bulk_subscription: counts grow once, other channels untouched', async () => {
    const names = ['stream_0', 'stream_1', 'stream_2'];
    for (const n of names) await makeChannel(n, []);
    const count = async (n: string): Promise<number> =>
      (await as('owner').get(`/streams/${ch(n).id}`)).body.stream.subscriber_count as number;
    const generalBefore = await count('general');
    const who = ['owner', 'alice', 'bob', 'admin'];
    expectSuccess(await subscribeVia('owner', names, { principals: who.map(id) }));
    for (const n of names) expect(await count(n)).toBe(4);
    expectSuccess(await subscribeVia('owner', names, { principals: who.map(id) }));
    for (const n of names) expect(await count(n)).toBe(4);
    expect(await count('general')).toBe(generalBefore);
  });

  it('test_stream_subscriber_count_upon_bulk_unsubscription: counts shrink once', async () => {
    const names = ['stream_0', 'stream_1'];
    const who = ['owner', 'alice', 'bob', 'admin'];
    for (const n of names) await makeChannel(n, who);
    const count = async (n: string): Promise<number> =>
      (await as('owner').get(`/streams/${ch(n).id}`)).body.stream.subscriber_count as number;
    for (let i = 0; i < 2; i++) {
      expectSuccess(
        await as('owner').delete('/users/me/subscriptions', {
          subscriptions: names,
          principals: who.map(id),
        }),
      );
      for (const n of names) expect(await count(n)).toBe(0);
    }
  });
});

describe('SubscriptionAPITest.test_notification_bot_dm_on_subscription: new_subscription_messages_sent', () => {
  it('true when at most 100 users are newly subscribed (FL 397+)', async () => {
    const r = await subscribeVia('owner', ['design'], {
      principals: ['owner', 'alice', 'bob', 'carol', 'admin', 'alan'].map(id),
      announce: true,
    });
    expectSuccess(r);
    expect(r.body.new_subscription_messages_sent).toBe(true);
    const r2 = await subscribeVia('owner', ['test B'], {
      principals: ['owner', 'alice'].map(id),
      announce: true,
    });
    expect(r2.body.new_subscription_messages_sent).toBe(true);
  });

  it('false above MAX_BULK_NEW_SUBSCRIPTION_MESSAGES (100) newly subscribed users', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 101; i++)
      ids.push(
        addUser(z.org, Date.now(), {
          email: `bulk${i}@zulip-cdk.example`,
          fullName: `Bulk ${i}`,
          role: ROLES.member,
        }).id,
      );
    const r = await subscribeVia('owner', ['test C'], { principals: ids });
    expectSuccess(r);
    expect(Object.keys(r.body.subscribed)).toHaveLength(101);
    expect(r.body.new_subscription_messages_sent).toBe(false);
  });

  it('absent with send_new_subscription_messages=false', async () => {
    const r = await subscribeVia('owner', ['test E'], {
      principals: ['alice', 'bob'].map(id),
      send_new_subscription_messages: false,
    });
    expectSuccess(r);
    expect(r.body).not.toHaveProperty('new_subscription_messages_sent');
  });

  it('absent before FL 397 (no such field yet)', async () => {
    await z.close();
    await start(396);
    const r = await subscribeVia('owner', ['test F'], { principals: [id('alice')] });
    expectSuccess(r);
    expect(r.body).not.toHaveProperty('new_subscription_messages_sent');
  });
});

describe('TestMiscStuff.test_pick_colors: colors of new subscriptions', () => {
  it('a user without subscriptions gets the palette in channel order, a requested color wins', async () => {
    const fresh = addUser(z.org, Date.now(), {
      email: 'fresh@zulip-cdk.example',
      fullName: 'Fresh',
      role: ROLES.member,
    });
    const names = ['c1', 'c2', 'c3', 'c4'];
    for (const n of names) await makeChannel(n, []);
    expectSuccess(
      await subscribeVia('owner', [...names.slice(0, 3), { name: 'c4', color: '#000000' }], {
        principals: [fresh.id],
      }),
    );
    const colors = names.map(
      (n) =>
        z.org.subscriptions.find((s) => s.userId === fresh.id && s.channelId === ch(n).id)!.color,
    );
    expect(colors).toEqual(['#76ce90', '#fae589', '#a6c7e5', '#000000']);
    // Colors the user already has are skipped.
    await makeChannel('c5', []);
    z.org.subscriptions.find((s) => s.userId === fresh.id && s.channelId === ch('c1').id)!.color =
      '#e79ab5';
    expectSuccess(await subscribeVia('owner', ['c5'], { principals: [fresh.id] }));
    expect(
      z.org.subscriptions.find((s) => s.userId === fresh.id && s.channelId === ch('c5').id)!.color,
    ).toBe('#76ce90');
  });

  it('a reactivated subscription keeps its color; an already active one is not recolored', async () => {
    expectSuccess(
      await as('alice').patch(`/users/me/subscriptions/${ch('engineering').id}`, {
        property: 'color',
        value: '#123456',
      }),
    );
    expectSuccess(
      await as('alice').delete('/users/me/subscriptions', { subscriptions: ['engineering'] }),
    );
    expectSuccess(await subscribeVia('alice', [{ name: 'engineering', color: '#abcdef' }]));
    expect((await mySub('alice', 'engineering')).color).toBe('#123456');
    expectSuccess(await subscribeVia('alice', [{ name: 'general', color: '#abcdef' }]));
    expect((await mySub('alice', 'general')).color).not.toBe('#abcdef');
  });
});

describe('SubscriptionAPITest: unsubscribing', () => {
  it('test_successful_subscriptions_remove: removed and not_removed, private channels included', async () => {
    const r = await as('alice').delete('/users/me/subscriptions', {
      subscriptions: ['engineering', 'announcements', 'design', 'leadership'],
    });
    expectSuccess(r);
    expect([...r.body.removed].sort()).toEqual(['announcements', 'engineering']);
    expect([...r.body.not_removed].sort()).toEqual(['design', 'leadership']);
    expect(await subscribedNames('alice')).toEqual(['general']);
  });

  it('test_subscriptions_remove_fake_stream: Channel(s) (...) do not exist', async () => {
    expectError(
      await as('alice').delete('/users/me/subscriptions', { subscriptions: ['general9'] }),
      'Channel(s) (general9) do not exist',
    );
    expectError(
      await as('alice').delete('/users/me/subscriptions', {
        subscriptions: [' nope1 ', 'general', 'nope2'],
      }),
      'Channel(s) (nope1, nope2) do not exist',
    );
    expect(isSubscribed('alice', 'general')).toBe(true);
  });

  it('remove_subscriptions_backend: subscriptions in archived channels can be removed (FL 362)', async () => {
    const r = await as('alice').delete('/users/me/subscriptions', {
      subscriptions: ['old-projects'],
    });
    expectSuccess(r);
    expect(r.body.removed).toEqual(['old-projects']);
  });

  it('bulk_principals_to_user_profiles: a deactivated principal fails the unsubscribe', async () => {
    user('bob').isActive = false;
    expectError(
      await as('admin').delete('/users/me/subscriptions', {
        subscriptions: ['general'],
        principals: [id('bob')],
      }),
      'User is deactivated',
    );
  });

  it('remove_subscriptions_backend has no guest check: a guest leaves a channel', async () => {
    const r = await as('guest').delete('/users/me/subscriptions', { subscriptions: ['general'] });
    expectSuccess(r);
    expect(r.body.removed).toEqual(['general']);
  });

  it('test_remove_invalid_user: No such user', async () => {
    await makeChannel('hümbüǵ', []);
    expectError(
      await as('admin').delete('/users/me/subscriptions', {
        subscriptions: ['hümbüǵ'],
        principals: [99],
      }),
      'No such user',
    );
  });

  it('test_user_unsubscribe_theirself: own ID as principal, twice', async () => {
    await makeChannel('hümbüǵ', ['admin']);
    const first = await as('admin').delete('/users/me/subscriptions', {
      subscriptions: ['hümbüǵ'],
      principals: [id('admin')],
    });
    expectSuccess(first);
    expect(first.body.removed).toHaveLength(1);
    const second = await as('admin').delete('/users/me/subscriptions', {
      subscriptions: ['hümbüǵ'],
      principals: [id('admin')],
    });
    expect(second.body.not_removed).toHaveLength(1);
  });

  it('test_removing_last_user_from_private_stream: the channel stays, with no subscribers', async () => {
    await makeChannel('private_stream', ['alice'], { invite_only: true });
    const q = await registerQueue('alice');
    const r = await as('alice').delete('/users/me/subscriptions', {
      subscriptions: ['private_stream'],
    });
    expect(r.body).toMatchObject({ removed: ['private_stream'], not_removed: [] });
    expect(ch('private_stream').isArchived).toBe(false);
    expect(await members('private_stream')).toEqual([]);
    // send_subscription_remove_events: the channel is deleted for a user who lost access to it.
    const evs = await events('alice', q);
    expect(evs.map((e) => `${e.type}/${e.op}`)).toEqual(['subscription/remove', 'stream/delete']);
    expect(evs[1].stream_ids).toEqual([ch('private_stream').id]);
  });
});

/**
 * StreamAdminTest.attempt_unsubscribe_of_principal: the acting user is an administrator (iago →
 * admin) or a member (hamlet → alice), subscribed or not, to a public or private channel;
 * the targets are subscribed or not.
 */
describe('StreamAdminTest: removing other users', () => {
  interface Row {
    actor: 'admin' | 'alice';
    subbed: boolean;
    priv: boolean;
    targets: string[];
    targetsSubbed: boolean;
    emails?: boolean;
    error?: string;
    removed?: number;
    notRemoved?: number;
  }
  const rows: Array<[string, Row]> = [
    [
      'test_cant_remove_other_users_from_stream',
      {
        actor: 'alice',
        subbed: true,
        priv: false,
        targets: ['bob'],
        targetsSubbed: true,
        error: 'Insufficient permission',
      },
    ],
    [
      'test_realm_admin_remove_others_from_public_stream',
      {
        actor: 'admin',
        subbed: true,
        priv: false,
        targets: ['bob'],
        targetsSubbed: true,
        removed: 1,
        notRemoved: 0,
      },
    ],
    [
      'test_realm_admin_remove_multiple_users_from_stream',
      {
        actor: 'admin',
        subbed: true,
        priv: false,
        targets: ['bob', 'carol', 'alan', 'alice', 'deploy-bot'],
        targetsSubbed: true,
        removed: 5,
        notRemoved: 0,
      },
    ],
    [
      'test_realm_admin_remove_others_from_subbed_private_stream',
      {
        actor: 'admin',
        subbed: true,
        priv: true,
        targets: ['bob'],
        targetsSubbed: true,
        removed: 1,
        notRemoved: 0,
      },
    ],
    [
      'test_realm_admin_remove_others_from_unsubbed_private_stream',
      {
        actor: 'admin',
        subbed: false,
        priv: true,
        targets: ['bob'],
        targetsSubbed: true,
        removed: 1,
        notRemoved: 0,
      },
    ],
    [
      'test_cant_remove_others_from_stream_legacy_emails',
      {
        actor: 'alice',
        subbed: true,
        priv: false,
        targets: ['bob'],
        targetsSubbed: true,
        emails: true,
        error: 'Insufficient permission',
      },
    ],
    [
      'test_admin_remove_others_from_stream_legacy_emails',
      {
        actor: 'admin',
        subbed: true,
        priv: false,
        targets: ['bob'],
        targetsSubbed: true,
        emails: true,
        removed: 1,
        notRemoved: 0,
      },
    ],
    [
      'test_admin_remove_multiple_users_from_stream_legacy_emails',
      {
        actor: 'admin',
        subbed: true,
        priv: false,
        targets: ['bob', 'carol'],
        targetsSubbed: true,
        emails: true,
        removed: 2,
        notRemoved: 0,
      },
    ],
    [
      'test_remove_already_not_subbed',
      {
        actor: 'admin',
        subbed: false,
        priv: false,
        targets: ['bob'],
        targetsSubbed: false,
        removed: 0,
        notRemoved: 1,
      },
    ],
  ];
  it.each(rows)('%s', async (_name, row) => {
    const subscribers = [
      ...(row.subbed ? [row.actor] : []),
      ...(row.targetsSubbed ? row.targets : []),
      ...(row.priv && !row.subbed ? ['dave'] : []),
    ];
    await makeChannel('hümbüǵ', [...new Set(subscribers)], { invite_only: row.priv });
    const r = await as(row.actor).delete('/users/me/subscriptions', {
      subscriptions: ['hümbüǵ'],
      principals: row.targets.map((t) => (row.emails ? user(t).email : id(t))),
    });
    if (row.error !== undefined) {
      expectError(r, row.error);
      for (const t of row.targets) expect(isSubscribed(t, 'hümbüǵ')).toBe(row.targetsSubbed);
      return;
    }
    expectSuccess(r);
    expect(r.body.removed).toHaveLength(row.removed!);
    expect(r.body.not_removed).toHaveLength(row.notRemoved!);
    for (const t of row.targets) expect(isSubscribed(t, 'hümbüǵ')).toBe(false);
  });

  it('test_remove_unsubbed_user_along_with_subbed', async () => {
    await makeChannel('hümbüǵ', ['admin', 'bob']);
    const r = await as('admin').delete('/users/me/subscriptions', {
      subscriptions: ['hümbüǵ'],
      principals: [id('bob'), id('alan')],
    });
    expect(r.body.removed).toEqual(['hümbüǵ']);
    expect(r.body.not_removed).toEqual(['hümbüǵ']);
  });

  it('test_bot_owner_can_remove_bot_from_stream', async () => {
    user('deploy-bot').botOwnerId = id('alice');
    await makeChannel('hümbüǵ', ['alice', 'deploy-bot']);
    expectSuccess(
      await as('alice').delete('/users/me/subscriptions', {
        subscriptions: ['hümbüǵ'],
        principals: [id('deploy-bot')],
      }),
    );
    expect(isSubscribed('deploy-bot', 'hümbüǵ')).toBe(false);
  });

  it('test_non_bot_owner_cannot_remove_bot_from_stream', async () => {
    await makeChannel('hümbüǵ', ['alice', 'deploy-bot']);
    expectError(
      await as('alice').delete('/users/me/subscriptions', {
        subscriptions: ['hümbüǵ'],
        principals: [id('deploy-bot')],
      }),
      'Insufficient permission',
    );
  });

  it('bulk_can_remove_subscribers_from_streams: a channel administrator may; can_remove_subscribers_group needs metadata access to every channel', async () => {
    await makeChannel('chan_a', ['bob'], { invite_only: true });
    await makeChannel('chan_b', ['bob']);
    const del = () =>
      as('alice').delete('/users/me/subscriptions', {
        subscriptions: ['chan_a', 'chan_b'],
        principals: [id('bob')],
      });
    ch('chan_b').settings.can_remove_subscribers_group = only('alice');
    ch('chan_a').settings.can_remove_subscribers_group = only('alice');
    // No metadata access to the private chan_a.
    expectError(await del(), 'Insufficient permission');
    // Administering both channels is enough, whatever can_remove_subscribers_group says.
    ch('chan_a').settings.can_administer_channel_group = only('alice');
    ch('chan_b').settings.can_administer_channel_group = only('alice');
    ch('chan_a').settings.can_remove_subscribers_group = group('role:nobody').id;
    ch('chan_b').settings.can_remove_subscribers_group = group('role:nobody').id;
    const r = await del();
    expectSuccess(r);
    expect([...r.body.removed].sort()).toEqual(['chan_a', 'chan_b']);
  });

  it('list_to_streams: the permission to remove others is checked before missing channels fail', async () => {
    expectError(
      await as('alice').delete('/users/me/subscriptions', {
        subscriptions: ['general', 'no_such_channel'],
        principals: [id('bob')],
      }),
      'Insufficient permission',
    );
  });
});

describe('InviteOnlyStreamTest.test_inviteonly', () => {
  it('creating, refused self-subscription, authorization_errors_fatal=false, can_subscribe_group, inviting', async () => {
    const created = await subscribeVia('alice', ['Saxony'], { invite_only: true });
    expect(created.body.subscribed).toEqual({ [id('alice')]: ['Saxony'] });
    expect(created.body.already_subscribed).toEqual({});

    expectError(await subscribeVia('bob', ['Saxony']), 'Unable to access channel (Saxony).');

    const soft = await subscribeVia('bob', ['Saxony'], { authorization_errors_fatal: false });
    expectSuccess(soft);
    expect(soft.body).toMatchObject({
      unauthorized: ['Saxony'],
      subscribed: {},
      already_subscribed: {},
    });

    ch('Saxony').settings.can_subscribe_group = only('bob');
    const joined = await subscribeVia('bob', ['Saxony']);
    expect(joined.body.subscribed).toEqual({ [id('bob')]: ['Saxony'] });

    // A subscriber may invite others (the realm's can_add_subscribers_group is role:members).
    const invited = await subscribeVia('alice', ['Saxony'], { principals: [id('carol')] });
    expectSuccess(invited);
    expect(invited.body.subscribed).toEqual({ [id('carol')]: ['Saxony'] });
    const list = await as('alice').get(`/streams/${ch('Saxony').id}/members`);
    expect([...list.body.subscribers].sort()).toEqual(['alice', 'bob', 'carol'].map(id).sort());
  });
});

/**
 * zerver/lib/streams.py filter_stream_authorization_for_adding_subscribers: content access
 * without any administrator bypass, then the right to add others (issue 11, item 2).
 */
describe('filter_stream_authorization_for_adding_subscribers (add_subscriptions_backend)', () => {
  it('an organization administrator not subscribed to a private channel cannot subscribe themself', async () => {
    expectError(
      await subscribeVia('alan', ['leadership']),
      'Unable to access channel (leadership).',
    );
    expect(isSubscribed('alan', 'leadership')).toBe(false);
  });

  it('an organization administrator cannot add others to a private channel they cannot access; the batch fails whole', async () => {
    const r = await subscribeVia('alan', ['design', 'leadership'], { principals: [id('alice')] });
    expectError(r, 'Unable to access channel (leadership).');
    expect(isSubscribed('alice', 'design')).toBe(false);
    expect(isSubscribed('alice', 'leadership')).toBe(false);
  });

  it('the owner, a channel administrator by creation, has no bypass either once unsubscribed', async () => {
    await makeChannel('secret', ['bob'], { invite_only: true });
    expect(ch('secret').settings.can_administer_channel_group).toEqual(only('owner'));
    expectError(
      await subscribeVia('owner', ['secret'], { principals: [id('carol')] }),
      'Unable to access channel (secret).',
    );
    ch('secret').settings.can_administer_channel_group = only('alice');
    expectError(await subscribeVia('alice', ['secret']), 'Unable to access channel (secret).');
  });

  it('authorization_errors_fatal=false: accessible channels proceed, the others are listed', async () => {
    const r = await subscribeVia('alan', ['leadership', 'design'], {
      principals: [id('alice')],
      authorization_errors_fatal: false,
    });
    expectSuccess(r);
    expect(r.body).toMatchObject({
      unauthorized: ['leadership'],
      subscribed: { [id('alice')]: ['design'] },
      already_subscribed: {},
    });
    expect(isSubscribed('alice', 'leadership')).toBe(false);
  });

  it('"Unable to access channel" names the first inaccessible channel of the request', async () => {
    await makeChannel('zeta', ['bob'], { invite_only: true });
    expectError(
      await subscribeVia('alice', ['general', 'zeta', 'leadership']),
      'Unable to access channel (zeta).',
    );
  });

  it("members of the channel's can_add_subscribers_group add others without being subscribed (FL 349)", async () => {
    ch('leadership').settings.can_add_subscribers_group = only('alice');
    const r = await subscribeVia('alice', ['leadership'], { principals: [id('bob')] });
    expectSuccess(r);
    expect(r.body.subscribed).toEqual({ [id('bob')]: ['leadership'] });
    expect(isSubscribed('alice', 'leadership')).toBe(false);
  });

  it("members of the channel's can_subscribe_group may join it", async () => {
    ch('leadership').settings.can_subscribe_group = only('alice');
    const r = await subscribeVia('alice', ['leadership']);
    expect(r.body.subscribed).toEqual({ [id('alice')]: ['leadership'] });
  });

  it("adding others needs the realm's can_add_subscribers_group, a channel administrator role or the channel's can_add_subscribers_group", async () => {
    z.org.realm.settings.can_add_subscribers_group = group('role:administrators').id;
    const add = (who: string) => subscribeVia(who, ['engineering'], { principals: [id('dave')] });
    expectError(await add('alice'), 'Insufficient permission');
    // Not a content-access problem: authorization_errors_fatal does not soften it.
    expectError(
      await subscribeVia('alice', ['engineering'], {
        principals: [id('dave')],
        authorization_errors_fatal: false,
      }),
      'Insufficient permission',
    );
    ch('engineering').settings.can_administer_channel_group = only('alice');
    expectSuccess(await add('alice'));
    ch('engineering').settings.can_administer_channel_group = group('role:nobody').id;
    ch('engineering').settings.can_add_subscribers_group = only('bob');
    expectSuccess(await subscribeVia('bob', ['engineering'], { principals: [id('erin')] }));
    expectSuccess(await add('admin'));
  });

  it('is_subscribing_other_users comes from the raw principals: an own email counts, an own ID does not', async () => {
    z.org.realm.settings.can_add_subscribers_group = group('role:administrators').id;
    expectSuccess(await subscribeVia('alice', ['design'], { principals: [id('alice')] }));
    expectError(
      await subscribeVia('alice', ['announcements'], { principals: [user('alice').email] }),
      'Insufficient permission',
    );
  });

  it('principals are resolved after the channels are authorized', async () => {
    expectError(
      await subscribeVia('alice', ['leadership'], { principals: [999999] }),
      'Unable to access channel (leadership).',
    );
    expectError(await subscribeVia('alice', ['general'], { principals: [999999] }), 'No such user');
  });

  it('an empty principals list subscribes the acting user', async () => {
    const r = await subscribeVia('alice', ['design'], { principals: [] });
    expect(r.body.subscribed).toEqual({ [id('alice')]: ['design'] });
  });
});

describe('test_subscription_settings.py SubscriptionPropertiesTest', () => {
  const props = (who: string, subscription_data: unknown, extra: Record<string, unknown> = {}) =>
    as(who).post('/users/me/subscriptions/properties', { subscription_data, ...extra });

  it('test_set_stream_color: only that subscription changes; an invalid color is refused', async () => {
    const before = (await as('alice').get('/users/me/subscriptions')).body.subscriptions as any[];
    const target = ch('engineering').id;
    expectSuccess(
      await props('alice', [{ property: 'color', stream_id: target, value: '#ffffff' }]),
    );
    const after = (await as('alice').get('/users/me/subscriptions')).body.subscriptions as any[];
    expect(after.find((s) => s.stream_id === target).color).toBe('#ffffff');
    expect(after.filter((s) => s.stream_id !== target)).toEqual(
      before.filter((s) => s.stream_id !== target),
    );
    expectError(
      await props('alice', [{ property: 'color', stream_id: target, value: '3ffrff' }]),
      'Invalid subscription_data[0]: Value error, color is not a valid hex color code',
    );
  });

  it('test_set_color_missing_stream_id', async () => {
    expectError(
      await props('alice', [{ property: 'color', value: '#ffffff' }]),
      'subscription_data[0]["stream_id"] field is missing: Field required',
    );
  });

  it('test_set_color_unsubscribed_stream_id', async () => {
    expectError(
      await props('alice', [{ property: 'color', stream_id: ch('design').id, value: '#ffffff' }]),
      `Not subscribed to channel ID ${ch('design').id}`,
    );
  });

  it('test_set_color_missing_color', async () => {
    expectError(
      await props('alice', [{ property: 'color', stream_id: ch('general').id }]),
      'subscription_data[0]["value"] field is missing: Field required',
    );
  });

  it.each([
    ['test_set_stream_wildcard_mentions_notify', 'wildcard_mentions_notify', true],
    ['test_set_pin_to_top', 'pin_to_top', true],
  ])('%s', async (_name, property, value) => {
    expectSuccess(await props('alice', [{ property, stream_id: ch('general').id, value }]));
    expect((await mySub('alice', 'general'))[property]).toBe(value);
  });

  it('test_change_is_muted: is_muted and the legacy in_home_view, two events each', async () => {
    const q = await registerQueue('alice');
    const general = ch('general').id;
    const steps: Array<[string, boolean, boolean]> = [
      ['is_muted', true, true],
      ['in_home_view', true, false],
      ['in_home_view', false, true],
    ];
    for (const [property, value, muted] of steps) {
      const before = (await events('alice', q)).length;
      expectSuccess(await props('alice', [{ property, value, stream_id: general }]));
      const evs = (await events('alice', q)).slice(before);
      expect(evs.map((e) => [e.property, e.value])).toEqual([
        ['in_home_view', !muted],
        ['is_muted', muted],
      ]);
      expect((await mySub('alice', 'general')).is_muted).toBe(muted);
    }
  });

  it.each([
    'is_muted',
    'in_home_view',
    'desktop_notifications',
    'audible_notifications',
    'push_notifications',
    'email_notifications',
    'wildcard_mentions_notify',
  ])('test_set_subscription_property_incorrect: %s "bad"', async (property) => {
    expectError(
      await props('alice', [{ property, value: 'bad', stream_id: ch('general').id }]),
      `${property} is not a boolean`,
    );
  });

  it('test_set_subscription_property_incorrect: color false', async () => {
    expectError(
      await props('alice', [{ property: 'color', value: false, stream_id: ch('general').id }]),
      'Invalid subscription_data[0]: Value error, color is not a valid hex color code',
    );
  });

  it('test_json_subscription_property_invalid_stream', async () => {
    expectError(
      await props('alice', [{ property: 'is_muted', stream_id: 1000, value: false }]),
      'Invalid channel ID',
    );
  });

  it('test_set_invalid_property', async () => {
    expectError(
      await props('alice', [{ property: 'bad', value: 'bad', stream_id: ch('general').id }]),
      'Unknown subscription property: bad',
    );
  });

  it('SubscriptionPropertyChangeRequest: every item is checked before any is applied', async () => {
    expectError(
      await props('alice', [
        { property: 'pin_to_top', value: true, stream_id: ch('general').id },
        { property: 'bad', value: true, stream_id: ch('general').id },
      ]),
      'Unknown subscription property: bad',
    );
    expect((await mySub('alice', 'general')).pin_to_top).toBe(false);
  });

  it('test_ignored_parameters_in_subscriptions_properties_endpoint', async () => {
    const r = await props(
      'alice',
      [{ property: 'wildcard_mentions_notify', stream_id: ch('general').id, value: true }],
      {
        invalid_parameter: [{ property: 'pin_to_top', stream_id: ch('general').id, value: false }],
      },
    );
    expectSuccess(r);
    expect(r.body.ignored_parameters_unsupported).toEqual(['invalid_parameter']);
  });

  it('update_subscription_properties_backend: access_stream_by_id refuses an administrator on an unsubscribed private channel and archived channels', async () => {
    expectError(
      await props('alan', [
        { property: 'pin_to_top', stream_id: ch('leadership').id, value: true },
      ]),
      'Invalid channel ID',
    );
    expectError(
      await props('alice', [
        { property: 'pin_to_top', stream_id: ch('old-projects').id, value: true },
      ]),
      'Invalid channel ID',
    );
  });
});

describe('test_users.py test_get_user_subscription_status (GET /users/{user_id}/subscriptions/{stream_id})', () => {
  const status = (who: string, userId: number, streamId: number) =>
    as(who).get(`/users/${userId}/subscriptions/${streamId}`);

  it('invalid user, invalid channel, then the status as it changes', async () => {
    expectError(await status('alice', 999999, ch('design').id), 'No such user');
    expectError(await status('alice', id('admin'), 999999), 'Invalid channel ID');
    expect((await status('alice', id('admin'), ch('design').id)).body.is_subscribed).toBe(false);
    expectSuccess(await subscribeVia('admin', ['design']));
    expect((await status('alice', id('admin'), ch('design').id)).body.is_subscribed).toBe(true);
  });

  it('a guest may ask about a web-public channel', async () => {
    await makeChannel('Rome', ['admin'], { is_web_public: true });
    const r = await status('guest', id('admin'), ch('Rome').id);
    expectSuccess(r);
    expect(r.body.is_subscribed).toBe(true);
  });

  it('private channels: an unsubscribed administrator may ask, an unsubscribed member may not', async () => {
    await makeChannel('private_stream', ['owner'], { invite_only: true });
    const pid = ch('private_stream').id;
    expect((await status('admin', id('admin'), pid)).body.is_subscribed).toBe(false);
    expectError(await status('alice', id('admin'), pid), 'Invalid channel ID');
    expectSuccess(await subscribeVia('owner', ['private_stream'], { principals: [id('alice')] }));
    expect((await status('alice', id('admin'), pid)).body.is_subscribed).toBe(false);
  });

  it('access_user_by_id: deactivated users are "User is deactivated"; bots are users from FL 458', async () => {
    expectError(await status('alice', id('former'), ch('general').id), 'User is deactivated');
    expect((await status('alice', id('deploy-bot'), ch('general').id)).body.is_subscribed).toBe(
      true,
    );
  });
});

describe('test_users.py test_get_user_channels (GET /users/{user_id}/channels, FL 440+)', () => {
  const channels = async (who: string, target: number): Promise<number[]> => {
    const r = await as(who).get(`/users/${target}/channels`);
    expectSuccess(r);
    return r.body.subscribed_channel_ids as number[];
  };

  it('invalid user; the list follows subscriptions; a guest sees web-public ones', async () => {
    expectError(await as('alice').get('/users/999999/channels'), 'No such user');
    await makeChannel('Rome', ['owner'], { is_web_public: true });
    expect(await channels('alice', id('admin'))).not.toContain(ch('Rome').id);
    expectSuccess(await subscribeVia('owner', ['Rome'], { principals: [id('admin')] }));
    expect(await channels('alice', id('admin'))).toContain(ch('Rome').id);
    expectSuccess(await subscribeVia('admin', ['design']));
    expect(await channels('alice', id('admin'))).toContain(ch('design').id);
    const forGuest = await channels('guest', id('admin'));
    expect(forGuest).toContain(ch('Rome').id);
    // get_metadata_access_streams: not the public channels a guest cannot see.
    expect(forGuest).not.toContain(ch('design').id);
  });

  it('only channels the caller has metadata access to', async () => {
    expect(await channels('alice', id('admin'))).not.toContain(ch('leadership').id);
    expect(await channels('alan', id('admin'))).toContain(ch('leadership').id);
  });

  it('access_user_by_id: deactivated users; bots before FL 458, allowed from FL 458', async () => {
    expectError(await as('alice').get(`/users/${id('former')}/channels`), 'User is deactivated');
    expect(await channels('alice', id('deploy-bot'))).toContain(ch('general').id);
    await z.close();
    await start(457);
    expectError(await as('alice').get(`/users/${id('deploy-bot')}/channels`), 'No such user');
    expectError(
      await as('alice').get(`/users/${id('deploy-bot')}/subscriptions/${ch('general').id}`),
      'No such user',
    );
  });
});

describe('test_channel_fetch.py: GET /streams/{stream_id}/members', () => {
  it('test_subscriber_private_stream: a subscriber and an administrator may, another member may not', async () => {
    expectSuccess(await subscribeVia('alice', ['Saxony'], { invite_only: true }));
    const sid = ch('Saxony').id;
    expect((await as('alice').get(`/streams/${sid}/members`)).body.subscribers).toEqual([
      id('alice'),
    ]);
    expectError(await as('bob').get(`/streams/${sid}/members`), 'Invalid channel ID');
    expectSuccess(await as('admin').get(`/streams/${sid}/members`));
  });

  it('test_json_get_subscribers_stream_not_exist', async () => {
    expectError(await as('alice').get('/streams/99999999/members'), 'Invalid channel ID');
  });

  it('test_json_get_subscribers_for_guest_user: web-public channels, not others', async () => {
    await makeChannel('Rome', ['admin', 'bob'], { is_web_public: true });
    const r = await as('guest').get(`/streams/${ch('Rome').id}/members`);
    expectSuccess(r);
    expect(r.body.subscribers.length).toBeGreaterThan(0);
    expectError(await as('guest').get(`/streams/${ch('design').id}/members`), 'Invalid channel ID');
  });

  it('get_subscribers_backend: an archived channel is "Invalid channel ID" (require_active_channel)', async () => {
    expectError(
      await as('owner').get(`/streams/${ch('old-projects').id}/members`),
      'Invalid channel ID',
    );
  });
});

/**
 * Register's subscription data for accounts that are not administrators (issue 11, item 9):
 * zerver/lib/subscription_info.py gather_subscriptions_helper and bulk_get_subscriber_user_ids.
 */
describe('gather_subscriptions_helper: register subscription lists', () => {
  async function lists(who: string): Promise<any> {
    const r = await as(who).post('/register', {
      fetch_event_types: ['subscription'],
      include_subscribers: true,
      client_capabilities: { notification_settings_null: true },
    });
    expectSuccess(r);
    return r.body;
  }
  const names = (xs: any[]): string[] => xs.map((x) => x.name);

  it('a member: every entry of the three lists carries subscribers, each list sorted by name', async () => {
    await makeChannel('Zed', []);
    await makeChannel('Alpha', ['bob']);
    expectSuccess(
      await as('alice').delete('/users/me/subscriptions', { subscriptions: ['engineering'] }),
    );
    const b = await lists('alice');
    expect(names(b.subscriptions)).toEqual(['announcements', 'general']);
    expect(names(b.unsubscribed)).toEqual(['engineering']);
    expect(names(b.never_subscribed)).toEqual(['Alpha', 'Zed', 'design']);
    for (const x of [...b.subscriptions, ...b.unsubscribed, ...b.never_subscribed])
      expect(Array.isArray(x.subscribers)).toBe(true);
    expect(b.never_subscribed.find((x: any) => x.name === 'Zed').subscribers).toEqual([]);
    expect(b.never_subscribed.find((x: any) => x.name === 'Alpha').subscribers).toEqual([
      id('bob'),
    ]);
  });

  it('a member sees a private channel, with its subscribers, through can_subscribe_group; not otherwise', async () => {
    expect(names((await lists('alice')).never_subscribed)).not.toContain('leadership');
    ch('leadership').settings.can_subscribe_group = only('alice');
    const entry = (await lists('alice')).never_subscribed.find((x: any) => x.name === 'leadership');
    expect([...entry.subscribers].sort()).toEqual([id('owner'), id('admin')].sort());
  });

  it('a member who left a private channel no longer has it in unsubscribed', async () => {
    await makeChannel('hush', ['alice', 'bob'], { invite_only: true });
    expectSuccess(await as('alice').delete('/users/me/subscriptions', { subscriptions: ['hush'] }));
    const b = await lists('alice');
    expect(names(b.unsubscribed)).not.toContain('hush');
    expect(names(b.never_subscribed)).not.toContain('hush');
    expect(names((await lists('admin')).never_subscribed)).toContain('hush');
  });

  it('a guest: subscribed channels with subscribers, never_subscribed only web-public channels', async () => {
    await makeChannel('Rome', ['bob'], { is_web_public: true });
    const b = await lists('guest');
    expect(names(b.subscriptions)).toEqual(['announcements', 'general']);
    expect(names(b.never_subscribed)).toEqual(['Rome']);
    expect(b.never_subscribed[0].subscribers).toEqual([id('bob')]);
    expect(b.subscriptions.find((x: any) => x.name === 'general').subscribers).toContain(
      id('alice'),
    );
  });

  it('subscription events add the subscriber list as the new subscriber may see it', async () => {
    const q = await registerQueue('dave');
    expectSuccess(await subscribeVia('alice', ['engineering'], { principals: [id('dave')] }));
    const add = (await events('dave', q)).find((e) => e.op === 'add');
    expect([...add.subscriptions[0].subscribers].sort()).toEqual(
      ['owner', 'moderator', 'alice', 'bob', 'carol', 'deploy-bot', 'dave'].map(id).sort(),
    );
  });
});

/**
 * A named user group made directly in the organization (arrangement only). Objects of the
 * organization are looked up again after each request: a failed request restores a copy.
 */
function addGroup(name: string, memberLocals: string[], subgroups: number[] = []): number {
  const gid = nextId(z.org);
  z.org.groups.push({
    id: gid,
    name,
    description: '',
    isSystemGroup: false,
    members: memberLocals.map(id),
    subgroups,
    deactivated: false,
    creatorId: null,
    dateCreated: null,
    settings: {},
  });
  return gid;
}

/**
 * test_channel_permissions.py (Zulip main, FL 442): who may subscribe, subscribe others and
 * unsubscribe others. shiva (moderator) is moderator here, othello bob, cordelia carol/dave,
 * desdemona owner, iago admin, hamlet alice.
 */
describe('test_channel_permissions.py ChannelSubscriptionPermissionTest', () => {
  const nobody = () => group('role:nobody').id;

  it('test_stream_settings_for_subscribing: public channels are open to members whatever the settings; guests never', async () => {
    await makeChannel('public_stream', []);
    z.org.realm.settings.can_add_subscribers_group = nobody();
    ch('public_stream').settings.can_add_subscribers_group = nobody();
    ch('public_stream').settings.can_subscribe_group = nobody();
    for (const who of ['owner', 'moderator', 'alice', 'bob']) {
      expectSuccess(await subscribeVia(who, ['public_stream']));
      expect(isSubscribed(who, 'public_stream')).toBe(true);
    }
    for (const setting of [
      'can_subscribe_group',
      'can_add_subscribers_group',
      'can_administer_channel_group',
    ]) {
      ch('public_stream').settings[setting] = only('guest');
      expectError(await subscribeVia('guest', ['public_stream']), 'Not allowed for guest users');
      ch('public_stream').settings[setting] = nobody();
    }
  });

  it('test_stream_settings_for_subscribing: private channels follow can_subscribe_group / can_add_subscribers_group, never can_administer_channel_group', async () => {
    await makeChannel('private_stream', ['admin'], { invite_only: true });
    const refused = 'Unable to access channel (private_stream).';
    const check = async (who: string, ok: boolean): Promise<void> => {
      const r = await subscribeVia(who, ['private_stream']);
      if (!ok) {
        expectError(r, refused);
        return;
      }
      expectSuccess(r);
      expectSuccess(
        await as(who).delete('/users/me/subscriptions', { subscriptions: ['private_stream'] }),
      );
    };
    for (const who of ['owner', 'moderator', 'alice', 'bob']) await check(who, false);
    ch('private_stream').settings.can_subscribe_group = group('role:owners').id;
    for (const [who, ok] of [
      ['moderator', false],
      ['alice', false],
      ['owner', true],
    ] as const)
      await check(who, ok);
    ch('private_stream').settings.can_subscribe_group = addGroup('hamletcharacters', ['alice']);
    for (const [who, ok] of [
      ['owner', false],
      ['alice', true],
    ] as const)
      await check(who, ok);
    const mixed = { direct_members: [id('bob')], direct_subgroups: [group('role:owners').id] };
    ch('private_stream').settings.can_subscribe_group = mixed;
    for (const [who, ok] of [
      ['alice', false],
      ['bob', true],
      ['owner', true],
    ] as const)
      await check(who, ok);
    ch('private_stream').settings.can_subscribe_group = nobody();
    ch('private_stream').settings.can_add_subscribers_group = mixed;
    for (const [who, ok] of [
      ['moderator', false],
      ['bob', true],
      ['owner', true],
    ] as const)
      await check(who, ok);
    ch('private_stream').settings.can_add_subscribers_group = nobody();
    ch('private_stream').settings.can_administer_channel_group = mixed;
    for (const who of ['moderator', 'alice', 'bob', 'owner']) await check(who, false);
  });

  it('test_stream_settings_for_subscribing_other_users: channel can_add_subscribers_group and can_administer_channel_group', async () => {
    z.org.realm.settings.can_add_subscribers_group = nobody();
    const add = (who: string, name: string, principals = ['dave']) =>
      subscribeVia(who, [name], { principals: principals.map(id) });
    const undo = async (name: string): Promise<void> => {
      expectSuccess(
        await as('owner').delete('/users/me/subscriptions', {
          subscriptions: [name],
          principals: [id('dave')],
        }),
      );
    };
    await makeChannel('stream1', []);
    ch('stream1').settings.can_add_subscribers_group = nobody();
    expectError(await add('alice', 'stream1'), 'Insufficient permission');
    expectSuccess(await add('admin', 'stream1'));

    await makeChannel('stream2', []);
    ch('stream2').settings.can_add_subscribers_group = group('role:moderators').id;
    expectError(await add('alice', 'stream2'), 'Insufficient permission');
    expectSuccess(await add('moderator', 'stream2'));
    await undo('stream2');
    ch('stream2').settings.can_add_subscribers_group = group('role:members').id;
    expectSuccess(await add('alice', 'stream2', ['alice', 'dave']));
    await undo('stream2');
    ch('stream2').settings.can_add_subscribers_group = nobody();
    ch('stream2').settings.can_administer_channel_group = group('role:members').id;
    expectSuccess(await add('bob', 'stream2', ['bob', 'dave']));
    await undo('stream2');
    ch('stream2').settings.can_administer_channel_group = nobody();
    ch('stream2').settings.can_add_subscribers_group = addGroup('named_user_group', ['carol']);
    expectSuccess(await add('carol', 'stream2'));
    await undo('stream2');
    ch('stream2').settings.can_add_subscribers_group = only('carol');
    expectSuccess(await add('carol', 'stream2'));

    await makeChannel('private_stream', [], { invite_only: true });
    ch('private_stream').settings.can_add_subscribers_group = group('role:members').id;
    expectSuccess(await add('carol', 'private_stream'));
    expect(isSubscribed('carol', 'private_stream')).toBe(false);
    ch('private_stream').settings.can_add_subscribers_group = nobody();
    ch('private_stream').settings.can_administer_channel_group = group('role:members').id;
    expectError(
      await add('carol', 'private_stream', ['erin']),
      'Unable to access channel (private_stream).',
    );
  });

  it('test_realm_settings_for_subscribing_other_users: the realm can_add_subscribers_group', async () => {
    z.org.realm.settings.can_add_subscribers_group = group('role:administrators').id;
    // A creator may subscribe others to the channel they create.
    expectSuccess(
      await subscribeVia('moderator', ['stream1'], {
        principals: [id('dave')],
        can_administer_channel_group: group('role:administrators').id,
      }),
    );
    expectError(
      await subscribeVia('moderator', ['stream1'], { principals: [id('erin')] }),
      'Insufficient permission',
    );
    z.org.realm.settings.can_add_subscribers_group = group('role:nobody').id;
    ch('stream1').settings.can_add_subscribers_group = group('role:nobody').id;
    expectSuccess(await subscribeVia('admin', ['stream1'], { principals: [id('erin')] }));

    z.org.realm.settings.can_add_subscribers_group = group('role:moderators').id;
    await makeChannel('stream2', []);
    expectError(
      await subscribeVia('alice', ['stream2'], { principals: [id('dave')] }),
      'Insufficient permission',
    );
    expectSuccess(await subscribeVia('moderator', ['stream2'], { principals: [id('dave')] }));

    z.org.realm.settings.can_add_subscribers_group = group('role:members').id;
    expectError(
      await subscribeVia('guest', ['stream2'], { principals: [id('dave')] }),
      'Not allowed for guest users',
    );
    expectSuccess(
      await subscribeVia('alice', ['stream2'], { principals: [id('alice'), id('erin')] }),
    );
    z.org.realm.settings.can_add_subscribers_group = addGroup('named_user_group', ['bob']);
    expectSuccess(await subscribeVia('bob', ['stream2'], { principals: [id('carol')] }));
    z.org.realm.settings.can_add_subscribers_group = only('carol');
    expectSuccess(await subscribeVia('carol', ['stream2'], { principals: [id('bob')] }));
  });

  it('test_can_remove_subscribers_group: named, nested and anonymous groups, metadata access, several channels', async () => {
    const leadership = addGroup('leadership', ['admin', 'moderator']);
    const managers = addGroup('managers', ['alice'], [leadership]);
    await makeChannel('public_stream', []);
    const check = async (
      who: string,
      setting: StoredGroupSetting | null,
      ok: boolean,
      channels = ['public_stream'],
    ): Promise<void> => {
      for (const n of channels) {
        // Arranged by a subscriber: nobody may add to a private channel they cannot access.
        const by = n === 'private_stream' ? 'alice' : 'owner';
        expectSuccess(await subscribeVia(by, [n], { principals: [id('carol')] }));
        if (setting !== null) ch(n).settings.can_remove_subscribers_group = setting;
      }
      const r = await as(who).delete('/users/me/subscriptions', {
        subscriptions: channels,
        principals: [id('carol')],
      });
      if (!ok) {
        expectError(r, 'Insufficient permission');
        return;
      }
      expectSuccess(r);
      expect(r.body.removed).toHaveLength(channels.length);
      expect(r.body.not_removed).toHaveLength(0);
    };
    await check('alice', leadership, false);
    await check('admin', leadership, true);
    await check('owner', leadership, true);
    await check('bob', managers, false);
    await check('moderator', managers, true);
    await check('alice', managers, true);

    await makeChannel('private_stream', ['alice'], { invite_only: true });
    await check('moderator', leadership, false, ['private_stream']);
    await check('admin', leadership, true, ['private_stream']);
    expectSuccess(
      await subscribeVia('alice', ['private_stream'], { principals: [id('moderator')] }),
    );
    await check('moderator', leadership, true, ['private_stream']);
    const anon = { direct_members: [id('alice')], direct_subgroups: [leadership] };
    await check('bob', anon, false, ['private_stream']);
    await check('alice', anon, true, ['private_stream']);
    await check('moderator', anon, true, ['private_stream']);
    await check('owner', only('alice'), true, ['private_stream']);

    // Administering every channel of the request is enough; administering one is not.
    await makeChannel('private_stream_2', []);
    ch('private_stream').settings.can_administer_channel_group = only('bob');
    await check('bob', only('alice'), false, ['private_stream', 'private_stream_2']);
    ch('private_stream_2').settings.can_administer_channel_group = only('bob');
    await check('bob', only('alice'), true, ['private_stream', 'private_stream_2']);
  });
});
