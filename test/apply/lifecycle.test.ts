import { emptyDesiredState, supports } from '../../src/model';
import type { DesiredState } from '../../src/model';
import { readLiveState } from '../../src/provider/read-live-state';
import { harness, summary } from './helpers';
import type { Harness } from './helpers';

const e = (local: string): string => `${local}@zulip-cdk.example`;

/**
 * One organization in four stages, exercising every resource kind: created from nothing;
 * every property changed (memberships added and removed, orders swapped); renamed and
 * archived/deactivated/deleted; unarchived and reactivated. Features the server lacks are
 * left out, so the same stages run at FL 372, 421 and 478.
 */
function stage(n: 1 | 2 | 3 | 4, fl: number): DesiredState {
  const d = emptyDesiredState('life');
  const folders = supports(fl, 'channelFolders');
  const topics = supports(fl, 'topicsPolicy');
  const late = n >= 3;
  // Folders: A and B; B renamed to "Bee" at stage 3; A archived at stage 3 (empty by then).
  if (folders) {
    const a = { path: 'life/fa', name: 'Folder A', description: n === 1 ? 'first' : 'changed' };
    const b = {
      path: 'life/fb',
      name: late ? 'Bee' : 'Folder B',
      description: 'second',
      ...(late ? { lifecycle: { renamedFrom: ['Folder B'] } } : {}),
    };
    if (n === 1) d.channelFolders.push(a, b);
    else if (n === 2)
      d.channelFolders.push(b, a); // reorder
    else d.channelFolders.push(b, { ...a, archived: n === 3 });
  }
  // Groups: leads (alice; then carol), devs (bob + subgroup leads), temp (deactivated at 3, back at 4).
  const leads = late ? 'team-leads' : 'leads';
  d.userGroups.push(
    {
      path: 'life/devs',
      name: 'devs',
      description: n === 1 ? 'Developers' : 'All developers',
      members: {
        mode: 'exact',
        users: n === 1 ? [e('bob')] : [e('bob'), e('dave')],
        groups: [leads],
      },
      permissions:
        n === 1
          ? { canManageGroup: leads, canMentionGroup: 'role:members' }
          : {
              canManageGroup: { users: [e('alan')], groups: [leads] },
              canJoinGroup: 'role:members',
            },
    },
    {
      path: 'life/leads',
      name: leads,
      description: 'Leads',
      members: { mode: 'exact', users: n === 1 ? [e('alice')] : [e('carol')], groups: [] },
      permissions: { canManageGroup: 'role:administrators' },
      ...(late ? { lifecycle: { renamedFrom: ['leads'] } } : {}),
    },
    {
      path: 'life/temp',
      name: 'temp',
      members: { mode: 'exact', users: [e('erin')], groups: [] },
      permissions: {},
      ...(n === 3 ? { deactivated: true } : {}),
    },
  );
  // Channels: one (private, settings, folder), two (default, atLeast devs; archived at 3).
  const one = late ? 'channel-uno' : 'channel-one';
  d.channels.push(
    {
      path: 'life/one',
      name: one,
      description: n === 1 ? 'The first channel' : 'The first channel, changed',
      private: n === 1,
      historyPublicToSubscribers: true,
      messageRetentionDays: n === 1 ? 'realm_default' : 30,
      ...(topics ? { topicsPolicy: n === 1 ? 'inherit' : 'disable_empty_topic' } : {}),
      ...(folders ? { folder: n === 1 ? 'Folder A' : late ? 'Bee' : 'Folder B' } : {}),
      permissions:
        n === 1
          ? { canRemoveSubscribersGroup: 'devs', canAdministerChannelGroup: 'role:administrators' }
          : {
              canRemoveSubscribersGroup: { users: [e('alice')], groups: ['devs'] },
              canAdministerChannelGroup: leads,
            },
      subscribers: {
        mode: 'exact',
        users: n === 1 ? [e('owner'), e('alice'), e('bob')] : [e('owner'), e('alice'), e('carol')],
        groups: [],
      },
      ...(late ? { lifecycle: { renamedFrom: ['channel-one'] } } : {}),
    },
    {
      path: 'life/two',
      name: 'channel-two',
      description: 'Second',
      defaultChannel: n !== 2,
      permissions: {},
      subscribers: { mode: 'atLeast', users: [], groups: ['devs'] },
      ...(n === 3 ? { archived: true } : {}),
    },
  );
  // Linkifiers: two, swapped at 2, the second's pattern renamed at 3.
  const l1 = {
    path: 'life/l1',
    pattern: 'L1-(?P<id>[0-9]+)',
    urlTemplate: `https://one.example/{id}${n > 1 ? '?v2' : ''}`,
  };
  const l2pattern = late ? 'LL-(?P<id>[0-9]+)' : 'L2-(?P<id>[0-9]+)';
  const l2 = {
    path: 'life/l2',
    pattern: l2pattern,
    urlTemplate: 'https://two.example/{id}',
    ...(late ? { lifecycle: { renamedFrom: ['L2-(?P<id>[0-9]+)'] } } : {}),
  };
  d.linkifiers.push(...(n === 1 ? [l1, l2] : [l2, l1]));
  // Playgrounds: replaced at 2 (new URL), deleted (pruned) at 3, created again at 4.
  d.organization.prune = { playground: true, linkifier: true };
  if (n !== 3)
    d.playgrounds.push({
      path: 'life/pg',
      name: 'Scratch',
      pygmentsLanguage: 'text',
      urlTemplate: n === 1 ? 'https://s.example/?q={code}' : 'https://s.example/v2?q={code}',
    });
  // Saved snippet: content changed at 2, title renamed at 3.
  d.savedSnippets.push({
    path: 'life/snip',
    title: late ? 'Hello there' : 'Hello',
    content: n === 1 ? 'Hello!' : 'Hello, world!',
    ...(late ? { lifecycle: { renamedFrom: ['Hello'] } } : {}),
  });
  // Users: roles and names.
  d.users.push({
    path: 'life/dave',
    email: e('dave'),
    role: n === 1 ? 'moderator' : 'member',
    fullName: n === 1 ? 'Dave Member' : 'David Member',
  });
  // The applying account's own settings on channel one.
  d.subscriptionSettings.push({
    path: 'life/settings',
    channel: one,
    color: n === 1 ? '#336699' : '#993366',
    pinToTop: n !== 1,
    isMuted: false,
  });
  return d;
}

describe.each([478, 421, 372])('apply end to end, every resource kind (FL %i)', (fl) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ featureLevel: fl });
  });
  afterAll(() => h.close());

  // Stage 4 unarchives, which servers before channelUnarchive cannot: it is left out there.
  const stages = ([1, 2, 3, 4] as const).filter((n) => n !== 4 || supports(fl, 'channelUnarchive'));
  it.each(stages)('stage %i applies in full, and the next plan is empty', async (n) => {
    const { first, result, after } = await h.converge(stage(n, fl));
    expect(first.changes.length).toBeGreaterThan(0);
    expect(result.journal.entries.filter((x) => x.status !== 'applied')).toEqual([]);
    expect(result.outcome).toBe('applied');
    expect(summary(after)).toEqual([]);
    const actions = new Set(first.changes.map((c) => c.action));
    if (n === 1) for (const a of ['create', 'update', 'membership']) expect(actions).toContain(a);
    if (n === 2)
      for (const a of ['update', 'replace', 'reorder', 'membership']) expect(actions).toContain(a);
    if (n === 3)
      for (const a of ['rename', 'archive', 'deactivate', 'delete']) expect(actions).toContain(a);
    if (n === 4)
      for (const a of ['unarchive', 'reactivate', 'create']) expect(actions).toContain(a);
  });
});

/**
 * Cases the stages above leave out: a channel made web-public, renames that change only the
 * case of a name, and new groups whose settings name themselves or each other (Zulip can only
 * set those once the groups exist).
 */
describe.each([478, 421, 372])('apply end to end, edge cases (FL %i)', (fl) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ featureLevel: fl });
  });
  afterAll(() => h.close());

  const org = (build: (d: DesiredState) => void): DesiredState => {
    const d = emptyDesiredState('edge');
    build(d);
    return d;
  };
  const live = () => readLiveState(h.client);

  it('makes a public and a private channel web-public, and one back; the next plan is empty', async () => {
    // The applying account subscribes itself to the private channel: Zulip changes a private
    // channel's privacy only for accounts with content access.
    const mine = { mode: 'atLeast' as const, users: [e('owner')], groups: [] };
    await h.converge(
      org((d) => {
        d.channels.push(
          { path: 'edge/pub', name: 'wp-public', permissions: {} },
          {
            path: 'edge/priv',
            name: 'wp-private',
            private: true,
            permissions: {},
            subscribers: mine,
          },
          { path: 'edge/new', name: 'wp-new', webPublic: true, permissions: {} },
        );
      }),
    );
    const created = await live();
    expect(created.channels.find((c) => c.name === 'wp-new')?.webPublic).toBe(true);
    const { first, result, after } = await h.converge(
      org((d) => {
        d.channels.push(
          { path: 'edge/pub', name: 'wp-public', webPublic: true, permissions: {} },
          {
            path: 'edge/priv',
            name: 'wp-private',
            webPublic: true,
            permissions: {},
            subscribers: mine,
          },
          { path: 'edge/new', name: 'wp-new', permissions: {} },
        );
      }),
    );
    expect([...summary(first)].sort()).toEqual(
      [
        'update channel["wp-public"]',
        'update channel["wp-private"]',
        'update channel["wp-new"]',
      ].sort(),
    );
    expect(first.warnings.filter((w) => w.code === 'NO_CONTENT_ACCESS')).toEqual([]);
    expect(result.outcome).toBe('applied');
    expect(summary(after)).toEqual([]);
    const byName = new Map((await live()).channels.map((c) => [c.name, c]));
    expect(byName.get('wp-public')).toMatchObject({ webPublic: true, private: false });
    expect(byName.get('wp-private')).toMatchObject({ webPublic: true, private: false });
    expect(byName.get('wp-new')).toMatchObject({ webPublic: false, private: false });
  });

  it('leaves out, and says, what Zulip refuses on a private channel the account cannot access', async () => {
    // zerver/lib/streams.py user_has_content_access: an organization owner who is not
    // subscribed may not add subscribers or change privacy ("Unable to access channel",
    // "Channel content access is required."); it may change the description and history.
    await h.converge(
      org((d) => {
        d.channels.push({
          path: 'edge/locked',
          name: 'wp-locked',
          private: true,
          permissions: {},
          subscribers: { mode: 'atLeast', users: [e('alice')], groups: [] },
        });
      }),
    );
    const locked = org((d) => {
      d.channels.push(
        {
          path: 'edge/locked',
          name: 'wp-locked',
          webPublic: true,
          description: 'now described',
          permissions: {},
          subscribers: { mode: 'atLeast', users: [e('alice'), e('bob')], groups: [] },
        },
        // Another channel in the same subscribe batch is not taken down with it.
        {
          path: 'edge/open',
          name: 'wp-open',
          permissions: {},
          subscribers: { mode: 'atLeast', users: [e('bob')], groups: [] },
        },
      );
    });
    const { first, result, after } = await h.converge(locked);
    const noAccess = (p: typeof first): string[] =>
      p.warnings.filter((w) => w.code === 'NO_CONTENT_ACCESS').map((w) => `${w.path}`);
    // One warning for the channel, naming both refused changes.
    expect(noAccess(first)).toEqual(['edge/locked']);
    expect(first.warnings.find((w) => w.code === 'NO_CONTENT_ACCESS')?.message).toMatch(
      /^left out of this plan: making it web-public and subscribing bob@zulip-cdk\.example\. /,
    );
    // Only the description goes ahead: the history change belongs to making it web-public.
    expect(first.changes.find((c) => c.id === 'channel["wp-locked"]#update')).toMatchObject({
      properties: [expect.objectContaining({ property: 'description' })],
    });
    expect(result.outcome).toBe('applied');
    // What is left is exactly what Zulip refuses, said again.
    expect(summary(after)).toEqual([]);
    expect(noAccess(after)).toEqual(['edge/locked']);
    const byName = new Map((await live()).channels.map((c) => [c.name, c]));
    expect(byName.get('wp-locked')).toMatchObject({
      private: true,
      description: 'now described',
      webPublic: false,
    });
    expect(byName.get('wp-open')?.subscribers).toContain(
      (await live()).users.find((u) => u.email === e('bob'))?.id,
    );
  });

  it('renames a channel, a folder and a group by case only; the next plan is empty', async () => {
    const folders = supports(fl, 'channelFolders');
    await h.converge(
      org((d) => {
        if (folders) d.channelFolders.push({ path: 'edge/f', name: 'ops' });
        d.userGroups.push({
          path: 'edge/g',
          name: 'eng-team',
          members: { mode: 'exact', users: [e('alice')], groups: [] },
          permissions: {},
        });
        d.channels.push({
          path: 'edge/c',
          name: 'eng',
          ...(folders ? { folder: 'ops' } : {}),
          permissions: { canSendMessageGroup: 'eng-team' },
        });
      }),
    );
    const before = await live();
    const ids = {
      channel: before.channels.find((c) => c.name === 'eng')?.id,
      group: before.userGroups.find((g) => g.name === 'eng-team')?.id,
      folder: before.channelFolders.find((f) => f.name === 'ops')?.id,
    };
    const { first, result, after } = await h.converge(
      org((d) => {
        // Channel and folder names are case-insensitive keys; group names are case-sensitive,
        // so the group needs renamedFrom.
        if (folders) d.channelFolders.push({ path: 'edge/f', name: 'Ops' });
        d.userGroups.push({
          path: 'edge/g',
          name: 'Eng-Team',
          members: { mode: 'exact', users: [e('alice')], groups: [] },
          permissions: {},
          lifecycle: { renamedFrom: ['eng-team'] },
        });
        d.channels.push({
          path: 'edge/c',
          name: 'Eng',
          ...(folders ? { folder: 'Ops' } : {}),
          permissions: { canSendMessageGroup: 'Eng-Team' },
        });
      }),
    );
    expect(first.changes.filter((c) => c.action === 'create')).toEqual([]);
    expect(result.outcome).toBe('applied');
    expect(summary(after)).toEqual([]);
    const now = await live();
    expect(now.channels.find((c) => c.id === ids.channel)?.name).toBe('Eng');
    expect(now.userGroups.find((g) => g.id === ids.group)?.name).toBe('Eng-Team');
    if (folders) expect(now.channelFolders.find((f) => f.id === ids.folder)?.name).toBe('Ops');
  });

  it('creates groups that manage themselves and each other in one apply; the next plan is empty', async () => {
    const group = (name: string, manager: string, users: string[] = []) => ({
      path: `edge/${name}`,
      name,
      members: { mode: 'exact' as const, users, groups: [] },
      permissions: { canManageGroup: manager, canMentionGroup: { users: [], groups: [name] } },
    });
    const desired = org((d) => {
      d.userGroups.push(
        group('self-run', 'self-run', [e('alice'), e('bob')]),
        group('pair-a', 'pair-b', [e('carol')]),
        group('pair-b', 'pair-a', [e('dave')]),
      );
      d.channels.push({
        path: 'edge/c2',
        name: 'self-run-channel',
        permissions: { canAdministerChannelGroup: 'self-run' },
      });
    });
    const { first, result, after } = await h.converge(desired);
    expect(first.warnings.map((w) => w.code)).not.toContain('DEPENDENCY_CYCLE');
    expect(result.journal.entries.filter((x) => x.status !== 'applied')).toEqual([]);
    expect(result.outcome).toBe('applied');
    expect(summary(after)).toEqual([]);
    const now = await live();
    const id = (name: string) => now.userGroups.find((g) => g.name === name)?.id;
    const perms = (name: string) => now.userGroups.find((g) => g.name === name)?.permissions;
    expect(perms('self-run')?.can_manage_group).toBe(id('self-run'));
    expect(perms('pair-a')?.can_manage_group).toBe(id('pair-b'));
    expect(perms('pair-b')?.can_manage_group).toBe(id('pair-a'));
    expect(
      now.channels.find((c) => c.name === 'self-run-channel')?.permissions
        .can_administer_channel_group,
    ).toBe(id('self-run'));
    // Every group was created once.
    expect(result.journal.entries.filter((x) => x.action === 'create')).toHaveLength(4);
  });
});
