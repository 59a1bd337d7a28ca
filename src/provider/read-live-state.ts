import { createHash } from 'node:crypto';
import { canSeeSubscribers, recursiveGroupIds } from '../model/access';
import { MAX_EMOJI_FILE_SIZE_MIB } from '../model/emoji';
import { parseInPlace } from '../model/check-in-place';
import { isZulipCdkError } from '../model/errors';
import { supports } from '../model/features';
import { LIMITS, ROLES, TOPICS_POLICIES } from '../model/kinds';
import type { KindCollection, TopicsPolicy } from '../model/kinds';
import { LIVE_STATE_FORMAT_VERSION, LiveStateSchema, allowedDomainIds } from '../model/live-state';
import type {
  LiveAllowedDomain,
  LiveChannel,
  LiveChannelFolder,
  LiveState,
  LiveUser,
  WireGroupSettingValue,
} from '../model/live-state';
import type { ZulipClient } from '../zulip/client';
import { CHANNEL_GROUP_SETTINGS } from '../zulip/wire/channel';
import type { WireChannel } from '../zulip/wire/channel';
import type { WireChannelFolder } from '../zulip/wire/channel-folder';
import { ORG_READ_REGISTER_PARAMS, RegisterRealmSettingsSchema } from '../zulip/wire/register';
import { ORGANIZATION_PROPERTIES } from '../model/organization-settings';
import type { LiveDefaultUserSettings, LiveOrganizationSettings } from '../model/live-state';
import { DEFAULT_USER_SETTINGS } from '../model/default-user-settings';
import { ORGANIZATION_PERMISSIONS } from '../model/permissions';
import type { RegisterResponse } from '../zulip/wire/register';
import type { WireSubscription } from '../zulip/wire/subscription';
import type { WireUser } from '../zulip/wire/user';
import { USER_GROUP_SETTINGS } from '../zulip/wire/user-group';

/** Progress of {@link readLiveState}, for the CLI to show (the library never prints). */
export type ReadEvent =
  | { readonly type: 'request'; readonly what: string }
  | { readonly type: 'warning'; readonly message: string };

/** Options of {@link readLiveState}. */
export interface ReadLiveStateOptions {
  readonly onEvent?: (event: ReadEvent) => void;
  /**
   * Whether to read each active custom emoji's image (one request each); without them the
   * emoji's `image` is null. Default true; `watch` reads them only when the configuration
   * manages emoji.
   */
  readonly emojiImages?: boolean;
  /** The server's time of the read, ISO (`server.readAt`); default: none recorded. */
  readonly readAt?: string;
}

/**
 * Reads the whole live organization in as few requests as Zulip allows (NOTES 2.1, 5.1): one
 * `POST /register` carrying users, groups (deactivated included), channels (archived included)
 * with their subscribers, default channels, linkifiers, playgrounds, snippets and folders, then
 * `DELETE /events` for the queue. `GET /channel_folders?include_archived=true` only when the
 * register response lacks folders on a server that has them. Never one request per channel.
 */
export async function readLiveState(
  client: ZulipClient,
  options: ReadLiveStateOptions = {},
): Promise<LiveState> {
  const emit = options.onEvent ?? ((): void => {});
  const before = client.requestCount;
  emit({ type: 'request', what: 'POST /register' });
  const reg = await client.register(ORG_READ_REGISTER_PARAMS);
  const readAt = new Date(client.serverDate ?? Date.now()).toISOString();
  try {
    const state = await liveStateOfRegistration(client, reg, { ...options, readAt });
    return { ...state, requestCount: client.requestCount - before + (reg.queue_id ? 1 : 0) };
  } finally {
    if (reg.queue_id) {
      emit({ type: 'request', what: 'DELETE /events' });
      // The queue expires on its own after ten minutes; failing to delete it is not an error.
      // BAD_EVENT_QUEUE_ID after a retried delete means the first attempt landed.
      await client.deleteEventQueue(reg.queue_id).catch((e: unknown) => {
        if (isZulipCdkError(e, 'BAD_EVENT_QUEUE_ID')) return;
        emit({ type: 'warning', message: `could not delete the event queue: ${String(e)}` });
      });
    }
  }
}

/**
 * The LiveState of a `POST /register` response made with {@link ORG_READ_REGISTER_PARAMS}
 * (`event_types` may be added): `GET /channel_folders?include_archived=true` only when the
 * response lacks folders on a server that has them. Leaves the queue alone.
 */
export async function liveStateOfRegistration(
  client: ZulipClient,
  reg: RegisterResponse,
  options: ReadLiveStateOptions = {},
): Promise<LiveState> {
  let folders: WireChannelFolder[] | undefined = reg.channel_folders;
  if (folders === undefined && supports(reg.zulip_feature_level, 'channelFolders')) {
    options.onEvent?.({ type: 'request', what: 'GET /channel_folders' });
    folders = (await client.getChannelFolders({ include_archived: true })).channel_folders;
  }
  const state = liveStateFromRegister(reg, {
    site: client.site,
    channelFolders: folders ?? [],
    ...(options.readAt !== undefined ? { readAt: options.readAt } : {}),
  });
  if (options.emojiImages !== false)
    await readEmojiImages(client, state, options.onEvent ?? ((): void => {}));
  return state;
}

/**
 * The digest and size of each active custom emoji's image as uploaded. Zulip serves a resized
 * copy at `source_url` and keeps the upload under `<source_url>.original` (what its own export
 * reads, zerver/lib/export.py), so that is what is compared with the file in the repository.
 * One request per active emoji, four at a time; an image that cannot be read stays null (the
 * plan then cannot compare it, and says so).
 */
async function readEmojiImages(
  client: ZulipClient,
  state: LiveState,
  emit: (event: ReadEvent) => void,
): Promise<void> {
  const active = state.customEmoji.filter((e) => !e.deactivated);
  const limit = MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024;
  for (let i = 0; i < active.length; i += 4) {
    await Promise.all(
      active.slice(i, i + 4).map(async (e) => {
        const url = `${e.sourceUrl}.original`;
        emit({ type: 'request', what: `GET ${url}` });
        try {
          const bytes = await client.downloadFile(url, limit);
          e.image = {
            sha256: createHash('sha256').update(bytes).digest('hex'),
            size: bytes.length,
          };
        } catch (err) {
          emit({
            type: 'warning',
            message: `could not read the image of custom emoji '${e.name}' (${url}): ${err instanceof Error ? err.message : String(err)}`,
          });
        }
      }),
    );
  }
}

/** A wire group-setting value without the extra fields a loose schema lets through. */
function groupSetting(v: unknown): WireGroupSettingValue | undefined {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object') {
    const o = v as { direct_members?: unknown; direct_subgroups?: unknown };
    if (Array.isArray(o.direct_members) && Array.isArray(o.direct_subgroups))
      return {
        direct_members: (o.direct_members as number[]).slice().sort((a, b) => a - b),
        direct_subgroups: (o.direct_subgroups as number[]).slice().sort((a, b) => a - b),
      };
  }
  return undefined;
}

function permissions(
  obj: Record<string, unknown>,
  names: readonly string[],
): Record<string, WireGroupSettingValue> {
  const out: Record<string, WireGroupSettingValue> = {};
  for (const n of names) {
    const v = groupSetting(obj[n]);
    if (v !== undefined) out[n] = v;
  }
  return out;
}

/** A user's custom profile field values (`profile_data`), without the empty ones. */
function profileDataOf(u: WireUser): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  const data = u.profile_data;
  if (data)
    for (const id in data) {
      const v = data[id]?.value;
      if (typeof v === 'string') (out ??= {})[id] = v;
    }
  return out;
}

function roleOf(u: WireUser): number {
  if (u.role !== undefined) return u.role;
  if (u.is_owner) return ROLES.owner;
  if (u.is_admin) return ROLES.administrator;
  if (u.is_guest) return ROLES.guest;
  return ROLES.member;
}

function topicsPolicy(v: unknown): TopicsPolicy | null {
  return typeof v === 'string' && (TOPICS_POLICIES as readonly string[]).includes(v)
    ? (v as TopicsPolicy)
    : null;
}

/**
 * IDs in ascending order. Zulip sends subscriber and member lists sorted: those are taken as
 * they are (checked, not copied: a million subscriber IDs at the largest sizes).
 */
function sortIds(ids: number[]): number[] {
  for (let i = 1; i < ids.length; i++)
    if ((ids[i - 1] as number) > (ids[i] as number)) return [...ids].sort((a, b) => a - b);
  return ids;
}

/** The organization's settings (`realm_<wire>`) by wire name, as the server sent them. */
function organizationSettings(reg: RegisterResponse): LiveOrganizationSettings {
  const realm = RegisterRealmSettingsSchema.parse(reg) as Record<string, unknown>;
  const properties: LiveOrganizationSettings['properties'] = {};
  for (const info of Object.values(ORGANIZATION_PROPERTIES)) {
    const v = realm[`realm_${info.wire}`];
    if (v !== undefined) properties[info.wire] = v as string | number | boolean | null;
  }
  const wires = Object.values(ORGANIZATION_PERMISSIONS).map((i) => i.wire);
  const prefixed = Object.fromEntries(wires.map((w) => [w, realm[`realm_${w}`]]));
  return { properties, permissions: permissions(prefixed, wires) };
}

/**
 * The allowed domains in Zulip's order, each with the read's own ID (Zulip sends none:
 * {@link allowedDomainIds}).
 */
function allowedDomainsOf(reg: RegisterResponse): LiveAllowedDomain[] {
  const domains = reg.realm_domains ?? [];
  const ids = allowedDomainIds(domains.map((d) => d.domain));
  return domains.map((d) => ({
    id: ids.get(d.domain)!,
    domain: d.domain,
    allowSubdomains: d.allow_subdomains,
  }));
}

/**
 * The default user settings (`realm_user_settings_defaults`) by wire name, as the server sent
 * them, with the emoji sets and sounds it offers; null when the response lacks them (a server
 * that did not send them, or a register made without asking).
 */
function defaultUserSettings(reg: RegisterResponse): LiveDefaultUserSettings | null {
  const d = reg.realm_user_settings_defaults;
  if (d === undefined) return null;
  const settings: LiveDefaultUserSettings['settings'] = {};
  for (const info of Object.values(DEFAULT_USER_SETTINGS)) {
    const v: unknown = d[info.wire];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      settings[info.wire] = v;
  }
  return {
    settings,
    emojisets: (d.emojiset_choices ?? []).map((c) => c.key),
    notificationSounds: [...(d.available_notification_sounds ?? [])],
  };
}

/**
 * A compile error when a kind of `RESOURCE_KINDS` has no collection in the live state: then
 * the read below must fill it too (`liveStateFromRegister`).
 */
type _EveryKindIsRead = Pick<LiveState, KindCollection>;

/**
 * The LiveState a register response describes. Pure, so the mapping is tested without HTTP.
 * `extras.channelFolders` overrides `channel_folders` (from `GET /channel_folders`);
 * `extras.readAt` is recorded as `server.readAt`.
 */
export function liveStateFromRegister(
  reg: RegisterResponse,
  extras: { site: string; channelFolders?: readonly WireChannelFolder[]; readAt?: string },
): LiveState {
  const fl = reg.zulip_feature_level;
  // `realm_users` holds the active users; Zulip's register leaves `is_active` out of them.
  const users: LiveUser[] = [];
  for (const [list, active] of [
    [reg.realm_users ?? [], true],
    [reg.realm_non_active_users ?? [], false],
  ] as const)
    for (const u of list) {
      const user: { -readonly [K in keyof LiveUser]: LiveUser[K] } = {
        id: u.user_id,
        email: u.delivery_email ?? u.email,
        fullName: u.full_name,
        role: roleOf(u),
        isActive: u.is_active ?? active,
        isBot: u.is_bot,
      };
      if (u.is_bot && typeof u.bot_owner_id === 'number') user.botOwnerId = u.bot_owner_id;
      if (u.is_bot && typeof u.bot_type === 'number') user.botType = u.bot_type;
      const profileData = profileDataOf(u);
      if (profileData) user.profileData = profileData;
      if (typeof u.date_joined === 'string') user.dateJoined = u.date_joined;
      users.push(user);
    }
  // By ID; a user listed twice (Zulip never does) counts as first listed (the sort is stable).
  users.sort((a, b) => a.id - b.id);
  let kept = 0;
  for (const u of users) if (kept === 0 || users[kept - 1]?.id !== u.id) users[kept++] = u;
  users.length = kept;
  const meId = reg.user_id ?? -1;
  const meUser = users.find((u) => u.id === meId);

  const userGroups = (reg.realm_user_groups ?? [])
    .map((g) => ({
      id: g.id,
      name: g.name,
      description: g.description,
      isSystemGroup: g.is_system_group,
      deactivated: g.deactivated ?? false,
      creatorId: g.creator_id ?? null,
      members: sortIds(g.members),
      subgroups: sortIds(g.direct_subgroup_ids),
      permissions: permissions(g, USER_GROUP_SETTINGS),
    }))
    .sort((a, b) => a.id - b.id);

  // Every channel the account may see, archived ones included (the `archived_channels`
  // capability; from FL 362 in `never_subscribed` too), with its subscribers, is in one of the
  // three subscription lists: `streams` is not asked for (ORG_READ_REGISTER_PARAMS). Each list
  // has every field `streams` has, at every level we support: `unsubscribed` entries copy the
  // channel's dict (zerver/lib/subscription_info.py `build_stream_dict_for_sub`), and
  // `never_subscribed` ones, built field by field (`build_stream_dict_for_never_sub`), are held
  // to it by Zulip's `test_stream_creation_events` (zerver/tests/test_events.py: the entry a
  // creation event adds, a full `stream_to_dict` as `streams` has it, must equal the one a new
  // register builds). Read in Zulip 10.2 (FL 372) and at FL 442; each field added in between
  // (folder_id 389, topics_policy 392, the can_*_group settings) came to all lists at once.
  const subscribers = new Map<number, number[]>();
  const subLists: WireSubscription[][] = [
    reg.subscriptions ?? [],
    reg.unsubscribed ?? [],
    reg.never_subscribed ?? [],
  ];
  const channelObjects = new Map<number, WireChannel>();
  for (const list of subLists)
    for (const s of list) {
      if (s.subscribers) subscribers.set(s.stream_id, sortIds(s.subscribers));
      if (!channelObjects.has(s.stream_id)) channelObjects.set(s.stream_id, s);
    }
  const defaults = new Set<number>(
    (reg.realm_default_streams ?? []).map((d) =>
      typeof d === 'number' ? d : Number((d as { stream_id?: unknown }).stream_id),
    ),
  );
  const channels: LiveChannel[] = [...channelObjects.values()]
    .map((c) => ({
      id: c.stream_id,
      name: c.name,
      description: c.description,
      private: c.invite_only,
      webPublic: c.is_web_public ?? false,
      historyPublicToSubscribers: c.history_public_to_subscribers ?? !c.invite_only,
      defaultChannel: defaults.has(c.stream_id) || c.is_default === true,
      messageRetentionDays: c.message_retention_days ?? null,
      topicsPolicy: topicsPolicy(c.topics_policy),
      folderId: c.folder_id ?? null,
      archived: c.is_archived ?? false,
      creatorId: c.creator_id ?? null,
      permissions: permissions(c, CHANNEL_GROUP_SETTINGS),
      subscribers: subscribers.get(c.stream_id) ?? null,
    }))
    .sort((a, b) => a.id - b.id);
  // Zulip answers `subscribers: []` for a channel whose subscribers the account may not see:
  // that is "unknown" (null), never "nobody", or a plan would add everyone again.
  const account = { userId: meId, role: meUser?.role ?? ROLES.member };
  const myGroups = recursiveGroupIds(meId, userGroups);
  const subscribedIds = new Set((reg.subscriptions ?? []).map((s) => s.stream_id));
  for (const c of channels)
    if (c.subscribers !== null && !canSeeSubscribers(account, c, subscribedIds.has(c.id), myGroups))
      c.subscribers = null;

  const wireFolders = extras.channelFolders ?? reg.channel_folders ?? [];
  const channelFolders: LiveChannelFolder[] = wireFolders
    .map((f, i) => ({
      id: f.id,
      name: f.name,
      description: f.description,
      archived: f.is_archived,
      // Before FL 414 folders have no order: Zulip sorts them by id.
      order: f.order ?? i,
    }))
    .sort((a, b) => a.order - b.order || a.id - b.id);

  const subscriptionSettings = (reg.subscriptions ?? [])
    .map((s) => ({
      channelId: s.stream_id,
      color: s.color ?? '',
      isMuted: s.is_muted ?? false,
      pinToTop: s.pin_to_top ?? false,
      desktopNotifications: s.desktop_notifications ?? null,
      audibleNotifications: s.audible_notifications ?? null,
      pushNotifications: s.push_notifications ?? null,
      emailNotifications: s.email_notifications ?? null,
      wildcardMentionsNotify: s.wildcard_mentions_notify ?? null,
    }))
    .sort((a, b) => a.channelId - b.channelId);

  const webPublicAllowed = reg.server_web_public_streams_enabled ?? false;
  const state: LiveState = {
    formatVersion: LIVE_STATE_FORMAT_VERSION,
    server: {
      site: extras.site,
      featureLevel: fl,
      version: reg.zulip_version,
      realmName: reg.realm_name ?? '',
      limits: {
        channelName: reg.max_stream_name_length ?? LIMITS.channelName,
        channelDescription: reg.max_stream_description_length ?? LIMITS.channelDescription,
        channelFolderName: reg.max_channel_folder_name_length ?? null,
        channelFolderDescription: reg.max_channel_folder_description_length ?? null,
      },
      webPublicChannelsEnabled: webPublicAllowed && (reg.realm_enable_spectator_access ?? false),
      // Only when it says more than webPublicChannelsEnabled (the live state's digest).
      ...(webPublicAllowed && reg.realm_enable_spectator_access === true
        ? {}
        : { webPublicChannelsAllowed: webPublicAllowed }),
      planType: reg.realm_plan_type ?? null,
      channelEventsMessages: reg.realm_send_channel_events_messages ?? true,
      ...(reg.realm_available_video_chat_providers
        ? { videoChatProviders: Object.keys(reg.realm_available_video_chat_providers) }
        : {}),
      ...(extras.readAt !== undefined ? { readAt: extras.readAt } : {}),
    },
    me: {
      userId: meId,
      email: meUser?.email ?? reg.delivery_email ?? reg.email ?? '',
      role: meUser?.role ?? ROLES.member,
    },
    users,
    userGroups,
    channels,
    channelFolders,
    linkifiers: (reg.realm_linkifiers ?? []).map((l) => ({
      id: l.id,
      pattern: l.pattern,
      urlTemplate: l.url_template,
    })),
    playgrounds: (reg.realm_playgrounds ?? [])
      .map((p) => ({
        id: p.id,
        name: p.name,
        pygmentsLanguage: p.pygments_language,
        urlTemplate: p.url_template,
      }))
      .sort((a, b) => a.id - b.id),
    customEmoji: Object.values(reg.realm_emoji ?? {})
      .map((e) => ({
        id: Number(e.id),
        name: e.name,
        deactivated: e.deactivated,
        authorId: e.author_id ?? null,
        sourceUrl: e.source_url,
        image: null,
      }))
      .sort((a, b) => a.id - b.id),
    savedSnippets: (reg.saved_snippets ?? [])
      .map((s) => ({ id: s.id, title: s.title, content: s.content }))
      .sort((a, b) => a.id - b.id),
    subscriptionSettings,
    organizationSettings: organizationSettings(reg),
    defaultUserSettings: defaultUserSettings(reg),
    defaultChannelGroups: (reg.realm_default_stream_groups ?? [])
      .map((g) => ({
        id: g.id,
        name: g.name,
        description: g.description,
        channelIds: [...g.streams],
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id)),
    customProfileFields: (reg.custom_profile_fields ?? [])
      .map((f) => ({
        id: f.id,
        name: f.name,
        type: f.type,
        hint: f.hint,
        fieldData: f.field_data ?? '',
        order: f.order,
        displayInProfileSummary: f.display_in_profile_summary ?? false,
        required: f.required ?? false,
        editableByUser: f.editable_by_user ?? true,
      }))
      .sort((a, b) => a.order - b.order || a.id - b.id),
    allowedDomains: allowedDomainsOf(reg),
  };
  // Strict check: a mapping mistake fails here, not as a confusing diff later. In place: a
  // copy of every user, channel and subscriber list would double the memory (issue 17).
  return parseInPlace(LiveStateSchema, state);
}
