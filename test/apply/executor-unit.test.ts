import { APPLY_OUTCOMES, applyPlan, exitCodeFor, plan } from '../../src/engine';
import type {
  ApplyEvent,
  ApplyOptions,
  ApplyOutcome,
  ApplyResult,
  ChangeStatus,
  JournalEntry,
  Plan,
} from '../../src/engine';
import type { DesiredState } from '../../src/model';
import { LiveBuilder, dChannel, dGroup, desired } from '../engine/fixtures';
import { FakeTarget } from './fake-target';
import { resign } from './helpers';

/**
 * The apply executor's contract, against an in-memory target (./fake-target) instead of HTTP:
 * order and dependencies, batching and folding, failures (refused, no answer, changed since
 * the plan), keepGoing, interruption, outcomes and exit codes, and the journal.
 */

const ENG = 'userGroup["eng"]';
const NEW = 'channel["new"]';
const LINK = 'linkifier["#(?P<id>[0-9]+)"]';
const OLD = 'channel["old"]';
const users = (...locals: string[]): { mode: 'exact'; users: string[]; groups: string[] } => ({
  mode: 'exact',
  users: locals.map((l) => `${l}@example.com`),
  groups: [],
});

function addLinkifier(d: DesiredState): void {
  d.linkifiers.push({ path: 'acme/l', pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://t/{id}' });
}

/** A new group, a new channel that only that group may post to, and a new linkifier. */
function creates(d: DesiredState): void {
  d.userGroups.push(dGroup('eng', { members: users('alice') }));
  d.channels.push(
    dChannel('new', {
      permissions: { canSendMessageGroup: 'eng' },
      subscribers: users('owner', 'bob'),
    }),
  );
  addLinkifier(d);
}

/** The organization the plans below are made against: channels a, b, old. */
function org(): LiveBuilder {
  const b = new LiveBuilder();
  b.channel('a', { subscribers: [1] });
  b.channel('b', { subscribers: [1] });
  b.channel('old', { description: 'before' });
  return b;
}

/** A target over `org()` and the plan of `build` against it (as `zulip-cdk plan` makes it). */
function setup(build: (d: DesiredState) => void): { target: FakeTarget; plan: Plan } {
  const target = new FakeTarget(org());
  return { target, plan: plan(desired(build), target.org.build()) };
}

type Run = ApplyResult & { events: ApplyEvent[]; byId: Map<string, JournalEntry> };

async function run(p: Plan, target: FakeTarget, options: ApplyOptions = {}): Promise<Run> {
  const events: ApplyEvent[] = [];
  const before = target.requestCount();
  const result = await applyPlan(p, target, {
    allowDestroy: true,
    ...options,
    onEvent: (e) => events.push(e),
  });
  const { journal } = result;
  // What every journal promises: each change of the plan exactly once, counts that add up to
  // its entries, one event per change, and the requests the target really answered.
  expect(journal.entries.map((e) => e.id).sort()).toEqual(p.changes.map((c) => c.id).sort());
  const tally: Record<ChangeStatus, number> = {
    applied: 0,
    done: 0,
    conflict: 0,
    failed: 0,
    skipped: 0,
  };
  for (const e of journal.entries) tally[e.status] += 1;
  expect(journal.counts).toEqual(tally);
  expect(events.filter((e) => e.type === 'change')).toHaveLength(p.changes.length);
  expect(events.at(-1)).toEqual({
    type: 'finish',
    outcome: result.outcome,
    counts: journal.counts,
    requestCount: journal.requestCount,
  });
  expect(journal.requestCount).toBe(target.requestCount() - before);
  return { ...result, events, byId: new Map(journal.entries.map((e) => [e.id, e])) };
}

/** `status` or `status: message` of a change in the journal. */
function said(r: Run, id: string): string {
  const e = r.byId.get(id);
  if (!e) throw new Error(`no entry ${id}`);
  return e.message === undefined ? e.status : `${e.status}: ${e.message}`;
}

describe('exitCodeFor: the outcome as an exit code', () => {
  it.each<[ApplyOutcome, number]>([
    ['applied', 0],
    ['no-changes', 0],
    ['nothing', 1],
    ['partial', 3],
  ])('%s → %i', (outcome, code) => {
    expect(exitCodeFor(outcome)).toBe(code);
  });

  it('covers every outcome', () => {
    expect([...APPLY_OUTCOMES].sort()).toEqual(['applied', 'no-changes', 'nothing', 'partial']);
  });
});

describe('applyPlan against an in-memory target: order, dependencies, folds', () => {
  it('an empty plan reads nothing and writes nothing: no-changes', async () => {
    const { target, plan: p } = setup(() => {});
    expect(p.changes).toEqual([]);
    const r = await run(p, target);
    expect(r.outcome).toBe('no-changes');
    expect(target.calls).toEqual([]);
    expect(r.journal.counts).toEqual({ applied: 0, done: 0, conflict: 0, failed: 0, skipped: 0 });
  });

  it("runs in the plan's order, and sends the members of a new object with its create", async () => {
    const { target, plan: p } = setup(creates);
    expect(p.changes.find((c) => c.id === `${NEW}#create`)?.dependsOn).toContain(`${ENG}#create`);
    // Moved first (it depends on nothing): the saved plan's order is followed.
    const link = p.changes.find((c) => c.id === `${LINK}#create`)!;
    const linkFirst = resign({ ...p, changes: [link, ...p.changes.filter((c) => c !== link)] });
    expect(linkFirst.changes[0]?.id).toBe(`${LINK}#create`);
    const r = await run(linkFirst, target);
    expect(target.calls).toEqual([
      'read',
      `create ${LINK}`,
      `create ${ENG} + alice@example.com`,
      `create ${NEW} + bob@example.com,owner@example.com`,
    ]);
    expect(r.outcome).toBe('applied');
    expect(r.journal.counts.applied).toBe(5);
    expect(r.journal.requestCount).toBe(4);
    expect(r.byId.get(`${ENG}#membership`)).toMatchObject({
      status: 'applied',
      via: `sent with ${ENG}#create`,
    });
    expect(r.byId.get(`${NEW}#membership`)?.via).toBe(`sent with ${NEW}#create`);
    // The created objects' IDs are recorded, and are those the target gave.
    const eng = target.org.state.userGroups.find((g) => g.name === 'eng');
    expect(r.byId.get(`${ENG}#create`)?.createdId).toBe(eng?.id);
    expect(eng?.members).toEqual([3]);
  });

  it('a change whose dependency failed is skipped; the others go on (keepGoing)', async () => {
    const { target, plan: p } = setup(creates);
    target.fail(`${ENG}#create`, 'refused');
    const r = await run(p, target, { keepGoing: true });
    expect(target.writes).toEqual([`create ${ENG} + alice@example.com`, `create ${LINK}`]);
    expect(r.byId.get(`${ENG}#create`)).toMatchObject({
      status: 'failed',
      error: { code: 'BAD_REQUEST' },
    });
    expect(said(r, `${ENG}#membership`)).toBe(`skipped: not run: ${ENG}#create failed`);
    expect(said(r, `${NEW}#create`)).toBe(
      `skipped: not run: it depends on ${ENG}#create, which failed`,
    );
    expect(said(r, `${NEW}#membership`)).toBe(`skipped: not run: ${NEW}#create was not run`);
    expect(said(r, `${LINK}#create`)).toBe('applied');
    expect(r.outcome).toBe('partial');
    expect(exitCodeFor(r.outcome)).toBe(3);
    expect(r.journal.counts).toEqual({ applied: 1, done: 0, conflict: 0, failed: 1, skipped: 3 });
    expect(r.journal.error).toBeUndefined();
  });

  it('without keepGoing, the first failure stops the apply', async () => {
    const { target, plan: p } = setup(creates);
    target.fail(`${ENG}#create`, 'refused');
    const r = await run(p, target);
    expect(target.writes).toEqual([`create ${ENG} + alice@example.com`]);
    expect(said(r, `${LINK}#create`)).toBe(
      'skipped: not run: apply stopped after a failure (BAD_REQUEST)',
    );
    expect(r.outcome).toBe('nothing');
    expect(exitCodeFor(r.outcome)).toBe(1);
    expect(r.journal.error?.code).toBe('BAD_REQUEST');
    expect(r.journal.counts).toEqual({ applied: 0, done: 0, conflict: 0, failed: 1, skipped: 4 });
  });

  it('a change whose dependency is already done runs', async () => {
    const { target, plan: p } = setup(creates);
    // Someone makes the group, as the configuration says, between plan and apply.
    target.org.group('eng', { members: [3] });
    const r = await run(p, target);
    expect(said(r, `${ENG}#create`)).toMatch(/^done: already done/);
    expect(said(r, `${ENG}#membership`)).toMatch(/^done: already done/);
    expect(target.writes).toEqual([
      `create ${NEW} + bob@example.com,owner@example.com`,
      `create ${LINK}`,
    ]);
    expect(r.outcome).toBe('applied');
    expect(exitCodeFor(r.outcome)).toBe(0);
  });

  it('a change whose dependency changed since the plan is skipped', async () => {
    const { target, plan: p } = setup(creates);
    // Someone makes the group, with other members, between plan and apply.
    target.org.group('eng', { members: [4] });
    const r = await run(p, target, { keepGoing: true });
    expect(r.byId.get(`${ENG}#membership`)?.status).toBe('conflict');
    expect(r.events.filter((e) => e.type === 'conflict').map((e) => e.id)).toContain(
      `${ENG}#membership`,
    );
    expect(target.writes).not.toContain(`create ${ENG} + alice@example.com`);
  });
});

describe('applyPlan against an in-memory target: batches', () => {
  /** Alice and bob join channels a and b; the applying account recolours a. */
  const joins = (d: DesiredState): void => {
    d.channels.push(
      dChannel('a', { subscribers: users('owner', 'alice', 'bob') }),
      dChannel('b', { subscribers: users('owner', 'alice', 'bob') }),
    );
    d.subscriptionSettings.push({ path: 'acme/s', channel: 'a', color: '#ff0000' });
  };
  const setupJoins = (): { target: FakeTarget; plan: Plan } => {
    const target = new FakeTarget(org());
    const a = target.org.state.channels.find((c) => c.name === 'a')!;
    target.org.settings(a.id, { color: '#000000' });
    return { target, plan: plan(desired(joins), target.org.build()) };
  };

  it('subscriptions to existing channels go out in one call, the settings after them', async () => {
    const { target, plan: p } = setupJoins();
    const r = await run(p, target);
    expect(target.calls).toEqual(['read', 'subscribe a,b ← 3,4', 'settings a']);
    expect(r.byId.get('channel["a"]#membership')?.via).toBe(
      'batch 1: POST /users/me/subscriptions',
    );
    expect(r.byId.get('channel["b"]#membership')?.via).toBe(
      'batch 1: POST /users/me/subscriptions',
    );
    expect(r.byId.get('subscriptionSettings["a"]#update')?.via).toBe(
      'batch 2: POST /users/me/subscriptions/properties',
    );
    expect(r.events.filter((e) => e.type === 'batch')).toHaveLength(2);
    expect(r.outcome).toBe('applied');
    expect(target.org.state.channels.find((c) => c.name === 'b')?.subscribers).toEqual([1, 3, 4]);
  });

  it('a refused batch fails every change it serves, and what depends on them is skipped', async () => {
    const { target, plan: p } = setupJoins();
    target.fail('subscribe', 'refused');
    const r = await run(p, target, { keepGoing: true });
    for (const id of ['channel["a"]#membership', 'channel["b"]#membership'])
      expect(r.byId.get(id)).toMatchObject({
        status: 'failed',
        error: { code: 'BAD_REQUEST' },
        via: 'batch 1: POST /users/me/subscriptions',
      });
    expect(said(r, 'subscriptionSettings["a"]#update')).toBe(
      'skipped: not run: it depends on channel["a"]#membership, which failed',
    );
    expect(target.writes).toEqual(['subscribe a,b ← 3,4']);
    expect(r.outcome).toBe('nothing');
  });

  it('a batch that got no answer is sent once more (subscribing is idempotent)', async () => {
    const { target, plan: p } = setupJoins();
    target.fail('subscribe', 'no-answer');
    const r = await run(p, target);
    expect(target.writes).toEqual(['subscribe a,b ← 3,4', 'subscribe a,b ← 3,4', 'settings a']);
    expect(r.outcome).toBe('applied');
  });

  it('unsubscribing goes out in its own call', async () => {
    const target = new FakeTarget(org());
    target.org.state.channels.find((c) => c.name === 'b')!.subscribers = [1, 4];
    const p = plan(
      desired((d) => {
        d.channels.push(dChannel('a', { subscribers: users('owner', 'bob') }));
        d.channels.push(dChannel('b', { subscribers: users('owner') }));
      }),
      target.org.build(),
    );
    const r = await run(p, target);
    expect(target.writes).toEqual(['subscribe a ← 4', 'unsubscribe b ← 4']);
    expect(r.byId.get('channel["b"]#membership')?.via).toBe(
      'batch 2: DELETE /users/me/subscriptions',
    );
  });
});

describe('applyPlan against an in-memory target: interruption', () => {
  it('an abort between two requests skips the rest as interrupted', async () => {
    const { target, plan: p } = setup(creates);
    const stop = new AbortController();
    target.onCall = (call) => {
      if (call.startsWith('create')) stop.abort();
    };
    const r = await run(p, target, { signal: stop.signal });
    expect(target.writes).toEqual([`create ${ENG} + alice@example.com`]);
    expect(said(r, `${ENG}#create`)).toBe('applied');
    expect(said(r, `${ENG}#membership`)).toBe('applied');
    for (const id of [`${NEW}#create`, `${NEW}#membership`, `${LINK}#create`])
      expect(said(r, id)).toBe('skipped: not run: apply was interrupted');
    expect(r.journal.error?.code).toBe('INTERRUPTED');
    expect(r.outcome).toBe('partial');
    expect(exitCodeFor(r.outcome)).toBe(3);
  });
});

describe('applyPlan against an in-memory target: a create whose outcome is unknown', () => {
  const link = addLinkifier;

  it.each(['no-answer', 'server-error'] as const)(
    '%s, and a re-read finds it: applied, not sent again',
    async (fault) => {
      const { target, plan: p } = setup(link);
      target.fail(`${LINK}#create`, { fault, landed: true });
      const r = await run(p, target);
      expect(target.calls).toEqual(['read', `create ${LINK}`, 'read']);
      expect(said(r, `${LINK}#create`)).toBe(
        'applied: the request failed without an answer, but a re-read shows it landed',
      );
      expect(r.byId.get(`${LINK}#create`)?.createdId).toBe(target.org.state.linkifiers[0]?.id);
      expect(r.events).toContainEqual({ type: 'read', reason: 'check-create', requests: 1 });
      expect(target.org.state.linkifiers).toHaveLength(1);
      expect(r.outcome).toBe('applied');
    },
  );

  it.each(['no-answer', 'server-error'] as const)(
    '%s, and a re-read does not find it: sent once more',
    async (fault) => {
      const { target, plan: p } = setup(link);
      target.fail(`${LINK}#create`, fault);
      const r = await run(p, target);
      expect(target.calls).toEqual(['read', `create ${LINK}`, 'read', `create ${LINK}`]);
      expect(said(r, `${LINK}#create`)).toBe('applied');
      expect(target.org.state.linkifiers).toHaveLength(1);
    },
  );

  it('no answer twice: failed, and never sent a third time', async () => {
    const { target, plan: p } = setup(link);
    target.fail(`${LINK}#create`, 'no-answer', 'no-answer');
    const r = await run(p, target);
    expect(target.writes).toEqual([`create ${LINK}`, `create ${LINK}`]);
    expect(r.byId.get(`${LINK}#create`)).toMatchObject({
      status: 'failed',
      error: { code: 'REQUEST_OUTCOME_UNKNOWN' },
    });
    expect(r.outcome).toBe('nothing');
  });

  it('refused because someone made it meanwhile: done, with its members when they are there', async () => {
    const { target, plan: p } = setup(creates);
    target.fail(`${ENG}#create`, { fault: 'refused', landed: true });
    const r = await run(p, target);
    expect(said(r, `${ENG}#create`)).toMatch(/^done: made meanwhile by someone else/);
    expect(said(r, `${ENG}#membership`)).toBe(`done: already made with ${ENG}#create`);
    // The channel that needs the group runs on.
    expect(said(r, `${NEW}#create`)).toBe('applied');
    expect(r.outcome).toBe('applied');
  });

  it('refused, and a re-read does not find it: failed, not sent again', async () => {
    const { target, plan: p } = setup(link);
    target.fail(`${LINK}#create`, 'refused');
    const r = await run(p, target);
    expect(target.calls).toEqual(['read', `create ${LINK}`, 'read']);
    expect(r.byId.get(`${LINK}#create`)?.status).toBe('failed');
  });
});

describe('applyPlan against an in-memory target: a change other than a create that fails', () => {
  const describeOld = (d: DesiredState): void => {
    d.channels.push(dChannel('old', { description: 'after' }));
    addLinkifier(d);
  };

  it.each(['refused', 'no-answer'] as const)(
    '%s, but a re-read shows it landed: done',
    async (fault) => {
      const { target, plan: p } = setup(describeOld);
      target.fail(`${OLD}#update`, { fault, landed: true });
      const r = await run(p, target);
      expect(target.calls).toEqual(['read', `update ${OLD}`, 'read', `create ${LINK}`]);
      expect(said(r, `${OLD}#update`)).toMatch(
        /^done: .* a re-read shows it made \(by this request, or meanwhile by another apply or by hand\)$/,
      );
      expect(r.outcome).toBe('applied');
    },
  );

  it('refused, and a re-read shows it did not land: failed', async () => {
    const { target, plan: p } = setup(describeOld);
    target.fail(`${OLD}#update`, 'refused');
    const r = await run(p, target);
    expect(target.calls).toEqual(['read', `update ${OLD}`, 'read']);
    expect(r.byId.get(`${OLD}#update`)).toMatchObject({
      status: 'failed',
      error: { code: 'BAD_REQUEST' },
    });
    expect(said(r, `${LINK}#create`)).toBe(
      'skipped: not run: apply stopped after a failure (BAD_REQUEST)',
    );
    expect(r.outcome).toBe('nothing');
    expect(r.journal.error?.code).toBe('BAD_REQUEST');
  });

  it('EXPECTATION_MISMATCH: a conflict, not a failure, and the apply goes on', async () => {
    const { target, plan: p } = setup(describeOld);
    target.fail(`${OLD}#update`, 'mismatch');
    const r = await run(p, target);
    expect(target.writes).toEqual([`update ${OLD}`, `create ${LINK}`]);
    expect(said(r, `${OLD}#update`)).toMatch(/^conflict: .*EXPECTATION_MISMATCH.*not written$/);
    expect(said(r, `${LINK}#create`)).toBe('applied');
    expect(r.journal.error).toBeUndefined();
    expect(r.outcome).toBe('partial');
  });
});

describe('applyPlan against an in-memory target: refusals before any write', () => {
  it('a plan made as another account is refused after the first read', async () => {
    const { target, plan: p } = setup(creates);
    target.org.state.me = { ...target.org.state.me, userId: 2, email: 'admin@example.com' };
    await expect(applyPlan(p, target)).rejects.toMatchObject({ code: 'PLAN_WRONG_ACCOUNT' });
    expect(target.calls).toEqual(['read']);
  });
});
