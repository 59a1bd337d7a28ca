/**
 * POST /users/me/subscriptions, the view's own checks and its notifications
 * (zerver/views/streams.py `add_subscriptions_backend` and
 * `send_user_subscribed_and_new_channel_notifications`), ported from Zulip's
 * zerver/tests/test_subs.py (feature level 442). Zulip's test users map onto the demo
 * organization: hamlet is alice, iago is admin, desdemona is owner.
 */
import { expectError, expectSuccess } from '../support/emulator-client';
import { World } from './channels-support';

let w: World;
beforeEach(async () => {
  w = await World.start();
});
afterEach(() => w.close());

const subscribe = (who: string, names: string[], extra: Record<string, unknown> = {}) =>
  w.as(who).post('/users/me/subscriptions', {
    subscriptions: names.map((name) => ({ name })),
    ...extra,
  });

describe('test_subs.py SubscriptionAPITest.test_can_set_topics_policy_group', () => {
  const policy = JSON.stringify('allow_empty_topic');

  it('a member outside the group is refused; an administrator outside it is not (can_set_topics_policy)', async () => {
    w.z.org.realm.settings.can_set_topics_policy_group = w.group('role:owners').id;
    expectError(
      await subscribe('alice', ['new_test_stream'], { topics_policy: policy }),
      'Insufficient permission',
    );
    expect(w.z.org.channels.some((c) => c.name === 'new_test_stream')).toBe(false);
    expectSuccess(await subscribe('admin', ['new_test_stream'], { topics_policy: policy }));
    expect(w.ch('new_test_stream').topicsPolicy).toBe('allow_empty_topic');
  });

  it('checked in the loop over the requested channels, existing ones too (validate_topics_policy)', async () => {
    w.z.org.realm.settings.can_set_topics_policy_group = w.group('role:owners').id;
    await w.create('existing', { subscribers: ['owner'] });
    expectError(
      await subscribe('alice', ['existing'], { topics_policy: policy }),
      'Insufficient permission',
    );
    // `inherit` needs no permission.
    expectSuccess(
      await subscribe('alice', ['existing'], { topics_policy: JSON.stringify('inherit') }),
    );
  });

  it('so is the retention value (parse_message_retention_days), and the folder comes first', async () => {
    await w.create('existing', { subscribers: ['owner'] });
    expectError(
      await subscribe('alice', ['existing'], { message_retention_days: JSON.stringify(0) }),
      "Bad value for 'message_retention_days': 0",
      'REQUEST_VARIABLE_INVALID',
    );
    expectError(
      await subscribe('alice', ['existing'], {
        folder_id: 4242,
        message_retention_days: JSON.stringify(0),
      }),
      'Invalid channel folder ID',
    );
    expect(
      w.z.org.subscriptions.some(
        (s) => s.channelId === w.ch('existing').id && s.userId === w.user('alice').id,
      ),
    ).toBe(false);
  });
});

/** Messages Notification Bot sent since `after` (an ID), oldest first. */
const fromBot = (after: number) =>
  (w.z.org.messages ?? []).filter((m) => m.id > after && m.senderId === w.z.org.notificationBotId);
const lastId = (): number => (w.z.org.messages ?? []).at(-1)?.id ?? 0;

async function setAnnouncements(name: string): Promise<void> {
  expectSuccess(
    await w
      .as('owner')
      .patch('/realm', { new_stream_announcements_stream_id: JSON.stringify(w.ch(name).id) }),
  );
}

describe('test_subs.py SubscriptionAPITest: notifications (send_user_subscribed_and_new_channel_notifications)', () => {
  it('test_successful_subscriptions_notifies_pm: no direct message about a channel the request created', async () => {
    const before = lastId();
    const res = await subscribe('admin', ['brand new'], {
      announce: true,
      principals: JSON.stringify([w.user('alice').id]),
    });
    expectSuccess(res);
    expect(fromBot(before).filter((m) => m.type === 'private')).toEqual([]);
  });

  it('test_successful_subscriptions_notifies_stream: the announcement, then the "channel created" notice', async () => {
    await setAnnouncements('general');
    const before = lastId();
    expectSuccess(
      await subscribe('admin', ['brand new'], {
        announce: true,
        principals: JSON.stringify([w.user('alice').id]),
      }),
    );
    const [announcement, created, ...rest] = fromBot(before);
    expect(rest).toEqual([]);
    expect(announcement).toMatchObject({
      type: 'stream',
      channelId: w.ch('general').id,
      topic: 'new channels',
      content: `${w.mention('admin')} created a new channel #**brand new**.`,
    });
    expect(created).toMatchObject({
      channelId: w.ch('brand new').id,
      topic: 'channel events',
      content: `**Public** channel created by ${w.mention('admin')}. **Description:**\n\`\`\`\` quote\n*No description.*\n\`\`\`\``,
    });
    // mark_as_read: the acting user has read both.
    expect(announcement?.flags[String(w.user('admin').id)]).toContain('read');
    expect(created?.flags[String(w.user('alice').id)]).toEqual([]);
  });

  it('test_successful_subscription_notifies_in_empty_topic_only_stream: the announcement in the empty topic', async () => {
    await setAnnouncements('general');
    w.ch('general').topicsPolicy = 'empty_topic_only';
    const before = lastId();
    expectSuccess(
      await subscribe('admin', ['brand new'], {
        announce: true,
        principals: JSON.stringify([w.user('alice').id]),
      }),
    );
    const [announcement] = fromBot(before);
    expect(announcement?.channelId).toBe(w.ch('general').id);
    expect(announcement?.topic).toBe('');
    expect(announcement?.content).toBe(
      `${w.mention('admin')} created a new channel #**brand new**.`,
    );
  });

  it('test_successful_subscriptions_notifies_with_escaping: a name the link syntax keeps', async () => {
    await setAnnouncements('general');
    const before = lastId();
    expectSuccess(
      await subscribe('admin', ['strange ) \\ test'], {
        announce: true,
        topics_policy: JSON.stringify('allow_empty_topic'),
        principals: JSON.stringify([w.user('alice').id]),
      }),
    );
    expect(fromBot(before)[0]?.content).toBe(
      `${w.mention('admin')} created a new channel #**strange ) \\ test**.`,
    );
  });

  it('get_stream_link_syntax: a name that would break #**…** is a Markdown link (get_fallback_markdown_link)', async () => {
    await setAnnouncements('general');
    const before = lastId();
    expectSuccess(await subscribe('admin', ['a*b (c).d', 'x>y'], { announce: true }));
    const a = w.ch('a*b (c).d').id;
    const x = w.ch('x>y').id;
    expect(fromBot(before)[0]?.content).toBe(
      `${w.mention('admin')} created the following channels: ` +
        `[#a&#42;b (c).d](#narrow/channel/${a}-a*b-.28c.29.2Ed), ` +
        `[#x&gt;y](#narrow/channel/${x}-x.3Ey).`,
    );
  });

  it('no announcement without announce, nor without an announcements channel', async () => {
    const before = lastId();
    expectSuccess(await subscribe('admin', ['one'], { announce: true }));
    await setAnnouncements('general');
    expectSuccess(await subscribe('admin', ['two']));
    expect(fromBot(before).map((m) => m.channelId)).toEqual([w.ch('one').id, w.ch('two').id]);
  });
});

describe('test_subs.py SubscriptionAPITest.test_notification_bot_dm_on_subscription', () => {
  const principals = () =>
    JSON.stringify(['owner', 'bob', 'alice', 'carol', 'admin', 'erin'].map((l) => w.user(l).id));

  it('an existing channel: a direct message to each user subscribed by someone else, no announcement', async () => {
    await setAnnouncements('general');
    await w.create('test A', { subscribers: [] });
    const before = lastId();
    const res = await subscribe('owner', ['test A'], { principals: principals(), announce: true });
    expectSuccess(res);
    expect(res.body.new_subscription_messages_sent).toBe(true);
    const sent = fromBot(before);
    expect(sent.every((m) => m.type === 'private')).toBe(true);
    expect(sent.map((m) => m.recipientIds.find((r) => r !== m.senderId)).sort()).toEqual(
      ['bob', 'alice', 'carol', 'admin', 'erin'].map((l) => w.user(l).id).sort(),
    );
    expect(sent[0]?.content).toBe(`${w.mention('owner')} subscribed you to #**test A**.`);
    // Unread for its recipient.
    expect(Object.values(sent[0]!.flags)).toEqual([[]]);
  });

  it('a new channel: the announcement and the notice, no direct message', async () => {
    await setAnnouncements('general');
    const before = lastId();
    const res = await subscribe('owner', ['test B'], { principals: principals(), announce: true });
    expect(res.body.new_subscription_messages_sent).toBe(true);
    expect(fromBot(before).map((m) => [m.type, m.channelId])).toEqual([
      ['stream', w.ch('general').id],
      ['stream', w.ch('test B').id],
    ]);
  });

  it('several channels in one message, sorted; none with send_new_subscription_messages=false', async () => {
    await w.create('zeta', { subscribers: [] });
    await w.create('alpha', { subscribers: [] });
    const before = lastId();
    expectSuccess(
      await subscribe('owner', ['zeta', 'alpha'], {
        principals: JSON.stringify([w.user('alice').id]),
      }),
    );
    expect(fromBot(before).map((m) => m.content)).toEqual([
      `${w.mention('owner')} subscribed you to the following channels:\n\n* #**alpha**\n* #**zeta**`,
    ]);
    await w.create('quiet', { subscribers: [] });
    const later = lastId();
    const res = await subscribe('owner', ['quiet'], {
      principals: JSON.stringify([w.user('alice').id]),
      send_new_subscription_messages: false,
    });
    expect(res.body).not.toHaveProperty('new_subscription_messages_sent');
    expect(fromBot(later)).toEqual([]);
  });
});

describe('test_channel_creation.py TestCreateStreams.test_auto_mark_stream_created_message_as_read_for_stream_creator', () => {
  it('two messages, a row per subscriber of each channel; read for the creator only', async () => {
    await w.create('announce', { subscribers: ['admin', 'alice'] });
    await setAnnouncements('announce');
    const before = lastId();
    const res = await subscribe('admin', ['brand new stream'], {
      history_public_to_subscribers: true,
      invite_only: false,
      announce: true,
      principals: JSON.stringify(['admin', 'bob', 'carol', 'alice'].map((l) => w.user(l).id)),
    });
    expectSuccess(res);
    expect(res.body.already_subscribed).toEqual({});
    expect(Object.keys(res.body.subscribed).sort()).toEqual(
      ['admin', 'bob', 'carol', 'alice'].map((l) => String(w.user(l).id)).sort(),
    );
    expect(res.body.new_subscription_messages_sent).toBe(true);
    const sent = (w.z.org.messages ?? []).filter((m) => m.id > before);
    expect(sent.map((m) => m.channelId)).toEqual([
      w.ch('announce').id,
      w.ch('brand new stream').id,
    ]);
    const rows = sent.reduce((n, m) => n + Object.keys(m.flags).length, 0);
    expect(rows).toBe(4 + 2);
    const unread = (local: string) =>
      sent.filter((m) => !(m.flags[String(w.user(local).id)] ?? ['read']).includes('read')).length;
    expect(unread('alice')).toBe(2);
    expect(unread('admin')).toBe(0);
  });
});

describe('POST /channels/create announce (create_channel calls send_user_subscribed_and_new_channel_notifications)', () => {
  it('the announcement, then the notice; no direct message to the other subscribers', async () => {
    await setAnnouncements('general');
    const before = lastId();
    const res = await w.as('admin').post('/channels/create', {
      name: 'made',
      subscribers: ['admin', 'alice'].map((l) => w.user(l).id),
      announce: true,
    });
    expectSuccess(res);
    expect(fromBot(before).map((m) => [m.channelId, m.topic, m.content])).toEqual([
      [
        w.ch('general').id,
        'new channels',
        `${w.mention('admin')} created a new channel #**made**.`,
      ],
      [
        res.body.id,
        'channel events',
        `**Public** channel created by ${w.mention('admin')}. **Description:**\n\`\`\`\` quote\n*No description.*\n\`\`\`\``,
      ],
    ]);
  });
});

describe('before FL 397 (no send_new_subscription_messages, no limit)', () => {
  it('the direct messages are sent', async () => {
    await w.close();
    w = await World.start(396);
    expectSuccess(await subscribe('owner', ['older']));
    const before = lastId();
    expectSuccess(
      await subscribe('owner', ['older'], { principals: JSON.stringify([w.user('alice').id]) }),
    );
    expect(fromBot(before).map((m) => m.content)).toEqual([
      `${w.mention('owner')} subscribed you to #**older**.`,
    ]);
  });
});

describe('test_subs.py SubscriptionAPITest.test_mark_messages_as_unread_on_unsubscribe', () => {
  it('leaving a channel marks its messages read (mark_stream_messages_as_read); they stay read on return', async () => {
    const ids = {
      stream1: await w.create('stream1', { subscribers: ['admin', 'alice'] }),
      stream2: await w.create('stream2', { subscribers: ['admin', 'alice'] }),
      private: await w.create('private_stream', {
        private: true,
        subscribers: ['owner', 'admin', 'alice'],
      }),
    };
    for (const to of Object.values(ids))
      expectSuccess(
        await w.as('alice').post('/messages', {
          type: 'stream',
          to: JSON.stringify(to),
          topic: 'test',
          content: 'test',
        }),
      );
    const unreadChannels = () =>
      (w.z.org.messages ?? [])
        .filter((m) => m.type === 'stream')
        .filter((m) => m.flags[String(w.user('admin').id)]?.includes('read') === false)
        .map((m) => m.channelId);
    expect(unreadChannels()).toEqual([ids.stream1, ids.stream2, ids.private]);
    for (const name of ['stream2', 'private_stream'])
      expectSuccess(
        await w.as('owner').delete('/users/me/subscriptions', {
          subscriptions: JSON.stringify([name]),
          principals: JSON.stringify([w.user('admin').id]),
        }),
      );
    await w.subscribe(ids.stream2, 'admin');
    await w.subscribe(ids.private, 'admin');
    expect(unreadChannels()).toEqual([ids.stream1]);
    // Only the user who left: the owner, still subscribed, has not read the private one.
    const privateMessage = (w.z.org.messages ?? []).find(
      (m) => m.channelId === ids.private && m.senderId === w.user('alice').id,
    );
    expect(privateMessage?.flags[String(w.user('owner').id)]).toEqual([]);
  });
});

describe('test_subs.py GetSubscribersTest.test_no_recipient_ids (gather_subscriptions_helper)', () => {
  it('a user without subscriptions gets an empty list', async () => {
    const alice = w.user('alice').id;
    w.z.org.subscriptions
      .filter((s) => s.userId === alice && s.active)
      .forEach((s) => (s.active = false));
    const res = await w.as('alice').get('/users/me/subscriptions');
    expectSuccess(res);
    expect(res.body.subscriptions).toEqual([]);
  });
});

describe('creating channels by subscribing (list_to_streams)', () => {
  it('test_channel_creation.py test_acting_user_is_creator: the acting user is the creator; private and web-public at once is not refused at creation', async () => {
    expectSuccess(
      await subscribe('owner', ["owner's test stream"], { invite_only: true, is_web_public: true }),
    );
    const c = w.ch("owner's test stream");
    expect([c.creatorId, c.inviteOnly, c.isWebPublic]).toEqual([w.user('owner').id, true, true]);
    const res = await w.as('owner').post('/channels/create', {
      name: 'made directly',
      subscribers: [],
      invite_only: true,
      is_web_public: true,
    });
    expectSuccess(res);
    expect(w.byId(res.body.id).creatorId).toBe(w.user('owner').id);
  });

  it('test_channel_creation.py test_permission_settings_when_creating_multiple_streams: each channel its own values', async () => {
    const anon = {
      direct_members: [w.user('carol').id],
      direct_subgroups: [w.group('role:moderators').id],
    };
    expectSuccess(
      await subscribe('alice', ['new_stream', 'new_stream_2'], {
        can_add_subscribers_group: JSON.stringify(anon),
      }),
    );
    const [one, two] = [w.ch('new_stream'), w.ch('new_stream_2')];
    for (const c of [one, two]) {
      expect(c.settings.can_administer_channel_group).toEqual({
        direct_members: [w.user('alice').id],
        direct_subgroups: [],
      });
      expect(c.settings.can_add_subscribers_group).toEqual(anon);
    }
    // Different groups: changing one channel's leaves the other's as it was.
    expectSuccess(
      await w.as('alice').patch(`/streams/${one.id}`, {
        can_add_subscribers_group: JSON.stringify({
          new: { direct_members: [w.user('carol').id], direct_subgroups: [] },
          old: anon,
        }),
      }),
    );
    expect(w.ch('new_stream_2').settings.can_add_subscribers_group).toEqual(anon);
  });

  it('test_channel_permissions.py test_can_set_delete_message_policy_group: the delete settings need can_set_delete_message_policy here too', async () => {
    const members = JSON.stringify(w.group('role:members').id);
    expectError(
      await subscribe('alice', ['deletable'], { can_delete_any_message_group: members }),
      'Insufficient permission',
    );
    expect(w.z.org.channels.some((c) => c.name === 'deletable')).toBe(false);
    expectSuccess(
      await subscribe('alice', ['deletable'], {
        can_delete_own_message_group: JSON.stringify(w.group('role:nobody').id),
      }),
    );
    expectSuccess(
      await subscribe('moderator', ['deletable 2'], { can_delete_any_message_group: members }),
    );
  });

  it('check_channel_creation_permissions comes first: the right to create before the owner-only retention', async () => {
    w.z.org.realm.settings.can_create_public_channel_group = w.group('role:administrators').id;
    expectError(
      await subscribe('alice', ['kept'], { message_retention_days: JSON.stringify(10) }),
      'Insufficient permission',
    );
    expectError(
      await subscribe('admin', ['kept'], { message_retention_days: JSON.stringify(10) }),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
  });
});
