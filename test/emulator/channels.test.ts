import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let owner: TestClient;
let admin: TestClient;
let alice: TestClient;
let guest: TestClient;
let moderator: TestClient;

beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  owner = clientFor(z, 'owner');
  admin = clientFor(z, 'admin');
  alice = clientFor(z, 'alice');
  guest = clientFor(z, 'guest');
  moderator = clientFor(z, 'moderator');
});
afterEach(() => z.close());

const ch = (name: string) => z.org.channels.find((c) => c.name === name)!;
const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const group = (name: string) => z.org.groups.find((g) => g.name === name)!;

describe('PATCH /streams/{id}', () => {
  test('Invalid channel ID for unknown or invisible channels', async () => {
    expectError(await owner.patch('/streams/99999', { description: 'x' }), 'Invalid channel ID');
    expectError(
      await alice.patch(`/streams/${ch('leadership').id}`, { description: 'x' }),
      'Invalid channel ID',
    );
  });

  test('non-administrators of the channel are refused', async () => {
    expectError(
      await alice.patch(`/streams/${ch('general').id}`, { description: 'x' }),
      'You do not have permission to administer this channel.',
    );
  });

  test('channel administrators through can_administer_channel_group may edit', async () => {
    const id = ch('design').id;
    expectSuccess(
      await owner.patch(`/streams/${id}`, {
        can_administer_channel_group: {
          new: { direct_members: [user('alice').id], direct_subgroups: [] },
        },
      }),
    );
    expectSuccess(await alice.patch(`/streams/${id}`, { description: 'line one\nline two' }));
    expect(ch('design').description).toBe('line one line two');
  });

  test('names: empty, too long, invalid character, same, in use (case-insensitive, archived too), case-only rename', async () => {
    const id = ch('design').id;
    expectError(
      await owner.patch(`/streams/${id}`, { new_name: '  ' }),
      "Channel name can't be empty.",
    );
    expectError(
      await owner.patch(`/streams/${id}`, { new_name: 'x'.repeat(61) }),
      'Channel name too long (limit: 60 characters).',
    );
    expectError(
      await owner.patch(`/streams/${id}`, { new_name: 'abc\u0000' }),
      'Invalid character in channel name, at position 4.',
    );
    expectError(
      await owner.patch(`/streams/${id}`, { new_name: 'design' }),
      'Channel already has that name.',
    );
    expectError(
      await owner.patch(`/streams/${id}`, { new_name: 'GENERAL' }),
      // check_stream_name_available: ChannelExistsError (FL 417+).
      "Channel 'GENERAL' already exists",
      'CHANNEL_ALREADY_EXISTS',
      409,
    );
    expectError(
      await owner.patch(`/streams/${id}`, { new_name: 'Old-Projects' }),
      "Channel 'Old-Projects' already exists",
      'CHANNEL_ALREADY_EXISTS',
      409,
    );
    expectSuccess(await owner.patch(`/streams/${id}`, { new_name: 'Design' }));
    expect(ch('Design').id).toBe(id);
  });

  test('privacy rules: Invalid parameters, default cannot be private, content access', async () => {
    const general = ch('general').id;
    expectError(
      await owner.patch(`/streams/${ch('design').id}`, { history_public_to_subscribers: false }),
      'Invalid parameters',
    );
    expectError(
      await owner.patch(`/streams/${ch('design').id}`, { is_web_public: true, is_private: true }),
      'Invalid parameters',
    );
    expectError(
      await owner.patch(`/streams/${general}`, { is_private: true }),
      'A default channel cannot be private.',
    );
    // An administrator who is not subscribed has metadata but not content access.
    expectError(
      await clientFor(z, 'alan').patch(`/streams/${ch('leadership').id}`, { is_private: false }),
      'Channel content access is required.',
    );
    // history defaults to !is_private when only is_private is sent.
    expectSuccess(await owner.patch(`/streams/${ch('design').id}`, { is_private: true }));
    expect(ch('design').historyPublicToSubscribers).toBe(false);
  });

  test('web-public channels need the server setting', async () => {
    z.org.realm.webPublicStreamsEnabled = false;
    expectError(
      await owner.patch(`/streams/${ch('design').id}`, { is_web_public: true }),
      'Web-public channels are not enabled.',
    );
  });

  test('moderation request channel must stay private', async () => {
    z.org.realm.moderationRequestChannelId = ch('leadership').id;
    expectError(
      await owner.patch(`/streams/${ch('leadership').id}`, { is_private: false }),
      'Moderation request channel must be private.',
    );
  });

  test('default channels: only administrators', async () => {
    const id = ch('design').id;
    expectSuccess(
      await owner.patch(`/streams/${id}`, {
        can_administer_channel_group: { new: group('role:members').id },
      }),
    );
    expectError(
      await alice.patch(`/streams/${id}`, { is_default_stream: true }),
      'You do not have permission to change default channels.',
    );
  });

  test('retention: owners only, values checked', async () => {
    const id = ch('design').id;
    expectError(
      await admin.patch(`/streams/${id}`, { message_retention_days: 30 }),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
    // Json[str] | Json[int]: keywords travel JSON-quoted.
    for (const bad of ['invalid', -1, 0])
      expectError(
        await owner.patch(`/streams/${id}`, { message_retention_days: JSON.stringify(bad) }),
        `Bad value for 'message_retention_days': ${bad}`,
        'REQUEST_VARIABLE_INVALID',
      );
    expectSuccess(
      await owner.patch(`/streams/${id}`, { message_retention_days: JSON.stringify('unlimited') }),
    );
    expect(ch('design').messageRetentionDays).toBe(-1);
    expectSuccess(
      await owner.patch(`/streams/${id}`, {
        message_retention_days: JSON.stringify('realm_default'),
      }),
    );
    expect(ch('design').messageRetentionDays).toBeNull();
    z.org.realm.planAllowsRetention = false;
    expectError(
      await owner.patch(`/streams/${id}`, { message_retention_days: 30 }),
      'Available on Zulip Cloud Standard. Upgrade to access.',
    );
  });

  test('group settings: disallowed system groups, {new, old} mismatch, canonicalisation', async () => {
    const id = ch('design').id;
    expectError(
      await owner.patch(`/streams/${id}`, {
        can_administer_channel_group: { new: group('role:everyone').id },
      }),
      "'can_administer_channel_group' setting cannot be set to 'role:everyone' group.",
    );
    expectError(
      await owner.patch(`/streams/${id}`, {
        can_send_message_group: { new: group('role:internet').id },
      }),
      "'can_send_message_group' setting cannot be set to 'role:internet' group.",
    );
    expectError(
      await owner.patch(`/streams/${id}`, {
        can_send_message_group: { new: group('role:members').id, old: group('role:moderators').id },
      }),
      "'old' value does not match the expected value.",
      'EXPECTATION_MISMATCH',
    );
    expectError(
      await owner.patch(`/streams/${id}`, { can_send_message_group: { new: 123456 } }),
      'Invalid user group ID: 123456',
    );
    expectSuccess(
      await owner.patch(`/streams/${id}`, {
        can_send_message_group: {
          new: { direct_members: [], direct_subgroups: [group('role:members').id] },
          old: group('role:everyone').id,
        },
      }),
    );
    expect(ch('design').settings.can_send_message_group).toBe(group('role:members').id);
    expectSuccess(
      await owner.patch(`/streams/${id}`, {
        can_send_message_group: { new: { direct_members: [], direct_subgroups: [] } },
      }),
    );
    expect(ch('design').settings.can_send_message_group).toBe(group('role:nobody').id);
  });

  test('not atomic: earlier fields stay applied when a later group setting fails', async () => {
    const id = ch('design').id;
    expectError(
      await owner.patch(`/streams/${id}`, {
        description: 'applied',
        new_name: 'design-2',
        can_send_message_group: { new: group('role:members').id, old: group('role:nobody').id },
      }),
      "'old' value does not match the expected value.",
      'EXPECTATION_MISMATCH',
    );
    expect(ch('design-2').description).toBe('applied');
  });

  test('parameter shapes are checked before any field is applied', async () => {
    const id = ch('design').id;
    const before = ch('design').description;
    const cases: Array<[Record<string, unknown>, string]> = [
      // A plain dataclass ignores unknown keys: `neww` leaves `new` missing.
      [
        { can_send_message_group: { neww: group('role:members').id } },
        'can_send_message_group["new"] field is missing: Field required',
      ],
      [
        { can_send_message_group: { old: group('role:everyone').id } },
        'can_send_message_group["new"] field is missing: Field required',
      ],
      // `int | UserGroupMembersData`: the first error reported is the `int` member's.
      [
        { can_send_message_group: { new: { direct_members: [user('alice').id] } } },
        'can_send_message_group["new"]["int"] is not an integer',
      ],
      [
        { can_send_message_group: { new: group('role:members').id, old: 'x' } },
        'can_send_message_group["old"]["int"] is not an integer',
      ],
      [{ topics_policy: 'sometimes' }, 'Invalid topics_policy'],
    ];
    for (const [bad, msg] of cases) {
      expectError(
        await owner.patch(`/streams/${id}`, {
          description: 'must not be applied',
          new_name: 'design-renamed',
          is_private: true,
          ...bad,
        }),
        msg,
      );
      expect(ch('design').description).toBe(before);
      expect(ch('design').inviteOnly).toBe(false);
    }
    // Before the channel is even looked up.
    expectError(
      await owner.patch('/streams/99999', { can_send_message_group: { neww: 1 } }),
      'can_send_message_group["new"] field is missing: Field required',
    );
  });

  test('content access is checked only when a content-access setting actually changes', async () => {
    const id = ch('leadership').id;
    const alan = clientFor(z, 'alan');
    const current = (await alan.get(`/streams/${id}`)).body.stream.can_subscribe_group;
    expectSuccess(
      await alan.patch(`/streams/${id}`, { can_subscribe_group: { new: current, old: current } }),
    );
    expectError(
      await alan.patch(`/streams/${id}`, {
        can_subscribe_group: { new: group('role:administrators').id, old: current },
      }),
      'Channel content access is required.',
    );
  });

  test('content-access settings on a private channel need content access', async () => {
    const id = ch('leadership').id;
    expectError(
      await clientFor(z, 'alan').patch(`/streams/${id}`, {
        can_subscribe_group: { new: group('role:administrators').id },
      }),
      'Channel content access is required.',
    );
    expectSuccess(
      await clientFor(z, 'alan').patch(`/streams/${id}`, {
        can_remove_subscribers_group: { new: group('role:administrators').id },
      }),
    );
  });

  test('topics_policy needs can_set_topics_policy_group; unknown params are reported', async () => {
    // Zulip's default is role:members (Realm.REALM_PERMISSION_GROUP_SETTINGS); moderators here.
    expect(z.org.realm.settings.can_set_topics_policy_group).toBe(group('role:members').id);
    z.org.realm.settings.can_set_topics_policy_group = group('role:moderators').id;
    const id = ch('design').id;
    await owner.patch(`/streams/${id}`, {
      can_administer_channel_group: { new: group('role:members').id },
    });
    expectError(
      await alice.patch(`/streams/${id}`, { topics_policy: 'disable_empty_topic' }),
      'Insufficient permission',
    );
    const r = await owner.patch(`/streams/${id}`, {
      topics_policy: 'disable_empty_topic',
      bogus: 'x',
    });
    expectSuccess(r);
    expect(r.body.ignored_parameters_unsupported).toEqual(['bogus']);
  });

  test('"x is not a boolean"', async () => {
    expectError(
      await owner.patch(`/streams/${ch('design').id}`, { is_private: 'yes' }),
      'is_private is not valid JSON',
    );
    expectError(
      await owner.patch(`/streams/${ch('design').id}`, { is_private: 1 }),
      'is_private is not a boolean',
    );
  });

  test('description length', async () => {
    expectError(
      await owner.patch(`/streams/${ch('design').id}`, { description: 'x'.repeat(1025) }),
      'description is too long (limit: 1024 characters)',
    );
  });

  test('archive, already archived, unarchive (FL 388)', async () => {
    const id = ch('design').id;
    expectError(
      await alice.delete(`/streams/${ch('general').id}`),
      'You do not have permission to administer this channel.',
    );
    expectSuccess(await owner.delete(`/streams/${id}`));
    expectError(await owner.delete(`/streams/${id}`), 'Channel is already deactivated');
    expectSuccess(await owner.patch(`/streams/${id}`, { is_archived: false }));
    expect(ch('design').isArchived).toBe(false);
  });
});

describe('protected history needs can_create_topic_group = role:everyone (FL 441)', () => {
  const ERR =
    'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group';
  const expectCombination = (res: Awaited<ReturnType<TestClient['post']>>) => {
    expectError(res, ERR);
    expect(res.body.parameters).toBe('history_public_to_subscribers, can_create_topic_group');
  };

  test('PATCH /streams: changing history, changing the setting, or both', async () => {
    const everyone = group('role:everyone').id;
    const moderators = group('role:moderators').id;
    const r = await owner.post('/channels/create', {
      name: 'secret',
      subscribers: [user('owner').id],
      invite_only: true,
      history_public_to_subscribers: true,
    });
    expectSuccess(r);
    const id = r.body.id as number;
    expectSuccess(
      await owner.patch(`/streams/${id}`, { can_create_topic_group: { new: moderators } }),
    );
    // Protecting the history while the setting is not role:everyone.
    expectCombination(
      await owner.patch(`/streams/${id}`, { history_public_to_subscribers: false }),
    );
    expect(ch('secret').historyPublicToSubscribers).toBe(true);
    expectCombination(
      await owner.patch(`/streams/${id}`, {
        history_public_to_subscribers: false,
        can_create_topic_group: {
          new: { direct_members: [user('alice').id], direct_subgroups: [everyone] },
        },
      }),
    );
    // update_stream_backend is not atomic: the history lands before the settings loop refuses
    // the new can_create_topic_group.
    expect(ch('secret').historyPublicToSubscribers).toBe(false);
    ch('secret').historyPublicToSubscribers = true;
    // Both at once, to role:everyone (an anonymous value of only that group is that group).
    expectSuccess(
      await owner.patch(`/streams/${id}`, {
        history_public_to_subscribers: false,
        can_create_topic_group: { new: { direct_members: [], direct_subgroups: [everyone] } },
      }),
    );
    expect(ch('secret').historyPublicToSubscribers).toBe(false);
    expect(ch('secret').settings.can_create_topic_group).toBe(everyone);
    // Changing the setting while the history is protected.
    expectCombination(
      await owner.patch(`/streams/${id}`, { can_create_topic_group: { new: moderators } }),
    );
    expect(ch('secret').settings.can_create_topic_group).toBe(everyone);
    // Making the history public again allows any value in the same request.
    expectSuccess(
      await owner.patch(`/streams/${id}`, {
        history_public_to_subscribers: true,
        can_create_topic_group: {
          new: { direct_members: [user('owner').id], direct_subgroups: [moderators] },
        },
      }),
    );
    // is_private alone defaults the history to protected.
    const design = ch('design').id;
    expectSuccess(
      await owner.patch(`/streams/${design}`, { can_create_topic_group: { new: moderators } }),
    );
    expectCombination(await owner.patch(`/streams/${design}`, { is_private: true }));
    expect(ch('design').inviteOnly).toBe(false);
  });

  test('creation: channels/create and subscribing to a new name', async () => {
    const moderators = group('role:moderators').id;
    expectCombination(
      await owner.post('/channels/create', {
        name: 'p1',
        subscribers: [],
        invite_only: true,
        can_create_topic_group: moderators,
      }),
    );
    expectCombination(
      await owner.post('/channels/create', {
        name: 'p1',
        subscribers: [],
        invite_only: true,
        history_public_to_subscribers: false,
        can_create_topic_group: { direct_members: [user('alice').id], direct_subgroups: [] },
      }),
    );
    expectCombination(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'p1' }],
        invite_only: true,
        can_create_topic_group: moderators,
      }),
    );
    expect(z.org.channels.some((c) => c.name === 'p1')).toBe(false);
    expectSuccess(
      await owner.post('/channels/create', {
        name: 'p1',
        subscribers: [],
        invite_only: true,
        history_public_to_subscribers: true,
        can_create_topic_group: moderators,
      }),
    );
    expectSuccess(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'p2' }],
        invite_only: true,
        can_create_topic_group: group('role:everyone').id,
      }),
    );
    expectSuccess(
      await owner.post('/channels/create', {
        name: 'p3',
        subscribers: [],
        can_create_topic_group: moderators,
      }),
    );
  });
});

describe('default channels', () => {
  test('private channels cannot be made default; administrators only', async () => {
    expectError(
      await owner.post('/default_streams', { stream_id: ch('leadership').id }),
      'Private channels cannot be made default.',
    );
    expectError(
      await alice.post('/default_streams', { stream_id: ch('design').id }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectError(
      await owner.post('/default_streams', {}),
      "Missing 'stream_id' argument",
      'REQUEST_VARIABLE_MISSING',
    );
  });
});

describe('GET /streams and friends', () => {
  test('guests see only their subscriptions; include_all shows administrators everything', async () => {
    const g = await guest.get('/streams');
    expect(g.body.streams.map((s: { name: string }) => s.name).sort()).toEqual([
      'announcements',
      'general',
    ]);
    const all = await alice.get('/streams', { include_all: true, exclude_archived: false });
    expect(all.body.streams.map((s: { name: string }) => s.name)).not.toContain('leadership');
    const adm = await clientFor(z, 'alan').get('/streams', {
      include_all: true,
      exclude_archived: false,
    });
    expect(adm.body.streams.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(['leadership', 'old-projects']),
    );
  });

  test('get_stream_id', async () => {
    expect((await alice.get('/get_stream_id', { stream: 'GENERAL' })).body.stream_id).toBe(
      ch('general').id,
    );
    expectError(
      await alice.get('/get_stream_id', { stream: 'nope' }),
      "Invalid channel name 'nope'",
    );
  });
});

describe('POST /channels/create (FL 417)', () => {
  test('creates with subscribers and {creator} default; duplicate name', async () => {
    const r = await moderator.post('/channels/create', {
      name: 'ops',
      subscribers: [user('alice').id],
      can_send_message_group: group('role:members').id,
    });
    expectSuccess(r);
    const c = z.org.channels.find((x) => x.id === r.body.id)!;
    expect(c.settings.can_administer_channel_group).toEqual({
      direct_members: [user('moderator').id],
      direct_subgroups: [],
    });
    const dup = await moderator.post('/channels/create', { name: 'OPS', subscribers: [] });
    expectError(dup, "Channel 'OPS' already exists", 'CHANNEL_ALREADY_EXISTS', 409);
  });

  // `Json[str] | Json[int]`: each member of the union decodes the JSON, and the first error
  // reported is the `json[str]` member's.
  test('message_retention_days is JSON: unquoted text is refused, not taken as it is', async () => {
    for (const raw of ['unlimited', 'realm_default', 'invalid'])
      expectError(
        await owner.post('/channels/create', {
          name: `r-${raw}`,
          subscribers: [],
          message_retention_days: raw,
        }),
        'message_retention_days["json[str]"] is not valid JSON',
      );
    const r = await owner.post('/channels/create', {
      name: 'kept',
      subscribers: [],
      message_retention_days: JSON.stringify('unlimited'),
    });
    expectSuccess(r);
    expect(ch('kept').messageRetentionDays).toBe(-1);
    expectError(
      await owner.patch(`/streams/${ch('kept').id}`, { message_retention_days: 'unlimited' }),
      'message_retention_days["json[str]"] is not valid JSON',
    );
    expectError(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'via-subscribe' }],
        message_retention_days: 'unlimited',
      }),
      'message_retention_days["json[str]"] is not valid JSON',
    );
    expectSuccess(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'via-subscribe' }],
        message_retention_days: JSON.stringify('unlimited'),
      }),
    );
    expect(ch('via-subscribe').messageRetentionDays).toBe(-1);
  });

  test('topics_policy is JSON on creation (channels/create and subscribe), plain on PATCH', async () => {
    expectError(
      await owner.post('/channels/create', {
        name: 'tp',
        subscribers: [],
        topics_policy: 'disable_empty_topic',
      }),
      'topics_policy is not valid JSON',
    );
    expectError(
      await owner.post('/channels/create', {
        name: 'tp',
        subscribers: [],
        topics_policy: JSON.stringify('sometimes'),
      }),
      'Invalid topics_policy',
    );
    expectSuccess(
      await owner.post('/channels/create', {
        name: 'tp',
        subscribers: [],
        topics_policy: JSON.stringify('disable_empty_topic'),
      }),
    );
    expect(ch('tp').topicsPolicy).toBe('disable_empty_topic');
    expectError(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'tp2' }],
        topics_policy: 'allow_empty_topic',
      }),
      'topics_policy is not valid JSON',
    );
    expectSuccess(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'tp2' }],
        topics_policy: JSON.stringify('allow_empty_topic'),
      }),
    );
    expect(ch('tp2').topicsPolicy).toBe('allow_empty_topic');
    // PATCH /streams takes a plain str: a JSON-quoted value is not a policy.
    expectError(
      await owner.patch(`/streams/${ch('tp').id}`, { topics_policy: JSON.stringify('inherit') }),
      'Invalid topics_policy',
    );
    expectSuccess(await owner.patch(`/streams/${ch('tp').id}`, { topics_policy: 'inherit' }));
    expect(ch('tp').topicsPolicy).toBe('inherit');
  });

  test('message_retention_days on creation: parsed first, an owner only for a value other than the realm default', async () => {
    expectError(
      await admin.post('/channels/create', {
        name: 'r1',
        subscribers: [],
        message_retention_days: JSON.stringify('invalid'),
      }),
      "Bad value for 'message_retention_days': invalid",
      'REQUEST_VARIABLE_INVALID',
    );
    expectError(
      await admin.post('/channels/create', {
        name: 'r1',
        subscribers: [],
        message_retention_days: 0,
      }),
      "Bad value for 'message_retention_days': 0",
      'REQUEST_VARIABLE_INVALID',
    );
    expectError(
      await admin.post('/channels/create', {
        name: 'r1',
        subscribers: [],
        message_retention_days: 30,
      }),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectSuccess(
      await admin.post('/channels/create', {
        name: 'r1',
        subscribers: [],
        message_retention_days: JSON.stringify('realm_default'),
      }),
    );
    expect(ch('r1').messageRetentionDays).toBeNull();
    expectSuccess(
      await admin.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'r2' }],
        message_retention_days: JSON.stringify('realm_default'),
      }),
    );
    expectError(
      await admin.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'r3' }],
        message_retention_days: JSON.stringify('forever'),
      }),
      "Bad value for 'message_retention_days': forever",
      'REQUEST_VARIABLE_INVALID',
    );
    expectError(
      await admin.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'r3' }],
        message_retention_days: JSON.stringify('unlimited'),
      }),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
    z.org.realm.planAllowsRetention = false;
    expectSuccess(
      await owner.post('/channels/create', {
        name: 'r4',
        subscribers: [],
        message_retention_days: JSON.stringify('realm_default'),
      }),
    );
    expectError(
      await owner.post('/channels/create', {
        name: 'r5',
        subscribers: [],
        message_retention_days: 5,
      }),
      'Available on Zulip Cloud Standard. Upgrade to access.',
    );
  });

  test('a topics_policy other than inherit needs can_set_topics_policy_group (set to role:moderators)', async () => {
    z.org.realm.settings.can_set_topics_policy_group = group('role:moderators').id;
    const policy = JSON.stringify('disable_empty_topic');
    expectError(
      await alice.post('/channels/create', { name: 't1', subscribers: [], topics_policy: policy }),
      'Insufficient permission',
    );
    expectError(
      await alice.post('/users/me/subscriptions', {
        subscriptions: [{ name: 't1' }],
        topics_policy: policy,
      }),
      'Insufficient permission',
    );
    expect(z.org.channels.some((c) => c.name === 't1')).toBe(false);
    expectSuccess(
      await alice.post('/channels/create', {
        name: 't1',
        subscribers: [],
        topics_policy: JSON.stringify('inherit'),
      }),
    );
    expectSuccess(
      await moderator.post('/channels/create', {
        name: 't2',
        subscribers: [],
        topics_policy: policy,
      }),
    );
    expect(ch('t2').topicsPolicy).toBe('disable_empty_topic');
  });

  test('does not exist before FL 417', async () => {
    const old = await startEmulator({ featureLevel: 372, rateLimit: false });
    try {
      const r = await clientFor(old, 'owner').post('/channels/create', {
        name: 'x',
        subscribers: [],
      });
      expect(r.status).toBe(404);
    } finally {
      await old.close();
    }
  });
});

describe('group-setting values and deactivated users (FL 303)', () => {
  test('deactivated users are left out of direct_members, and `old` compares with what GET shows', async () => {
    const id = ch('design').id;
    z.org.channels.find((c) => c.id === id)!.settings.can_send_message_group = {
      direct_members: [user('alice').id, user('former').id],
      direct_subgroups: [group('design').id],
    };
    const got = (await owner.get(`/streams/${id}`)).body.stream.can_send_message_group;
    expect(got).toEqual({
      direct_members: [user('alice').id],
      direct_subgroups: [group('design').id],
    });
    expectSuccess(
      await owner.patch(`/streams/${id}`, {
        can_send_message_group: { new: group('role:members').id, old: got },
      }),
    );
  });
});
