import { Testing } from 'zulip-cdk';
import { acme } from '../../examples/acme/organization';
import { applyPlan } from '../../src/engine';
import type { ApplyResult, Change } from '../../src/engine';
import type { DesiredState } from '../../src/model';
import { ZulipCdkError } from '../../src/model';
import { ZulipApplyTarget } from '../../src/provider/write-target';
import { harness, newClient, summary } from './helpers';
import type { Harness } from './helpers';

const desired = (): DesiredState => Testing.synth(acme(Testing.app()));
const CREATES =
  /^POST \/(channels\/create|user_groups\/create|channel_folders\/create|realm\/filters|realm\/playgrounds|saved_snippets|default_stream_groups\/create|realm\/profile_fields|realm\/emoji\/[^/]+|realm\/domains)$/;

/** Nothing was created twice: names are unique, and so are the applying account's snippet titles. */
function expectNoDuplicates(h: Harness): void {
  const dupes = (names: string[]) => names.filter((n, i) => names.indexOf(n) !== i);
  expect(dupes(h.z.org.channels.map((c) => c.name.toLowerCase()))).toEqual([]);
  expect(dupes(h.z.org.groups.map((g) => g.name))).toEqual([]);
  expect(dupes(h.z.org.folders.map((f) => f.name.toLowerCase()))).toEqual([]);
  expect(dupes(h.z.org.linkifiers.map((l) => l.pattern))).toEqual([]);
  expect(dupes(h.z.org.playgrounds.map((p) => `${p.pygmentsLanguage}/${p.name}`))).toEqual([]);
  expect(dupes(h.z.org.snippets.map((s) => `${s.userId}/${s.title}`))).toEqual([]);
  expect(dupes((h.z.org.defaultChannelGroups ?? []).map((g) => g.name))).toEqual([]);
  expect(dupes((h.z.org.customProfileFields ?? []).map((f) => f.name))).toEqual([]);
}

/** Successful creates in the request log since `from`. */
function successfulCreates(h: Harness, from: number): number {
  return h.z.requestLog
    .slice(from)
    .filter((r) => r.status === 200 && CREATES.test(`${r.method} ${r.path}`)).length;
}

const creates = (changes: readonly Change[]) => changes.filter((c) => c.action === 'create').length;

/**
 * The failure contract after a partial apply: the next plan lists exactly the changes the
 * journal does not record as applied, and applying it leaves nothing.
 */
async function expectRerunFinishes(h: Harness, r: ApplyResult): Promise<void> {
  const left = await h.plan(desired());
  const notApplied = r.journal.entries.filter((x) => x.status !== 'applied').map((x) => x.id);
  expect(left.changes.map((c) => c.id).sort()).toEqual([...notApplied].sort());
  expect((await h.apply(left, { allowDestroy: true })).outcome).toBe('applied');
  expect(summary(await h.plan(desired()))).toEqual([]);
}

describe('faults in the middle of an apply (FL 478)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  it('a 429 storm is waited out: everything applied, the next plan is empty', async () => {
    const p = await h.plan(desired());
    h.z.setFaults({ seed: 7, rules: [{ kind: 'rate-limit', fraction: 0.5, retryAfter: 0.002 }] });
    const r = await h.apply(p, { allowDestroy: true });
    h.z.setFaults(undefined);
    expect(h.z.requestLog.filter((x) => x.fault === 'rate-limit').length).toBeGreaterThan(5);
    expect(r.outcome).toBe('applied');
    expect(summary(await h.plan(desired()))).toEqual([]);
    expectNoDuplicates(h);
  });

  it.each([
    [
      'a 500 on a create',
      { kind: 'server-error', method: 'POST', path: '/user_groups/create', nth: 2 },
    ],
    [
      'a dropped connection on a create',
      { kind: 'drop', method: 'POST', path: '/channels/create', nth: 3 },
    ],
    [
      'a 502 on a create',
      { kind: 'server-error', status: 502, method: 'POST', path: '/saved_snippets', nth: 1 },
    ],
  ] as const)(
    '%s: apply re-reads, sees it did not land, sends it once more',
    async (_name, rule) => {
      const p = await h.plan(desired());
      const from = h.z.requestLog.length;
      h.z.setFaults({ rules: [rule] });
      const r = await h.apply(p, { allowDestroy: true });
      h.z.setFaults(undefined);
      expect(r.outcome).toBe('applied');
      expect(
        r.events.filter((x) => x.type === 'read').map((x) => x.type === 'read' && x.reason),
      ).toEqual(['verify', 'check-create']);
      expect(successfulCreates(h, from)).toBe(creates(p.changes));
      expect(summary(await h.plan(desired()))).toEqual([]);
      expectNoDuplicates(h);
    },
  );

  it.each([
    [
      'a 503 on an update',
      { kind: 'server-error', status: 503, method: 'PATCH', path: '/streams/*', nth: 2 },
    ],
    [
      'a dropped connection on a membership call',
      { kind: 'drop', method: 'POST', path: '/user_groups/*/members', nth: 1 },
    ],
    [
      'a 500 on a group update',
      { kind: 'server-error', method: 'PATCH', path: '/user_groups/*', nth: 2 },
    ],
    [
      'dropped connections on the settings call (sent twice: it is idempotent)',
      { kind: 'drop', method: 'POST', path: '/users/me/subscriptions/properties', nth: [1, 2] },
    ],
    [
      'a 504 on the last change (a reorder)',
      { kind: 'server-error', status: 504, method: 'PATCH', path: '/channel_folders', nth: 1 },
    ],
  ] as const)(
    '%s stops the apply (exit 3); re-running reaches the desired state, nothing created twice',
    async (_name, rule) => {
      const p = await h.plan(desired());
      const from = h.z.requestLog.length;
      h.z.setFaults({ rules: [rule] });
      const r = await h.apply(p, { allowDestroy: true });
      h.z.setFaults(undefined);
      expect(r.outcome).toBe('partial');
      const failed = r.journal.entries.filter((x) => x.status === 'failed');
      expect(failed).toHaveLength(1);
      // A 5xx with a Zulip body keeps Zulip's code; without one the client says the outcome is unknown.
      expect(failed[0]!.error?.code).toMatch(/^(REQUEST_OUTCOME_UNKNOWN|BAD_REQUEST)$/);
      expect(r.journal.error).toEqual(failed[0]!.error);
      // Every change after the failure is recorded as not run.
      const at = r.journal.entries.indexOf(failed[0]!);
      expect(r.journal.entries.slice(at + 1).every((x) => x.status === 'skipped')).toBe(true);
      expect(r.journal.entries).toHaveLength(p.changes.length);

      // The next plan lists exactly what is left: the failed change (its request never
      // reached the server) and the ones that were not run.
      await expectRerunFinishes(h, r);
      expect(successfulCreates(h, from)).toBe(creates(p.changes));
      expectNoDuplicates(h);
    },
  );

  it('--keep-going goes on with the changes that do not depend on the failed one', async () => {
    const p = await h.plan(desired());
    h.z.setFaults({
      rules: [
        { kind: 'server-error', method: 'POST', path: '/channel_folders/create', nth: [1, 2] },
      ],
    });
    const r = await h.apply(p, { allowDestroy: true, keepGoing: true });
    h.z.setFaults(undefined);
    expect(r.outcome).toBe('partial');
    const failed = r.journal.entries.filter((x) => x.status === 'failed');
    expect(failed.map((x) => x.id)).toEqual(['channelFolder["Company"]#create']);
    const skipped = r.journal.entries.filter((x) => x.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const s of skipped) expect(s.message).toMatch(/depends on/);
    // Channels outside the failed folder were created.
    expect(r.journal.entries.find((x) => x.id === 'channel["backend"]#create')?.status).toBe(
      'applied',
    );
    await expectRerunFinishes(h, r);
  });

  it('an interrupt (Ctrl-C) stops between two requests; the journal says what was sent; re-running finishes', async () => {
    const p = await h.plan(desired());
    const abort = new AbortController();
    const r = await h.apply(p, {
      allowDestroy: true,
      signal: abort.signal,
      onEvent: (ev) => {
        if (ev.type === 'change' && ev.done === 5) abort.abort();
      },
    });
    expect(r.outcome).toBe('partial');
    expect(r.journal.error?.code).toBe('INTERRUPTED');
    const applied = r.journal.entries.filter((x) => x.status === 'applied');
    expect(applied.length).toBeGreaterThanOrEqual(5);
    expect(
      r.journal.entries
        .filter((x) => x.status === 'skipped')
        .every((x) => x.message === 'not run: apply was interrupted'),
    ).toBe(true);
    await expectRerunFinishes(h, r);
  });

  it('a create that landed although its answer was lost is found by re-reading, not sent again', async () => {
    const p = await h.plan(desired());
    const c = newClient(h.z);
    const target = new ZulipApplyTarget(c, p);
    const real = target.applyChange.bind(target);
    let lost = 0;
    target.applyChange = async (change, ctx, fold) => {
      const id = await real(change, ctx, fold);
      if (change.action === 'create' && lost < 2) {
        lost += 1;
        throw new ZulipCdkError('REQUEST_OUTCOME_UNKNOWN', 'the connection dropped');
      }
      return id;
    };
    const from = h.z.requestLog.length;
    const r = await applyPlan(p, target, { allowDestroy: true });
    await c.close();
    expect(r.outcome).toBe('applied');
    const found = r.journal.entries.filter((x) => x.message?.includes('landed'));
    expect(found).toHaveLength(2);
    expect(found.every((x) => typeof x.createdId === 'number')).toBe(true);
    expect(successfulCreates(h, from)).toBe(creates(p.changes));
    expect(summary(await h.plan(desired()))).toEqual([]);
    expectNoDuplicates(h);
  });
});
