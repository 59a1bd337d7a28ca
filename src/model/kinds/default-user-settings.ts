import { z } from 'zod';
import { DEFAULT_USER_SETTING_NAMES } from '../default-user-settings';
import type { DefaultUserSettingName } from '../default-user-settings';
import type { KindSpec } from './spec';
import { exactKey } from './spec';

const settingValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * The organization's default user settings (one entry at most). Only what is present is
 * managed: a setting left out is left as it is live, as with the organization settings. Enums
 * by name (`colorScheme: 'dark'`); the shapes of the values are checked per setting
 * (`defaultUserSettingProblem`) by the construct and again by the planner.
 */
export const DefaultUserSettingsSchema = z.strictObject({
  path: z.string(),
  properties: z.strictObject(
    Object.fromEntries(
      DEFAULT_USER_SETTING_NAMES.map((n) => [n, settingValue.optional()]),
    ) as Record<DefaultUserSettingName, z.ZodOptional<typeof settingValue>>,
  ),
});
export type DesiredDefaultUserSettings = z.infer<typeof DefaultUserSettingsSchema>;

/**
 * The default user settings as `POST /register` reports them (`realm_user_settings_defaults`):
 * `settings` by wire name as sent (integer choices as numbers) for the settings of
 * `DEFAULT_USER_SETTINGS` the server has; the emoji sets and notification sounds the server
 * offers (`emojiset_choices` keys, `available_notification_sounds`), which are not settings.
 */
export const LiveDefaultUserSettingsSchema = z.strictObject({
  settings: z.record(z.string(), settingValue),
  emojisets: z.array(z.string()),
  notificationSounds: z.array(z.string()),
});
export type LiveDefaultUserSettings = z.infer<typeof LiveDefaultUserSettingsSchema>;

/**
 * The settings a new user of the organization starts with (one per organization, keyed
 * `organization`): written with `PATCH /realm/user_settings_defaults`, never created or
 * removed. Only what the configuration declares is managed.
 */
export const defaultUserSettings = {
  collection: 'defaultUserSettings',
  construct: 'DefaultUserSettings',
  title: 'Default user settings',
  nouns: ['default user settings', 'default user settings'],
  listOrder: 8,
  rank: 3,
  compareKey: exactKey,
  removal: 'none',
  ordered: false,
  ignorable: [],
  actions: ['update'],
  // zerver/actions/realm_settings.py do_set_realm_user_default_setting.
  events: ['realm_user_settings_defaults'],
  /** At most one: the organization's default user settings (absent in older files). */
  desiredSchema: z.array(DefaultUserSettingsSchema).max(1).default([]),
  /** The default user settings; null in snapshots made before they were read. */
  liveSchema: LiveDefaultUserSettingsSchema.nullable().default(null),
} as const satisfies KindSpec;
