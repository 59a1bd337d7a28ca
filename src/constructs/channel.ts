import type { Construct } from 'constructs';
import { z } from 'zod';
import { ChannelSchema } from '../model/desired-state';
import type { DesiredChannel, Retention } from '../model/desired-state';
import type { ChannelProperty } from '../model/ignorable';
import { LIMITS, MEMBERSHIP_MODES, TOPICS_POLICIES } from '../model/kinds';
import type { MembershipMode, TopicsPolicy } from '../model/kinds';
import { CHANNEL_PERMISSIONS, CHANNEL_PERMISSION_NAMES } from '../model/permissions';
import { channelPrivacyProblems, checkChannelDescription, checkChannelName } from '../model/rules';
import type { ChannelFolder } from './channel-folder';
import {
  checkEmails,
  checkGroupReference,
  checkPermission,
  lengthProblem,
  strippedNameProblems,
} from './checks';
import { groupNameOf, isGroupReference, resolvePermission, resolvePermissions } from './permission';
import type { GroupReference, PermissionValue } from './permission';
import {
  definedProps,
  emailSchema,
  groupRefSchema,
  lifecycleShape,
  permissionShape,
  resourceRefSchema,
} from './props';
import { KeyedResource } from './resource';
import type { ResourceOptions } from './resource';
import { SystemGroup } from './system-group';
import { resourceGuard } from './symbols';

/** Who is subscribed to a channel. */
export interface ChannelSubscribers {
  /**
   * `exact`: users not declared here (directly or through a group) are unsubscribed.
   * `atLeast`: the declared users are subscribed, others are left alone.
   * @default 'atLeast'
   */
  readonly mode?: MembershipMode;
  /**
   * Users by e-mail address.
   * @default - no users
   */
  readonly users?: readonly string[];
  /**
   * Groups whose members are subscribed (expanded to their members at plan time; people who
   * join the group later are subscribed at the next apply).
   * @default - no groups
   */
  readonly groups?: readonly GroupReference[];
}

/** Props of a {@link Channel}. */
export interface ChannelProps extends ResourceOptions<ChannelProperty> {
  /** The channel's name: at most 60 characters, unique case-insensitively. */
  readonly name: string;
  /**
   * A Markdown description, on one line (at most 1024 characters).
   * @default '' (Zulip's default)
   */
  readonly description?: string;
  /**
   * Private (invite-only): only subscribers see it.
   * @default false
   */
  readonly private?: boolean;
  /**
   * Web-public: readable without an account. Needs a public channel with public history, and
   * the server and organization must allow web-public channels.
   * @default false
   */
  readonly webPublic?: boolean;
  /**
   * Whether new subscribers can read the messages sent before they joined. Must be true for
   * public channels.
   * @default - Zulip's default: true for public channels, false for private ones
   */
  readonly historyPublicToSubscribers?: boolean;
  /**
   * New users are subscribed to it. A default channel cannot be private.
   * @default false
   */
  readonly defaultChannel?: boolean;
  /**
   * Days before messages are deleted, `'realm_default'` (the organization's policy) or
   * `'unlimited'`. Changing it needs an owner's account.
   * @default 'realm_default'
   */
  readonly messageRetentionDays?: Retention;
  /**
   * Whether messages may be sent without a topic (feature level 392; `empty_topic_only` 404).
   * @default 'inherit'
   */
  readonly topicsPolicy?: TopicsPolicy;
  /**
   * The folder it is shown in.
   * @default - in no folder
   */
  readonly folder?: ChannelFolder;
  /**
   * Archive the channel (Zulip keeps its name reserved).
   * @default false
   */
  readonly archived?: boolean;
  /**
   * Who is subscribed.
   * @default - subscriptions are not managed
   */
  readonly subscribers?: ChannelSubscribers;
  /**
   * When the channel is created, announce it through the notification bot.
   * @default false
   */
  readonly announce?: boolean;
  /**
   * Who can subscribe other users (feature level 342).
   * @default - Zulip's default: SystemGroup.NOBODY (administrators always can)
   */
  readonly canAddSubscribersGroup?: PermissionValue;
  /**
   * Who can administer the channel (feature level 325).
   * @default - Zulip's default: the channel's creator (the applying account)
   */
  readonly canAdministerChannelGroup?: PermissionValue;
  /**
   * Who can start new topics (feature level 441).
   * @default - Zulip's default: SystemGroup.EVERYONE
   */
  readonly canCreateTopicGroup?: PermissionValue;
  /**
   * Who can delete any message (feature level 407).
   * @default - Zulip's default: SystemGroup.NOBODY
   */
  readonly canDeleteAnyMessageGroup?: PermissionValue;
  /**
   * Who can delete their own messages (feature level 407).
   * @default - Zulip's default: SystemGroup.NOBODY
   */
  readonly canDeleteOwnMessageGroup?: PermissionValue;
  /**
   * Who can move messages out of the channel (feature level 396).
   * @default - Zulip's default: SystemGroup.NOBODY
   */
  readonly canMoveMessagesOutOfChannelGroup?: PermissionValue;
  /**
   * Who can move messages between topics of the channel (feature level 396).
   * @default - Zulip's default: SystemGroup.NOBODY
   */
  readonly canMoveMessagesWithinChannelGroup?: PermissionValue;
  /**
   * Who can unsubscribe other users.
   * @default - Zulip's default: SystemGroup.ADMINISTRATORS
   */
  readonly canRemoveSubscribersGroup?: PermissionValue;
  /**
   * Who can resolve topics (feature level 402).
   * @default - Zulip's default: SystemGroup.NOBODY
   */
  readonly canResolveTopicsGroup?: PermissionValue;
  /**
   * Who can post (feature level 333).
   * @default - Zulip's default: SystemGroup.EVERYONE
   */
  readonly canSendMessageGroup?: PermissionValue;
  /**
   * Who can subscribe themselves, even to a private channel (feature level 357).
   * @default - Zulip's default: SystemGroup.NOBODY
   */
  readonly canSubscribeGroup?: PermissionValue;
}

/** The settings whose props are the desired entry's fields, checked and written as they are. */
const AS_DESIRED = {
  description: true,
  private: true,
  webPublic: true,
  historyPublicToSubscribers: true,
  defaultChannel: true,
} as const;

const PropsSchema = z.strictObject({
  name: z.string(),
  ...ChannelSchema.pick(AS_DESIRED).shape,
  messageRetentionDays: z
    .custom<Retention>(
      (v) =>
        (typeof v === 'number' && Number.isInteger(v) && v > 0) ||
        v === 'realm_default' ||
        v === 'unlimited',
      { message: "expected a positive whole number of days, 'realm_default' or 'unlimited'" },
    )
    .optional(),
  topicsPolicy: z.enum(TOPICS_POLICIES).optional(),
  folder: resourceRefSchema<ChannelFolder>(
    'channelFolder',
    'expected a ChannelFolder construct',
  ).optional(),
  archived: z.boolean().optional(),
  subscribers: z
    .strictObject({
      mode: z.enum(MEMBERSHIP_MODES).optional(),
      users: z.array(emailSchema).optional(),
      groups: z.array(groupRefSchema).optional(),
    })
    .optional(),
  announce: z.boolean().optional(),
  ...permissionShape(CHANNEL_PERMISSION_NAMES),
  ...lifecycleShape('channel'),
});

/** A subscriber: a user by e-mail, or a group whose members are subscribed. */
export type Subscriber = string | GroupReference;

/**
 * A channel (stream): its settings, its permission settings and, optionally, who is
 * subscribed.
 *
 * @example
 * const leadership = new UserGroup(org, 'leadership-group', {
 *   name: 'leadership',
 *   members: ['ceo@example.com', 'cto@example.com'],
 * });
 * new Channel(org, 'leadership', {
 *   name: 'leadership',
 *   description: 'Leadership team only',
 *   private: true,
 *   historyPublicToSubscribers: true,
 *   canAdministerChannelGroup: SystemGroup.ADMINISTRATORS,
 *   subscribers: { mode: 'exact', groups: [leadership] },
 * });
 */
export class Channel extends KeyedResource<ChannelProps> {
  /** True when `x` is a {@link Channel}. */
  public static readonly isChannel = resourceGuard<Channel>('channel');

  /** The channel's name, its natural key. */
  public readonly channelName: string = this.props?.name;
  private readonly extraSubscribers: unknown[] = [];

  public constructor(scope: Construct, id: string, props: ChannelProps) {
    super(scope, id, 'channel', 'Channel', PropsSchema, props, 'name');
  }

  /** Whether the channel is declared archived. */
  public get archived(): boolean {
    return this.props.archived === true;
  }

  /** The folder the channel is declared in. */
  public get folder(): ChannelFolder | undefined {
    return this.props.folder;
  }

  /**
   * Subscribes users (by e-mail) and groups. Subscriptions become managed (mode `atLeast`
   * unless `subscribers.mode` says otherwise).
   */
  public addSubscribers(...subscribers: Subscriber[]): this {
    this.extraSubscribers.push(...subscribers);
    return this;
  }

  protected override keyNote(): string {
    return ' (channel names are compared case-insensitively)';
  }

  private subscriberLists(): { users: unknown[]; groups: unknown[] } {
    const users: unknown[] = [...(this.props.subscribers?.users ?? [])];
    const groups: unknown[] = [...(this.props.subscribers?.groups ?? [])];
    for (const s of this.extraSubscribers) {
      if (isGroupReference(s)) groups.push(s);
      else users.push(s);
    }
    return { users, groups };
  }

  protected validateResource(): string[] {
    const problems: string[] = [];
    const p = this.props;
    problems.push(...strippedNameProblems(p.name, checkChannelName(p.name), 'channel'));
    if (p.description !== undefined) {
      if (checkChannelDescription(p.description) !== undefined)
        problems.push(...lengthProblem('description', p.description, LIMITS.channelDescription));
      if (/[\r\n]/.test(p.description)) {
        problems.push(
          'description contains line breaks, which Zulip replaces with spaces (the plan would never be empty): write it on one line',
        );
      }
    }
    const isPrivate = p.private === true;
    // Zulip's cross-field rules. `web-public-protected-history` is left out: it never breaks
    // alone (a web-public channel with protected history is private, or public with protected
    // history), and the message of the other rule says what to change.
    const broken = new Set(
      channelPrivacyProblems({
        private: isPrivate,
        webPublic: Boolean(p.webPublic),
        historyPublicToSubscribers: p.historyPublicToSubscribers !== false,
        defaultChannel: Boolean(p.defaultChannel),
      }).map((x) => x.rule),
    );
    if (broken.has('default-private')) {
      problems.push(
        'a default channel cannot be private (Zulip: "A default channel cannot be private."): unset defaultChannel or private',
      );
    }
    if (broken.has('web-public-private')) {
      problems.push('a web-public channel cannot be private: unset webPublic or private');
    }
    if (broken.has('public-protected-history')) {
      problems.push(
        p.webPublic
          ? 'a web-public channel needs history public to subscribers: remove historyPublicToSubscribers: false'
          : 'a public channel always has history public to subscribers: remove historyPublicToSubscribers: false, or make the channel private',
      );
    }
    if (p.historyPublicToSubscribers === false && p.canCreateTopicGroup !== undefined) {
      const v = resolvePermission(p.canCreateTopicGroup);
      if (v !== 'role:everyone') {
        problems.push(
          'historyPublicToSubscribers: false needs canCreateTopicGroup to be SystemGroup.EVERYONE: change one of them',
        );
      }
    }
    if (p.archived && p.defaultChannel) {
      problems.push('an archived channel cannot be a default channel: unset defaultChannel');
    }
    if (p.folder !== undefined) {
      const foreign = this.foreignReference(p.folder, 'folder');
      if (foreign) problems.push(foreign);
    }
    for (const name of CHANNEL_PERMISSION_NAMES) {
      const v = p[name];
      if (v !== undefined)
        problems.push(...checkPermission(this, name, CHANNEL_PERMISSIONS[name], v));
    }
    const { users, groups } = this.subscriberLists();
    problems.push(...checkEmails(users, 'subscribers'));
    for (const g of groups) {
      if (!isGroupReference(g)) continue;
      if (g === SystemGroup.INTERNET || g === SystemGroup.NOBODY) {
        problems.push(`subscribers lists ${g.groupName}, which has no members: remove it`);
        continue;
      }
      problems.push(...checkGroupReference(this, g, 'subscribers'));
    }
    return problems;
  }

  /** @internal */
  public _toDesired(): DesiredChannel {
    const p = this.props;
    const managed = p.subscribers !== undefined || this.extraSubscribers.length > 0;
    const { users, groups } = this.subscriberLists();
    return {
      ...this.desiredBase(),
      name: p.name,
      ...definedProps(p, Object.keys(AS_DESIRED) as (keyof typeof AS_DESIRED)[]),
      ...definedProps(p, ['messageRetentionDays', 'topicsPolicy', 'archived', 'announce']),
      ...(p.folder !== undefined && { folder: p.folder.folderName }),
      permissions: resolvePermissions(CHANNEL_PERMISSION_NAMES, (n) => p[n]),
      ...(managed && {
        subscribers: {
          mode: p.subscribers?.mode ?? 'atLeast',
          users: [...new Set(users as string[])].sort(),
          groups: [...new Set((groups as GroupReference[]).map(groupNameOf))].sort(),
        },
      }),
    };
  }
}
