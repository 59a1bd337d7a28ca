/**
 * The organization's default user settings: one `update` of `defaultUserSettings`, made of the
 * declared settings that differ from the live ones (an integer choice compared by name). Only
 * declared ones are managed, as with the organization settings. A function of the planner's
 * phases (see `Planner` in `./planner.ts`); it reads no other kind's planning.
 */
import { resourceAddress } from '../../model/address';
import {
  DEFAULT_USER_SETTINGS,
  DEFAULT_USER_SETTING_NAMES,
  DEFAULT_USER_SETTINGS_KEY,
  defaultUserSettingProblem,
  defaultUserSettingValueFeature,
} from '../../model/default-user-settings';
import type { DefaultUserSettingInfo } from '../../model/default-user-settings';
import { ROLES } from '../../model/kinds';
import type { PropertyChange } from '../plan-format';
import type { Planner } from './planner';

export function planDefaultUserSettings(p: Planner): void {
  const d = p.desired.defaultUserSettings[0];
  if (!d) return;
  const key = DEFAULT_USER_SETTINGS_KEY;
  const address = resourceAddress('defaultUserSettings', key);
  const live = p.live.defaultUserSettings;
  const err = (m: string): void => {
    p.errors.push(`${address} (${d.path}): ${m}`);
  };
  if (!live) {
    err(
      'the live state has no default user settings (a snapshot made by an older zulip-cdk); take a new snapshot, or plan against the organization',
    );
    return;
  }
  const props: PropertyChange[] = [];
  for (const name of DEFAULT_USER_SETTING_NAMES) {
    const value = d.properties[name];
    if (value === undefined) continue;
    const info: DefaultUserSettingInfo = DEFAULT_USER_SETTINGS[name];
    const lacking =
      p.lacks(name, info.feature) ??
      p.lacks(`${name} '${String(value)}'`, defaultUserSettingValueFeature(info, value));
    const problem = defaultUserSettingProblem(info, value);
    if (lacking !== undefined || problem !== undefined) {
      err(lacking ?? `${name}: ${problem}`);
      continue;
    }
    const before = p.idx.defaultUserSetting(name);
    if (before === undefined || before === value) continue;
    // Only what is sent is checked against what the server offers, as Zulip checks only the
    // parameters it is given: a live sound or emoji set the server no longer offers, declared
    // as it is (an import), is no change and no error.
    const unavailable = notOffered(info, value, live);
    if (unavailable !== undefined) {
      err(`${name}: ${unavailable}`);
      continue;
    }
    props.push({ property: name, before, after: value });
  }
  if (props.length === 0) return;
  // zerver/views/realm.py: `update_realm_user_settings_defaults` is `require_realm_admin`.
  if (p.live.me.role > ROLES.administrator)
    p.accountError(
      `${address} (${d.path}): changing the default user settings (PATCH /realm/user_settings_defaults) needs an organization administrator ("Must be an organization administrator"), and the applying account ${p.live.me.email} is not one. Apply with an administrator's API key`,
    );
  p.addUpdate({ kind: 'defaultUserSettings', address, key, path: d.path }, 0, props);
}

/**
 * An emoji set or sound the server does not offer (zerver/views/realm.py: `emojiset` is checked
 * against `emojiset_choices`, `notification_sound` against the server's sound files or 'none',
 * `check_settings_values`), in Zulip's words.
 */
function notOffered(
  info: DefaultUserSettingInfo,
  value: unknown,
  live: { readonly emojisets: readonly string[]; readonly notificationSounds: readonly string[] },
): string | undefined {
  const v = String(value);
  if (info.type === 'emojiset' && live.emojisets.length > 0 && !live.emojisets.includes(v))
    return `the server does not offer emoji set '${v}' ("Invalid emojiset: Value error, Not in the list of possible values"): use one of ${live.emojisets.map((e) => `'${e}'`).join(', ')}`;
  if (
    info.type === 'sound' &&
    v !== 'none' &&
    live.notificationSounds.length > 0 &&
    !live.notificationSounds.includes(v)
  )
    return `the server has no notification sound '${v}' ("Invalid notification sound '${v}'"): use one of ${[...live.notificationSounds, 'none'].map((s) => `'${s}'`).join(', ')}`;
  return undefined;
}
