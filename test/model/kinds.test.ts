import * as constructs from '../../src/constructs';
import { plan } from '../../src/engine';
import type { UpdateChange } from '../../src/engine';
import { generateApp } from '../../src/import';
import {
  CHANNEL_PERMISSIONS,
  GROUP_PERMISSIONS,
  KIND_SPECS,
  PRUNABLE_KINDS,
  RESOURCE_KINDS,
  creatorDefault,
  emptyDesiredState,
} from '../../src/model';
import type { PermissionSettingInfo } from '../../src/model';
import { LiveBuilder, dChannel, dGroup, desired } from '../engine/fixtures';

describe('the kind registry', () => {
  it('names a desired-state collection for every kind, each once', () => {
    const collections = RESOURCE_KINDS.map((k) => KIND_SPECS[k].collection);
    const state = emptyDesiredState();
    for (const c of collections) expect(state).toHaveProperty(c);
    expect(new Set(collections).size).toBe(RESOURCE_KINDS.length);
  });

  it("names each kind's construct, the class the importer declares it with", () => {
    for (const k of RESOURCE_KINDS) {
      const cls = (constructs as Record<string, unknown>)[KIND_SPECS[k].construct];
      expect(typeof cls).toBe('function');
      expect((cls as { prototype: unknown }).prototype).toBeInstanceOf(constructs.ZulipResource);
    }
  });

  it('prunes exactly the kinds with a removal action', () => {
    expect([...PRUNABLE_KINDS]).toEqual([
      'channelFolder',
      'userGroup',
      'channel',
      'linkifier',
      'playground',
      'savedSnippet',
      'customEmoji',
      'defaultChannelGroup',
      'customProfileField',
      'allowedDomain',
    ]);
  });

  it('compares keys as Zulip does', () => {
    const same = (kind: keyof typeof KIND_SPECS, a: string, b: string): boolean =>
      KIND_SPECS[kind].compareKey(a) === KIND_SPECS[kind].compareKey(b);
    expect(same('channel', 'General', 'general ')).toBe(true);
    expect(same('channelFolder', 'Teams', 'teams')).toBe(true);
    expect(same('subscriptionSettings', 'General', 'general')).toBe(true);
    expect(same('user', 'Alice@Example.com', 'alice@example.com')).toBe(true);
    expect(same('userGroup', 'Eng', 'eng')).toBe(false);
    expect(same('linkifier', '#(?P<id>[0-9]+)', '#(?P<ID>[0-9]+)')).toBe(false);
    // DefaultStreamGroup's unique (realm, name) compares names as stored.
    expect(same('defaultChannelGroup', 'Engineering', 'engineering')).toBe(false);
    // CustomProfileField's unique (realm, name) too.
    expect(same('customProfileField', 'Team', 'team')).toBe(false);
    // create_realm_domain stores `domain.strip().lower()` and looks it up as stored.
    expect(same('allowedDomain', 'Example.COM ', 'example.com')).toBe(true);
    expect(same('allowedDomain', 'example.com', 'example.org')).toBe(false);
  });
});

describe('creatorDefault: one rule for the planner and the importer', () => {
  const users = new Map([
    [1, { email: 'owner@example.com', isActive: true }],
    [6, { email: 'gone@example.com', isActive: false }],
  ]);

  it.each<[string, number | null, unknown]>([
    ['an active creator: their anonymous group', 1, { users: ['owner@example.com'], groups: [] }],
    ['no creator', null, 'role:nobody'],
    ['a deactivated creator (Zulip reports the group without them)', 6, 'role:nobody'],
    ['a creator who is not among the users', 999, 'role:nobody'],
  ])('%s', (_, creatorId, expected) => {
    expect(creatorDefault(creatorId, users)).toEqual(expected);
  });

  // Before the registry, the planner held this setting at `{users: ['user#999']}` (a user
  // apply cannot resolve) while the importer held it at `role:nobody` and left it out: the
  // imported code planned a change that could never be applied.
  it('an unknown creator: the import leaves the setting out and the plan keeps it', () => {
    const b = new LiveBuilder();
    // Zulip reports the creator's anonymous group without a user it does not know as active.
    const asNobody = (table: Record<string, PermissionSettingInfo>) =>
      Object.fromEntries(
        Object.values(table)
          .filter((info) => info.default === 'creator')
          .map((info) => [info.wire, b.groupId('role:nobody')]),
      );
    b.channel('ops', { creatorId: 999, permissions: asNobody(CHANNEL_PERMISSIONS) });
    b.group('oncall', { creatorId: 999, permissions: asNobody(GROUP_PERMISSIONS) });
    const live = b.build();

    const code = Object.values(generateApp(live).files).join('\n');
    expect(code).not.toMatch(/canAdministerChannelGroup|canManageGroup|canAddMembersGroup/);

    const p = plan(
      desired((d) => {
        d.channels.push(dChannel('ops', { description: '' }));
        d.userGroups.push(dGroup('oncall', { members: { mode: 'exact', users: [], groups: [] } }));
      }),
      live,
    );
    const properties = p.changes
      .filter((c): c is UpdateChange => c.action === 'update')
      .flatMap((c) => c.properties.map((x) => `${c.address} ${x.property}`));
    expect(properties).toEqual([]);
  });
});
