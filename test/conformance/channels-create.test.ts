/**
 * Conformance: POST /channels/create (FL 417), ported from Zulip's
 * zerver/tests/test_channel_creation.py (zerver/views/streams.py create_channel,
 * zerver/lib/streams.py check_channel_creation_permissions and
 * access_requested_group_permissions_for_streams). Cases that Zulip runs through
 * POST /users/me/subscriptions are ported onto /channels/create where the view shares the rule.
 */
import { CHANNEL_PERMISSIONS } from '../../src/model/permissions';
import { expectError, expectSuccess } from '../support/emulator-client';
import { World } from './channels-support';

let w: World;
beforeEach(async () => {
  w = await World.start();
});
afterEach(() => w.close());

const create = (who: string, params: Record<string, unknown>) =>
  w.as(who).post('/channels/create', { subscribers: [w.user(who).id], ...params });

describe('test_channel_creation.py TestCreateStreams.test_create_stream_using_add_channel', () => {
  it('creates; description, an anonymous can_administer_channel_group and a folder', async () => {
    expectSuccess(await create('admin', { name: 'basketball' }));
    expect(w.ch('basketball').name).toBe('basketball');
    const folder = (
      await w.as('admin').post('/channel_folders/create', { name: 'sports', description: '' })
    ).body.channel_folder_id as number;
    const anon = {
      direct_members: [w.user('carol').id],
      direct_subgroups: [w.group('role:nobody').id],
    };
    const res = await create('admin', {
      name: 'testchannel',
      description: 'test channel',
      can_administer_channel_group: anon,
      folder_id: folder,
    });
    expectSuccess(res);
    const got = (await w.as('admin').get(`/streams/${res.body.id}`)).body.stream;
    expect([got.name, got.description, got.folder_id]).toEqual([
      'testchannel',
      'test channel',
      folder,
    ]);
    expect(got.can_administer_channel_group).toEqual(anon);
  });

  it('the "channel created" notice in "channel events", read for the creator; none when disabled', async () => {
    const res = await create('admin', { name: 'testchannel', description: 'test channel' });
    expectSuccess(res);
    const [m, ...rest] = w.notices(res.body.id);
    expect(rest).toEqual([]);
    expect(m?.topic).toBe('channel events');
    expect(m?.content).toBe(
      `**Public** channel created by ${w.mention('admin')}. **Description:**\n\`\`\`\` quote\ntest channel\n\`\`\`\``,
    );
    expect(m?.flags[String(w.user('admin').id)]).toContain('read');
    w.z.org.realm.sendChannelEventsMessages = false;
    const quiet = await create('admin', { name: 'testchannel2' });
    expectSuccess(quiet);
    expect((w.z.org.messages ?? []).filter((x) => x.channelId === quiet.body.id)).toEqual([]);
  });

  it('no notice for a channel created without subscribers', async () => {
    const res = await w.as('admin').post('/channels/create', { name: 'empty', subscribers: [] });
    expectSuccess(res);
    expect(w.notices(res.body.id)).toEqual([]);
  });

  it('an existing name: 409 CHANNEL_ALREADY_EXISTS', async () => {
    expectSuccess(await create('admin', { name: 'basketball' }));
    const res = await create('admin', { name: 'basketball' });
    expectError(res, "Channel 'basketball' already exists", 'CHANNEL_ALREADY_EXISTS', 409);
    expect(res.body.channel_name).toBe('basketball');
    expect(w.z.org.channels.filter((c) => c.name === 'basketball')).toHaveLength(1);
  });

  it('no subscribers', async () => {
    const res = await w
      .as('admin')
      .post('/channels/create', { name: 'no-sub-channel', subscribers: [] });
    expectSuccess(res);
    expect((await w.as('admin').get(`/streams/${res.body.id}/members`)).body.subscribers).toEqual(
      [],
    );
  });

  it('an unknown user: "No such user", nothing created', async () => {
    expectError(
      await w.as('admin').post('/channels/create', {
        name: 'invalid-user-channel',
        subscribers: [w.user('admin').id, 100000],
      }),
      'No such user',
    );
    expect(w.z.org.channels.some((c) => c.name === 'invalid-user-channel')).toBe(false);
  });
});

describe('test_channel_creation.py TestCreateStreams.test_channel_create_message_exists_for_all_policy_types (on /channels/create)', () => {
  it.each([
    ['web_public', { is_web_public: true }, '**Web-public**'],
    ['public', {}, '**Public**'],
    [
      'private_shared_history',
      { invite_only: true, history_public_to_subscribers: true },
      '**Private, shared history**',
    ],
    ['private_protected_history', { invite_only: true }, '**Private, protected history**'],
  ])('%s', async (key, params, policy) => {
    const res = await create('owner', { name: `New ${key} channel`, ...params });
    expectSuccess(res);
    const notices = w.notices(res.body.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.content).toContain(`${policy} channel created by ${w.mention('owner')}`);
    expect(notices[0]?.content).toContain('*No description.*');
  });
});

describe('test_channel_creation.py TestCreateStreams.test_channel_creation_miscellaneous', () => {
  it('retention: an administrator is refused, an owner sets it', async () => {
    expectError(
      await create('admin', { name: 'new_channel', message_retention_days: 10 }),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
    const res = await w.as('owner').post('/channels/create', {
      name: 'new_channel',
      subscribers: [w.user('admin').id],
      message_retention_days: 10,
    });
    expectSuccess(res);
    expect(
      (await w.as('owner').get(`/streams/${res.body.id}`)).body.stream.message_retention_days,
    ).toBe(10);
  });

  it('default channels: not private; an administrator creates a public one', async () => {
    expectError(
      await create('admin', {
        name: 'testing_channel1',
        is_default_stream: true,
        invite_only: true,
      }),
      'A default channel cannot be private.',
    );
    const res = await create('admin', { name: 'testing_channel1', is_default_stream: true });
    expectSuccess(res);
    expect(w.z.org.defaultChannelIds).toContain(res.body.id);
  });

  it('web-public: refused when disabled, created by an owner when enabled', async () => {
    w.z.org.realm.webPublicStreamsEnabled = false;
    expectError(
      await create('owner', { name: 'testing_web_public_channel', is_web_public: true }),
      'Web-public channels are not enabled.',
    );
    w.z.org.realm.webPublicStreamsEnabled = true;
    expectSuccess(
      await create('owner', { name: 'testing_web_public_channel', is_web_public: true }),
    );
    expect(w.ch('testing_web_public_channel').isWebPublic).toBe(true);
  });

  it('guests: "Not allowed for guest users"', async () => {
    expectError(
      await create('guest', { name: 'testing_channel4', invite_only: true }),
      'Not allowed for guest users',
    );
  });

  it('topics_policy needs can_set_topics_policy_group', async () => {
    w.z.org.realm.settings.can_set_topics_policy_group = w.group('role:owners').id;
    const policy = JSON.stringify('disable_empty_topic');
    expectError(
      await create('alice', { name: 'testing_channel4', topics_policy: policy }),
      'Insufficient permission',
    );
    const res = await create('owner', { name: 'testing_channel4', topics_policy: policy });
    expectSuccess(res);
    expect((await w.as('owner').get(`/streams/${res.body.id}`)).body.stream.topics_policy).toBe(
      'disable_empty_topic',
    );
  });
});

describe('test_channel_creation.py TestCreateStreams._test_group_based_settings_for_creating_channels', () => {
  it.each([
    [
      'test_group_based_permissions_for_creating_private_streams',
      'can_create_private_channel_group',
      { invite_only: true },
    ],
    [
      'test_group_based_permissions_for_creating_public_streams',
      'can_create_public_channel_group',
      {},
    ],
    [
      'test_group_based_permissions_for_creating_web_public_streams',
      'can_create_web_public_channel_group',
      { is_web_public: true },
    ],
  ])('%s', async (_t, setting, kind) => {
    let n = 0;
    const check = async (who: string, ok: boolean) => {
      n += 1;
      const res = await create(who, { name: `testing_channel_group_permission${n}`, ...kind });
      if (ok) expectSuccess(res);
      else expectError(res, 'Insufficient permission');
      expect(w.z.org.channels.some((c) => c.name === `testing_channel_group_permission${n}`)).toBe(
        ok,
      );
    };
    const set = (v: number | { direct_members: number[]; direct_subgroups: number[] }) => {
      w.z.org.realm.settings[setting] = v;
    };
    set(w.group('role:nobody').id);
    await check('alice', false);
    await check('admin', false);
    set(w.group('role:members').id);
    await check('alice', true);
    await check('admin', true);
    set(w.group('role:administrators').id);
    await check('alice', false);
    await check('admin', true);
    set(w.group('design').id);
    await check('alice', false);
    await check('dave', true);
    set({ direct_members: [w.user('carol').id], direct_subgroups: [w.group('backend').id] });
    await check('dave', false);
    await check('bob', true);
    await check('carol', true);
  });
});

describe('test_channel_creation.py TestCreateStreams.test_can_create_topic_group_for_protected_history_streams (FL 441+)', () => {
  const ERR =
    'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group';

  it('a private channel with protected history: only role:everyone', async () => {
    const anon = {
      direct_members: [w.user('owner').id],
      direct_subgroups: [w.group('role:moderators').id],
    };
    for (const value of [w.group('role:moderators').id, w.group('backend').id, anon]) {
      expectError(
        await create('owner', {
          name: 'test_protected_history_stream',
          invite_only: true,
          history_public_to_subscribers: false,
          can_create_topic_group: value,
        }),
        ERR,
      );
      expect(w.z.org.channels.some((c) => c.name === 'test_protected_history_stream')).toBe(false);
    }
    const res = await create('owner', {
      name: 'test_protected_history_stream',
      invite_only: true,
      history_public_to_subscribers: false,
      can_create_topic_group: w.group('role:everyone').id,
    });
    expectSuccess(res);
    const got = (await w.as('owner').get(`/streams/${res.body.id}`)).body.stream;
    expect(got.history_public_to_subscribers).toBe(false);
    expect(got.can_create_topic_group).toBe(w.group('role:everyone').id);
  });

  it('history defaults from invite_only: a private channel without the parameter is protected', async () => {
    expectError(
      await create('owner', {
        name: 'p',
        invite_only: true,
        can_create_topic_group: w.group('role:moderators').id,
      }),
      ERR,
    );
    // A public channel without the parameter has public history.
    expectSuccess(
      await create('owner', { name: 'q', can_create_topic_group: w.group('role:moderators').id }),
    );
    expect(w.ch('q').historyPublicToSubscribers).toBe(true);
  });

  it('validate_can_create_topic_group_setting_for_protected_history_streams reads a given history_public_to_subscribers as sent, even for a public channel (create_stream_if_needed makes its history public afterwards)', async () => {
    const params = {
      history_public_to_subscribers: false,
      can_create_topic_group: w.group('role:moderators').id,
    };
    expectError(await create('owner', { name: 'q', ...params }), ERR);
    expectError(
      await w.as('owner').post('/users/me/subscriptions', {
        subscriptions: JSON.stringify([{ name: 'q' }]),
        ...params,
      }),
      ERR,
    );
    expect(w.z.org.channels.some((c) => c.name === 'q')).toBe(false);
    expectSuccess(
      await create('owner', {
        name: 'q',
        history_public_to_subscribers: false,
        invite_only: false,
      }),
    );
    expect(w.ch('q').historyPublicToSubscribers).toBe(true);
  });
});

describe('issue 11 item 4: create_channel (FL 442) checks but does not apply three settings', () => {
  it.each([
    ['can_create_topic_group', 'role:everyone'],
    ['can_delete_any_message_group', 'role:nobody'],
    ['can_delete_own_message_group', 'role:nobody'],
  ])('%s sent on creation leaves the default (%s)', async (setting, dflt) => {
    const res = await create('owner', {
      name: 'ignored',
      [setting]: w.group('role:moderators').id,
    });
    expectSuccess(res);
    expect(res.body.ignored_parameters_unsupported).toBeUndefined();
    const got = (await w.as('owner').get(`/streams/${res.body.id}`)).body.stream;
    expect(got[setting]).toBe(w.group(dflt).id);
  });

  it('the ignored settings are still checked: a bad group fails the creation', async () => {
    expectError(
      await create('owner', { name: 'checked', can_delete_any_message_group: 999999 }),
      'Invalid user group ID: 999999',
    );
    expectError(
      await create('owner', {
        name: 'checked',
        can_create_topic_group: w.group('role:internet').id,
      }),
      "'can_create_topic_group' setting cannot be set to 'role:internet' group.",
    );
  });

  it('send_new_subscription_messages is not a parameter of /channels/create', async () => {
    const res = await create('owner', { name: 'quiet', send_new_subscription_messages: false });
    expectSuccess(res);
    expect(res.body.ignored_parameters_unsupported).toEqual(['send_new_subscription_messages']);
  });
});

describe('test_channel_creation.py TestCreateStreams.test_permission_settings_on_stream_creation', () => {
  const applied = Object.values(CHANNEL_PERMISSIONS)
    .map((i) => i.wire)
    .filter(
      (s) =>
        ![
          'can_create_topic_group',
          'can_delete_any_message_group',
          'can_delete_own_message_group',
        ].includes(s),
    );
  it.each(applied)('%s: a system group, a user group and an anonymous group', async (setting) => {
    const moderators = w.group('role:moderators').id;
    const values = [
      moderators,
      w.group('backend').id,
      { direct_members: [w.user('alice').id], direct_subgroups: [moderators] },
    ];
    for (const [i, value] of values.entries()) {
      const res = await create('owner', { name: `new_stream${i}`, [setting]: value });
      expectSuccess(res);
      const got = (await w.as('owner').get(`/streams/${res.body.id}`)).body.stream;
      expect(got[setting]).toEqual(value);
    }
  });
});

describe('test_channel_creation.py TestCreateStreams.test_default_permission_settings_on_stream_creation', () => {
  it('defaults: the creator administers (test_can_administer_channel_group_default_on_stream_creation); nobody adds or subscribes; administrators remove; everyone posts', async () => {
    const res = await create('alice', { name: 'new_stream', description: 'New stream' });
    expectSuccess(res);
    const got = (await w.as('alice').get(`/streams/${res.body.id}`)).body.stream;
    expect(got.can_administer_channel_group).toEqual({
      direct_members: [w.user('alice').id],
      direct_subgroups: [],
    });
    expect(got.can_add_subscribers_group).toBe(w.group('role:nobody').id);
    expect(got.can_remove_subscribers_group).toBe(w.group('role:administrators').id);
    expect(got.can_send_message_group).toBe(w.group('role:everyone').id);
    expect(got.can_subscribe_group).toBe(w.group('role:nobody').id);
    expect(got.creator_id).toBe(w.user('alice').id);
  });
});

describe('test_channel_permissions.py ChannelAdministerPermissionTest.test_can_set_delete_message_policy_group (creation)', () => {
  it('a member may not set the delete settings (other than role:nobody); a moderator may', async () => {
    const owners = w.group('role:owners').id;
    for (const setting of ['can_delete_any_message_group', 'can_delete_own_message_group'])
      expectError(
        await create('alice', { name: 'new_test_stream', [setting]: owners }),
        'Insufficient permission',
      );
    expectSuccess(
      await create('alice', {
        name: 'new_test_stream',
        can_delete_any_message_group: w.group('role:nobody').id,
      }),
    );
    expectSuccess(
      await create('moderator', { name: 'new_test_stream2', can_delete_own_message_group: owners }),
    );
  });
});

describe('test_channel_creation.py TestCreateStreams.test_history_public_to_subscribers_on_stream_creation', () => {
  it.each([
    ['publicstream', {}, true],
    ['webpublicstream', { is_web_public: true }, true],
    ['privatestream', { invite_only: true }, false],
    ['privatewithhistory', { invite_only: true, history_public_to_subscribers: true }, true],
    ['publictrywithouthistory', { history_public_to_subscribers: false }, true],
  ])('%s', async (name, params, history) => {
    const res = await create('owner', { name, ...params });
    expectSuccess(res);
    expect(
      (await w.as('owner').get(`/streams/${res.body.id}`)).body.stream
        .history_public_to_subscribers,
    ).toBe(history);
  });
});

describe('test_channel_creation.py TestCreateStreams.test_add_stream_as_default_on_stream_creation', () => {
  it('a member: "Insufficient permission"; an administrator: default; private: refused', async () => {
    expectError(
      await create('alice', { name: 'default_stream', is_default_stream: true }),
      'Insufficient permission',
    );
    const res = await create('admin', { name: 'default_stream', is_default_stream: true });
    expectSuccess(res);
    expect(w.z.org.defaultChannelIds).toContain(res.body.id);
    expectError(
      await create('admin', {
        name: 'private_default_stream',
        is_default_stream: true,
        invite_only: true,
      }),
      'A default channel cannot be private.',
    );
  });
});

describe('test_channel_creation.py TestCreateStreams.test_adding_channels_to_folder_during_creation', () => {
  it('an unknown folder is refused; a folder is set; none by default', async () => {
    expectError(
      await create('alice', { name: 'new_stream', folder_id: 99 }),
      'Invalid channel folder ID',
    );
    const folder = w.z.org.folders[0]!.id;
    expectSuccess(await create('alice', { name: 'new_stream', folder_id: folder }));
    expect(w.ch('new_stream').folderId).toBe(folder);
    expectSuccess(await create('alice', { name: 'new_stream_3' }));
    expect(w.ch('new_stream_3').folderId).toBeNull();
  });
});

describe('test_channel_creation.py TestCreateStreams.test_stream_message_retention_days_on_stream_creation', () => {
  it('an administrator: refused for 10 and unlimited, allowed for the realm default', async () => {
    for (const value of [10, JSON.stringify('unlimited')])
      expectError(
        await create('admin', { name: 'new_stream', message_retention_days: value }),
        'Must be an organization owner',
        'UNAUTHORIZED_PRINCIPAL',
      );
    expectSuccess(
      await create('admin', {
        name: 'new_stream',
        message_retention_days: JSON.stringify('realm_default'),
      }),
    );
    expect(w.ch('new_stream').messageRetentionDays).toBeNull();
  });

  it('a bad value is refused before the permission check (parse_message_retention_days first)', async () => {
    expectError(
      await create('admin', { name: 'new_stream', message_retention_days: -1 }),
      "Bad value for 'message_retention_days': -1",
      'REQUEST_VARIABLE_INVALID',
    );
  });
});

describe('names and descriptions on creation (create_channel parameters, check_stream_name)', () => {
  it.each([
    ['   ', 'name cannot be blank'],
    ['x'.repeat(61), 'Channel name too long (limit: 60 characters).'],
    ['abc\u0000', 'Invalid character in channel name, at position 4.'],
  ])(
    'test_subs.py SubscriptionRestApiTest name checks, on /channels/create: %j',
    async (name, msg) => {
      expectError(await create('alice', { name }), msg);
    },
  );

  it('the name is stripped', async () => {
    const res = await create('alice', { name: '  padded  ' });
    expectSuccess(res);
    expect((await w.as('alice').get(`/streams/${res.body.id}`)).body.stream.name).toBe('padded');
  });

  it('test_channel_creation.py TestCreateStreams.test_create_api_multiline_description (on /channels/create)', async () => {
    const res = await create('alice', {
      name: 'new_stream',
      description: 'multi\nline\ndescription',
    });
    expectSuccess(res);
    expect(w.ch('new_stream').description).toBe('multi line description');
    expectError(
      await create('alice', { name: 'long', description: 'a'.repeat(1025) }),
      'description is too long (limit: 1024 characters)',
    );
  });

  it('before FL 417 there is no /channels/create', async () => {
    await w.close();
    w = await World.start(416);
    const res = await w.as('owner').post('/channels/create', { name: 'x', subscribers: [] });
    expectError(res, 'Invalid API endpoint', 'BAD_REQUEST', 404);
  });
});
