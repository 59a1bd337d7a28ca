/**
 * Conformance: `PATCH /realm` and the organization settings in `POST /register`, ported from
 * zerver/tests/test_realm.py (RealmTest) and test_events.py (Zulip at feature level 442).
 * iago → admin (administrator), desdemona → owner, hamlet → alice, othello → bob; Zulip's
 * `leadership` group is created through the API. Where Zulip's tests arrange state with an
 * action function (`do_change_realm_plan_type`), the cases arrange the emulator's state.
 */
import { ORGANIZATION_PROPERTIES } from '../../src/model/organization-settings';
import type { OrganizationPropertyInfo } from '../../src/model/organization-settings';
import { ORGANIZATION_PERMISSIONS } from '../../src/model/permissions';
import type { PermissionSettingInfo } from '../../src/model/permissions';
import { SYSTEM_GROUP_NAMES } from '../../src/model/kinds';
import { setRealmPlanType } from '../../src/emulator/state';
import { validateResponse } from '../support/openapi-validate';
import { expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';
import { groupsWorld } from './user-groups-support';
import type { GroupsWorld } from './user-groups-support';

let w: GroupsWorld;
let iago: TestClient;
let desdemona: TestClient;

beforeAll(() => {
  validateResponse('GET', '/users/me', 200, { result: 'success', msg: '' });
});
beforeEach(async () => {
  w = await groupsWorld();
  iago = w.as('admin');
  desdemona = w.as('owner');
});
afterEach(() => w.z.close());

async function register(client: TestClient = iago): Promise<Record<string, unknown>> {
  const res = await client.post('/register', {
    fetch_event_types: ['realm'],
    client_capabilities: { notification_settings_null: true },
  });
  expectSuccess(res);
  await client.delete('/events', { queue_id: res.body.queue_id });
  return res.body as Record<string, unknown>;
}

const setting = (name: string, value: unknown): Record<string, unknown> => ({
  [name]: JSON.stringify(value),
});

/**
 * A successful `PATCH /realm` by `client`: its answer and the events iago's `realm` queue got
 * meanwhile (Zulip's `verify_action`), without their IDs.
 */
async function patchRealm(
  params: Record<string, unknown>,
  client: TestClient = iago,
): Promise<{ data: Record<string, unknown>; events: Record<string, unknown>[] }> {
  const reg = await iago.post('/register', {
    event_types: ['realm'],
    client_capabilities: { notification_settings_null: true },
  });
  expectSuccess(reg);
  const res = await client.patch('/realm', params);
  expectSuccess(res);
  const ev = await iago.get('/events', {
    queue_id: reg.body.queue_id,
    last_event_id: -1,
    dont_block: true,
  });
  expectSuccess(ev);
  await iago.delete('/events', { queue_id: reg.body.queue_id });
  const events = (ev.body.events as Record<string, unknown>[]).map(({ id: _id, ...e }) => e);
  return { data: res.body as Record<string, unknown>, events };
}

describe('test_realm.py RealmTest', () => {
  it('test_update_realm_description: admins change it; register reports it unrendered; one realm event', async () => {
    const { data, events } = await patchRealm({ description: 'zulip **dev** group' });
    expect(data.description).toBe('updated');
    expect(events).toEqual([
      { type: 'realm', op: 'update', property: 'description', value: 'zulip **dev** group' },
    ]);
    expect((await register()).realm_description).toBe('zulip **dev** group');
  });

  it('test_realm_description_length / test_realm_name_length: the limits', async () => {
    expectError(
      await iago.patch('/realm', { description: 'A'.repeat(1001) }),
      'description is too long (limit: 1000 characters)',
    );
    expectError(
      await iago.patch('/realm', { name: 'A'.repeat(41) }),
      'name is too long (limit: 40 characters)',
    );
  });

  it('test_admin_restrictions_for_changing_realm_name: members may not', async () => {
    expectError(
      await w.as('alice').patch('/realm', { name: 'New name' }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
  });

  it('test_invalid_default_language: "Invalid language"', async () => {
    expectError(
      await iago.patch('/realm', { default_language: 'invalid' }),
      "Invalid language 'invalid'",
    );
    expectSuccess(await iago.patch('/realm', { default_language: 'de' }));
    expect((await register()).realm_default_language).toBe('de');
  });

  it('test_invalid_integer_attribute_values: the time limits and retention', async () => {
    for (const name of [
      'message_content_edit_limit_seconds',
      'move_messages_within_stream_limit_seconds',
      'move_messages_between_streams_limit_seconds',
    ])
      expectError(await iago.patch('/realm', setting(name, 0)), `Bad value for '${name}': 0`);
    expectError(
      await iago.patch('/realm', setting('message_content_delete_limit_seconds', -10)),
      "Bad value for 'message_content_delete_limit_seconds': -10",
    );
    // NonNegativeInt is checked when the request is parsed, before the view's owner check.
    expectError(
      await iago.patch('/realm', setting('waiting_period_threshold', -10)),
      'waiting_period_threshold is too small',
    );
    // Json[DigestWeekdayEnum]: a number that is not a weekday is pydantic's "enum" error.
    for (const v of [10, 7, -1])
      expectError(
        await iago.patch('/realm', setting('digest_weekday', v)),
        'Invalid digest_weekday',
      );
    expectError(
      await iago.patch('/realm', { message_edit_history_visibility_policy: '10' }),
      'Invalid message_edit_history_visibility_policy',
    );
    expectError(
      await iago.patch('/realm', setting('message_retention_days', 10)),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectSuccess(await iago.patch('/realm', setting('digest_weekday', 6)));
    expect((await register()).realm_digest_weekday).toBe(6);
  });

  it('do_set_realm_property: a number the integer column cannot hold is a server error after the earlier writes', async () => {
    for (const name of [
      'waiting_period_threshold',
      'message_content_edit_limit_seconds',
      'message_retention_days',
    ]) {
      // A 500's body has no `code`, which the yaml's error schema requires.
      const res = await desdemona.call(
        'PATCH',
        '/realm',
        { description: `before ${name}`, ...setting(name, 2147483648) },
        { validate: false },
      );
      expect({ status: res.status, body: res.body }).toEqual({
        status: 500,
        body: { result: 'error', msg: 'Internal server error' },
      });
      const state = await register();
      expect([state.realm_description, state[`realm_${name}`]]).toEqual([
        `before ${name}`,
        { waiting_period_threshold: 0, message_content_edit_limit_seconds: 600 }[name] ?? -1,
      ]);
      expectSuccess(await desdemona.patch('/realm', setting(name, 2147483647)));
      expect((await register())[`realm_${name}`]).toBe(2147483647);
    }
  });

  it('test_update_realm_move_messages_within_stream_limit_seconds_unlimited_value', async () => {
    const res = await iago.patch(
      '/realm',
      setting('move_messages_within_stream_limit_seconds', 'unlimited'),
    );
    expectSuccess(res);
    expect(res.body.move_messages_within_stream_limit_seconds).toBeNull();
    expect((await register()).realm_move_messages_within_stream_limit_seconds).toBeNull();
    expectSuccess(
      await iago.patch('/realm', setting('move_messages_within_stream_limit_seconds', 3600)),
    );
    expect((await register()).realm_move_messages_within_stream_limit_seconds).toBe(3600);
  });

  it('test_message_retention_days: owners only; "unlimited" is -1; bad values', async () => {
    expectError(
      await iago.patch('/realm', setting('message_retention_days', 10)),
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
    for (const [v, shown] of [
      [0, '0'],
      [-10, '-10'],
      ['invalid', 'invalid'],
      [-1, '-1'],
    ] as const)
      expectError(
        await desdemona.patch('/realm', setting('message_retention_days', v)),
        `Bad value for 'message_retention_days': ${shown}`,
      );
    expectSuccess(await desdemona.patch('/realm', setting('message_retention_days', 10)));
    expect((await register()).realm_message_retention_days).toBe(10);
    expectSuccess(await desdemona.patch('/realm', setting('message_retention_days', 'unlimited')));
    expect((await register()).realm_message_retention_days).toBe(-1);
    setRealmPlanType(w.z.org.realm, 2);
    expectError(
      await desdemona.patch('/realm', setting('message_retention_days', 10)),
      'Available on Zulip Cloud Standard. Upgrade to access.',
    );
    setRealmPlanType(w.z.org.realm, 3);
    expectSuccess(await desdemona.patch('/realm', setting('message_retention_days', 20)));
    expect((await register()).realm_message_retention_days).toBe(20);
  });

  it('test_changing_user_joining_settings_require_owners', async () => {
    for (const [name, value] of [
      ['invite_required', false],
      ['emails_restricted_to_domains', true],
      ['disallow_disposable_email_addresses', false],
      ['waiting_period_threshold', 20],
    ] as const) {
      expectError(
        await iago.patch('/realm', setting(name, value)),
        'Must be an organization owner',
        'UNAUTHORIZED_PRINCIPAL',
      );
      expectSuccess(await desdemona.patch('/realm', setting(name, value)));
      expect((await register())[`realm_${name}`]).toBe(value);
    }
  });

  it('test_can_create_groups_setting_requires_owner / can_invite_users_group / can_manage_all_groups', async () => {
    for (const name of ['can_create_groups', 'can_invite_users_group', 'can_manage_all_groups']) {
      const value = setting(name, { new: w.gid('role:administrators') });
      expectError(
        await iago.patch('/realm', value),
        'Must be an organization owner',
        'UNAUTHORIZED_PRINCIPAL',
      );
      expectSuccess(await desdemona.patch('/realm', value));
      expect(w.z.org.realm.settings[name]).toBe(w.gid('role:administrators'));
    }
  });

  it('test_enable_spectator_access_for_limited_plan_realms / test_can_create_groups_limited_plan_realms', async () => {
    setRealmPlanType(w.z.org.realm, 2);
    expectError(
      await iago.patch('/realm', setting('enable_spectator_access', true)),
      'Available on Zulip Cloud Standard. Upgrade to access.',
    );
    expectError(
      await iago.patch('/realm', setting('can_create_groups', { new: w.gid('role:members') })),
      'Available on Zulip Cloud Standard. Upgrade to access.',
    );
  });

  it('test_changing_can_access_all_users_group_based_on_plan_type', async () => {
    setRealmPlanType(w.z.org.realm, 3);
    expectError(
      await iago.patch(
        '/realm',
        setting('can_access_all_users_group', { new: w.gid('role:members') }),
      ),
      'Available on Zulip Cloud Plus. Upgrade to access.',
    );
    setRealmPlanType(w.z.org.realm, 10);
    expectSuccess(
      await iago.patch(
        '/realm',
        setting('can_access_all_users_group', { new: w.gid('role:members') }),
      ),
    );
  });

  it('test_invalid_topics_policy / message_edit_history_visibility_policy: "Invalid x"', async () => {
    expectError(await iago.patch('/realm', { topics_policy: 'invalid' }), 'Invalid topics_policy');
    expectError(
      await iago.patch('/realm', { message_edit_history_visibility_policy: 'invalid' }),
      'Invalid message_edit_history_visibility_policy',
    );
    expectSuccess(await iago.patch('/realm', { topics_policy: 'disable_empty_topic' }));
    const state = await register();
    expect(state.realm_topics_policy).toBe('disable_empty_topic');
    expect(state.realm_mandatory_topics).toBe(true);
  });

  it('test_update_realm_properties: every property takes each of its test values (do_test_realm_update_api); register reports it', async () => {
    // Zulip's test_values, for the properties the embedded server has (channels are not in
    // Realm.property_types); booleans go false, true, false.
    const testValues: Record<string, readonly (string | number | boolean)[]> = {
      default_language: ['de', 'en'],
      default_code_block_language: ['javascript', ''],
      welcome_message_custom_text: ['Welcome Bot Custom Message', 'New Welcome Bot Custom Message'],
      description: ['Realm description', 'New description'],
      digest_weekday: [0, 1, 2],
      message_edit_history_visibility_policy: ['all', 'moves', 'none'],
      message_retention_days: [10, 20],
      name: ['Zulip', 'New Name'],
      waiting_period_threshold: [10, 20],
      message_content_delete_limit_seconds: [1000, 1100, 1200],
      message_content_edit_limit_seconds: [1000, 1100, 1200],
      move_messages_within_stream_limit_seconds: [1000, 1100, 1200],
      move_messages_between_streams_limit_seconds: [1000, 1100, 1200],
      topics_policy: ['allow_empty_topic', 'disable_empty_topic'],
      video_chat_provider: [1, 0],
      giphy_rating: [1, 4],
    };
    // jitsi_server_url has a case of its own below, as in Zulip's test.
    const infos = (Object.values(ORGANIZATION_PROPERTIES) as OrganizationPropertyInfo[]).filter(
      (i) => i.type !== 'channel' && i.type !== 'url',
    );
    for (const info of infos) {
      const vals = info.type === 'boolean' ? [false, true] : testValues[info.wire];
      if (vals === undefined) throw new Error(`No test created for ${info.wire}`);
      for (const v of [...vals.slice(1), vals[0]]) {
        // Plain strings as they are; the others JSON-encoded (`update_with_api`).
        const sent =
          info.type === 'string' || info.type === 'enum'
            ? { [info.wire]: v }
            : setting(info.wire, v);
        expectSuccess(await desdemona.patch('/realm', sent));
        expect([info.wire, (await register())[`realm_${info.wire}`]]).toEqual([info.wire, v]);
      }
    }
  });

  it('test_update_realm_properties: every realm group setting takes each system group its rules allow', async () => {
    for (const info of Object.values(ORGANIZATION_PERMISSIONS) as PermissionSettingInfo[]) {
      const s = info.wire;
      for (const name of SYSTEM_GROUP_NAMES) {
        const res = await desdemona.patch('/realm', setting(s, { new: w.gid(name) }));
        const refused =
          name === 'role:internet' ||
          (name === 'role:nobody' && info.allowNobody === false) ||
          (name === 'role:everyone' && !info.allowEveryone) ||
          (info.allowedSystemGroups !== undefined &&
            !(info.allowedSystemGroups as readonly string[]).includes(name));
        if (refused) expectError(res, `'${s}' setting cannot be set to '${name}' group.`);
        else {
          expectSuccess(res);
          expect([s, w.z.org.realm.settings[s]]).toEqual([s, w.gid(name)]);
        }
      }
    }
  });

  it('test_update_realm_properties: settings that require a system group refuse user groups and sets', async () => {
    const leadership = await w.create('admin', 'leadership', ['alice']);
    for (const s of ['can_access_all_users_group', 'can_create_web_public_channel_group']) {
      const msg = `'${s}' must be a system user group.`;
      const res = await desdemona.patch('/realm', setting(s, { new: leadership }));
      expectError(res, msg, 'SYSTEM_GROUP_REQUIRED');
      expect(res.body.setting_name).toBe(s);
      expectError(
        await desdemona.patch(
          '/realm',
          setting(s, {
            new: {
              direct_members: [],
              direct_subgroups: [w.gid('role:administrators'), leadership],
            },
          }),
        ),
        msg,
        'SYSTEM_GROUP_REQUIRED',
      );
    }
    // A set holding one allowed system group is that group.
    expectSuccess(
      await desdemona.patch(
        '/realm',
        setting('can_create_web_public_channel_group', {
          new: { direct_members: [], direct_subgroups: [w.gid('role:moderators')] },
        }),
      ),
    );
    expect(w.z.org.realm.settings.can_create_web_public_channel_group).toBe(
      w.gid('role:moderators'),
    );
  });

  it('do_test_realm_permission_group_setting_update_api_with_anonymous_groups: old, sets, canonical forms', async () => {
    const s = 'can_create_public_channel_group';
    const leadership = await w.create('admin', 'leadership', ['alice']);
    const othello = w.uid('bob');
    const hamlet = w.uid('alice');
    const mods = w.gid('role:moderators');
    const admins = w.gid('role:administrators');
    const mismatch = "'old' value does not match the expected value.";
    expectSuccess(await iago.patch('/realm', setting(s, { new: mods })));
    expectError(
      await iago.patch('/realm', setting(s, { new: admins, old: leadership })),
      mismatch,
      'EXPECTATION_MISMATCH',
    );
    expectError(
      await iago.patch(
        '/realm',
        setting(s, { new: admins, old: { direct_members: [othello], direct_subgroups: [mods] } }),
      ),
      mismatch,
      'EXPECTATION_MISMATCH',
    );
    expectSuccess(await iago.patch('/realm', setting(s, { new: admins, old: mods })));
    expect(w.z.org.realm.settings[s]).toBe(admins);
    expectSuccess(
      await iago.patch(
        '/realm',
        setting(s, { new: { direct_members: [othello], direct_subgroups: [leadership] } }),
      ),
    );
    expect(w.z.org.realm.settings[s]).toEqual({
      direct_members: [othello],
      direct_subgroups: [leadership],
    });
    expectError(
      await iago.patch(
        '/realm',
        setting(s, { new: { direct_members: [hamlet], direct_subgroups: [mods] }, old: mods }),
      ),
      mismatch,
      'EXPECTATION_MISMATCH',
    );
    expectError(
      await iago.patch(
        '/realm',
        setting(s, {
          new: { direct_members: [hamlet], direct_subgroups: [mods] },
          old: { direct_members: [othello], direct_subgroups: [mods] },
        }),
      ),
      mismatch,
      'EXPECTATION_MISMATCH',
    );
    expectSuccess(
      await iago.patch(
        '/realm',
        setting(s, {
          new: { direct_members: [hamlet], direct_subgroups: [mods] },
          old: { direct_members: [othello], direct_subgroups: [leadership] },
        }),
      ),
    );
    expect((await register())[`realm_${s}`]).toEqual({
      direct_members: [hamlet],
      direct_subgroups: [mods],
    });
    expectSuccess(
      await iago.patch(
        '/realm',
        setting(s, {
          new: leadership,
          old: { direct_members: [hamlet], direct_subgroups: [mods] },
        }),
      ),
    );
    expect(w.z.org.realm.settings[s]).toBe(leadership);
    // A set with one subgroup is that group, on both sides.
    expectSuccess(
      await iago.patch(
        '/realm',
        setting(s, {
          new: { direct_members: [], direct_subgroups: [admins] },
          old: { direct_members: [], direct_subgroups: [leadership] },
        }),
      ),
    );
    expect(w.z.org.realm.settings[s]).toBe(admins);
    // An empty set is role:nobody, refused where the setting does not allow it.
    expectError(
      await desdemona.patch(
        '/realm',
        setting('can_manage_all_groups', {
          new: { direct_members: [], direct_subgroups: [] },
          old: w.gid('role:owners'),
        }),
      ),
      "'can_manage_all_groups' setting cannot be set to 'role:nobody' group.",
    );
    expectSuccess(
      await iago.patch(
        '/realm',
        setting(s, { new: { direct_members: [], direct_subgroups: [] }, old: admins }),
      ),
    );
    expect(w.z.org.realm.settings[s]).toBe(w.gid('role:nobody'));
  });

  /** A private channel only the owner is subscribed to (Zulip's `make_stream(..., invite_only=True)`). */
  async function privateChannel(name: string): Promise<number> {
    const res = await desdemona.post('/channels/create', {
      name,
      subscribers: [w.uid('owner')],
      invite_only: true,
    });
    expectSuccess(res);
    return res.body.id as number;
  }

  it('test_change_new_stream_announcements_stream / test_change_signup_announcements_stream / test_change_zulip_update_announcements_stream', async () => {
    const denmark = w.z.org.channels.find((c) => c.name === 'general')?.id;
    const secret = await privateChannel('private_stream');
    for (const name of [
      'new_stream_announcements_stream_id',
      'signup_announcements_stream_id',
      'zulip_update_announcements_stream_id',
    ]) {
      expectSuccess(await iago.patch('/realm', setting(name, -1)));
      expect((await register())[`realm_${name}`]).toBe(-1);
      expectSuccess(await iago.patch('/realm', setting(name, denmark)));
      expect((await register())[`realm_${name}`]).toBe(denmark);
      // An administrator may name a private channel they are not subscribed to.
      expectSuccess(await iago.patch('/realm', setting(name, secret)));
      expect((await register())[`realm_${name}`]).toBe(secret);
      expectError(await iago.patch('/realm', setting(name, 1234)), 'Invalid channel ID');
      expect((await register())[`realm_${name}`]).toBe(secret);
    }
  });

  it('test_get_default_signup_announcements_stream / ..._zulip_update_announcements_stream / ..._moderation_request_channel: archiving the channel unsets it', async () => {
    const secret = await privateChannel('verona');
    const names = [
      'signup_announcements_stream_id',
      'zulip_update_announcements_stream_id',
      'moderation_request_channel_id',
    ];
    expectSuccess(
      await iago.patch('/realm', Object.assign({}, ...names.map((n) => setting(n, secret)))),
    );
    expectSuccess(await desdemona.delete(`/streams/${secret}`));
    const state = await register();
    expect(names.map((n) => state[`realm_${n}`])).toEqual([-1, -1, -1]);
  });

  it('test_change_moderation_request_channel: -1, a private channel; an unknown or public one is refused', async () => {
    const name = 'moderation_request_channel_id';
    expectSuccess(await iago.patch('/realm', setting(name, -1)));
    expect((await register()).realm_moderation_request_channel_id).toBe(-1);
    const secret = await privateChannel('private_stream');
    expectSuccess(await iago.patch('/realm', setting(name, secret)));
    expect((await register()).realm_moderation_request_channel_id).toBe(secret);
    expectError(await iago.patch('/realm', setting(name, 4321)), 'Invalid channel ID');
    const denmark = w.z.org.channels.find((c) => c.name === 'general')?.id;
    expectError(
      await iago.patch('/realm', setting(name, denmark)),
      'Moderation request channel must be private.',
    );
    expect((await register()).realm_moderation_request_channel_id).toBe(secret);
    // The settings before it in update_realm were written: the view has no outer transaction.
    expectError(
      await iago.patch('/realm', { name: 'Renamed', ...setting(name, denmark) }),
      'Moderation request channel must be private.',
    );
    expect((await register()).realm_name).toBe('Renamed');
  });

  it('channel settings: by ID, -1 for none, "Invalid channel ID" for an unknown one; archiving unsets them', async () => {
    const general = w.z.org.channels.find((c) => !c.isArchived && !c.inviteOnly);
    if (!general) throw new Error('no public channel');
    expectError(
      await iago.patch('/realm', setting('new_stream_announcements_stream_id', 99999)),
      'Invalid channel ID',
    );
    const leadership = w.z.org.channels.find((c) => c.name === 'leadership');
    if (!leadership?.inviteOnly) throw new Error('no private channel');
    const res = await iago.patch('/realm', {
      ...setting('new_stream_announcements_stream_id', general.id),
      ...setting('moderation_request_channel_id', leadership.id),
    });
    expectSuccess(res);
    expect(res.body).toMatchObject({
      new_stream_announcements_stream_id: general.id,
      moderation_request_channel_id: leadership.id,
    });
    expect((await register()).realm_new_stream_announcements_stream_id).toBe(general.id);
    expectSuccess(await iago.delete(`/streams/${general.id}`));
    expect((await register()).realm_moderation_request_channel_id).toBe(leadership.id);
    expectSuccess(await iago.delete(`/streams/${leadership.id}`));
    const state = await register();
    expect(state.realm_new_stream_announcements_stream_id).toBe(-1);
    expect(state.realm_moderation_request_channel_id).toBe(-1);
  });
});

describe('test_realm.py RealmTest: video calls, Jitsi, GIFs and the organization type', () => {
  it('test_change_video_chat_provider: only the providers this server has configured (None, Jitsi Meet)', async () => {
    expect((await register()).realm_video_chat_provider).toBe(1);
    expectError(
      await iago.patch('/realm', setting('video_chat_provider', 10)),
      'Invalid video_chat_provider 10',
    );
    const { data } = await patchRealm(setting('video_chat_provider', 0));
    expect(data.video_chat_provider).toBe(0);
    expect((await register()).realm_video_chat_provider).toBe(0);
    expectSuccess(await iago.patch('/realm', setting('video_chat_provider', 1)));
    expect((await register()).realm_video_chat_provider).toBe(1);
    // Zoom (3), BigBlueButton (4) and Zoom Server to Server (5) need server settings
    // (`get_enabled_video_chat_providers`); this server has none, as the test's
    // `self.settings(BIG_BLUE_BUTTON_SECRET=None)` etc.
    for (const id of [3, 4, 5])
      expectError(
        await iago.patch('/realm', { video_chat_provider: `${id}` }),
        `Invalid video_chat_provider ${id}`,
      );
    expect((await register()).realm_available_video_chat_providers).toEqual({
      disabled: { name: 'None', id: 0 },
      jitsi_meet: { name: 'Jitsi Meet', id: 1 },
    });
    // An unchanged value is not written (do_set_realm_property): no event, not in the answer.
    const unchanged = await patchRealm(setting('video_chat_provider', 1));
    expect([unchanged.events, unchanged.data.video_chat_provider]).toEqual([[], undefined]);
  });

  it('test_invalid_integer_attribute_values: video_chat_provider and giphy_rating', async () => {
    expectError(
      await iago.patch('/realm', setting('video_chat_provider', 10)),
      'Invalid video_chat_provider 10',
    );
    expectError(await iago.patch('/realm', setting('giphy_rating', 10)), 'Invalid giphy_rating 10');
    expectError(await iago.patch('/realm', setting('giphy_rating', -1)), 'Invalid giphy_rating -1');
    // The view's checks come after `typed_endpoint`'s: Json[int] refuses a string.
    expectError(
      await iago.patch('/realm', setting('giphy_rating', 'r')),
      'giphy_rating is not an integer',
    );
  });

  it('test_jitsi_server_url: a URL of at most 200 characters, "default" for none', async () => {
    for (const bad of ['', 'invalidURL', `https://jitsi.example.com/${'a'.repeat(180)}`])
      expectError(
        await iago.patch('/realm', setting('jitsi_server_url', bad)),
        'jitsi_server_url is not an allowed_type',
      );
    expectError(
      await iago.patch('/realm', setting('jitsi_server_url', 12)),
      'jitsi_server_url is not a string',
    );
    expect((await register()).realm_jitsi_server_url).toBeNull();
    const valid = 'https://jitsi.example.com';
    expect((await patchRealm(setting('jitsi_server_url', valid))).data.jitsi_server_url).toBe(
      'updated',
    );
    expect((await register()).realm_jitsi_server_url).toBe(valid);
    // "default" is written at once (update_realm's own do_set_realm_property call), answered null.
    const { data, events } = await patchRealm(setting('jitsi_server_url', 'default'));
    expect(data.jitsi_server_url).toBeNull();
    expect(events).toEqual([
      { type: 'realm', op: 'update', property: 'jitsi_server_url', value: null },
    ]);
    expect((await register()).realm_jitsi_server_url).toBeNull();
    // Already none: nothing is written or answered.
    const again = await patchRealm(setting('jitsi_server_url', 'default'));
    expect(['jitsi_server_url' in again.data, again.events]).toEqual([false, []]);
  });

  it('test_update_realm_properties (do_test_realm_update_api): video_chat_provider, giphy_rating, jitsi_server_url; test_events.py do_set_realm_property_test', async () => {
    for (const [name, vals] of [
      ['video_chat_provider', [1, 0]],
      ['giphy_rating', [1, 4]],
    ] as const)
      for (const v of [...vals.slice(1), vals[0]]) {
        const { events } = await patchRealm(setting(name, v));
        expect(events).toEqual([{ type: 'realm', op: 'update', property: name, value: v }]);
        expect([name, (await register())[`realm_${name}`]]).toEqual([name, v]);
      }
    expect((await register()).realm_giphy_rating).toBe(1);
    const url = 'https://example.jit.si';
    const { events } = await patchRealm(setting('jitsi_server_url', url));
    expect(events).toEqual([
      { type: 'realm', op: 'update', property: 'jitsi_server_url', value: url },
    ]);
  });

  it('test_update_realm_org_type / test_events.py test_realm_update_org_type', async () => {
    const ids = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];
    expect((await register()).realm_org_type).toBe(0);
    for (const v of [...ids.slice(1), ids[0]]) {
      const res = await iago.patch('/realm', { org_type: String(v) });
      expectSuccess(res);
      expect(res.body.org_type).toBe(v);
      expect((await register()).realm_org_type).toBe(v);
    }
    expectError(await iago.patch('/realm', { org_type: '1' }), 'Invalid org_type');
    // do_change_realm_org_type is called whenever org_type is sent, even with the value the
    // organization has: an event and the value in the answer each time.
    expectSuccess(await iago.patch('/realm', { org_type: '70' }));
    const { data, events } = await patchRealm({ org_type: '70' });
    expect(data.org_type).toBe(70);
    expect(events).toEqual([{ type: 'realm', op: 'update', property: 'org_type', value: 70 }]);
  });
});

describe('test_events.py NormalActionsTest', () => {
  it('test_change_realm_property / test_realm_update_dict events: realm update and update_dict', async () => {
    const { events } = await patchRealm(
      {
        name: 'Renamed',
        ...setting('invite_required', false),
        ...setting('can_create_public_channel_group', { new: w.gid('role:administrators') }),
        ...setting('message_content_edit_limit_seconds', 1200),
      },
      desdemona,
    );
    expect(events).toEqual([
      { type: 'realm', op: 'update', property: 'invite_required', value: false },
      { type: 'realm', op: 'update', property: 'name', value: 'Renamed' },
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { message_content_edit_limit_seconds: 1200 },
      },
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { can_create_public_channel_group: w.gid('role:administrators') },
      },
    ]);
  });

  it('test_change_realm_new_stream_announcements_stream / ..._signup_... / ..._zulip_update_... / test_change_realm_moderation_request_channel: one realm update event with the ID sent', async () => {
    const secret = w.z.org.channels.find((c) => c.name === 'leadership');
    if (!secret?.inviteOnly) throw new Error('no private channel');
    for (const name of [
      'moderation_request_channel_id',
      'new_stream_announcements_stream_id',
      'signup_announcements_stream_id',
      'zulip_update_announcements_stream_id',
    ]) {
      const update = (value: number): Record<string, unknown> => ({
        type: 'realm',
        op: 'update',
        property: name,
        value,
      });
      // update_realm compares the sent ID with the realm's channel only when one is set
      // (`realm.<channel> is None or realm.<channel>.id != <id>`): a channel and then none,
      // none again, and a negative ID other than -1, each reach do_set_realm_stream, whose
      // event and answer carry the ID as sent; the realm keeps no channel (register: -1).
      for (const id of [secret.id, -1, -1, -5]) {
        const { data, events } = await patchRealm(setting(name, id));
        expect([name, events, data[name]]).toEqual([name, [update(id)], id]);
        expect((await register())[`realm_${name}`]).toBe(id < 0 ? -1 : id);
      }
      // The channel the realm has: nothing is written.
      expectSuccess(await iago.patch('/realm', setting(name, secret.id)));
      const { events } = await patchRealm(setting(name, secret.id));
      expect([name, events]).toEqual([name, []]);
    }
  });
});
