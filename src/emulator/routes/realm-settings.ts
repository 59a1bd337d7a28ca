import { isUrl } from '../../model/custom-profile-fields';
import { LANGUAGE_CODES, REALM_INTEGER_MAX } from '../../model/organization-settings';
import type { OrganizationPropertyInfo } from '../../model/organization-settings';
import type { PermissionSettingInfo } from '../../model/permissions';
import { ApiError, InternalServerError, badRequest, ownerRequired } from '../errors';
import {
  accessSettingValue,
  canonicalSetting,
  settingUpdateShape,
  settingsEqual,
} from '../group-settings';
import type { SettingChangeRequest } from '../group-settings';
import { listeningLevel } from '../events';
import { updateUsersInFullMembersSystemGroup } from '../full-members';
import { expectString } from '../params';
import { isOwner } from '../permissions';
import {
  CHANNEL_SETTING_ORDER,
  ENABLED_VIDEO_CHAT_PROVIDERS,
  GIF_RATING_IDS,
  ORG_TYPE_IDS,
  realmPermissionInfos,
  realmProperty,
  realmPropertyInfos,
  setRealmProperty,
} from '../realm-settings';
import type { RealmWireValue } from '../realm-settings';
import type { RequestContext, Route } from '../router';
import { PLAN_TYPES, realmPlanType } from '../state';
import type { StoredGroupSetting } from '../state';
import { settingToApi } from '../views';
import { accessStreamById, requireAdmin } from './common';

const UPGRADE_TEXT_STANDARD = 'Available on Zulip Cloud Standard. Upgrade to access.';
const UPGRADE_TEXT_PLUS = 'Available on Zulip Cloud Plus. Upgrade to access.';

/** `RequestVariableConversionError`: "Bad value for 'x': v". */
function badValue(name: string, value: unknown): ApiError {
  return badRequest(`Bad value for '${name}': ${String(value)}`);
}

/** The settings `update_realm` lets only owners change, checked before anything is written. */
const OWNER_ONLY = [
  'invite_required',
  'create_multiuse_invite_group',
  'can_create_groups',
  'can_invite_users_group',
  'can_manage_all_groups',
  'can_manage_billing_group',
  'emails_restricted_to_domains',
  'disallow_disposable_email_addresses',
  'waiting_period_threshold',
];

/** The integer parameters `update_realm` types as an `IntEnum` (`Json[DigestWeekdayEnum]`). */
const INT_ENUM_PARAMETERS = ['digest_weekday'];

/** zerver/views/realm.py `JITSI_SERVER_URL_MAX_LENGTH`. */
const JITSI_SERVER_URL_MAX_LENGTH = 200;

/**
 * `jitsi_server_url`: `Json[str]`, then its AfterValidator, zerver/views/realm.py
 * `check_jitsi_url`: "default" (`Realm.JITSI_SERVER_SPECIAL_VALUES_MAP`), or a URL of at most
 * 200 characters (`check_capped_url`, Django's `URLValidator`); anything else is "not an
 * allowed_type".
 */
function parseJitsiServerUrl(ctx: RequestContext): string | undefined {
  const v = ctx.params.json('jitsi_server_url');
  if (v === undefined) return undefined;
  const url = expectString(v, 'jitsi_server_url');
  if (url !== 'default' && ([...url].length > JITSI_SERVER_URL_MAX_LENGTH || !isUrl(url)))
    throw badRequest('jitsi_server_url is not an allowed_type');
  return url;
}

/**
 * One parameter as `typed_endpoint` parses it before the view runs (zerver/views/realm.py
 * `update_realm`'s signature): plain strings with their length limit, enums by name
 * (`parse_enum_from_string_value`: "Invalid x"), JSON booleans and integers (`Json[...]`;
 * `waiting_period_threshold` is `NonNegativeInt`), `Json[int | str]` for the time limits and
 * retention, `Json[int]` for the channels.
 */
function parseProperty(ctx: RequestContext, info: OrganizationPropertyInfo): unknown {
  const p = ctx.params;
  switch (info.type) {
    case 'string':
      return p.string(info.wire, info.maxLength === undefined ? {} : { maxLength: info.maxLength });
    case 'enum': {
      const v = p.string(info.wire);
      if (v !== undefined && !(info.values ?? []).includes(v))
        throw badRequest(`Invalid ${info.wire}`);
      return v;
    }
    case 'boolean':
      return p.bool(info.wire);
    case 'integer': {
      const v = p.int(info.wire);
      if (v === undefined) return v;
      // `Json[DigestWeekdayEnum]` (an IntEnum, 0-6): pydantic's "enum" error for a number that
      // is not a member; `Json[NonNegativeInt]`'s "greater_than_equal" for the others.
      if (INT_ENUM_PARAMETERS.includes(info.wire)) {
        if (v < (info.min ?? v) || v > (info.max ?? v)) throw badRequest(`Invalid ${info.wire}`);
      } else if (info.min !== undefined && v < info.min)
        throw badRequest(`${info.wire} is too small`);
      return v;
    }
    case 'channel':
    case 'choice':
      // `Json[int]`; the view checks the choice (video_chat_provider, giphy_rating).
      return p.int(info.wire);
    case 'url':
      return parseJitsiServerUrl(ctx);
    case 'seconds':
    case 'retention': {
      // `Annotated[Json[int | str] | None, ...]`: a JSON value of neither type (null, 1.0)
      // fails both members of the union, and the first error, the `int` member's, is reported.
      const v = p.json(info.wire);
      if (v !== undefined && typeof v !== 'string' && !Number.isInteger(v))
        throw badRequest(`${info.wire}["int"] is not an integer`);
      return v;
    }
  }
}

/**
 * `PATCH /realm`: zerver/views/realm.py `update_realm` (admins only), with
 * zerver/actions/realm_settings.py `do_set_realm_property`,
 * `do_change_realm_permission_group_setting` and the channel setters. Everything is checked
 * before anything is written (language, owner-only settings, plan limits); then the
 * properties are written in the order `update_realm` walks its `locals()` (its parameters,
 * then the values it parses in its body: `realmPropertyInfos`), the group settings in
 * `REALM_PERMISSION_GROUP_SETTINGS` order (each checked and written on its own, as Zulip does
 * in one transaction each, so an invalid later one leaves earlier ones written), then the
 * channels, then the organization type. Answers with the settings it changed.
 */
export function updateRealm(ctx: RequestContext): Record<string, unknown> {
  requireAdmin(ctx);
  const org = ctx.org;
  const fl = ctx.featureLevel;
  const props = realmPropertyInfos(fl);
  const perms = realmPermissionInfos(fl);
  // Parameters the view does not model are still accepted (not reported as unsupported).
  ctx.params.declare('authentication_methods', 'string_id');
  const raw = new Map<string, unknown>();
  for (const info of props) {
    const v = parseProperty(ctx, info);
    if (v !== undefined) raw.set(info.wire, v);
  }
  // `Json[OrgTypeEnum]`: pydantic's "enum" error for a number that is not a member.
  const orgType = ctx.params.int('org_type');
  if (orgType !== undefined && !ORG_TYPE_IDS.includes(orgType))
    throw badRequest('Invalid org_type');
  const groupRequests = new Map<string, SettingChangeRequest>();
  for (const info of perms) {
    const v = ctx.params.json(info.wire);
    if (v !== undefined) groupRequests.set(info.wire, settingUpdateShape(v, info.wire));
  }
  const owner = isOwner(ctx.user);
  const limited = realmPlanType(org.realm) === PLAN_TYPES.limited;

  const language = raw.get('default_language');
  if (typeof language === 'string' && !(LANGUAGE_CODES as readonly string[]).includes(language))
    throw badRequest(`Invalid language '${language}'`);
  // update_realm: a provider this server has configured (`get_enabled_video_chat_providers`), a
  // rating of `Realm.GIF_RATING_OPTIONS`.
  const provider = raw.get('video_chat_provider');
  if (
    typeof provider === 'number' &&
    !Object.values(ENABLED_VIDEO_CHAT_PROVIDERS).some((p) => p.id === provider)
  )
    throw badRequest(`Invalid video_chat_provider ${provider}`);
  const rating = raw.get('giphy_rating');
  if (typeof rating === 'number' && !GIF_RATING_IDS.includes(rating))
    throw badRequest(`Invalid giphy_rating ${rating}`);
  let retention: number | undefined;
  if (raw.has('message_retention_days')) {
    if (!owner) throw ownerRequired();
    if (limited) throw badRequest(UPGRADE_TEXT_STANDARD);
    retention = parseLimit(raw.get('message_retention_days'), 'message_retention_days', -1);
  }
  if (groupRequests.has('can_create_groups') && limited) throw badRequest(UPGRADE_TEXT_STANDARD);
  if (!owner && OWNER_ONLY.some((w) => raw.has(w) || groupRequests.has(w))) throw ownerRequired();
  if (raw.get('enable_spectator_access') === true && limited)
    throw badRequest(UPGRADE_TEXT_STANDARD);
  if (
    groupRequests.has('can_access_all_users_group') &&
    !([PLAN_TYPES.selfHosted, PLAN_TYPES.plus] as number[]).includes(realmPlanType(org.realm))
  )
    throw badRequest(UPGRADE_TEXT_PLUS);

  const data: Record<string, unknown> = {};
  // None is written at once, when the realm has a value: a time limit's "unlimited"
  // (`parse_and_set_setting_value_if_required`), then the Jitsi server's "default"
  // (`parse_jitsi_server_url`, update_realm's own `do_set_realm_property`); other values go
  // through the property loop below.
  const values = new Map<string, RealmWireValue>();
  for (const info of props) {
    if (!raw.has(info.wire) || info.type === 'channel') continue;
    const v = raw.get(info.wire);
    let value = v as RealmWireValue;
    if (info.type === 'seconds') value = parseLimit(v, info.wire, null);
    else if (info.type === 'retention' && retention !== undefined) value = retention;
    else if (info.wire === 'jitsi_server_url' && v === 'default') value = null;
    if (value !== null) values.set(info.wire, value);
    else if (realmProperty(org, info.wire) !== null) {
      setProperty(ctx, info, null);
      data[info.wire] = null;
    }
  }
  for (const info of props) {
    const v = values.get(info.wire);
    if (v === undefined || v === null || realmProperty(org, info.wire) === v) continue;
    // `do_set_realm_property`'s `realm.save`: an integer column refuses what it cannot hold
    // (PostgreSQL's "integer out of range"), a server error after the writes before it.
    if (typeof v === 'number' && v > REALM_INTEGER_MAX) throw new InternalServerError();
    setProperty(ctx, info, v);
    data[info.wire] =
      typeof v === 'string' && info.type !== 'enum' ? 'updated' : enumValue(info, v);
  }

  for (const info of perms) {
    const req = groupRequests.get(info.wire);
    if (req) changeGroupSetting(ctx, info, req, data);
  }

  for (const wire of CHANNEL_SETTING_ORDER) {
    const id = raw.get(wire);
    if (typeof id !== 'number' || !props.some((i) => i.wire === wire)) continue;
    // update_realm compares the ID with the realm's channel only when it has one
    // (`realm.<channel> is None or realm.<channel>.id != <id>`): none is set again.
    if (id >= 0 && realmProperty(org, wire) === id) continue;
    if (id >= 0) {
      const ch = accessStreamById(ctx, id, { requireContentAccess: false });
      // zerver/actions/realm_settings.py `do_set_realm_moderation_request_channel`: refused
      // after the properties and group settings before it were written (no outer transaction).
      if (wire === 'moderation_request_channel_id' && !ch.inviteOnly)
        throw badRequest('Moderation request channel must be private.');
    }
    // `do_set_realm_stream`: the channel or none (register's -1); the event and the answer
    // carry the ID as sent, any negative one included.
    setRealmProperty(org, wire, id >= 0 ? id : -1);
    ctx.events.push({
      users: 'all',
      event: { type: 'realm', op: 'update', property: wire, value: id },
    });
    data[wire] = id;
  }
  if (orgType !== undefined) {
    // `do_change_realm_org_type`: written and announced whenever it is sent, even unchanged.
    setRealmProperty(org, 'org_type', orgType);
    ctx.events.push({
      users: 'all',
      event: { type: 'realm', op: 'update', property: 'org_type', value: orgType },
    });
    data.org_type = orgType;
  }
  return data;
}

/** `parse_message_time_limit_setting` / `parse_message_retention_days`. */
function parseLimit<U extends number | null>(
  value: unknown,
  name: string,
  unlimited: U,
): number | U {
  if (value === 'unlimited') return unlimited;
  if (typeof value === 'string' || typeof value !== 'number' || value <= 0)
    throw badValue(name, value);
  return value;
}

/** What `json_success` reports for an enum: the enum's database value. */
function enumValue(info: OrganizationPropertyInfo, v: RealmWireValue): RealmWireValue {
  if (info.wire === 'topics_policy') return v === 'allow_empty_topic' ? 2 : 3;
  if (info.wire === 'message_edit_history_visibility_policy')
    return ['all', 'moves', 'none'].indexOf(String(v)) + 1;
  return v;
}

/**
 * `do_set_realm_property`: writes and tells every active user, with Zulip's event shapes; a new
 * `waiting_period_threshold` then recomputes role:fullmembers for every user
 * (`update_users_in_full_members_system_group`, its events after the realm's).
 */
export function setProperty(
  ctx: RequestContext,
  info: OrganizationPropertyInfo,
  v: RealmWireValue,
): void {
  setRealmProperty(ctx.org, info.wire, v);
  let event: Record<string, unknown> = {
    type: 'realm',
    op: 'update',
    property: info.wire,
    value: v,
  };
  if (info.wire === 'allow_message_editing' || info.wire === 'message_content_edit_limit_seconds')
    event = { type: 'realm', op: 'update_dict', property: 'default', data: { [info.wire]: v } };
  if (info.wire === 'topics_policy')
    event = {
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { topics_policy: v, mandatory_topics: v === 'disable_empty_topic' },
    };
  ctx.events.push({ users: 'all', event });
  // do_set_realm_property → update_users_in_full_members_system_group, with its channel events.
  if (info.wire === 'waiting_period_threshold')
    updateUsersInFullMembersSystemGroup(ctx.org, ctx.now, ctx.events, [], listeningLevel(ctx));
}

/**
 * One group setting of `update_realm`: `parse_group_setting_value` (canonical, no lookups),
 * `validate_group_setting_value_change` (`old` must equal the current value: else
 * `EXPECTATION_MISMATCH`; an unchanged value is not checked further), then
 * `access_user_group_for_setting` and `do_change_realm_permission_group_setting`.
 */
function changeGroupSetting(
  ctx: RequestContext,
  info: PermissionSettingInfo,
  req: SettingChangeRequest,
  data: Record<string, unknown>,
): void {
  const org = ctx.org;
  const next = canonicalSetting(org, req.new);
  const stored = org.realm.settings[info.wire];
  if (stored === undefined) return;
  const current = settingToApi(org, stored) ?? stored;
  if (req.old !== undefined && !settingsEqual(canonicalSetting(org, req.old), current))
    throw new ApiError("'old' value does not match the expected value.", {
      code: 'EXPECTATION_MISMATCH',
    });
  if (settingsEqual(current, next)) return;
  accessSettingValue(org, info, next);
  const value: StoredGroupSetting =
    typeof next === 'number'
      ? next
      : {
          direct_members: [...next.direct_members].sort((a, b) => a - b),
          direct_subgroups: [...next.direct_subgroups].sort((a, b) => a - b),
        };
  org.realm.settings[info.wire] = value;
  ctx.events.push({
    users: 'all',
    event: { type: 'realm', op: 'update_dict', property: 'default', data: { [info.wire]: value } },
  });
  data[info.wire] = value;
}

/** The organization's own settings. */
export const realmSettingsRoutes: Route[] = [
  { method: 'PATCH', path: '/realm', handler: updateRealm },
];
