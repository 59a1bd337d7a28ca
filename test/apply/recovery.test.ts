import { Testing } from 'zulip-cdk';
import { acme } from '../../examples/acme/organization';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { main } from '../../src/cli/main';
import { applyPlan, desiredStateDigest, planDigest, renderJson } from '../../src/engine';
import type { ApplyResult, Plan } from '../../src/engine';
import type { DesiredState, LiveState } from '../../src/model';
import { readLiveState } from '../../src/provider/read-live-state';
import { ZulipApplyTarget } from '../../src/provider/write-target';
import { harness, newClient, resign, summary } from './helpers';
import type { Harness } from './helpers';

/** The acme example with more saved snippets (Zulip does not keep their titles unique). */
function desired(): DesiredState {
  const d = Testing.synth(acme(Testing.app()));
  for (const title of ['Standup', 'Retro', 'Handover'])
    d.savedSnippets.push({ path: `acme/${title}`, title, content: `${title} notes` });
  d.savedSnippets.sort((a, b) => a.title.localeCompare(b.title));
  return d;
}

/** Every natural key that Zulip would let exist twice, or must not: counted. */
async function duplicates(h: Harness): Promise<string[]> {
  const live = await readLiveState(h.client);
  const twice = (keys: string[]): string[] => keys.filter((k, i) => keys.indexOf(k) !== i);
  return [
    ...twice(live.savedSnippets.map((s) => `snippet ${s.title}`)),
    ...twice(live.linkifiers.map((l) => `linkifier ${l.pattern}`)),
    ...twice(live.channelFolders.map((f) => `folder ${f.name.toLowerCase()}`)),
    ...twice(live.channels.map((c) => `channel ${c.name.toLowerCase()}`)),
    ...twice(live.userGroups.map((g) => `group ${g.name}`)),
  ];
}

/**
 * The plan's changes with what nobody reviewed added: its first update of a public channel
 * also makes the channel private, its first membership change of an existing group also adds
 * a guest.
 */
function unreviewed(
  q: Plan,
  live: LiveState,
): {
  changes: Plan['changes'];
  channelId: number;
  groupId: number;
  guest: LiveState['users'][number];
} {
  const guest = live.users.find((u) => u.role === 600 && u.isActive)!;
  let channelId = 0;
  let groupId = 0;
  const changes = q.changes.map((c) => {
    if (!channelId && c.action === 'update' && c.kind === 'channel' && c.liveId !== null) {
      const ch = live.channels.find((x) => x.id === c.liveId)!;
      if (!ch.private && !c.properties.some((x) => x.property === 'private')) {
        channelId = c.liveId;
        return {
          ...c,
          properties: [...c.properties, { property: 'private', before: false, after: true }],
        };
      }
    }
    if (!groupId && c.action === 'membership' && c.kind === 'userGroup' && c.liveId !== null) {
      groupId = c.liveId;
      return { ...c, add: [...c.add, { email: guest.email, id: guest.id }] };
    }
    return c;
  });
  return { changes, channelId, groupId, guest };
}

function statuses(r: ApplyResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of r.journal.entries) out[e.status] = (out[e.status] ?? 0) + 1;
  return out;
}

describe('an interrupted apply is finished by applying the same plan again (issue 13)', () => {
  let h: Harness;
  afterEach(() => h.close());

  it.each([1, 4, 12, 0.75])(
    'stopped after %p change(s) (a fraction: of all of them): the rest is applied, the landed ones are done, nothing twice',
    async (stopAfter) => {
      h = await harness();
      const d = desired();
      const p = await h.plan(d);
      const total = p.changes.length;
      expect(total).toBeGreaterThan(15);
      const stop = stopAfter < 1 ? Math.floor(total * stopAfter) : stopAfter;
      const abort = new AbortController();
      let seen = 0;
      const first = await h.apply(p, {
        allowDestroy: true,
        signal: abort.signal,
        onEvent: (e) => {
          if (e.type === 'change' && ++seen >= stop) abort.abort();
        },
      });
      expect(first.outcome).toBe('partial');
      const landed = first.journal.entries.filter((e) => e.status === 'applied').length;
      expect(landed).toBeGreaterThanOrEqual(stop);

      const again = await h.apply(p, { allowDestroy: true });
      expect(
        again.journal.entries.filter((e) => e.status !== 'done' && e.status !== 'applied'),
      ).toEqual([]);
      expect(again.outcome).toBe('applied');
      const s = statuses(again);
      expect(s.conflict ?? 0).toBe(0);
      expect(s.failed ?? 0).toBe(0);
      // Everything the first apply did is recognised as done, never sent again.
      expect(s.done).toBe(landed);
      expect(s.applied).toBe(total - landed);
      expect(summary(await h.plan(d))).toEqual([]);
      expect(await duplicates(h)).toEqual([]);
    },
  );

  it('a plan applied in full, applied again: every change is done, and only the reads are sent', async () => {
    h = await harness();
    const d = desired();
    const p = await h.plan(d);
    expect((await h.apply(p, { allowDestroy: true })).outcome).toBe('applied');
    const again = await h.apply(p, { allowDestroy: true });
    expect(again.outcome).toBe('applied');
    expect(statuses(again)).toEqual({ done: p.changes.length });
    expect(
      again.requests.every(
        (r) =>
          r.startsWith('POST /register') || r.startsWith('DELETE /events') || r.startsWith('GET '),
      ),
    ).toBe(true);
    expect(await duplicates(h)).toEqual([]);
  });

  it('with keepGoing after a failure, applied again: nothing twice, the next plan empty', async () => {
    h = await harness({
      faults: {
        rules: [
          { kind: 'server-error', status: 400, method: 'POST', path: '/realm/filters', nth: 1 },
        ],
      },
    });
    const d = desired();
    const p = await h.plan(d);
    const first = await h.apply(p, { keepGoing: true, allowDestroy: true });
    expect(first.outcome).toBe('partial');
    expect(statuses(first).failed).toBeGreaterThanOrEqual(1);
    h.z.setFaults(undefined);
    const again = await h.apply(p, { keepGoing: true, allowDestroy: true });
    expect(again.outcome).toBe('applied');
    expect(statuses(again).failed ?? 0).toBe(0);
    expect(summary(await h.plan(d))).toEqual([]);
    expect(await duplicates(h)).toEqual([]);
  });

  it('two applies of the same plan at once: nothing twice, the folder and linkifier order as planned, the next plan empty', async () => {
    h = await harness();
    const d = desired();
    const p = await h.plan(d);
    const run = async (): Promise<ApplyResult> => {
      const c = newClient(h.z);
      try {
        return await applyPlan(p, new ZulipApplyTarget(c, p), { allowDestroy: true });
      } finally {
        await c.close();
      }
    };
    const [a, b] = await Promise.all([run(), run()]);
    for (const r of [a, b]) {
      expect(statuses(r).failed ?? 0).toBe(0);
      expect(['applied', 'partial']).toContain(r.outcome);
    }
    // Between them, every change was made once; what one made, the other reports as done.
    const done = [...a.journal.entries, ...b.journal.entries].filter((e) => e.status === 'done');
    expect(done.length).toBeGreaterThan(0);
    expect(await duplicates(h)).toEqual([]);
    expect(summary(await h.plan(d))).toEqual([]);
    const live = await readLiveState(h.client);
    expect(live.linkifiers.map((l) => l.pattern)).toEqual(d.linkifiers.map((l) => l.pattern));
    expect(live.channelFolders.filter((f) => !f.archived).map((f) => f.name)).toEqual(
      expect.arrayContaining(d.channelFolders.map((f) => f.name)),
    );
  });
});

describe('a plan edited after it was made is refused before any write (issue 13)', () => {
  let h: Harness;
  let p: Plan;
  let dir: string;
  let live: LiveState;
  beforeAll(async () => {
    h = await harness();
    p = await h.plan(desired());
    live = await readLiveState(h.client);
    dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-tamper-'));
  });
  afterAll(() => h.close());

  const withExtras = (q: Plan): Plan => {
    const { changes } = unreviewed(q, live);
    expect(changes).not.toEqual(q.changes);
    return { ...q, changes };
  };
  /** Only the digest made to match. */
  const redigest = (q: Plan): Plan => ({ ...q, digest: planDigest(q) });

  it.each<[string, (q: Plan) => Plan]>([
    ['changes added, digest left as it was', withExtras],
    ['changes added, summary and digest made to match', (q) => resign(withExtras(q))],
    [
      'a change taken out, summary and digest made to match',
      (q) => resign({ ...q, changes: q.changes.slice(0, -1) }),
    ],
    ['the summary', (q) => ({ ...q, summary: { ...q.summary, update: q.summary.update + 1 } })],
    [
      'the summary, digest made to match',
      (q) => redigest({ ...q, summary: { ...q.summary, total: 1 } }),
    ],
    [
      'the digest',
      (q) => ({ ...q, digest: q.digest.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) }),
    ],
    ['the desired state', (q) => ({ ...q, desired: { ...q.desired, savedSnippets: [] } })],
    [
      // (A plan made from another desired state, changes and all, is a true plan of that state:
      // only the reviewed digest tells it apart; see --expect-digest below.)
      'the desired state and its digest, the changes left as they were',
      (q) => {
        const d = { ...q.desired, savedSnippets: [] };
        return resign({ ...q, desired: d, desiredDigest: desiredStateDigest(d) });
      },
    ],
    [
      'a fingerprint',
      (q) => ({
        ...q,
        fingerprints: Object.fromEntries(
          Object.entries(q.fingerprints).map(([k, v], i) => [
            k,
            i === 0 ? v.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) : v,
          ]),
        ),
      }),
    ],
    [
      'a safety finding added, digest made to match',
      (q) => redigest({ ...q, findings: [{ code: 'NO_OWNER', message: 'x' }] }),
    ],
    [
      'a warning added',
      (q) => ({ ...q, warnings: [...q.warnings, { code: 'UNDECLARED', message: 'x' }] }),
    ],
  ])('%s: PLAN_TAMPERED, nothing written', async (_what, edit) => {
    const before = h.z.requestLog.length;
    await expect(h.apply(edit(p), { allowDestroy: true, force: true })).rejects.toMatchObject({
      code: 'PLAN_TAMPERED',
    });
    const writes = h.z.requestLog
      .slice(before)
      .filter((r) => r.method !== 'GET' && r.path !== '/register' && !r.path.endsWith('/events'));
    expect(writes).toEqual([]);
  });

  it('the CLI: a plan file edited by hand exits 4 with PLAN_TAMPERED and writes nothing; --expect-digest refuses any other plan', async () => {
    const file = path.join(dir, 'plan.json');
    writeFileSync(file, renderJson(resign(withExtras(p))));
    const env = {
      CI: 'true',
      ZULIP_EMAIL: h.z.owner.email,
      ZULIP_API_KEY: h.z.owner.apiKey,
      ZULIP_SITE: h.z.site,
    };
    const run = async (args: string[], cwd = dir): Promise<{ code: number; err: string }> => {
      let err = '';
      const sink = (f: (s: string) => void): NodeJS.WritableStream =>
        new Writable({
          write(chunk: Buffer, _e, cb): void {
            f(chunk.toString());
            cb();
          },
        });
      const code = await main(args, {
        stdout: sink(() => {}),
        stderr: sink((t) => (err += t)),
        stdin: process.stdin,
        env,
        cwd,
      });
      return { code, err };
    };
    const before = summary(await h.plan(desired()));
    const tampered = await run([
      'apply',
      file,
      '--allow-destroy',
      '--auto-approve',
      '--journal',
      path.join(dir, 'j.jsonl'),
    ]);
    expect(tampered.code).toBe(4);
    expect(tampered.err).toContain('PLAN_TAMPERED');
    expect(summary(await h.plan(desired()))).toEqual(before);

    // The reviewed plan, pinned by its digest: another plan is refused, exit 4.
    const reviewed = path.join(dir, 'reviewed.json');
    writeFileSync(reviewed, renderJson(p));
    const other = await run([
      'apply',
      reviewed,
      '--expect-digest',
      '0'.repeat(64),
      '--journal',
      path.join(dir, 'j2.jsonl'),
    ]);
    expect(other.code).toBe(4);
    expect(other.err).toContain('PLAN_DIGEST_MISMATCH');
    expect(summary(await h.plan(desired()))).toEqual(before);
    // Applied where synth ran (the repository), as CI does: the example's emoji image is
    // recorded relative to it.
    const ok = await run(
      [
        'apply',
        reviewed,
        '--allow-destroy',
        '--expect-digest',
        `sha256:${p.digest.toUpperCase()}`,
        '--journal',
        path.join(dir, 'j3.jsonl'),
      ],
      process.cwd(),
    );
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(summary(await h.plan(desired()))).toEqual([]);
  });
});

describe('a plan whose liveDigest was edited (issue 13)', () => {
  it('is treated as made before a change in the organization: still only what the plan says and its desired state implies is written', async () => {
    const h = await harness();
    try {
      const p = await h.plan(desired());
      const live = await readLiveState(h.client);
      const { changes, channelId, groupId, guest } = unreviewed(p, live);
      expect(live.channels.find((c) => c.id === channelId)!.private).toBe(false);
      const edited = resign({ ...p, liveDigest: '0'.repeat(64), changes });
      const r = await h.apply(edited, { allowDestroy: true });
      expect(r.outcome).toBe('partial');
      const conflicts = r.journal.entries.filter((e) => e.status === 'conflict');
      expect(conflicts.map((e) => e.kind).sort()).toEqual(['channel', 'userGroup']);
      const after = await readLiveState(h.client);
      expect(after.channels.find((c) => c.id === channelId)!.private).toBe(false);
      expect(after.userGroups.find((g) => g.id === groupId)!.members).not.toContain(guest.id);
    } finally {
      await h.close();
    }
  });
});
