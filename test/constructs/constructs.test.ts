import { Construct } from 'constructs';
import {
  App,
  Channel,
  ChannelFolder,
  CodePlayground,
  Linkifier,
  Organization,
  Permission,
  SavedSnippet,
  SubscriptionSettings,
  SystemGroup,
  Testing,
  User,
  UserGroup,
  ZulipResource,
} from 'zulip-cdk';
import { thrownError } from '../support/errors';

describe('constructs synthesize to natural keys', () => {
  test('a channel with every attribute', () => {
    const org = Testing.organization('acme');
    const folder = new ChannelFolder(org, 'eng', { name: 'Engineering' });
    const eng = new UserGroup(org, 'eng-group', { name: 'engineering', members: ['a@x.io'] });
    new Channel(org, 'backend', {
      name: 'backend',
      description: 'Backend talk',
      private: true,
      webPublic: false,
      historyPublicToSubscribers: true,
      defaultChannel: false,
      messageRetentionDays: 30,
      topicsPolicy: 'disable_empty_topic',
      folder,
      archived: false,
      announce: true,
      canAddSubscribersGroup: eng,
      canAdministerChannelGroup: SystemGroup.ADMINISTRATORS,
      canCreateTopicGroup: SystemGroup.EVERYONE,
      canDeleteAnyMessageGroup: SystemGroup.MODERATORS,
      canDeleteOwnMessageGroup: SystemGroup.MEMBERS,
      canMoveMessagesOutOfChannelGroup: SystemGroup.NOBODY,
      canMoveMessagesWithinChannelGroup: Permission.anyOf({ groups: [eng] }),
      canRemoveSubscribersGroup: Permission.anyOf({}),
      canResolveTopicsGroup: Permission.anyOf({
        users: ['z@x.io', 'b@x.io', 'b@x.io'],
        groups: [SystemGroup.MODERATORS, eng],
      }),
      canSendMessageGroup: SystemGroup.FULL_MEMBERS,
      canSubscribeGroup: SystemGroup.OWNERS,
      subscribers: { mode: 'exact', users: ['c@x.io'], groups: [eng] },
      protect: true,
      ignoreChanges: ['description', 'canSendMessageGroup'],
      renamedFrom: 'back-end',
    });
    const state = Testing.synth(org);
    expect(state.channels).toEqual([
      {
        path: 'acme/backend',
        lifecycle: {
          protect: true,
          ignoreChanges: ['canSendMessageGroup', 'description'],
          renamedFrom: ['back-end'],
        },
        name: 'backend',
        description: 'Backend talk',
        private: true,
        webPublic: false,
        historyPublicToSubscribers: true,
        defaultChannel: false,
        messageRetentionDays: 30,
        topicsPolicy: 'disable_empty_topic',
        folder: 'Engineering',
        archived: false,
        announce: true,
        permissions: {
          canAddSubscribersGroup: 'engineering',
          canAdministerChannelGroup: 'role:administrators',
          canCreateTopicGroup: 'role:everyone',
          canDeleteAnyMessageGroup: 'role:moderators',
          canDeleteOwnMessageGroup: 'role:members',
          canMoveMessagesOutOfChannelGroup: 'role:nobody',
          // A set holding one group is that group; an empty set is role:nobody.
          canMoveMessagesWithinChannelGroup: 'engineering',
          canRemoveSubscribersGroup: 'role:nobody',
          canResolveTopicsGroup: {
            users: ['b@x.io', 'z@x.io'],
            groups: ['engineering', 'role:moderators'],
          },
          canSendMessageGroup: 'role:fullmembers',
          canSubscribeGroup: 'role:owners',
        },
        subscribers: { mode: 'exact', users: ['c@x.io'], groups: ['engineering'] },
      },
    ]);
  });

  test('absent optional props stay absent; absent subscribers are not managed', () => {
    const org = Testing.organization();
    new Channel(org, 'general', { name: 'general' });
    const state = Testing.synth(org);
    expect(state.channels).toEqual([{ path: 'test/general', name: 'general', permissions: {} }]);
  });

  test('addSubscribers makes subscriptions managed (atLeast) and merges with the props', () => {
    const org = Testing.organization();
    const g = new UserGroup(org, 'g', { name: 'g' });
    const ch = new Channel(org, 'c', { name: 'c', subscribers: { users: ['b@x.io'] } });
    ch.addSubscribers('a@x.io', g, 'b@x.io');
    const bare = new Channel(org, 'd', { name: 'd' });
    bare.addSubscribers(SystemGroup.MEMBERS);
    const [c, d] = Testing.synth(org).channels;
    expect(c?.subscribers).toEqual({ mode: 'atLeast', users: ['a@x.io', 'b@x.io'], groups: ['g'] });
    expect(d?.subscribers).toEqual({ mode: 'atLeast', users: [], groups: ['role:members'] });
  });

  test('user groups: members, subgroups, mode defaults, permissions', () => {
    const org = Testing.organization();
    const a = new UserGroup(org, 'a', { name: 'alpha', members: ['z@x.io', 'y@x.io'] });
    const b = new UserGroup(org, 'b', {
      name: 'beta',
      description: 'B',
      subgroups: [a, SystemGroup.MODERATORS],
      canManageGroup: SystemGroup.ADMINISTRATORS,
      canMentionGroup: Permission.anyOf({ users: ['q@x.io'], groups: [a] }),
      deactivated: false,
    });
    b.addMembers('m@x.io');
    new UserGroup(org, 'c', { name: 'gamma' });
    new UserGroup(org, 'd', { name: 'delta', membershipMode: 'atLeast', members: ['d@x.io'] });
    const groups = Testing.synth(org).userGroups;
    expect(groups.map((g) => g.name)).toEqual(['alpha', 'beta', 'delta', 'gamma']);
    expect(groups[0]?.members).toEqual({ mode: 'exact', users: ['y@x.io', 'z@x.io'], groups: [] });
    expect(groups[1]).toEqual({
      path: 'test/b',
      name: 'beta',
      description: 'B',
      members: { mode: 'exact', users: ['m@x.io'], groups: ['alpha', 'role:moderators'] },
      permissions: {
        canManageGroup: 'role:administrators',
        canMentionGroup: { users: ['q@x.io'], groups: ['alpha'] },
      },
      deactivated: false,
    });
    expect(groups[2]?.members).toEqual({ mode: 'atLeast', users: ['d@x.io'], groups: [] });
    // Declared without members: membership is left alone.
    expect(groups[3]?.members).toEqual({ mode: 'atLeast', users: [], groups: [] });
  });

  test('orders: folders and linkifiers by declaration, the rest sorted', () => {
    const org = Testing.organization('o', {
      prune: { channel: true, linkifier: false },
      maxRemovals: 3,
    });
    new ChannelFolder(org, 'z', { name: 'Zeta' });
    new ChannelFolder(org, 'a', { name: 'Alpha', description: 'first A', archived: false });
    new Linkifier(org, 'l2', { pattern: 'Z(?P<id>[0-9]+)', urlTemplate: 'https://z/{id}' });
    new Linkifier(org, 'l1', { pattern: 'A(?P<id>[0-9]+)', urlTemplate: 'https://a/{id}' });
    new CodePlayground(org, 'p2', {
      name: 'B',
      pygmentsLanguage: 'rust',
      urlTemplate: 'https://r/{code}',
    });
    new CodePlayground(org, 'p1', {
      name: 'Z',
      pygmentsLanguage: 'python',
      urlTemplate: 'https://p/{code}',
    });
    new CodePlayground(org, 'p0', {
      name: 'A',
      pygmentsLanguage: 'python',
      urlTemplate: 'https://q/{code}',
    });
    new SavedSnippet(org, 's2', { title: 'b', content: 'B' });
    new SavedSnippet(org, 's1', { title: 'a', content: 'A' });
    new User(org, 'u2', { email: 'zed@x.io', role: 'member', fullName: 'Zed' });
    new User(org, 'u1', { email: 'amy@x.io', role: 'owner' });
    const ch2 = new Channel(org, 'c2', { name: 'beta' });
    const ch1 = new Channel(org, 'c1', { name: 'Alpha' });
    new SubscriptionSettings(org, 'ss2', { channel: ch2, color: '#abc', isMuted: true });
    new SubscriptionSettings(org, 'ss1', {
      channel: ch1,
      pinToTop: true,
      desktopNotifications: false,
      audibleNotifications: true,
      pushNotifications: false,
      emailNotifications: true,
      wildcardMentionsNotify: false,
    });
    const s = Testing.synth(org);
    expect(s.organization).toEqual({
      id: 'o',
      path: 'o',
      prune: { channel: true, linkifier: false },
      maxRemovals: 3,
    });
    expect(s.channelFolders.map((f) => f.name)).toEqual(['Zeta', 'Alpha']);
    expect(s.linkifiers.map((l) => l.pattern)).toEqual(['Z(?P<id>[0-9]+)', 'A(?P<id>[0-9]+)']);
    expect(s.playgrounds.map((p) => `${p.pygmentsLanguage}/${p.name}`)).toEqual([
      'python/A',
      'python/Z',
      'rust/B',
    ]);
    expect(s.savedSnippets.map((x) => x.title)).toEqual(['a', 'b']);
    expect(s.users).toEqual([
      { path: 'o/u1', email: 'amy@x.io', role: 'owner' },
      { path: 'o/u2', email: 'zed@x.io', role: 'member', fullName: 'Zed' },
    ]);
    expect(s.channels.map((c) => c.name)).toEqual(['Alpha', 'beta']);
    expect(s.subscriptionSettings).toEqual([
      {
        path: 'o/ss1',
        channel: 'Alpha',
        pinToTop: true,
        desktopNotifications: false,
        audibleNotifications: true,
        pushNotifications: false,
        emailNotifications: true,
        wildcardMentionsNotify: false,
      },
      { path: 'o/ss2', channel: 'beta', color: '#abc', isMuted: true },
    ]);
  });

  test('playground renamedFrom names earlier names in the same language', () => {
    const org = Testing.organization();
    new CodePlayground(org, 'p', {
      name: 'Tutor',
      pygmentsLanguage: 'python',
      urlTemplate: 'https://p/{code}',
      renamedFrom: ['Python Tutor'],
    });
    expect(Testing.synth(org).playgrounds[0]?.lifecycle).toEqual({
      renamedFrom: ['python/Python Tutor'],
    });
  });

  test('resources nest inside user constructs (composition)', () => {
    class Team extends Construct {
      public readonly group: UserGroup;
      public constructor(scope: Construct, id: string, members: string[]) {
        super(scope, id);
        this.group = new UserGroup(this, 'group', { name: id, members });
        new Channel(this, 'channel', { name: id, subscribers: { groups: [this.group] } });
      }
    }
    const org = Testing.organization('acme');
    const t = new Team(org, 'backend', ['a@x.io']);
    expect(Organization.of(t.group)).toBe(org);
    const s = Testing.synth(org);
    expect(s.channels[0]?.path).toBe('acme/backend/channel');
    expect(s.userGroups[0]?.path).toBe('acme/backend/group');
  });

  test('isX helpers and of()', () => {
    const org = Testing.organization();
    const g = new UserGroup(org, 'g', { name: 'g' });
    const c = new Channel(org, 'c', { name: 'c' });
    const f = new ChannelFolder(org, 'f', { name: 'f' });
    expect(UserGroup.isUserGroup(g)).toBe(true);
    expect(UserGroup.isUserGroup(c)).toBe(false);
    expect(Channel.isChannel(c)).toBe(true);
    expect(ChannelFolder.isChannelFolder(f)).toBe(true);
    expect(ZulipResource.isZulipResource(g)).toBe(true);
    expect(Organization.isOrganization(org)).toBe(true);
    expect(SystemGroup.isSystemGroup(SystemGroup.OWNERS)).toBe(true);
    expect(Permission.isPermission(Permission.anyOf({}))).toBe(true);
    expect(Linkifier.isLinkifier(c)).toBe(false);
    expect(App.isApp(org.node.root)).toBe(true);
    expect(SystemGroup.ALL.map((s) => s.groupName)).toEqual([
      'role:internet',
      'role:everyone',
      'role:members',
      'role:fullmembers',
      'role:moderators',
      'role:administrators',
      'role:owners',
      'role:nobody',
    ]);
  });

  test('a resource outside an organization, and nested organizations, fail at once', () => {
    const app = Testing.app();
    expect(() => new Channel(app, 'c', { name: 'c' })).toThrow(/not inside an Organization/);
    const org = new Organization(app, 'o');
    thrownError(() => new Organization(org, 'inner'), 'NESTED_ORGANIZATION');
    expect(() => Organization.of(app)).toThrow(/not inside an Organization/);
  });
});
