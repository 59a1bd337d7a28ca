/**
 * Conformance: how the channel views' parameters are parsed before the views run
 * (zerver/lib/typed_endpoint.py: in the order of the view's signature, pydantic in strict
 * mode, the first malformed parameter failing the request before anything is looked up or
 * applied). The views are zerver/views/streams.py `update_stream_backend` (PATCH /streams/{id}),
 * `create_channel` (POST /channels/create) and `add_subscriptions_backend`
 * (POST /users/me/subscriptions, and PATCH /users/me/subscriptions through
 * `update_subscriptions_backend`). Each case names the Zulip test whose request it varies.
 * desdemona → owner, iago → admin, hamlet → alice.
 */
import { expectError, expectSuccess } from '../support/emulator-client';
import type { TestResponse } from '../support/emulator-client';
import { World } from './channels-support';

let w: World;
beforeEach(async () => {
  w = await World.start();
});
afterEach(() => w.close());

const NOT_AN_INTEGER = 'folder_id is not an integer';
/**
 * PATCH /streams: `folder_id: Json[int | None] | MissingType`. The union's other member,
 * pydantic_partials' `MissingType` (`is_instance_schema`, so it takes only its sentinel), fails
 * too, and the first member's error is reported under its tag. No Zulip test sends a malformed
 * folder_id here; the tag is what pydantic 2.13 gives for this union.
 */
const UPDATE_NOT_AN_INTEGER = 'folder_id["json[nullable[int]]"] is not an integer';

async function folder(name = 'Frontend'): Promise<number> {
  const res = await w.as('owner').post('/channel_folders/create', { name, description: '' });
  expectSuccess(res);
  return res.body.channel_folder_id as number;
}

describe('PATCH /streams/{id}: update_stream_backend', () => {
  const patch = async (params: Record<string, unknown>): Promise<TestResponse> =>
    w.as('owner').patch(`/streams/${w.ch('general').id}`, params);

  // folder_id: Json[int | None] | MissingType, so null is a value (out of the folder).
  it.each([['x'], [true], [1.5], [[1]], [{ id: 1 }]])(
    'test_subs.py StreamAdminTest.test_updating_stream_folder: folder_id %j is not an integer',
    async (value) => {
      const general = w.ch('general');
      general.folderId = await folder();
      const res = await patch({ folder_id: typeof value === 'string' ? `"${value}"` : value });
      expectError(res, UPDATE_NOT_AN_INTEGER);
      expect(w.ch('general').folderId).toBe(general.folderId);
    },
  );

  it('test_updating_stream_folder: a malformed folder_id fails before the channel is looked up', async () => {
    expectError(
      await w.as('owner').patch('/streams/99999', { folder_id: true }),
      UPDATE_NOT_AN_INTEGER,
    );
  });

  it("test_updating_stream_folder: a folder_id that is not JSON is the json[nullable[int]] member's json_invalid", async () => {
    expectError(
      await patch({ folder_id: 'frontend' }),
      'folder_id["json[nullable[int]]"] is not valid JSON',
    );
  });

  // test_change_stream_message_retention_days sends JSON ("invalid" → "Bad value for ...");
  // message_retention_days is Json[str] | Json[int] | None, so text that is not JSON fails
  // both members and the json[str] member's error is reported.
  it.each([
    ['invalid', 'message_retention_days["json[str]"] is not valid JSON'],
    ['unlimited', 'message_retention_days["json[str]"] is not valid JSON'],
    [true, 'message_retention_days["json[str]"] is not a string'],
    [1.5, 'message_retention_days["json[str]"] is not a string'],
  ])(
    'test_subs.py StreamAdminTest.test_change_stream_message_retention_days: %j',
    async (value, msg) => {
      expectError(await patch({ message_retention_days: value }), msg);
      expect(w.ch('general').messageRetentionDays).toBeNull();
    },
  );

  // The signature's order: can_*_group settings, description, folder_id,
  // history_public_to_subscribers, is_archived, is_default_stream, is_private, is_web_public,
  // message_retention_days, new_name, topics_policy.
  it.each([
    [
      'a group setting before folder_id',
      { folder_id: true, can_send_message_group: { old: 1 } },
      'can_send_message_group["new"] field is missing: Field required',
    ],
    [
      'can_create_topic_group before can_administer_channel_group',
      { can_administer_channel_group: 1, can_create_topic_group: 1 },
      'can_create_topic_group does not have the expected format',
    ],
    [
      'description before folder_id',
      { description: 'x'.repeat(1025), folder_id: true },
      'description is too long (limit: 1024 characters)',
    ],
    [
      'folder_id before is_private',
      { is_private: 'maybe', folder_id: true },
      UPDATE_NOT_AN_INTEGER,
    ],
    [
      'folder_id before history_public_to_subscribers',
      { history_public_to_subscribers: 'maybe', folder_id: true },
      UPDATE_NOT_AN_INTEGER,
    ],
    [
      'is_default_stream before is_private',
      { is_private: 'maybe', is_default_stream: 'maybe' },
      'is_default_stream is not valid JSON',
    ],
    [
      'is_web_public before message_retention_days',
      { message_retention_days: true, is_web_public: 'maybe' },
      'is_web_public is not valid JSON',
    ],
    [
      'message_retention_days (Json[str] | Json[int]: the json[str] member reports) before topics_policy',
      { topics_policy: 'sometimes', message_retention_days: true },
      'message_retention_days["json[str]"] is not a string',
    ],
  ])('test_updating_stream_folder, parameter order: %s', async (_what, params, msg) => {
    const before = w.ch('general').description;
    expectError(await patch(params), msg);
    expect(w.ch('general').description).toBe(before);
  });
});

describe('POST /channels/create: create_channel', () => {
  const create = (params: Record<string, unknown>): Promise<TestResponse> =>
    w.as('owner').post('/channels/create', {
      name: 'new_stream',
      subscribers: [w.user('owner').id],
      ...params,
    });

  // folder_id: Json[int] | None = None; the None is the default, not a value the JSON may take.
  it.each([[null], [true], ['"1"'], [1.5]])(
    'test_channel_creation.py TestCreateStreams.test_adding_channels_to_folder_during_creation: folder_id %j is not an integer',
    async (value) => {
      await folder();
      expectError(await create({ folder_id: value }), NOT_AN_INTEGER);
      expect(w.z.org.channels.some((c) => c.name === 'new_stream')).toBe(false);
    },
  );

  // topics_policy: Json[TopicsPolicy], JSON-encoded on creation (a plain str on update, where
  // test_change_topics_policy's `2` is "Invalid topics_policy").
  it.each([[2], [true], [['disable_empty_topic']]])(
    'test_channel_creation.py TestCreateStreams.test_channel_creation_miscellaneous: topics_policy %j is not a string',
    async (value) => {
      expectError(await create({ topics_policy: value }), 'topics_policy is not a string');
    },
  );

  it('test_channel_creation_miscellaneous: a JSON null topics_policy reaches the enum check', async () => {
    expectError(await create({ topics_policy: null }), 'Invalid topics_policy');
  });

  // The signature's order: announce, can_*_group settings, description, folder_id,
  // history_public_to_subscribers, invite_only, is_web_public, is_default_stream,
  // message_retention_days, name, subscribers, topics_policy.
  it.each([
    [
      'a group setting before folder_id',
      { folder_id: null, can_send_message_group: { direct_members: [] } },
      'can_send_message_group["int"] is not an integer',
    ],
    [
      'description before folder_id',
      { description: 'x'.repeat(1025), folder_id: null },
      'description is too long (limit: 1024 characters)',
    ],
    ['folder_id before invite_only', { invite_only: 'maybe', folder_id: null }, NOT_AN_INTEGER],
    [
      'message_retention_days before name',
      { name: '  ', message_retention_days: null },
      'message_retention_days["json[str]"] is not a string',
    ],
    ['name before topics_policy', { name: '  ', topics_policy: 2 }, 'name cannot be blank'],
  ])(
    'test_adding_channels_to_folder_during_creation, parameter order: %s',
    async (_what, params, msg) => {
      expectError(await create(params), msg);
    },
  );
});

describe('POST /users/me/subscriptions: add_subscriptions_backend', () => {
  const subscribe = (params: Record<string, unknown>): Promise<TestResponse> =>
    w.as('alice').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'new_stream', description: 'New stream' }],
      ...params,
    });

  it('test_channel_creation.py TestCreateStreams.test_adding_channels_to_folder_during_creation', async () => {
    expectError(await subscribe({ folder_id: 99 }), 'Invalid channel folder ID');
    for (const value of [null, true, '"1"'])
      expectError(await subscribe({ folder_id: value }), NOT_AN_INTEGER);
    expect(w.z.org.channels.some((c) => c.name === 'new_stream')).toBe(false);
    const id = await folder('Backend');
    expectSuccess(await subscribe({ folder_id: id }));
    expect(w.ch('new_stream').folderId).toBe(id);
  });

  it('test_adding_channels_to_folder_during_creation: the parameters are parsed even when no channel is created', async () => {
    const before = w.z.org.subscriptions.filter((s) => s.active).length;
    for (const [params, msg] of [
      [{ folder_id: null }, NOT_AN_INTEGER],
      [
        { can_send_message_group: { direct_members: [] } },
        'can_send_message_group["int"] is not an integer',
      ],
      [{ message_retention_days: null }, 'message_retention_days["json[str]"] is not a string'],
      [{ topics_policy: 2 }, 'topics_policy is not a string'],
    ] as const)
      expectError(await subscribe({ subscriptions: [{ name: 'design' }], ...params }), msg);
    expect(w.z.org.subscriptions.filter((s) => s.active).length).toBe(before);
  });

  // The signature's order: announce, authorization_errors_fatal, can_*_group settings,
  // folder_id, history_public_to_subscribers, invite_only, is_default_stream, is_web_public,
  // message_retention_days, principals, send_new_subscription_messages, subscriptions
  // (`streams_raw`), topics_policy.
  it.each([
    [
      'authorization_errors_fatal before the group settings',
      { can_send_message_group: 'null', authorization_errors_fatal: 'maybe' },
      'authorization_errors_fatal is not valid JSON',
    ],
    [
      'can_delete_any_message_group before can_administer_channel_group',
      { can_administer_channel_group: true, can_delete_any_message_group: true },
      'can_delete_any_message_group["int"] is not an integer',
    ],
    ['folder_id before invite_only', { invite_only: 'maybe', folder_id: null }, NOT_AN_INTEGER],
    [
      'is_default_stream before is_web_public',
      { is_web_public: 'maybe', is_default_stream: 'maybe' },
      'is_default_stream is not valid JSON',
    ],
    [
      'folder_id before subscriptions',
      { subscriptions: { name: 'x' }, folder_id: null },
      NOT_AN_INTEGER,
    ],
    [
      'principals before subscriptions',
      { subscriptions: { name: 'x' }, principals: { a: 1 } },
      'principals is not a list',
    ],
    [
      'subscriptions before topics_policy',
      { subscriptions: { name: 'x' }, topics_policy: 2 },
      'subscriptions is not a list',
    ],
  ])('parameter order: %s', async (_what, params, msg) => {
    expectError(await subscribe(params), msg);
  });

  it('PATCH /users/me/subscriptions: add_subscriptions_backend parses its parameters from the request', async () => {
    expectError(
      await w.as('alice').patch('/users/me/subscriptions', {
        add: [{ name: 'new_stream' }],
        folder_id: null,
      }),
      NOT_AN_INTEGER,
    );
    expect(w.z.org.channels.some((c) => c.name === 'new_stream')).toBe(false);
  });
});
