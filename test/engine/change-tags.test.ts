import {
  CHANGE_TAGS,
  checkApplicable,
  destructiveReason,
  parsePlan,
  plan,
  planDigest,
  renderJson,
  renderMarkdown,
  renderText,
} from '../../src/engine';
import type { Change, ChangeTag, Plan } from '../../src/engine';
import { FEATURE_LEVELS, isZulipCdkError } from '../../src/model';
import type { DesiredState } from '../../src/model';
import { LiveBuilder, dChannel, dFolder, dGroup, desired } from './fixtures';

const N = FEATURE_LEVELS.newest;
const tagsOf = (p: Plan): Record<string, ChangeTag[]> =>
  Object.fromEntries(p.changes.map((c) => [c.id, c.tags]));

/** Live objects every case can remove or change. */
function live(featureLevel: number = FEATURE_LEVELS.newest, channelEventsMessages = true) {
  const b = new LiveBuilder(featureLevel);
  b.state.server.channelEventsMessages = channelEventsMessages;
  b.group('eng', { members: [3, 4] });
  b.group('old-team', { members: [3] });
  b.channel('general', { subscribers: [1, 3, 4], messageRetentionDays: null });
  b.channel('stale');
  b.channel('kept', { messageRetentionDays: 30 });
  b.channel('secret', { private: true, historyPublicToSubscribers: true, subscribers: [1, 3] });
  if (featureLevel >= 389) b.folder('Old folder');
  b.linkifier('#(?P<id>[0-9]+)', 'https://t/{id}');
  b.playground('python', 'Tutor', 'https://p/{code}');
  b.playground('rust', 'Rusty', 'https://r/{code}');
  b.snippet('Hello', 'Hi there');
  return b.build();
}

/** Everything declared as it is live: the base every case changes one thing of. */
function same(d: DesiredState, featureLevel: number = FEATURE_LEVELS.newest): void {
  d.organization.maxRemovals = 100;
  d.userGroups.push(
    dGroup('eng', {
      members: { mode: 'exact', users: ['alice@example.com', 'bob@example.com'], groups: [] },
    }),
    dGroup('old-team', {
      members: { mode: 'exact', users: ['alice@example.com'], groups: [] },
    }),
  );
  d.channels.push(
    dChannel('general', {
      subscribers: {
        mode: 'exact',
        users: ['owner@example.com', 'alice@example.com', 'bob@example.com'],
        groups: [],
      },
    }),
    dChannel('stale'),
    dChannel('kept', { messageRetentionDays: 30 }),
    dChannel('secret', { private: true, historyPublicToSubscribers: true }),
  );
  if (featureLevel >= 389) d.channelFolders.push(dFolder('Old folder'));
  d.linkifiers.push({ path: 'acme/l', pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://t/{id}' });
  d.playgrounds.push(
    { path: 'acme/p', name: 'Tutor', pygmentsLanguage: 'python', urlTemplate: 'https://p/{code}' },
    { path: 'acme/r', name: 'Rusty', pygmentsLanguage: 'rust', urlTemplate: 'https://r/{code}' },
  );
  d.savedSnippets.push({ path: 'acme/s', title: 'Hello', content: 'Hi there' });
}

function planWith(
  change: (d: DesiredState) => void,
  o: { featureLevel?: number; channelEventsMessages?: boolean } = {},
): Plan {
  const fl = o.featureLevel ?? FEATURE_LEVELS.newest;
  const d = desired((d) => {
    same(d, fl);
    change(d);
  });
  return plan(d, live(fl, o.channelEventsMessages ?? true));
}

const channel = (d: DesiredState, name: string) => d.channels.find((c) => c.name === name)!;
const group = (d: DesiredState, name: string) => d.userGroups.find((g) => g.name === name)!;

describe('change tags: what each change needs and does', () => {
  // Each case changes one thing of a configuration that matches the live state: the tags of
  // every change of its plan, so also which changes it has.
  it.each<[string, (d: DesiredState) => void, Record<string, ChangeTag[]>, number]>([
    // destructive, and Zulip can undo it: archive-only; Zulip posts the archiving into it.
    [
      'archiving a channel',
      (d) => (channel(d, 'stale').archived = true),
      { 'channel["stale"]#archive': ['destructive', 'archive-only', 'posts-message'] },
      N,
    ],
    [
      'archiving a channel on a server that cannot unarchive (FL 372)',
      (d) => (channel(d, 'stale').archived = true),
      { 'channel["stale"]#archive': ['destructive', 'irreversible', 'posts-message'] },
      FEATURE_LEVELS.zulip10,
    ],
    [
      'deactivating a group',
      (d) => (group(d, 'old-team').deactivated = true),
      { 'userGroup["old-team"]#deactivate': ['destructive', 'archive-only'] },
      N,
    ],
    [
      'deactivating a group on a server that cannot reactivate (FL 372)',
      (d) => (group(d, 'old-team').deactivated = true),
      { 'userGroup["old-team"]#deactivate': ['destructive', 'irreversible'] },
      FEATURE_LEVELS.zulip10,
    ],
    [
      'archiving a folder',
      (d) => (d.channelFolders[0]!.archived = true),
      { 'channelFolder["Old folder"]#archive': ['destructive', 'archive-only'] },
      N,
    ],
    // Deletions: there is no undelete.
    [
      'deleting a linkifier (pruned)',
      (d) => {
        d.linkifiers = [];
        d.organization.prune.linkifier = true;
      },
      { 'linkifier["#(?P<id>[0-9]+)"]#delete': ['destructive', 'irreversible'] },
      N,
    ],
    [
      'deleting a playground (pruned)',
      (d) => {
        d.playgrounds.pop();
        d.organization.prune.playground = true;
      },
      { 'playground["rust/Rusty"]#delete': ['destructive', 'irreversible'] },
      N,
    ],
    [
      'deleting a saved snippet (pruned)',
      (d) => {
        d.savedSnippets = [];
        d.organization.prune.savedSnippet = true;
      },
      { 'savedSnippet["Hello"]#delete': ['destructive', 'irreversible'] },
      N,
    ],
    // A replace deletes and creates at once; replacing again restores it.
    [
      'replacing a playground',
      (d) => (d.playgrounds[0]!.urlTemplate = 'https://q/{code}'),
      { 'playground["python/Tutor"]#replace': [] },
      N,
    ],
    // Memberships: removals are destructive; Zulip messages group members added or removed.
    [
      'removing a group member',
      (d) => (group(d, 'eng').members.users = ['alice@example.com']),
      { 'userGroup["eng"]#membership': ['destructive', 'notifies-users'] },
      N,
    ],
    [
      'adding a group member',
      (d) => group(d, 'eng').members.users.push('carol@example.com'),
      { 'userGroup["eng"]#membership': ['notifies-users'] },
      N,
    ],
    [
      'unsubscribing someone (Zulip tells nobody)',
      (d) =>
        (channel(d, 'general').subscribers!.users = ['owner@example.com', 'alice@example.com']),
      { 'channel["general"]#membership': ['destructive'] },
      N,
    ],
    [
      'subscribing someone to a channel that is not announced (FL 478: silently)',
      (d) => channel(d, 'general').subscribers!.users.push('carol@example.com'),
      { 'channel["general"]#membership': [] },
      N,
    ],
    [
      'subscribing someone below FL 397 (Zulip always messages them)',
      (d) => channel(d, 'general').subscribers!.users.push('carol@example.com'),
      { 'channel["general"]#membership': ['notifies-users'] },
      FEATURE_LEVELS.zulip10,
    ],
    // Roles: a demotion is destructive; Zulip sends no message about roles.
    [
      'demoting a user',
      (d) => d.users.push({ path: 'acme/u', email: 'carol@example.com', role: 'member' }),
      { 'user["carol@example.com"]#update': ['destructive'] },
      N,
    ],
    [
      'promoting a user',
      (d) => d.users.push({ path: 'acme/u', email: 'alice@example.com', role: 'moderator' }),
      { 'user["alice@example.com"]#update': [] },
      N,
    ],
    // Retention: shorter deletes messages for good.
    [
      'lowering message retention',
      (d) => (channel(d, 'general').messageRetentionDays = 30),
      { 'channel["general"]#update': ['irreversible', 'posts-message'] },
      N,
    ],
    [
      'keeping messages longer',
      (d) => (channel(d, 'kept').messageRetentionDays = 60),
      { 'channel["kept"]#update': ['posts-message'] },
      N,
    ],
    [
      "keeping them for the organization's period (unknown to the plan: it may be shorter)",
      (d) => (channel(d, 'kept').messageRetentionDays = 'realm_default'),
      { 'channel["kept"]#update': ['irreversible', 'posts-message'] },
      N,
    ],
    [
      'keeping messages forever',
      (d) => (channel(d, 'general').messageRetentionDays = 'unlimited'),
      { 'channel["general"]#update': ['posts-message'] },
      N,
    ],
    // Access: protected history can be made shared again; Zulip posts a notice either way.
    [
      'making history protected',
      (d) => (channel(d, 'secret').historyPublicToSubscribers = false),
      { 'channel["secret"]#update': ['posts-message'] },
      N,
    ],
    [
      'a channel description',
      (d) => (channel(d, 'general').description = 'New'),
      { 'channel["general"]#update': ['posts-message'] },
      N,
    ],
    [
      'renaming a channel',
      (d) => {
        channel(d, 'stale').name = 'fresh';
        channel(d, 'fresh').lifecycle = { renamedFrom: ['stale'] };
      },
      { 'channel["fresh"]#rename': ['posts-message'] },
      N,
    ],
    [
      'a group description (no notice anywhere)',
      (d) => (group(d, 'eng').description = 'Engineers'),
      { 'userGroup["eng"]#update': [] },
      N,
    ],
    // Creation: Zulip posts "channel created" into a channel created with subscribers.
    [
      'creating a channel with subscribers',
      (d) =>
        d.channels.push(
          dChannel('new', {
            subscribers: { mode: 'exact', users: ['alice@example.com'], groups: [] },
          }),
        ),
      { 'channel["new"]#create': ['posts-message'], 'channel["new"]#membership': [] },
      N,
    ],
    [
      'creating a channel without subscribers (POST /channels/create posts nothing)',
      (d) => d.channels.push(dChannel('new')),
      { 'channel["new"]#create': [] },
      N,
    ],
  ])('%s', (_name, change, expected, featureLevel) => {
    const p = planWith(change, { featureLevel });
    expect(tagsOf(p)).toEqual(expected);
  });

  it('channel notices follow send_channel_events_messages; the announcement does not', () => {
    const off = { channelEventsMessages: false };
    expect(tagsOf(planWith((d) => (channel(d, 'general').description = 'x'), off))).toEqual({
      'channel["general"]#update': [],
    });
    expect(tagsOf(planWith((d) => (channel(d, 'stale').archived = true), off))).toEqual({
      'channel["stale"]#archive': ['destructive', 'archive-only'],
    });
    const announced = (d: DesiredState) =>
      d.channels.push(
        dChannel('news', {
          announce: true,
          subscribers: { mode: 'exact', users: ['alice@example.com'], groups: [] },
        }),
      );
    expect(tagsOf(planWith(announced, off))['channel["news"]#create']).toEqual(['posts-message']);
  });

  it('tags are in the saved plan, in the documented order, and read back', () => {
    const p = planWith((d) => (channel(d, 'stale').archived = true));
    const back = parsePlan(JSON.parse(renderJson(p)));
    expect(back.changes[0]!.tags).toEqual(['destructive', 'archive-only', 'posts-message']);
    for (const c of back.changes)
      expect(c.tags).toEqual(CHANGE_TAGS.filter((t) => c.tags.includes(t)));
    // Required: a plan without them is not a plan of this format.
    const { tags: _t, ...untagged } = p.changes[0]!;
    expect(() => parsePlan({ ...p, changes: [untagged] })).toThrow(
      expect.objectContaining({ code: 'PLAN_INVALID' }),
    );
  });
});

/** A plan with one change of every destructive sort and several that are not. */
function mixedPlan(): Plan {
  return planWith((d) => {
    channel(d, 'stale').archived = true;
    group(d, 'old-team').deactivated = true;
    group(d, 'eng').members.users = ['alice@example.com', 'carol@example.com'];
    channel(d, 'general').subscribers!.users = ['owner@example.com', 'alice@example.com'];
    channel(d, 'general').description = 'General';
    channel(d, 'general').messageRetentionDays = 30;
    d.users.push({ path: 'acme/u', email: 'carol@example.com', role: 'member' });
    d.users.push({ path: 'acme/a', email: 'alice@example.com', role: 'moderator' });
    d.linkifiers = [];
    d.organization.prune.linkifier = true;
    d.playgrounds[0]!.urlTemplate = 'https://q/{code}';
    d.channels.push(dChannel('new'));
  });
}

describe('apply refuses exactly the changes tagged destructive', () => {
  const p = mixedPlan();
  const tagged = (): Change[] => p.changes.filter((c) => c.tags.includes('destructive'));

  it('the plan has destructive and other changes', () => {
    expect(
      tagged()
        .map((c) => c.id)
        .sort(),
    ).toEqual([
      'channel["general"]#membership',
      'channel["stale"]#archive',
      'linkifier["#(?P<id>[0-9]+)"]#delete',
      'userGroup["eng"]#membership',
      'userGroup["old-team"]#deactivate',
      'user["carol@example.com"]#update',
    ]);
    expect(p.changes.length).toBeGreaterThan(tagged().length + 2);
    for (const c of p.changes)
      expect(c.tags.includes('destructive')).toBe(destructiveReason(c) !== undefined);
  });

  const refusal = (q: Plan): string => {
    try {
      checkApplicable(q, q.server.site, { force: true });
    } catch (e) {
      if (isZulipCdkError(e, 'DESTROY_NOT_ALLOWED')) return e.message;
      throw e;
    }
    return '';
  };
  const refused = (q: Plan): string[] =>
    refusal(q)
      .split('\n')
      .slice(1)
      .map((l) => /^ {2}- (.*?): /.exec(l)?.[1] ?? l);

  it('without --allow-destroy: every tagged change is named, and no other', () => {
    expect(refused(p).sort()).toEqual(
      tagged()
        .map((c) => c.address)
        .sort(),
    );
    expect(() =>
      checkApplicable(p, p.server.site, { force: true, allowDestroy: true }),
    ).not.toThrow();
  });

  it('each change alone: refused if and only if it is tagged destructive', () => {
    for (const c of p.changes) {
      const alone: Plan = { ...p, changes: [c] };
      expect([c.id, refusal(alone) !== '']).toEqual([c.id, c.tags.includes('destructive')]);
    }
  });

  it('a plan edited to drop the tag is refused all the same', () => {
    const stripped: Plan = { ...p, changes: p.changes.map((c): Change => ({ ...c, tags: [] })) };
    expect(refused(stripped).sort()).toEqual(
      tagged()
        .map((c) => c.address)
        .sort(),
    );
  });
});

describe('renderers say what the plan needs', () => {
  const p = mixedPlan();
  const destructive = (): Change[] => p.changes.filter((c) => c.tags.includes('destructive'));
  const irreversible = (): Change[] => p.changes.filter((c) => c.tags.includes('irreversible'));

  it('text: each destructive change is labelled, and --allow-destroy is said once with why', () => {
    const text = renderText(p);
    const actions = text.slice(0, text.indexOf('Destructive changes ('));
    const heads = actions.split('\n').filter((l) => /^ {2}[+~\-±] /.test(l));
    // One head line per change, in the plan's order.
    expect(heads).toHaveLength(p.changes.length);
    p.changes.forEach((c, i) => {
      const head = heads[i]!;
      expect(head).toContain(c.action === 'reorder' ? 'reordered' : c.address);
      expect([c.id, head.includes('[destructive')]).toEqual([c.id, c.tags.includes('destructive')]);
      expect([c.id, /irreversible\]/.test(head)]).toEqual([c.id, c.tags.includes('irreversible')]);
    });
    expect(text).toContain(
      `Destructive changes (${destructive().length}; apply refuses them without --allow-destroy):`,
    );
    expect(text).toContain('  - channel["stale"]: archives it (it can be unarchived)');
    expect(text).toContain(
      '  - user["carol@example.com"]: demotes carol@example.com from moderator to member',
    );
    expect(text).toContain(
      `Irreversible changes (${irreversible().length}; Zulip cannot undo them):`,
    );
    expect(text).toMatch(/ {2}! channel\["general"\]: message retention "realm_default" → 30: /);
  });

  it('markdown: a section names every destructive change before the details', () => {
    const md = renderMarkdown(p);
    const section = md.indexOf(`#### Destructive changes (${destructive().length})`);
    expect(section).toBeGreaterThan(0);
    expect(section).toBeLessThan(md.indexOf('<details'));
    expect(md).toContain('Apply refuses this plan unless it is run with `--allow-destroy`:');
    for (const c of destructive()) expect(md).toContain(`- \`${c.address}\`: `);
    expect(md).toContain(`#### Irreversible changes (${irreversible().length})`);
    expect(md).toMatch(/^- channel\["stale"\] will be archived .*\[destructive\]/m);
    expect(md).toMatch(/^- linkifier\[.*\] will be deleted .*\[destructive, irreversible\]/m);
  });

  it('a plan without destructive changes says nothing of --allow-destroy, and has its digest', () => {
    const calm = planWith((d) => (channel(d, 'general').description = 'New'));
    for (const out of [renderText(calm), renderMarkdown(calm)]) {
      expect(out).toContain(planDigest(calm));
      expect(out).not.toContain('allow-destroy');
      expect(out).not.toContain('destructive');
      expect(out).not.toContain('Irreversible');
    }
  });

  it.each([
    ['text', (q: Plan) => renderText(q)],
    ['markdown', (q: Plan) => renderMarkdown(q)],
  ])('%s: the digest line is the plan digest, in full, for --expect-digest', (_n, render) => {
    for (const q of [p, planWith(() => {}), { ...p, createdAt: '2026-01-01T00:00:00Z' }]) {
      const lines = render(q).trimEnd().split('\n');
      const last = lines.at(-1)!;
      const m =
        /^Plan digest: `?([0-9a-f]{64})`? \(for `?zulip-cdk apply --expect-digest`?\)$/.exec(last);
      expect(m?.[1]).toBe(planDigest(q));
    }
  });

  it('markdown: the digest stays when a long plan is cut', () => {
    const md = renderMarkdown(p, { maxLength: 2000 });
    expect(md).toContain('The plan is too long for a comment');
    expect(
      md
        .trimEnd()
        .endsWith(`Plan digest: \`${planDigest(p)}\` (for \`zulip-cdk apply --expect-digest\`)`),
    ).toBe(true);
  });

  it('many destructive changes: the lists are capped, the comment fits, the digest stays', () => {
    const b = new LiveBuilder();
    for (let i = 0; i < 400; i++) b.channel(`old-${i}`);
    const big = plan(
      desired((d) => {
        d.organization.prune.channel = true;
        d.organization.maxRemovals = 1000;
      }),
      b.build(),
    );
    const md = renderMarkdown(big);
    expect(md.length).toBeLessThanOrEqual(60000);
    expect(md).toContain('#### Destructive changes (400)');
    expect(md).toContain('- … and 370 more');
    expect(md.trimEnd().split('\n').at(-1)).toContain(planDigest(big));
    const text = renderText(big);
    expect(text).toContain(
      'Destructive changes (400; apply refuses them without --allow-destroy):',
    );
    expect(text).toContain('  - ... and 350 more (see above)');
  });
});
