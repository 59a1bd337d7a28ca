import type { GroupSettingUpdate } from './common';

/**
 * `PATCH /realm` parameters (zerver/views/realm.py `update_realm`), by wire name: strings for
 * `name`, `description`, `default_language`, `default_code_block_language`,
 * `welcome_message_custom_text`, `topics_policy` and `message_edit_history_visibility_policy`
 * (plain strings upstream); booleans and integers (JSON); `message_retention_days` and the four
 * time limits as a number or `'unlimited'` (`Json[int | str]`, so the keyword travels
 * JSON-quoted); the channel settings as a channel ID or -1 for none; every organization group
 * setting as `{new, old?}`. Only what changes is sent: Zulip writes the properties, then the
 * group settings (one transaction each), then the channel settings.
 */
export type UpdateRealmParams = Readonly<
  Record<string, string | number | boolean | GroupSettingUpdate>
>;

/** `PATCH /realm`'s answer: the settings it changed, by wire name (`"updated"` for strings). */
export type { Success as UpdateRealmResponse } from './common';
