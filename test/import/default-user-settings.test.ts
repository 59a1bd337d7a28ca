/**
 * The default user settings through import: an organization whose defaults were changed
 * through `PATCH /realm/user_settings_defaults` is imported (every setting the server has, as
 * it is live, choices by name), synthesized and planned against itself: no change, at Zulip
 * 10.2's feature level, Zulip 11's and the newest.
 */
import { hasChanges, plan } from '../../src/engine';
import { DEFAULT_USER_SETTINGS } from '../../src/model/default-user-settings';
import type { DefaultUserSettingInfo } from '../../src/model/default-user-settings';
import { FEATURE_LEVELS, supports } from '../../src/model/features';
import { generateApp } from '../../src/import';
import { readEmbedded, synthInProcess, writeApp } from './harness';

describe.each([FEATURE_LEVELS.zulip10, FEATURE_LEVELS.zulip11, FEATURE_LEVELS.newest])(
  'at feature level %i',
  (fl) => {
    test('an organization with its own default user settings round-trips with no change', async () => {
      const live = await readEmbedded({
        featureLevel: fl,
        prepare: async (c) => {
          await c.updateRealmUserSettingsDefaults({
            color_scheme: 2,
            web_home_view: 'all_messages',
            enter_sends: true,
            email_notifications_batching_period_seconds: 900,
            notification_sound: 'none',
            ...(supports(fl, 'resolvedTopicNoticeAutoReadPolicy')
              ? { resolved_topic_notice_auto_read_policy: 'always' }
              : {}),
          });
        },
      });
      const app = generateApp(live);
      const code = Object.values(app.files).join('\n');
      expect(code).toContain("new DefaultUserSettings(org, 'user-defaults', {");
      expect(code).toContain("colorScheme: 'dark',");
      expect(code).toContain("webHomeView: 'all_messages',");
      expect(code).toContain('enterSends: true,');
      expect(code).toContain("notificationSound: 'none',");
      expect(code).toContain("emailAddressVisibility: 'admins',");
      expect(app.skipped).toEqual([]);
      const [desired] = synthInProcess(writeApp(app.files));
      const declared = desired!.defaultUserSettings[0]?.properties ?? {};
      // Every setting the server has, and only those.
      const expected = Object.entries(
        DEFAULT_USER_SETTINGS as Record<string, DefaultUserSettingInfo>,
      )
        .filter(([, i]) => i.feature === undefined || supports(fl, i.feature))
        .map(([n]) => n);
      expect(Object.keys(declared).sort()).toEqual(expected.sort());
      expect(declared.emailNotificationsBatchingPeriodSeconds).toBe(900);
      const result = plan(desired!, live);
      expect(result.changes.map((c) => `${c.action} ${c.address}`)).toEqual([]);
      expect(hasChanges(result)).toBe(false);
    });
  },
);

test('a choice zulip-cdk does not know is left out, and said', () => {
  // A later server's fifth color scheme: declared, it would be refused by the construct.
  return readEmbedded({ featureLevel: FEATURE_LEVELS.newest }).then((live) => {
    live.defaultUserSettings!.settings.color_scheme = 5;
    const app = generateApp(live, { include: ['defaultUserSettings'] });
    const code = Object.values(app.files).join('\n');
    expect(code).not.toContain('colorScheme:');
    expect(code).toContain(
      '// - defaultUserSettings "colorScheme": 5 is not a value zulip-cdk knows: left as it is',
    );
    expect(app.skipped).toEqual([
      {
        kind: 'defaultUserSettings',
        name: 'colorScheme',
        reason: '5 is not a value zulip-cdk knows: left as it is',
      },
    ]);
  });
});
