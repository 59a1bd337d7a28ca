import { createHash } from 'node:crypto';
import { FEATURE_LEVELS, supports } from '../model/features';
import { channelSettingInfos } from './group-settings';
import {
  canSeeSubscribers,
  directMembers,
  findGroup,
  findUser,
  isAdmin,
  isGuest,
  isOwner,
  subscriberIds,
} from './permissions';
import type {
  OrgState,
  StoredChannel,
  StoredFolder,
  StoredGroup,
  StoredGroupSetting,
  StoredLinkifier,
  StoredSubscription,
  StoredUser,
} from './state';

/**
 * The API shapes of stored objects, as the server at a feature level sends them: fields that
 * did not exist yet are absent.
 */

/** A tiny Markdown renderer: enough for descriptions (`**bold**`, `*em*`, `` `code` ``). */
export function renderMarkdown(text: string): string {
  return memo(renderedMarkdown, text, renderMarkdownUncached);
}

function renderMarkdownUncached(text: string): string {
  if (text.trim() === '') return '';
  const esc = text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
  const html = esc
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/\*(.+?)\*/g, '<em>$1</em>')
    .replace(/`(.+?)`/g, '<code>$1</code>');
  return `<p>${html}</p>`;
}

/**
 * Results of pure string functions by their argument (a register renders 40,000 channel
 * descriptions and formats 100,000 dates, most of them the same as in the last register).
 * Nothing to invalidate: the result depends on the argument only. Bounded: emptied when full.
 */
const renderedMarkdown = new Map<string, string>();
const isoFormatted = new Map<string, string>();
const MEMO_SIZE = 250_000;

function memo(cache: Map<string, string>, arg: string, f: (arg: string) => string): string {
  let out = cache.get(arg);
  if (out === undefined) {
    if (cache.size >= MEMO_SIZE) cache.clear();
    cache.set(arg, (out = f(arg)));
  }
  return out;
}

/** A group-setting value as the API shows it: deactivated users left out (FL 303). */
export function settingToApi(
  org: OrgState,
  v: StoredGroupSetting | undefined,
): StoredGroupSetting | undefined {
  if (v === undefined || typeof v === 'number') return v;
  return {
    direct_members: v.direct_members.filter((id) => findUser(org, id)?.isActive === true),
    direct_subgroups: [...v.direct_subgroups],
  };
}

/** `Stream.STREAM_POST_POLICY_EVERYONE` and `STREAM_POST_POLICY_ADMINS` (zerver/models/streams.py). */
const POST_POLICY_EVERYONE = 1;
export const POST_POLICY_ADMINS = 2;

/** zerver/models/streams.py `Stream.SYSTEM_GROUPS_ENUM_MAP`: the system groups with a policy. */
const POST_POLICY_OF_SYSTEM_GROUP: ReadonlyMap<string, number> = new Map([
  ['role:everyone', POST_POLICY_EVERYONE],
  ['role:administrators', POST_POLICY_ADMINS],
  ['role:fullmembers', 3], // STREAM_POST_POLICY_RESTRICT_NEW_MEMBERS
  ['role:moderators', 4], // STREAM_POST_POLICY_MODERATORS
]);

/**
 * zerver/lib/streams.py `get_stream_post_policy_value_based_on_group_setting`: the legacy
 * `stream_post_policy` (deprecated at FL 333, still sent at 442) of a `can_send_message_group`
 * value: the policy of role:everyone, role:administrators, role:fullmembers or
 * role:moderators, else 1 (everyone), for any other group and an anonymous value alike.
 * `stream_to_dict`'s `is_announcement_only` is whether it is the administrators' policy.
 */
export function streamPostPolicy(org: OrgState, value: StoredGroupSetting | undefined): number {
  if (typeof value !== 'number') return POST_POLICY_EVERYONE;
  const g = findGroup(org, value);
  if (g === undefined || !g.isSystemGroup) return POST_POLICY_EVERYONE;
  return POST_POLICY_OF_SYSTEM_GROUP.get(g.name) ?? POST_POLICY_EVERYONE;
}

/** A channel object. Retention: null = realm default, -1 = unlimited. */
export function channelToApi(
  org: OrgState,
  fl: number,
  ch: StoredChannel,
  extra: { isDefault?: boolean; subscriberIds?: readonly number[] } = {},
): Record<string, unknown> {
  const out = channelFields(org, fl, ch, extra.subscriberIds, true);
  if (extra.isDefault !== undefined) out.is_default = extra.isDefault;
  return out;
}

/**
 * The fields of a channel object, in Zulip's order. A subscription object has the same
 * fields but `stream_weekly_traffic` after them (`trafficInline` false: the caller adds it),
 * built in that order rather than moved (a `delete` makes slow objects, 40,000 of them in a
 * register at scale 10).
 */
function channelFields(
  org: OrgState,
  fl: number,
  ch: StoredChannel,
  subscribers: readonly number[] | undefined,
  trafficInline: boolean,
): Record<string, unknown> {
  const postPolicy = streamPostPolicy(org, ch.settings.can_send_message_group);
  const out: Record<string, unknown> = {
    stream_id: ch.id,
    name: ch.name,
    is_archived: ch.isArchived,
    description: ch.description,
    rendered_description: renderMarkdown(ch.description),
    date_created: ch.dateCreated,
    creator_id: ch.creatorId,
    invite_only: ch.inviteOnly,
    is_web_public: ch.isWebPublic,
    stream_post_policy: postPolicy,
    message_retention_days: ch.messageRetentionDays,
    history_public_to_subscribers: ch.historyPublicToSubscribers,
    first_message_id: null,
    is_recently_active: false,
    is_announcement_only: postPolicy === POST_POLICY_ADMINS,
  };
  if (trafficInline) out.stream_weekly_traffic = null;
  for (const info of channelSettingInfos(fl))
    out[info.wire] = settingToApi(org, ch.settings[info.wire]);
  if (supports(fl, 'channelFolders')) out.folder_id = ch.folderId;
  if (supports(fl, 'topicsPolicy')) out.topics_policy = ch.topicsPolicy;
  if (supports(fl, 'channelSubscriberCount'))
    out.subscriber_count = (subscribers ?? subscriberIds(org, ch.id)).length;
  return out;
}

/**
 * A subscription object (`GET /users/me/subscriptions`, register `subscriptions`). With a
 * `viewer`, `subscribers` is `[]` for a channel whose subscribers the viewer may not see, as
 * Zulip sends it (`bulk_get_subscriber_user_ids` starts every channel at `[]`).
 */
export function subscriptionToApi(
  org: OrgState,
  fl: number,
  ch: StoredChannel,
  sub: StoredSubscription | undefined,
  withSubscribers: boolean,
  viewer?: StoredUser,
  /** The channel's {@link subscriberIds}, when the caller has them already. */
  subscribers: readonly number[] = subscriberIds(org, ch.id),
): Record<string, unknown> {
  const out = channelFields(org, fl, ch, subscribers, false);
  out.stream_weekly_traffic = null;
  if (sub) {
    Object.assign(out, {
      color: sub.color,
      is_muted: sub.isMuted,
      in_home_view: !sub.isMuted,
      pin_to_top: sub.pinToTop,
      desktop_notifications: sub.desktopNotifications,
      audible_notifications: sub.audibleNotifications,
      push_notifications: sub.pushNotifications,
      email_notifications: sub.emailNotifications,
      wildcard_mentions_notify: sub.wildcardMentionsNotify,
    });
  }
  if (withSubscribers)
    out.subscribers = viewer === undefined || canSeeSubscribers(org, viewer, ch) ? subscribers : [];
  return out;
}

/**
 * Subscription objects in Zulip's order: by channel name, as Python sorts strings (by code
 * point, case-sensitively), as `gather_subscriptions_helper` returns its three lists.
 */
export function sortedByName<T>(
  items: readonly T[],
  nameOf: (item: T) => string = (item) => String((item as { name?: unknown }).name),
): T[] {
  const keyed = items.map((item) => ({
    item,
    key: Array.from(nameOf(item), (c) => c.codePointAt(0) ?? 0),
  }));
  keyed.sort(({ key: ka }, { key: kb }) => {
    for (let i = 0; i < Math.min(ka.length, kb.length); i++)
      if (ka[i] !== kb[i]) return (ka[i] ?? 0) - (kb[i] ?? 0);
    return ka.length - kb.length;
  });
  return keyed.map((k) => k.item);
}

/** A Gravatar URL, as Zulip gives for users without an uploaded avatar. */
export function avatarUrl(email: string): string {
  const hash = createHash('md5').update(email.toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=1`;
}

/**
 * A stored ISO timestamp (UTC) as `format_user_row` sends `date_joined` to a user:
 * `date_joined.isoformat(timespec="minutes")` (`…T07:50+00:00`).
 */
export function isoFormatToMinutes(iso: string): string {
  return memo(isoFormatted, iso, (t) => `${t.slice(0, 16)}+00:00`);
}

/** How a user list was asked for (`client_gravatar`, `include_custom_profile_fields`). */
export interface UserViewOptions {
  /**
   * The client computes Gravatar URLs itself, so `avatar_url` is `null` for users on Gravatar
   * (every emulated user). Zulip's default since FL 92 for `GET /users` and `POST /register`.
   */
  readonly clientGravatar?: boolean;
  /** Include `profile_data` (`GET /users` only with `include_custom_profile_fields=true`). */
  readonly profileData?: boolean;
  /** Include `is_active` (default true; register's user lists leave it out). */
  readonly isActive?: boolean;
  /** The server's feature level: `is_imported_stub` is sent from FL 433. */
  readonly featureLevel: number;
}

/**
 * A user object (`GET /users`), as zerver/lib/users.py `format_user_row` makes it: a bot has
 * `bot_type` and `bot_owner_id` and never `profile_data`; a human has `profile_data` when
 * asked for; `is_imported_stub` since FL 433 (never true here: the embedded server imports
 * nothing).
 */
export function userToApi(u: StoredUser, opts: UserViewOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {
    user_id: u.id,
    email: u.email,
    delivery_email: u.email,
    full_name: u.fullName,
    date_joined: isoFormatToMinutes(u.dateJoined),
  };
  // Added in order, never deleted (a `delete` makes 100,000 slow objects in a register).
  if (opts.isActive !== false) out.is_active = u.isActive;
  out.is_owner = isOwner(u);
  out.is_admin = isAdmin(u);
  out.is_guest = isGuest(u);
  out.is_bot = u.isBot;
  if (u.isBot) {
    out.bot_type = u.botType;
    out.bot_owner_id = u.botOwnerId;
  }
  out.role = u.role;
  out.timezone = u.timezone;
  out.avatar_url = opts.clientGravatar === true ? null : avatarUrl(u.email);
  out.avatar_version = 1;
  if (supports(opts.featureLevel, 'isImportedStub')) out.is_imported_stub = false;
  if (opts.profileData !== false && !u.isBot) {
    // zerver/lib/users.py get_custom_profile_field_values: `rendered_value` for text fields.
    const data: Record<string, unknown> = {};
    for (const [id, v] of Object.entries(u.profileData ?? {}))
      data[id] =
        v.renderedValue !== undefined
          ? { value: v.value, rendered_value: v.renderedValue }
          : { value: v.value };
    out.profile_data = data;
  }
  return out;
}

/**
 * A user group object (`GET /user_groups`). `members`: {@link directMembers}, or the same
 * from a {@link directMembersReader} when listing every group.
 */
export function groupToApi(
  org: OrgState,
  g: StoredGroup,
  members: (g: StoredGroup) => number[] = (x) => directMembers(org, x),
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: g.id,
    name: g.name,
    description: g.description,
    members: members(g),
    direct_subgroup_ids: [...g.subgroups].sort((a, b) => a - b),
    is_system_group: g.isSystemGroup,
    creator_id: g.creatorId,
    date_created: g.dateCreated,
    deactivated: g.deactivated,
  };
  for (const [k, v] of Object.entries(g.settings)) out[k] = settingToApi(org, v);
  return out;
}

/** A channel folder object (`GET /channel_folders`). */
export function folderToApi(fl: number, f: StoredFolder): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: f.id,
    name: f.name,
    date_created: f.dateCreated,
    creator_id: f.creatorId,
    description: f.description,
    rendered_description: renderMarkdown(f.description),
    is_archived: f.isArchived,
  };
  if (supports(fl, 'channelFolderOrder')) out.order = f.order;
  return out;
}

/** Folders in API order: by `order` since FL 414, by ID before. */
export function sortedFolders(fl: number, folders: StoredFolder[]): StoredFolder[] {
  return [...folders].sort((a, b) =>
    supports(fl, 'channelFolderOrder') ? a.order - b.order || a.id - b.id : a.id - b.id,
  );
}

/** A linkifier object (`GET /realm/linkifiers`). */
export function linkifierToApi(fl: number, l: StoredLinkifier): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: l.id,
    pattern: l.pattern,
    url_template: l.urlTemplate,
  };
  if (supports(fl, 'linkifierExamples')) {
    out.example_input = l.exampleInput;
    out.reverse_template = l.reverseTemplate;
  }
  if (supports(fl, 'linkifierAlternativeUrlTemplates'))
    out.alternative_url_templates = l.alternativeUrlTemplates;
  return out;
}

/** Linkifiers in processing order. */
export function sortedLinkifiers(org: OrgState): StoredLinkifier[] {
  return [...org.linkifiers].sort((a, b) => a.order - b.order || a.id - b.id);
}

/** Zulip's version string for a feature level. */
export function zulipVersion(fl: number): string {
  if (fl <= FEATURE_LEVELS.zulip10) return '10.2';
  if (fl <= FEATURE_LEVELS.zulip11) return '11.0';
  return '12.0-dev+git';
}
