import {
  CHANNEL_PERMISSIONS,
  GROUP_PERMISSIONS,
  FEATURE_LEVELS,
  LIVE_STATE_FORMAT_VERSION,
  ROLES,
  SYSTEM_GROUP_NAMES,
  emptyDesiredState,
  supports,
} from '../../src/model';
import { defaultUserSettingsWire } from '../../src/model/default-user-settings';
import type {
  DesiredChannel,
  DesiredChannelFolder,
  DesiredState,
  DesiredUserGroup,
  LiveChannel,
  LiveChannelFolder,
  LiveState,
  LiveSubscriptionSettings,
  LiveUserGroup,
  PermissionSettingInfo,
  RoleName,
  WireGroupSettingValue,
} from '../../src/model';

/**
 * A small live organization, as Zulip would report it, with builders for everything else.
 * Users: owner@example.com (id 1, the applying account, owner), admin@example.com (2),
 * alice@example.com (3), bob@example.com (4), carol@example.com (5, moderator),
 * gone@example.com (6, deactivated). System groups 100..107.
 */
export class LiveBuilder {
  public readonly state: LiveState;
  private nextId = 1000;

  public constructor(featureLevel: number = FEATURE_LEVELS.newest) {
    this.state = {
      formatVersion: LIVE_STATE_FORMAT_VERSION,
      server: {
        site: 'https://zulip.example.com',
        featureLevel,
        version: featureLevel >= FEATURE_LEVELS.newest ? '12.0-dev' : '10.2',
        realmName: 'Example',
        limits: {
          channelName: 60,
          channelDescription: 1024,
          channelFolderName: 60,
          channelFolderDescription: 1024,
        },
        webPublicChannelsEnabled: true,
        planType: null,
        channelEventsMessages: true,
      },
      me: { userId: 1, email: 'owner@example.com', role: ROLES.owner },
      users: [
        user(1, 'owner@example.com', 'owner'),
        user(2, 'admin@example.com', 'administrator'),
        user(3, 'alice@example.com', 'member'),
        user(4, 'bob@example.com', 'member'),
        user(5, 'carol@example.com', 'moderator'),
        { ...user(6, 'gone@example.com', 'member'), isActive: false },
      ],
      userGroups: [],
      channels: [],
      channelFolders: [],
      linkifiers: [],
      playgrounds: [],
      savedSnippets: [],
      customEmoji: [],
      subscriptionSettings: [],
      organizationSettings: null,
      defaultUserSettings: null,
      defaultChannelGroups: [],
      customProfileFields: [],
      allowedDomains: [],
    };
    const members: Record<string, { members: number[]; subgroups: string[] }> = {
      'role:internet': { members: [], subgroups: ['role:everyone'] },
      'role:everyone': { members: [], subgroups: ['role:members'] },
      'role:members': { members: [3, 4], subgroups: ['role:fullmembers'] },
      'role:fullmembers': { members: [3, 4], subgroups: ['role:moderators'] },
      'role:moderators': { members: [5], subgroups: ['role:administrators'] },
      'role:administrators': { members: [2], subgroups: ['role:owners'] },
      'role:owners': { members: [1], subgroups: [] },
      'role:nobody': { members: [], subgroups: [] },
    };
    SYSTEM_GROUP_NAMES.forEach((name, i) => {
      this.state.userGroups.push({
        id: 100 + i,
        name,
        description: '',
        isSystemGroup: true,
        deactivated: false,
        creatorId: null,
        members: members[name]!.members,
        subgroups: [],
        permissions: {},
      });
    });
    for (const g of this.state.userGroups)
      g.subgroups = members[g.name]!.subgroups.map((n) => this.groupId(n));
  }

  /**
   * The default user settings at Zulip's defaults for the server's level, with `wire` (by wire
   * name) over them; the emoji sets and sounds of Zulip at FL 442 ('ding' and 'zulip' only).
   */
  public defaultUserSettings(wire: Record<string, string | number | boolean> = {}): this {
    this.state.defaultUserSettings = {
      settings: { ...defaultUserSettingsWire(this.featureLevel), ...wire },
      emojisets: ['google', 'twitter', 'text'],
      notificationSounds: ['ding', 'zulip'],
    };
    return this;
  }

  public get featureLevel(): number {
    return this.state.server.featureLevel;
  }

  /** The ID of a group by name. */
  public groupId(name: string): number {
    const g = this.state.userGroups.find((x) => x.name === name);
    if (!g) throw new Error(`no group ${name}`);
    return g.id;
  }

  public userId(email: string): number {
    const u = this.state.users.find((x) => x.email === email);
    if (!u) throw new Error(`no user ${email}`);
    return u.id;
  }

  /** Zulip's defaults for every setting the server supports, on an object made by `creator`. */
  private defaults(
    table: Record<string, PermissionSettingInfo>,
    creator: number | null,
  ): Record<string, WireGroupSettingValue> {
    const out: Record<string, WireGroupSettingValue> = {};
    for (const info of Object.values(table)) {
      if (info.feature && !supports(this.featureLevel, info.feature)) continue;
      out[info.wire] =
        info.default === 'creator'
          ? creator === null
            ? this.groupId('role:nobody')
            : { direct_members: [creator], direct_subgroups: [] }
          : this.groupId(info.default);
    }
    return out;
  }

  public group(
    name: string,
    o: Partial<Omit<LiveUserGroup, 'permissions'>> & {
      permissions?: Record<string, WireGroupSettingValue>;
    } = {},
  ): LiveUserGroup {
    const creatorId = o.creatorId === undefined ? 1 : o.creatorId;
    const g: LiveUserGroup = {
      id: o.id ?? this.nextId++,
      name,
      description: o.description ?? '',
      isSystemGroup: false,
      deactivated: o.deactivated ?? false,
      creatorId,
      members: o.members ?? [],
      subgroups: o.subgroups ?? [],
      permissions: { ...this.defaults(GROUP_PERMISSIONS, creatorId), ...o.permissions },
    };
    this.state.userGroups.push(g);
    return g;
  }

  public channel(
    name: string,
    o: Partial<Omit<LiveChannel, 'permissions'>> & {
      permissions?: Record<string, WireGroupSettingValue>;
    } = {},
  ): LiveChannel {
    const creatorId = o.creatorId === undefined ? 1 : o.creatorId;
    const isPrivate = o.private ?? false;
    const c: LiveChannel = {
      id: o.id ?? this.nextId++,
      name,
      description: o.description ?? '',
      private: isPrivate,
      webPublic: o.webPublic ?? false,
      historyPublicToSubscribers: o.historyPublicToSubscribers ?? !isPrivate,
      defaultChannel: o.defaultChannel ?? false,
      messageRetentionDays: o.messageRetentionDays ?? null,
      topicsPolicy:
        o.topicsPolicy !== undefined
          ? o.topicsPolicy
          : supports(this.featureLevel, 'topicsPolicy')
            ? 'inherit'
            : null,
      folderId: o.folderId ?? null,
      archived: o.archived ?? false,
      creatorId,
      permissions: { ...this.defaults(CHANNEL_PERMISSIONS, creatorId), ...o.permissions },
      subscribers: o.subscribers === undefined ? [1] : o.subscribers,
    };
    this.state.channels.push(c);
    return c;
  }

  public folder(name: string, o: Partial<LiveChannelFolder> = {}): LiveChannelFolder {
    const id = o.id ?? this.nextId++;
    const f: LiveChannelFolder = {
      id,
      name,
      description: o.description ?? '',
      archived: o.archived ?? false,
      order: o.order ?? this.state.channelFolders.length,
    };
    this.state.channelFolders.push(f);
    return f;
  }

  public linkifier(pattern: string, urlTemplate: string): number {
    const id = this.nextId++;
    this.state.linkifiers.push({ id, pattern, urlTemplate });
    return id;
  }

  public playground(pygmentsLanguage: string, name: string, urlTemplate: string): number {
    const id = this.nextId++;
    this.state.playgrounds.push({ id, name, pygmentsLanguage, urlTemplate });
    return id;
  }

  public snippet(title: string, content: string): number {
    const id = this.nextId++;
    this.state.savedSnippets.push({ id, title, content });
    return id;
  }

  public defaultChannelGroup(name: string, channelIds: number[], description = ''): number {
    const id = this.nextId++;
    this.state.defaultChannelGroups.push({ id, name, description, channelIds });
    return id;
  }

  /** An allowed domain, as Zulip stores it (lower case), appended in order. */
  public allowedDomain(domain: string, allowSubdomains = false): number {
    const id = this.nextId++;
    this.state.allowedDomains.push({ id, domain, allowSubdomains });
    return id;
  }

  /** A custom profile field (`type` is Zulip's number), appended in order. */
  public profileField(
    name: string,
    type: number,
    o: Partial<LiveState['customProfileFields'][number]> = {},
  ): number {
    const id = this.nextId++;
    this.state.customProfileFields.push({
      id,
      name,
      type,
      hint: '',
      fieldData: '',
      order: id,
      displayInProfileSummary: false,
      required: false,
      editableByUser: true,
      ...o,
    });
    return id;
  }

  /** A user's custom profile field value, as Zulip stores it. */
  public profileValue(email: string, fieldId: number, value: string): void {
    const u = this.state.users.find((x) => x.email === email);
    if (!u) throw new Error(`no user ${email}`);
    u.profileData = { ...u.profileData, [String(fieldId)]: value };
  }

  /** The applying account's settings on a channel: Zulip's defaults unless given. */
  public settings(channelId: number, o: Partial<LiveSubscriptionSettings> = {}): void {
    this.state.subscriptionSettings.push({
      channelId,
      color: '#c2c2c2',
      isMuted: false,
      pinToTop: false,
      desktopNotifications: null,
      audibleNotifications: null,
      pushNotifications: null,
      emailNotifications: null,
      wildcardMentionsNotify: null,
      ...o,
    });
  }

  public build(): LiveState {
    return structuredClone(this.state);
  }
}

export function user(id: number, email: string, role: RoleName) {
  return {
    id,
    email,
    fullName: email.split('@')[0]!,
    role: ROLES[role],
    isActive: true,
    isBot: false,
  };
}

/** A desired state with helpers that fill the required fields. */
export function desired(build: (d: DesiredState) => void = () => {}): DesiredState {
  const d = emptyDesiredState('acme');
  build(d);
  return d;
}

export function dChannel(name: string, o: Partial<DesiredChannel> = {}): DesiredChannel {
  return { path: `acme/${name}`, name, permissions: {}, ...o };
}

export function dGroup(name: string, o: Partial<DesiredUserGroup> = {}): DesiredUserGroup {
  return {
    path: `acme/${name}`,
    name,
    members: { mode: 'exact', users: [], groups: [] },
    permissions: {},
    ...o,
  };
}

export function dFolder(name: string, o: Partial<DesiredChannelFolder> = {}): DesiredChannelFolder {
  return { path: `acme/folders/${name}`, name, ...o };
}
