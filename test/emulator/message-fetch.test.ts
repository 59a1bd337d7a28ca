/**
 * GET /messages (zerver/views/message_fetch.py get_messages_backend, zerver/lib/narrow.py) and
 * PATCH /messages/{id} (zerver/actions/message_edit.py check_update_message).
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let alice: TestClient;
let bob: TestClient;
let ids: number[];
let now: number;

beforeEach(async () => {
  now = Date.UTC(2026, 0, 1);
  z = await startEmulator({ rateLimit: false, clock: { now: () => now } });
  alice = clientFor(z, 'alice');
  bob = clientFor(z, 'bob');
  ids = [];
  for (const [topic, content] of [
    ['one', 'first'],
    ['two', 'second'],
    ['one', 'third'],
  ] as const) {
    const r = await alice.post('/messages', { type: 'stream', to: 'general', topic, content });
    ids.push(r.body.id as number);
  }
});
afterEach(() => z.close());

const idsOf = (body: { messages: Array<{ id: number }> }): number[] =>
  body.messages.map((m) => m.id);

describe('GET /messages', () => {
  test('anchor newest with num_before: the newest messages, found_newest', async () => {
    const r = await bob.get('/messages', {
      anchor: 'newest',
      num_before: 2,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'general' }],
    });
    expectSuccess(r);
    expect(idsOf(r.body)).toEqual(ids.slice(1));
    expect(r.body).toMatchObject({
      found_anchor: false,
      found_newest: true,
      found_oldest: false,
      history_limited: false,
    });
    expect(r.body.messages[0]).toMatchObject({
      sender_email: 'alice@zulip-cdk.example',
      display_recipient: 'general',
      type: 'stream',
      subject: 'two',
      content: '<p>second</p>',
      content_type: 'text/html',
      flags: [],
    });
  });

  test('a numeric anchor, include_anchor, topic narrow; found_oldest when fewer than asked', async () => {
    const r = await bob.get('/messages', {
      anchor: String(ids[2]),
      num_before: 5,
      num_after: 5,
      narrow: [
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: 'one' },
      ],
    });
    expect(idsOf(r.body)).toEqual([ids[0], ids[2]]);
    expect(r.body).toMatchObject({
      anchor: ids[2],
      found_anchor: true,
      found_oldest: true,
      found_newest: true,
    });
    const excluded = await bob.get('/messages', {
      anchor: String(ids[2]),
      num_before: 5,
      num_after: 0,
      include_anchor: false,
      narrow: [{ operator: 'topic', operand: 'one' }],
    });
    expect(idsOf(excluded.body)).toEqual([ids[0]]);
    expect(excluded.body.found_anchor).toBe(false);
  });

  test('first_unread anchors on the first unread message; message_ids fetches by ID', async () => {
    const r = await bob.get('/messages', { anchor: 'first_unread', num_before: 0, num_after: 1 });
    expect(r.body.anchor).toBe(ids[0]);
    expect(idsOf(r.body)).toEqual([ids[0], ids[1]]);
    const byId = await bob.get('/messages', { message_ids: [ids[2], ids[0]] });
    expect(idsOf(byId.body)).toEqual([ids[0], ids[2]]);
    expect(byId.body).not.toHaveProperty('anchor');
  });

  test('direct messages: dm narrow, the other side sees them too', async () => {
    const bobId = z.org.users.find((u) => u.email.startsWith('bob@'))!.id;
    const sent = await alice.post('/messages', { type: 'direct', to: [bobId], content: 'psst' });
    const r = await bob.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'dm', operand: 'alice@zulip-cdk.example' }],
    });
    expect(idsOf(r.body)).toEqual([sent.body.id]);
    expect(r.body.messages[0].type).toBe('private');
  });

  test.each([
    [{ num_before: 1, num_after: 0 }, "Missing 'anchor' argument."],
    [
      { anchor: 'newest', num_before: 3000, num_after: 3000 },
      'Too many messages requested (maximum 5000).',
    ],
    [
      { anchor: '5', num_before: 1, num_after: 1, include_anchor: false },
      'The anchor can only be excluded at an end of the range',
    ],
    [
      { anchor: 'newest', message_ids: [1] },
      'Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor',
    ],
  ])('errors of get_messages_backend: %j → %s', async (params, msg) => {
    expectError(await bob.get('/messages', params), msg);
  });
});

describe('PATCH /messages/{message_id}', () => {
  test('the sender edits content; a topic edit with change_all moves the whole topic', async () => {
    expectSuccess(await alice.patch(`/messages/${ids[0]}`, { content: 'first, edited' }));
    const moved = await bob.patch(`/messages/${ids[0]}`, {
      topic: 'renamed',
      propagate_mode: 'change_all',
    });
    expectSuccess(moved);
    expect(moved.body.detached_uploads).toEqual([]);
    const r = await bob.get('/messages', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 10,
      apply_markdown: false,
    });
    expect(
      r.body.messages.map((m: { subject: string; content: string }) => [m.subject, m.content]),
    ).toEqual([
      ['renamed', 'first, edited'],
      ['two', 'second'],
      ['renamed', 'third'],
    ]);
    expect(r.body.messages[0].last_edit_timestamp).toEqual(expect.any(Number));
  });

  test.each([
    ['bob', { content: 'x' }, "You don't have permission to edit this message"],
    ['alice', {}, 'Nothing to change'],
    ['alice', { topic: 'one' }, 'Nothing to change'],
    [
      'alice',
      { content: 'x', propagate_mode: 'change_all' },
      'Invalid propagate_mode without topic edit',
    ],
    ['alice', { topic: 'x', propagate_mode: 'sideways' }, 'Invalid propagate_mode'],
  ])('check_update_message: %s %j → %s', async (who, params, msg) => {
    expectError(await clientFor(z, who).patch(`/messages/${ids[0]}`, params), msg);
  });

  test('content edits end 600 s (+20 s of grace) after sending', async () => {
    now += 620_000;
    expectSuccess(await alice.patch(`/messages/${ids[0]}`, { content: 'in time' }));
    now += 1_000;
    expectError(
      await alice.patch(`/messages/${ids[0]}`, { content: 'too late' }),
      'The time limit for editing this message has passed',
    );
  });

  test('direct messages have no topics; inaccessible messages are invalid', async () => {
    const bobId = z.org.users.find((u) => u.email.startsWith('bob@'))!.id;
    const dm = await alice.post('/messages', { type: 'direct', to: [bobId], content: 'psst' });
    expectError(
      await alice.patch(`/messages/${dm.body.id}`, { topic: 'x' }),
      'Direct messages cannot have topics.',
    );
    expectError(
      await clientFor(z, 'carol').patch(`/messages/${dm.body.id}`, { content: 'x' }),
      'Invalid message(s)',
    );
  });
});

describe('GET /realm/emoji', () => {
  test('no custom emoji', async () => {
    const r = await alice.get('/realm/emoji');
    expectSuccess(r);
    expect(r.body.emoji).toEqual({});
  });
});
