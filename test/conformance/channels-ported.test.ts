/**
 * Channel creation and access cases of Zulip's test_subs.py, test_channel_creation.py and
 * test_channel_access.py (feature level 442) whose functions Zulip tests directly; ported onto
 * the endpoints that run them. Zulip's users: hamlet/cordelia/aaron are alice/bob/carol, iago
 * is admin, desdemona is owner, polonius is guest, prospero is dave.
 */
import { expectError, expectSuccess } from '../support/emulator-client';
import { World } from './channels-support';

let w: World;
beforeEach(async () => {
  w = await World.start();
});
afterEach(() => w.close());

const EVERYONE = [
  'owner',
  'admin',
  'alan',
  'moderator',
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'guest',
  'deploy-bot',
];

/** Registers a `stream` queue for each demo user; returns who got a `stream/create` of `name`. */
async function createdFor(make: () => Promise<unknown>, name: string): Promise<string[]> {
  const queues = new Map<string, string>();
  for (const local of EVERYONE) {
    const r = await w.as(local).post('/register', { event_types: JSON.stringify(['stream']) });
    expectSuccess(r);
    queues.set(local, r.body.queue_id as string);
  }
  await make();
  const got: string[] = [];
  for (const [local, queue] of queues) {
    const r = await w
      .as(local)
      .get('/events', { queue_id: queue, last_event_id: -1, dont_block: true });
    const events = r.body.events as Array<{
      type: string;
      op?: string;
      streams?: { name: string }[];
    }>;
    if (
      events.some((e) => e.type === 'stream' && e.op === 'create' && e.streams?.[0]?.name === name)
    )
      got.push(local);
  }
  return got.sort();
}

describe('test_channel_creation.py TestCreateStreams.test_creating_streams / test_channel_access.py test_can_access_stream_metadata_user_ids (who is told of a new channel)', () => {
  it('a public channel: every active user but guests', async () => {
    const got = await createdFor(
      () => w.as('owner').post('/channels/create', { name: 'Public stream', subscribers: '[]' }),
      'Public stream',
    );
    expect(got).toEqual(EVERYONE.filter((l) => l !== 'guest').sort());
  });

  it('a private channel: administrators and the members of its administer, add-subscribers and subscribe groups', async () => {
    const one = (l: string) =>
      JSON.stringify({ direct_members: [w.user(l).id], direct_subgroups: [] });
    const got = await createdFor(
      () =>
        w.as('owner').post('/channels/create', {
          name: 'Private stream',
          subscribers: '[]',
          invite_only: 'true',
          can_administer_channel_group: one('carol'),
          can_add_subscribers_group: one('dave'),
          can_subscribe_group: one('bob'),
        }),
      'Private stream',
    );
    expect(got).toEqual(['admin', 'alan', 'bob', 'carol', 'dave', 'owner']);
  });

  it('a private channel with no subscribers and the default settings: administrators only (the creator is one)', async () => {
    const got = await createdFor(
      () =>
        w.as('owner').post('/channels/create', {
          name: 'private_stream',
          subscribers: '[]',
          invite_only: 'true',
        }),
      'private_stream',
    );
    expect(got).toEqual(['admin', 'alan', 'owner']);
  });
});

describe('test_channel_access.py AccessStreamTest.test_has_content_access (GET /get_stream_id)', () => {
  it('guests: web-public channels; members: public ones subscribed or not, private ones when subscribed', async () => {
    await w.create('web_public_stream', { extra: { is_web_public: true } });
    await w.create('private_stream', { private: true, subscribers: ['owner', 'carol'] });
    await w.create('public_stream');
    const get = (who: string, name: string) => w.as(who).get('/get_stream_id', { stream: name });
    expectSuccess(await get('guest', 'web_public_stream'));
    expectSuccess(await get('carol', 'private_stream'));
    expectError(await get('bob', 'private_stream'), "Invalid channel name 'private_stream'");
    expectSuccess(await get('bob', 'public_stream'));
    expectError(await get('guest', 'public_stream'), "Invalid channel name 'public_stream'");
  });
});

describe('test_subs.py StreamAdminTest.test_you_must_be_realm_admin (DELETE /streams/{id})', () => {
  it('an ID that is no channel of the organization: "Invalid channel ID", administrators too', async () => {
    const notAChannel = w.group('backend').id;
    expectError(await w.as('alice').delete(`/streams/${notAChannel}`), 'Invalid channel ID');
    expectError(await w.as('admin').delete(`/streams/${notAChannel}`), 'Invalid channel ID');
  });
});

describe('test_subs.py SubscriptionAPITest.test_must_be_subbed_to_send', () => {
  it('a private channel made by subscribing: another member may not send to it', async () => {
    expectSuccess(
      await w.as('alice').post('/users/me/subscriptions', {
        subscriptions: JSON.stringify([{ name: 'Saxony' }]),
        invite_only: 'true',
      }),
    );
    expectError(
      await w.as('bob').post('/messages', {
        type: 'stream',
        to: 'Saxony',
        topic: 'test',
        content: 'test',
      }),
      "Not authorized to send to channel 'Saxony'",
    );
  });
});

describe('test_subs.py SubscriptionAPITest.test_create_web_public_stream (list_to_streams)', () => {
  const three = JSON.stringify(
    ['new1', 'new2', 'new3'].map((name, i) => ({ name, description: `des${i + 1}` })),
  );
  const attempt = (who: string) =>
    w.as(who).post('/users/me/subscriptions', { subscriptions: three, is_web_public: 'true' });
  it('members refused; disabled for owners too; owners create them with their descriptions', async () => {
    expectError(await attempt('alice'), 'Insufficient permission');
    w.z.org.realm.webPublicStreamsEnabled = false;
    expectError(await attempt('owner'), 'Web-public channels are not enabled.');
    w.z.org.realm.webPublicStreamsEnabled = true;
    expectSuccess(await attempt('owner'));
    expect(['new1', 'new2', 'new3'].map((n) => [w.ch(n).description, w.ch(n).isWebPublic])).toEqual(
      [
        ['des1', true],
        ['des2', true],
        ['des3', true],
      ],
    );
  });
});

describe('test_subs.py GetStreamsTest.test_empty_results (do_get_streams)', () => {
  it('nothing included: no channels', async () => {
    const res = await w.as('bob').get('/streams', {
      include_public: 'false',
      include_subscribed: 'false',
      include_all: 'false',
      include_default: 'false',
    });
    expectSuccess(res);
    expect(res.body.streams).toEqual([]);
  });
});

describe('test_channel_creation.py test_create_api_topic_permalink_description (the half without access)', () => {
  it('a topic link to a channel the creator cannot see stays text', async () => {
    await w.create('core', { private: true, subscribers: ['alice'] });
    expectSuccess(
      await w.as('admin').post('/users/me/subscriptions', {
        subscriptions: JSON.stringify([{ name: 'stream1', description: '#**core>testing**' }]),
      }),
    );
    const got = (await w.as('admin').get(`/streams/${w.ch('stream1').id}`)).body.stream;
    expect(got.rendered_description).toBe('<p>#<strong>core&gt;testing</strong></p>');
  });
});

describe('test_subs.py StreamAdminTest.test_private_stream_live_updates', () => {
  it('a private channel: its description and name updates go to its subscribers (and administrators), not to other members', async () => {
    const id = await w.create('private_stream', { private: true, subscribers: ['alice', 'bob'] });
    const queues = new Map<string, string>();
    for (const local of ['alice', 'bob', 'dave']) {
      const r = await w.as(local).post('/register', { event_types: JSON.stringify(['stream']) });
      queues.set(local, r.body.queue_id as string);
    }
    expectSuccess(await w.as('owner').patch(`/streams/${id}`, { description: 'Test description' }));
    expectSuccess(await w.as('owner').patch(`/streams/${id}`, { new_name: 'whatever' }));
    for (const [local, queue] of queues) {
      const r = await w
        .as(local)
        .get('/events', { queue_id: queue, last_event_id: -1, dont_block: true });
      const props = (r.body.events as Array<{ op?: string; property?: string }>)
        .filter((e) => e.op === 'update')
        .map((e) => e.property);
      expect([local, props]).toEqual([local, local === 'dave' ? [] : ['description', 'name']]);
    }
  });
});
