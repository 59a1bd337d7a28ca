import Ajv2020 from 'ajv/dist/2020';
import {
  parsePlan,
  planJsonSchema,
  plan,
  planChecksum,
  renderJson,
  renderMarkdown,
  renderText,
} from '../../src/engine';
import type { Plan } from '../../src/engine';
import { KIND_SPECS } from '../../src/model';
import { FEATURE_LEVELS } from '../../src/model';
import { permissionEffect } from '../../src/engine/render/describe';
import type { DesiredState } from '../../src/model';
import { LiveBuilder, dChannel, dGroup, desired } from './fixtures';

/** One plan with every kind of change, a warning and a finding. */
function richPlan(): Plan {
  const b = new LiveBuilder();
  const eng = b.group('eng', { members: [3] });
  b.channel('general', { description: 'Old', subscribers: [1, 4] });
  b.channel('old-name');
  b.channel('stale');
  b.linkifier('one', 'https://1');
  b.linkifier('two', 'https://2');
  b.playground('python', 'Tutor', 'https://p/{code}');
  b.snippet('Greeting', 'Hello ``` fenced');
  void eng;
  const d = desired((d) => {
    d.organization.prune.channel = true;
    d.organization.maxRemovals = 0;
    d.userGroups.push(
      dGroup('eng', {
        members: { mode: 'exact', users: ['alice@example.com', 'bob@example.com'], groups: [] },
      }),
    );
    d.channels.push(
      dChannel('announcements', {
        description: 'News',
        announce: true,
        permissions: { canSendMessageGroup: 'role:administrators' },
        subscribers: { mode: 'exact', users: [], groups: ['eng'] },
      }),
      dChannel('general', {
        description: 'Everyone <3',
        permissions: { canSendMessageGroup: 'role:members' },
        subscribers: {
          mode: 'exact',
          users: ['owner@example.com', 'alice@example.com'],
          groups: [],
        },
      }),
      dChannel('new-name', { lifecycle: { renamedFrom: ['old-name'] } }),
    );
    d.linkifiers.push(
      { path: 'acme/l2', pattern: 'two', urlTemplate: 'https://2' },
      { path: 'acme/l1', pattern: 'one', urlTemplate: 'https://1' },
    );
    d.playgrounds.push({
      path: 'acme/pg',
      name: 'Tutor',
      pygmentsLanguage: 'python',
      urlTemplate: 'https://q/{code}',
    });
    d.savedSnippets.push({ path: 'acme/s', title: 'Greeting', content: 'Hello ``` fenced, again' });
    d.users.push({ path: 'acme/u', email: 'admin@example.com', role: 'member' });
    d.users.push({ path: 'acme/u2', email: 'gone@example.com', role: 'member' });
  });
  return plan(d, b.build());
}

describe('renderers', () => {
  const p = richPlan();

  it('text', () => {
    expect(renderText(p)).toMatchSnapshot();
  });

  it('text with colour only when asked', () => {
    const esc = String.fromCharCode(27);
    expect(renderText(p)).not.toContain(esc);
    const coloured = renderText(p, { color: true });
    expect(coloured).toContain(`${esc}[32m+${esc}[0m`);
    expect(coloured.replace(new RegExp(`${esc}\\[[0-9;]*m`, 'g'), '')).toEqual(renderText(p));
  });

  it('text for an empty plan', () => {
    expect(renderText(plan(desired(), new LiveBuilder().build()))).toMatchSnapshot();
  });

  it('markdown', () => {
    const md = renderMarkdown(p);
    expect(md).toMatchSnapshot();
    expect(md).toContain('Archiving is not deleting');
    expect(md).toContain(
      'get no message: Zulip does not message the subscribers a channel is created with',
    );
    expect(md).toContain('will not get a message');
    // role:everyone → role:members takes posting away from guests only, and there are none:
    // the sentence says so instead of "role:everyone may no longer post".
    expect(md).not.toContain('may no longer post');
    // Every side effect says which object it is about (several channels gain subscribers).
    const effects = [...md.matchAll(/Side effects:\n([\s\S]*?)<\/details>/g)]
      .flatMap((m) => (m[1] ?? '').split('\n'))
      .filter((l) => l.startsWith('- ') && /subscriber|may /.test(l));
    expect(effects.length).toBeGreaterThan(3);
    for (const line of effects) expect(line).toMatch(/^- `(channel|userGroup|user)\["[^"]+"\]`: /);
    // A demotion says what the user loses, on every channel it reaches.
    expect(md).toContain(
      '- `user["admin@example.com"]`: admin@example.com may no longer add subscribers, administer the channel, move messages out of the channel, move messages between topics and unsubscribe others in channel\\["general"\\] and channel\\["new-name"\\].',
    );
    expect(md).toContain(
      '- `channel["general"]`: permissions.canSendMessageGroup: no one gains or loses it: the same 5 users may post.',
    );
    // The who-gains table comes first, before the safety findings, uncollapsed.
    const table = md.indexOf('#### Who gains / who loses');
    expect(table).toBeGreaterThan(0);
    expect(table).toBeLessThan(md.indexOf('Safety findings'));
    expect(md).toContain(
      '| `channel["general"]` | add subscribers, administer the channel, move messages out of the channel, move messages between topics and unsubscribe others | — | admin |',
    );
    // The snippet holds a fence: the diff block uses a longer one.
    expect(md).toContain('````diff');
  });

  it('markdown: a permission change that moves no one is not called "other" when it is the only one', () => {
    const b = new LiveBuilder();
    b.channel('general');
    const d = desired((d) => {
      d.channels.push(
        dChannel('general', { permissions: { canAdministerChannelGroup: 'role:administrators' } }),
      );
    });
    const md = renderMarkdown(plan(d, b.build()));
    // Before: "One other changed setting changes nothing", with no table above it.
    expect(md).not.toContain('other changed setting');
    expect(md).toContain(
      '#### Who gains / who loses\n\nNo one gains or loses anything: the changed setting changes nothing in who holds it',
    );
  });

  it('markdown: names that start with @ do not mention anyone in the comment; e-mails stay', () => {
    const md = renderMarkdown({
      ...p,
      warnings: [
        {
          code: 'UNDECLARED',
          message:
            'channel "@security-team" (owner alice@example.com) is not declared; cc @everyone',
        },
      ],
    });
    expect(md).not.toMatch(/(^|[\s("])@[a-z]/m);
    expect(md).toContain('@\u200bsecurity-team');
    expect(md).toContain('@\u200beveryone');
    expect(md).toContain('alice@example.com');
  });

  it("every change's action is one its kind's KindSpec lists (the provider handles exactly those)", () => {
    const actions = new Set(p.changes.map((c) => c.action));
    expect(actions.size).toBeGreaterThan(5);
    for (const c of p.changes) expect(KIND_SPECS[c.kind].actions).toContain(c.action);
  });

  it('json is the saved-plan format and reads back', () => {
    const json = renderJson(p);
    expect(json).toMatchSnapshot();
    const back = parsePlan(JSON.parse(json));
    expect(back).toEqual(p);
    expect(planChecksum(back)).toEqual(planChecksum(p));
    expect(planChecksum({ ...p, createdAt: 'now' })).toEqual(planChecksum(p));
    expect(planChecksum({ ...p, changes: p.changes.slice(1) })).not.toEqual(planChecksum(p));
  });

  it('refuses plans of another format version', () => {
    expect(() => parsePlan({ ...p, formatVersion: 99 })).toThrow(/format version 99/);
    // Not a plan at all (another JSON file given by mistake).
    for (const other of [{}, [], null, 'plan'])
      expect(() => parsePlan(other)).toThrow(
        'The file is not a zulip-cdk plan (it has no formatVersion)',
      );
    expect(() => parsePlan({ ...p, changes: [{ action: 'explode' }] })).toThrow(
      expect.objectContaining({ code: 'PLAN_INVALID' }),
    );
  });
});

describe('who new subscribers hear from, in the comment', () => {
  it.each<[string, number, boolean | undefined, string]>([
    [
      'FL 372: Zulip always messages them',
      FEATURE_LEVELS.zulip10,
      undefined,
      'Notification Bot will send a direct message to 2 of 2 new subscribers: alice@example.com, bob@example.com (Zulip always does below feature level 397; the server is at 372).',
    ],
    [
      'FL 421, not announced: nobody',
      FEATURE_LEVELS.zulip11,
      undefined,
      '2 new subscribers will not get a message',
    ],
    [
      'FL 421, announced: the new subscribers',
      FEATURE_LEVELS.zulip11,
      true,
      'Notification Bot will send a direct message to 2 of 2 new subscribers: alice@example.com, bob@example.com (the channel is announced;',
    ],
  ])('%s', (_name, fl, announce, sentence) => {
    const b = new LiveBuilder(fl);
    b.channel('general', { subscribers: [1] });
    const p = plan(
      desired((d) =>
        d.channels.push(
          dChannel('general', {
            ...(announce !== undefined ? { announce } : {}),
            subscribers: {
              mode: 'atLeast',
              users: ['alice@example.com', 'bob@example.com'],
              groups: [],
            },
          }),
        ),
      ),
      b.build(),
    );
    expect(renderMarkdown(p).replace(/\\_/g, '_')).toContain(sentence);
  });
});

describe('who gains and who loses a permission', () => {
  it('plans saved before effective permissions: the groups as named; role:nobody is no one', () => {
    expect(
      permissionEffect('permissions.canSendMessageGroup', 'role:everyone', 'role:members'),
    ).toBe(
      'role:members may now post; role:everyone may no longer post (unless also covered otherwise)',
    );
    expect(permissionEffect('permissions.canResolveTopicsGroup', 'role:nobody', 'eng')).toBe(
      'eng may now resolve topics',
    );
    expect(permissionEffect('permissions.canResolveTopicsGroup', 'eng', 'role:nobody')).toBe(
      'eng may no longer resolve topics: no one may',
    );
    expect(
      permissionEffect(
        'permissions.canResolveTopicsGroup',
        { users: ['a@x'], groups: ['eng'] },
        'eng',
      ),
    ).toBe('a@x may no longer resolve topics (unless also covered otherwise)');
  });
});

describe('playground removal resets the default code block language', () => {
  const b = new LiveBuilder();
  b.playground('python', 'Tutor', 'https://p/{code}');
  b.playground('rust', 'Play', 'https://r/{code}');
  const pg = (lang: string, name: string, url: string) => ({
    path: 'acme/pg',
    pygmentsLanguage: lang,
    name,
    urlTemplate: url,
  });
  it.each<[string, (d: DesiredState) => void, string[]]>([
    [
      'replace',
      (d) =>
        d.playgrounds.push(
          pg('python', 'Tutor', 'https://q/{code}'),
          pg('rust', 'Play', 'https://r/{code}'),
        ),
      ['python'],
    ],
    [
      'delete (pruned)',
      (d) => {
        d.organization.prune.playground = true;
        d.playgrounds.push(pg('python', 'Tutor', 'https://p/{code}'));
      },
      ['rust'],
    ],
    [
      'create only',
      (d) =>
        d.playgrounds.push(
          pg('python', 'Tutor', 'https://p/{code}'),
          pg('rust', 'Play', 'https://r/{code}'),
          pg('go', 'Go', 'https://g/{code}'),
        ),
      [],
    ],
  ])('%s', (_name, build, languages) => {
    const p = plan(desired(build), b.build());
    const note = (lang: string) =>
      `If ${lang} is the organization's default code block language, Zulip resets that setting to none (the plan sets it again afterwards when the organization settings declare it).`;
    const md = renderMarkdown(p);
    const text = renderText(p);
    for (const lang of ['python', 'rust', 'go']) {
      expect(md.includes(note(lang))).toBe(languages.includes(lang));
      expect(text.includes(note(lang))).toBe(languages.includes(lang));
    }
  });
});

describe('plan JSON Schema', () => {
  it('validates a saved plan and rejects a broken one', () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(planJsonSchema());
    const p = JSON.parse(renderJson(richPlan())) as unknown;
    expect(validate(p)).toBe(true);
    expect(validate({ ...(p as object), changes: [{ action: 'create' }] })).toBe(false);
  });
});

describe('side effects Zulip has on real servers', () => {
  it('channel notices follow send_channel_events_messages (FL 434)', () => {
    const p = richPlan();
    const md = renderMarkdown(p);
    expect(md).toContain('post a notice about the new description and who may post in #general');
    expect(md).toContain('post a notice about the archiving in #stale');
    const off = renderMarkdown({ ...p, server: { ...p.server, channelEventsMessages: false } });
    expect(off).not.toContain('post a notice');
    // Older saved plans (no flag) say it: Zulip always posted them before FL 434.
    const { channelEventsMessages: _, ...older } = p.server;
    expect(renderMarkdown({ ...p, server: older })).toContain('post a notice');
    // The text plan says them too.
    expect(renderText(p)).toContain(
      'Note: Notification Bot will post a notice about the archiving',
    );
  });

  it('group members added to an existing group are told they will be messaged', () => {
    expect(renderMarkdown(richPlan())).toContain(
      'Notification Bot will send a direct message ("… added you to the group eng.") to 1 added member: bob@example.com.',
    );
  });
});

describe('renderers on big plans', () => {
  const b = new LiveBuilder();
  for (let i = 0; i < 400; i++) b.channel(`undeclared-${i}`);
  const big = plan(
    desired((d) => {
      for (let i = 0; i < 800; i++)
        d.channels.push(dChannel(`c-${i}`, { description: 'x'.repeat(100) }));
    }),
    b.build(),
  );

  it('markdown stays under GitHub comment size and says what it cut', () => {
    const md = renderMarkdown(big);
    expect(md.length).toBeLessThanOrEqual(60000);
    expect(md).toMatch(/The plan is too long for a comment: \d+ change\(s\)/);
    expect(md).toContain(big.summary.create.toString());
    expect(renderMarkdown(big, { maxLength: 1e9 })).not.toContain('too long');
  });

  it('text collapses repeated warnings', () => {
    const text = renderText(big);
    expect(text).toContain('... and 380 more [UNDECLARED]');
    expect(renderText(big, { maxWarningsPerCode: Infinity })).not.toContain('more [UNDECLARED]');
  });
});
