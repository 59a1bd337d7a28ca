import { supports } from '../model/features';
import {
  GIF_RATINGS,
  ORGANIZATION_PROPERTIES,
  VIDEO_CHAT_PROVIDERS,
} from '../model/organization-settings';
import type { OrganizationPropertyInfo } from '../model/organization-settings';
import { organizationPermissionByWire, REALM_PERMISSION_ZULIP_ORDER } from '../model/permissions';
import type { PermissionSettingInfo } from '../model/permissions';
import type { RequestContext } from './router';
import type { OrgState } from './state';

/** A property's value in register form: channels by ID or -1, unlimited time limits null. */
export type RealmWireValue = string | number | boolean | null;

/** Zulip's default of a property, in register form. */
export function defaultWireValue(info: OrganizationPropertyInfo): RealmWireValue {
  const d = info.default;
  if (info.type === 'channel') return -1;
  if (info.type === 'retention') return d === 'unlimited' ? -1 : d;
  if (info.type === 'seconds') return d === 'unlimited' ? null : d;
  if (info.type === 'choice' && typeof d === 'string') return info.choices?.[d] ?? null;
  return d;
}

/**
 * The organization properties the server has at a feature level (the register fields and the
 * `PATCH /realm` parameters it knows), in the order `update_realm` writes them: it walks its
 * `locals()`, so the plain parameters come in signature order (alphabetical), then the values
 * it parses in its body (retention, the four time limits, then the Jitsi server).
 */
export function realmPropertyInfos(featureLevel: number): OrganizationPropertyInfo[] {
  const late = (w: string): number => {
    const i = LATE_LOCALS.indexOf(w);
    return i < 0 ? -1 : i;
  };
  return PROPERTIES.filter(
    (i) => i.feature === undefined || supports(featureLevel, i.feature),
  ).sort((a, b) => late(a.wire) - late(b.wire) || (a.wire < b.wire ? -1 : a.wire > b.wire ? 1 : 0));
}

/** The properties `update_realm` assigns in its body, in the order it first names them. */
const LATE_LOCALS = [
  'message_retention_days',
  'message_content_delete_limit_seconds',
  'message_content_edit_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
  'jitsi_server_url',
];

/** Every property the server keeps (`Realm.property_types`, as zulip-cdk names them). */
const PROPERTIES: readonly OrganizationPropertyInfo[] = Object.values(ORGANIZATION_PROPERTIES);

/**
 * `Realm.get_enabled_video_chat_providers` on this server: Zoom and BigBlueButton need server
 * settings (`VIDEO_ZOOM_*`, `BIG_BLUE_BUTTON_*`) it does not have, so None and Jitsi Meet.
 */
export const ENABLED_VIDEO_CHAT_PROVIDERS = {
  disabled: { name: 'None', id: VIDEO_CHAT_PROVIDERS.disabled },
  jitsi_meet: { name: 'Jitsi Meet', id: VIDEO_CHAT_PROVIDERS.jitsi_meet },
} as const;

/** The IDs of `Realm.GIF_RATING_OPTIONS` (disabled, g, pg, pg-13, r). */
export const GIF_RATING_IDS: readonly number[] = Object.values(GIF_RATINGS);

/** zerver/models/realms.py `OrgTypeEnum`, the IDs of `Realm.ORG_TYPES`. */
export const ORG_TYPE_IDS: readonly number[] = [
  0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000,
];

/** `Realm.org_type` (not a property type: `do_change_realm_org_type`); 0, unspecified, if unset. */
export function realmOrgType(org: OrgState): number {
  const v = org.realm.properties?.org_type;
  return typeof v === 'number' ? v : 0;
}

/**
 * The organization group settings the server has at a feature level, in
 * `Realm.REALM_PERMISSION_GROUP_SETTINGS` order (`update_realm` writes them in that order).
 */
export function realmPermissionInfos(featureLevel: number): PermissionSettingInfo[] {
  return REALM_PERMISSION_ZULIP_ORDER.map((w) => organizationPermissionByWire(w)).filter(
    (i): i is PermissionSettingInfo =>
      i !== undefined && (i.feature === undefined || supports(featureLevel, i.feature)),
  );
}

type Realm = OrgState['realm'];

/**
 * The properties stored as fields of the realm (the others are in `properties`): read and
 * written in register form (-1 for no channel or unlimited retention).
 */
const REALM_FIELDS: Record<
  string,
  { get: (r: Realm) => RealmWireValue; set: (r: Realm, v: RealmWireValue) => void }
> = {
  name: { get: (r) => r.name, set: (r, v) => (r.name = String(v)) },
  description: { get: (r) => r.description, set: (r, v) => (r.description = String(v)) },
  message_retention_days: {
    get: (r) => r.messageRetentionDays ?? -1,
    set: (r, v) => (r.messageRetentionDays = v === -1 ? null : (v as number)),
  },
  enable_spectator_access: {
    get: (r) => r.enableSpectatorAccess,
    set: (r, v) => (r.enableSpectatorAccess = v === true),
  },
  default_code_block_language: {
    get: (r) => r.defaultCodeBlockLanguage,
    set: (r, v) => (r.defaultCodeBlockLanguage = String(v)),
  },
  moderation_request_channel_id: {
    get: (r) => r.moderationRequestChannelId ?? -1,
    set: (r, v) => (r.moderationRequestChannelId = v === -1 ? null : (v as number)),
  },
  waiting_period_threshold: {
    get: (r) => r.waitingPeriodThreshold,
    set: (r, v) => (r.waitingPeriodThreshold = v as number),
  },
  topics_policy: {
    get: (r) => r.topicsPolicy,
    set: (r, v) => (r.topicsPolicy = v as Realm['topicsPolicy']),
  },
  send_channel_events_messages: {
    get: (r) => r.sendChannelEventsMessages === true,
    set: (r, v) => (r.sendChannelEventsMessages = v === true),
  },
};

function realmField(wire: string): (typeof REALM_FIELDS)[string] | undefined {
  return Object.hasOwn(REALM_FIELDS, wire) ? REALM_FIELDS[wire] : undefined;
}

/** A property's current value in register form. */
export function realmProperty(org: OrgState, wire: string): RealmWireValue {
  const r = org.realm;
  const field = realmField(wire);
  if (field) return field.get(r);
  const stored = r.properties?.[wire];
  if (stored !== undefined) return stored;
  const info = PROPERTIES.find((i) => i.wire === wire);
  return info ? defaultWireValue(info) : null;
}

/** Sets a property from its register form. */
export function setRealmProperty(org: OrgState, wire: string, value: RealmWireValue): void {
  const r = org.realm;
  const field = realmField(wire);
  if (field) field.set(r, value);
  else r.properties = { ...r.properties, [wire]: value };
}

/**
 * When a channel is archived, Zulip unsets the organization settings that name it and tells
 * every active user (zerver/actions/streams.py `maybe_set_moderation_or_announcement_channels_none`:
 * the moderation request and announcement channels become -1, one `update_dict` event).
 */
export function maybeSetChannelSettingsNone(ctx: RequestContext, channelId: number): void {
  const data: Record<string, number> = {};
  for (const wire of CHANNEL_SETTING_ORDER)
    if (realmProperty(ctx.org, wire) === channelId) {
      setRealmProperty(ctx.org, wire, -1);
      data[wire] = -1;
    }
  if (Object.keys(data).length > 0)
    ctx.events.push({
      users: 'all',
      event: { type: 'realm', op: 'update_dict', property: 'default', data },
    });
}

/** The channel-valued settings in the order `update_realm` and Zulip's helpers go through them. */
export const CHANNEL_SETTING_ORDER = [
  'moderation_request_channel_id',
  'new_stream_announcements_stream_id',
  'signup_announcements_stream_id',
  'zulip_update_announcements_stream_id',
] as const;
