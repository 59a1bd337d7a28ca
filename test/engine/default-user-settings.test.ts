/**
 * Default user settings: synth validation on construct paths, and the planner (only declared
 * settings, choices by name, feature levels, the server's emoji sets and sounds, the
 * administrator the request needs, what the plan says before apply).
 */
import { App, DefaultUserSettings, Organization, Testing } from 'zulip-cdk';
import { plan, renderMarkdown, renderText } from '../../src/engine';
import { FEATURE_LEVELS } from '../../src/model/features';
import { ROLES } from '../../src/model/kinds';
import type { DesiredDefaultUserSettings } from '../../src/model/desired-state';
import type { LiveState } from '../../src/model/live-state';
import { thrownError } from '../support/errors';
import { LiveBuilder, desired } from './fixtures';

function org(): Organization {
  return new Organization(new App({ outdir: '/tmp/unused' }), 'acme');
}

describe('DefaultUserSettings: synth validation with construct paths', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      'a choice Zulip does not have',
      { colorScheme: 'sepia' },
      /colorScheme: expected one of 'automatic', 'dark', 'light'/,
    ],
    [
      "Zulip's number for a choice instead of its name",
      { webChannelDefaultView: 2 },
      /webChannelDefaultView: expected one of 'first_topic', 'channel_feed', 'topic_list', 'top_unread'/,
    ],
    ['a string for a boolean', { enterSends: 'yes' }, /enterSends: expected true or false/],
    [
      'a batching period over a week',
      { emailNotificationsBatchingPeriodSeconds: 604801 },
      /emailNotificationsBatchingPeriodSeconds: must be at most 604800/,
    ],
    [
      'a batching period of zero',
      { emailNotificationsBatchingPeriodSeconds: 0 },
      /emailNotificationsBatchingPeriodSeconds: must be at least 1/,
    ],
    ['a fractional font size', { webFontSizePx: 14.5 }, /webFontSizePx: expected a whole number/],
    [
      'an emoji set Zulip never had',
      { emojiset: 'apple' },
      /emojiset: expected one of 'google', 'twitter', 'text', 'google-blob'/,
    ],
    [
      'an empty notification sound',
      { notificationSound: '' },
      /notificationSound: expected the name of a notification sound, or 'none'/,
    ],
    ['a misspelt setting', { colourScheme: 'dark' }, /colourScheme/],
  ];
  test.each(cases)('%s', (_rule, props, message) => {
    const o = org();
    new DefaultUserSettings(o, 'defaults', props);
    expect(Testing.validate(o)).toContainEqual({
      path: 'acme/defaults',
      message: expect.stringMatching(message),
    });
    const err = thrownError(() => Testing.synth(o), 'VALIDATION_FAILED');
    expect(err.message).toMatch(
      /^acme\/defaults \(test\/engine\/default-user-settings\.test\.ts:\d+:\d+\): /m,
    );
  });

  test('two DefaultUserSettings in one organization', () => {
    const o = org();
    new DefaultUserSettings(o, 'a', { enterSends: true });
    new DefaultUserSettings(o, 'defaults', { twentyFourHourTime: true });
    expect(Testing.validate(o)).toContainEqual({
      path: 'acme/defaults',
      message: expect.stringContaining(
        'the default user settings is already declared by acme/a (an organization has one DefaultUserSettings: merge them)',
      ),
    });
  });

  test('a valid declaration synthesizes only what it declares, choices by name', () => {
    const o = org();
    new DefaultUserSettings(o, 'defaults', {
      colorScheme: 'dark',
      webHomeView: 'recent_topics',
      enterSends: false,
      emailNotificationsBatchingPeriodSeconds: 300,
      notificationSound: 'none',
    });
    expect(Testing.validate(o)).toEqual([]);
    expect(Testing.synth(o).defaultUserSettings).toEqual([
      {
        path: 'acme/defaults',
        properties: {
          colorScheme: 'dark',
          webHomeView: 'recent_topics',
          enterSends: false,
          emailNotificationsBatchingPeriodSeconds: 300,
          notificationSound: 'none',
        },
      },
    ]);
  });
});

function live(
  fl: number = FEATURE_LEVELS.newest,
  wire: Record<string, string | number | boolean> = {},
): LiveState {
  return new LiveBuilder(fl).defaultUserSettings(wire).build();
}

function withDefaults(properties: DesiredDefaultUserSettings['properties']) {
  return desired((d) => {
    d.defaultUserSettings.push({ path: 'acme/defaults', properties });
  });
}

const AT = 'defaultUserSettings["organization"] (acme/defaults)';

describe('planning the default user settings', () => {
  test('only declared settings that differ change; choices compare and show by name', () => {
    const p = plan(
      withDefaults({
        colorScheme: 'dark',
        webHomeView: 'inbox', // as it is
        emailAddressVisibility: 'moderators',
        enterSends: true,
        webChannelDefaultView: 'channel_feed',
      }),
      live(FEATURE_LEVELS.newest, { web_channel_default_view: 2 }),
    );
    const changes = p.changes.filter((c) => c.kind === 'defaultUserSettings');
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      action: 'update',
      address: 'defaultUserSettings["organization"]',
      key: 'organization',
      path: 'acme/defaults',
      liveId: 0,
      properties: [
        { property: 'colorScheme', before: 'automatic', after: 'dark' },
        { property: 'emailAddressVisibility', before: 'admins', after: 'moderators' },
        { property: 'enterSends', before: false, after: true },
      ],
    });
    expect(renderText(p)).toContain(
      [
        '  ~ defaultUserSettings["organization"] will be updated in place  (acme/defaults)',
        '      ~ colorScheme: "automatic" -> "dark"',
        '      ~ emailAddressVisibility: "admins" -> "moderators"',
        '      ~ enterSends: false -> true',
      ].join('\n'),
    );
    const md = renderMarkdown(p);
    expect(md).toContain('<b>Default user settings</b>: 1 updated in place');
    expect(md).toContain('!     colorScheme: "automatic" -> "dark"');
  });

  test('nothing declared, or everything as it is: no change', () => {
    expect(plan(withDefaults({}), live()).changes).toEqual([]);
    expect(
      plan(withDefaults({ emojiset: 'google', notificationSound: 'zulip' }), live()).changes,
    ).toEqual([]);
    // No DefaultUserSettings at all: the live settings are not looked at.
    expect(
      plan(
        desired(() => {}),
        live(FEATURE_LEVELS.newest, { color_scheme: 2 }),
      ).changes,
    ).toEqual([]);
  });

  test("an emoji set or a sound the server does not offer is a plan error in Zulip's words", () => {
    const err = thrownError(
      () => plan(withDefaults({ emojiset: 'google-blob', notificationSound: 'chime' }), live()),
      'UNRESOLVED_REFERENCE',
    );
    expect(err.message).toContain(
      `${AT}: emojiset: the server does not offer emoji set 'google-blob' ("Invalid emojiset: Value error, Not in the list of possible values"): use one of 'google', 'twitter', 'text'`,
    );
    expect(err.message).toContain(
      `${AT}: notificationSound: the server has no notification sound 'chime' ("Invalid notification sound 'chime'"): use one of 'ding', 'zulip', 'none'`,
    );
  });

  test('a live sound or emoji set the server no longer offers, declared as it is: no change and no error (nothing is sent)', () => {
    // An organization imported with the sound and emoji set it stores, which this server's
    // sound files and emoji sets no longer include (zerver/views/realm.py checks only what it
    // is sent: check_settings_values, check_string_in_validator).
    const l = live(FEATURE_LEVELS.newest, { notification_sound: 'chime', emojiset: 'google-blob' });
    const p = plan(withDefaults({ notificationSound: 'chime', emojiset: 'google-blob' }), l);
    expect(p.changes).toEqual([]);
    // Changing another setting beside them sends only that one.
    expect(
      plan(withDefaults({ notificationSound: 'chime', enterSends: true }), l).changes[0],
    ).toMatchObject({ properties: [{ property: 'enterSends', before: false, after: true }] });
  });

  test('a value the construct would refuse is refused by the planner too (a desired state written by hand)', () => {
    const err = thrownError(
      () => plan(withDefaults({ colorScheme: 3, webFontSizePx: -1 }), live()),
      'UNRESOLVED_REFERENCE',
    );
    expect(err.message).toContain(
      `${AT}: colorScheme: expected one of 'automatic', 'dark', 'light'`,
    );
    expect(err.message).toContain(`${AT}: webFontSizePx: must be at least 0`);
  });

  test('settings and choices newer than the server are named, with the other features it lacks', () => {
    const err = thrownError(
      () =>
        plan(
          withDefaults({
            resolvedTopicNoticeAutoReadPolicy: 'never',
            webInboxShowChannelFolders: false,
            webChannelDefaultView: 'top_unread',
            colorScheme: 'dark',
          }),
          live(FEATURE_LEVELS.zulip10),
        ),
      'UNSUPPORTED_FEATURE',
    );
    expect(err.message).toContain(
      `${AT}: resolvedTopicNoticeAutoReadPolicy needs Zulip feature level 385`,
    );
    expect(err.message).toContain(
      `${AT}: webInboxShowChannelFolders needs Zulip feature level 431`,
    );
    expect(err.message).toContain(
      `${AT}: webChannelDefaultView 'top_unread' needs Zulip feature level 401`,
    );
    expect(err.message).not.toContain('colorScheme');
  });

  test("'topic_list' is planned from FL 383; at 382 the planner refuses it", () => {
    expect(
      plan(withDefaults({ webChannelDefaultView: 'topic_list' }), live(383)).changes[0],
    ).toMatchObject({
      properties: [
        { property: 'webChannelDefaultView', before: 'first_topic', after: 'topic_list' },
      ],
    });
    const err = thrownError(
      () => plan(withDefaults({ webChannelDefaultView: 'topic_list' }), live(382)),
      'UNSUPPORTED_FEATURE',
    );
    expect(err.message).toContain(
      `webChannelDefaultView 'topic_list' needs Zulip feature level 383`,
    );
  });

  test('a non-administrator is a plan error (require_realm_admin), not a failure half-way through apply', () => {
    const l = live();
    l.me = { userId: 5, email: 'carol@example.com', role: ROLES.moderator };
    // The account's rights, not a missing name (before: UNRESOLVED_REFERENCE).
    const err = thrownError(
      () => plan(withDefaults({ enterSends: true }), l),
      'ACCOUNT_NOT_ALLOWED',
    );
    expect(err.message).toContain(
      `${AT}: changing the default user settings (PATCH /realm/user_settings_defaults) needs an organization administrator ("Must be an organization administrator"), and the applying account carol@example.com is not one. Apply with an administrator's API key`,
    );
    expect(err.hint).toContain("a human organization administrator's");
    // Nothing to change: nothing to refuse.
    expect(plan(withDefaults({ enterSends: false }), l).changes).toEqual([]);
    // An administrator may.
    l.me = { userId: 2, email: 'admin@example.com', role: ROLES.administrator };
    expect(plan(withDefaults({ enterSends: true }), l).changes).toHaveLength(1);
  });

  test('a live state without the default user settings (an older snapshot) is a plan error', () => {
    const l = new LiveBuilder().build();
    const err = thrownError(
      () => plan(withDefaults({ enterSends: true }), l),
      'UNRESOLVED_REFERENCE',
    );
    expect(err.message).toContain(
      `${AT}: the live state has no default user settings (a snapshot made by an older zulip-cdk); take a new snapshot, or plan against the organization`,
    );
  });

  test('a choice newer than zulip-cdk shows as its number, and is changed by name', () => {
    const p = plan(
      withDefaults({ colorScheme: 'light' }),
      live(FEATURE_LEVELS.newest, { color_scheme: 9 }),
    );
    expect(p.changes[0]).toMatchObject({
      properties: [{ property: 'colorScheme', before: 9, after: 'light' }],
    });
  });
});
