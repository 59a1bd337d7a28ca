/**
 * Facts about Zulip's vocabulary that every layer shares. No I/O, no dependencies. The resource
 * kinds and their facts are in the registry beside it (`./index.ts`).
 */

/** Zulip user roles by name, with their wire values. */
export const ROLES = {
  owner: 100,
  administrator: 200,
  moderator: 300,
  member: 400,
  guest: 600,
} as const;
export type RoleName = keyof typeof ROLES;
export const ROLE_NAMES = Object.keys(ROLES) as RoleName[];
/** The name of a role's wire value, or undefined for an unknown one. */
export const roleName = nameByWireValue(ROLES);

/**
 * The lookup of a name by its wire value in a table of wire values by name ({@link ROLES}): it
 * gives undefined for a value the table lacks (a newer server's).
 */
export function nameByWireValue<N extends string>(
  table: Readonly<Record<N, number>>,
): (value: number) => N | undefined {
  const names = Object.keys(table) as N[];
  return (value) => names.find((n) => table[n] === value);
}

/** Zulip's system groups, from the widest to the narrowest. */
export const SYSTEM_GROUP_NAMES = [
  'role:internet',
  'role:everyone',
  'role:members',
  'role:fullmembers',
  'role:moderators',
  'role:administrators',
  'role:owners',
  'role:nobody',
] as const;
export type SystemGroupName = (typeof SYSTEM_GROUP_NAMES)[number];

export function isSystemGroupName(name: string): name is SystemGroupName {
  return (SYSTEM_GROUP_NAMES as readonly string[]).includes(name);
}

/** A channel's `topics_policy` (FL 392; `empty_topic_only` FL 404). */
export const TOPICS_POLICIES = [
  'inherit',
  'allow_empty_topic',
  'disable_empty_topic',
  'empty_topic_only',
] as const;
export type TopicsPolicy = (typeof TOPICS_POLICIES)[number];

/** Membership semantics of a managed collection. */
export const MEMBERSHIP_MODES = ['exact', 'atLeast'] as const;
export type MembershipMode = (typeof MEMBERSHIP_MODES)[number];

/** Per-user subscription properties that the API lets the applying account set for itself. */
export const SUBSCRIPTION_PROPERTIES = {
  color: 'color',
  isMuted: 'is_muted',
  pinToTop: 'pin_to_top',
  desktopNotifications: 'desktop_notifications',
  audibleNotifications: 'audible_notifications',
  pushNotifications: 'push_notifications',
  emailNotifications: 'email_notifications',
  wildcardMentionsNotify: 'wildcard_mentions_notify',
} as const;
export type SubscriptionPropertyName = keyof typeof SUBSCRIPTION_PROPERTIES;

/**
 * Every property `POST /users/me/subscriptions/properties` takes: the ones above and
 * `in_home_view`, the inverse of `is_muted` that Zulip still accepts (zerver/views/streams.py
 * `SubscriptionPropertyChangeRequest`; NOTES 2.5).
 */
export type SubscriptionPropertyWireName =
  (typeof SUBSCRIPTION_PROPERTIES)[SubscriptionPropertyName] | 'in_home_view';
/** The names of {@link SubscriptionPropertyWireName}, the model's first. */
export const SUBSCRIPTION_PROPERTY_WIRE_NAMES: readonly SubscriptionPropertyWireName[] = [
  ...Object.values(SUBSCRIPTION_PROPERTIES),
  'in_home_view',
];

/** Limits Zulip enforces (NOTES 7.1). The server's register response wins where it reports one. */
export const LIMITS = {
  channelName: 60,
  channelDescription: 1024,
  userGroupName: 100,
  channelFolderName: 60,
  channelFolderDescription: 1024,
  savedSnippetTitle: 60,
  savedSnippetContent: 10000,
  playgroundLanguage: 40,
  userFullName: 100,
  /** zerver/models/constants.py MAX_TOPIC_NAME_LENGTH. */
  topicName: 60,
  /**
   * settings.MAX_BULK_NEW_SUBSCRIPTION_MESSAGES: above this many newly subscribed users,
   * Notification Bot does not message them (zerver/views/streams.py add_subscriptions_backend).
   */
  bulkNewSubscriptionMessages: 100,
  /** zerver/models/streams.py `DefaultStreamGroup.MAX_NAME_LENGTH`. */
  defaultChannelGroupName: 60,
  /** `DefaultStreamGroup.description` (a CharField of 1024; the view does not check it). */
  defaultChannelGroupDescription: 1024,
  /**
   * zerver/models/realms.py `RealmDomain.domain` (a CharField of 80): `validate_domain` lets up
   * to 255 characters through, and the database refuses what is longer than this.
   */
  allowedDomain: 80,
} as const;

/** Prefixes a user-group name may not start with. */
export const INVALID_GROUP_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'] as const;
