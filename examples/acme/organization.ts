import path from 'node:path';
import type { Construct } from 'constructs';
import {
  AllowedDomain,
  Channel,
  ChannelFolder,
  CodePlayground,
  DefaultChannelGroup,
  CustomEmoji,
  CustomProfileField,
  DefaultUserSettings,
  Linkifier,
  Organization,
  OrganizationSettings,
  Permission,
  SavedSnippet,
  SubscriptionSettings,
  SystemGroup,
  User,
  UserGroup,
} from 'zulip-cdk';
import { emailDomain, people } from './people';
import { Team } from './team';

/**
 * Acme's Zulip organization. A function of its scope, so the same organization can be
 * synthesized by `main.ts`, by a cdktf stack, or in a unit test.
 */
export function acme(scope: Construct, id = 'acme'): Organization {
  const org = new Organization(scope, id, { prune: { linkifier: true }, maxRemovals: 5 });

  // Custom profile fields, shown in this order; users' values are on the users, by label.
  const team = new CustomProfileField(org, 'team-field', {
    name: 'Team',
    type: 'choice',
    choices: ['Engineering', 'Design', 'Support'],
    displayInProfileSummary: true,
  });
  const manager = new CustomProfileField(org, 'manager-field', {
    name: 'Manager',
    type: 'user',
    hint: 'Who you report to',
    editableByUser: false,
  });

  // Roles. The owner applies the configuration: keep at least one owner.
  new User(org, 'olivia', { email: people.olivia, role: 'owner' });
  new User(org, 'ada', {
    email: people.ada,
    role: 'administrator',
    profile: { [team.name]: 'Engineering', [manager.name]: [people.olivia] },
  });
  new User(org, 'alice', {
    email: people.alice,
    profile: { [team.name]: 'Engineering', [manager.name]: [people.ada] },
  });
  new User(org, 'alan', { email: people.alan, role: 'administrator' });
  new User(org, 'mona', { email: people.mona, role: 'moderator' });
  new User(org, 'gus', { email: people.gus, role: 'guest' });
  // Offboarding goes through review too: active: false deactivates the account (and its bots).
  new User(org, 'frank', { email: people.frank, active: false });

  // A custom emoji: the image is a file next to this one; the plan shows its SHA-256.
  new CustomEmoji(org, 'shipit', {
    name: 'shipit',
    image: path.join(__dirname, 'emoji', 'shipit.png'),
  });

  // Folders, shown in this order.
  const company = new ChannelFolder(org, 'company-folder', {
    name: 'Company',
    description: 'News and conversations for everyone',
  });
  const engineeringFolder = new ChannelFolder(org, 'engineering-folder', {
    name: 'Engineering',
    description: 'Channels for **engineering** discussions',
  });
  const supportFolder = new ChannelFolder(org, 'support-folder', {
    name: 'Support',
    description: 'Customer support',
  });

  // Engineering: one line per team, and a group of all engineers.
  const backend = new Team(org, 'backend', {
    name: 'backend',
    description: 'Backend engineers',
    lead: people.alice,
    members: [people.bob],
    folder: engineeringFolder,
  });
  const frontend = new Team(org, 'frontend', {
    name: 'frontend',
    description: 'Frontend engineers',
    lead: people.carol,
    members: [],
    folder: engineeringFolder,
  });
  const platform = new Team(org, 'platform', {
    name: 'platform',
    description: 'Platform and infrastructure',
    lead: people.mona,
    members: [people.bob],
    folder: engineeringFolder,
  });
  const engineering = new UserGroup(org, 'engineering-group', {
    name: 'engineering',
    description: 'All engineers',
    subgroups: [backend.group, frontend.group, platform.group],
    canManageGroup: SystemGroup.ADMINISTRATORS,
    canAddMembersGroup: SystemGroup.ADMINISTRATORS,
  });
  const engineeringChannel = new Channel(org, 'engineering', {
    name: 'engineering',
    description: 'Engineering talk',
    folder: engineeringFolder,
    canAdministerChannelGroup: SystemGroup.ADMINISTRATORS,
    canMoveMessagesWithinChannelGroup: engineering,
    canResolveTopicsGroup: engineering,
    subscribers: { mode: 'atLeast', groups: [engineering] },
  });

  const design = new UserGroup(org, 'design-group', {
    name: 'design',
    description: 'Designers',
    members: [people.dave, people.erin],
    canManageGroup: SystemGroup.ADMINISTRATORS,
    canAddMembersGroup: SystemGroup.ADMINISTRATORS,
  });
  new Channel(org, 'design', {
    name: 'design',
    description: 'Design reviews',
    canAdministerChannelGroup: SystemGroup.ADMINISTRATORS,
    subscribers: { groups: [design] },
  });

  // Support: a team with its own folder; engineers can join the channel themselves.
  const support = new UserGroup(org, 'support-group', {
    name: 'support',
    description: 'Customer support',
    members: [people.erin, people.dave],
    canManageGroup: SystemGroup.ADMINISTRATORS,
    canAddMembersGroup: SystemGroup.ADMINISTRATORS,
    canJoinGroup: SystemGroup.MODERATORS,
  });
  new Channel(org, 'support', {
    name: 'support',
    description: 'Customer questions and escalations',
    folder: supportFolder,
    canAdministerChannelGroup: SystemGroup.ADMINISTRATORS,
    canResolveTopicsGroup: Permission.anyOf({ groups: [support, engineering] }),
    subscribers: { mode: 'atLeast', groups: [support] },
  });
  new Channel(org, 'escalations', {
    name: 'escalations',
    description: 'Incidents that need an engineer now',
    folder: supportFolder,
    private: true,
    historyPublicToSubscribers: true,
    canAdministerChannelGroup: SystemGroup.ADMINISTRATORS,
    canSubscribeGroup: engineering,
    canAddSubscribersGroup: support,
    subscribers: { mode: 'atLeast', groups: [support, platform.group] },
  });

  // New engineers pick these at sign-up, as one set.
  new DefaultChannelGroup(org, 'engineering-channels', {
    name: 'Engineering',
    description: 'Channels for engineers',
    channels: [engineeringChannel, backend.channel, frontend.channel, platform.channel],
  });

  // Company-wide channels.
  new Channel(org, 'general', {
    name: 'general',
    description: 'Everyone, everything',
    defaultChannel: true,
    folder: company,
    canAdministerChannelGroup: SystemGroup.ADMINISTRATORS,
  });
  const announcements = new Channel(org, 'announcements', {
    name: 'announcements',
    description: 'Company news',
    defaultChannel: true,
    folder: company,
    canAdministerChannelGroup: SystemGroup.ADMINISTRATORS,
    canSendMessageGroup: SystemGroup.ADMINISTRATORS,
    canCreateTopicGroup: SystemGroup.ADMINISTRATORS,
  });

  // The organization's own policy: who may create channels, invite people, manage groups,
  // move and delete messages; and what an administrator reviews. Settings left out stay as
  // they are. inviteRequired, emailsRestrictedToDomains, waitingPeriodThreshold,
  // canInviteUsersGroup and canManageAllGroups need an owner's API key (the plan says so
  // otherwise).
  new OrganizationSettings(org, 'settings', {
    name: 'Acme',
    description: 'Where Acme talks',
    inviteRequired: true,
    emailsRestrictedToDomains: true,
    waitingPeriodThreshold: 3,
    newChannelAnnouncementsChannel: announcements,
    signupAnnouncementsChannel: announcements,
    messageContentEditLimitSeconds: 3600,
    messageContentDeleteLimitSeconds: 'unlimited',
    topicsPolicy: 'disable_empty_topic',
    // Video calls on the server's Jitsi Meet; GIFs up to PG.
    videoChatProvider: 'jitsi_meet',
    jitsiServerUrl: null,
    giphyRating: 'pg',
    canCreatePublicChannelGroup: SystemGroup.FULL_MEMBERS,
    canCreatePrivateChannelGroup: SystemGroup.MEMBERS,
    canCreateWebPublicChannelGroup: SystemGroup.NOBODY,
    canInviteUsersGroup: SystemGroup.ADMINISTRATORS,
    canManageAllGroups: SystemGroup.ADMINISTRATORS,
    canMoveMessagesBetweenChannelsGroup: SystemGroup.MODERATORS,
    canMentionManyUsersGroup: SystemGroup.MODERATORS,
    canAddCustomEmojiGroup: SystemGroup.FULL_MEMBERS,
    canDeleteAnyMessageGroup: SystemGroup.ADMINISTRATORS,
    directMessagePermissionGroup: Permission.anyOf({ groups: [SystemGroup.MEMBERS] }),
  });

  // Only addresses at the company's domain may sign up (emailsRestrictedToDomains above); an
  // owner's API key too.
  new AllowedDomain(org, 'company-domain', { domain: emailDomain });

  // What new people start with; existing users keep their own settings.
  new DefaultUserSettings(org, 'user-defaults', {
    twentyFourHourTime: true,
    enableDigestEmails: false,
    emailNotificationsBatchingPeriodSeconds: 300,
  });

  // Leadership only: private, exactly the owners and administrators, protected from archiving.
  const leadership = new UserGroup(org, 'leadership-group', {
    name: 'leadership',
    description: 'Owners and administrators',
    members: [people.olivia, people.ada, people.alan],
    canManageGroup: SystemGroup.OWNERS,
    canAddMembersGroup: SystemGroup.OWNERS,
    canMentionGroup: SystemGroup.MEMBERS,
  });
  new Channel(org, 'leadership', {
    name: 'leadership',
    description: 'Private: owners and administrators',
    private: true,
    historyPublicToSubscribers: true,
    canAdministerChannelGroup: SystemGroup.OWNERS,
    canRemoveSubscribersGroup: SystemGroup.OWNERS,
    subscribers: { mode: 'exact', groups: [leadership] },
    protect: true,
  });

  // The issue tracker, linkified; any other linkifier would be deleted (prune.linkifier above).
  new Linkifier(org, 'github-issues', {
    pattern: '#(?P<id>[0-9]+)',
    urlTemplate: 'https://github.com/acme/app/issues/{id}',
  });
  new Linkifier(org, 'jira', {
    pattern: '\\b(?P<project>ACME|OPS)-(?P<number>[0-9]+)\\b',
    urlTemplate: 'https://acme.atlassian.net/browse/{project}-{number}',
  });

  new CodePlayground(org, 'python-tutor', {
    name: 'Python Tutor',
    pygmentsLanguage: 'python',
    urlTemplate: 'https://pythontutor.com/visualize.html#code={code}',
  });
  new CodePlayground(org, 'rust-playground', {
    name: 'Rust Playground',
    pygmentsLanguage: 'rust',
    urlTemplate: 'https://play.rust-lang.org/?edition=2021&code={code}',
  });

  // The applying account's own snippets and subscription settings.
  new SavedSnippet(org, 'welcome', {
    title: 'Welcome',
    content: 'Welcome to Acme! Read #**general** first.',
    ignoreChanges: ['content'],
  });
  new SavedSnippet(org, 'escalate', {
    title: 'Escalate',
    content: 'Thanks for the report! I am escalating this to #**escalations**.',
  });
  new SubscriptionSettings(org, 'pin-announcements', {
    channel: announcements,
    pinToTop: true,
  });

  return org;
}
