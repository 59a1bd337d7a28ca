import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let owner: TestClient;
let alice: TestClient;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false, heartbeatMs: 200 });
  owner = clientFor(z, 'owner');
  alice = clientFor(z, 'alice');
});
afterEach(() => z.close());

const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const group = (name: string) => z.org.groups.find((g) => g.name === name)!;

async function register(c: TestClient, params: Record<string, unknown> = {}): Promise<string> {
  const r = await c.post('/register', { fetch_event_types: ['realm'], ...params });
  return r.body.queue_id as string;
}

interface Ev {
  id: number;
  type: string;
  op?: string;
  property?: string;
}

async function drain(c: TestClient, queue: string): Promise<Ev[]> {
  const r = await c.get('/events', { queue_id: queue, last_event_id: -1, dont_block: true });
  expectSuccess(r);
  return r.body.events as Ev[];
}

describe('events (validated against the yaml event schemas)', () => {
  test('channel, subscription, group, linkifier, playground, snippet and user events', async () => {
    const q = await register(owner, {
      client_capabilities: { notification_settings_null: true, linkifier_url_template: true },
    });
    const qa = await register(alice);
    const created = await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'evented' }],
      principals: [user('owner').id, user('alice').id],
    });
    expectSuccess(created);
    const id = z.org.channels.find((c) => c.name === 'evented')!.id;
    await owner.patch(`/streams/${id}`, {
      description: 'new **desc**',
      new_name: 'evented-2',
      can_send_message_group: { new: group('role:members').id },
    });
    await owner.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: id, property: 'is_muted', value: true }],
    });
    await owner.delete('/users/me/subscriptions', {
      subscriptions: ['evented-2'],
      principals: [user('alice').id],
    });
    await owner.post('/default_streams', { stream_id: id });
    const g = (
      await owner.post('/user_groups/create', { name: 'ev', description: '', members: [] })
    ).body.group_id;
    await owner.patch(`/user_groups/${g}`, { description: 'changed' });
    await owner.post(`/user_groups/${g}/members`, { add: [user('bob').id] });
    await owner.post(`/user_groups/${g}/subgroups`, { add: [group('design').id] });
    await owner.post(`/user_groups/${g}/deactivate`);
    await owner.post('/realm/filters', {
      pattern: 'E(?P<id>[0-9]+)',
      url_template: 'https://e/{id}',
    });
    await owner.post('/realm/playgrounds', {
      name: 'Go',
      pygments_language: 'go',
      url_template: 'https://go.dev/play/?c={code}',
    });
    const sn = (await owner.post('/saved_snippets', { title: 't', content: 'c' })).body
      .saved_snippet_id;
    await owner.delete(`/saved_snippets/${sn}`);
    await owner.patch(`/users/${user('carol').id}`, { role: 300 });
    await owner.delete(`/streams/${id}`);

    const events = await drain(owner, q);
    const kinds = events.map(
      (e) => `${e.type}${e.op ? `/${e.op}` : ''}${e.property ? `:${e.property}` : ''}`,
    );
    expect(kinds).toEqual([
      'stream/create',
      'subscription/add',
      'stream/update:description',
      'stream/update:name',
      'stream/update:can_send_message_group',
      'subscription/update:in_home_view',
      'subscription/update:is_muted',
      'subscription/peer_remove',
      'default_streams',
      'user_group/add',
      'user_group/update',
      'user_group/add_members',
      'user_group/add_subgroups',
      'user_group/remove',
      'realm_linkifiers',
      'realm_playgrounds',
      'saved_snippets/add',
      'saved_snippets/remove',
      'realm_user/update',
      // do_change_user_role: the member leaves role:members and role:fullmembers, joins
      // role:moderators (test/conformance/events.test.ts checks the details).
      'user_group/remove_members',
      'user_group/add_members',
      'user_group/remove_members',
      // do_deactivate_stream removes the default channel first.
      'default_streams',
      'stream/delete',
    ]);
    expect(events.map((e) => e.id)).toEqual(events.map((_e, i) => i));
    const aliceKinds = (await drain(alice, qa)).map((e) => `${e.type}/${e.op ?? ''}`);
    expect(aliceKinds).toContain('subscription/remove');
    expect(aliceKinds).not.toContain('realm_linkifiers/');
    expect(aliceKinds).not.toContain('saved_snippets/add');
  });

  test('a rolled-back request sends nothing; a no-op setting change sends nothing', async () => {
    const q = await register(owner);
    await owner.post(`/user_groups/${group('design').id}/members`, {
      add: [user('carol').id, user('dave').id],
    });
    const designCh = z.org.channels.find((c) => c.name === 'design')!.id;
    await owner.patch(`/streams/${designCh}`, {
      can_send_message_group: { new: group('role:everyone').id },
    });
    expect(await drain(owner, q)).toEqual([]);
  });

  test('long-polling: an event wakes a waiting GET /events; otherwise a heartbeat', async () => {
    const q = await register(owner);
    const hb = await owner.get('/events', { queue_id: q, last_event_id: -1 });
    expect(hb.body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
    const waiting = owner.get('/events', { queue_id: q, last_event_id: 0 });
    await new Promise((r) => setTimeout(r, 50));
    await owner.post('/saved_snippets', { title: 'wake', content: 'up' });
    const r = await waiting;
    expect(r.body.events.map((e: { type: string }) => e.type)).toEqual(['saved_snippets']);
  });
});

test('channel folder events (FL 389; reorder FL 418)', async () => {
  const q = await register(owner);
  const f = (await owner.post('/channel_folders/create', { name: 'Ops', description: 'x' })).body
    .channel_folder_id as number;
  await owner.patch(`/channel_folders/${f}`, { description: '**y**' });
  await owner.patch('/channel_folders', { order: [f, z.org.folders[0]!.id] });
  const kinds = (await drain(owner, q)).map((e) => `${e.type}/${e.op ?? ''}`);
  expect(kinds).toEqual(['channel_folder/add', 'channel_folder/update', 'channel_folder/reorder']);
});
