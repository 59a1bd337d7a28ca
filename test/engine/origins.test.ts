import {
  PlanSchema,
  changesByOrigin,
  parsePlan,
  plan,
  planJsonSchema,
  renderMarkdown,
  renderText,
} from '../../src/engine';
import type { Change, Plan } from '../../src/engine';
import type { DesiredState } from '../../src/model';
import { LiveBuilder, dChannel, dGroup, desired } from './fixtures';

/**
 * `plan --base` (issue 15, item 2): the changes of a pull request apart from drift (the
 * organization changed by hand), per property and per member, and the drift the plan leaves
 * alone.
 */

const mine = { canManageGroup: { users: ['owner@example.com'], groups: [] } };

/** Live: #town described "changed by hand", group crew of alice (bob removed by hand), #other undeclared. */
function live() {
  const b = new LiveBuilder();
  b.group('crew', { members: [3], description: 'Crew, by hand' });
  b.channel('town', { description: 'changed by hand' });
  b.channel('other');
  return b.build();
}

/** The base branch: #town "Town", crew = alice and bob. */
const base = desired((d) => {
  d.channels.push(dChannel('town', { description: 'Town' }));
  d.userGroups.push(
    dGroup('crew', {
      description: 'Crew',
      members: { mode: 'exact', users: ['alice@example.com', 'bob@example.com'], groups: [] },
      permissions: mine,
    }),
  );
});

/** The pull request: #town also a default channel, carol joins crew, crew's description ignored. */
function head(): DesiredState {
  return desired((d) => {
    d.channels.push(dChannel('town', { description: 'Town', defaultChannel: true }));
    d.userGroups.push(
      dGroup('crew', {
        description: 'Crew',
        lifecycle: { ignoreChanges: ['description'] },
        members: {
          mode: 'exact',
          users: ['alice@example.com', 'bob@example.com', 'carol@example.com'],
          groups: [],
        },
        permissions: mine,
      }),
    );
  });
}

const byId = (p: Plan, id: string): Change => p.changes.find((c) => c.id === id)!;

describe('plan --base', () => {
  const p = plan(head(), live(), { base });

  it('marks each property of an update: the pull request, or drift it reverts', () => {
    const town = byId(p, 'channel["town"]#update');
    expect(town.origin).toBe('mixed');
    expect(town.action === 'update' && town.properties.map((x) => [x.property, x.origin])).toEqual([
      ['description', 'drift'],
      ['defaultChannel', 'change'],
    ]);
  });

  it('marks each member of a membership change', () => {
    const crew = byId(p, 'userGroup["crew"]#membership');
    expect(crew.origin).toBe('mixed');
    expect(crew.action === 'membership' && crew.add.map((u) => [u.email, u.origin])).toEqual([
      ['bob@example.com', 'drift'],
      ['carol@example.com', 'change'],
    ]);
  });

  it('lists the drift it leaves alone: ignoreChanges and undeclared objects', () => {
    expect(p.ignoredDrift).toEqual([
      {
        reason: 'ignoreChanges',
        kind: 'userGroup',
        address: 'userGroup["crew"]',
        path: 'acme/crew',
        property: 'description',
        before: 'Crew, by hand',
        after: 'Crew',
        message:
          'description is "Crew, by hand" in the organization; the configuration says "Crew" but ignores it',
      },
      {
        reason: 'undeclared',
        kind: 'channel',
        address: 'channel["other"]',
        path: null,
        message:
          'exists in the organization but not in the configuration; left as it is (pruning is off for channel)',
      },
    ]);
  });

  it('splits the changes into sections, a mixed change in both with its own parts', () => {
    const s = changesByOrigin(p.changes)!;
    const show = (cs: Change[]) =>
      cs.map((c) =>
        c.action === 'update'
          ? `${c.id} ${c.properties.map((x) => x.property).join(',')}`
          : c.action === 'membership'
            ? `${c.id} ${c.add.map((u) => u.email).join(',')}`
            : c.id,
      );
    expect(show(s.change)).toEqual([
      'userGroup["crew"]#membership carol@example.com',
      'channel["town"]#update defaultChannel',
    ]);
    expect(show(s.drift)).toEqual([
      'userGroup["crew"]#membership bob@example.com',
      'channel["town"]#update description',
    ]);
  });

  it('shows the hand change in the drift section of the text and Markdown plans', () => {
    const text = renderText(p);
    const change = text.indexOf('Changes of this pull request (2):');
    const drift = text.indexOf('Drift that applying reverts');
    const ignored = text.indexOf('Drift left alone (ignoreChanges, undeclared objects) (2):');
    expect(change).toBeGreaterThan(0);
    expect(drift).toBeGreaterThan(change);
    expect(ignored).toBeGreaterThan(drift);
    const hand = text.indexOf('description: "changed by hand" -> "Town"');
    expect(hand).toBeGreaterThan(drift);
    expect(hand).toBeLessThan(ignored);
    expect(text.slice(change, drift)).toContain('defaultChannel: false -> true');
    expect(text.slice(change, drift)).not.toContain('changed by hand');
    const md = renderMarkdown(p);
    const mdDrift = md.indexOf('#### Drift that applying reverts');
    expect(md.indexOf('#### Changes of this pull request (2)')).toBeGreaterThan(0);
    expect(md.indexOf('"changed by hand" -> "Town"')).toBeGreaterThan(mdDrift);
    expect(md).toContain('`channel["other"]`: exists in the organization');
  });

  it('keeps the digest of the plan without --base, and the renderers as they were', () => {
    const without = plan(head(), live());
    expect(p.digest).toBe(without.digest);
    expect(without.changes.every((c) => c.origin === undefined)).toBe(true);
    expect(without.ignoredDrift).toBeUndefined();
    expect(renderText(without)).not.toContain('Changes of this pull request');
    expect(renderMarkdown(without)).not.toContain('Changes of this pull request');
  });

  it('is a valid saved plan that reads back, with the base in it', () => {
    const saved = JSON.parse(JSON.stringify(p)) as unknown;
    expect(PlanSchema.parse(saved)).toEqual(p);
    expect(parsePlan(saved).base).toEqual(base);
  });

  it('documents origin in the plan JSON Schema', () => {
    const text = JSON.stringify(planJsonSchema());
    expect(text).toContain('this pull request makes the difference');
    expect(text).toContain('Drift that the plan leaves alone');
  });

  it('counts everything as drift when the base branch says the same, and says so when the base cannot be planned', () => {
    const same = plan(head(), live(), { base: head() });
    expect(same.changes.map((c) => c.origin)).toEqual(same.changes.map(() => 'drift'));
    const broken = desired((d) =>
      d.channels.push(dChannel('town', { permissions: { canSendMessageGroup: 'no-such-group' } })),
    );
    const q = plan(head(), live(), { base: broken });
    expect(q.warnings.map((w) => w.code)).toContain('BASE_NOT_PLANNED');
    expect(q.changes.every((c) => c.origin === undefined)).toBe(true);
    expect(q.digest).toBe(p.digest);
  });
});
