import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, validationStats } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

/**
 * Drives the endpoints zulip-cdk uses through their success paths; the client validates every
 * response against zulip.yaml, so any shape the yaml rejects fails here.
 */
describe.each([372, 421, 478])('responses match zulip.yaml at feature level %i', (level) => {
  let z: Emulator;
  let owner: TestClient;
  beforeAll(async () => {
    z = await startEmulator({ featureLevel: level, rateLimit: false });
    owner = clientFor(z, 'owner');
  });
  afterAll(() => z.close());

  const channelId = (name: string): number => z.org.channels.find((c) => c.name === name)!.id;

  test('reads', async () => {
    for (const [path, params] of [
      ['/users', {}],
      ['/users/me', {}],
      [`/users/${z.org.users[0]!.id}`, {}],
      ['/users/alice@zulip-cdk.example', {}],
      ['/streams', { include_all: true, exclude_archived: false, include_default: true }],
      [`/streams/${channelId('general')}`, {}],
      [`/streams/${channelId('general')}/members`, {}],
      ['/get_stream_id', { stream: 'general' }],
      ['/users/me/subscriptions', { include_subscribers: true }],
      ['/user_groups', { include_deactivated_groups: true }],
      ['/realm/linkifiers', {}],
      ['/saved_snippets', {}],
      ['/server_settings', {}],
    ] as const) {
      const r = await owner.get(path, params);
      expect([path, r.status]).toEqual([path, 200]);
    }
    const g = z.org.groups.find((x) => x.name === 'engineering')!;
    expect((await owner.get(`/user_groups/${g.id}/members`)).status).toBe(200);
    expect((await owner.get(`/user_groups/${g.id}/subgroups`)).status).toBe(200);
    const alice = z.org.users.find((u) => u.email.startsWith('alice'))!;
    expect((await owner.get(`/user_groups/${g.id}/members/${alice.id}`)).status).toBe(200);
    expect(
      (await owner.get(`/users/${alice.id}/subscriptions/${channelId('general')}`)).body
        .is_subscribed,
    ).toBe(true);
  });

  test('register with everything, then delete the queue', async () => {
    const r = await owner.post('/register', {
      fetch_event_types: [
        'realm',
        'realm_user',
        'realm_user_groups',
        'subscription',
        'default_streams',
        'realm_linkifiers',
        'realm_playgrounds',
        'saved_snippets',
        'channel_folders',
        'stream',
      ],
      include_subscribers: true,
      client_capabilities: {
        notification_settings_null: true,
        linkifier_url_template: true,
        include_deactivated_groups: true,
        archived_channels: true,
        empty_topic_name: true,
        user_list_incomplete: false,
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.zulip_feature_level).toBe(level);
    expect(r.body.realm_linkifiers).toHaveLength(1);
    const d = await owner.delete('/events', { queue_id: r.body.queue_id });
    expect(d.status).toBe(200);
  });

  test('writes', async () => {
    const alice = z.org.users.find((u) => u.email.startsWith('alice'))!;
    const bob = z.org.users.find((u) => u.email.startsWith('bob'))!;
    let r = await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: `new-${level}`, description: 'fresh' }],
      principals: [alice.id, bob.id, z.org.users[0]!.id],
    });
    expect(r.status).toBe(200);
    expect(r.body.subscribed[String(alice.id)]).toEqual([`new-${level}`]);
    const id = channelId(`new-${level}`);
    r = await owner.patch(`/streams/${id}`, {
      description: 'changed',
      can_remove_subscribers_group: {
        new: z.org.groups.find((g) => g.name === 'role:moderators')!.id,
      },
    });
    expect(r.status).toBe(200);
    r = await owner.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: id, property: 'pin_to_top', value: true }],
    });
    expect(r.status).toBe(200);
    r = await owner.delete('/users/me/subscriptions', {
      subscriptions: [`new-${level}`],
      principals: [bob.id],
    });
    expect(r.body.removed).toEqual([`new-${level}`]);
    r = await owner.post('/default_streams', { stream_id: id });
    expect(r.status).toBe(200);
    r = await owner.delete('/default_streams', { stream_id: id });
    expect(r.status).toBe(200);
    r = await owner.post('/user_groups/create', {
      name: `g-${level}`,
      description: 'd',
      members: [alice.id],
    });
    expect(r.status).toBe(200);
    const gid = r.body.group_id as number;
    expect((await owner.patch(`/user_groups/${gid}`, { description: 'x' })).status).toBe(200);
    expect((await owner.post(`/user_groups/${gid}/members`, { add: [bob.id] })).status).toBe(200);
    const design = z.org.groups.find((g) => g.name === 'design')!;
    expect((await owner.post(`/user_groups/${gid}/subgroups`, { add: [design.id] })).status).toBe(
      200,
    );
    expect((await owner.post(`/user_groups/${gid}/deactivate`)).status).toBe(200);
    r = await owner.post('/realm/filters', {
      pattern: 'JIRA-(?P<id>[0-9]+)',
      url_template: 'https://jira/{id}',
    });
    expect(r.status).toBe(200);
    const lid = r.body.id as number;
    expect(
      (
        await owner.patch(`/realm/filters/${lid}`, {
          pattern: 'JIRA-(?P<id>[0-9]+)',
          url_template: 'https://jira2/{id}',
        })
      ).status,
    ).toBe(200);
    const ids = z.org.linkifiers.map((l) => l.id).reverse();
    expect((await owner.patch('/realm/linkifiers', { ordered_linkifier_ids: ids })).status).toBe(
      200,
    );
    expect((await owner.delete(`/realm/filters/${lid}`)).status).toBe(200);
    r = await owner.post('/realm/playgrounds', {
      name: 'Rust',
      pygments_language: 'rust',
      url_template: 'https://play.rust-lang.org/?code={code}',
    });
    expect(r.status).toBe(200);
    expect((await owner.delete(`/realm/playgrounds/${r.body.id}`)).status).toBe(200);
    r = await owner.post('/saved_snippets', { title: 't', content: 'c' });
    expect(r.status).toBe(200);
    expect(
      (await owner.patch(`/saved_snippets/${r.body.saved_snippet_id}`, { title: 'u' })).status,
    ).toBe(200);
    expect((await owner.delete(`/saved_snippets/${r.body.saved_snippet_id}`)).status).toBe(200);
    const carol = z.org.users.find((u) => u.email.startsWith('carol'))!;
    expect(
      (await owner.patch(`/users/${carol.id}`, { role: 300, full_name: 'Carol M' })).status,
    ).toBe(200);
    expect((await owner.delete(`/streams/${id}`)).status).toBe(200);
  });

  test('errors match the yaml too', async () => {
    expect((await owner.get('/streams/999999')).status).toBe(400);
    expect(
      (await owner.post('/user_groups/create', { name: 'x', description: 'd' })).body.code,
    ).toBe('REQUEST_VARIABLE_MISSING');
    expect(
      (await owner.delete('/users/me/subscriptions', { subscriptions: ['nope'] })).body.msg,
    ).toBe('Channel(s) (nope) do not exist');
  });
});

afterAll(() => {
  expect(validationStats.checked).toBeGreaterThan(50);
});
