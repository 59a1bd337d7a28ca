/**
 * The events the embedded server sends for each change zulip-cdk manages (what `zulip-cdk
 * watch` listens to), ported from Zulip's zerver/tests/test_events.py, and the queue's
 * lifetime (zerver/tornado/event_queue.py: idle queues are garbage-collected after 10 minutes;
 * ClientDescriptor.cleanup finishes a waiting long-poll before a queue goes).
 */
import { QUEUE_IDLE_TIMEOUT_MS, startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';
import { drainer, register } from '../support/event-queue';
import type { Ev } from '../support/event-queue';

let now = Date.now();
let z: Emulator;
let owner: TestClient;
beforeEach(async () => {
  now = Date.now();
  z = await startEmulator({ rateLimit: false, heartbeatMs: 300, clock: { now: () => now } });
  owner = clientFor(z, 'owner');
});
afterEach(() => z.close());

const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const group = (name: string) => z.org.groups.find((g) => g.name === name)!;

describe('events of managed objects (test_events.py)', () => {
  it('test_events.py test_rename_stream: a rename sends stream/update with property name, value and the old name', async () => {
    const drain = drainer(owner, await register(owner, { event_types: ['stream'] }));
    const design = z.org.channels.find((c) => c.name === 'design')!;
    expectSuccess(await owner.patch(`/streams/${design.id}`, { new_name: 'design-2' }));
    const [e] = await drain();
    expect(e).toMatchObject({
      type: 'stream',
      op: 'update',
      property: 'name',
      value: 'design-2',
      name: 'design',
      stream_id: design.id,
    });
  });

  it('test_events.py test_events_on_changing_private_stream_permission_settings (not granting metadata access): a group setting sends stream/update with the new value', async () => {
    const drain = drainer(owner, await register(owner, { event_types: ['stream'] }));
    const design = z.org.channels.find((c) => c.name === 'design')!;
    // Zulip's value: hamlet alone, whose posting policy is everyone's, as before (the
    // stream_post_policy and is_announcement_only updates are not sent).
    const value = { direct_members: [user('alice').id], direct_subgroups: [] };
    expectSuccess(
      await owner.patch(`/streams/${design.id}`, { can_send_message_group: { new: value } }),
    );
    const events = await drain();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'stream',
      op: 'update',
      property: 'can_send_message_group',
      value,
      stream_id: design.id,
    });
  });

  it('test_events.py test_subscribe_other_user_never_subscribed / test_remove_other_user_never_subscribed: another user subscribed or removed is peer_add / peer_remove', async () => {
    // A channel dave is not subscribed to (test_subscribe_other_user_never_subscribed).
    expectSuccess(
      await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'peers' }] }),
    );
    const design = z.org.channels.find((c) => c.name === 'peers')!;
    const drain = drainer(owner, await register(owner, { event_types: ['subscription'] }));
    const dave = user('dave').id;
    expectSuccess(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'peers' }],
        principals: [dave],
      }),
    );
    expectSuccess(
      await owner.delete('/users/me/subscriptions', {
        subscriptions: ['peers'],
        principals: [dave],
      }),
    );
    const events = await drain();
    expect(events.map((e) => `${e.type}/${e.op}`)).toEqual([
      'subscription/peer_add',
      'subscription/peer_remove',
    ]);
    for (const e of events) {
      expect(e.stream_ids).toEqual([design.id]);
      expect(e.user_ids).toEqual([dave]);
    }
  });

  it("test_subs.py test_users_getting_remove_peer_event: users removed from several public channels, one peer_remove per set of users removed, before the removed users' own events", async () => {
    const alice = user('alice').id;
    const dave = user('dave').id;
    for (const [name, principals] of [
      ['s1', [alice, dave]],
      ['s2', [alice, dave]],
      ['s3', [dave]],
    ] as const)
      expectSuccess(
        await owner.post('/users/me/subscriptions', {
          subscriptions: [{ name }],
          principals: [...principals],
        }),
      );
    const id = (name: string) => z.org.channels.find((c) => c.name === name)!.id;
    const bob = clientFor(z, 'bob');
    const drainBob = drainer(bob, await register(bob, { event_types: ['subscription'] }));
    const drainDave = drainer(
      clientFor(z, 'dave'),
      await register(clientFor(z, 'dave'), { event_types: ['subscription'] }),
    );
    expectSuccess(
      await owner.delete('/users/me/subscriptions', {
        subscriptions: ['s1', 's2', 's3'],
        principals: [alice, dave],
      }),
    );
    // s1 and s2 lost the same users: one event; s3 another.
    const events = (await drainBob()).map(({ id: _id, ...e }) => e);
    expect(events).toEqual([
      {
        type: 'subscription',
        op: 'peer_remove',
        stream_ids: [id('s1'), id('s2')],
        user_ids: [alice, dave],
      },
      { type: 'subscription', op: 'peer_remove', stream_ids: [id('s3')], user_ids: [dave] },
    ]);
    // The removed user gets its own remove event, not the peers'.
    expect((await drainDave()).map((e) => `${e.type}/${e.op}`)).toEqual(['subscription/remove']);
  });

  it('test_events.py test_user_group_events: name, description and setting updates, members and subgroups added and removed, one event each', async () => {
    const drain = drainer(owner, await register(owner, { event_types: ['user_group'] }));
    const design = group('design');
    const moderators = group('role:moderators').id;
    const bob = user('bob').id;
    const steps: [string, () => Promise<unknown>][] = [
      ['update', () => owner.patch(`/user_groups/${design.id}`, { name: 'design-team' })],
      ['update', () => owner.patch(`/user_groups/${design.id}`, { description: 'The designers' })],
      [
        'update',
        () =>
          owner.patch(`/user_groups/${design.id}`, {
            can_mention_group: { new: moderators },
          }),
      ],
      ['add_members', () => owner.post(`/user_groups/${design.id}/members`, { add: [bob] })],
      ['remove_members', () => owner.post(`/user_groups/${design.id}/members`, { delete: [bob] })],
    ];
    const events: Ev[] = [];
    for (const [op, step] of steps) {
      expectSuccess((await step()) as Parameters<typeof expectSuccess>[0]);
      const got = await drain();
      expect({ op, got: got.map((e) => `${e.type}/${e.op}`) }).toEqual({
        op,
        got: [`user_group/${op}`],
      });
      events.push(got[0]!);
    }
    expect(events[0]!.data).toEqual({ name: 'design-team' });
    expect(events[1]!.data).toEqual({ description: 'The designers' });
    expect(events[2]!.data).toEqual({ can_mention_group: moderators });
    expect(events[3]).toMatchObject({ group_id: design.id, user_ids: [bob] });
    expect(events[4]).toMatchObject({ group_id: design.id, user_ids: [bob] });
  });

  it('test_events.py test_realm_filter_events: add, update and remove each send one realm_linkifiers event with the whole list (clients with linkifier_url_template only)', async () => {
    const q = await register(owner, {
      event_types: ['realm_linkifiers'],
      client_capabilities: { notification_settings_null: true, linkifier_url_template: true },
    });
    const old = drainer(owner, await register(owner, { event_types: ['realm_linkifiers'] }));
    const drain = drainer(owner, q);
    const added = await owner.post('/realm/filters', {
      pattern: '#(?P<id>[123])x',
      url_template: 'https://realm.com/my_realm_filter/{id}',
    });
    expectSuccess(added);
    const id = added.body.id as number;
    expectSuccess(
      await owner.patch(`/realm/filters/${id}`, {
        pattern: '#(?P<id>[0-9]+)x',
        url_template: 'https://realm.com/my_realm_filter/{id}',
      }),
    );
    expectSuccess(await owner.delete(`/realm/filters/${id}`));
    const events = await drain();
    expect(events.map((e) => e.type)).toEqual([
      'realm_linkifiers',
      'realm_linkifiers',
      'realm_linkifiers',
    ]);
    expect(events[1]!.realm_linkifiers).toContainEqual(
      expect.objectContaining({ id, pattern: '#(?P<id>[0-9]+)x' }),
    );
    expect(events[2]!.realm_linkifiers).not.toContainEqual(expect.objectContaining({ id }));
    expect(await old()).toEqual([]);
  });

  it('test_events.py test_realm_playground_events: add and remove each send one realm_playgrounds event', async () => {
    const drain = drainer(owner, await register(owner, { event_types: ['realm_playgrounds'] }));
    const added = await owner.post('/realm/playgrounds', {
      name: 'Python playground',
      pygments_language: 'Python',
      url_template: 'https://python.example.com{code}',
    });
    expectSuccess(added);
    expectSuccess(await owner.delete(`/realm/playgrounds/${added.body.id as number}`));
    const events = await drain();
    expect(events.map((e) => e.type)).toEqual(['realm_playgrounds', 'realm_playgrounds']);
    expect(events[0]!.realm_playgrounds).toContainEqual(
      expect.objectContaining({ name: 'Python playground', pygments_language: 'Python' }),
    );
    expect(events[1]!.realm_playgrounds).not.toContainEqual(
      expect.objectContaining({ name: 'Python playground' }),
    );
  });

  it('test_events.py test_channel_folder_update_event: name, description and archiving send channel_folder/update with the changed fields', async () => {
    const drain = drainer(owner, await register(owner, { event_types: ['channel_folder'] }));
    const created = await owner.post('/channel_folders/create', {
      name: 'Frontend',
      description: 'Channels for frontend discussion',
    });
    expectSuccess(created);
    const id = created.body.channel_folder_id as number;
    await drain();
    expectSuccess(await owner.patch(`/channel_folders/${id}`, { name: 'Web frontend' }));
    expectSuccess(
      await owner.patch(`/channel_folders/${id}`, {
        description: 'Channels for **frontend** discussions',
      }),
    );
    expectSuccess(await owner.patch(`/channel_folders/${id}`, { is_archived: true }));
    const events = await drain();
    expect(events.map((e): unknown[] => [e.op, e.channel_folder_id, e.data])).toEqual([
      ['update', id, { name: 'Web frontend' }],
      [
        'update',
        id,
        {
          description: 'Channels for **frontend** discussions',
          rendered_description: '<p>Channels for <strong>frontend</strong> discussions</p>',
        },
      ],
      ['update', id, { is_archived: true }],
    ]);
  });

  it('test_events.py test_change_is_admin (do_test_change_role): a role change sends realm_user/update with the role', async () => {
    const drain = drainer(owner, await register(owner, { event_types: ['realm_user'] }));
    const carol = user('carol').id;
    expectSuccess(await owner.patch(`/users/${carol}`, { role: 200 }));
    const events = await drain();
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'realm_user',
        op: 'update',
        person: { user_id: carol, role: 200 },
      }),
    );
  });
});

// zerver/actions/users.py do_change_user_role, as test_events.py do_test_change_role checks it
// (and test_users.py test_owner_api / test_admin_api count it: realm_user first, then groups
// and channels). The user's own queue gets the channel events; every user the group events.
describe('test_events.py test_change_is_admin / test_change_is_guest (do_test_change_role)', () => {
  const TYPES = ['realm_user', 'user_group', 'stream', 'subscription'];
  const brief = (e: Ev): unknown[] => [
    e.type,
    e.op,
    e.group_id ??
      e.person?.role ??
      e.stream_ids ??
      (e.streams as { stream_id: number }[] | undefined)?.map((s) => s.stream_id),
    e.user_ids,
  ];
  const gid = (name: string): number => group(name).id;
  const ch = (name: string): number => z.org.channels.find((c) => c.name === name)!.id;

  it('member → administrator → member: system groups, role:fullmembers, and the private channel gained then lost', async () => {
    const carol = user('carol').id;
    const mine = clientFor(z, 'carol');
    const drainMine = drainer(mine, await register(mine, { event_types: TYPES }));
    const drainOwner = drainer(owner, await register(owner, { event_types: TYPES }));
    expectSuccess(await owner.patch(`/users/${carol}`, { role: 200 }));
    const groupEvents = [
      ['user_group', 'remove_members', gid('role:members'), [carol]],
      ['user_group', 'add_members', gid('role:administrators'), [carol]],
      ['user_group', 'remove_members', gid('role:fullmembers'), [carol]],
    ];
    expect((await drainOwner()).map(brief)).toEqual([
      ['realm_user', 'update', 200, undefined],
      ...groupEvents,
    ]);
    const leadership = ch('leadership');
    const promoted = await drainMine();
    expect(promoted.map(brief)).toEqual([
      ['realm_user', 'update', 200, undefined],
      ...groupEvents,
      ['stream', 'create', [leadership], undefined],
      ['subscription', 'peer_add', [leadership], [user('owner').id, user('admin').id]],
    ]);
    expect(promoted[4]!.streams[0]).toMatchObject({ name: 'leadership', invite_only: true });

    expectSuccess(await owner.patch(`/users/${carol}`, { role: 400 }));
    expect((await drainMine()).map(brief)).toEqual([
      ['realm_user', 'update', 400, undefined],
      ['user_group', 'remove_members', gid('role:administrators'), [carol]],
      ['user_group', 'add_members', gid('role:members'), [carol]],
      ['user_group', 'add_members', gid('role:fullmembers'), [carol]],
      ['stream', 'delete', [leadership], undefined],
    ]);
  });

  it('guest → member: role:everyone to role:members and role:fullmembers; the public channels it did not see are created, peers by channel ID', async () => {
    const guest = user('guest').id;
    const mine = clientFor(z, 'guest');
    const drain = drainer(mine, await register(mine, { event_types: TYPES }));
    expectSuccess(await owner.patch(`/users/${guest}`, { role: 400 }));
    const subscribers = (name: string): number[] =>
      z.org.subscriptions
        .filter((s) => s.channelId === ch(name) && s.active)
        .map((s) => s.userId)
        .sort((a, b) => a - b);
    expect((await drain()).map(brief)).toEqual([
      ['realm_user', 'update', 400, undefined],
      ['user_group', 'remove_members', gid('role:everyone'), [guest]],
      ['user_group', 'add_members', gid('role:members'), [guest]],
      ['user_group', 'add_members', gid('role:fullmembers'), [guest]],
      ['stream', 'create', [ch('engineering'), ch('design')], undefined],
      ['subscription', 'peer_add', [ch('engineering')], subscribers('engineering')],
      ['subscription', 'peer_add', [ch('design')], subscribers('design')],
    ]);
  });

  it('a refused role change sends nothing (update_user_by_id_api is atomic)', async () => {
    const drain = drainer(owner, await register(owner, { event_types: TYPES }));
    const admin = clientFor(z, 'admin');
    expectError(
      await admin.patch(`/users/${user('carol').id}`, { role: 200, full_name: 'a|1' }),
      'Invalid format!',
    );
    expect(user('carol').role).toBe(400);
    expect(await drain()).toEqual([]);
  });
});

describe('queue lifetime (zerver/tornado/event_queue.py)', () => {
  it('garbage collection: a queue idle for 10 minutes is gone (BAD_EVENT_QUEUE_ID); one used within them is kept', async () => {
    const idle = await register(owner);
    const used = await register(owner);
    now += QUEUE_IDLE_TIMEOUT_MS - 1000;
    expectSuccess(
      await owner.get('/events', { queue_id: used, last_event_id: -1, dont_block: true }),
    );
    now += 2000;
    expectError(
      await owner.get('/events', { queue_id: idle, last_event_id: -1, dont_block: true }),
      `Bad event queue ID: ${idle}`,
      'BAD_EVENT_QUEUE_ID',
    );
    expectSuccess(
      await owner.get('/events', { queue_id: used, last_event_id: -1, dont_block: true }),
    );
  });

  it('Emulator.expireEventQueues: a waiting long-poll is answered (ClientDescriptor.cleanup), then the queue is BAD_EVENT_QUEUE_ID', async () => {
    const q = await register(owner);
    const waiting = owner.get('/events', { queue_id: q, last_event_id: -1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(z.expireEventQueues()).toBe(1);
    const answered = await waiting;
    expectSuccess(answered);
    expect(answered.body.events).toEqual([]);
    expect(z.eventQueueCount).toBe(0);
    expectError(
      await owner.get('/events', { queue_id: q, last_event_id: -1, dont_block: true }),
      `Bad event queue ID: ${q}`,
      'BAD_EVENT_QUEUE_ID',
    );
  });

  it('cleanup_event_queue (DELETE /events) finishes a waiting long-poll at once', async () => {
    const q = await register(owner);
    const waiting = owner.get('/events', { queue_id: q, last_event_id: -1 });
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    expectSuccess(await owner.delete('/events', { queue_id: q }));
    expectSuccess(await waiting);
    expect(Date.now() - t0).toBeLessThan(250); // before the 300 ms heartbeat
  });
});

// zerver/actions/streams.py do_deactivate_stream and do_unarchive_stream: Tornado routes the
// update by the archived_channels capability (from FL 378) and delivers neither for_archiving
// nor for_unarchiving (test_events.py's check_stream_delete / check_stream_create allow no
// other field).
describe('archiving and unarchiving a channel (test_events.py)', () => {
  const sub = (archived: boolean) => ({
    event_types: ['stream'],
    client_capabilities: { notification_settings_null: true, archived_channels: archived },
  });
  const design = () => z.org.channels.find((c) => c.name === 'design')!;
  const isArchived = (id: number, value: boolean) => ({
    type: 'stream',
    op: 'update',
    stream_id: id,
    name: 'design',
    property: 'is_archived',
    value,
  });

  it('test_deactivate_stream_neversubscribed / test_admin_deactivate_unsubscribed_stream: stream update is_archived with archived_channels, else stream delete', async () => {
    const withCap = drainer(owner, await register(owner, sub(true)));
    const without = drainer(owner, await register(owner, sub(false)));
    const id = design().id;
    expectSuccess(await owner.delete(`/streams/${id}`));
    expect((await withCap()).map(({ id: _, ...e }) => e)).toEqual([isArchived(id, true)]);
    expect((await without()).map(({ id: _, ...e }) => e)).toEqual([
      { type: 'stream', op: 'delete', streams: [{ stream_id: id }], stream_ids: [id] },
    ]);
  });

  it('test_unarchiving_stream: stream create (no for_unarchiving) without archived_channels, stream update is_archived with it', async () => {
    const id = design().id;
    expectSuccess(await owner.delete(`/streams/${id}`));
    const withCap = drainer(owner, await register(owner, sub(true)));
    const without = drainer(owner, await register(owner, sub(false)));
    expectSuccess(await owner.patch(`/streams/${id}`, { is_archived: false }));
    expect((await withCap()).map(({ id: _, ...e }) => e)).toEqual([isArchived(id, false)]);
    const created = await without();
    expect(created).toHaveLength(1);
    expect(Object.keys(created[0]!).sort()).toEqual(['id', 'op', 'streams', 'type']);
    expect(created[0]!.streams).toEqual([
      expect.objectContaining({ stream_id: id, is_archived: false }),
    ]);
  });

  it('before FL 378 (changelog): archiving sends stream delete to every queue, archived_channels or not', async () => {
    const old = await startEmulator({ rateLimit: false, featureLevel: 377 });
    try {
      const o = clientFor(old, 'owner');
      const withCap = drainer(o, await register(o, sub(true)));
      const id = old.org.channels.find((c) => c.name === 'design')!.id;
      expectSuccess(await o.delete(`/streams/${id}`));
      expect((await withCap()).map((e) => `${e.type}/${e.op}`)).toEqual(['stream/delete']);
    } finally {
      await old.close();
    }
  });
});

describe('test_user_groups.py test_creating_groups_with_subgroups, with test_events.py test_user_group_events', () => {
  it('a group created with subgroups: user_group add without them (check_add_user_group), then add_subgroups (add_subgroups_to_user_group)', async () => {
    const drain = drainer(owner, await register(owner, { event_types: ['user_group'] }));
    const backend = group('backend').id;
    const bob = user('bob').id;
    const r = await owner.post('/user_groups/create', {
      name: 'Troubleshooting',
      description: 'Troubleshooting team',
      members: [bob],
      subgroups: [backend],
    });
    expectSuccess(r);
    const id = r.body.group_id as number;
    const events = await drain();
    expect(events.map((e) => e.op)).toEqual(['add', 'add_subgroups']);
    expect(events[0]!.group).toMatchObject({ id, members: [bob], direct_subgroup_ids: [] });
    expect(events[1]).toMatchObject({ group_id: id, direct_subgroup_ids: [backend] });
  });
});
