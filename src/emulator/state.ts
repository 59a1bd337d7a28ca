import { ORGANIZATION_PERMISSIONS, USER_GROUP_SETTINGS } from '../model/permissions';
import type { PermissionSettingInfo } from '../model/permissions';
import { randomBytes } from 'node:crypto';
import type { SystemGroupName, TopicsPolicy } from '../model/kinds';
import { SYSTEM_GROUP_NAMES } from '../model/kinds';
import type { WireGroupSettingValue } from '../model/live-state';
import { fullMembersGroup, joinsFullMembersOnCreation, storeFullMembers } from './full-members';

/**
 * The emulated organization: plain JSON (so it saves and loads as a file), one realm,
 * realm-unique integer IDs from one counter. Group-setting values are stored in wire form
 * (a group ID or an anonymous `{direct_members, direct_subgroups}`).
 */

export const ORG_STATE_FORMAT_VERSION = 1;

/** A group-setting value as stored: Zulip's wire form. */
export type StoredGroupSetting = WireGroupSettingValue;

export interface StoredUser {
  id: number;
  email: string;
  fullName: string;
  role: number;
  isActive: boolean;
  isBot: boolean;
  /** 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded; null for humans. */
  botType: number | null;
  botOwnerId: number | null;
  apiKey: string;
  /** ISO date. */
  dateJoined: string;
  timezone: string;
  /**
   * Custom profile field values by field ID (zerver/models/custom_profile_fields.py
   * `CustomProfileFieldValue`): the value as stored (a user field's IDs as a JSON list) and,
   * for text fields, its rendering. Absent when the user has none (and in older state files).
   */
  profileData?: Record<string, { value: string; renderedValue?: string }>;
}

export interface StoredGroup {
  id: number;
  name: string;
  description: string;
  isSystemGroup: boolean;
  /**
   * Direct members (user IDs). For system groups they are derived from roles, but for
   * role:fullmembers, whose members are stored as Zulip stores them (see full-members.ts).
   */
  members: number[];
  subgroups: number[];
  deactivated: boolean;
  creatorId: number | null;
  /** UNIX seconds. */
  dateCreated: number | null;
  settings: Record<string, StoredGroupSetting>;
}

export interface StoredChannel {
  id: number;
  name: string;
  description: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  /** null: realm default; -1: unlimited. */
  messageRetentionDays: number | null;
  isArchived: boolean;
  folderId: number | null;
  topicsPolicy: TopicsPolicy;
  creatorId: number | null;
  dateCreated: number;
  settings: Record<string, StoredGroupSetting>;
}

export interface StoredSubscription {
  userId: number;
  channelId: number;
  active: boolean;
  color: string;
  isMuted: boolean;
  pinToTop: boolean;
  desktopNotifications: boolean | null;
  audibleNotifications: boolean | null;
  pushNotifications: boolean | null;
  emailNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
}

/** A new, active subscription with Zulip's defaults: not muted, not pinned, notifications as the user's defaults. */
export function newSubscription(
  userId: number,
  channelId: number,
  color = '#76ce90',
): StoredSubscription {
  return {
    userId,
    channelId,
    active: true,
    color,
    isMuted: false,
    pinToTop: false,
    desktopNotifications: null,
    audibleNotifications: null,
    pushNotifications: null,
    emailNotifications: null,
    wildcardMentionsNotify: null,
  };
}

export interface StoredFolder {
  id: number;
  name: string;
  description: string;
  order: number;
  isArchived: boolean;
  creatorId: number | null;
  dateCreated: number;
}

export interface StoredLinkifier {
  id: number;
  pattern: string;
  urlTemplate: string;
  order: number;
  exampleInput: string | null;
  reverseTemplate: string | null;
  alternativeUrlTemplates: string[];
}

/** A custom profile field (zerver/models/custom_profile_fields.py `CustomProfileField`). */
export interface StoredCustomProfileField {
  id: number;
  name: string;
  /** 1 short text ... 8 pronouns. */
  fieldType: number;
  hint: string;
  /** JSON text for choice and external account fields, `""` for the others. */
  fieldData: string;
  order: number;
  displayInProfileSummary: boolean;
  required: boolean;
  editableByUser: boolean;
}

/** A default channel group (zerver/models/streams.py `DefaultStreamGroup`). */
export interface StoredDefaultChannelGroup {
  id: number;
  name: string;
  description: string;
  channelIds: number[];
}

/**
 * An allowed domain (zerver/models/realms.py `RealmDomain`): stored stripped and lower-cased.
 * Its ID is Zulip's row ID, which only `POST /realm/domains` answers with (`new_domain`).
 */
export interface StoredRealmDomain {
  id: number;
  domain: string;
  allowSubdomains: boolean;
}

export interface StoredPlayground {
  id: number;
  name: string;
  pygmentsLanguage: string;
  urlTemplate: string;
}

export interface StoredSnippet {
  id: number;
  userId: number;
  title: string;
  content: string;
  dateCreated: number;
}

export interface StoredRealm {
  id: number;
  name: string;
  stringId: string;
  description: string;
  dateCreated: number;
  /** null: forever (-1 on the wire). */
  messageRetentionDays: number | null;
  /** Whether the plan allows retention and similar paid features. */
  planAllowsRetention: boolean;
  /**
   * Zulip's `Realm.plan_type` (`PLAN_TYPES`); absent in older state files (then
   * `realmPlanType` derives it from `planAllowsRetention`).
   */
  planType?: number;
  enableSpectatorAccess: boolean;
  webPublicStreamsEnabled: boolean;
  defaultCodeBlockLanguage: string;
  moderationRequestChannelId: number | null;
  topicsPolicy: Exclude<TopicsPolicy, 'inherit'>;
  waitingPeriodThreshold: number;
  /** Realm group settings by wire name without the `realm_` prefix, e.g. `can_create_groups`. */
  settings: Record<string, StoredGroupSetting>;
  /**
   * `send_channel_events_messages` (FL 434): whether Notification Bot posts channel notices.
   * Absent reads as false, Zulip's default for a new organization.
   */
  sendChannelEventsMessages?: boolean;
  /**
   * Where state files of earlier versions kept Notification Bot's ID for channel notices;
   * {@link completeOrgState} moves it to {@link OrgState.notificationBotId}.
   * @deprecated read `OrgState.notificationBotId`
   */
  notificationBotId?: number;
  /**
   * The other organization properties (`ORGANIZATION_PROPERTIES` without a field above, the
   * properties zulip-cdk does not manage, and `org_type`), by wire name in register form
   * (channels by ID or -1, unlimited time limits null); absent ones hold Zulip's default (see
   * `src/emulator/realm-settings.ts`).
   */
  properties?: Record<string, string | number | boolean | null>;
  /**
   * The default user settings changed from Zulip's defaults (`RealmUserDefault`, `PATCH
   * /realm/user_settings_defaults`), by wire name in register form; absent ones hold Zulip's
   * default (see `src/emulator/routes/user-settings-defaults.ts`).
   */
  userSettingsDefaults?: Record<string, string | number | boolean>;
}

/** A custom emoji (`/realm/emoji`); a deactivated one keeps its row, as in Zulip. */
export interface StoredEmoji {
  id: number;
  name: string;
  /** `RealmEmoji.file_name`: `<hash><ext>`, the image's name under `/user_avatars/`. */
  fileName: string;
  contentType: string;
  /** The uploaded bytes, base64 (the emulator serves them as uploaded, without resizing). */
  data: string;
  authorId: number | null;
  deactivated: boolean;
}

/** A draft (`/drafts`), per user. */
export interface StoredDraft {
  id: number;
  userId: number;
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** A user's status (`/users/me/status`). */
export interface StoredUserStatus {
  statusText: string;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
  away: boolean;
}

/** A user's presence (`/users/me/presence`), UNIX seconds. */
export interface StoredPresence {
  activeTimestamp: number;
  idleTimestamp: number;
  lastUpdateId: number;
}

/** A navigation view (FL 390), per user. */
export interface StoredNavigationView {
  userId: number;
  fragment: string;
  isPinned: boolean;
  name: string | null;
}

/** A message, with each recipient's flags and the reactions. */
export interface StoredMessage {
  id: number;
  senderId: number;
  type: 'stream' | 'private';
  /** For channel messages. */
  channelId: number | null;
  topic: string;
  /** For direct messages: every participant, the sender included. */
  recipientIds: number[];
  content: string;
  timestamp: number;
  /** Flags by user ID (Zulip's UserMessage rows). */
  flags: Record<string, string[]>;
  reactions: Array<{ userId: number; emojiName: string; emojiCode: string; reactionType: string }>;
  /** When the content or topic was last edited (seconds), if ever. */
  lastEditTimestamp?: number;
}

/** A scheduled message. */
export interface StoredScheduledMessage {
  id: number;
  senderId: number;
  type: 'stream' | 'private';
  to: number | number[];
  topic: string;
  content: string;
  deliveryTimestamp: number;
  failed: boolean;
}

/** The whole organization. */
export interface OrgState {
  formatVersion: typeof ORG_STATE_FORMAT_VERSION;
  nextId: number;
  realm: StoredRealm;
  users: StoredUser[];
  groups: StoredGroup[];
  channels: StoredChannel[];
  subscriptions: StoredSubscription[];
  defaultChannelIds: number[];
  folders: StoredFolder[];
  linkifiers: StoredLinkifier[];
  playgrounds: StoredPlayground[];
  snippets: StoredSnippet[];
  /** Optional so that older state files still load. */
  defaultChannelGroups?: StoredDefaultChannelGroup[];
  /** Custom profile fields; absent in older state files. */
  customProfileFields?: StoredCustomProfileField[];
  /** Allowed domains, in the order they were added; absent in older state files. */
  realmDomains?: StoredRealmDomain[];
  /** Custom emoji, deactivated ones included; absent in older state files. */
  emoji?: StoredEmoji[];
  /** Peripheral data: optional so that older state files still load. */
  drafts?: StoredDraft[];
  /** By user ID. */
  userStatus?: Record<string, StoredUserStatus>;
  /** By user ID. */
  presence?: Record<string, StoredPresence>;
  presenceLastUpdateId?: number;
  navigationViews?: StoredNavigationView[];
  messages?: StoredMessage[];
  scheduledMessages?: StoredScheduledMessage[];
  /**
   * The ID the Notification Bot sends with (a cross-realm system bot, not one of `users`),
   * allocated when it first sends something.
   */
  notificationBotId?: number;
  /**
   * Whether role:fullmembers keeps its direct members in its `members` (see full-members.ts).
   * Absent in state files saved before it did, whose full members were every member:
   * {@link completeOrgState} fills the group then.
   */
  fullMembersStored?: boolean;
}

/** Zulip's plan types (zerver/models/realms.py `Realm.PLAN_TYPE_*`). */
export const PLAN_TYPES = {
  selfHosted: 1,
  limited: 2,
  standard: 3,
  standardFree: 4,
  plus: 10,
} as const;

/**
 * The realm's plan type as register reports it (`realm_plan_type`): Zulip's default is
 * self-hosted; a realm whose plan does not allow retention is on the limited plan (Zulip Cloud
 * Free), since Zulip refuses retention there (`ensure_not_on_limited_plan`).
 */
export function realmPlanType(realm: StoredRealm): number {
  if (!realm.planAllowsRetention) return PLAN_TYPES.limited;
  return realm.planType ?? PLAN_TYPES.selfHosted;
}

/** Sets the plan type, keeping `planAllowsRetention` in step (false only on the limited plan). */
export function setRealmPlanType(realm: StoredRealm, planType: number): void {
  realm.planType = planType;
  realm.planAllowsRetention = planType !== PLAN_TYPES.limited;
}

/** A random 32-character API key, like Zulip's. */
export function newApiKey(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = randomBytes(32);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length] ?? 'a';
  return out;
}

/** Allocates the next realm-unique ID. */
export function nextId(org: OrgState): number {
  const id = org.nextId;
  org.nextId += 1;
  return id;
}

/** The ID of a system group. */
export function systemGroupId(org: OrgState, name: SystemGroupName): number {
  const g = org.groups.find((x) => x.isSystemGroup && x.name === name);
  if (!g) throw new Error(`system group ${name} missing`);
  return g.id;
}

/**
 * The organization's group settings at creation: each setting's Zulip default from the model
 * (`default_group_name` of `Realm.REALM_PERMISSION_GROUP_SETTINGS`, which
 * zerver/actions/create_realm.py set_default_for_realm_permission_group_settings applies; the
 * education organization types that change five of them are not modelled).
 */
export const REALM_GROUP_SETTING_DEFAULTS: Readonly<Record<string, SystemGroupName>> =
  Object.fromEntries(
    (Object.values(ORGANIZATION_PERMISSIONS) as PermissionSettingInfo[]).flatMap((info) =>
      info.default === 'creator' ? [] : [[info.wire, info.default]],
    ),
  );

/**
 * Gives an organization every optional collection (older state files lack them), so that a
 * read that lists them, such as `POST /register`, changes nothing and a saved state is the same
 * before and after it.
 */
export function completeOrgState(org: OrgState, now: number): OrgState {
  storeFullMembers(org, now);
  org.emoji ??= [];
  org.realmDomains ??= [];
  org.drafts ??= [];
  org.userStatus ??= {};
  org.presence ??= {};
  org.navigationViews ??= [];
  org.messages ??= [];
  org.scheduledMessages ??= [];
  // One Notification Bot: channel notices once allocated their own ID on the realm.
  if (org.realm.notificationBotId !== undefined) {
    org.notificationBotId ??= org.realm.notificationBotId;
    delete org.realm.notificationBotId;
  }
  return org;
}

/** An organization with only its system groups and realm settings: no users yet. */
export function emptyOrg(now: number, name = 'Zulip CDK Emulator'): OrgState {
  const org: OrgState = {
    formatVersion: ORG_STATE_FORMAT_VERSION,
    nextId: 1,
    realm: {
      id: 0,
      name,
      stringId: 'emulator',
      description: '',
      dateCreated: Math.floor(now / 1000),
      messageRetentionDays: null,
      planAllowsRetention: true,
      enableSpectatorAccess: true,
      webPublicStreamsEnabled: true,
      defaultCodeBlockLanguage: '',
      moderationRequestChannelId: null,
      topicsPolicy: 'allow_empty_topic',
      waitingPeriodThreshold: 0,
      settings: {},
    },
    users: [],
    groups: [],
    channels: [],
    subscriptions: [],
    defaultChannelIds: [],
    folders: [],
    linkifiers: [],
    playgrounds: [],
    snippets: [],
    fullMembersStored: true,
  };
  org.realm.id = nextId(org);
  // In Zulip's creation order, so the IDs sort as Zulip's do (zerver/lib/user_groups.py
  // `create_system_user_groups_for_realm`): nobody, owners, ..., everyone, internet.
  for (const n of ZULIP_SYSTEM_GROUP_ORDER) {
    org.groups.push({
      id: nextId(org),
      name: n,
      description: SYSTEM_GROUP_DESCRIPTIONS[n],
      isSystemGroup: true,
      members: [],
      subgroups: [],
      deactivated: false,
      creatorId: null,
      dateCreated: Math.floor(now / 1000),
      settings: {},
    });
  }
  // Nesting as in Zulip: each role group has the next narrower one as its subgroup.
  // SYSTEM_GROUP_NAMES lists them from the widest to the narrowest; role:nobody is outside it.
  const chain = SYSTEM_GROUP_NAMES.filter((n) => n !== 'role:nobody');
  for (let i = 0; i + 1 < chain.length; i++) {
    const g = org.groups.find((x) => x.name === chain[i]);
    if (g) g.subgroups = [systemGroupId(org, chain[i + 1] as SystemGroupName)];
  }
  const nobody = systemGroupId(org, 'role:nobody');
  for (const g of org.groups) {
    for (const s of USER_GROUP_SETTINGS) g.settings[s] = nobody;
  }
  for (const [k, v] of Object.entries(REALM_GROUP_SETTING_DEFAULTS))
    org.realm.settings[k] = systemGroupId(org, v);
  return org;
}

const ZULIP_SYSTEM_GROUP_ORDER: readonly SystemGroupName[] = [
  'role:nobody',
  'role:owners',
  'role:administrators',
  'role:moderators',
  'role:fullmembers',
  'role:members',
  'role:everyone',
  'role:internet',
];

const SYSTEM_GROUP_DESCRIPTIONS: Record<SystemGroupName, string> = {
  'role:internet': 'Everyone on the Internet',
  'role:everyone': 'Everyone including guests',
  'role:members': 'Everyone except guests',
  'role:fullmembers': 'Members of this organization, not including new accounts and guests',
  'role:moderators': 'Moderators of this organization, including administrators',
  'role:administrators': 'Administrators of this organization, including owners',
  'role:owners': 'Owners of this organization',
  'role:nobody': 'Nobody',
};

/**
 * Adds a user (or bot) and returns it: a member who is not provisional joins role:fullmembers,
 * as zerver/actions/create_user.py `do_create_user` adds them (without events: no request).
 */
export function addUser(
  org: OrgState,
  now: number,
  u: {
    email: string;
    fullName: string;
    role: number;
    isBot?: boolean;
    botOwnerId?: number | null;
    isActive?: boolean;
    apiKey?: string;
  },
): StoredUser {
  const user: StoredUser = {
    id: nextId(org),
    email: u.email,
    fullName: u.fullName,
    role: u.role,
    isActive: u.isActive ?? true,
    isBot: u.isBot ?? false,
    botType: u.isBot ? 1 : null,
    botOwnerId: u.botOwnerId ?? null,
    apiKey: u.apiKey ?? newApiKey(),
    dateJoined: new Date(now).toISOString(),
    timezone: '',
  };
  org.users.push(user);
  if (joinsFullMembersOnCreation(org.realm, user, now)) fullMembersGroup(org).members.push(user.id);
  return user;
}

/** Parses a saved state file's content. */
export function parseOrgState(json: unknown): OrgState {
  const o = json as Partial<OrgState> | null;
  if (
    !o ||
    o.formatVersion !== ORG_STATE_FORMAT_VERSION ||
    !Array.isArray(o.users) ||
    !Array.isArray(o.groups)
  )
    throw new Error('not an emulator state file (formatVersion 1)');
  return o as OrgState;
}
