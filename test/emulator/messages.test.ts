import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let alice: TestClient;
let bob: TestClient;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  alice = clientFor(z, 'alice');
  bob = clientFor(z, 'bob');
});
afterEach(() => z.close());

const ch = (name: string) => z.org.channels.find((c) => c.name === name)!;
const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;

describe('messages, flags and reactions', () => {
  test('send, then flags by ID: read, starred; errors', async () => {
    const sent = await alice.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'hello',
      content: 'hi',
    });
    expectSuccess(sent);
    const id = sent.body.id as number;
    expectError(
      await alice.post('/messages', { type: 'stream', to: 'nope', topic: 't', content: 'x' }),
      "Channel 'nope' does not exist",
      'STREAM_DOES_NOT_EXIST',
    );
    expectError(
      await alice.post('/messages', {
        type: 'stream',
        to: 'announcements',
        topic: 't',
        content: 'x',
      }),
      'You do not have permission to post in this channel.',
    );
    expectError(
      await alice.post('/messages', { type: 'direct', to: [999999], content: 'x' }),
      'Invalid user ID 999999',
    );
    const add = await bob.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    expect(add.body.messages).toEqual([id]);
    // `messages` echoes the request (update_message_flags), changed or not.
    const again = await bob.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    expect(again.body).toMatchObject({
      messages: [id],
      ignored_because_not_subscribed_channels: [],
    });
    const un = await bob.post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' });
    expect(un.body).toMatchObject({ messages: [id], ignored_because_not_subscribed_channels: [] });
    expectError(
      await bob.post('/messages/flags', { messages: [id], op: 'flip', flag: 'read' }),
      "Invalid message flag operation: 'flip'",
    );
    expectError(
      await bob.post('/messages/flags', { messages: [id], op: 'add', flag: 'bogus' }),
      "Invalid flag: 'bogus'",
    );
    expectError(
      await bob.post('/messages/flags', { messages: [id], op: 'add', flag: 'mentioned' }),
      "Flag not editable: 'mentioned'",
    );
    expectError(
      await bob.post('/messages/flags', { messages: [999999], op: 'add', flag: 'starred' }),
      'Invalid message(s)',
    );
  });

  test('flags on a narrow', async () => {
    for (let i = 0; i < 3; i++)
      await alice.post('/messages', {
        type: 'stream',
        to: ch('engineering').id,
        topic: 'deploys',
        content: `m${i}`,
      });
    await alice.post('/messages', { type: 'stream', to: 'general', topic: 'other', content: 'x' });
    const r = await bob.post('/messages/flags/narrow', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 100,
      narrow: [
        { operator: 'channel', operand: 'engineering' },
        { operator: 'is', operand: 'unread' },
      ],
      op: 'add',
      flag: 'read',
    });
    expect(r.body).toMatchObject({
      processed_count: 3,
      updated_count: 3,
      found_oldest: true,
      found_newest: true,
    });
  });

  test('reactions: add, already exists, remove, does not exist', async () => {
    const id = (
      await alice.post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'x' })
    ).body.id as number;
    expectSuccess(await bob.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }));
    expectError(
      await bob.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }),
      'Reaction already exists.',
      'REACTION_ALREADY_EXISTS',
    );
    expectError(
      await bob.post(`/messages/${id}/reactions`, {
        emoji_name: 'octopus',
        emoji_code: 'zzz',
        reaction_type: 'unicode_emoji',
      }),
      'Invalid emoji code.',
    );
    expectSuccess(await bob.delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' }));
    expectError(
      await bob.delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' }),
      "Reaction doesn't exist.",
      'REACTION_DOES_NOT_EXIST',
    );
  });
});

describe('scheduled messages', () => {
  test('create, list, edit, delete; errors', async () => {
    const future = Math.floor(Date.now() / 1000) + 3600;
    expectError(
      await alice.post('/scheduled_messages', {
        type: 'stream',
        to: 999999,
        topic: 't',
        content: 'x',
        scheduled_delivery_timestamp: future,
      }),
      "Channel with ID '999999' does not exist",
      'STREAM_DOES_NOT_EXIST',
    );
    expectError(
      await alice.post('/scheduled_messages', {
        type: 'direct',
        to: [999999],
        content: 'x',
        scheduled_delivery_timestamp: future,
      }),
      'Invalid user ID 999999',
    );
    expectError(
      await alice.post('/scheduled_messages', {
        type: 'direct',
        to: [user('bob').id],
        content: 'x',
        scheduled_delivery_timestamp: 10,
      }),
      'Scheduled delivery time must be in the future.',
    );
    const r = await alice.post('/scheduled_messages', {
      type: 'stream',
      to: ch('general').id,
      topic: 'later',
      content: 'hello',
      scheduled_delivery_timestamp: future,
    });
    expectSuccess(r);
    const id = r.body.scheduled_message_id as number;
    expectError(
      await alice.patch(`/scheduled_messages/${id}`, { type: 'direct' }),
      'Recipient required when updating type of scheduled message.',
    );
    expectSuccess(
      await alice.patch(`/scheduled_messages/${id}`, { type: 'direct', to: [user('bob').id] }),
    );
    const list = await alice.get('/scheduled_messages');
    expect(list.body.scheduled_messages[0]).toMatchObject({
      type: 'private',
      to: [user('bob').id],
    });
    expectError(
      await bob.delete(`/scheduled_messages/${id}`),
      'Scheduled message does not exist',
      'BAD_REQUEST',
      404,
    );
    expectSuccess(await alice.delete(`/scheduled_messages/${id}`));
  });
});

describe('Notification Bot: one cross-realm bot (get_system_bot(settings.NOTIFICATION_BOT))', () => {
  test("a channel's notices and a group's direct messages come from the same sender", async () => {
    const owner = clientFor(z, 'owner');
    expectSuccess(await owner.patch('/realm', { send_channel_events_messages: true }));
    const general = ch('general');
    expectSuccess(await owner.patch(`/streams/${general.id}`, { description: 'Everyone' }));
    const notice = z.org.messages?.filter((m) => m.channelId === general.id).at(-1);
    const group = await owner.post('/user_groups/create', {
      name: 'bots-test',
      description: '',
      members: [user('owner').id],
    });
    expectSuccess(group);
    expectSuccess(
      await owner.post(`/user_groups/${group.body.group_id}/members`, { add: [user('bob').id] }),
    );
    const dm = z.org.messages?.filter((m) => m.type === 'private').at(-1);
    expect(notice?.senderId).toBeDefined();
    expect(dm?.senderId).toBe(notice?.senderId);
    expect(z.org.notificationBotId).toBe(notice?.senderId);
    expect(z.org.users.some((u) => u.id === notice?.senderId)).toBe(false);
  });

  test("a state file that kept the notices' bot on the realm keeps that ID for both", async () => {
    const saved = structuredClone(z.org);
    saved.realm.notificationBotId = 9999;
    delete saved.notificationBotId;
    const y = await startEmulator({ rateLimit: false, state: saved });
    try {
      expect(y.org.notificationBotId).toBe(9999);
      expect(y.org.realm.notificationBotId).toBeUndefined();
    } finally {
      await y.close();
    }
  });
});
