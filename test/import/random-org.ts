/**
 * A randomly generated organization for the embedded server, from a seeded PRNG: many users
 * of every role, nested groups with explicit (anonymous) permission sets, self-referencing and
 * circular group permissions, private channels, folders in a custom order (one archived),
 * linkifiers in a custom order, an archived channel, a deactivated group, snippets and
 * subscription settings of the owner, and names that are hard to turn into code.
 */
import {
  addUser,
  emptyOrg,
  newSubscription,
  nextId,
  systemGroupId,
} from '../../src/emulator/state';
import type {
  OrgState,
  StoredChannel,
  StoredGroup,
  StoredGroupSetting,
  StoredUser,
  StoredCustomProfileField,
} from '../../src/emulator/state';
import { supports } from '../../src/model/features';
import { ROLES, TOPICS_POLICIES } from '../../src/model/kinds';
import type { SystemGroupName } from '../../src/model/kinds';
import { prng } from '../../bench/org-generator';
import { CHANNEL_PERMISSIONS, GROUP_PERMISSIONS } from '../../src/model/permissions';
import type { PermissionSettingInfo } from '../../src/model/permissions';

const TRICKY_NAMES = [
  'Café ☕ crew',
  'it\'s "quoted"',
  'back\\slash',
  '2024 plans',
  'default',
  'class',
  'Ünïcödé 🚀',
  'new',
  'QA-Team',
  'data science & ML',
  'a very long name that keeps going past thirty characters',
  'engineering',
];

export function randomOrg(seed: number, featureLevel: number): OrgState {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const some = <T>(xs: readonly T[], p: number): T[] => xs.filter(() => rnd() < p);
  const now = 1_700_000_000_000;
  const org = emptyOrg(now, `Random org ${seed}`);
  // Web-public channels exist; on odd seeds the organization has since turned them off.
  org.realm.webPublicStreamsEnabled = true;
  org.realm.enableSpectatorAccess = seed % 2 === 0;
  const domain = 'random.example';
  const owner = addUser(org, now, {
    email: `owner@${domain}`,
    fullName: 'Olivia Owner',
    role: ROLES.owner,
  });
  const users: StoredUser[] = [owner];
  const roles = [
    ROLES.member,
    ROLES.member,
    ROLES.member,
    ROLES.member,
    ROLES.administrator,
    ROLES.moderator,
    ROLES.guest,
    ROLES.owner,
  ];
  for (let i = 0; i < 30; i++)
    users.push(
      addUser(org, now, {
        email: `user${i}@${domain}`,
        fullName: `User ${i}`,
        role: pick(roles),
        isActive: i % 13 !== 5,
      }),
    );
  users.push(
    addUser(org, now, {
      email: `bot@${domain}`,
      fullName: 'A bot',
      role: ROLES.member,
      isBot: true,
      botOwnerId: owner.id,
    }),
  );
  const active = users.filter((u) => u.isActive);
  const sys = (name: SystemGroupName): number => systemGroupId(org, name);

  const groups: StoredGroup[] = [];
  /** A random setting value: a system group, a named group, an anonymous set, or the default. */
  const setting = (
    info: PermissionSettingInfo,
    creator: StoredUser | null,
    self: number | null,
  ): StoredGroupSetting => {
    const systems = (
      [
        'role:members',
        'role:fullmembers',
        'role:moderators',
        'role:administrators',
        'role:owners',
        'role:nobody',
      ] as SystemGroupName[]
    ).concat(info.allowEveryone ? ['role:everyone'] : []);
    const r = rnd();
    if (r < 0.35) {
      if (info.default === 'creator')
        return creator
          ? { direct_members: [creator.id], direct_subgroups: [] }
          : sys('role:nobody');
      return sys(info.default);
    }
    if (r < 0.55) return sys(pick(systems));
    const named = groups.filter((g) => !g.deactivated).map((g) => g.id);
    if (self !== null && r < 0.62) return self;
    if (r < 0.8 && named.length > 0) return pick(named);
    const members = some(active, 0.1)
      .slice(0, 3)
      .map((u) => u.id)
      .sort((a, b) => a - b);
    const subgroups = [
      ...some(named, 0.15).slice(0, 2),
      ...(rnd() < 0.3 ? [sys('role:administrators')] : []),
    ].sort((a, b) => a - b);
    if (members.length + subgroups.length < 2)
      return { direct_members: [owner.id], direct_subgroups: [sys('role:moderators')] };
    return { direct_members: members, direct_subgroups: subgroups };
  };

  const groupNames = [
    ...TRICKY_NAMES,
    ...Array.from({ length: 10 }, (_, i) => `team-${String.fromCharCode(97 + i)}`),
  ];
  for (const name of groupNames) {
    const id = nextId(org);
    const creator = rnd() < 0.15 ? null : pick(active.filter((u) => !u.isBot));
    const g: StoredGroup = {
      id,
      name,
      description: rnd() < 0.3 ? '' : `The ${name} group.\nSecond line with 'quotes' and \\`,
      isSystemGroup: false,
      members: some(users, 0.12).map((u) => u.id),
      subgroups: some(groups, 0.15).map((x) => x.id),
      deactivated: false,
      creatorId: creator?.id ?? null,
      dateCreated: 1_700_000_000,
      settings: {},
    };
    groups.push(g);
    org.groups.push(g);
  }
  // Permissions once every group exists, so that they can point forwards (cycles) and at themselves.
  for (const g of groups) {
    const creator = users.find((u) => u.id === g.creatorId) ?? null;
    for (const info of Object.values(GROUP_PERMISSIONS) as PermissionSettingInfo[])
      g.settings[info.wire] = setting(info, creator, g.id);
  }
  const retired: StoredGroup = {
    id: nextId(org),
    name: 'retired',
    description: 'Gone',
    isSystemGroup: false,
    members: [owner.id],
    subgroups: [],
    deactivated: true,
    creatorId: owner.id,
    dateCreated: 1_700_000_000,
    settings: Object.fromEntries(
      Object.values(GROUP_PERMISSIONS).map((i) => [
        i.wire,
        i.default === 'creator'
          ? { direct_members: [owner.id], direct_subgroups: [] }
          : sys(i.default),
      ]),
    ),
  };
  org.groups.push(retired);

  const folders = supports(featureLevel, 'channelFolders') ? 5 : 0;
  for (let i = 0; i < folders; i++) {
    org.folders.push({
      id: nextId(org),
      name: i === 2 ? 'Ärchive "old"' : `${pick(['Eng', 'Ops', 'Sales', 'HR'])} folder ${i}`,
      description: rnd() < 0.5 ? '' : `Folder ${i} with **markdown**`,
      order: Math.floor(rnd() * 1000),
      isArchived: i === 2,
      creatorId: owner.id,
      dateCreated: 1_700_000_000,
    });
  }
  // Orders as Zulip leaves them after a reorder (try_reorder_realm_channel_folders: the
  // positions 0..n-1), drawn at random: Zulip gives a new folder its ID as order
  // (check_add_channel_folder), below which no order of an older folder can be.
  const ranked = [...org.folders].sort((a, b) => a.order - b.order || a.id - b.id);
  ranked.forEach((f, i) => (f.order = i));
  const openFolders = org.folders.filter((f) => !f.isArchived);

  const channelNames = [...TRICKY_NAMES, ...Array.from({ length: 36 }, (_, i) => `channel ${i}`)];
  channelNames.forEach((name, i) => {
    const isPrivate = rnd() < 0.35;
    const archived = i === 7 || i === 30;
    const history = isPrivate ? rnd() < 0.5 : true;
    const creator = rnd() < 0.1 ? null : pick(active.filter((u) => !u.isBot));
    const ch: StoredChannel = {
      id: nextId(org),
      name,
      description: rnd() < 0.3 ? '' : `About ${name}: see https://example.com/?q=1&r=2`,
      inviteOnly: isPrivate,
      isWebPublic: !isPrivate && !archived && rnd() < 0.1,
      historyPublicToSubscribers: history,
      messageRetentionDays: rnd() < 0.1 ? pick([-1, 30, 365]) : null,
      isArchived: archived,
      folderId: openFolders.length > 0 && rnd() < 0.6 ? pick(openFolders).id : null,
      topicsPolicy: supports(featureLevel, 'topicsPolicy')
        ? pick(['inherit', 'inherit', ...TOPICS_POLICIES])
        : 'inherit',
      creatorId: creator?.id ?? null,
      dateCreated: 1_700_000_000,
      settings: {},
    };
    for (const info of Object.values(CHANNEL_PERMISSIONS) as PermissionSettingInfo[])
      ch.settings[info.wire] = setting(info, creator, null);
    if (!history) ch.settings.can_create_topic_group = sys('role:everyone');
    org.channels.push(ch);
    if (!isPrivate && !archived && rnd() < 0.15) org.defaultChannelIds.push(ch.id);
    const subscribers = some(users, 0.4);
    if (rnd() < 0.5 && !subscribers.includes(owner)) subscribers.push(owner);
    for (const u of subscribers)
      org.subscriptions.push({
        userId: u.id,
        channelId: ch.id,
        active: true,
        color: '#76ce90',
        isMuted: u === owner && rnd() < 0.3,
        pinToTop: u === owner && rnd() < 0.3,
        desktopNotifications: u === owner && rnd() < 0.3 ? rnd() < 0.5 : null,
        audibleNotifications: null,
        pushNotifications: u === owner && rnd() < 0.2 ? false : null,
        emailNotifications: null,
        wildcardMentionsNotify: null,
      });
  });
  // A private channel whose subscribers are exactly a group's members.
  const team = groups.find((g) => g.name === 'team-a');
  if (team) {
    team.subgroups = [];
    team.members = active.slice(1, 5).map((u) => u.id);
    const ch = org.channels.find((c) => c.name === 'channel 0');
    if (ch) {
      ch.inviteOnly = true;
      // Zulip has no private web-public channel.
      ch.isWebPublic = false;
      ch.isArchived = false;
      org.defaultChannelIds = org.defaultChannelIds.filter((id) => id !== ch.id);
      org.subscriptions = org.subscriptions.filter((s) => s.channelId !== ch.id);
      for (const id of team.members) org.subscriptions.push(newSubscription(id, ch.id));
    }
  }

  const linkifiers = [
    ['#(?P<id>[0-9]+)', 'https://github.com/acme/app/issues/{id}'],
    [
      '\\b(?P<project>ACME|OPS)-(?P<number>[0-9]+)\\b',
      'https://acme.atlassian.net/browse/{project}-{number}',
    ],
    ['RFC ?(?P<rfc>[0-9]+)', 'https://www.rfc-editor.org/rfc/rfc{rfc}'],
    ['!(?P<mr>[0-9]+)', 'https://gitlab.example.com/group/project/-/merge_requests/{mr}'],
    ['CVE-(?P<year>[0-9]{4})-(?P<n>[0-9]+)', 'https://nvd.nist.gov/vuln/detail/CVE-{year}-{n}'],
  ];
  linkifiers.forEach(([pattern, urlTemplate]) =>
    org.linkifiers.push({
      id: nextId(org),
      pattern: pattern ?? '',
      urlTemplate: urlTemplate ?? '',
      order: Math.floor(rnd() * 100),
      exampleInput: null,
      reverseTemplate: null,
      alternativeUrlTemplates: [],
    }),
  );
  for (const [name, lang, url] of [
    ['Python Tutor', 'python', 'https://pythontutor.com/visualize.html#code={code}'],
    ['Rust Playground', 'rust', 'https://play.rust-lang.org/?edition=2021&code={code}'],
    ['Go "play"', 'go', 'https://go.dev/play/?code={code}'],
  ] as const)
    org.playgrounds.push({ id: nextId(org), name, pygmentsLanguage: lang, urlTemplate: url });
  const snippet = (userId: number, title: string, content: string): void => {
    org.snippets.push({ id: nextId(org), userId, title, content, dateCreated: 1_700_000_000 });
  };
  snippet(owner.id, 'Welcome', 'Welcome!\nRead #**general** first.\n\n— the team');
  snippet(owner.id, "Don't panic", 'Tab\tand "quotes" and \\backslash and `code` and ${x}');
  snippet(owner.id, 'Welcome', 'A second snippet with the same title');
  const other = active.find((u) => u !== owner && !u.isBot);
  if (other) snippet(other.id, 'Mine', 'not the applying account');

  // Default channel groups (no random draws, so the rest of the organization is unchanged):
  // one with public channels, a private one the owner reads and a default channel (Zulip lets a
  // channel in a group become default), one empty, one with a quote in its name.
  const activeChannels = org.channels.filter((c) => !c.isArchived);
  const publicOnes = activeChannels.filter(
    (c) => !c.inviteOnly && !org.defaultChannelIds.includes(c.id),
  );
  const readable = activeChannels.find(
    (c) =>
      c.inviteOnly &&
      org.subscriptions.some((x) => x.channelId === c.id && x.userId === owner.id && x.active),
  );
  const defaultOne = activeChannels.find((c) => org.defaultChannelIds.includes(c.id));
  org.defaultChannelGroups = [
    {
      id: nextId(org),
      name: 'Newcomers',
      description: 'Where to start',
      channelIds: [
        ...publicOnes.slice(0, 3).map((c) => c.id),
        ...(readable ? [readable.id] : []),
        ...(defaultOne ? [defaultOne.id] : []),
      ],
    },
    { id: nextId(org), name: 'Empty', description: '', channelIds: [] },
    { id: nextId(org), name: 'Team "A"', description: 'Quotes', channelIds: [publicOnes[3]!.id] },
  ];

  // Custom profile fields (no random draws): every type, keys that are not numbers, an order
  // that is not by ID, a Twitter field Zulip named; values on a member, an administrator and a
  // deactivated user (whose values are left alone), a user field naming a deactivated user.
  const field = (
    name: string,
    fieldType: number,
    order: number,
    o: Partial<StoredCustomProfileField> = {},
  ): StoredCustomProfileField => ({
    id: nextId(org),
    name,
    fieldType,
    hint: '',
    fieldData: '',
    order,
    displayInProfileSummary: false,
    required: false,
    editableByUser: true,
    ...o,
  });
  const teamField = field('Team', 3, 2, {
    fieldData: JSON.stringify({
      eng: { text: 'Engineering', order: '2' },
      ops: { text: 'Operations "Ops"', order: '1' },
    }),
    displayInProfileSummary: true,
  });
  const phoneField = field('Phone number', 1, 0, { hint: 'With the country code' });
  const managerField = field('Manager', 6, 5);
  const twitterField = field('Twitter username', 7, 1, { fieldData: '{"subtype":"twitter"}' });
  const mastodonField = field('Mastodon', 7, 4, {
    fieldData: JSON.stringify({
      subtype: 'custom',
      url_pattern: 'https://mastodon.social/@%(username)s',
    }),
  });
  const bioField = field('Bio', 2, 3, { required: true, editableByUser: false });
  const startField = field('Start date', 4, 6, { displayInProfileSummary: true });
  org.customProfileFields = [
    teamField,
    phoneField,
    managerField,
    twitterField,
    mastodonField,
    bioField,
    startField,
  ];
  const humans = active.filter((u) => !u.isBot);
  const member = humans.find((u) => u.role === 400)!;
  const admin = humans.find((u) => u.role === 200) ?? owner;
  const gone = org.users.find((u) => !u.isActive && !u.isBot);
  member.profileData = {
    [teamField.id]: { value: 'ops' },
    [phoneField.id]: { value: '+33 1 23 45 67 89', renderedValue: '<p>+33 1 23 45 67 89</p>' },
    [managerField.id]: { value: JSON.stringify([admin.id, owner.id]) },
    [twitterField.id]: { value: 'member_tw' },
    [startField.id]: { value: '2021-02-28' },
  };
  admin.profileData = {
    [bioField.id]: { value: "Likes 'quotes' and\nnew lines", renderedValue: '<p>Likes</p>' },
    [mastodonField.id]: { value: 'admin' },
    ...(gone ? { [managerField.id]: { value: JSON.stringify([gone.id]) } } : {}),
  };
  if (gone) gone.profileData = { [phoneField.id]: { value: 'gone' } };

  // Allowed domains (no random draws), in the order they were added: one that lets its
  // subdomains in (declared), one that does not (Zulip's default: left out).
  org.realmDomains = [
    { id: nextId(org), domain: 'acme.example', allowSubdomains: true },
    { id: nextId(org), domain: 'eu.beta.example', allowSubdomains: false },
  ];
  return org;
}
