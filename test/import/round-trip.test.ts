/**
 * Import, write, synth, plan against the same organization: no change. On the embedded demo
 * organization and on randomly generated ones, at the newest feature level and at Zulip 10.2's.
 */
import { hasChanges, plan } from '../../src/engine';
import { FEATURE_LEVELS } from '../../src/model/features';
import type { LiveState } from '../../src/model/live-state';
import { generateApp } from '../../src/import';
import type { GenerateAppOptions } from '../../src/import';
import { readEmbedded, synthInProcess, writeApp } from './harness';
import { randomOrg } from './random-org';

function roundTrip(live: LiveState, options: GenerateAppOptions = {}) {
  const app = generateApp(live, options);
  const dir = writeApp(app.files);
  const states = synthInProcess(dir);
  expect(states).toHaveLength(1);
  const desired = states[0]!;
  const result = plan(desired, live);
  return { app, dir, desired, result };
}

function describeChanges(result: ReturnType<typeof plan>): string[] {
  return result.changes.map((c) => `${c.action} ${c.address} ${JSON.stringify(c).slice(0, 400)}`);
}

describe.each([FEATURE_LEVELS.newest, FEATURE_LEVELS.zulip11, FEATURE_LEVELS.zulip10])(
  'at feature level %i',
  (fl) => {
    test('the demo organization round-trips with no change', async () => {
      const live = await readEmbedded({ featureLevel: fl });
      const { result, desired } = roundTrip(live);
      expect(describeChanges(result)).toEqual([]);
      expect(hasChanges(result)).toBe(false);
      // Everything the demo has is declared (nothing left undeclared but system groups).
      expect(result.warnings.filter((w) => w.code === 'UNDECLARED')).toEqual([]);
      expect(desired.channels.map((c) => c.name)).toContain('old-projects');
      expect(desired.userGroups.find((g) => g.name === 'retired-team')?.deactivated).toBe(true);
    });

    test.each([1, 2, 3])('random organization %i round-trips with no change', async (seed) => {
      const live = await readEmbedded({ featureLevel: fl, state: randomOrg(seed, fl) });
      expect(live.channels.length).toBeGreaterThan(40);
      // What the organization is meant to exercise is really there.
      expect(live.channels.filter((c) => c.archived).length).toBeGreaterThan(0);
      expect(live.channels.filter((c) => c.private).length).toBeGreaterThan(5);
      expect(live.userGroups.some((g) => g.deactivated)).toBe(true);
      const named = live.userGroups.filter((g) => !g.isSystemGroup);
      const nested = named.filter((g) =>
        g.subgroups.some((id) => named.find((x) => x.id === id)?.subgroups.length),
      );
      expect(nested.length).toBeGreaterThan(0);
      const anonymous = [...named, ...live.channels].flatMap((o) =>
        Object.values(o.permissions).filter((v) => typeof v !== 'number'),
      );
      expect(anonymous.length).toBeGreaterThan(20);
      const byId = (xs: { id: number }[]): number[] => xs.map((x) => x.id);
      expect(byId(live.linkifiers)).not.toEqual([...byId(live.linkifiers)].sort((a, b) => a - b));
      if (fl >= 414)
        expect(byId(live.channelFolders)).not.toEqual(
          [...byId(live.channelFolders)].sort((a, b) => a - b),
        );
      const { result, app, desired } = roundTrip(live);
      const code = Object.values(app.files).join('\n');
      expect(code).toContain('.setPermissions({');
      expect(code).toContain('Permission.anyOf({');
      expect(code).toContain('new SubscriptionSettings(');
      expect(code).toMatch(/subscribers: \{\n\s+mode: 'exact',\n\s+groups: \[groups\.teamA\],/);
      if (fl >= 389) expect(code).toContain('archived: true,\n  });');
      // Default channel groups: by construct where the channel is declared, by name for a
      // default channel (which the construct refuses).
      expect(desired.defaultChannelGroups.map((g) => [g.name, g.channels.length])).toEqual([
        ['Empty', 0],
        [
          'Newcomers',
          live.defaultChannelGroups.find((g) => g.name === 'Newcomers')!.channelIds.length,
        ],
        ['Team "A"', 1],
      ]);
      expect(code).toContain('new DefaultChannelGroup(');
      // Custom profile fields in Zulip's order, choices by text, users' values on the users
      // (a value naming a deactivated user is left alone).
      expect(desired.customProfileFields.map((f) => [f.name, f.type])).toEqual([
        ['Phone number', 'short-text'],
        ['Twitter username', 'external-account'],
        ['Team', 'choice'],
        ['Bio', 'long-text'],
        ['Mastodon', 'external-account'],
        ['Manager', 'user'],
        ['Start date', 'date'],
      ]);
      expect(desired.customProfileFields[2]!.choices).toEqual(['Operations "Ops"', 'Engineering']);
      const withValues = desired.users.filter((u) => u.profile);
      expect(withValues.map((u) => Object.keys(u.profile!).sort())).toEqual(
        expect.arrayContaining([
          ['Manager', 'Phone number', 'Start date', 'Team', 'Twitter username'],
        ]),
      );
      expect(code).toContain('new CustomProfileField(');
      expect(code).toContain("'Phone number': '+33 1 23 45 67 89',");
      // Allowed domains from the spec alone (the default keyed importer), named by the domain.
      expect(desired.allowedDomains.map((d) => [d.domain, d.allowSubdomains])).toEqual([
        ['acme.example', true],
        ['eu.beta.example', undefined],
      ]);
      expect(code).toContain(
        "new AllowedDomain(org, 'acme-example', {\n    domain: 'acme.example',\n    allowSubdomains: true,\n  });",
      );
      expect(describeChanges(result)).toEqual([]);
      expect(hasChanges(result)).toBe(false);
      // Only the duplicate snippet (same title as an older one) is left undeclared, on purpose.
      expect(result.warnings.filter((w) => w.code === 'UNDECLARED').map((w) => w.address)).toEqual([
        expect.stringMatching(/^savedSnippet\["Welcome#\d+"\]$/),
      ]);
      expect(app.skipped.map((s) => `${s.kind} ${s.name}`)).toContain('savedSnippet Welcome');
      // Large: one file per kind.
      expect(Object.keys(app.files).sort()).toEqual(
        expect.arrayContaining(['main.ts', 'groups.ts', 'channels.ts', 'linkifiers.ts']),
      );
      // Linkifiers and folders keep Zulip's order, archived folders included.
      expect(desired.linkifiers.map((l) => l.pattern)).toEqual(
        live.linkifiers.map((l) => l.pattern),
      );
      expect(desired.channelFolders.map((f) => f.name)).toEqual(
        live.channelFolders.map((f) => f.name),
      );
    });
  },
);

test("a member's profile value that cannot be declared is said once, and the member still imported", async () => {
  const fl = FEATURE_LEVELS.newest;
  const state = randomOrg(1, fl);
  const member = state.users.find((u) => u.isActive && !u.isBot && u.role === 400 && u.profileData);
  const gone = state.users.find((u) => !u.isActive && !u.isBot);
  const manager = state.customProfileFields?.find((f) => f.name === 'Manager');
  if (!member?.profileData || !gone || !manager) throw new Error('the random organization changed');
  // A user field naming a deactivated user cannot be declared; the member's other values can.
  member.profileData[manager.id] = { value: JSON.stringify([gone.id]) };
  const live = await readEmbedded({ featureLevel: fl, state });
  const app = generateApp(live);
  expect(app.skipped.filter((s) => s.name === member.email)).toEqual([
    expect.objectContaining({ kind: 'user', reason: expect.stringContaining("'Manager'") }),
  ]);
  expect(Object.values(app.files).join('\n')).toContain(`email: '${member.email}'`);
});

test('--include limits the kinds, pulling in what they refer to, and still plans no change', async () => {
  const fl = FEATURE_LEVELS.newest;
  const live = await readEmbedded({ featureLevel: fl, state: randomOrg(4, fl) });
  const { app, result, desired } = roundTrip(live, { include: ['channels'] });
  expect(describeChanges(result)).toEqual([]);
  expect(hasChanges(result)).toBe(false);
  expect(desired.linkifiers).toEqual([]);
  expect(desired.users).toEqual([]);
  // Groups used by channel permissions are declared (pulled in), and listed in the header.
  expect(desired.userGroups.length).toBeGreaterThan(0);
  expect(app.files['main.ts']).toContain('Imported because something imported refers to them');
});

test('subscriber policies: all channels, or none', async () => {
  const fl = FEATURE_LEVELS.newest;
  const live = await readEmbedded({ featureLevel: fl, state: randomOrg(5, fl) });
  const all = roundTrip(live, { subscribers: 'all', layout: 'single' });
  expect(hasChanges(all.result)).toBe(false);
  expect(all.desired.channels.filter((c) => !c.archived).every((c) => c.subscribers)).toBe(true);
  const none = roundTrip(live, { subscribers: 'none' });
  expect(hasChanges(none.result)).toBe(false);
  expect(none.desired.channels.some((c) => c.subscribers)).toBe(false);
});

test('the round trip notices a difference: the same app planned against a changed organization', async () => {
  const live = await readEmbedded({ featureLevel: FEATURE_LEVELS.newest });
  const { desired } = roundTrip(live);
  const changed = structuredClone(live);
  const design = changed.channels.find((c) => c.name === 'design')!;
  design.description = 'Edited in Zulip';
  const leadership = changed.channels.find((c) => c.name === 'leadership')!;
  leadership.subscribers = [...(leadership.subscribers ?? []), changed.users[4]!.id];
  const result = plan(desired, changed);
  expect(result.changes.map((c) => `${c.action} ${c.address}`).sort()).toEqual([
    'membership channel["leadership"]',
    'update channel["design"]',
  ]);
});
