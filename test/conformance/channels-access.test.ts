/**
 * Conformance: who may administer a channel and who may see it, ported from Zulip's
 * zerver/tests/test_channel_permissions.py ChannelAdministerPermissionTest and
 * zerver/tests/test_channel_access.py AccessStreamTest, through PATCH/DELETE /streams/{id},
 * GET /streams/{id} and GET /get_stream_id (zerver/lib/streams.py
 * access_stream_for_delete_or_update_requiring_metadata_access, access_stream_by_id,
 * access_stream_by_name).
 */
import { CHANNEL_PERMISSIONS } from '../../src/model/permissions';
import type { StoredGroupSetting } from '../../src/emulator/state';
import { expectError, expectSuccess } from '../support/emulator-client';
import type { TestResponse } from '../support/emulator-client';
import { World } from './channels-support';

let w: World;
beforeEach(async () => {
  w = await World.start();
  // Zulip's default (role:members) for can_set_topics_policy_group, which topics_policy needs.
  w.z.org.realm.settings.can_set_topics_policy_group = w.group('role:members').id;
});
afterEach(() => w.close());

const DENIED = 'You do not have permission to administer this channel.';

/** The permission configurations of ChannelAdministerPermissionTest, in its order. */
function configs(): Array<{ value: StoredGroupSetting; without: string[]; with: string[] }> {
  return [
    { value: w.group('role:nobody').id, without: ['moderator'], with: ['admin'] },
    { value: w.group('role:moderators').id, without: ['alice'], with: ['moderator'] },
    { value: w.group('backend').id, without: ['moderator'], with: ['alice'] },
    {
      value: { direct_members: [w.user('bob').id, w.user('guest').id], direct_subgroups: [] },
      without: ['moderator', 'alice'],
      with: ['bob'],
    },
  ];
}

describe('test_channel_permissions.py ChannelAdministerPermissionTest.test_administering_permission_for_updating_channel', () => {
  type Attempt = (who: string, id: number) => Promise<TestResponse>;
  const folderOf = () => w.z.org.folders[0]!.id;
  const cases: Array<[string, Attempt, (id: number) => void]> = [
    [
      'name',
      (who, id) => w.as(who).patch(`/streams/${id}`, { new_name: 'Renamed stream' }),
      (id) => {
        expect(w.byId(id).name).toBe('Renamed stream');
        w.byId(id).name = 'test stream';
      },
    ],
    [
      'description',
      (who, id) => w.as(who).patch(`/streams/${id}`, { description: 'Edited stream description' }),
      (id) => expect(w.byId(id).description).toBe('Edited stream description'),
    ],
    [
      'folder_id',
      (who, id) => w.as(who).patch(`/streams/${id}`, { folder_id: folderOf() }),
      (id) => {
        expect(w.byId(id).folderId).toBe(folderOf());
        w.byId(id).folderId = null;
      },
    ],
    [
      'topics_policy',
      (who, id) => w.as(who).patch(`/streams/${id}`, { topics_policy: 'allow_empty_topic' }),
      (id) => {
        expect(w.byId(id).topicsPolicy).toBe('allow_empty_topic');
        w.byId(id).topicsPolicy = 'inherit';
      },
    ],
    [
      'archiving (DELETE)',
      (who, id) => w.as(who).delete(`/streams/${id}`),
      (id) => {
        expect(w.byId(id).isArchived).toBe(true);
        w.byId(id).isArchived = false;
      },
    ],
    [
      'unarchiving',
      async (who, id) => {
        w.byId(id).isArchived = true;
        return w.as(who).patch(`/streams/${id}`, { is_archived: false });
      },
      (id) => expect(w.byId(id).isArchived).toBe(false),
    ],
  ];

  describe.each([
    ['a public channel', false],
    ['a private channel', true],
  ])('%s', (_what, priv) => {
    it.each(cases)('%s', async (_prop, attempt, check) => {
      const subscribers = priv ? ['owner', 'admin', 'moderator', 'alice', 'bob'] : ['owner'];
      const id = await w.create('test stream', { private: priv, subscribers });
      for (const c of configs()) {
        w.byId(id).settings.can_administer_channel_group = c.value;
        for (const who of c.without) expectError(await attempt(who, id), DENIED);
        for (const who of c.with) {
          expectSuccess(await attempt(who, id));
          check(id);
        }
      }
      // A guest in can_administer_channel_group: not through the group.
      expectError(await attempt('guest', id), 'Invalid channel ID');
      await w.subscribe(id, 'guest');
      expectError(await attempt('guest', id), DENIED);
      await w.unsubscribe(id, 'guest');
      if (priv) {
        await w.unsubscribe(id, 'admin', 'alice', 'bob');
        // No metadata access at all.
        expectError(await attempt('alice', id), 'Invalid channel ID');
        // Administrators always; bob through can_administer_channel_group.
        expectSuccess(await attempt('admin', id));
        check(id);
        expectSuccess(await attempt('bob', id));
        check(id);
      }
    });
  });
});

describe('test_channel_permissions.py ChannelAdministerPermissionTest.test_administering_permission_for_updating_channel_privacy', () => {
  it.each([
    ['is_private', true],
    ['is_web_public', true],
  ])('%s=%s', async (param, value) => {
    // Members may create web-public channels here, so that only administering is tested.
    w.z.org.realm.settings.can_create_web_public_channel_group = w.group('role:members').id;
    const id = await w.create('test_stream');
    const reset = () => {
      const c = w.byId(id);
      c.inviteOnly = false;
      c.isWebPublic = false;
      c.historyPublicToSubscribers = true;
    };
    const attempt = (who: string) => w.as(who).patch(`/streams/${id}`, { [param]: value });
    for (const c of configs()) {
      w.byId(id).settings.can_administer_channel_group = c.value;
      for (const who of c.without) expectError(await attempt(who), DENIED);
      for (const who of c.with) {
        expectSuccess(await attempt(who));
        expect(param === 'is_private' ? w.byId(id).inviteOnly : w.byId(id).isWebPublic).toBe(value);
        reset();
      }
    }
    expectError(await attempt('guest'), 'Invalid channel ID');
    await w.subscribe(id, 'guest');
    expectError(await attempt('guest'), DENIED);
  });

  it('a private channel made public, by its subscribed administrators', async () => {
    const id = await w.create('test_stream', {
      private: true,
      subscribers: ['owner', 'admin', 'moderator', 'alice', 'bob'],
    });
    const attempt = (who: string) => w.as(who).patch(`/streams/${id}`, { is_private: false });
    for (const c of configs()) {
      w.byId(id).settings.can_administer_channel_group = c.value;
      for (const who of c.without) expectError(await attempt(who), DENIED);
      for (const who of c.with) {
        expectSuccess(await attempt(who));
        expect(w.byId(id).inviteOnly).toBe(false);
        Object.assign(w.byId(id), { inviteOnly: true, historyPublicToSubscribers: false });
      }
    }
  });
});

describe('test_channel_permissions.py ChannelAdministerPermissionTest.test_permission_for_updating_privacy_of_unsubscribed_private_channel', () => {
  it('content access is required, through a subscription or the groups that grant it', async () => {
    const id = await w.create('test_stream', {
      private: true,
      extra: { can_administer_channel_group: w.group('role:members').id },
    });
    const attempt = (who: string) => w.as(who).patch(`/streams/${id}`, { is_private: false });
    const reset = () =>
      Object.assign(w.byId(id), { inviteOnly: true, historyPublicToSubscribers: false });
    const ERR = 'Channel content access is required.';
    for (const who of ['admin', 'moderator', 'alice']) expectError(await attempt(who), ERR);
    w.byId(id).settings.can_add_subscribers_group = w.group('role:moderators').id;
    expectError(await attempt('alice'), ERR);
    expectSuccess(await attempt('admin'));
    reset();
    expectSuccess(await attempt('moderator'));
    reset();
    w.byId(id).settings.can_subscribe_group = w.group('backend').id;
    expectSuccess(await attempt('alice'));
  });
});

describe('test_channel_permissions.py ChannelAdministerPermissionTest.test_administering_permission_for_updating_channel_group_settings', () => {
  const settings = Object.values(CHANNEL_PERMISSIONS).map((i) => i.wire);

  beforeEach(() => {
    w.z.org.realm.settings.can_set_delete_message_policy_group = w.group('role:members').id;
  });

  it.each(settings)('%s on a public channel', async (setting) => {
    const id = await w.create('test_stream');
    const backend = w.group('backend').id;
    const attempt = (who: string) =>
      w.as(who).patch(`/streams/${id}`, { [setting]: { new: backend } });
    for (const c of configs()) {
      w.byId(id).settings.can_administer_channel_group = c.value;
      for (const who of c.without) expectError(await attempt(who), DENIED);
      for (const who of c.with) {
        const before = w.byId(id).settings[setting]!;
        expectSuccess(await attempt(who));
        expect(w.byId(id).settings[setting]).toBe(backend);
        w.byId(id).settings[setting] =
          setting === 'can_administer_channel_group' ? c.value : before;
      }
    }
    expectError(await attempt('guest'), 'Invalid channel ID');
  });

  it.each(settings)(
    '%s on an unsubscribed private channel: content access where Zulip needs it',
    async (setting) => {
      // Shared history, as in Zulip's test (protected history would refuse can_create_topic_group).
      const id = await w.create('test_stream', {
        private: true,
        extra: {
          can_administer_channel_group: w.group('role:members').id,
          history_public_to_subscribers: true,
        },
      });
      const backend = w.group('backend').id;
      const attempt = (who: string) =>
        w.as(who).patch(`/streams/${id}`, { [setting]: { new: backend } });
      const info = Object.values(CHANNEL_PERMISSIONS).find((i) => i.wire === setting)!;
      const original = w.byId(id).settings[setting]!;
      const reset = () => {
        w.byId(id).settings[setting] = original;
      };
      if (!('needsContentAccess' in info)) {
        for (const who of ['admin', 'moderator', 'alice']) {
          expectSuccess(await attempt(who));
          reset();
        }
        return;
      }
      const ERR = 'Channel content access is required.';
      for (const who of ['admin', 'moderator', 'alice']) expectError(await attempt(who), ERR);
      w.byId(id).settings.can_add_subscribers_group = w.group('role:moderators').id;
      if (setting !== 'can_add_subscribers_group') {
        expectError(await attempt('alice'), ERR);
        expectSuccess(await attempt('admin'));
        reset();
      }
    },
  );
});

describe('test_channel_access.py AccessStreamTest.test_access_stream (GET /streams/{id}, GET /get_stream_id)', () => {
  it('unknown channels', async () => {
    expectError(await w.as('alice').get('/streams/501232'), 'Invalid channel ID');
    expectError(
      await w.as('alice').get('/get_stream_id', { stream: 'invalid stream' }),
      "Invalid channel name 'invalid stream'",
    );
  });

  it('a private channel: its subscriber sees it, another member does not', async () => {
    const id = await w.create('new_private_stream', {
      private: true,
      subscribers: ['owner', 'alice'],
    });
    expect((await w.as('alice').get(`/streams/${id}`)).body.stream.stream_id).toBe(id);
    expect(
      (await w.as('alice').get('/get_stream_id', { stream: 'new_private_stream' })).body.stream_id,
    ).toBe(id);
    expectError(await w.as('bob').get(`/streams/${id}`), 'Invalid channel ID');
    expectError(
      await w.as('bob').get('/get_stream_id', { stream: 'new_private_stream' }),
      "Invalid channel name 'new_private_stream'",
    );
  });

  it('a public channel: everyone sees it; archived, nobody', async () => {
    const id = await w.create('public_stream', { subscribers: ['alice'] });
    for (const who of ['alice', 'bob']) {
      expectSuccess(await w.as(who).get(`/streams/${id}`));
      expect(
        (await w.as(who).get('/get_stream_id', { stream: 'public_stream' })).body.stream_id,
      ).toBe(id);
    }
    expectSuccess(await w.as('owner').delete(`/streams/${id}`));
    expectError(await w.as('alice').get(`/streams/${id}`), 'Invalid channel ID');
    expectError(
      await w.as('alice').get('/get_stream_id', { stream: 'public_stream' }),
      "Invalid channel name 'public_stream'",
    );
  });
});

describe('test_channel_access.py AccessStreamTest.test_access_stream_allow_metadata_access_flag', () => {
  it('administrators and channel administrators see the metadata (GET /streams/{id}), not the content (GET /get_stream_id)', async () => {
    const id = await w.create('new_private_stream', { private: true });
    expectSuccess(await w.as('admin').get(`/streams/${id}`));
    expectError(
      await w.as('admin').get('/get_stream_id', { stream: 'new_private_stream' }),
      "Invalid channel name 'new_private_stream'",
    );
    expectError(await w.as('alice').get(`/streams/${id}`), 'Invalid channel ID');
    const group = {
      direct_members: [w.user('alice').id, w.user('guest').id],
      direct_subgroups: [],
    };
    w.byId(id).settings.can_administer_channel_group = group;
    expectSuccess(await w.as('alice').get(`/streams/${id}`));
    // A guest never gets access through a group.
    expectError(await w.as('guest').get(`/streams/${id}`), 'Invalid channel ID');
    w.byId(id).settings.can_administer_channel_group = w.group('role:nobody').id;
    w.byId(id).settings.can_add_subscribers_group = group;
    // can_add_subscribers_group gives content access.
    expect(
      (await w.as('alice').get('/get_stream_id', { stream: 'new_private_stream' })).body.stream_id,
    ).toBe(id);
    expectError(await w.as('guest').get(`/streams/${id}`), 'Invalid channel ID');
    expectError(
      await w.as('guest').get('/get_stream_id', { stream: 'new_private_stream' }),
      "Invalid channel name 'new_private_stream'",
    );
    w.byId(id).settings.can_add_subscribers_group = w.group('role:nobody').id;
    w.byId(id).settings.can_subscribe_group = group;
    expectSuccess(await w.as('alice').get(`/streams/${id}`));
    expectError(await w.as('guest').get(`/streams/${id}`), 'Invalid channel ID');
  });
});

describe('test_channel_access.py AccessStreamTest.test_stream_access_by_guest', () => {
  it('a guest sees subscribed and web-public channels only', async () => {
    const pub = await w.create('public_stream_1');
    expectError(await w.as('guest').get(`/streams/${pub}`), 'Invalid channel ID');
    await w.subscribe(pub, 'guest');
    expectSuccess(await w.as('guest').get(`/streams/${pub}`));
    const web = await w.create('web_public_stream', { extra: { is_web_public: true } });
    expectSuccess(await w.as('guest').get(`/streams/${web}`));
    expect(
      (await w.as('guest').get('/get_stream_id', { stream: 'web_public_stream' })).body.stream_id,
    ).toBe(web);
  });
});

describe('GET /streams (do_get_streams, get_streams_for_user)', () => {
  const names = (res: TestResponse): string[] =>
    (res.body.streams as Array<{ name: string }>).map((s) => s.name);

  it('test_subs.py InviteOnlyStreamTest.test_list_respects_invite_only_bit: a private channel only for its subscribers', async () => {
    await w.create('Saxony', { private: true, subscribers: ['owner', 'alice'] });
    expect(names(await w.as('alice').get('/streams'))).toContain('Saxony');
    expect(names(await w.as('bob').get('/streams'))).not.toContain('Saxony');
  });

  it('sorted by name', async () => {
    await w.create('aaa');
    const list = names(await w.as('owner').get('/streams'));
    expect(list).toEqual([...list].sort());
    expect(list[0]).toBe('aaa');
  });

  it('include_all (FL 356+): every channel with metadata access, for members too; include_all_active is the same', async () => {
    await w.create('secret', { private: true });
    const viaAll = names(await w.as('alice').get('/streams', { include_all: true }));
    expect(viaAll).not.toContain('secret');
    expect(names(await w.as('admin').get('/streams', { include_all: true }))).toContain('secret');
    expect(names(await w.as('alice').get('/streams', { include_all_active: true }))).toEqual(
      viaAll,
    );
  });

  it('include_can_access_content (FL 356+): channels with content access, without the public/subscribed filters', async () => {
    const id = await w.create('granted', { private: true });
    w.byId(id).settings.can_subscribe_group = w.group('backend').id;
    const got = names(
      await w.as('alice').get('/streams', {
        include_can_access_content: true,
        include_public: false,
        include_subscribed: false,
      }),
    );
    expect(got).toContain('granted');
    expect(got).toContain('design');
    expect(names(await w.as('alice').get('/streams'))).not.toContain('granted');
  });

  it('guests: public channels only when subscribed; web-public with include_web_public', async () => {
    await w.create('webby', { extra: { is_web_public: true } });
    const plain = names(await w.as('guest').get('/streams'));
    expect(plain).not.toContain('design');
    expect(plain).not.toContain('webby');
    expect(names(await w.as('guest').get('/streams', { include_web_public: true }))).toContain(
      'webby',
    );
  });
});
