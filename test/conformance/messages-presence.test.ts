/**
 * Message flags, reactions, presence, user status, the e2ee test notification and navigation
 * views, ported from zerver/tests/test_message_flags.py, test_reactions.py, test_presence.py,
 * test_user_status.py, test_e2ee_push_notifications.py and test_navigation_views.py.
 */
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

const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;

async function send(c: TestClient, params: Record<string, unknown>): Promise<number> {
  const r = await c.post('/messages', params);
  expectSuccess(r);
  return r.body.id as number;
}
const toGeneral = (c: TestClient = alice) =>
  send(c, { type: 'stream', to: 'general', topic: 'hello', content: 'hi' });

describe('message flags (test_message_flags.py)', () => {
  it.each([
    ['add', 'invalid', "Invalid flag: 'invalid'"],
    ['add', 'is_private', "Invalid flag: 'is_private'"],
    ['add', 'active_mobile_push_notification', "Invalid flag: 'active_mobile_push_notification'"],
    ['add', 'mentioned', "Flag not editable: 'mentioned'"],
    ['bogus', 'starred', "Invalid message flag operation: 'bogus'"],
    // UserMessage.ALL_FLAGS at FL 442: no wildcard_mentioned; group_mentioned is not editable.
    ['add', 'wildcard_mentioned', "Invalid flag: 'wildcard_mentioned'"],
    ['remove', 'group_mentioned', "Flag not editable: 'group_mentioned'"],
  ])('MessageAccessTests.test_update_invalid_flags: op=%s flag=%s', async (op, flag, msg) => {
    const id = await send(bob, { type: 'private', to: [user('alice').id], content: 'hello' });
    expectError(await alice.post('/messages/flags', { messages: [id], op, flag }), msg);
  });

  it.each([
    [[[], []], 'Invalid narrow[0]: Value error, element is not a string pair'],
    [
      [
        { operator: null, operand: 'Verona' },
        { operator: 'topic', operand: 'topic 1' },
      ],
      'Invalid narrow[0]: Value error, operator is missing',
    ],
    [
      [
        { operator: 'stream', operand: null },
        { operator: 'topic', operand: 'topic 1' },
      ],
      'Invalid narrow[0]: Value error, operand is missing',
    ],
    [['asadasd'], 'Invalid narrow[0]: Value error, dict or list required'],
    [[{ operator: 'search', operand: '' }], 'operand cannot be blank.'],
  ])('UnreadCountTests.test_update_flags_for_narrow_misuse: narrow=%j', async (narrow, msg) => {
    const r = await alice.post('/messages/flags/narrow', {
      anchor: '1',
      include_anchor: false,
      num_before: 1,
      num_after: 1,
      narrow,
      op: 'add',
      flag: 'read',
    });
    expectError(r, msg);
  });

  it('UnreadCountTests.test_update_flags_for_narrow_misuse: the anchor can only be excluded at an end', async () => {
    const r = await alice.post('/messages/flags/narrow', {
      anchor: '0',
      include_anchor: false,
      num_before: 1,
      num_after: 1,
      narrow: [],
      op: 'add',
      flag: 'read',
    });
    expectError(r, 'The anchor can only be excluded at an end of the range');
  });

  it('MessageAccessTests.test_change_star_private_message_security: a DM between others is "Invalid message(s)"', async () => {
    const id = await send(bob, { type: 'private', to: [user('carol').id], content: 'secret' });
    expectError(
      await alice.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' }),
      'Invalid message(s)',
    );
  });

  it('MessageAccessTests.test_change_star_private_stream_security: a private channel the user cannot read', async () => {
    const owner = clientFor(z, 'owner');
    const id = await send(owner, {
      type: 'stream',
      to: 'leadership',
      topic: 't',
      content: 'private',
    });
    expectError(
      await alice.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' }),
      'Invalid message(s)',
    );
  });

  it('MessageAccessTests.test_change_star: starred messages read back through register', async () => {
    const id = await toGeneral(bob);
    const r = await alice.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
    expectSuccess(r);
    expect(r.body.messages).toEqual([id]);
    const reg = await alice.post('/register', { fetch_event_types: ['starred_messages'] });
    expect(reg.body.starred_messages).toEqual([id]);
    await alice.post('/messages/flags', { messages: [id], op: 'remove', flag: 'starred' });
    const reg2 = await alice.post('/register', { fetch_event_types: ['starred_messages'] });
    expect(reg2.body.starred_messages).toEqual([]);
  });

  it('MessageAccessTests.test_change_star_public_stream_historical: starring an unreceived public message', async () => {
    // Erin is not subscribed to the public #engineering: no UserMessage row, yet she may star.
    const msg = await send(bob, { type: 'stream', to: 'engineering', topic: 't', content: 'x' });
    const erin = clientFor(z, 'erin');
    expectSuccess(
      await erin.post('/messages/flags', { messages: [msg], op: 'add', flag: 'starred' }),
    );
    const reg = await erin.post('/register', { fetch_event_types: ['starred_messages'] });
    expect(reg.body.starred_messages).toEqual([msg]);
  });
});

describe('message flags: do_update_message_flags (test_message_flags.py)', () => {
  const flags = (id: number, local: string) =>
    z.org.messages!.find((m) => m.id === id)!.flags[String(user(local).id)];
  const ch = (name: string) => z.org.channels.find((c) => c.name === name)!;
  const toChannel = (c: TestClient, to: string) =>
    send(c, { type: 'stream', to, topic: 'test', content: 'x' });
  const subscribe = async (channel: string, local: string) =>
    expectSuccess(
      await clientFor(z, 'owner').post('/users/me/subscriptions', {
        subscriptions: [{ name: channel }],
        principals: [user(local).id],
      }),
    );

  it('UnreadCountTests.test_update_flags: `messages` echoes the request; an unknown ID is no error where its flag needs no change', async () => {
    const id = await toGeneral(bob);
    const r = await alice.post('/messages/flags', {
      messages: [id, id, 999999],
      op: 'add',
      flag: 'read',
    });
    expectSuccess(r);
    expect(r.body.messages).toEqual([id, id, 999999]);
    expect(r.body.ignored_because_not_subscribed_channels).toEqual([]);
    expect(flags(id, 'alice')).toEqual(['read']);
    // Removing a star nowhere set: nothing to check either (DEFAULT_HISTORICAL_FLAGS).
    expectSuccess(
      await alice.post('/messages/flags', { messages: [999999], op: 'remove', flag: 'starred' }),
    );
    expectError(
      await alice.post('/messages/flags', { messages: [999999], op: 'remove', flag: 'read' }),
      'Invalid message(s)',
    );
  });

  it('MessageAccessTests.test_change_collapsed_public_stream_historical: a historical row, flags in bit order', async () => {
    const id = await toChannel(bob, 'engineering');
    expectSuccess(
      await clientFor(z, 'erin').post('/messages/flags', {
        messages: [id],
        op: 'add',
        flag: 'collapsed',
      }),
    );
    expect(flags(id, 'erin')).toEqual(['read', 'collapsed', 'historical']);
  });

  it('MessageAccessTests.test_change_star_private_stream_security_for_guest_user: protected history needs the message received', async () => {
    const guest = clientFor(z, 'guest');
    const star = (id: number) =>
      guest.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
    const before = await toChannel(clientFor(z, 'owner'), 'leadership');
    expectError(await star(before), 'Invalid message(s)');
    await subscribe('leadership', 'guest');
    // Subscribed, but history is not public to subscribers (has_message_access).
    expectError(await star(before), 'Invalid message(s)');
    const after = await toChannel(clientFor(z, 'owner'), 'leadership');
    expectSuccess(await star(after));
    ch('leadership').historyPublicToSubscribers = true;
    expectSuccess(await star(before));
  });

  it('UnreadCountTests.test_unsubscribed_stream_messages_unread: marking unread skips channels the user is not subscribed to, and makes historical rows elsewhere', async () => {
    const erin = clientFor(z, 'erin');
    // #engineering before erin subscribes; #design while she is subscribed, then she leaves.
    const beforeSubscribe = await toChannel(bob, 'engineering');
    await subscribe('engineering', 'erin');
    const left = await toChannel(clientFor(z, 'dave'), 'design');
    expectSuccess(
      await erin.post('/messages/flags', { messages: [left], op: 'add', flag: 'read' }),
    );
    expectSuccess(await erin.delete('/users/me/subscriptions', { subscriptions: ['design'] }));
    const neverSubscribed = await toChannel(clientFor(z, 'owner'), 'leadership');
    const ids = [beforeSubscribe, left, neverSubscribed];
    const r = await erin.post('/messages/flags', { messages: ids, op: 'remove', flag: 'read' });
    expectSuccess(r);
    expect(r.body).toMatchObject({
      messages: ids,
      ignored_because_not_subscribed_channels: [ch('design').id, ch('leadership').id].sort(
        (a, b) => a - b,
      ),
    });
    expect(flags(beforeSubscribe, 'erin')).toEqual(['historical']);
    expect(flags(left, 'erin')).toEqual(['read']);
    expect(flags(neverSubscribed, 'erin')).toBeUndefined();
  });

  it('UnreadCountTests.test_update_flags_for_narrow: the narrow form reports the channels skipped too', async () => {
    const id = await toChannel(bob, 'engineering');
    expectSuccess(await alice.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }));
    expectSuccess(
      await alice.delete('/users/me/subscriptions', { subscriptions: ['engineering'] }),
    );
    const r = await alice.post('/messages/flags/narrow', {
      anchor: String(id),
      num_before: 0,
      num_after: 0,
      narrow: [],
      op: 'remove',
      flag: 'read',
    });
    expectSuccess(r);
    expect(r.body).toMatchObject({
      processed_count: 1,
      updated_count: 0,
      ignored_because_not_subscribed_channels: [ch('engineering').id],
    });
    expect(flags(id, 'alice')).toEqual(['read']);
  });
});

describe('reactions (test_reactions.py)', () => {
  const post = (id: number, info: Record<string, unknown>, c: TestClient = alice) =>
    c.post(`/messages/${id}/reactions`, info);
  const del = (id: number, info: Record<string, unknown>, c: TestClient = alice) =>
    c.delete(`/messages/${id}/reactions`, info);
  const reactions = (id: number) => z.org.messages!.find((m) => m.id === id)!.reactions;
  const hamburger = {
    reaction_type: 'unicode_emoji',
    emoji_name: 'hamburger',
    emoji_code: '1f354',
  };

  it('ReactionEmojiTest.test_missing_emoji: emoji_name is required', async () => {
    const id = await toGeneral();
    expectError(await post(id, {}), "Missing 'emoji_name' argument", 'REQUEST_VARIABLE_MISSING');
  });

  it('ReactionEmojiTest.test_add_invalid_emoji: "Emoji \'foo\' does not exist"', async () => {
    const id = await toGeneral();
    expectError(await post(id, { emoji_name: 'foo' }), "Emoji 'foo' does not exist");
    expect(reactions(id)).toEqual([]);
  });

  it('ReactionMessageIDTest.test_invalid_message_id / test_inaccessible_message_id', async () => {
    expectError(await post(999999, { emoji_name: 'smile' }), 'Invalid message(s)');
    const id = await send(bob, { type: 'private', to: [user('carol').id], content: 'x' });
    expectError(await post(id, { emoji_name: 'smile' }), 'Invalid message(s)');
  });

  it('ReactionTest.test_add_existing_reaction: REACTION_ALREADY_EXISTS', async () => {
    const id = await toGeneral();
    expectSuccess(await post(id, { emoji_name: 'smile' }));
    expectError(
      await post(id, { emoji_name: 'smile' }),
      'Reaction already exists.',
      'REACTION_ALREADY_EXISTS',
    );
  });

  it('ReactionTest.test_remove_nonexisting_reaction: REACTION_DOES_NOT_EXIST', async () => {
    const id = await toGeneral();
    expectSuccess(await post(id, { emoji_name: 'smile' }));
    expectSuccess(await del(id, { emoji_name: 'smile' }));
    expectError(
      await del(id, { emoji_name: 'smile' }),
      "Reaction doesn't exist.",
      'REACTION_DOES_NOT_EXIST',
    );
  });

  it.each([
    [
      'test_add_default_emoji_invalid_code',
      { emoji_name: 'hamburger', emoji_code: 'TBD' },
      'Invalid emoji code.',
    ],
    [
      'test_add_default_emoji_invalid_name',
      { emoji_name: 'non-existent', emoji_code: '1f44d' },
      'Invalid emoji name.',
    ],
  ])('DefaultEmojiReactionTests.%s', async (_name, info, msg) => {
    const id = await toGeneral();
    expectError(await post(id, { reaction_type: 'unicode_emoji', ...info }), msg);
  });

  it('DefaultEmojiReactionTests.test_add_duplicate_reaction: the code decides, whatever the name', async () => {
    const id = await toGeneral();
    expectSuccess(await post(id, hamburger));
    expectError(
      await post(id, { ...hamburger, emoji_name: 'non-existent' }),
      'Reaction already exists.',
      'REACTION_ALREADY_EXISTS',
    );
  });

  it('DefaultEmojiReactionTests.test_add_reaction_by_name: the code is looked up', async () => {
    const id = await toGeneral();
    expectSuccess(await post(id, { reaction_type: 'unicode_emoji', emoji_name: '+1' }));
    expect(reactions(id)).toEqual([
      {
        userId: user('alice').id,
        emojiName: '+1',
        emojiCode: '1f44d',
        reactionType: 'unicode_emoji',
      },
    ]);
  });

  it("DefaultEmojiReactionTests.test_reaction_name_collapse: a vote takes the first reaction's name", async () => {
    const id = await toGeneral();
    expectSuccess(
      await post(id, { reaction_type: 'unicode_emoji', emoji_name: '+1', emoji_code: '1f44d' }),
    );
    expectSuccess(
      await post(
        id,
        { reaction_type: 'unicode_emoji', emoji_name: 'thumbs_up', emoji_code: '1f44d' },
        bob,
      ),
    );
    expect(reactions(id).map((r) => r.emojiName)).toEqual(['+1', '+1']);
  });

  it('DefaultEmojiReactionTests.test_delete_default_emoji_reaction, test_delete_insufficient_arguments_reaction, test_delete_non_existing_emoji_reaction', async () => {
    const id = await toGeneral();
    expectSuccess(await post(id, hamburger));
    expectError(
      await del(id, {}),
      'At least one of the following arguments must be present: emoji_name, emoji_code',
    );
    expectError(
      await del(id, {
        reaction_type: 'unicode_emoji',
        emoji_name: 'thumbs_up',
        emoji_code: '1f44d',
      }),
      "Reaction doesn't exist.",
      'REACTION_DOES_NOT_EXIST',
    );
    expectSuccess(await del(id, hamburger));
    expect(reactions(id)).toEqual([]);
  });

  it('ZulipExtraEmojiReactionTest.test_add_zulip_emoji_reaction, test_add_duplicate_zulip_reaction, test_delete_zulip_emoji, test_delete_non_existent_zulip_reaction', async () => {
    const zulip = { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' };
    const id = await toGeneral();
    expectSuccess(await post(id, zulip));
    expectError(await post(id, zulip), 'Reaction already exists.', 'REACTION_ALREADY_EXISTS');
    expectSuccess(await del(id, zulip));
    expectError(await del(id, zulip), "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
  });

  it.each([
    [
      'ZulipExtraEmojiReactionTest.test_add_invalid_extra_emoji',
      { emoji_name: 'extra_emoji', emoji_code: 'extra_emoji', reaction_type: 'zulip_extra_emoji' },
      'Invalid emoji code.',
    ],
    [
      'ZulipExtraEmojiReactionTest.test_add_invalid_emoji_name',
      { emoji_name: 'zulip_invalid', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' },
      'Invalid emoji name.',
    ],
    [
      'RealmEmojiReactionTests.test_invalid_reaction_type',
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'nonexistent_emoji_type' },
      'Invalid emoji type.',
    ],
    [
      'RealmEmojiReactionTests.test_add_realm_emoji_invalid_code',
      { emoji_name: 'green_tick', emoji_code: '9999', reaction_type: 'realm_emoji' },
      'Invalid custom emoji.',
    ],
  ])('test_reactions.py %s', async (_name, info, msg) => {
    const id = await toGeneral();
    expectError(await post(id, info), msg);
    expect(reactions(id)).toEqual([]);
  });
});

describe('reactions with custom emoji (test_reactions.py RealmEmojiReactionTests)', () => {
  // Zulip's tests start with the custom emoji green_tick.
  const GREEN_TICK = 9001;
  beforeEach(() => {
    z.org.emoji = [
      {
        id: GREEN_TICK,
        name: 'green_tick',
        fileName: 'green_tick.png',
        contentType: 'image/png',
        data: '',
        authorId: null,
        deactivated: false,
      },
    ];
  });
  const info = { reaction_type: 'realm_emoji', emoji_name: 'green_tick', emoji_code: '9001' };
  const post = async (extra: Record<string, unknown> = {}) =>
    alice.post(`/messages/${await toGeneral()}/reactions`, { ...info, ...extra });

  it('test_add_realm_emoji; test_add_realm_emoji_invalid_name', async () => {
    expectSuccess(await post());
    expectError(await post({ emoji_name: 'bogus_name' }), 'Invalid custom emoji name.');
  });

  it('test_add_deactivated_realm_emoji (both): by code, and by name alone', async () => {
    z.org.emoji![0]!.deactivated = true;
    expectError(await post(), 'This custom emoji has been deactivated.');
    const id = await toGeneral();
    expectError(
      await alice.post(`/messages/${id}/reactions`, {
        emoji_name: 'green_tick',
        reaction_type: 'realm_emoji',
      }),
      "Emoji 'green_tick' does not exist",
    );
  });
});

describe('presence (test_presence.py)', () => {
  it('UserPresenceTests.test_invalid_presence: "Invalid status: foo"', async () => {
    expectError(await alice.post('/users/me/presence', { status: 'foo' }), 'Invalid status: foo');
  });

  it('SingleUserPresenceTests.test_single_user_get: errors, then the presence of an active user', async () => {
    const carol = user('carol');
    expectSuccess(await alice.post('/users/me/presence', { status: 'active' }));
    expectError(await bob.get('/users/nonexistence@zulip-cdk.example/presence'), 'No such user');
    expectError(
      await bob.get(`/users/${carol.email}/presence`),
      `No presence data for ${carol.email}`,
    );
    expectError(await bob.get(`/users/${carol.id}/presence`), `No presence data for ${carol.id}`);
    const former = user('former');
    expectError(await bob.get(`/users/${former.email}/presence`), 'No such user');
    expectError(await bob.get(`/users/${former.id}/presence`), 'No such user');
    expectError(
      await bob.get(`/users/${user('deploy-bot').email}/presence`),
      'Presence is not supported for bot users.',
    );
    const r = await bob.get(`/users/${user('alice').id}/presence`);
    expectSuccess(r);
    expect(Object.keys(r.body.presence).sort()).toEqual(['aggregated', 'website']);
  });

  it('TestHumanUsersOnlyDecorator.test_human_only_endpoints: bots may not post presence', async () => {
    expectError(
      await clientFor(z, 'deploy-bot').post('/users/me/presence', { status: 'active' }),
      'This endpoint does not accept bot requests.',
    );
  });

  it('test_events.py (fetch_initial_state_data "presence"): modern format by user ID with slim_presence', async () => {
    await alice.post('/users/me/presence', { status: 'active' });
    const r = await bob.post('/register', { fetch_event_types: ['presence'], slim_presence: true });
    expect(Object.keys(r.body.presences)).toEqual([String(user('alice').id)]);
    expect(r.body.presence_last_update_id).toBeGreaterThan(0);
    const legacy = await bob.post('/register', { fetch_event_types: ['presence'] });
    expect(Object.keys(legacy.body.presences)).toEqual([user('alice').email]);
  });
});

describe('user status (test_user_status.py UserStatusTest.test_endpoints)', () => {
  it.each([
    [{}, 'Client did not pass any new values.'],
    [
      { status_text: 'In a meeting', emoji_code: '1f4bb' },
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    ],
    [
      { status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'invalid' },
      "Emoji 'invalid' does not exist",
    ],
    [
      { status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'car' },
      'Invalid emoji name.',
    ],
    [
      {
        status_text: 'In a meeting',
        emoji_code: '1f4bb',
        emoji_name: 'car',
        reaction_type: 'realm_emoji',
      },
      'Invalid custom emoji.',
    ],
    [{ status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
  ])('UserStatusTest.test_endpoints: POST /users/me/status %j', async (payload, msg) => {
    expectError(await alice.post('/users/me/status', payload), msg);
    expect((await bob.get(`/users/${user('alice').id}/status`)).body.status).toEqual({});
  });

  it('update_user_status_backend → check_emoji_request: an unknown reaction_type is "Invalid emoji type." (RealmEmojiReactionTests.test_invalid_reaction_type)', async () => {
    const payload = { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'strange' };
    expectError(await alice.post('/users/me/status', payload), 'Invalid emoji type.');
    expect((await bob.get(`/users/${user('alice').id}/status`)).body.status).toEqual({});
  });

  it('UserStatusTest.test_endpoints: away with a text, read back by GET /users/{id}/status and register user_status', async () => {
    expectSuccess(await alice.post('/users/me/status', { away: true, status_text: 'on vacation' }));
    const r = await bob.get(`/users/${user('alice').id}/status`);
    expect(r.body.status).toEqual({ away: true, status_text: 'on vacation' });
    const reg = await bob.post('/register', { fetch_event_types: ['user_status'] });
    expect(reg.body.user_status).toEqual({
      [String(user('alice').id)]: { away: true, status_text: 'on vacation' },
    });
  });

  it('UserStatusTest.test_endpoints: GET: no such user; a user without a status is {}', async () => {
    expectError(await alice.get('/users/12345/status'), 'No such user');
    const r = await alice.get(`/users/${user('carol').id}/status`);
    expectSuccess(r);
    expect(r.body.status).toEqual({});
  });

  it('UserStatusTest.test_endpoints: POST /users/{id}/status (FL 407): no such user, then "Insufficient permission" for a non-admin; an admin sets it', async () => {
    const payload = { status_text: 'In a meeting', emoji_name: 'car' };
    expectError(await alice.post('/users/12345/status', payload), 'No such user');
    expectError(
      await alice.post(`/users/${user('bob').id}/status`, payload),
      'Insufficient permission',
    );
    const admin = clientFor(z, 'admin');
    expectSuccess(await admin.post(`/users/${user('bob').id}/status`, payload));
    const r = await alice.get(`/users/${user('bob').id}/status`);
    expect(r.body.status).toEqual({
      status_text: 'In a meeting',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
  });
});

describe('e2ee test notification (test_e2ee_push_notifications.py SendTestPushNotificationTest)', () => {
  it('test_error_responses: no registered device is NO_ACTIVE_PUSH_DEVICE', async () => {
    expectError(
      await alice.post('/mobile_push/e2ee/test_notification'),
      'No active registered push device',
      'NO_ACTIVE_PUSH_DEVICE',
    );
    expectError(
      await alice.post('/mobile_push/e2ee/test_notification', { push_account_id: 1 }),
      'No active registered push device',
      'NO_ACTIVE_PUSH_DEVICE',
    );
  });

  it('send_e2ee_test_push_notification_api is @human_users_only', async () => {
    expectError(
      await clientFor(z, 'deploy-bot').post('/mobile_push/e2ee/test_notification'),
      'This endpoint does not accept bot requests.',
    );
  });
});

describe('navigation views (test_navigation_views.py, FL 390+)', () => {
  const views = async (c: TestClient = alice) =>
    (await c.get('/navigation_views')).body.navigation_views as Record<string, unknown>[];

  it('NavigationViewTests.test_get_navigation_views: none, then the added built-in view', async () => {
    expect(await views()).toEqual([]);
    expectSuccess(await alice.post('/navigation_views', { fragment: 'inbox', is_pinned: true }));
    expect(await views()).toEqual([{ fragment: 'inbox', is_pinned: true, name: null }]);
  });

  it('NavigationViewTests.test_add_navigation_view', async () => {
    expectSuccess(await alice.post('/navigation_views', { fragment: 'recent', is_pinned: true }));
    expectError(
      await alice.post('/navigation_views', { fragment: 'recent', is_pinned: true, name: 'foo' }),
      'Built-in views cannot have a custom name.',
    );
    expectError(
      await alice.post('/navigation_views', { fragment: '', is_pinned: true, name: 'foo' }),
      'fragment cannot be blank',
    );
    expectError(
      await alice.post('/navigation_views', { fragment: 'narrow/view', is_pinned: true }),
      'Custom views must have a valid name.',
    );
    expectSuccess(
      await alice.post('/navigation_views', {
        fragment: 'narrow/view',
        is_pinned: true,
        name: 'foo',
      }),
    );
    expectError(
      await alice.post('/navigation_views', { fragment: 'recent', is_pinned: true }),
      'Navigation view already exists.',
    );
    expectError(
      await alice.post('/navigation_views', {
        fragment: 'narorw/is/attachment',
        is_pinned: true,
        name: 'foo',
      }),
      'Navigation view already exists.',
    );
    expect((await views()).map((v) => v.fragment)).toEqual(['recent', 'narrow/view']);
  });

  it('NavigationViewTests.test_update_navigation_view', async () => {
    await alice.post('/navigation_views', { fragment: 'inbox', is_pinned: true });
    expectSuccess(await alice.patch('/navigation_views/inbox', { is_pinned: false }));
    expect((await views())[0]).toMatchObject({ fragment: 'inbox', is_pinned: false });
    expectError(
      await alice.patch('/navigation_views/inbox', { is_pinned: true, name: 'Inbox View' }),
      'Built-in views cannot have a custom name.',
    );
    await alice.post('/navigation_views', {
      fragment: 'narrow/is/alerted',
      is_pinned: true,
      name: 'Alert Words',
    });
    expectSuccess(
      await alice.patch('/navigation_views/narrow/is/alerted', {
        is_pinned: false,
        name: 'Watched Phrases',
      }),
    );
    await alice.post('/navigation_views', {
      fragment: 'narrow/is/attachment',
      is_pinned: true,
      name: 'Attachments',
    });
    expectError(
      await alice.patch('/navigation_views/narrow/is/attachment', {
        is_pinned: false,
        name: 'Watched Phrases',
      }),
      'Navigation view already exists.',
    );
    expectError(
      await alice.patch('/navigation_views/nonexistent', { is_pinned: false, name: 'New view' }),
      'Navigation view does not exist.',
      'BAD_REQUEST',
      404,
    );
    expect(await views()).toEqual([
      { fragment: 'inbox', is_pinned: false, name: null },
      { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Watched Phrases' },
      { fragment: 'narrow/is/attachment', is_pinned: true, name: 'Attachments' },
    ]);
  });

  it('NavigationViewTests.test_remove_navigation_view', async () => {
    await alice.post('/navigation_views', { fragment: 'recent', is_pinned: true });
    expectSuccess(await alice.delete('/navigation_views/recent'));
    expect(await views()).toEqual([]);
    expectError(
      await alice.delete('/navigation_views/nonexistent'),
      'Navigation view does not exist.',
      'BAD_REQUEST',
      404,
    );
  });

  it("NavigationViewTests.test_navigation_view_permissions: another user's view does not exist for you", async () => {
    await alice.post('/navigation_views', { fragment: 'recent', is_pinned: true });
    expectError(
      await bob.patch('/navigation_views/recent', { is_pinned: false }),
      'Navigation view does not exist.',
      'BAD_REQUEST',
      404,
    );
    expect(await views()).toEqual([{ fragment: 'recent', is_pinned: true, name: null }]);
  });
});
