/**
 * Conformance: a channel's privacy and history through PATCH /streams/{id}, ported from Zulip's
 * zerver/tests/test_subs.py StreamAdminTest (zerver/views/streams.py update_stream_backend).
 * Notices are Notification Bot's messages in the channel (maybe_send_channel_events_notice).
 */
import { expectError, expectSuccess } from '../support/emulator-client';
import { World } from './channels-support';

let w: World;
afterEach(() => w.close());

const ACCESS = (who: string, from: string, to: string): string =>
  `${who} changed the [access permissions](/help/channel-permissions) for this channel from **${from}** to **${to}**.`;

describe('test_subs.py StreamAdminTest.test_make_stream_public', () => {
  beforeEach(async () => {
    w = await World.start();
  });

  it('an administrator without content access: "Channel content access is required."', async () => {
    const id = await w.create('private_stream_1', { private: true });
    expectError(
      await w.as('admin').patch(`/streams/${id}`, { is_private: false }),
      'Channel content access is required.',
    );
    expect(w.byId(id).inviteOnly).toBe(true);
  });

  it('subscribed: public with public history, and the access-permissions notice', async () => {
    const id = await w.create('private_stream_1', {
      private: true,
      subscribers: ['owner', 'admin'],
    });
    expectSuccess(await w.as('admin').patch(`/streams/${id}`, { is_private: false }));
    const got = (await w.as('admin').get(`/streams/${id}`)).body.stream;
    expect([got.invite_only, got.history_public_to_subscribers]).toEqual([false, true]);
    expect(w.notices(id).map((m) => [m.topic, m.content])).toEqual([
      ['channel events', ACCESS(w.mention('admin'), 'Private, protected history', 'Public')],
    ]);
  });

  it('the moderation request channel: "Moderation request channel must be private."', async () => {
    const id = await w.create('private_stream', { private: true, subscribers: ['owner', 'admin'] });
    w.z.org.realm.moderationRequestChannelId = id;
    expectError(
      await w.as('admin').patch(`/streams/${id}`, { is_private: false }),
      'Moderation request channel must be private.',
    );
    expect(w.byId(id).inviteOnly).toBe(true);
  });

  it('can_create_public_channel_group: refused for role:nobody, allowed for a group with the user', async () => {
    const id = await w.create('private_stream_3', { private: true });
    w.z.org.realm.settings.can_create_public_channel_group = w.group('role:nobody').id;
    expectError(
      await w.as('owner').patch(`/streams/${id}`, { is_private: false }),
      'Insufficient permission',
    );
    expect(w.byId(id).inviteOnly).toBe(true);
    w.z.org.realm.settings.can_create_public_channel_group = {
      direct_members: [w.user('owner').id],
      direct_subgroups: [],
    };
    expectSuccess(await w.as('owner').patch(`/streams/${id}`, { is_private: false }));
    expect(w.byId(id).inviteOnly).toBe(false);
  });
});

describe('test_subs.py StreamAdminTest.test_make_stream_private', () => {
  beforeEach(async () => {
    w = await World.start();
  });

  it('history becomes protected unless sent (not is_private), with the notice', async () => {
    const id = await w.create('public_stream_1', { subscribers: ['owner', 'admin'] });
    expectSuccess(await w.as('admin').patch(`/streams/${id}`, { is_private: true }));
    const got = (await w.as('admin').get(`/streams/${id}`)).body.stream;
    expect([got.invite_only, got.history_public_to_subscribers]).toEqual([true, false]);
    expect(w.notices(id).map((m) => m.content)).toEqual([
      ACCESS(w.mention('admin'), 'Public', 'Private, protected history'),
    ]);
  });

  it('a default channel: "A default channel cannot be private."', async () => {
    const id = w.ch('general').id;
    expectError(
      await w.as('admin').patch(`/streams/${id}`, { is_private: true }),
      'A default channel cannot be private.',
    );
    expect(w.byId(id).inviteOnly).toBe(false);
    expect(w.notices(id)).toEqual([]);
  });

  it('can_create_private_channel_group: refused for role:nobody, allowed for a group with the user', async () => {
    const id = await w.create('public_stream_3');
    w.z.org.realm.settings.can_create_private_channel_group = w.group('role:nobody').id;
    expectError(
      await w.as('owner').patch(`/streams/${id}`, { is_private: true }),
      'Insufficient permission',
    );
    w.z.org.realm.settings.can_create_private_channel_group = {
      direct_members: [w.user('owner').id],
      direct_subgroups: [],
    };
    expectSuccess(await w.as('owner').patch(`/streams/${id}`, { is_private: true }));
    expect(w.byId(id).inviteOnly).toBe(true);
  });

  it('send_channel_events_messages=false (FL 434+): no notice', async () => {
    w.z.org.realm.sendChannelEventsMessages = false;
    const id = await w.create('stream_without_notification');
    expectSuccess(await w.as('owner').patch(`/streams/${id}`, { is_private: true }));
    expect(w.byId(id).inviteOnly).toBe(true);
    expect(w.z.org.messages?.filter((m) => m.channelId === id) ?? []).toEqual([]);
  });
});

describe('send_channel_events_messages before its feature level', () => {
  it('test_subs.py StreamAdminTest.test_make_stream_private at FL 433: the notice is posted whatever the realm says', async () => {
    w = await World.start(433);
    w.z.org.realm.sendChannelEventsMessages = false;
    const id = await w.create('public_stream_1');
    expectSuccess(await w.as('owner').patch(`/streams/${id}`, { is_private: true }));
    expect(w.notices(id).map((m) => m.content)).toEqual([
      ACCESS(w.mention('owner'), 'Public', 'Private, protected history'),
    ]);
  });

  it('register: realm_send_channel_events_messages from FL 434 only', async () => {
    w = await World.start(434);
    const at434 = (await w.as('owner').post('/register', { fetch_event_types: ['realm'] })).body;
    expect(at434.realm_send_channel_events_messages).toBe(true);
    await w.close();
    w = await World.start(433);
    const at433 = (await w.as('owner').post('/register', { fetch_event_types: ['realm'] })).body;
    expect('realm_send_channel_events_messages' in at433).toBe(false);
  });
});

describe('test_subs.py StreamAdminTest.test_make_stream_private_with_public_history', () => {
  beforeEach(async () => {
    w = await World.start();
  });

  it('public → private with shared history', async () => {
    const id = await w.create('public_history_stream');
    expectSuccess(
      await w.as('owner').patch(`/streams/${id}`, {
        is_private: true,
        history_public_to_subscribers: true,
      }),
    );
    expect([w.byId(id).inviteOnly, w.byId(id).historyPublicToSubscribers]).toEqual([true, true]);
    expect(w.lastNotice(id)).toBe(ACCESS(w.mention('owner'), 'Public', 'Private, shared history'));
  });

  it('private protected → private shared', async () => {
    const id = await w.create('private_protected_stream', { private: true });
    expectSuccess(
      await w.as('owner').patch(`/streams/${id}`, {
        is_private: true,
        history_public_to_subscribers: true,
      }),
    );
    expect(w.byId(id).historyPublicToSubscribers).toBe(true);
    expect(w.notices(id).map((m) => m.content)).toEqual([
      ACCESS(w.mention('owner'), 'Private, protected history', 'Private, shared history'),
    ]);
  });
});

describe('test_subs.py StreamAdminTest.test_change_history_access_for_private_streams', () => {
  it('history alone, both ways, a notice each', async () => {
    w = await World.start();
    const id = await w.create('private_stream', { private: true });
    expectSuccess(
      await w.as('owner').patch(`/streams/${id}`, { history_public_to_subscribers: true }),
    );
    expect([w.byId(id).inviteOnly, w.byId(id).historyPublicToSubscribers]).toEqual([true, true]);
    expectSuccess(
      await w.as('owner').patch(`/streams/${id}`, { history_public_to_subscribers: false }),
    );
    expect([w.byId(id).inviteOnly, w.byId(id).historyPublicToSubscribers]).toEqual([true, false]);
    expect(w.notices(id).map((m) => m.content)).toEqual([
      ACCESS(w.mention('owner'), 'Private, protected history', 'Private, shared history'),
      ACCESS(w.mention('owner'), 'Private, shared history', 'Private, protected history'),
    ]);
  });
});

describe('test_subs.py StreamAdminTest.test_try_make_stream_public_with_private_history', () => {
  beforeEach(async () => {
    w = await World.start();
  });

  it.each([
    ['public, is_private=false with protected history', { is_private: false }],
    ['public, protected history alone', {}],
  ])('%s: "Invalid parameters"', async (_what, extra) => {
    const id = await w.create('public_stream');
    expectError(
      await w.as('owner').patch(`/streams/${id}`, {
        ...extra,
        history_public_to_subscribers: false,
      }),
      'Invalid parameters',
    );
    expect(w.byId(id).historyPublicToSubscribers).toBe(true);
  });

  it('web-public, protected history: "Invalid parameters"', async () => {
    const id = await w.create('web_public_stream', { extra: { is_web_public: true } });
    expectError(
      await w.as('owner').patch(`/streams/${id}`, { history_public_to_subscribers: false }),
      'Invalid parameters',
    );
    expect(w.notices(id)).toEqual([]);
  });
});

describe('test_subs.py StreamAdminTest.test_make_stream_web_public', () => {
  beforeEach(async () => {
    w = await World.start();
  });

  it('web-public channels disabled: "Web-public channels are not enabled."', async () => {
    const id = await w.create('test_stream');
    w.z.org.realm.webPublicStreamsEnabled = false;
    expectError(
      await w.as('owner').patch(`/streams/${id}`, { is_web_public: true }),
      'Web-public channels are not enabled.',
    );
    expect(w.byId(id).isWebPublic).toBe(false);
  });

  it('without can_create_web_public_channel_group: "Insufficient permission"', async () => {
    const id = await w.create('test_stream');
    expectError(
      await w.as('admin').patch(`/streams/${id}`, { is_web_public: true }),
      'Insufficient permission',
    );
    expectSuccess(await w.as('owner').patch(`/streams/${id}`, { is_web_public: true }));
    expect(w.byId(id).isWebPublic).toBe(true);
    expect(w.lastNotice(id)).toBe(ACCESS(w.mention('owner'), 'Public', 'Web-public'));
  });

  it('web-public and private at once: "Invalid parameters"', async () => {
    const id = await w.create('test_stream');
    expectError(
      await w.as('owner').patch(`/streams/${id}`, {
        is_web_public: true,
        is_private: true,
        history_public_to_subscribers: true,
      }),
      'Invalid parameters',
    );
  });
});

describe('test_subs.py StreamAdminTest.test_updating_protected_history_and_can_create_topic_group_for_streams (FL 441+)', () => {
  const ERR =
    'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group';
  let id: number;
  let everyone: number;
  let moderators: number;
  let backend: number;
  let anonymous: { direct_members: number[]; direct_subgroups: number[] };

  beforeEach(async () => {
    w = await World.start();
    id = await w.create('stream', {
      private: true,
      extra: { history_public_to_subscribers: true },
    });
    everyone = w.group('role:everyone').id;
    moderators = w.group('role:moderators').id;
    backend = w.group('backend').id;
    anonymous = { direct_members: [w.user('owner').id], direct_subgroups: [moderators] };
  });

  const patch = (params: Record<string, unknown>) => w.as('owner').patch(`/streams/${id}`, params);

  it('protected history: can_create_topic_group only to role:everyone', async () => {
    expectSuccess(await patch({ history_public_to_subscribers: false }));
    for (const value of [moderators, backend, anonymous]) {
      const res = await patch({ can_create_topic_group: { new: value } });
      expectError(res, ERR);
      expect(res.body.parameters).toBe('history_public_to_subscribers, can_create_topic_group');
    }
    expect(w.byId(id).settings.can_create_topic_group).toBe(everyone);
    expectSuccess(await patch({ can_create_topic_group: { new: everyone } }));
  });

  it('protecting the history while the setting is a system group, a user group or anonymous', async () => {
    for (const value of [moderators, backend, anonymous]) {
      w.byId(id).settings.can_create_topic_group = value;
      expectError(await patch({ history_public_to_subscribers: false }), ERR);
      expect(w.byId(id).historyPublicToSubscribers).toBe(true);
    }
    w.byId(id).settings.can_create_topic_group = everyone;
    expectSuccess(await patch({ history_public_to_subscribers: false }));
    expect(w.byId(id).historyPublicToSubscribers).toBe(false);
  });

  it('both in one request: refused unless role:everyone; the history lands first (not atomic)', async () => {
    for (const value of [moderators, backend, anonymous]) {
      w.byId(id).historyPublicToSubscribers = true;
      expectError(
        await patch({
          history_public_to_subscribers: false,
          can_create_topic_group: { new: value },
        }),
        ERR,
      );
      // do_change_stream_permission ran before the settings loop refused the value.
      expect(w.byId(id).historyPublicToSubscribers).toBe(false);
      expect(w.byId(id).settings.can_create_topic_group).toBe(everyone);
    }
    w.byId(id).historyPublicToSubscribers = true;
    expectSuccess(
      await patch({
        history_public_to_subscribers: false,
        can_create_topic_group: { new: everyone },
      }),
    );
    expect(w.byId(id).historyPublicToSubscribers).toBe(false);
  });

  it('public history again allows an anonymous group; {[], [everyone]} is role:everyone', async () => {
    w.byId(id).historyPublicToSubscribers = false;
    expectSuccess(
      await patch({
        history_public_to_subscribers: true,
        can_create_topic_group: { new: anonymous },
      }),
    );
    const got = (await w.as('owner').get(`/streams/${id}`)).body.stream;
    expect(got.history_public_to_subscribers).toBe(true);
    expect(got.can_create_topic_group).toEqual(anonymous);
    expectSuccess(
      await patch({
        history_public_to_subscribers: false,
        can_create_topic_group: { new: { direct_members: [], direct_subgroups: [everyone] } },
      }),
    );
    expect(w.byId(id).historyPublicToSubscribers).toBe(false);
    expect(w.byId(id).settings.can_create_topic_group).toBe(everyone);
  });
});

describe('issue 11 item 3: making a channel private (update_stream_backend, FL 441 rule)', () => {
  it('is_private=true alone protects the history, so can_create_topic_group must be role:everyone', async () => {
    w = await World.start();
    const id = await w.create('topics');
    w.byId(id).settings.can_create_topic_group = w.group('role:moderators').id;
    expectError(
      await w.as('owner').patch(`/streams/${id}`, { is_private: true }),
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
    );
    expect(w.byId(id).inviteOnly).toBe(false);
    // Sending the history explicitly keeps it public: no rule applies.
    expectSuccess(
      await w.as('owner').patch(`/streams/${id}`, {
        is_private: true,
        history_public_to_subscribers: true,
      }),
    );
    expect([w.byId(id).inviteOnly, w.byId(id).historyPublicToSubscribers]).toEqual([true, true]);
    // Or the setting changes in the same request.
    const id2 = await w.create('topics2');
    w.byId(id2).settings.can_create_topic_group = w.group('role:moderators').id;
    expectSuccess(
      await w.as('owner').patch(`/streams/${id2}`, {
        is_private: true,
        can_create_topic_group: { new: w.group('role:everyone').id },
      }),
    );
    expect([w.byId(id2).inviteOnly, w.byId(id2).historyPublicToSubscribers]).toEqual([true, false]);
  });

  it('a protected channel whose setting is not role:everyone refuses any other change (the current value is checked)', async () => {
    w = await World.start();
    const id = await w.create('odd', {
      private: true,
      extra: { history_public_to_subscribers: true },
    });
    const moderators = w.group('role:moderators').id;
    w.byId(id).settings.can_create_topic_group = moderators;
    // Sending the unchanged value skips both checks: Zulip leaves this state behind.
    expectSuccess(
      await w.as('owner').patch(`/streams/${id}`, {
        history_public_to_subscribers: false,
        can_create_topic_group: { new: moderators },
      }),
    );
    expect(w.byId(id).historyPublicToSubscribers).toBe(false);
    expectError(
      await w.as('owner').patch(`/streams/${id}`, { description: 'x' }),
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
    );
  });

  it('at FL 440 there is no can_create_topic_group and no rule', async () => {
    w = await World.start(440);
    const id = await w.create('old');
    expectSuccess(await w.as('owner').patch(`/streams/${id}`, { is_private: true }));
    expect([w.byId(id).inviteOnly, w.byId(id).historyPublicToSubscribers]).toEqual([true, false]);
    expect(
      'can_create_topic_group' in (await w.as('owner').get(`/streams/${id}`)).body.stream,
    ).toBe(false);
  });
});
