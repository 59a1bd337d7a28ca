import { plan, PlanSchema } from '../../src/engine';
import type { Change, Plan, UpdateChange } from '../../src/engine';
import { FEATURE_LEVELS, isZulipCdkError } from '../../src/model';
import type { DesiredState, LiveState } from '../../src/model';
import { LiveBuilder, dChannel, dFolder, dGroup, desired } from './fixtures';
import { thrownError } from '../support/errors';

const summary = (p: Plan): string[] => p.changes.map((c) => `${c.action} ${c.address}`);
const find = (p: Plan, id: string): Change => {
  const c = p.changes.find((x) => x.id === id);
  if (!c) throw new Error(`no change ${id} in ${summary(p).join(', ')}`);
  return c;
};
const updates = (p: Plan, address: string): Record<string, [unknown, unknown]> => {
  const c = p.changes.find((x) => x.address === address && x.action === 'update') as
    UpdateChange | undefined;
  return Object.fromEntries((c?.properties ?? []).map((x) => [x.property, [x.before, x.after]]));
};
const codes = (list: { code: string }[]): string[] => list.map((x) => x.code);
/** Warning codes other than UNDECLARED (fixtures have live objects a test does not declare). */
const warned = (p: Plan): string[] => codes(p.warnings).filter((c) => c !== 'UNDECLARED');

function run(d: DesiredState, live: LiveState, targets?: string[]): Plan {
  const p = plan(d, live, targets ? { targets } : {});
  // Every plan the planner makes is valid in its own documented format.
  expect(PlanSchema.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
  return p;
}

describe('plan: nothing to do', () => {
  it('an empty configuration against an org with only system groups is empty', () => {
    const p = run(desired(), new LiveBuilder().build());
    expect(p.changes).toEqual([]);
    expect(p.warnings).toEqual([]);
    expect(p.findings).toEqual([]);
    expect(p.summary.total).toBe(0);
  });

  it.each([
    ['Zulip 10.2', FEATURE_LEVELS.zulip10],
    ['Zulip 11', FEATURE_LEVELS.zulip11],
    ['newest', FEATURE_LEVELS.newest],
  ])('live objects holding Zulip defaults match undeclared properties (%s)', (_n, fl) => {
    const b = new LiveBuilder(fl);
    const eng = b.group('eng', { members: [3], subgroups: [b.groupId('role:moderators')] });
    // can_administer_channel_group = {creator}: here the creator is bob, not the applying account.
    b.channel('general', { creatorId: 4, description: 'line one line two', subscribers: [1, 3] });
    b.channel('secret', { private: true, messageRetentionDays: -1 });
    b.linkifier('#(?P<id>[0-9]+)', 'https://t/{id}');
    b.playground('python', 'Tutor', 'https://p/{code}');
    const d = desired((d) => {
      d.userGroups.push(
        dGroup('eng', {
          description: '',
          members: { mode: 'exact', users: ['alice@example.com'], groups: ['role:moderators'] },
        }),
      );
      d.channels.push(
        dChannel('General', {
          description: 'line one\nline two',
          subscribers: {
            mode: 'exact',
            users: ['owner@example.com', 'ALICE@example.com'],
            groups: [],
          },
        }),
        dChannel('secret', { private: true, messageRetentionDays: 'unlimited' }),
      );
      d.linkifiers.push({
        path: 'acme/l',
        pattern: '#(?P<id>[0-9]+)',
        urlTemplate: 'https://t/{id}',
      });
      d.playgrounds.push({
        path: 'acme/p',
        name: 'Tutor',
        pygmentsLanguage: 'python',
        urlTemplate: 'https://p/{code}',
      });
    });
    expect(eng.id).toBeGreaterThan(0);
    const p = run(d, b.build());
    // "General" vs "general" is a case-only rename in place.
    expect(summary(p)).toEqual(['update channel["General"]']);
    expect(updates(p, 'channel["General"]')).toEqual({ name: ['general', 'General'] });
  });

  it('group settings declared as sets match the canonical live value', () => {
    const b = new LiveBuilder();
    const eng = b.group('eng');
    b.channel('general', {
      permissions: {
        can_send_message_group: { direct_members: [4, 3], direct_subgroups: [eng.id] },
        can_remove_subscribers_group: eng.id,
        can_resolve_topics_group: b.groupId('role:nobody'),
      },
    });
    const d = desired((d) => {
      d.userGroups.push(dGroup('eng'));
      d.channels.push(
        dChannel('general', {
          permissions: {
            canSendMessageGroup: {
              users: ['bob@example.com', 'alice@example.com', 'bob@example.com'],
              groups: ['eng'],
            },
            canRemoveSubscribersGroup: { users: [], groups: ['eng'] },
            canResolveTopicsGroup: { users: [], groups: [] },
          },
        }),
      );
    });
    expect(run(d, b.build()).changes).toEqual([]);
  });
});

describe('plan: channels', () => {
  it('creates a channel with defaults filled in and {applying account} as administrator', () => {
    const b = new LiveBuilder();
    const p = run(
      desired((d) => d.channels.push(dChannel('new', { description: 'a\nb' }))),
      b.build(),
    );
    const c = find(p, 'channel["new"]#create');
    expect(c.action === 'create' && c.properties).toMatchObject({
      name: 'new',
      description: 'a b',
      private: false,
      webPublic: false,
      historyPublicToSubscribers: true,
      defaultChannel: false,
      messageRetentionDays: 'realm_default',
      topicsPolicy: 'inherit',
      folder: null,
      'permissions.canAdministerChannelGroup': { users: ['owner@example.com'], groups: [] },
      'permissions.canSendMessageGroup': 'role:everyone',
      'permissions.canRemoveSubscribersGroup': 'role:administrators',
    });
    expect(p.summary.create).toBe(1);
  });

  it('a private channel defaults to protected history', () => {
    const p = run(
      desired((d) => d.channels.push(dChannel('x', { private: true }))),
      new LiveBuilder().build(),
    );
    const c = find(p, 'channel["x"]#create');
    expect(c.action === 'create' && c.properties.historyPublicToSubscribers).toBe(false);
  });

  it('leaves out settings the server does not have on create', () => {
    const p = run(
      desired((d) => d.channels.push(dChannel('x'))),
      new LiveBuilder(FEATURE_LEVELS.zulip10).build(),
    );
    const c = find(p, 'channel["x"]#create');
    if (c.action !== 'create') throw new Error();
    expect(c.properties).not.toHaveProperty('topicsPolicy');
    expect(c.properties).not.toHaveProperty('folder');
    expect(Object.keys(c.properties)).not.toContain('permissions.canCreateTopicGroup');
    expect(Object.keys(c.properties)).toContain('permissions.canSubscribeGroup');
  });

  const b = new LiveBuilder();
  const folder = b.folder('Teams');
  b.group('eng');
  b.channel('general', { folderId: null });
  b.channel('foldered', {
    folderId: folder.id,
    topicsPolicy: 'allow_empty_topic',
    messageRetentionDays: 30,
  });
  const live = b.build();

  it.each<[string, Partial<Parameters<typeof dChannel>[1]>, Record<string, [unknown, unknown]>]>([
    ['description', { description: 'hi' }, { description: ['', 'hi'] }],
    [
      'private (history follows)',
      { private: true },
      { private: [false, true], historyPublicToSubscribers: [true, false] },
    ],
    [
      'private with public history',
      { private: true, historyPublicToSubscribers: true },
      { private: [false, true] },
    ],
    ['webPublic', { webPublic: true }, { webPublic: [false, true] }],
    ['defaultChannel', { defaultChannel: true }, { defaultChannel: [false, true] }],
    ['retention days', { messageRetentionDays: 7 }, { messageRetentionDays: ['realm_default', 7] }],
    [
      'retention unlimited',
      { messageRetentionDays: 'unlimited' },
      { messageRetentionDays: ['realm_default', 'unlimited'] },
    ],
    [
      'topicsPolicy',
      { topicsPolicy: 'disable_empty_topic' },
      { topicsPolicy: ['inherit', 'disable_empty_topic'] },
    ],
    ['folder', { folder: 'teams' }, { folder: [null, 'Teams'] }],
    [
      'a system-group permission',
      { permissions: { canSendMessageGroup: 'role:members' } },
      { 'permissions.canSendMessageGroup': ['role:everyone', 'role:members'] },
    ],
    [
      'a user-group permission',
      { permissions: { canResolveTopicsGroup: 'eng' } },
      { 'permissions.canResolveTopicsGroup': ['role:nobody', 'eng'] },
    ],
    [
      'a set permission',
      {
        permissions: {
          canAdministerChannelGroup: { users: ['alice@example.com'], groups: ['eng'] },
        },
      },
      {
        'permissions.canAdministerChannelGroup': [
          { users: ['owner@example.com'], groups: [] },
          { users: ['alice@example.com'], groups: ['eng'] },
        ],
      },
    ],
  ])('updates %s', (_name, props, expected) => {
    const p = run(
      desired((d) => {
        d.userGroups.push(dGroup('eng'));
        d.channels.push(dChannel('general', props));
        d.channels.push(
          dChannel('foldered', {
            folder: 'Teams',
            topicsPolicy: 'allow_empty_topic',
            messageRetentionDays: 30,
          }),
        );
        d.channelFolders.push(dFolder('Teams'));
      }),
      live,
    );
    expect(updates(p, 'channel["general"]')).toEqual(expected);
    expect(summary(p)).toEqual(['update channel["general"]']);
  });

  it('moves a channel back to defaults when properties are no longer declared', () => {
    const p = run(
      desired((d) => {
        d.channels.push(dChannel('general'), dChannel('foldered'));
        d.channelFolders.push(dFolder('Teams'));
      }),
      live,
    );
    expect(updates(p, 'channel["foldered"]')).toEqual({
      folder: ['Teams', null],
      topicsPolicy: ['allow_empty_topic', 'inherit'],
      messageRetentionDays: [30, 'realm_default'],
    });
  });

  it('sends {new, old} material: the wire name and the old value as read', () => {
    const p = run(
      desired((d) =>
        d.channels.push(
          dChannel('general', { permissions: { canSendMessageGroup: 'role:members' } }),
        ),
      ),
      live,
    );
    const c = find(p, 'channel["general"]#update');
    expect(c.action === 'update' && c.properties[0]).toEqual({
      property: 'permissions.canSendMessageGroup',
      before: 'role:everyone',
      after: 'role:members',
      wire: 'can_send_message_group',
      old: b.groupId('role:everyone'),
    });
    expect(c.action === 'update' && c.liveId).toBe(live.channels[0]!.id);
  });

  it('a renamedFrom whose declared name is live too: the old one is not renamed, said so, and never pruned', () => {
    const b = new LiveBuilder();
    b.channel('design');
    b.channel('old-projects', { archived: true });
    for (const prune of [false, true]) {
      const p = plan(
        desired((d) => {
          d.organization.prune.channel = prune;
          d.channels.push(dChannel('old-projects', { lifecycle: { renamedFrom: ['design'] } }));
        }),
        b.build(),
      );
      // The declared name is matched first: that channel is unarchived, design stays.
      expect(p.changes.map((c) => c.id)).toEqual(['channel["old-projects"]#unarchive']);
      // Before: "exists in the organization but not in the configuration", and with pruning on
      // design was archived, though the configuration meant to rename it.
      expect(p.warnings).toEqual([
        {
          code: 'UNDECLARED',
          address: 'channel["design"]',
          message: `not renamed: renamedFrom of acme/old-projects names it, but that declaration's own name is live too (channel["old-projects"]), and a declared name is matched first; left as it is${prune ? ', although pruning is on' : ''}. To rename this one, free the declared name first`,
        },
      ]);
    }
  });

  it('two live renamedFrom names: the first is renamed, and the warning on the other says so', () => {
    const b = new LiveBuilder();
    b.channel('design');
    b.channel('drafts');
    const p = plan(
      desired((d) => {
        d.channels.push(dChannel('studio', { lifecycle: { renamedFrom: ['design', 'drafts'] } }));
      }),
      b.build(),
    );
    expect(p.changes.map((c) => c.id)).toEqual(['channel["studio"]#rename']);
    // Before: "that declaration's own name is live too (channel["studio"])", which is not live.
    expect(p.warnings).toEqual([
      {
        code: 'UNDECLARED',
        address: 'channel["drafts"]',
        message: `not renamed: renamedFrom of acme/studio names it, but that declaration renames channel["design"] instead (more than one of its renamedFrom names is live, and only one can be renamed); left as it is. To rename this one instead, remove 'design' from that renamedFrom`,
      },
    ]);
  });

  it('renames through renamedFrom, then updates the renamed channel', () => {
    const p = run(
      desired((d) => {
        d.channels.push(
          dChannel('town-square', { description: 'x', lifecycle: { renamedFrom: ['general'] } }),
          dChannel('foldered', {
            folder: 'Teams',
            topicsPolicy: 'allow_empty_topic',
            messageRetentionDays: 30,
          }),
        );
        d.channelFolders.push(dFolder('Teams'));
      }),
      live,
    );
    expect(summary(p)).toEqual(['rename channel["town-square"]', 'update channel["town-square"]']);
    const r = find(p, 'channel["town-square"]#rename');
    expect(r).toMatchObject({ from: 'general', to: 'town-square', liveId: live.channels[0]!.id });
    expect(find(p, 'channel["town-square"]#update').dependsOn).toEqual([
      'channel["town-square"]#rename',
    ]);
  });

  it('ignoreChanges leaves properties as they are live', () => {
    const p = run(
      desired((d) => {
        d.channels.push(
          dChannel('general', {
            description: 'new',
            permissions: {
              canSendMessageGroup: 'role:members',
              canResolveTopicsGroup: 'role:members',
            },
            lifecycle: { ignoreChanges: ['description', 'canSendMessageGroup'] },
          }),
        );
      }),
      live,
    );
    expect(Object.keys(updates(p, 'channel["general"]'))).toEqual([
      'permissions.canResolveTopicsGroup',
    ]);
    const q = run(
      desired((d) =>
        d.channels.push(
          dChannel('general', {
            permissions: { canSendMessageGroup: 'role:members' },
            lifecycle: { ignoreChanges: ['permissions'] },
          }),
        ),
      ),
      live,
    );
    expect(summary(q).filter((s) => s.includes('general'))).toEqual([]);
  });

  it('refuses retention when the applying account is not an owner', () => {
    const l = structuredClone(live);
    l.me = { userId: 2, email: 'admin@example.com', role: 200 };
    const e = thrownError(() =>
      run(
        desired((d) => d.channels.push(dChannel('general', { messageRetentionDays: 5 }))),
        l,
      ),
    );
    expect(e.message).toContain(
      'channel["general"] (acme/general): changing message retention needs an organization owner ("Must be an organization owner"), and the applying account admin@example.com is not one. Apply with an owner\'s API key, or declare messageRetentionDays as it is in Zulip (or lifecycle.ignoreChanges: [\'messageRetentionDays\'])',
    );
    expect(e.hint).toContain("a human organization owner's");
  });
});

describe('plan: changes only an owner may make are refused to an administrator', () => {
  const b = new LiveBuilder();
  b.channel('general');
  const live = b.build();
  const u = (email: string, role: string) => ({
    path: `acme/users/${email}`,
    email,
    role: role as 'owner',
  });
  it.each<[string, (d: DesiredState) => void, number, string[]]>([
    [
      'a new channel with non-default retention, as an administrator',
      (d) => d.channels.push(dChannel('general'), dChannel('new', { messageRetentionDays: 30 })),
      200,
      ['channel["new"]'],
    ],
    [
      'a new channel with unlimited retention, as an administrator',
      (d) =>
        d.channels.push(
          dChannel('general'),
          dChannel('new', { messageRetentionDays: 'unlimited' }),
        ),
      200,
      ['channel["new"]'],
    ],
    [
      'a new channel with the realm default retention, as an administrator',
      (d) =>
        d.channels.push(
          dChannel('general'),
          dChannel('new', { messageRetentionDays: 'realm_default' }),
        ),
      200,
      [],
    ],
    [
      'a new channel with non-default retention, as an owner',
      (d) => d.channels.push(dChannel('general'), dChannel('new', { messageRetentionDays: 30 })),
      100,
      [],
    ],
    [
      'granting the owner role, as an administrator',
      (d) => d.users.push(u('alice@example.com', 'owner')),
      200,
      ['user["alice@example.com"]'],
    ],
    [
      'removing the owner role, as an administrator',
      (d) => d.users.push(u('owner@example.com', 'administrator')),
      200,
      ['user["owner@example.com"]'],
    ],
    [
      'other role changes, as an administrator',
      (d) => d.users.push(u('alice@example.com', 'moderator')),
      200,
      [],
    ],
    [
      'granting the owner role, as an owner',
      (d) => d.users.push(u('alice@example.com', 'owner')),
      100,
      [],
    ],
  ])('%s', (_name, build, role, expected) => {
    const l = structuredClone(live);
    if (role !== 100) l.me = { userId: 2, email: 'admin@example.com', role };
    // A second owner: Zulip refuses to demote the only one (a plan error of its own).
    l.users.find((x) => x.email === 'carol@example.com')!.role = 100;
    let refused: string[] = [];
    try {
      run(desired(build), l);
    } catch (e) {
      refused = [
        ...(e as Error).message.matchAll(/^ {2}- (\S+) .*needs an organization owner/gm),
      ].map((m) => m[1]!);
    }
    expect(refused).toEqual(expected);
  });
});

describe('plan: archive, unarchive, prune, protect', () => {
  const b = new LiveBuilder();
  const old = b.channel('old');
  b.channel('dusty', { archived: true });
  const live = b.build();

  it('warns about undeclared channels when pruning is off', () => {
    const p = run(desired(), live);
    expect(p.changes).toEqual([]);
    expect(p.warnings).toEqual([
      {
        code: 'UNDECLARED',
        address: 'channel["old"]',
        message: expect.stringContaining('pruning is off'),
      },
    ]);
  });

  it('archives undeclared channels when pruning is on (archived ones are left alone)', () => {
    const d = desired((d) => (d.organization.prune.channel = true));
    const p = run(d, live);
    expect(summary(p)).toEqual(['archive channel["old"]']);
    expect(find(p, 'channel["old"]#archive')).toMatchObject({
      reason: 'prune',
      liveId: old.id,
      path: null,
    });
  });

  it('archives a channel declared archived, and never a protected one', () => {
    expect(
      summary(
        run(
          desired((d) => d.channels.push(dChannel('old', { archived: true }))),
          live,
        ),
      ),
    ).toEqual(['archive channel["old"]']);
    const p = run(
      desired((d) =>
        d.channels.push(dChannel('old', { archived: true, lifecycle: { protect: true } })),
      ),
      live,
    );
    expect(p.changes).toEqual([]);
    expect(codes(p.findings)).toEqual(['PROTECTED']);
  });

  it('unarchives a declared channel that is archived live; a "create" of a reserved name is that channel', () => {
    const p = run(
      desired((d) => d.channels.push(dChannel('Dusty'), dChannel('old'))),
      live,
    );
    expect(summary(p)).toEqual(['unarchive channel["Dusty"]', 'update channel["Dusty"]']);
  });

  it('is an error to unarchive on a server without channel unarchiving', () => {
    const b10 = new LiveBuilder(FEATURE_LEVELS.zulip10);
    b10.channel('dusty', { archived: true });
    expect(() =>
      plan(
        desired((d) => d.channels.push(dChannel('dusty'))),
        b10.build(),
      ),
    ).toThrow(/unarchiving needs feature level 388/);
  });

  it('finds removals over maxRemovals', () => {
    const many = new LiveBuilder();
    for (let i = 0; i < 3; i++) many.channel(`c${i}`);
    const d = desired((d) => {
      d.organization.prune.channel = true;
      d.organization.maxRemovals = 2;
    });
    const p = run(d, many.build());
    expect(p.summary.remove).toBe(3);
    expect(codes(p.findings)).toEqual(['TOO_MANY_REMOVALS']);
    d.organization.maxRemovals = 3;
    expect(run(d, many.build()).findings).toEqual([]);
  });
});

describe('plan: channel subscribers', () => {
  const b = new LiveBuilder();
  b.group('eng', { members: [3], subgroups: [] });
  b.group('leads', { members: [4] });
  b.channel('general', { subscribers: [1, 5] });
  b.channel('secret', { private: true, subscribers: [1, 3] });
  const live = b.build();
  const members = (c: Change): unknown =>
    c.action === 'membership'
      ? { add: c.add.map((u) => u.email), remove: c.remove.map((u) => u.email) }
      : c;

  it.each<[string, 'exact' | 'atLeast', string[], string[], { add: string[]; remove: string[] }]>([
    [
      'exact adds and removes',
      'exact',
      ['alice@example.com', 'owner@example.com'],
      [],
      { add: ['alice@example.com'], remove: ['carol@example.com'] },
    ],
    [
      'atLeast only adds',
      'atLeast',
      ['alice@example.com'],
      [],
      { add: ['alice@example.com'], remove: [] },
    ],
    [
      'a desired group expands to its desired members, recursively',
      'exact',
      ['owner@example.com'],
      ['eng'],
      {
        add: ['alice@example.com', 'bob@example.com', 'gone@example.com'].filter(
          (e) => e !== 'gone@example.com',
        ),
        remove: ['carol@example.com'],
      },
    ],
    [
      'a system group expands to its live members, recursively',
      'exact',
      [],
      ['role:moderators'],
      { add: ['admin@example.com'], remove: [] },
    ],
  ])('%s', (_n, mode, users, groups, expected) => {
    const p = run(
      desired((d) => {
        d.userGroups.push(
          dGroup('eng', {
            members: {
              mode: 'exact',
              users: ['alice@example.com', 'gone@example.com'],
              groups: ['leads'],
            },
          }),
        );
        d.userGroups.push(
          dGroup('leads', { members: { mode: 'exact', users: ['bob@example.com'], groups: [] } }),
        );
        d.channels.push(dChannel('general', { subscribers: { mode, users, groups } }));
      }),
      live,
    );
    expect(members(find(p, 'channel["general"]#membership'))).toEqual(expected);
    // gone@ is in the desired group eng: deactivated users are left out and warned about.
    expect(warned(p)).toEqual(['DEACTIVATED_USER']);
  });

  it('an undeclared group expands to its live members', () => {
    const p = run(
      desired((d) =>
        d.channels.push(
          dChannel('general', { subscribers: { mode: 'atLeast', users: [], groups: ['leads'] } }),
        ),
      ),
      live,
    );
    expect(members(find(p, 'channel["general"]#membership'))).toEqual({
      add: ['bob@example.com'],
      remove: [],
    });
  });

  it('fails on users that do not exist (test/engine/plan-identity.test.ts has the details)', () => {
    expect(() =>
      run(
        desired((d) =>
          d.channels.push(
            dChannel('general', {
              subscribers: { mode: 'atLeast', users: ['nobody@example.com'], groups: [] },
            }),
          ),
        ),
        live,
      ),
    ).toThrow(
      /channel\["general"\] \(acme\/general\): subscribers: nobody@example.com is not a user/,
    );
  });

  it('a new channel gets its subscribers in a membership change after the create', () => {
    const p = run(
      desired((d) =>
        d.channels.push(
          dChannel('new', {
            announce: true,
            subscribers: { mode: 'exact', users: ['bob@example.com'], groups: [] },
          }),
        ),
      ),
      live,
    );
    expect(summary(p)).toEqual(['create channel["new"]', 'membership channel["new"]']);
    // announce posts the new channel; Zulip never messages the subscribers it is created with.
    expect(find(p, 'channel["new"]#membership')).toMatchObject({
      liveId: null,
      notify: false,
      dependsOn: ['channel["new"]#create'],
    });
  });

  it('finds the applying account losing access to a private channel it manages', () => {
    const p = run(
      desired((d) =>
        d.channels.push(
          dChannel('secret', {
            private: true,
            subscribers: { mode: 'exact', users: ['alice@example.com'], groups: [] },
          }),
        ),
      ),
      live,
    );
    expect(codes(p.findings)).toEqual(['SELF_CHANNEL_ACCESS_LOSS']);
  });

  it('finds a channel made private that the applying account is not subscribed to', () => {
    const b2 = new LiveBuilder();
    b2.channel('open', { subscribers: [3] });
    const p = run(
      desired((d) => d.channels.push(dChannel('open', { private: true }))),
      b2.build(),
    );
    expect(codes(p.findings)).toEqual(['SELF_CHANNEL_ACCESS_LOSS']);
  });

  describe('content access to a private channel (zerver/lib/streams.py user_has_content_access)', () => {
    const b2 = new LiveBuilder();
    b2.channel('secret', { private: true, subscribers: [3] });
    b2.channel('mine', { private: true, subscribers: [1, 3] });
    const admins = b2.groupId('role:administrators');
    b2.channel('shared', {
      private: true,
      subscribers: [3],
      permissions: { can_subscribe_group: admins },
    });
    b2.channel('adders', {
      private: true,
      subscribers: [3],
      permissions: { can_add_subscribers_group: { direct_members: [1], direct_subgroups: [] } },
    });
    const l2 = b2.build();
    const atLeast = (...users: string[]): Parameters<typeof dChannel>[1] => ({
      private: true,
      subscribers: { mode: 'atLeast', users, groups: [] },
    });

    // An administrator without content access: privacy, can_add_subscribers_group and
    // can_subscribe_group changes and subscriber additions are left out and said; everything
    // else is planned. Subscribing the account itself is refused by Zulip the same way.
    it.each<[string, string, Parameters<typeof dChannel>[1], number, string[]]>([
      // The history change was reviewed as part of making it public: it is left out with it.
      ['not subscribed, made public', 'secret', { private: false }, 1, []],
      [
        'not subscribed, can_add_subscribers_group changed',
        'secret',
        { private: true, permissions: { canAddSubscribersGroup: 'role:members' } },
        1,
        [],
      ],
      [
        'not subscribed, made public and described: the description is still planned',
        'secret',
        { private: false, description: 'new' },
        1,
        ['update channel["secret"]'],
      ],
      [
        'not subscribed, another setting changed',
        'secret',
        { private: true, permissions: { canSendMessageGroup: 'role:members' } },
        0,
        ['update channel["secret"]'],
      ],
      ['not subscribed, a subscriber added', 'secret', atLeast('bob@example.com'), 1, []],
      ['not subscribed, subscribing itself', 'secret', atLeast('owner@example.com'), 1, []],
      [
        'not subscribed, subscribing itself and made public',
        'secret',
        { ...atLeast('owner@example.com'), private: false },
        1,
        [],
      ],
      ['subscribed', 'mine', { private: false }, 0, ['update channel["mine"]']],
      ['subscribed, adds', 'mine', atLeast('bob@example.com'), 0, ['membership channel["mine"]']],
      ['in can_subscribe_group', 'shared', { private: false }, 0, ['update channel["shared"]']],
      [
        'in can_add_subscribers_group (anonymous group)',
        'adders',
        {
          ...atLeast('bob@example.com'),
          permissions: { canAddSubscribersGroup: { users: ['owner@example.com'], groups: [] } },
        },
        0,
        ['membership channel["adders"]'],
      ],
    ])('%s', (_, name, o, warnings, changes) => {
      const p = run(
        desired((d) => d.channels.push(dChannel(name, o))),
        l2,
      );
      const noAccess = p.warnings.filter((w) => w.code === 'NO_CONTENT_ACCESS');
      expect(noAccess).toHaveLength(warnings);
      for (const w of noAccess) {
        expect(w.address).toBe(`channel["${name}"]`);
        expect(w.path).toBe(`acme/${name}`);
        expect(w.message).toContain('have a subscriber subscribe owner@example.com');
      }
      expect(summary(p)).toEqual(changes);
    });
  });

  it('does not manage subscribers when they are not declared; warns when it cannot see them', () => {
    const l = structuredClone(live);
    l.channels[0]!.subscribers = null;
    expect(
      run(
        desired((d) => d.channels.push(dChannel('general'))),
        l,
      ).changes,
    ).toEqual([]);
    const p = run(
      desired((d) =>
        d.channels.push(
          dChannel('general', { subscribers: { mode: 'exact', users: [], groups: [] } }),
        ),
      ),
      l,
    );
    expect(warned(p)).toEqual(['SUBSCRIBERS_NOT_VISIBLE']);
  });
});

describe('plan: who new subscribers hear from (notify)', () => {
  // Below FL 397 Zulip always messages each non-bot user another user subscribes to an existing
  // channel; from FL 397 apply asks for it only when the channel is announced. Nobody is
  // messaged about a channel created in the same request.
  it.each<[string, number, 'live' | 'new', boolean | undefined, boolean, string[]]>([
    [
      'existing channel, FL 372, announce unset',
      FEATURE_LEVELS.zulip10,
      'live',
      undefined,
      true,
      ['alice@example.com', 'bob@example.com'],
    ],
    [
      'existing channel, FL 396, announce false',
      396,
      'live',
      false,
      true,
      ['alice@example.com', 'bob@example.com'],
    ],
    ['existing channel, FL 397, announce unset', 397, 'live', undefined, false, []],
    [
      'existing channel, FL 421, announce true',
      FEATURE_LEVELS.zulip11,
      'live',
      true,
      true,
      ['alice@example.com', 'bob@example.com'],
    ],
    ['new channel, FL 372', FEATURE_LEVELS.zulip10, 'new', undefined, false, []],
    ['new channel, newest, announce true', FEATURE_LEVELS.newest, 'new', true, false, []],
  ])('%s', (_name, fl, where, announce, notify, messaged) => {
    const b = new LiveBuilder(fl);
    // The applying account (1) is subscribed already on the live channel; robot (7) is a bot.
    b.state.users.push({
      id: 7,
      email: 'robot@example.com',
      fullName: 'robot',
      role: 400,
      isActive: true,
      isBot: true,
    });
    if (where === 'live') b.channel('c', { subscribers: [2] });
    const p = run(
      desired((d) =>
        d.channels.push(
          dChannel('c', {
            ...(announce !== undefined ? { announce } : {}),
            subscribers: {
              mode: 'atLeast',
              users: [
                'owner@example.com',
                'alice@example.com',
                'bob@example.com',
                'robot@example.com',
              ],
              groups: [],
            },
          }),
        ),
      ),
      b.build(),
    );
    const m = find(p, 'channel["c"]#membership');
    expect(m.action === 'membership' && m.notify).toBe(notify);
    expect(m.action === 'membership' && (m.messaged ?? [])).toEqual(messaged);
  });
});

describe('plan: user groups', () => {
  const b = new LiveBuilder();
  const eng = b.group('eng', { members: [3, 4], description: 'Engineers' });
  const ops = b.group('ops', { members: [5] });
  b.group('old', { deactivated: true });
  b.group('stale');
  const live = b.build();

  it('creates a group with {applying account} defaults, then its members and subgroups', () => {
    const p = run(
      desired((d) => {
        d.userGroups.push(
          dGroup('new', {
            members: { mode: 'exact', users: ['alice@example.com'], groups: ['newer'] },
          }),
        );
        d.userGroups.push(dGroup('newer', { permissions: { canMentionGroup: 'role:members' } }));
        d.userGroups.push(
          dGroup('eng', {
            description: 'Engineers',
            members: { mode: 'atLeast', users: [], groups: [] },
          }),
        );
        d.userGroups.push(
          dGroup('ops', { members: { mode: 'exact', users: ['carol@example.com'], groups: [] } }),
        );
      }),
      live,
    );
    expect(summary(p)).toEqual([
      'create userGroup["new"]',
      'create userGroup["newer"]',
      'membership userGroup["new"]',
    ]);
    const c = find(p, 'userGroup["new"]#create');
    expect(c.action === 'create' && c.properties).toEqual({
      name: 'new',
      description: '',
      'permissions.canAddMembersGroup': { users: ['owner@example.com'], groups: [] },
      'permissions.canJoinGroup': 'role:nobody',
      'permissions.canLeaveGroup': 'role:everyone',
      'permissions.canManageGroup': { users: ['owner@example.com'], groups: [] },
      'permissions.canMentionGroup': 'role:everyone',
      'permissions.canRemoveMembersGroup': 'role:nobody',
    });
    // Subgroups before parents.
    expect(find(p, 'userGroup["new"]#membership').dependsOn).toEqual([
      'userGroup["new"]#create',
      'userGroup["newer"]#create',
    ]);
    expect(find(p, 'userGroup["new"]#membership')).toMatchObject({
      addSubgroups: [{ name: 'newer', id: null }],
    });
  });

  it('a new group that manages itself is created with the default, then updated to itself', () => {
    const p = run(
      desired((d) =>
        d.userGroups.push(
          dGroup('self', {
            members: { mode: 'exact', users: ['alice@example.com'], groups: [] },
            permissions: {
              canManageGroup: 'self',
              canMentionGroup: { users: ['bob@example.com'], groups: ['self'] },
              canJoinGroup: 'role:members',
            },
          }),
        ),
      ),
      live,
    );
    expect(summary(p)).toEqual([
      'create userGroup["self"]',
      'update userGroup["self"]',
      'membership userGroup["self"]',
    ]);
    const c = find(p, 'userGroup["self"]#create');
    expect(c.action === 'create' && c.properties).toMatchObject({
      'permissions.canManageGroup': { users: ['owner@example.com'], groups: [] },
      'permissions.canMentionGroup': 'role:everyone',
      'permissions.canJoinGroup': 'role:members',
    });
    const u = find(p, 'userGroup["self"]#update');
    expect(u).toMatchObject({
      liveId: null,
      dependsOn: ['userGroup["self"]#create'],
      properties: [
        {
          property: 'permissions.canManageGroup',
          before: { users: ['owner@example.com'], groups: [] },
          after: 'self',
          wire: 'can_manage_group',
          old: { direct_members: [1], direct_subgroups: [] },
        },
        {
          property: 'permissions.canMentionGroup',
          before: 'role:everyone',
          after: { users: ['bob@example.com'], groups: ['self'] },
          wire: 'can_mention_group',
          old: b.groupId('role:everyone'),
        },
      ],
    });
    expect(warned(p)).toEqual([]);
  });

  it('new groups that manage each other: both created, then both updated; no cycle', () => {
    const p = run(
      desired((d) =>
        d.userGroups.push(
          dGroup('a', { permissions: { canManageGroup: 'b' } }),
          dGroup('b', { permissions: { canManageGroup: 'a' } }),
          // c needs a first, and nothing needs c: it is created with its value.
          dGroup('c', { permissions: { canManageGroup: 'a' } }),
        ),
      ),
      live,
    );
    expect(summary(p)).toEqual([
      'create userGroup["a"]',
      'create userGroup["b"]',
      'create userGroup["c"]',
      'update userGroup["a"]',
      'update userGroup["b"]',
    ]);
    expect(find(p, 'userGroup["c"]#create').dependsOn).toEqual(['userGroup["a"]#create']);
    expect(find(p, 'userGroup["a"]#update').dependsOn).toEqual([
      'userGroup["a"]#create',
      'userGroup["b"]#create',
    ]);
    expect(updates(p, 'userGroup["b"]')).toEqual({
      'permissions.canManageGroup': [{ users: ['owner@example.com'], groups: [] }, 'a'],
    });
    expect(codes(p.warnings)).not.toContain('DEPENDENCY_CYCLE');
  });

  it.each<[string, Parameters<typeof dGroup>[1], Record<string, [unknown, unknown]>]>([
    ['description', { description: 'E' }, { description: ['Engineers', 'E'] }],
    [
      'a permission',
      { description: 'Engineers', permissions: { canJoinGroup: 'role:members' } },
      { 'permissions.canJoinGroup': ['role:nobody', 'role:members'] },
    ],
    ['a creator default back from a value', { description: 'Engineers', permissions: {} }, {}],
  ])('updates %s', (_n, o, expected) => {
    const l = structuredClone(live);
    const p = run(
      desired((d) =>
        d.userGroups.push(
          dGroup('eng', { members: { mode: 'atLeast', users: [], groups: [] }, ...o }),
        ),
      ),
      l,
    );
    expect(updates(p, 'userGroup["eng"]')).toEqual(expected);
  });

  it('holds can_manage_group at {creator} (the live creator) when undeclared', () => {
    const l = structuredClone(live);
    l.userGroups.find((g) => g.name === 'eng')!.permissions.can_manage_group =
      b.groupId('role:administrators');
    const p = run(
      desired((d) =>
        d.userGroups.push(
          dGroup('eng', {
            description: 'Engineers',
            members: { mode: 'atLeast', users: [], groups: [] },
          }),
        ),
      ),
      l,
    );
    expect(updates(p, 'userGroup["eng"]')).toEqual({
      'permissions.canManageGroup': [
        'role:administrators',
        { users: ['owner@example.com'], groups: [] },
      ],
    });
  });

  it.each<[string, 'exact' | 'atLeast', object]>([
    [
      'exact',
      'exact',
      {
        add: [{ email: 'carol@example.com', id: 5 }],
        remove: [{ email: 'bob@example.com', id: 4 }],
        addSubgroups: [{ name: 'ops', id: ops.id }],
        removeSubgroups: [],
      },
    ],
    [
      'atLeast',
      'atLeast',
      {
        add: [{ email: 'carol@example.com', id: 5 }],
        remove: [],
        addSubgroups: [{ name: 'ops', id: ops.id }],
        removeSubgroups: [],
      },
    ],
  ])('membership %s', (_n, mode, expected) => {
    const p = run(
      desired((d) =>
        d.userGroups.push(
          dGroup('eng', {
            description: 'Engineers',
            members: { mode, users: ['alice@example.com', 'carol@example.com'], groups: ['ops'] },
          }),
        ),
      ),
      live,
    );
    expect(find(p, 'userGroup["eng"]#membership')).toMatchObject({
      liveId: eng.id,
      collection: 'members',
      mode,
      ...expected,
    });
  });

  it('deactivates undeclared groups only with pruning, after detaching them', () => {
    const l = structuredClone(live);
    const stale = l.userGroups.find((g) => g.name === 'stale')!;
    l.userGroups.find((g) => g.name === 'eng')!.subgroups = [stale.id];
    const ch = new LiveBuilder();
    void ch;
    l.channels.push({
      ...structuredClone(new LiveBuilder().channel('general')),
      permissions: {
        ...new LiveBuilder().channel('x').permissions,
        can_send_message_group: stale.id,
      },
    });
    const d = desired((d) => {
      d.organization.prune.userGroup = true;
      d.userGroups.push(
        dGroup('eng', {
          description: 'Engineers',
          members: { mode: 'exact', users: ['alice@example.com', 'bob@example.com'], groups: [] },
        }),
      );
      d.userGroups.push(
        dGroup('ops', { members: { mode: 'exact', users: ['carol@example.com'], groups: [] } }),
      );
      d.channels.push(dChannel('general'));
    });
    const p = run(d, l);
    expect(summary(p)).toEqual([
      'membership userGroup["eng"]',
      'update channel["general"]',
      'deactivate userGroup["stale"]',
    ]);
    expect(find(p, 'userGroup["stale"]#deactivate').dependsOn).toEqual([
      'channel["general"]#update',
      'userGroup["eng"]#membership',
    ]);
    const off = run(
      desired((x) => x.userGroups.push(...d.userGroups)),
      live,
    );
    expect(off.warnings.map((w) => w.address)).toEqual(['userGroup["stale"]']);
  });

  it('never prunes a group the configuration still references', () => {
    const p = run(
      desired((d) => {
        d.organization.prune.userGroup = true;
        d.channels.push(dChannel('new', { permissions: { canSendMessageGroup: 'stale' } }));
      }),
      live,
    );
    expect(summary(p)).toEqual([
      'create channel["new"]',
      'deactivate userGroup["eng"]',
      'deactivate userGroup["ops"]',
    ]);
    expect(p.warnings).toContainEqual(
      expect.objectContaining({
        code: 'UNDECLARED',
        address: 'userGroup["stale"]',
        message: expect.stringContaining('referenced'),
      }),
    );
  });

  it('reactivates a declared deactivated group; deactivates a declared-deactivated one', () => {
    expect(
      summary(
        run(
          desired((d) => d.userGroups.push(dGroup('old'))),
          live,
        ),
      ),
    ).toEqual(['reactivate userGroup["old"]']);
    const p = run(
      desired((d) => d.userGroups.push(dGroup('ops', { deactivated: true }))),
      live,
    );
    expect(summary(p)).toEqual(['deactivate userGroup["ops"]']);
    expect(() =>
      plan(
        desired((d) => d.userGroups.push(dGroup('old'))),
        { ...live, server: { ...live.server, featureLevel: FEATURE_LEVELS.zulip10 } },
      ),
    ).toThrow(/reactivating it needs feature level 386/);
  });

  it('renames a group; references to it follow the rename', () => {
    const p = run(
      desired((d) => {
        d.userGroups.push(
          dGroup('engineering', {
            description: 'Engineers',
            members: { mode: 'exact', users: ['alice@example.com', 'bob@example.com'], groups: [] },
            lifecycle: { renamedFrom: ['eng'] },
          }),
        );
        d.channels.push(dChannel('new', { permissions: { canSendMessageGroup: 'engineering' } }));
      }),
      live,
    );
    expect(summary(p)).toEqual(['rename userGroup["engineering"]', 'create channel["new"]']);
    expect(find(p, 'channel["new"]#create').dependsOn).toEqual(['userGroup["engineering"]#rename']);
  });

  it('a rename alone changes no setting that refers to the group', () => {
    const l = structuredClone(live);
    const ch = new LiveBuilder().channel('general');
    l.channels.push({ ...ch, permissions: { ...ch.permissions, can_send_message_group: eng.id } });
    const p = run(
      desired((d) => {
        d.userGroups.push(
          dGroup('engineering', {
            description: 'Engineers',
            members: { mode: 'atLeast', users: [], groups: [] },
            lifecycle: { renamedFrom: ['eng'] },
          }),
        );
        d.channels.push(
          dChannel('general', { permissions: { canSendMessageGroup: 'engineering' } }),
        );
      }),
      l,
    );
    expect(summary(p)).toEqual(['rename userGroup["engineering"]']);
  });

  it('is an error to reference a group that exists nowhere', () => {
    const e = thrownError(
      () =>
        plan(
          desired((d) =>
            d.channels.push(
              dChannel('x', { permissions: { canSendMessageGroup: 'ghosts' } }),
              dChannel('y', { subscribers: { mode: 'exact', users: [], groups: ['phantoms'] } }),
            ),
          ),
          live,
        ),
      'UNRESOLVED_REFERENCE',
    );
    expect(e.message).toMatch(/ghosts/);
    expect(e.message).toMatch(/phantoms/);
  });
});

describe('plan: channel folders', () => {
  const b = new LiveBuilder();
  const a = b.folder('Alpha', { description: 'A' });
  const z = b.folder('Zeta');
  b.folder('Gone', { archived: true });
  b.channel('general', { folderId: z.id });
  const live = b.build();

  it('creates, updates, archives and unarchives folders', () => {
    const p = run(
      desired((d) => {
        d.channelFolders.push(
          dFolder('Alpha', { description: 'AA' }),
          dFolder('Zeta', { archived: true }),
          dFolder('gone'),
          dFolder('New'),
        );
        d.channels.push(dChannel('general'));
      }),
      live,
    );
    expect(summary(p)).toEqual([
      'unarchive channelFolder["gone"]',
      'create channelFolder["New"]',
      'update channelFolder["Alpha"]',
      'update channelFolder["gone"]',
      'update channel["general"]',
      'archive channelFolder["Zeta"]',
    ]);
    // Detach before archive: the channel leaves the folder first.
    expect(find(p, 'channelFolder["Zeta"]#archive').dependsOn).toEqual([
      'channel["general"]#update',
    ]);
    expect(updates(p, 'channelFolder["gone"]')).toEqual({ name: ['Gone', 'gone'] });
  });

  it('does not archive a folder that would still hold a channel (Zulip refuses)', () => {
    const p = run(
      desired((d) => {
        d.organization.prune.channelFolder = true;
        d.channelFolders.push(
          dFolder('Alpha', { description: 'A' }),
          dFolder('Gone', { archived: true }),
        );
      }),
      live,
    );
    // Zeta is undeclared and pruned, but the undeclared channel general is still in it.
    expect(summary(p).filter((x) => x.startsWith('archive'))).toEqual([]);
    expect(p.warnings).toContainEqual(
      expect.objectContaining({ code: 'FOLDER_NOT_EMPTY', address: 'channelFolder["Zeta"]' }),
    );
  });

  it('reorders to the declared order, undeclared folders in their slots, archived ones included', () => {
    const p = run(
      desired((d) => {
        d.channelFolders.push(
          dFolder('New'),
          dFolder('Zeta'),
          dFolder('Alpha', { description: 'A' }),
        );
        d.channels.push(dChannel('general', { folder: 'Zeta' }));
      }),
      live,
    );
    expect(summary(p)).toEqual(['create channelFolder["New"]', 'reorder channelFolder["*"]']);
    const r = find(p, 'channelFolder["*"]#reorder');
    expect(r).toMatchObject({
      before: ['Alpha', 'Zeta', 'Gone'],
      // Gone is undeclared and keeps its slot; New is appended by Zulip, then moved first.
      after: [
        { key: 'New', id: null },
        { key: 'Zeta', id: z.id },
        { key: 'Gone', id: expect.any(Number) },
        { key: 'Alpha', id: a.id },
      ],
      dependsOn: ['channelFolder["New"]#create'],
    });
  });

  it('a renamed folder keeps its place; ignoreChanges order pins a folder to its slot', () => {
    const p = run(
      desired((d) => {
        d.channelFolders.push(
          dFolder('First', { description: 'A', lifecycle: { renamedFrom: ['Alpha'] } }),
          dFolder('Zeta'),
          dFolder('Gone', { archived: true }),
        );
        d.channels.push(dChannel('general', { folder: 'Zeta' }));
      }),
      live,
    );
    expect(summary(p)).toEqual(['rename channelFolder["First"]']);
    const q = run(
      desired((d) => {
        d.channelFolders.push(
          dFolder('Zeta'),
          dFolder('Gone', { archived: true, lifecycle: { ignoreChanges: ['order'] } }),
          dFolder('Alpha', { description: 'A' }),
        );
        d.channels.push(dChannel('general', { folder: 'Zeta' }));
      }),
      live,
    );
    const r = find(q, 'channelFolder["*"]#reorder');
    expect(r.action === 'reorder' && r.after.map((e) => e.key)).toEqual(['Zeta', 'Alpha', 'Gone']);
  });

  it('ignoreChanges archived leaves a folder archived or not as it is live', () => {
    const p = run(
      desired((d) => {
        d.channelFolders.push(
          dFolder('Alpha', { description: 'A' }),
          dFolder('Zeta'),
          dFolder('Gone', { lifecycle: { ignoreChanges: ['archived'] } }),
        );
        d.channels.push(dChannel('general', { folder: 'Zeta' }));
      }),
      live,
    );
    expect(p.changes).toEqual([]);
  });

  it('does not reorder when creates append in the declared order', () => {
    const p = run(
      desired((d) => {
        d.channelFolders.push(
          dFolder('Alpha', { description: 'A' }),
          dFolder('Zeta'),
          dFolder('Gone', { archived: true }),
          dFolder('New'),
        );
        d.channels.push(dChannel('general', { folder: 'Zeta' }));
      }),
      live,
    );
    expect(summary(p)).toEqual(['create channelFolder["New"]']);
  });

  it('a channel in a new folder waits for the folder', () => {
    const p = run(
      desired((d) => {
        d.channelFolders.push(
          dFolder('Alpha', { description: 'A' }),
          dFolder('Zeta'),
          dFolder('Gone', { archived: true }),
          dFolder('New'),
        );
        d.channels.push(
          dChannel('general', { folder: 'New' }),
          dChannel('fresh', { folder: 'new' }),
        );
      }),
      live,
    );
    expect(find(p, 'channel["general"]#update').dependsOn).toEqual(['channelFolder["New"]#create']);
    expect(find(p, 'channel["fresh"]#create').dependsOn).toEqual(['channelFolder["New"]#create']);
  });
});

describe('plan: order as a slot merge (undeclared objects keep their places)', () => {
  // Live order → declared order → the order sent (`null`: no reorder). Undeclared live objects
  // keep their index; declared ones take the other slots in declared order; new ones are
  // appended by Zulip and take part from there.
  it.each<[string, string[], string[], boolean, string[] | null]>([
    [
      'already in declared relative order around an undeclared one',
      ['a', 'x', 'b'],
      ['a', 'b'],
      false,
      null,
    ],
    ['swapped around an undeclared one', ['a', 'x', 'b'], ['b', 'a'], false, ['b', 'x', 'a']],
    ['undeclared first stays first', ['x', 'a', 'b'], ['b', 'a'], false, ['x', 'b', 'a']],
    ['a new one after an undeclared last one', ['a', 'x'], ['a', 'n'], false, null],
    ['a new one declared first', ['a', 'x'], ['n', 'a'], false, ['n', 'x', 'a']],
    [
      'pruned ones leave, the rest keep their relative order',
      ['a', 'x', 'b'],
      ['a', 'b'],
      true,
      null,
    ],
    ['pruned, swapped', ['a', 'x', 'b', 'y'], ['b', 'a'], true, ['b', 'a']],
    ['everything declared', ['a', 'b', 'c'], ['c', 'a', 'b'], false, ['c', 'a', 'b']],
  ])('linkifiers: %s', (_name, liveOrder, declared, prune, expected) => {
    const b = new LiveBuilder();
    for (const k of liveOrder) b.linkifier(k, `https://${k}`);
    const p = run(
      desired((d) => {
        d.organization.prune.linkifier = prune;
        for (const k of declared)
          d.linkifiers.push({ path: `acme/${k}`, pattern: k, urlTemplate: `https://${k}` });
      }),
      b.build(),
    );
    const r = p.changes.find((c) => c.action === 'reorder');
    expect(r?.action === 'reorder' ? r.after.map((e) => e.key) : null).toEqual(expected);
  });

  it.each<[string, [string, boolean][], string[], boolean, string[] | null]>([
    [
      'an undeclared archived folder keeps its place',
      [
        ['A', false],
        ['Old', true],
        ['B', false],
      ],
      ['A', 'B'],
      false,
      null,
    ],
    [
      'swapped around an undeclared archived folder',
      [
        ['A', false],
        ['Old', true],
        ['B', false],
      ],
      ['B', 'A'],
      false,
      ['B', 'Old', 'A'],
    ],
    [
      'a pruned (archived) folder keeps its place',
      [
        ['A', false],
        ['X', false],
        ['B', false],
      ],
      ['B', 'A'],
      true,
      ['B', 'X', 'A'],
    ],
    [
      'a pruned folder, declared ones in order',
      [
        ['A', false],
        ['X', false],
        ['B', false],
      ],
      ['A', 'B'],
      true,
      null,
    ],
  ])('channel folders: %s', (_name, liveFolders, declared, prune, expected) => {
    const b = new LiveBuilder();
    for (const [name, archived] of liveFolders) b.folder(name, { archived });
    const p = run(
      desired((d) => {
        d.organization.prune.channelFolder = prune;
        for (const k of declared) d.channelFolders.push(dFolder(k));
      }),
      b.build(),
    );
    const r = p.changes.find((c) => c.action === 'reorder');
    expect(r?.action === 'reorder' ? r.after.map((e) => e.key) : null).toEqual(expected);
    if (prune && liveFolders.some(([n]) => n === 'X'))
      expect(summary(p)).toContain('archive channelFolder["X"]');
  });
});

describe('plan: descriptions as the server stores them', () => {
  // Zulip strips folder descriptions and turns newlines in channel descriptions into spaces;
  // whitespace at the ends must never make a diff that comes back after every apply.
  it.each<[string, string, string, string[]]>([
    ['folder, spaces at the ends', 'folder', '  Backend teams \n', []],
    ['folder, a real change', 'folder', ' Frontend ', ['update channelFolder["F"]']],
    ['channel, newline and spaces at the ends', 'channel', '\nAbout us \n', []],
    ['channel, inner newline is a space', 'channel', 'About\nus', []],
    ['channel, a real change', 'channel', 'About\nthem\n', ['update channel["c"]']],
  ])('%s', (_name, kind, declared, expected) => {
    const b = new LiveBuilder();
    b.folder('F', { description: 'Backend teams' });
    b.channel('c', { description: 'About us' });
    const p = run(
      desired((d) => {
        d.channelFolders.push(
          dFolder('F', { description: kind === 'folder' ? declared : 'Backend teams' }),
        );
        d.channels.push(dChannel('c', { description: kind === 'channel' ? declared : 'About us' }));
      }),
      b.build(),
    );
    expect(summary(p)).toEqual(expected);
  });

  it('creates folders and channels with the description the server will store', () => {
    const p = run(
      desired((d) => {
        d.channelFolders.push(dFolder('F', { description: ' Backend\n' }));
        d.channels.push(dChannel('c', { description: ' a\nb\n' }));
      }),
      new LiveBuilder().build(),
    );
    const f = find(p, 'channelFolder["F"]#create');
    expect(f.action === 'create' && f.properties.description).toBe('Backend');
    const c = find(p, 'channel["c"]#create');
    expect(c.action === 'create' && c.properties.description).toBe('a b');
  });
});

describe('plan: linkifiers, playgrounds, snippets', () => {
  const b = new LiveBuilder();
  const one = b.linkifier('one', 'https://1');
  const two = b.linkifier('two', 'https://2');
  const extra = b.linkifier('extra', 'https://x');
  const py = b.playground('python', 'Tutor', 'https://p/{code}');
  b.playground('rust', 'Play', 'https://r/{code}');
  const note = b.snippet('Greeting', 'Hello');
  b.snippet('Dup', 'a');
  b.snippet('Dup', 'b');
  const live = b.build();
  const l = (pattern: string, urlTemplate: string, o: object = {}) => ({
    path: `acme/${pattern}`,
    pattern,
    urlTemplate,
    ...o,
  });

  it('updates, creates and reorders linkifiers, undeclared ones in their slots', () => {
    const p = run(
      desired((d) =>
        d.linkifiers.push(l('two', 'https://2'), l('one', 'https://one'), l('three', 'https://3')),
      ),
      live,
    );
    expect(summary(p)).toEqual([
      'create linkifier["three"]',
      'update linkifier["one"]',
      'reorder linkifier["*"]',
    ]);
    expect(find(p, 'linkifier["*"]#reorder')).toMatchObject({
      before: ['one', 'two', 'extra'],
      after: [
        { key: 'two', id: two },
        { key: 'one', id: one },
        { key: 'extra', id: extra },
        { key: 'three', id: null },
      ],
    });
    expect(find(p, 'linkifier["*"]#reorder').dependsOn).toEqual(['linkifier["three"]#create']);
  });

  it('does not reorder when the order already matches; deletes with pruning', () => {
    expect(
      run(
        desired((d) => d.linkifiers.push(l('one', 'https://1'), l('two', 'https://2'))),
        live,
      ).changes,
    ).toEqual([]);
    const p = run(
      desired((d) => {
        d.organization.prune.linkifier = true;
        d.linkifiers.push(l('two', 'https://2'), l('one', 'https://1'));
      }),
      live,
    );
    expect(summary(p)).toEqual(['delete linkifier["extra"]', 'reorder linkifier["*"]']);
    expect(find(p, 'linkifier["*"]#reorder').dependsOn).toEqual(['linkifier["extra"]#delete']);
  });

  it('changes a pattern through renamedFrom', () => {
    const p = run(
      desired((d) =>
        d.linkifiers.push(
          l('uno', 'https://1', { lifecycle: { renamedFrom: ['one'] } }),
          l('two', 'https://2'),
          l('extra', 'https://x'),
        ),
      ),
      live,
    );
    expect(summary(p)).toEqual(['rename linkifier["uno"]']);
  });

  it('replaces a playground whose template changed (Zulip has no edit); creates and prunes', () => {
    const pg = (lang: string, name: string, url: string, o: object = {}) => ({
      path: 'acme/pg',
      pygmentsLanguage: lang,
      name,
      urlTemplate: url,
      ...o,
    });
    const p = run(
      desired((d) => {
        d.organization.prune.playground = true;
        d.playgrounds.push(
          pg('python', 'Tutor', 'https://q/{code}'),
          pg('go', 'Play', 'https://g/{code}'),
        );
      }),
      live,
    );
    expect(summary(p)).toEqual([
      'create playground["go/Play"]',
      'replace playground["python/Tutor"]',
      'delete playground["rust/Play"]',
    ]);
    expect(find(p, 'playground["python/Tutor"]#replace')).toMatchObject({
      liveId: py,
      before: { urlTemplate: 'https://p/{code}' },
      after: { urlTemplate: 'https://q/{code}' },
    });
    const q = run(
      desired((d) =>
        d.playgrounds.push(
          pg('python', 'Tutor', 'https://q/{code}', { lifecycle: { protect: true } }),
        ),
      ),
      live,
    );
    expect(codes(q.findings)).toEqual(['PROTECTED']);
  });

  it('updates, renames and creates snippets; warns about duplicate titles', () => {
    const s = (title: string, content: string, o: object = {}) => ({
      path: 'acme/s',
      title,
      content,
      ...o,
    });
    const p = run(
      desired((d) =>
        d.savedSnippets.push(
          s('Hi', 'Hello!', { lifecycle: { renamedFrom: ['Greeting'] } }),
          s('New', 'x'),
        ),
      ),
      live,
    );
    expect(summary(p)).toEqual([
      'rename savedSnippet["Hi"]',
      'create savedSnippet["New"]',
      'update savedSnippet["Hi"]',
    ]);
    expect(find(p, 'savedSnippet["Hi"]#rename')).toMatchObject({
      liveId: note,
      from: 'Greeting',
      to: 'Hi',
    });
    expect(warned(p)).toEqual(['DUPLICATE_SNIPPET']);
    // Both 'Dup' snippets are undeclared; the duplicate gets its id in its address.
    expect(
      p.warnings.filter((w) => w.address?.startsWith('savedSnippet')).map((w) => w.address),
    ).toEqual([
      'savedSnippet["Dup"]',
      'savedSnippet["Dup"]',
      expect.stringMatching(/^savedSnippet\["Dup#\d+"\]$/),
    ]);
  });
});

describe('plan: users and subscription settings', () => {
  const b = new LiveBuilder();
  const general = b.channel('general', { subscribers: [1] });
  b.channel('other', { subscribers: [3] });
  b.settings(general.id, { color: '#AABBCC' });
  const live = b.build();
  const u = (email: string, o: object) => ({ path: `acme/users/${email}`, email, ...o });

  it('changes roles and names; an absent role is not managed', () => {
    const p = run(
      desired((d) =>
        d.users.push(
          u('alice@example.com', { role: 'moderator' }),
          u('bob@example.com', { fullName: 'Bob B' }),
          u('carol@example.com', {}),
        ),
      ),
      live,
    );
    expect(updates(p, 'user["alice@example.com"]')).toEqual({ role: ['member', 'moderator'] });
    expect(updates(p, 'user["bob@example.com"]')).toEqual({ fullName: ['bob', 'Bob B'] });
    expect(p.findings).toEqual([]);
  });

  it('warns about deactivated users and fails on users that do not exist', () => {
    const p = run(
      desired((d) => d.users.push(u('gone@example.com', { role: 'moderator' }))),
      live,
    );
    expect(warned(p)).toEqual(['DEACTIVATED_USER']);
    expect(p.changes).toEqual([]);
    expect(() =>
      run(
        desired((d) =>
          d.users.push(
            u('x@example.com', { role: 'member' }),
            u('gone@example.com', { role: 'member' }),
          ),
        ),
        live,
      ),
    ).toThrow(
      /user\["x@example.com"\] \(acme\/users\/x@example.com\): email: x@example.com is not a user/,
    );
  });

  it('finds removed administrators and the applying account losing admin; refuses leaving no owner', () => {
    const demote = desired((d) =>
      d.users.push(
        u('owner@example.com', { role: 'member' }),
        u('admin@example.com', { role: 'moderator' }),
      ),
    );
    // Zulip refuses to demote the only owner (update_user_backend, check_last_owner).
    expect(() => run(demote, live)).toThrow(/The owner permission cannot be removed/);
    // With a bot owner, Zulip counts no human owner left either; the guard counts the bot.
    const withBotOwner = structuredClone(live);
    withBotOwner.users.push({
      ...structuredClone(withBotOwner.users[0]!),
      id: 99,
      email: 'bot@example.com',
      isBot: true,
    });
    expect(() => run(demote, withBotOwner)).toThrow(/only owner after this plan/);
    const twoOwners = structuredClone(live);
    twoOwners.users.find((x) => x.email === 'carol@example.com')!.role = 100;
    const p = run(demote, twoOwners);
    expect(codes(p.findings).sort()).toEqual([
      'ADMIN_REMOVED',
      'SELF_ADMIN_LOSS',
      'TOO_FEW_ADMINISTRATORS',
    ]);
    // Role changes come last, so the applying account keeps its rights while apply works.
    const q = run(
      desired((d) => {
        d.users.push(
          u('owner@example.com', { role: 'administrator' }),
          u('admin@example.com', { role: 'owner' }),
        );
        d.channels.push(dChannel('general', { description: 'x' }), dChannel('other'));
      }),
      live,
    );
    expect(summary(q).at(-1)).toMatch(/^update user/);
    // An administrator made owner gains the owner's abilities: a privileged change.
    expect(codes(q.findings)).toEqual(['PRIVILEGED_CHANGE']);
  });

  it('sets the applying account subscription settings, compares colours case-insensitively', () => {
    const s = (channel: string, o: object) => ({ path: `acme/subs/${channel}`, channel, ...o });
    const p = run(
      desired((d) =>
        d.subscriptionSettings.push(
          s('general', { color: '#aabbcc', isMuted: true, desktopNotifications: false }),
          s('other', { pinToTop: true }),
        ),
      ),
      live,
    );
    expect(updates(p, 'subscriptionSettings["general"]')).toEqual({
      isMuted: [false, true],
      desktopNotifications: [null, false],
    });
    expect(warned(p)).toEqual(['NOT_SUBSCRIBED']);
  });

  it('settings on a channel the plan subscribes the account to wait for the subscription', () => {
    const s = (channel: string, o: object) => ({ path: `acme/subs/${channel}`, channel, ...o });
    const p = run(
      desired((d) => {
        d.channels.push(
          dChannel('general'),
          dChannel('other', {
            subscribers: { mode: 'atLeast', users: ['owner@example.com'], groups: [] },
          }),
        );
        d.subscriptionSettings.push(s('other', { pinToTop: true }));
      }),
      live,
    );
    expect(find(p, 'subscriptionSettings["other"]#update')).toMatchObject({
      properties: [{ property: 'pinToTop', before: null, after: true }],
      dependsOn: ['channel["other"]#membership'],
    });
  });
});

describe('plan: subscription settings on a channel the plan creates', () => {
  const sub = (users: string[], mode: 'exact' | 'atLeast' = 'exact') => ({
    subscribers: { mode, users, groups: [] },
  });
  it.each<[string, Parameters<typeof dChannel>[1], boolean]>([
    ['the account is among the subscribers', sub(['owner@example.com', 'alice@example.com']), true],
    ['the account is not among the subscribers', sub(['alice@example.com']), false],
    ['atLeast, the account not listed', sub(['alice@example.com'], 'atLeast'), false],
    [
      'the account comes in through a group',
      { subscribers: { mode: 'exact', users: [], groups: ['role:owners'] } },
      true,
    ],
    ['subscribers not declared (apply subscribes the account)', {}, true],
  ])('%s', (_name, o, settable) => {
    const p = run(
      desired((d) => {
        d.channels.push(dChannel('new', o));
        d.subscriptionSettings.push({ path: 'acme/subs/new', channel: 'new', pinToTop: true });
      }),
      new LiveBuilder().build(),
    );
    const planned = p.changes.some((c) => c.id === 'subscriptionSettings["new"]#update');
    expect(planned).toBe(settable);
    expect(warned(p).includes('NOT_SUBSCRIBED')).toBe(!settable);
  });
});

describe('plan: feature levels', () => {
  it('collects every feature the server lacks, naming level and server level', () => {
    const d = desired((d) => {
      d.channelFolders.push(dFolder('F'));
      d.channels.push(
        dChannel('x', {
          folder: 'F',
          topicsPolicy: 'empty_topic_only',
          permissions: { canCreateTopicGroup: 'role:members', canSendMessageGroup: 'role:members' },
        }),
      );
      d.userGroups.push(dGroup('g'));
    });
    let err: unknown;
    try {
      plan(d, new LiveBuilder(FEATURE_LEVELS.zulip10).build());
    } catch (e) {
      err = e;
    }
    expect(isZulipCdkError(err, 'UNSUPPORTED_FEATURE')).toBe(true);
    const msg = (err as Error).message;
    expect(msg).toMatch(
      /channelFolder\["F"\].*channel folders needs Zulip feature level 389 \(Zulip 11\.0\); the server is at 372/,
    );
    expect(msg).toMatch(
      /channel\["x"\].*can_create_topic_group needs Zulip feature level 441 \(Zulip 12\.0\)/,
    );
    expect(msg).toMatch(/topics_policy needs Zulip feature level 392/);
    expect(msg).toMatch(/empty_topic_only/);
    expect(msg).not.toMatch(/can_send_message_group/);
    expect(msg.split('\n')).toHaveLength(6);
  });

  it.each<[string, boolean, boolean | undefined, boolean]>([
    ['web-public channel, server without web-public channels', false, true, true],
    ['web-public channel, server with web-public channels', true, true, false],
    ['channel not web-public, server without web-public channels', false, false, false],
    ['webPublic undeclared, server without web-public channels', false, undefined, false],
  ])('%s', (_name, enabled, webPublic, fails) => {
    const b = new LiveBuilder();
    b.state.server.webPublicChannelsEnabled = enabled;
    b.channel('live-public', { webPublic: false });
    const d = desired((d) =>
      d.channels.push(
        dChannel('new-public', webPublic === undefined ? {} : { webPublic }),
        dChannel('live-public', webPublic === undefined ? {} : { webPublic }),
      ),
    );
    if (!fails) {
      expect(() => run(d, b.build())).not.toThrow();
      return;
    }
    expect(() => plan(d, b.build())).toThrow(
      expect.objectContaining({ code: 'WEB_PUBLIC_DISABLED' }),
    );
    const msg = (() => {
      try {
        plan(d, b.build());
      } catch (e) {
        return (e as Error & { hint?: string }).message + String((e as { hint?: string }).hint);
      }
      return '';
    })();
    expect(msg).toContain('channel["new-public"] (acme/new-public)');
    expect(msg).toContain('channel["live-public"] (acme/live-public)');
    expect(msg).toMatch(/spectator/);
    expect(msg).toMatch(/WEB_PUBLIC_STREAMS_ENABLED/);
    expect(msg).toMatch(/webPublic/);
  });

  it('refuses servers older than the minimum', () => {
    expect(() => plan(desired(), new LiveBuilder(300).build())).toThrow(/needs 372/);
  });
});

describe('plan: targets, fingerprints, digests', () => {
  const b = new LiveBuilder();
  b.group('eng');
  const general = b.channel('general');
  b.channel('random');
  const live = b.build();
  const d = desired((d) => {
    d.userGroups.push(dGroup('eng'), dGroup('new'));
    d.channels.push(
      dChannel('general', { description: 'x', permissions: { canSendMessageGroup: 'new' } }),
      dChannel('random', { description: 'y' }),
    );
  });

  it('limits the plan to targets and what they depend on', () => {
    const p = run(d, live, ['channel["general"]']);
    expect(summary(p)).toEqual(['create userGroup["new"]', 'update channel["general"]']);
    expect(p.targets).toEqual(['channel["general"]']);
    expect(summary(run(d, live, ['channel']))).toHaveLength(3);
  });

  it('fingerprints each live object it touches, stably', () => {
    const p = run(d, live);
    expect(Object.keys(p.fingerprints)).toEqual(['channel["general"]', 'channel["random"]']);
    expect(p.fingerprints['channel["general"]']).toMatch(/^[0-9a-f]{64}$/);
    const moved = structuredClone(live);
    moved.channels.find((c) => c.id === general.id)!.description = 'changed by hand';
    const q = run(d, moved);
    expect(q.fingerprints['channel["general"]']).not.toEqual(p.fingerprints['channel["general"]']);
    expect(q.fingerprints['channel["random"]']).toEqual(p.fingerprints['channel["random"]']);
    // Subscribers are fingerprinted separately from the object.
    const subs = structuredClone(live);
    subs.channels.find((c) => c.id === general.id)!.subscribers = [1, 3];
    expect(run(d, subs).fingerprints).toEqual(p.fingerprints);
  });

  it('is deterministic and records the desired digest and server', () => {
    const p = run(d, live);
    expect(run(structuredClone(d), structuredClone(live))).toEqual(p);
    expect(p.desiredDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(p.server).toEqual({
      site: 'https://zulip.example.com',
      featureLevel: FEATURE_LEVELS.newest,
      version: '12.0-dev',
      channelEventsMessages: true,
    });
    expect(p).not.toHaveProperty('createdAt');
    expect(plan(d, live, { createdAt: '2026-01-01T00:00:00Z' }).createdAt).toBe(
      '2026-01-01T00:00:00Z',
    );
  });
});

describe('plan: what a real Zulip refuses or does (issue 11)', () => {
  it('releases the settings of a group that name the group itself before deactivating it (check_user_group_can_be_deactivated)', () => {
    for (const how of ['declared', 'pruned'] as const) {
      const b = new LiveBuilder();
      const g = b.group('ops', { members: [3] });
      g.permissions.can_manage_group = g.id;
      g.permissions.can_mention_group = { direct_members: [4], direct_subgroups: [g.id] };
      const d = desired((d) => {
        if (how === 'declared') d.userGroups.push(dGroup('ops', { deactivated: true }));
        else d.organization.prune.userGroup = true;
      });
      const p = run(d, b.build());
      expect(summary(p)).toEqual(['update userGroup["ops"]', 'deactivate userGroup["ops"]']);
      const update = find(p, 'userGroup["ops"]#update') as UpdateChange;
      expect(update.properties.map((x) => [x.wire, x.after, x.old])).toEqual([
        ['can_manage_group', { users: ['owner@example.com'], groups: [] }, g.id],
        [
          'can_mention_group',
          { users: ['owner@example.com'], groups: [] },
          { direct_members: [4], direct_subgroups: [g.id] },
        ],
      ]);
      expect(find(p, 'userGroup["ops"]#deactivate').dependsOn).toEqual(['userGroup["ops"]#update']);
    }
  });

  it('refuses, before apply, creating a group or setting retention on Zulip Cloud Free (ensure_not_on_limited_plan)', () => {
    const b = new LiveBuilder();
    b.group('existing');
    b.channel('general');
    const l = b.build();
    const free = { ...l, server: { ...l.server, planType: 2 } };
    const withGroup = desired((d) => d.userGroups.push(dGroup('existing'), dGroup('new-team')));
    expect(() => plan(withGroup, free)).toThrow(
      /userGroup\["new-team"\] \(acme\/new-team\): Zulip Cloud Free does not create user groups/,
    );
    // An existing group is fine, and so is any group on another plan.
    expect(() =>
      run(
        desired((d) => d.userGroups.push(dGroup('existing'))),
        free,
      ),
    ).not.toThrow();
    expect(() => run(withGroup, { ...l, server: { ...l.server, planType: 3 } })).not.toThrow();
    const retention = desired((d) =>
      d.channels.push(dChannel('general', { messageRetentionDays: 30 })),
    );
    expect(() => plan(retention, free)).toThrow(/channel\["general"\].*message retention/);
    expect(() => run(retention, l)).not.toThrow();
  });

  it('compares linkifiers as Zulip stores them: stripped (do_add_linkifier)', () => {
    const b = new LiveBuilder();
    b.linkifier('#(?P<id>[0-9]+)', 'https://example.com/{id}');
    const p = run(
      desired((d) =>
        d.linkifiers.push({
          path: 'acme/l',
          pattern: ' #(?P<id>[0-9]+) ',
          urlTemplate: 'https://example.com/{id}\n',
        }),
      ),
      b.build(),
    );
    expect(summary(p)).toEqual([]);
  });

  it('says a new channel created without subscribers announces nothing (create_channel), and leaves announce out', () => {
    const b = new LiveBuilder();
    const p = run(
      desired((d) => d.channels.push(dChannel('news', { announce: true }))),
      b.build(),
    );
    expect(warned(p)).toEqual(['NOTHING_ANNOUNCED']);
    expect(
      (find(p, 'channel["news"]#create') as { properties: object }).properties,
    ).not.toHaveProperty('announce');
    const withSubscribers = run(
      desired((d) =>
        d.channels.push(
          dChannel('news', {
            announce: true,
            subscribers: { mode: 'atLeast', users: ['alice@example.com'], groups: [] },
          }),
        ),
      ),
      b.build(),
    );
    expect(warned(withSubscribers)).toEqual([]);
    expect(
      (find(withSubscribers, 'channel["news"]#create') as { properties: object }).properties,
    ).toMatchObject({ announce: true });
  });

  it('lists who Zulip messages about a group membership change (notify_for_user_group_subscription_changes)', () => {
    const b = new LiveBuilder();
    b.group('ops', { members: [1, 3, 4] });
    const p = run(
      desired((d) =>
        d.userGroups.push(
          dGroup('ops', {
            members: { mode: 'exact', users: ['bob@example.com', 'carol@example.com'], groups: [] },
          }),
          dGroup('new', {
            members: { mode: 'exact', users: ['bob@example.com'], groups: [] },
          }),
        ),
      ),
      b.build(),
    );
    // Added carol, removed alice and the applying account: everyone but the account is told.
    expect(find(p, 'userGroup["ops"]#membership')).toMatchObject({
      notify: true,
      messaged: ['alice@example.com', 'carol@example.com'],
    });
    // Members a group is created with are not messaged.
    expect(find(p, 'userGroup["new"]#membership')).toMatchObject({ notify: false });
    expect(find(p, 'userGroup["new"]#membership')).not.toHaveProperty('messaged');
  });

  it('matches a folder left under its stand-in name by an interrupted case-only rename', () => {
    const b = new LiveBuilder();
    b.folder('Ops (renaming)');
    const p = run(
      desired((d) => d.channelFolders.push(dFolder('Ops'))),
      b.build(),
    );
    expect(summary(p)).toEqual(['rename channelFolder["Ops"]']);
  });
});
