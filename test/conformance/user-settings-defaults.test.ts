/**
 * Conformance: `PATCH /realm/user_settings_defaults` and `realm_user_settings_defaults` in
 * `POST /register`, ported from zerver/tests/test_realm.py (RealmAPITest, the RealmUserDefault
 * tests) and test_events.py (NormalActionsTest.test_change_realm_user_default_setting), Zulip at
 * feature level 442. iago → admin (administrator), desdemona → owner, hamlet → alice. Where
 * Zulip's tests set a value with `do_set_realm_user_default_setting`, the cases set the
 * emulator's state. The parameters and values are written out here from the view's signature
 * and the tests, independently of the model's table.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator, EmulatorOptions } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

const PATH = '/realm/user_settings_defaults';

let z: Emulator;
let iago: TestClient;

async function start(options: EmulatorOptions = {}): Promise<void> {
  z = await startEmulator({ rateLimit: false, ...options });
  iago = clientFor(z, 'admin');
}
afterEach(() => z.close());

/** `realm_user_settings_defaults` of a register that asks for it alone. */
async function defaults(client: TestClient = iago): Promise<Record<string, unknown>> {
  const res = await client.post('/register', {
    fetch_event_types: ['realm_user_settings_defaults'],
    client_capabilities: { notification_settings_null: true },
  });
  expectSuccess(res);
  await client.delete('/events', { queue_id: res.body.queue_id });
  return res.body.realm_user_settings_defaults as Record<string, unknown>;
}

/** The events of `queue` so far, without their IDs. */
async function eventsOf(client: TestClient, queue: string): Promise<Record<string, unknown>[]> {
  const ev = await client.get('/events', { queue_id: queue, last_event_id: -1, dont_block: true });
  expectSuccess(ev);
  return (ev.body.events as Record<string, unknown>[])
    .map(({ id: _id, ...e }) => e)
    .filter((e) => e.type !== 'heartbeat');
}

const BOOLEANS = [
  'automatically_follow_topics_where_mentioned',
  'display_emoji_reaction_users',
  'enable_desktop_notifications',
  'enable_digest_emails',
  'enable_drafts_synchronization',
  'enable_followed_topic_audible_notifications',
  'enable_followed_topic_desktop_notifications',
  'enable_followed_topic_email_notifications',
  'enable_followed_topic_push_notifications',
  'enable_followed_topic_wildcard_mentions_notify',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_sounds',
  'enable_stream_audible_notifications',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'enter_sends',
  'fluid_layout_width',
  'hide_ai_features',
  'high_contrast_mode',
  'left_side_userlist',
  'message_content_in_email_notifications',
  'pm_content_in_desktop_notifications',
  'presence_enabled',
  'receives_typing_notifications',
  'send_private_typing_notifications',
  'send_read_receipts',
  'send_stream_typing_notifications',
  'starred_message_counts',
  'translate_emoticons',
  'twenty_four_hour_time',
  'web_escape_navigates_to_home_view',
  'web_inbox_show_channel_folders',
  'web_left_sidebar_show_channel_folders',
  'web_left_sidebar_unreads_count_summary',
  'web_navigate_to_sent_message',
  'web_suggest_update_timezone',
  'wildcard_mentions_notify',
];

/** `do_test_realm_default_setting_update_api`'s `test_values` (the choices in Zulip's order). */
const TEST_VALUES: Record<string, readonly (string | number | boolean)[]> = {
  ...Object.fromEntries(BOOLEANS.map((n) => [n, [false, true]])),
  web_font_size_px: [14],
  web_line_height_percent: [122],
  color_scheme: [1, 2, 3],
  web_home_view: ['recent_topics', 'inbox', 'all_messages'],
  emojiset: ['google', 'twitter', 'text'],
  demote_inactive_streams: [1, 2, 3],
  web_mark_read_on_scroll_policy: [1, 2, 3],
  web_channel_default_view: [1, 3, 2, 4],
  user_list_style: [1, 2, 3],
  web_animate_image_previews: ['always', 'on_hover', 'never'],
  web_stream_unreads_count_display_policy: [1, 2, 3],
  desktop_icon_count_display: [1, 3, 2, 4],
  notification_sound: ['zulip', 'ding'],
  email_notifications_batching_period_seconds: [120, 300],
  email_address_visibility: [1, 2, 5, 3, 4],
  realm_name_in_email_notifications_policy: [1, 2, 3],
  automatically_follow_topics_policy: [1, 2, 3, 4],
  automatically_unmute_topics_in_muted_streams_policy: [1, 2, 3, 4],
  resolved_topic_notice_auto_read_policy: ['always', 'except_followed', 'never'],
};

/** `RealmUserDefault.property_types` that the endpoint does not take (test_update_default_realm_settings skips them). */
const NOT_PARAMETERS = [
  'default_language',
  'enable_login_emails',
  'enable_marketing_emails',
  'allow_private_data_export',
];

describe('test_realm.py RealmAPITest: the RealmUserDefault tests', () => {
  it('test_update_default_realm_settings: every parameter takes each of its values; register reports it', async () => {
    await start();
    const names = Object.keys(TEST_VALUES);
    expect(names).toHaveLength(59);
    // The settings the register lists are the parameters and the four property types the
    // endpoint leaves out, then the two lists that are not settings.
    const listed = Object.keys(await defaults());
    expect(listed.slice(-2)).toEqual(['emojiset_choices', 'available_notification_sounds']);
    expect(listed.slice(0, -2).sort()).toEqual([...names, ...NOT_PARAMETERS].sort());
    for (const name of names) {
      const vals = TEST_VALUES[name]!;
      // do_set_realm_user_default_setting(realm_user_default, name, vals[0])
      z.org.realm.userSettingsDefaults = { ...z.org.realm.userSettingsDefaults, [name]: vals[0]! };
      for (const val of [...vals.slice(1), vals[0]!]) {
        const res = await iago.patch(PATH, { [name]: val });
        expectSuccess(res);
        expect(res.body.ignored_parameters_unsupported).toBeUndefined();
        expect([name, (await defaults())[name]]).toEqual([name, val]);
      }
    }
  });

  it('test_update_default_realm_settings: the property types the endpoint leaves out are ignored', async () => {
    await start();
    const res = await iago.patch(PATH, {
      default_language: 'de',
      enable_login_emails: false,
      enable_marketing_emails: false,
      allow_private_data_export: true,
    });
    expectSuccess(res);
    // Sorted (zerver/lib/typed_endpoint.py: `sorted(ignored_parameters)`).
    expect(res.body.ignored_parameters_unsupported).toEqual([...NOT_PARAMETERS].sort());
    const d = await defaults();
    expect([
      d.default_language,
      d.enable_login_emails,
      d.enable_marketing_emails,
      d.allow_private_data_export,
    ]).toEqual(['en', true, true, false]);
  });

  it('test_update_default_information_density_settings: any whole number, each on its own or together', async () => {
    await start();
    z.org.realm.userSettingsDefaults = { web_font_size_px: 14, web_line_height_percent: 122 };
    const steps: [Record<string, number>, Record<string, number>][] = [
      [{ web_font_size_px: 16 }, { web_font_size_px: 16 }],
      [{ web_font_size_px: 20 }, { web_font_size_px: 20 }],
      [{ web_line_height_percent: 140 }, { web_line_height_percent: 140 }],
      [{ web_line_height_percent: 130 }, { web_line_height_percent: 130 }],
      [
        { web_font_size_px: 14, web_line_height_percent: 122 },
        { web_font_size_px: 14, web_line_height_percent: 122 },
      ],
    ];
    for (const [params, expected] of steps) {
      expectSuccess(await iago.patch(PATH, params));
      const d = await defaults();
      for (const [k, v] of Object.entries(expected)) expect([k, d[k]]).toEqual([k, v]);
    }
  });

  it('test_invalid_default_notification_sound_value', async () => {
    await start();
    expectError(
      await iago.patch(PATH, { notification_sound: 'invalid' }),
      "Invalid notification sound 'invalid'",
    );
    expectSuccess(await iago.patch(PATH, { notification_sound: 'zulip' }));
    expect((await defaults()).notification_sound).toBe('zulip');
    // check_settings_values: 'none' is always a sound.
    expectSuccess(await iago.patch(PATH, { notification_sound: 'none' }));
    expect((await defaults()).notification_sound).toBe('none');
  });

  it('test_invalid_email_notifications_batching_period_setting', async () => {
    await start();
    expectError(
      await iago.patch(PATH, { email_notifications_batching_period_seconds: -1 }),
      'Invalid email batching period: -1 seconds',
    );
    expectError(
      await iago.patch(PATH, {
        email_notifications_batching_period_seconds: 7 * 24 * 60 * 60 + 10,
      }),
      'Invalid email batching period: 604810 seconds',
    );
    expectError(
      await iago.patch(PATH, { email_notifications_batching_period_seconds: 0 }),
      'Invalid email batching period: 0 seconds',
    );
    expectSuccess(
      await iago.patch(PATH, { email_notifications_batching_period_seconds: 7 * 24 * 60 * 60 }),
    );
  });

  it('test_invalid_emojiset_value', async () => {
    await start();
    expectError(
      await iago.patch(PATH, { emojiset: 'invalid' }),
      'Invalid emojiset: Value error, Not in the list of possible values',
    );
    // Not at FL 442 (zerver/migrations/0753_remove_google_blob_emojiset).
    expectError(
      await iago.patch(PATH, { emojiset: 'google-blob' }),
      'Invalid emojiset: Value error, Not in the list of possible values',
    );
  });

  it('test_invalid_resolved_topic_notice_auto_read_policy', async () => {
    await start();
    expectError(
      await iago.patch(PATH, { resolved_topic_notice_auto_read_policy: 'invalid' }),
      'Invalid resolved_topic_notice_auto_read_policy',
    );
  });

  it('test_ignored_parameters_in_realm_default_endpoint', async () => {
    await start();
    const res = await iago.patch(PATH, { starred_message_counts: false, emoji_set: 'twitter' });
    expectSuccess(res);
    expect(res.body.ignored_parameters_unsupported).toEqual(['emoji_set']);
    expect((await defaults()).starred_message_counts).toBe(false);
  });

  it('check_int_in_validator and Literal: a choice Zulip does not have, by parameter kind', async () => {
    await start();
    expectError(
      await iago.patch(PATH, { color_scheme: 4 }),
      'Invalid color_scheme: Value error, Not in the list of possible values',
    );
    expectError(
      await iago.patch(PATH, { email_address_visibility: 6 }),
      'Invalid email_address_visibility: Value error, Not in the list of possible values',
    );
    expectError(await iago.patch(PATH, { web_home_view: 'default' }), 'Invalid web_home_view');
    expectError(
      await iago.patch(PATH, { web_animate_image_previews: 'sometimes' }),
      'Invalid web_animate_image_previews',
    );
    // Json[...]: the JSON type first.
    expectError(await iago.patch(PATH, { color_scheme: 'dark' }), 'color_scheme is not valid JSON');
    expectError(await iago.patch(PATH, { color_scheme: '"1"' }), 'color_scheme is not an integer');
    expectError(await iago.patch(PATH, { enter_sends: 1 }), 'enter_sends is not a boolean');
    expectError(
      await iago.patch(PATH, { web_font_size_px: 14.5 }),
      'web_font_size_px is not an integer',
    );
  });

  it("typed_endpoint: parameters are checked in the signature's order before anything is written", async () => {
    await start();
    // color_scheme comes before web_home_view; both are wrong: the first is reported.
    expectError(
      await iago.patch(PATH, { web_home_view: 'x', color_scheme: 9 }),
      'Invalid color_scheme: Value error, Not in the list of possible values',
    );
    // A valid setting with an invalid sound: nothing is written (check_settings_values runs
    // before the writes).
    expectError(
      await iago.patch(PATH, { enter_sends: true, notification_sound: 'x' }),
      "Invalid notification sound 'x'",
    );
    // The sound before the batching period.
    expectError(
      await iago.patch(PATH, {
        email_notifications_batching_period_seconds: -5,
        notification_sound: 'x',
      }),
      "Invalid notification sound 'x'",
    );
    expect((await defaults()).enter_sends).toBe(false);
  });

  it('no parameter: a success that changes nothing', async () => {
    await start();
    const before = await defaults();
    const res = await iago.patch(PATH, {});
    expectSuccess(res);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await defaults()).toEqual(before);
  });

  it('require_realm_admin: members, moderators and guests may not; owners may', async () => {
    await start();
    for (const who of ['alice', 'moderator', 'guest'])
      expectError(
        await clientFor(z, who).patch(PATH, { enter_sends: true }),
        'Must be an organization administrator',
        'UNAUTHORIZED_PRINCIPAL',
      );
    // The admin check comes before the parameters.
    expectError(
      await clientFor(z, 'alice').patch(PATH, { color_scheme: 9 }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectSuccess(await clientFor(z, 'owner').patch(PATH, { enter_sends: true }));
    expect((await defaults(clientFor(z, 'alice'))).enter_sends).toBe(true);
  });

  it('PositiveSmallIntegerField: a value the column cannot hold is a server error after the earlier writes', async () => {
    await start();
    // A 500's body has no `code`, which the yaml's error schema requires.
    const res = await iago.call(
      'PATCH',
      PATH,
      { enter_sends: true, web_font_size_px: 40000 },
      { validate: false },
    );
    expect({ status: res.status, body: res.body }).toEqual({
      status: 500,
      body: { result: 'error', msg: 'Internal server error' },
    });
    const d = await defaults();
    expect([d.enter_sends, d.web_font_size_px]).toEqual([true, 16]);
  });
});

describe('test_events.py NormalActionsTest', () => {
  it('test_change_realm_user_default_setting: one update event per changed setting, in order; enums by name', async () => {
    await start();
    const reg = await iago.post('/register', {
      event_types: ['realm_user_settings_defaults'],
      client_capabilities: { notification_settings_null: true },
    });
    expectSuccess(reg);
    expectSuccess(
      await iago.patch(PATH, {
        web_home_view: 'recent_topics',
        color_scheme: 2,
        enter_sends: false, // unchanged: no event
        resolved_topic_notice_auto_read_policy: 'never',
      }),
    );
    const update = (property: string, value: unknown): Record<string, unknown> => ({
      type: 'realm_user_settings_defaults',
      op: 'update',
      property,
      value,
    });
    expect(await eventsOf(iago, reg.body.queue_id as string)).toEqual([
      update('color_scheme', 2),
      update('resolved_topic_notice_auto_read_policy', 'never'),
      update('web_home_view', 'recent_topics'),
    ]);
    // The view compares the stored number with the parsed enum, which always differ: an
    // unchanged resolved_topic_notice_auto_read_policy is written and announced again.
    expectSuccess(
      await iago.patch(PATH, { color_scheme: 2, resolved_topic_notice_auto_read_policy: 'never' }),
    );
    expect(await eventsOf(iago, reg.body.queue_id as string)).toEqual([
      update('color_scheme', 2),
      update('resolved_topic_notice_auto_read_policy', 'never'),
      update('web_home_view', 'recent_topics'),
      update('resolved_topic_notice_auto_read_policy', 'never'),
    ]);
  });

  it("fetch_initial_state_data: the defaults of a new organization, the server's emoji sets and sounds", async () => {
    await start();
    const d = await defaults();
    expect(d).toMatchObject({
      color_scheme: 1,
      web_home_view: 'inbox',
      emojiset: 'google',
      notification_sound: 'zulip',
      email_notifications_batching_period_seconds: 120,
      // get_email_address_visibility_default: admins for an organization of no particular type.
      email_address_visibility: 3,
      web_font_size_px: 16,
      web_line_height_percent: 140,
      resolved_topic_notice_auto_read_policy: 'except_followed',
      default_language: 'en',
    });
    expect(d.emojiset_choices).toEqual([
      { key: 'google', text: 'Google' },
      { key: 'twitter', text: 'Twitter' },
      { key: 'text', text: 'Plain text' },
    ]);
    expect(d.available_notification_sounds).toEqual(['ding', 'zulip']);
  });
});

describe('api_docs/changelog.md: the settings and choices by feature level', () => {
  it.each([
    [372, []],
    [384, []],
    [385, ['resolved_topic_notice_auto_read_policy']],
    [398, ['resolved_topic_notice_auto_read_policy', 'web_left_sidebar_unreads_count_summary']],
    [
      411,
      [
        'resolved_topic_notice_auto_read_policy',
        'web_left_sidebar_show_channel_folders',
        'web_left_sidebar_unreads_count_summary',
      ],
    ],
  ] as const)('at FL %i the newer settings are %j', async (featureLevel, newer) => {
    await start({ featureLevel });
    const NEWER = [
      'resolved_topic_notice_auto_read_policy',
      'web_inbox_show_channel_folders',
      'web_left_sidebar_show_channel_folders',
      'web_left_sidebar_unreads_count_summary',
    ];
    const d = await defaults();
    expect(NEWER.filter((k) => k in d)).toEqual(newer);
    // A setting the server does not have is an unknown parameter.
    const absent = NEWER.filter((k) => !(newer as readonly string[]).includes(k));
    const res = await iago.patch(
      PATH,
      Object.fromEntries(absent.map((k) => [k, k.startsWith('resolved') ? 'never' : false])),
    );
    expectSuccess(res);
    if (absent.length > 0) expect(res.body.ignored_parameters_unsupported).toEqual(absent);
  });

  it("web_channel_default_view: 'topic_list' (3) from FL 383, 'top_unread' (4) from FL 401", async () => {
    const notInList =
      'Invalid web_channel_default_view: Value error, Not in the list of possible values';
    await start({ featureLevel: 382 });
    expectError(await iago.patch(PATH, { web_channel_default_view: 3 }), notInList);
    await z.close();
    await start({ featureLevel: 383 });
    expectSuccess(await iago.patch(PATH, { web_channel_default_view: 3 }));
    expectError(await iago.patch(PATH, { web_channel_default_view: 4 }), notInList);
    await z.close();
    await start({ featureLevel: 401 });
    expectSuccess(await iago.patch(PATH, { web_channel_default_view: 4 }));
  });
});
