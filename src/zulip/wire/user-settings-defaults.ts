import { z } from 'zod';
import { DEFAULT_USER_SETTINGS } from '../../model/default-user-settings';
import type { DefaultUserSettingInfo } from '../../model/default-user-settings';

/** A setting's value as the register sends it: an integer choice as its number. */
function wireSchema(info: DefaultUserSettingInfo): z.ZodType {
  if (info.type === 'boolean') return z.boolean();
  if (info.type === 'integer') return z.number().int();
  if (info.type === 'enum' && Object.values(info.values ?? {}).some((v) => typeof v === 'number'))
    return z.number().int();
  return z.string();
}

/**
 * `realm_user_settings_defaults` of `POST /register` (zerver/lib/events.py
 * `fetch_initial_state_data`, fetched with `realm_user_settings_defaults`): every setting of
 * `RealmUserDefault.property_types` by wire name (`resolved_topic_notice_auto_read_policy` by
 * name, the other choices as numbers), then two lists that are not settings: the emoji sets
 * (`emojiset_choices`, `{key, text}`) and the notification sounds (`available_notification_sounds`)
 * the server offers. A setting the server's level lacks is absent; others pass through.
 */
export const WireUserSettingsDefaultsSchema = z.looseObject({
  ...Object.fromEntries(
    (Object.values(DEFAULT_USER_SETTINGS) as DefaultUserSettingInfo[]).map((i) => [
      i.wire,
      wireSchema(i).optional(),
    ]),
  ),
  emojiset_choices: z.array(z.looseObject({ key: z.string(), text: z.string() })).optional(),
  available_notification_sounds: z.array(z.string()).optional(),
});
/** `realm_user_settings_defaults` of a register response, as parsed. */
export type WireUserSettingsDefaults = z.infer<typeof WireUserSettingsDefaultsSchema>;

/**
 * `PATCH /realm/user_settings_defaults` parameters (zerver/views/realm.py
 * `update_realm_user_settings_defaults`), by wire name: booleans and integers (`Json[...]`,
 * JSON-encoded), the integer choices as their numbers; `emojiset`, `notification_sound`,
 * `web_home_view`, `web_animate_image_previews` and `resolved_topic_notice_auto_read_policy`
 * as plain strings. Only what changes is sent: Zulip writes each changed setting on its own,
 * with one `realm_user_settings_defaults` event each.
 */
export type UpdateUserSettingsDefaultsParams = Readonly<Record<string, string | number | boolean>>;
