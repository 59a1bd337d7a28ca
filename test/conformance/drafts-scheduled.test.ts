/**
 * Drafts and scheduled messages, ported from zerver/tests/test_drafts.py and
 * test_scheduled_messages.py (views: zerver/views/drafts.py, zerver/lib/drafts.py,
 * zerver/views/scheduled_messages.py, zerver/actions/scheduled_messages.py).
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

const START = Date.UTC(2026, 0, 1);
let z: Emulator;
let alice: TestClient;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false, clock: { now: () => START } });
  alice = clientFor(z, 'alice');
});
afterEach(() => z.close());

const ch = (name: string) => z.org.channels.find((c) => c.name === name)!;
const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;

async function myDrafts(c: TestClient = alice): Promise<Record<string, unknown>[]> {
  const r = await c.get('/drafts');
  expectSuccess(r);
  return (r.body.drafts as Record<string, unknown>[])
    .map(({ id: _id, ...rest }) => rest)
    .sort((a, b) => Number(a.timestamp) - Number(b.timestamp));
}

describe('drafts (test_drafts.py)', () => {
  const streamDraft = () => ({
    type: 'stream',
    to: [ch('general').id],
    topic: 'sync drafts',
    content: "Let's add backend support for syncing drafts.",
    timestamp: 1595479019,
  });

  it('DraftCreationTests.test_create_one_stream_draft_properly', async () => {
    expectSuccess(await alice.post('/drafts', { drafts: [streamDraft()] }));
    expect(await myDrafts()).toEqual([streamDraft()]);
  });

  it('DraftCreationTests.test_create_one_personal_message_draft_properly: the topic of a DM draft is ignored', async () => {
    const draft = {
      type: 'private',
      to: [user('bob').id],
      topic: 'This topic should be ignored.',
      content: 'What if we made it possible to sync drafts in Zulip?',
      timestamp: 1595479019,
    };
    expectSuccess(await alice.post('/drafts', { drafts: [draft] }));
    expect(await myDrafts()).toEqual([{ ...draft, topic: '' }]);
  });

  it('DraftCreationTests.test_create_batch_of_drafts_properly', async () => {
    const drafts = [
      streamDraft(),
      { type: 'private', to: [user('bob').id], topic: '', content: 'dm', timestamp: 1595479020 },
      {
        type: 'private',
        to: [user('bob').id, user('carol').id],
        topic: '',
        content: 'group',
        timestamp: 1595479021,
      },
    ];
    const r = await alice.post('/drafts', { drafts });
    expectSuccess(r);
    expect(r.body.ids).toHaveLength(3);
    expect(await myDrafts()).toEqual(drafts);
  });

  it('DraftCreationTests.test_missing_timestamps: the server fills in now', async () => {
    const { timestamp: _t, ...draft } = streamDraft();
    expectSuccess(await alice.post('/drafts', { drafts: [draft] }));
    const [d] = await myDrafts();
    expect(d!.timestamp).toBe(Math.floor(START / 1000));
  });

  it('DraftCreationTests.test_invalid_timestamp: "Timestamp must not be negative." and nothing is created', async () => {
    const r = await alice.post('/drafts', {
      drafts: [{ ...streamDraft(), to: [], timestamp: -10.1 }],
    });
    expectError(r, 'Timestamp must not be negative.');
    expect(await myDrafts()).toEqual([]);
  });

  it('DraftCreationTests.test_create_non_stream_draft_with_no_recipient: the type becomes ""', async () => {
    const base = { to: [], topic: 'sync drafts', content: 'x', timestamp: 1595479019 };
    expectSuccess(
      await alice.post('/drafts', {
        drafts: [
          { ...base, type: 'private' },
          { ...base, type: '' },
        ],
      }),
    );
    expect(await myDrafts()).toEqual([
      { ...base, type: '', topic: '' },
      { ...base, type: '', topic: '' },
    ]);
  });

  it.each([
    [
      'test_create_stream_draft_with_no_recipient',
      { to: [] },
      'Must specify exactly 1 channel ID for channel messages',
    ],
    [
      'test_create_stream_draft_for_inaccessible_stream (private)',
      { to: ['leadership'] },
      'Invalid channel ID',
    ],
    [
      'test_create_stream_draft_for_inaccessible_stream (missing)',
      { to: [99999999] },
      'Invalid channel ID',
    ],
    [
      'test_create_personal_message_draft_for_non_existing_user',
      { type: 'private', to: [99999999] },
      'Invalid user ID 99999999',
    ],
    [
      'test_create_draft_with_null_bytes (content)',
      { type: '', to: [], content: 'Some regular \u0000 content here' },
      'Message must not contain null bytes',
    ],
    [
      'test_create_draft_with_null_bytes (topic)',
      { to: [10], topic: 'thinking about \u0000' },
      'Topic must not contain null bytes',
    ],
  ])('DraftCreationTests.%s', async (_name, patch, msg) => {
    const draft: Record<string, unknown> = { ...streamDraft(), ...patch };
    if (Array.isArray(draft.to) && draft.to[0] === 'leadership') draft.to = [ch('leadership').id];
    expectError(await alice.post('/drafts', { drafts: [draft] }), msg);
    expect(await myDrafts()).toEqual([]);
  });

  it('DraftData (extra="forbid"): an unexpected key, after the fields\' own errors', async () => {
    expectError(
      await alice.post('/drafts', { drafts: [{ ...streamDraft(), foo: 1 }] }),
      'Argument "foo" at drafts[0]["foo"] is unexpected',
    );
    const { to: _to, ...noTo } = streamDraft();
    expectError(
      await alice.post('/drafts', { drafts: [{ ...noTo, type: 'bogus', foo: 1 }] }),
      'Invalid drafts[0]["type"]',
    );
    expectError(
      await alice.patch('/drafts/999999', { draft: { ...streamDraft(), foo: 1 } }),
      'Argument "foo" at draft["foo"] is unexpected',
    );
    expect(await myDrafts()).toEqual([]);
  });

  it('create_drafts: every DraftData of the batch is parsed before further_validated_draft_dict', async () => {
    const r = await alice.post('/drafts', {
      drafts: [
        { ...streamDraft(), timestamp: -10.1 },
        { ...streamDraft(), foo: 1 },
      ],
    });
    expectError(r, 'Argument "foo" at drafts[1]["foo"] is unexpected');
    expect(await myDrafts()).toEqual([]);
  });

  it('DraftEditTests.test_edit_draft_successfully', async () => {
    const id = (await alice.post('/drafts', { drafts: [streamDraft()] })).body.ids[0];
    const edited = {
      type: 'stream',
      to: [ch('engineering').id],
      topic: 'designing drafts',
      content: 'The API needs to be structured yet simple to use.',
      timestamp: 1595505800,
    };
    expectSuccess(await alice.patch(`/drafts/${id}`, { draft: edited }));
    expect(await myDrafts()).toEqual([edited]);
  });

  it('DraftEditTests.test_edit_non_existent_draft: 404 "Draft does not exist"', async () => {
    expectError(
      await alice.patch('/drafts/999999', { draft: streamDraft() }),
      'Draft does not exist',
      'BAD_REQUEST',
      404,
    );
  });

  it("DraftEditTests.test_edit_unowned_draft: another user's draft is 404 and unchanged", async () => {
    const id = (await alice.post('/drafts', { drafts: [streamDraft()] })).body.ids[0];
    expectError(
      await clientFor(z, 'bob').patch(`/drafts/${id}`, {
        draft: { ...streamDraft(), content: 'x' },
      }),
      'Draft does not exist',
      'BAD_REQUEST',
      404,
    );
    expect(await myDrafts()).toEqual([streamDraft()]);
  });

  it('DraftDeleteTests.test_delete_draft_successfully, test_delete_non_existent_draft', async () => {
    const id = (await alice.post('/drafts', { drafts: [streamDraft()] })).body.ids[0];
    expectSuccess(await alice.delete(`/drafts/${id}`));
    expect(await myDrafts()).toEqual([]);
    expectError(await alice.delete(`/drafts/${id}`), 'Draft does not exist', 'BAD_REQUEST', 404);
  });

  it("DraftDeleteTests.test_delete_unowned_draft: another user's draft is 404 and kept", async () => {
    const id = (await alice.post('/drafts', { drafts: [streamDraft()] })).body.ids[0];
    expectError(
      await clientFor(z, 'bob').delete(`/drafts/${id}`),
      'Draft does not exist',
      'BAD_REQUEST',
      404,
    );
    expect(await myDrafts()).toHaveLength(1);
  });

  it("DraftFetchTest.test_fetch_drafts: only the caller's drafts, with a count", async () => {
    await alice.post('/drafts', { drafts: [streamDraft(), { ...streamDraft(), timestamp: 1 }] });
    await clientFor(z, 'bob').post('/drafts', { drafts: [streamDraft()] });
    const r = await alice.get('/drafts');
    expect(r.body.count).toBe(2);
    expect(r.body.drafts).toHaveLength(2);
  });
});

describe('scheduled messages (test_scheduled_messages.py)', () => {
  const future = Math.floor(START / 1000) + 86400;

  async function schedule(
    type: string,
    to: unknown,
    content = 'Test message',
    ts = future,
    c: TestClient = alice,
  ) {
    const topic = type === 'stream' || type === 'channel' ? 'Test topic' : '';
    return c.post('/scheduled_messages', {
      type,
      to: JSON.stringify(to),
      content,
      topic,
      scheduled_delivery_timestamp: ts,
    });
  }
  const list = async (c: TestClient = alice) =>
    (await c.get('/scheduled_messages')).body.scheduled_messages as Record<string, unknown>[];

  it('test_schedule_message: to a channel by ID, and a DM by user IDs', async () => {
    expectSuccess(await schedule('channel', ch('general').id, 'Test message 1'));
    expectSuccess(await schedule('direct', [user('bob').id], 'Test message 3'));
    const [s, d] = await list();
    expect(s).toMatchObject({
      type: 'stream',
      to: ch('general').id,
      topic: 'Test topic',
      content: 'Test message 1',
      rendered_content: '<p>Test message 1</p>',
      scheduled_delivery_timestamp: future,
    });
    expect(d).toMatchObject({ type: 'private', content: 'Test message 3' });
  });

  it('test_schedule_message: a DM to emails → \'to["int"] is not an integer\'', async () => {
    expectError(await schedule('direct', [user('bob').email]), 'to["int"] is not an integer');
    expect(await list()).toEqual([]);
  });

  it.each([
    ['stream', () => [ch('general').id], 'Invalid data type for channel ID'],
    ['direct', () => user('bob').id, 'Invalid data type for recipients'],
  ])('recipient_parsing.py: type %s with the other shape of `to`', async (type, to, msg) => {
    expectError(await schedule(type, to()), msg);
  });

  it('test_scheduling_in_past: "Scheduled delivery time must be in the future."', async () => {
    expectError(
      await schedule('channel', ch('general').id, 'x', Math.floor(START / 1000) - 86400),
      'Scheduled delivery time must be in the future.',
    );
  });

  it('check_schedule_message → check_message: the body before the channel, then "Missing topic"', async () => {
    expectError(await schedule('channel', 999999, ' \n '), 'Message must not be empty');
    expectError(
      await alice.post('/scheduled_messages', {
        type: 'channel',
        to: JSON.stringify(ch('general').id),
        content: 'x',
        scheduled_delivery_timestamp: future,
      }),
      'Missing topic',
    );
    expect(await list()).toEqual([]);
  });

  it('edit_scheduled_message: new content is checked as a message again', async () => {
    const id = (await schedule('channel', ch('general').id)).body.scheduled_message_id;
    expectError(
      await alice.patch(`/scheduled_messages/${id}`, { content: '  ' }),
      'Message must not be empty',
    );
    expect((await list())[0]).toMatchObject({ content: 'Test message' });
  });

  it('create_scheduled_message_backend: an unknown type fails check_string_in_validator', async () => {
    expectError(
      await schedule('broadcast', ch('general').id),
      'Invalid type: Value error, Not in the list of possible values',
    );
  });

  describe('test_edit_schedule_message', () => {
    let id: number;
    beforeEach(async () => {
      id = (await schedule('channel', ch('general').id, 'Original test message')).body
        .scheduled_message_id;
    });

    it('the same type, channel and topic changes nothing', async () => {
      expectSuccess(
        await alice.patch(`/scheduled_messages/${id}`, {
          type: 'stream',
          to: JSON.stringify(ch('general').id),
          topic: 'Test topic',
        }),
      );
      expect((await list())[0]).toMatchObject({
        type: 'stream',
        to: ch('general').id,
        topic: 'Test topic',
        content: 'Original test message',
      });
    });

    it('"Nothing to change"; a type without a recipient', async () => {
      expectError(await alice.patch(`/scheduled_messages/${id}`, {}), 'Nothing to change');
      expectError(
        await alice.patch(`/scheduled_messages/${id}`, { type: 'direct' }),
        'Recipient required when updating type of scheduled message.',
      );
    });

    it('to a DM and back: the topic of a DM is ignored, a channel needs a topic', async () => {
      expectSuccess(
        await alice.patch(`/scheduled_messages/${id}`, {
          type: 'direct',
          to: JSON.stringify([user('bob').id]),
        }),
      );
      expect((await list())[0]).toMatchObject({ type: 'private' });
      expect((await list())[0]).not.toHaveProperty('topic');
      expectSuccess(
        await alice.patch(`/scheduled_messages/${id}`, { topic: 'Direct message topic' }),
      );
      expect((await list())[0]).not.toHaveProperty('topic');
      expectError(
        await alice.patch(`/scheduled_messages/${id}`, {
          type: 'channel',
          to: JSON.stringify(ch('general').id),
        }),
        'Topic required when updating scheduled message type to channel.',
      );
      expectSuccess(
        await alice.patch(`/scheduled_messages/${id}`, {
          type: 'channel',
          to: JSON.stringify(ch('general').id),
          topic: 'New test topic',
        }),
      );
      expect((await list())[0]).toMatchObject({ type: 'stream', topic: 'New test topic' });
    });

    it('a past time is refused; content and time together; topic alone', async () => {
      expectError(
        await alice.patch(`/scheduled_messages/${id}`, {
          scheduled_delivery_timestamp: Math.floor(START / 1000) - 86400,
        }),
        'Scheduled delivery time must be in the future.',
      );
      expectSuccess(
        await alice.patch(`/scheduled_messages/${id}`, {
          content: 'Edited test message',
          scheduled_delivery_timestamp: future + 3 * 86400,
        }),
      );
      expectSuccess(
        await alice.patch(`/scheduled_messages/${id}`, { topic: 'Final topic for test' }),
      );
      expect((await list())[0]).toMatchObject({
        content: 'Edited test message',
        topic: 'Final topic for test',
        scheduled_delivery_timestamp: future + 3 * 86400,
      });
    });
  });

  it('test_fetch_scheduled_messages: own messages only', async () => {
    expect(await list()).toEqual([]);
    await schedule('channel', ch('general').id);
    await schedule('direct', [user('bob').id]);
    expect(await list()).toHaveLength(2);
    expect(await list(clientFor(z, 'bob'))).toEqual([]);
  });

  it('test_delete_scheduled_messages: 404 for another user, then deleted, then 404', async () => {
    const id = (await schedule('channel', ch('general').id)).body.scheduled_message_id;
    expectError(
      await clientFor(z, 'bob').delete(`/scheduled_messages/${id}`),
      'Scheduled message does not exist',
      'BAD_REQUEST',
      404,
    );
    expectSuccess(await alice.delete(`/scheduled_messages/${id}`));
    expect(await list()).toEqual([]);
    expectError(
      await alice.delete(`/scheduled_messages/${id}`),
      'Scheduled message does not exist',
      'BAD_REQUEST',
      404,
    );
  });
});
