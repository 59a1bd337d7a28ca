/**
 * Fetching messages and flagging a narrow, ported from zerver/tests/test_message_fetch.py
 * (GetOldMessagesTest, NarrowBuilderTest) and test_message_flags.py (views:
 * zerver/views/message_fetch.py get_messages_backend, zerver/views/message_flags.py
 * update_message_flags_for_narrow; zerver/lib/narrow.py NarrowParameter, NarrowBuilder,
 * parse_anchor_value). hamlet → alice, othello → bob, cordelia → carol.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient, TestResponse } from '../support/emulator-client';

let z: Emulator;
let alice: TestClient;
let ids: number[];
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  alice = clientFor(z, 'alice');
  ids = [];
  for (const topic of ['one', 'two', 'one']) {
    const r = await alice.post('/messages', { type: 'stream', to: 'general', topic, content: 'x' });
    expectSuccess(r);
    ids.push(r.body.id as number);
  }
});
afterEach(() => z.close());

const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const get = (params: Record<string, unknown>) => alice.get('/messages', params);
/**
 * A request expected to fail with BAD_NARROW: zulip.yaml documents no `desc` in that error,
 * which BadNarrowOperatorError has (`data_fields = ["desc"]`), so it is not checked there.
 */
const refusedNarrow = (method: string, path: string, params: Record<string, unknown>) =>
  alice.call(method, path, params, { validate: false });
/** `assert_json_error` of a BadNarrowOperatorError: code BAD_NARROW, the description in `desc`. */
function badNarrow(r: TestResponse, desc: string): void {
  expectError(r, `Invalid narrow operator: ${desc}`, 'BAD_NARROW');
  expect(r.body.desc).toBe(desc);
}
const fetchParams = (narrow: unknown) => ({ anchor: 0, num_before: 0, num_after: 0, narrow });
const narrowed = (narrow: unknown) => get(fetchParams(narrow));
const badNarrowed = (narrow: unknown) => refusedNarrow('GET', '/messages', fetchParams(narrow));

describe('GET /messages parameters (test_message_fetch.py GetOldMessagesTest)', () => {
  it.each([
    ['num_before', { num_before: -1, num_after: 0 }, 'num_before is too small'],
    ['num_before', { num_before: '-1', num_after: 0 }, 'num_before is too small'],
    ['num_before', { num_before: 'False', num_after: 0 }, 'num_before is not valid JSON'],
    ['num_after', { num_after: -1, num_before: 0 }, 'num_after is too small'],
    ['num_after', { num_after: '', num_before: 0 }, 'num_after is not valid JSON'],
  ])('test_bad_int_params: %s %j', async (_name, params, msg) => {
    expectError(await get({ anchor: 0, ...params }), msg);
  });

  it('get_messages_backend: signature order, num_after before num_before', async () => {
    expectError(await get({ anchor: 0, num_before: -1, num_after: -1 }), 'num_after is too small');
  });

  it('get_messages_backend: message_ids is list[NonNegativeInt], checked before num_after', async () => {
    expectError(await get({ message_ids: [-1] }), 'message_ids[0] is too small');
    expectError(await get({ message_ids: [ids[0], -2] }), 'message_ids[1] is too small');
    expectError(await get({ message_ids: [-1], num_after: -1 }), 'message_ids[0] is too small');
  });

  it('test_missing_anchor, test_invalid_anchor', async () => {
    const base = { use_first_unread_anchor: false, num_before: 1, num_after: 1 };
    expectError(await get(base), "Missing 'anchor' argument.");
    expectError(await get({ ...base, anchor: 'chocolate' }), 'Invalid anchor');
  });

  it('test_parse_anchor_value: negative anchors are 0, huge ones LARGER_THAN_MAX_MESSAGE_ID', async () => {
    const low = await get({ anchor: '-1', num_before: 10, num_after: 10 });
    expectSuccess(low);
    expect(low.body.anchor).toBe(0);
    // Zulip's test uses 10000000000000001, which a JavaScript number cannot tell from the limit.
    const high = await get({ anchor: '20000000000000000', num_before: 10, num_after: 10 });
    expectSuccess(high);
    expect(high.body.anchor).toBe(10000000000000000);
  });

  it('test_get_messages_limits: "Too many messages requested (maximum 5000)."', async () => {
    for (const [before, after] of [
      [3000, 3000],
      [6000, 0],
      [0, 6000],
    ])
      expectError(
        await get({ anchor: 1, num_before: before, num_after: after }),
        'Too many messages requested (maximum 5000).',
      );
  });

  it('test_bad_narrow_type', async () => {
    const cases: [unknown, string][] = [
      ['False', 'narrow is not valid JSON'],
      [0, 'narrow is not a list'],
      ['', 'narrow is not valid JSON'],
      ['{malformed json,', 'narrow is not valid JSON'],
      ['[1,2]', 'Invalid narrow[0]: Value error, dict or list required'],
      ['[["x","y","z"]]', 'Invalid narrow[0]: Value error, element is not a string pair'],
    ];
    for (const [narrow, msg] of cases) expectError(await narrowed(narrow), msg);
  });
});

describe('narrow terms (test_message_fetch.py, NarrowBuilderTest)', () => {
  it('test_bad_narrow_operator: unknown operators are BAD_NARROW, even when nothing could match', async () => {
    for (const operator of ['', 'foo', 'channel:verona', '__init__'])
      badNarrow(await badNarrowed([{ operator, operand: '' }]), `unknown operator ${operator}`);
    // An organization without messages refuses them all the same.
    z.org.messages = [];
    badNarrow(await badNarrowed([{ operator: 'foo', operand: '' }]), 'unknown operator foo');
  });

  it.each([
    ['is', 'non_supported', "unknown 'is' operand non_supported"],
    ['has', 'pictures', "unknown 'has' operand pictures"],
    ['in', 'nowhere', "unknown 'in' operand nowhere"],
    ['channels', 'invalid_operands', 'unknown channels operand invalid_operands'],
  ])('NarrowBuilderTest (unsupported operand): %s:%s', async (operator, operand, desc) => {
    badNarrow(await badNarrowed([{ operator, operand }]), desc);
  });

  it('the operators Zulip knows are not "unknown"', async () => {
    for (const [operator, operand] of [
      ['has', 'link'],
      ['in', 'all'],
      ['in', 'home'],
      ['is', 'resolved'],
      ['is', 'alerted'],
      ['is', 'followed'],
      ['is', 'muted'],
      ['near', '5'],
      ['id', String(ids[0])],
      ['search', 'x'],
      ['channels', 'public'],
      ['dm-including', user('bob').email],
      ['group-pm-with', user('bob').email],
    ])
      expectSuccess(await narrowed([{ operator, operand }]));
  });

  it('test_invalid_narrow_operand_in_dict: operands by operator (NarrowParameter.validate_terms)', async () => {
    for (const operator of ['id', 'sender', 'channel', 'dm-including', 'group-pm-with', 'with'])
      expectError(
        await narrowed([{ operator, operand: ['1'] }]),
        'operand is not a string or integer',
      );
    for (const operator of ['dm', 'pm-with']) {
      expectError(
        await narrowed([{ operator, operand: null }]),
        'Invalid narrow[0]: Value error, operand is missing',
      );
      expectError(await narrowed([{ operator, operand: ['2'] }]), 'operand[0] is not an integer');
    }
    for (const operator of ['is', 'near', 'has']) {
      expectError(await narrowed([{ operator, operand: 2 }]), 'operand is not a string');
      expectError(await narrowed([{ operator, operand: [1] }]), 'operand is not a string');
    }
    expectError(await narrowed([{ operator: 'search', operand: '' }]), 'operand cannot be blank.');
  });

  it('NarrowParameter: operator a string, negated a boolean, dm a string or an integer list', async () => {
    expectError(
      await narrowed([{ operator: 5, operand: 'x' }]),
      'narrow[0]["operator"] is not a string',
    );
    expectError(
      await narrowed([{ operator: 'is', operand: 'dm', negated: 'yes' }]),
      'narrow[0]["negated"] is not a boolean',
    );
    expectError(
      await narrowed([{ operator: 'dm', operand: 5 }]),
      'operand is not a string or an integer list',
    );
  });

  it('test_bad_narrow_nonexistent_channel, test_bad_narrow_nonexistent_email', async () => {
    badNarrow(
      await badNarrowed([['channel', 'non-existent channel']]),
      'unknown channel non-existent channel',
    );
    badNarrow(
      await badNarrowed([{ operator: 'channel', operand: 1232891381239 }]),
      'unknown channel 1232891381239',
    );
    badNarrow(
      await badNarrowed([['dm', 'non-existent-user@zulip.com']]),
      'unknown user in non-existent-user@zulip.com',
    );
    badNarrow(
      await badNarrowed([{ operator: 'dm', operand: [999999] }]),
      'unknown user in [999999]',
    );
    badNarrow(await badNarrowed([['sender', 'nobody@zulip.com']]), 'unknown user nobody@zulip.com');
  });

  it('test_bad_narrow_dm_empty_list: no messages, no error', async () => {
    const r = await narrowed([{ operand: [], operator: 'dm' }]);
    expectSuccess(r);
    expect(r.body.messages).toEqual([]);
  });

  it('NarrowBuilder.by_id: "Invalid message ID"', async () => {
    badNarrow(await badNarrowed([{ operator: 'id', operand: -5 }]), 'Invalid message ID');
    badNarrow(await badNarrowed([{ operator: 'id', operand: 'abc' }]), 'Invalid message ID');
  });

  it('check_not_both_channel_and_dm_narrow: a channel and a direct-message term', async () => {
    badNarrow(
      await badNarrowed([
        ['channel', 'general'],
        ['is', 'dm'],
      ]),
      'No message can be both a channel message and direct message',
    );
    expectSuccess(
      await narrowed([['channel', 'general'], { operator: 'is', operand: 'dm', negated: true }]),
    );
  });

  it("update_narrow_terms_containing_with_operator: one 'with', a message ID", async () => {
    const r = await badNarrowed([
      { operator: 'with', operand: ids[0] },
      { operator: 'with', operand: ids[1] },
    ]);
    expectError(
      r,
      "Invalid narrow operator combination: Duplicate 'with' operators.",
      'BAD_NARROW',
    );
    badNarrow(await badNarrowed([{ operator: 'with', operand: 'x' }]), "Invalid 'with' operator");
    badNarrow(
      await badNarrowed([{ operator: 'with', operand: 999999 }]),
      "Invalid 'with' operator",
    );
    const found = await get({
      anchor: 'oldest',
      num_before: 0,
      num_after: 10,
      narrow: [{ operator: 'with', operand: ids[2] }],
    });
    expectSuccess(found);
    expect(found.body.messages.map((m: { id: number }) => m.id)).toEqual([ids[0], ids[2]]);
  });
});

describe('POST /messages/flags/narrow (update_message_flags_for_narrow)', () => {
  const flagParams = (params: Record<string, unknown>) => ({
    anchor: 'oldest',
    include_anchor: true,
    num_before: 0,
    num_after: 10,
    narrow: [],
    op: 'add',
    flag: 'starred',
    ...params,
  });
  const flag = (params: Record<string, unknown>) =>
    alice.post('/messages/flags/narrow', flagParams(params));
  const badFlag = (params: Record<string, unknown>) =>
    refusedNarrow('POST', '/messages/flags/narrow', flagParams(params));

  it('NonNegativeInt counts, num_after checked before num_before', async () => {
    expectError(await flag({ num_before: -1 }), 'num_before is too small');
    expectError(await flag({ num_before: -1, num_after: -1 }), 'num_after is too small');
  });

  it('parse_anchor_value: "Invalid anchor"; a negative anchor is 0', async () => {
    expectError(await flag({ anchor: 'chocolate' }), 'Invalid anchor');
    const r = await flag({ anchor: '-5' });
    expectSuccess(r);
    expect(r.body.processed_count).toBe(3);
  });

  it('the narrow is built before do_update_message_flags checks the flag and operation', async () => {
    badNarrow(
      await badFlag({ narrow: [{ operator: 'foo', operand: '' }], op: 'bogus' }),
      'unknown operator foo',
    );
    expectError(await flag({ flag: 'bogus', op: 'bogus' }), "Invalid flag: 'bogus'");
    expectError(await flag({ op: 'bogus' }), "Invalid message flag operation: 'bogus'");
  });

  it("'with' is only GET /messages' operator (clean_narrow_for_message_fetch)", async () => {
    badNarrow(
      await badFlag({ narrow: [{ operator: 'with', operand: ids[0] }] }),
      'unknown operator with',
    );
  });
});

describe('message access (zerver/lib/narrow.py get_base_query_for_search)', () => {
  it('a channel with protected history shows a new subscriber only the messages they received', async () => {
    const owner = clientFor(z, 'owner');
    const send = async () => {
      const r = await owner.post('/messages', {
        type: 'stream',
        to: 'leadership',
        topic: 't',
        content: 'x',
      });
      expectSuccess(r);
      return r.body.id as number;
    };
    const before = await send();
    expectSuccess(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'leadership' }],
        principals: [user('alice').id],
      }),
    );
    const after = await send();
    const narrow = [{ operator: 'channel', operand: 'leadership' }];
    const r = await get({ anchor: 'newest', num_before: 10, num_after: 0, narrow });
    expectSuccess(r);
    const seen = (r.body.messages as { id: number }[]).map((m) => m.id);
    expect(seen).toContain(after);
    expect(seen).not.toContain(before);
    z.org.channels.find((c) => c.name === 'leadership')!.historyPublicToSubscribers = true;
    const again = await get({ anchor: 'newest', num_before: 10, num_after: 0, narrow });
    expect((again.body.messages as { id: number }[]).map((m) => m.id)).toContain(before);
  });
});
