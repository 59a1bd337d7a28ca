import { CHANNEL_PERMISSIONS, GROUP_PERMISSIONS } from '../model/permissions';
import type { PermissionSettingInfo } from '../model/permissions';
import { ROLES } from '../model/kinds';
import type { SystemGroupName } from '../model/kinds';
import { DAY_MS } from '../model/waiting-period';
import { addSubscription } from './indexes';
import { addUser, emptyOrg, newSubscription, nextId, systemGroupId } from './state';
import type { OrgState, StoredChannel, StoredGroupSetting, StoredUser } from './state';

/** The demo organization's domain: every demo email ends with it. */
export const DEMO_DOMAIN = 'zulip-cdk.example';

function settingsFor(
  org: OrgState,
  infos: readonly PermissionSettingInfo[],
  creator: StoredUser,
  overrides: Record<string, SystemGroupName | StoredGroupSetting> = {},
): Record<string, StoredGroupSetting> {
  const out: Record<string, StoredGroupSetting> = {};
  for (const info of infos) {
    const o = overrides[info.wire];
    if (o !== undefined) out[info.wire] = typeof o === 'string' ? systemGroupId(org, o) : o;
    else if (info.default === 'creator')
      out[info.wire] = { direct_members: [creator.id], direct_subgroups: [] };
    else out[info.wire] = systemGroupId(org, info.default);
  }
  return out;
}

/**
 * The demo organization: an owner (whose credentials `startEmulator` returns), administrators,
 * a moderator, members, a guest, a deactivated user and a bot; public, private, default and
 * archived channels; groups with subgroups; a folder, a linkifier, a playground and a snippet.
 */
export function demoOrg(now: number): { org: OrgState; owner: StoredUser } {
  const org = emptyOrg(now, 'Acme (zulip-cdk demo)');
  // An organization that posts channel notices (FL 434's setting; new organizations do not).
  org.realm.sendChannelEventsMessages = true;
  // Its people joined a year ago, except Erin, who joined yesterday: a new member, within the
  // example's three-day waiting period for full members.
  const u = (
    local: string,
    fullName: string,
    role: number,
    extra: Partial<StoredUser> = {},
    joined = now - 365 * DAY_MS,
  ): StoredUser => {
    const user = addUser(org, joined, { email: `${local}@${DEMO_DOMAIN}`, fullName, role });
    Object.assign(user, extra);
    return user;
  };
  const owner = u('owner', 'Olivia Owner', ROLES.owner);
  const admin = u('admin', 'Ada Admin', ROLES.administrator);
  const admin2 = u('alan', 'Alan Admin', ROLES.administrator);
  const moderator = u('moderator', 'Mona Moderator', ROLES.moderator);
  const alice = u('alice', 'Alice Member', ROLES.member);
  const bob = u('bob', 'Bob Member', ROLES.member);
  const carol = u('carol', 'Carol Member', ROLES.member);
  const dave = u('dave', 'Dave Member', ROLES.member);
  const erin = u('erin', 'Erin Member', ROLES.member, {}, now - DAY_MS);
  const guest = u('guest', 'Gus Guest', ROLES.guest);
  const former = u('former', 'Frank Former', ROLES.member, { isActive: false });
  const bot = u('deploy-bot', 'Deploy Bot', ROLES.member, {
    isBot: true,
    botType: 1,
    botOwnerId: owner.id,
  });
  void former;

  const folder = {
    id: nextId(org),
    name: 'Engineering',
    description: 'Channels for **engineering** discussions',
    order: 0,
    isArchived: false,
    creatorId: owner.id,
    dateCreated: Math.floor(now / 1000),
  };
  folder.order = folder.id;
  org.folders.push(folder);

  const groupInfos = Object.values(GROUP_PERMISSIONS);
  const group = (
    name: string,
    description: string,
    members: StoredUser[],
    subgroups: number[] = [],
  ): number => {
    const id = nextId(org);
    org.groups.push({
      id,
      name,
      description,
      isSystemGroup: false,
      members: members.map((m) => m.id),
      subgroups,
      deactivated: false,
      creatorId: owner.id,
      dateCreated: Math.floor(now / 1000),
      settings: settingsFor(org, groupInfos, owner),
    });
    return id;
  };
  const backend = group('backend', 'Backend engineers', [alice, bob]);
  const frontend = group('frontend', 'Frontend engineers', [carol]);
  group('engineering', 'All engineers', [moderator], [backend, frontend]);
  group('design', 'Designers', [dave, erin]);
  const retired = group('retired-team', 'A team that no longer exists', [erin]);
  const retiredGroup = org.groups.find((g) => g.id === retired);
  if (retiredGroup) retiredGroup.deactivated = true;

  const channelInfos = Object.values(CHANNEL_PERMISSIONS) as PermissionSettingInfo[];
  const channel = (
    name: string,
    description: string,
    opts: {
      private?: boolean;
      archived?: boolean;
      folderId?: number | null;
      subscribers: StoredUser[];
      settings?: Record<string, SystemGroupName | StoredGroupSetting>;
    },
  ): StoredChannel => {
    const ch: StoredChannel = {
      id: nextId(org),
      name,
      description,
      inviteOnly: opts.private ?? false,
      isWebPublic: false,
      historyPublicToSubscribers: !(opts.private ?? false),
      messageRetentionDays: null,
      isArchived: opts.archived ?? false,
      folderId: opts.folderId ?? null,
      topicsPolicy: 'inherit',
      creatorId: owner.id,
      dateCreated: Math.floor(now / 1000),
      settings: settingsFor(org, channelInfos, owner, opts.settings ?? {}),
    };
    org.channels.push(ch);
    for (const s of opts.subscribers) addSubscription(org, newSubscription(s.id, ch.id));
    return ch;
  };
  const everyone = [owner, admin, admin2, moderator, alice, bob, carol, dave, erin, guest, bot];
  const general = channel('general', 'Everyone, everything', { subscribers: everyone });
  org.defaultChannelIds.push(general.id);
  channel('engineering', 'Engineering talk', {
    folderId: folder.id,
    subscribers: [owner, moderator, alice, bob, carol, bot],
  });
  channel('design', 'Design reviews', { subscribers: [dave, erin, owner] });
  channel('announcements', 'Company news', {
    subscribers: everyone,
    settings: { can_send_message_group: 'role:administrators' },
  });
  channel('leadership', 'Private: owners and administrators', {
    private: true,
    subscribers: [owner, admin],
  });
  channel('old-projects', 'Archived projects', { archived: true, subscribers: [owner, alice] });

  org.linkifiers.push({
    id: nextId(org),
    pattern: '#(?P<id>[0-9]+)',
    urlTemplate: 'https://github.com/acme/app/issues/{id}',
    order: 0,
    exampleInput: null,
    reverseTemplate: null,
    alternativeUrlTemplates: [],
  });
  org.playgrounds.push({
    id: nextId(org),
    name: 'Python Tutor',
    pygmentsLanguage: 'python',
    urlTemplate: 'https://pythontutor.com/visualize.html#code={code}',
  });
  org.snippets.push({
    id: nextId(org),
    userId: owner.id,
    title: 'Welcome',
    content: 'Welcome to Acme! Read #**general** first.',
    dateCreated: Math.floor(now / 1000),
  });
  return { org, owner };
}
