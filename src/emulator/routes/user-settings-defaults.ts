import {
  defaultUserSettingsByWire,
  defaultUserSettingsWire,
} from '../../model/default-user-settings';
import type { DefaultUserSettingInfo } from '../../model/default-user-settings';
import { supports } from '../../model/features';
import { InternalServerError, badRequest } from '../errors';
import type { RequestContext, Route } from '../router';
import type { OrgState } from '../state';
import { requireAdmin } from './common';

/** A default user setting's value in register form. */
type Value = string | number | boolean;

/**
 * `RealmUserDefault.emojiset_choices()` at FL 442 (zerver/models/users.py `EMOJISET_CHOICES`;
 * older servers also offered `google-blob`, which the embedded server does not).
 */
const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];

/**
 * The embedded server's notification sounds (zerver/lib/sounds.py
 * `get_available_notification_sounds` lists the server's sound files, sorted): the two every
 * Zulip has and its tests use.
 */
export const EMULATOR_NOTIFICATION_SOUNDS = ['ding', 'zulip'];

/** `check_settings_values`: one week. */
const MAX_BATCHING_PERIOD_SECONDS = 7 * 24 * 60 * 60;
/** The settings held in a `PositiveSmallIntegerField` that Zulip does not bound itself. */
const SMALL_INTEGER_COLUMNS = new Set(['web_font_size_px', 'web_line_height_percent']);

/**
 * The settings of `RealmUserDefault.property_types` that `PATCH /realm/user_settings_defaults`
 * does not take, with their defaults, in the group (`modern_notification_settings` or
 * `modern_settings`) the register lists them in.
 */
const NOT_SETTABLE = {
  notifications: { enable_login_emails: true, enable_marketing_emails: true },
  other: { allow_private_data_export: false, default_language: 'en' },
} as const;

/** `UserBaseSettings.modern_notification_settings`: listed first in the register. */
const NOTIFICATION_SETTINGS = new Set([
  'automatically_follow_topics_policy',
  'automatically_follow_topics_where_mentioned',
  'automatically_unmute_topics_in_muted_streams_policy',
  'desktop_icon_count_display',
  'email_notifications_batching_period_seconds',
  'enable_desktop_notifications',
  'enable_digest_emails',
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
  'message_content_in_email_notifications',
  'notification_sound',
  'pm_content_in_desktop_notifications',
  'presence_enabled',
  'realm_name_in_email_notifications_policy',
  'wildcard_mentions_notify',
]);

/** The settable settings a server at `featureLevel` has, in the view's signature order. */
function settingsAt(featureLevel: number): DefaultUserSettingInfo[] {
  return defaultUserSettingsByWire().filter(
    (i) => i.feature === undefined || supports(featureLevel, i.feature),
  );
}

/** The organization's default user settings in register form: the stored ones over Zulip's. */
function currentSettings(org: OrgState, featureLevel: number): Record<string, Value> {
  const defaults = defaultUserSettingsWire(featureLevel);
  const stored = org.realm.userSettingsDefaults ?? {};
  for (const wire of Object.keys(defaults))
    if (stored[wire] !== undefined) defaults[wire] = stored[wire];
  return defaults;
}

/**
 * `realm_user_settings_defaults` of `POST /register` (zerver/lib/events.py
 * `fetch_initial_state_data`): every setting of `RealmUserDefault.property_types` in its order
 * (the notification settings, then the others, each group alphabetical), then
 * `emojiset_choices` and `available_notification_sounds`. A setting newer than the server's
 * level is absent.
 */
export function userSettingsDefaultsToApi(
  org: OrgState,
  featureLevel: number,
): Record<string, unknown> {
  const current = currentSettings(org, featureLevel);
  const all: Record<string, Value> = {
    ...current,
    ...NOT_SETTABLE.notifications,
    ...NOT_SETTABLE.other,
  };
  const group = (w: string): number =>
    NOTIFICATION_SETTINGS.has(w) || Object.hasOwn(NOT_SETTABLE.notifications, w) ? 0 : 1;
  const keys = Object.keys(all).sort((a, b) => group(a) - group(b) || (a < b ? -1 : 1));
  return {
    ...Object.fromEntries(keys.map((k) => [k, all[k]])),
    emojiset_choices: EMOJISET_CHOICES.map((c) => ({ ...c })),
    available_notification_sounds: [...EMULATOR_NOTIFICATION_SOUNDS],
  };
}

/** The values an integer or string choice takes at a feature level. */
function choicesAt(info: DefaultUserSettingInfo, featureLevel: number): Value[] {
  return Object.entries(info.values ?? {})
    .filter(([name]) => {
      const f = info.valueFeatures?.[name];
      return f === undefined || supports(featureLevel, f);
    })
    .map(([, v]) => v);
}

/**
 * One parameter as `typed_endpoint` parses it before the view runs (zerver/views/realm.py
 * `update_realm_user_settings_defaults`'s signature): `Json[bool]`, `Json[int]`; the integer
 * choices `Json[int]` with `check_int_in_validator` ("Invalid x: Value error, Not in the list of
 * possible values"); `emojiset` with `check_string_in_validator` (the same words); the
 * `Literal` strings ("Invalid x"); `resolved_topic_notice_auto_read_policy` with
 * `parse_enum_from_string_value` ("Invalid x"); `notification_sound` any string.
 */
function parseSetting(ctx: RequestContext, info: DefaultUserSettingInfo): Value | undefined {
  const p = ctx.params;
  const notInList = (): Error =>
    badRequest(`Invalid ${info.wire}: Value error, Not in the list of possible values`);
  switch (info.type) {
    case 'boolean':
      return p.bool(info.wire);
    case 'integer':
      return p.int(info.wire);
    case 'emojiset': {
      const v = p.string(info.wire);
      if (v !== undefined && !EMOJISET_CHOICES.some((c) => c.key === v)) throw notInList();
      return v;
    }
    case 'sound':
      return p.string(info.wire);
    case 'enum': {
      const choices = choicesAt(info, ctx.featureLevel);
      if (typeof choices[0] === 'number') {
        const v = p.int(info.wire);
        if (v !== undefined && !choices.includes(v)) throw notInList();
        return v;
      }
      const v = p.string(info.wire);
      if (v !== undefined && !choices.includes(v)) throw badRequest(`Invalid ${info.wire}`);
      return v;
    }
  }
}

/**
 * `PATCH /realm/user_settings_defaults`: zerver/views/realm.py
 * `update_realm_user_settings_defaults` (`require_realm_admin`), every parameter parsed first in
 * its signature's order, then `check_settings_values` (the sound, then the batching period),
 * then zerver/actions/realm_settings.py `do_set_realm_user_default_setting` for each setting
 * that differs, in the same order, each written on its own (no transaction) with one
 * `realm_user_settings_defaults` `update` event to every active user. No parameter at all is a
 * success that changes nothing.
 */
function updateUserSettingsDefaults(ctx: RequestContext): Record<string, unknown> {
  requireAdmin(ctx);
  const fl = ctx.featureLevel;
  const values = new Map<string, Value>();
  for (const info of settingsAt(fl)) {
    const v = parseSetting(ctx, info);
    if (v !== undefined) values.set(info.wire, v);
  }
  const sound = values.get('notification_sound');
  if (
    typeof sound === 'string' &&
    !EMULATOR_NOTIFICATION_SOUNDS.includes(sound) &&
    sound !== 'none'
  )
    throw badRequest(`Invalid notification sound '${sound}'`);
  const period = values.get('email_notifications_batching_period_seconds');
  if (typeof period === 'number' && (period <= 0 || period > MAX_BATCHING_PERIOD_SECONDS))
    throw badRequest(`Invalid email batching period: ${period} seconds`);

  const current = currentSettings(ctx.org, fl);
  for (const [wire, v] of values) {
    // The view compares the stored number with the parsed enum member, which always differ:
    // Zulip writes this one, and tells everyone, even when it is unchanged.
    if (current[wire] === v && wire !== 'resolved_topic_notice_auto_read_policy') continue;
    // A PositiveSmallIntegerField refuses what it cannot hold: an IntegrityError, answered as
    // a server error after the settings before it were written.
    if (SMALL_INTEGER_COLUMNS.has(wire) && (typeof v !== 'number' || v < 0 || v > 32767))
      throw new InternalServerError();
    ctx.org.realm.userSettingsDefaults = { ...ctx.org.realm.userSettingsDefaults, [wire]: v };
    ctx.events.push({
      users: 'all',
      event: { type: 'realm_user_settings_defaults', op: 'update', property: wire, value: v },
    });
  }
  return {};
}

/** The organization's default user settings. */
export const userSettingsDefaultsRoutes: Route[] = [
  { method: 'PATCH', path: '/realm/user_settings_defaults', handler: updateUserSettingsDefaults },
];
