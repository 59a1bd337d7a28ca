/**
 * Issue 13, item 4: interrupted applies recover. `zulip-cdk apply plan.json` runs as a real
 * child process against an emulator that lives in this process (so the organization outlives
 * the child), and is SIGKILLed at precise points: right after the emulator answered its k-th
 * write (caught when write k+1 arrives, which is dropped unhandled), or while a write is in
 * flight (the emulator made the change, the child dies before it hears of it). Then:
 *
 * (a) the journal exists and is true: JSON Lines, a `journal` header, one `change` event per
 *     finished change, no `end`; every change it calls applied is live, and every create
 *     whose answer the child received before the kill is in it (written as apply goes);
 * (b) re-applying the same plan file exits 0, reports every change as done, and the next plan
 *     is empty;
 * (c) nothing exists twice (saved snippets, whose titles Zulip does not keep unique, included),
 *     folders and linkifiers are in the planned order: the organization is exactly what one
 *     uninterrupted apply makes.
 *
 * The same with `--keep-going`, with a fault that loses one answer, with two applies at once,
 * and re-applying a plan that fully landed. Re-applies that need no kill run the CLI in this
 * process (`main`), which is faster than a child.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main';
import { startEmulator } from '../../src/emulator';
import type { Emulator, FaultRule, InterceptedRequest, OrgState } from '../../src/emulator';
import { plan } from '../../src/engine';
import { emptyDesiredState } from '../../src/model';
import type { DesiredState } from '../../src/model';
import { readLiveState } from '../../src/provider/read-live-state';
import { killChildren, spawnCli } from '../support/cli-child';
import type { ChildExit, CliChild } from '../support/cli-child';
import { fakeIo } from '../support/fake-io';
import { newClient } from './helpers';

jest.setTimeout(60_000);

const e = (local: string): string => `${local}@zulip-cdk.example`;

/**
 * Against the demo organization, a plan with every kind of change apply makes: folders created
 * and reordered, channels created with subscribers and in a folder, a group created with
 * members, a group's description and setting updated and members added, a channel renamed and
 * subscribed to, linkifiers created and reordered, a playground and two saved snippets created.
 */
function desiredState(): DesiredState {
  const d = emptyDesiredState('kill');
  d.channelFolders.push(
    { path: 'kill/product', name: 'Product', description: 'Product channels' },
    { path: 'kill/ops', name: 'Operations', description: 'Ops channels' },
    {
      path: 'kill/eng',
      name: 'Engineering',
      description: 'Channels for **engineering** discussions',
    },
  );
  d.userGroups.push(
    {
      path: 'kill/backend',
      name: 'backend',
      description: 'Backend engineers (services)',
      members: { mode: 'atLeast', users: [e('alice'), e('bob'), e('dave')], groups: [] },
      permissions: { canManageGroup: 'role:administrators' },
    },
    {
      path: 'kill/sre',
      name: 'sre',
      description: 'Site reliability',
      members: { mode: 'exact', users: [e('alice'), e('carol')], groups: [] },
      permissions: { canManageGroup: 'role:administrators' },
    },
  );
  d.channels.push(
    {
      path: 'kill/reviews',
      name: 'design-reviews',
      description: 'Design reviews',
      permissions: {},
      lifecycle: { renamedFrom: ['design'] },
      subscribers: { mode: 'atLeast', users: [e('carol')], groups: [] },
    },
    {
      path: 'kill/incidents',
      name: 'incidents',
      description: 'Incidents',
      folder: 'Operations',
      permissions: {},
      subscribers: { mode: 'atLeast', users: [e('owner')], groups: ['sre'] },
    },
    {
      path: 'kill/launch',
      name: 'launch',
      description: 'Launch planning',
      folder: 'Product',
      permissions: {},
      subscribers: { mode: 'exact', users: [e('owner'), e('alice'), e('bob')], groups: [] },
    },
  );
  d.linkifiers.push(
    {
      path: 'kill/jira',
      pattern: 'JIRA-(?P<id>[0-9]+)',
      urlTemplate: 'https://jira.example/browse/JIRA-{id}',
    },
    {
      path: 'kill/issues',
      pattern: '#(?P<id>[0-9]+)',
      urlTemplate: 'https://github.com/acme/app/issues/{id}',
    },
    {
      path: 'kill/pulls',
      pattern: 'PR(?P<id>[0-9]+)',
      urlTemplate: 'https://github.com/acme/app/pull/{id}',
    },
  );
  d.playgrounds.push({
    path: 'kill/rust',
    name: 'Rust Playground',
    pygmentsLanguage: 'rust',
    urlTemplate: 'https://play.rust-lang.org/?code={code}',
  });
  d.savedSnippets.push(
    { path: 'kill/oncall', title: 'On-call', content: 'Page the on-call engineer.' },
    { path: 'kill/runbook', title: 'Runbook', content: 'See the runbook.' },
  );
  return d;
}

// ---------------------------------------------------------------------------------------------
// What the journal says

/**
 * The statuses that mean "this change is live": `applied` by this apply, or found already done
 * (the name of that status is the apply's to choose; add it here).
 */
const RECOVERED_STATUSES: readonly string[] = ['applied', 'done'];
const isRecovered = (status: string): boolean => RECOVERED_STATUSES.includes(status);

interface JournalChange {
  readonly id: string;
  readonly status: string;
  readonly message?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

interface JournalFile {
  readonly header: Record<string, unknown>;
  /** The `entry` of every `change` event, in order. */
  readonly changes: readonly JournalChange[];
  /** Whether the last line is the journal's `end`. */
  readonly finished: boolean;
}

/** Reads a JSON Lines journal: every line one JSON object, the first the `journal` header. */
function readJournal(file: string): JournalFile {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const events = lines.map((l, i) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch {
      throw new Error(`${file}: line ${i + 1} is not JSON: ${l.slice(0, 200)}`);
    }
  });
  const header = events[0];
  if (header?.type !== 'journal')
    throw new Error(`${file}: the first line is not a journal header: ${lines[0] ?? '(empty)'}`);
  const changes = events
    .filter((ev) => ev.type === 'change')
    .map((ev) => ev.entry as JournalChange)
    .filter((entry) => typeof entry?.id === 'string' && typeof entry.status === 'string');
  return { header, changes, finished: events.at(-1)?.type === 'end' };
}

/** `id status` of the changes that are not recovered, for readable failures. */
const notRecovered = (j: JournalFile): string[] =>
  j.changes
    .filter((c) => !isRecovered(c.status))
    .map((c) => `${c.id} ${c.status}: ${c.error?.message ?? c.message ?? ''}`);

/** How apply reports a change it did not write because its object changed since the plan. */
const CONFLICT = /(?<!nothing )changed since the plan/i;

// ---------------------------------------------------------------------------------------------
// The organization, as a user would check it

/** `kind:key` of every object a create could make (snippet titles may repeat: a list). */
function createdKeys(org: OrgState): string[] {
  return [
    ...org.folders.filter((f) => !f.isArchived).map((f) => `channelFolder:${f.name}`),
    ...org.groups.filter((g) => !g.isSystemGroup).map((g) => `userGroup:${g.name}`),
    ...org.channels.map((c) => `channel:${c.name}`),
    ...org.linkifiers.map((l) => `linkifier:${l.pattern}`),
    ...org.playgrounds.map((p) => `playground:${p.pygmentsLanguage}/${p.name}`),
    ...org.snippets.map((s) => `savedSnippet:${s.title}`),
  ];
}

/** Objects that exist more than once (by natural key). */
function duplicates(org: OrgState): string[] {
  const seen = new Map<string, number>();
  for (const k of createdKeys(org)) seen.set(k, (seen.get(k) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`);
}

/** What the plan manages, in natural-key terms (orders as Zulip shows them). */
function view(org: OrgState): Record<string, unknown> {
  const user = (id: number): string => org.users.find((u) => u.id === id)?.email ?? `#${id}`;
  const folder = (id: number | null): string =>
    id === null ? '-' : (org.folders.find((f) => f.id === id)?.name ?? `#${id}`);
  const subscribers = (channelId: number): string[] =>
    org.subscriptions
      .filter((s) => s.channelId === channelId && s.active)
      .map((s) => user(s.userId))
      .sort();
  return {
    folders: [...org.folders]
      .filter((f) => !f.isArchived)
      .sort((a, b) => a.order - b.order)
      .map((f) => `${f.name}: ${f.description}`),
    linkifiers: [...org.linkifiers]
      .sort((a, b) => a.order - b.order)
      .map((l) => `${l.pattern} → ${l.urlTemplate}`),
    snippets: org.snippets.map((s) => `${user(s.userId)} ${s.title}: ${s.content}`).sort(),
    playgrounds: org.playgrounds.map((p) => `${p.pygmentsLanguage}/${p.name}`).sort(),
    groups: org.groups
      .filter((g) => !g.isSystemGroup)
      .map(
        (g) =>
          `${g.name}: ${g.description} [${g.members.map(user).sort().join(' ')}] ` +
          `manage=${JSON.stringify(g.settings.can_manage_group)}`,
      )
      .sort(),
    channels: org.channels
      .map(
        (c) =>
          `${c.name} (${folder(c.folderId)}): ${c.description} [${subscribers(c.id).join(' ')}]`,
      )
      .sort(),
  };
}

// ---------------------------------------------------------------------------------------------
// One organization per test: an emulator that counts writes and snapshots after each

const isWrite = (r: { method: string; path: string }): boolean =>
  r.method !== 'GET' && r.path !== '/register' && !r.path.startsWith('/events');

/** `METHOD /path/{id}`, for the write sequence. */
const template = (r: { method: string; path: string }): string =>
  `${r.method} ${r.path.replace(/\/\d+/g, '/{id}')}`;

interface Org {
  readonly z: Emulator;
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly desiredFile: string;
  readonly planFile: string;
  /** The plan's changes as saved. */
  changes: readonly { id: string; kind: string; action: string; key: string }[];
  /** Write requests that arrived (before handling) and that were handled. */
  arrived: number;
  readonly writes: string[];
  /** `createdKeys` before any write ([0]) and after the handling of each write ([n]). */
  readonly snapshots: string[][];
  /** Called when write n arrives; may hold it (a promise) or drop it unhandled. */
  onArrive?: (n: number, r: InterceptedRequest) => void | 'drop' | Promise<void | 'drop'>;
  /** Called when write n was handled, before its answer is sent. */
  onHandled?: (n: number) => void;
}

const orgs: Org[] = [];

/** Kills the children a test left running, closes its emulators and removes its files. */
async function cleanUp(): Promise<void> {
  await killChildren();
  for (const o of orgs.splice(0)) {
    await o.z.close();
    rmSync(o.dir, { recursive: true, force: true });
  }
}
afterEach(cleanUp);
afterAll(cleanUp);

/** Runs the CLI in this process; its output is kept for the assertions. */
async function cli(
  o: Org,
  args: string[],
): Promise<{ code: number; out: string; err: string; writes: number }> {
  const io = fakeIo({ cwd: o.dir, env: o.env });
  const before = o.writes.length;
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err(), writes: o.writes.length - before };
}

/** The exit code, with the output when it is not 0 (so that a failure shows why). */
const exited = (r: {
  code: number;
  out: string;
  err: string;
}): { code: number; output?: string } =>
  r.code === 0 ? { code: 0 } : { code: r.code, output: `${r.out}${r.err}` };

/** A demo organization, the desired state file and the plan saved by `zulip-cdk plan --out`. */
async function setup(): Promise<Org> {
  const dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-interrupted-'));
  // The emulator starts before the Org that its hooks report to.
  const hooks: { org?: Org } = {};
  const z = await startEmulator({
    rateLimit: false,
    intercept: (r) => {
      const org = hooks.org;
      if (!org || !isWrite(r)) return undefined;
      org.arrived += 1;
      return org.onArrive?.(org.arrived, r);
    },
    observe: (r) => {
      const org = hooks.org;
      if (!org || !isWrite(r)) return;
      org.writes.push(template(r));
      org.snapshots.push(createdKeys(org.z.org));
      org.onHandled?.(org.writes.length);
    },
  });
  const env = {
    ZULIP_EMAIL: z.owner.email,
    ZULIP_API_KEY: z.owner.apiKey,
    ZULIP_SITE: z.site,
    HOME: dir,
    CI: 'true',
  };
  const desiredFile = path.join(dir, 'kill.zulip.json');
  writeFileSync(desiredFile, JSON.stringify(desiredState()));
  const o: Org = {
    z,
    dir,
    env,
    desiredFile,
    planFile: path.join(dir, 'plan.json'),
    changes: [],
    arrived: 0,
    writes: [],
    snapshots: [createdKeys(z.org)],
  };
  hooks.org = o;
  orgs.push(o);
  const made = await cli(o, ['plan', '--desired', desiredFile, '--out', o.planFile]);
  expect(exited(made)).toEqual({ code: 0 });
  o.changes = (JSON.parse(readFileSync(o.planFile, 'utf8')) as Pick<Org, 'changes'>).changes;
  return o;
}

/** The ids of the changes a fresh plan still has. */
async function changesLeft(o: Org): Promise<string[]> {
  const client = newClient(o.z);
  try {
    return plan(desiredState(), await readLiveState(client)).changes.map((c) => c.id);
  } finally {
    await client.close();
  }
}

const applyArgs = (o: Org, journal: string, more: string[] = []): string[] => [
  'apply',
  o.planFile,
  '--auto-approve',
  '--journal',
  path.join(o.dir, journal),
  ...more,
];

/** (a) Every change the journal calls applied (or done) is live: no fresh plan lists it. */
async function expectJournalTrue(o: Org, j: JournalFile): Promise<void> {
  const left = new Set(await changesLeft(o));
  const untrue = j.changes.filter((c) => isRecovered(c.status) && left.has(c.id)).map((c) => c.id);
  expect({ saidAppliedButNotLive: untrue }).toEqual({ saidAppliedButNotLive: [] });
}

/** A re-apply that recovered: every change of the plan reported as applied or done. */
function expectAllRecovered(o: Org, j: JournalFile): void {
  const reported = new Map(j.changes.map((c) => [c.id, c.status]));
  expect({
    finished: j.finished,
    notRecovered: notRecovered(j),
    missing: o.changes.map((c) => c.id).filter((id) => !reported.has(id)),
  }).toEqual({ finished: true, notRecovered: [], missing: [] });
}

/** (b) and (c): nothing left to plan, nothing twice, exactly what one clean apply makes. */
async function expectConverged(o: Org): Promise<void> {
  expect({
    changesLeft: await changesLeft(o),
    duplicates: duplicates(o.z.org),
  }).toEqual({ changesLeft: [], duplicates: [] });
  expect(view(o.z.org)).toEqual(reference.view);
}

/** The uninterrupted apply: its write sequence and the organization it makes. */
const reference: { writes: string[]; view: Record<string, unknown> } = { writes: [], view: {} };

beforeAll(async () => {
  const o = await setup();
  const first = await cli(o, applyArgs(o, 'reference.jsonl'));
  expect(exited(first)).toEqual({ code: 0 });
  expect(await changesLeft(o)).toEqual([]);
  expect(duplicates(o.z.org)).toEqual([]);
  reference.writes = [...o.writes];
  reference.view = view(o.z.org);
  // The sanity of the scenario: many writes, snippets among them.
  expect(reference.writes.length).toBeGreaterThan(10);
  expect(reference.writes).toContain('POST /saved_snippets');
  await cleanUp();
});

// ---------------------------------------------------------------------------------------------

interface KillPoint {
  readonly name: string;
  /** The 1-based write, in the uninterrupted apply's sequence. */
  readonly at: (writes: readonly string[]) => number;
  /** `answered`: killed once the child heard the answer; `in-flight`: before it did. */
  readonly when: 'answered' | 'in-flight';
  /** Re-apply with --keep-going. */
  readonly keepGoing: boolean;
}

const firstSnippet = (w: readonly string[]): number => w.indexOf('POST /saved_snippets') + 1;
const middle = (w: readonly string[]): number => Math.ceil(w.length / 2);

const KILLS: readonly KillPoint[] = [
  { name: 'the 1st write answered', at: () => 1, when: 'answered', keepGoing: false },
  { name: 'a middle write answered', at: middle, when: 'answered', keepGoing: false },
  {
    name: 'the one before last answered',
    at: (w) => w.length - 1,
    when: 'answered',
    keepGoing: false,
  },
  {
    name: 'a saved snippet create in flight',
    at: firstSnippet,
    when: 'in-flight',
    keepGoing: false,
  },
  { name: 'the last write in flight', at: (w) => w.length, when: 'in-flight', keepGoing: false },
  { name: 'a middle write answered', at: middle, when: 'answered', keepGoing: true },
  {
    name: 'a saved snippet create in flight',
    at: firstSnippet,
    when: 'in-flight',
    keepGoing: true,
  },
];

/** Applies in a child and SIGKILLs it at the point; returns the creates answered before. */
async function applyKilledAt(
  o: Org,
  k: number,
  when: KillPoint['when'],
  journal: string,
): Promise<{ exit: ChildExit; output: string; answered: string[] | undefined }> {
  const started: { child?: CliChild } = {};
  let answered: string[] | undefined;
  if (when === 'answered')
    o.onArrive = (n) => {
      if (n !== k + 1) return undefined;
      started.child?.kill();
      answered = o.snapshots[k];
      return 'drop';
    };
  else
    o.onHandled = (n) => {
      if (n !== k) return;
      started.child?.kill();
      answered = o.snapshots[k - 1];
    };
  const child = spawnCli(applyArgs(o, journal), { cwd: o.dir, env: o.env });
  started.child = child;
  const exit = await child.exited;
  delete o.onArrive;
  delete o.onHandled;
  return { exit, output: child.out() + child.err(), answered };
}

describe('an apply killed with SIGKILL, then the same plan applied again', () => {
  it.each(KILLS)(
    'SIGKILL when $name; re-applied with --keep-going: $keepGoing',
    async ({ at, when, keepGoing }) => {
      const o = await setup();
      const k = at(reference.writes);
      expect(k).toBeGreaterThanOrEqual(1);
      const killed = await applyKilledAt(o, k, when, 'killed.jsonl');
      // It was killed at the point, not finished or failed on its own.
      expect({ exit: killed.exit, output: killed.answered ? '' : killed.output }).toEqual({
        exit: { code: null, signal: 'SIGKILL' },
        output: '',
      });

      // (a) The journal is there, written as apply went, and true.
      const j = readJournal(path.join(o.dir, 'killed.jsonl'));
      expect(j.finished).toBe(false);
      await expectJournalTrue(o, j);
      const initial = new Set(o.snapshots[0]);
      const recorded = new Set(j.changes.filter((c) => isRecovered(c.status)).map((c) => c.id));
      const answeredCreates = o.changes.filter(
        (c) =>
          c.action === 'create' &&
          killed.answered!.includes(`${c.kind}:${c.key}`) &&
          !initial.has(`${c.kind}:${c.key}`),
      );
      expect({
        answeredButNotInJournal: answeredCreates.map((c) => c.id).filter((id) => !recorded.has(id)),
      }).toEqual({ answeredButNotInJournal: [] });

      // (b) The same plan file again: what landed is done, the rest applied, exit 0.
      const again = await cli(o, applyArgs(o, 'again.jsonl', keepGoing ? ['--keep-going'] : []));
      expect(exited(again)).toEqual({ code: 0 });
      expect(again.out).not.toMatch(CONFLICT);
      expectAllRecovered(o, readJournal(path.join(o.dir, 'again.jsonl')));

      // (c) Converged, nothing twice, orders as planned.
      await expectConverged(o);
    },
  );
});

interface FaultCase {
  readonly name: string;
  readonly rule: FaultRule;
  readonly keepGoing: boolean;
}

const FAULTS: readonly FaultCase[] = [
  {
    name: 'a 500 after the group update landed (outcome unknown)',
    rule: {
      kind: 'server-error',
      method: 'PATCH',
      path: '/user_groups/{user_group_id}',
      nth: 1,
      when: 'after',
    },
    keepGoing: true,
  },
  {
    name: 'the connection dropped after the first saved snippet landed',
    rule: { kind: 'drop', method: 'POST', path: '/saved_snippets', nth: 1, when: 'after' },
    keepGoing: false,
  },
  {
    name: 'a 502 before the linkifier reorder (not landed)',
    rule: { kind: 'server-error', status: 502, method: 'PATCH', path: '/realm/linkifiers', nth: 1 },
    keepGoing: true,
  },
];

describe('an apply that lost an answer, then the same plan applied again', () => {
  it.each(FAULTS)('$name (--keep-going: $keepGoing)', async ({ rule, keepGoing }) => {
    const o = await setup();
    const flags = keepGoing ? ['--keep-going'] : [];
    o.z.setFaults({ rules: [rule] });
    const first = await cli(o, applyArgs(o, 'first.jsonl', flags));
    o.z.setFaults(undefined);
    expect(o.z.requestLog.filter((r) => r.fault !== undefined)).toHaveLength(1);
    expect([0, 3]).toContain(first.code);
    const j = readJournal(path.join(o.dir, 'first.jsonl'));
    expect(j.finished).toBe(true);
    await expectJournalTrue(o, j);

    const again = await cli(o, applyArgs(o, 'again.jsonl', flags));
    expect(exited(again)).toEqual({ code: 0 });
    expect(again.out).not.toMatch(CONFLICT);
    expectAllRecovered(o, readJournal(path.join(o.dir, 'again.jsonl')));
    await expectConverged(o);
  });
});

describe('two applies of the same plan at once', () => {
  it('never duplicate anything, keep the planned orders, and the second reports what the first did', async () => {
    const o = await setup();
    // Hold the first write until the other apply also sends one (or 5 s passed): the two
    // applies have both read the organization before either writes, the worst case.
    const held: (() => void)[] = [];
    let open = false;
    let timer: NodeJS.Timeout | undefined;
    const release = (): void => {
      open = true;
      clearTimeout(timer);
      for (const r of held.splice(0)) r();
    };
    o.onArrive = () => {
      if (open) return undefined;
      return new Promise<void>((resolve) => {
        held.push(resolve);
        if (held.length >= 2) release();
        else timer = setTimeout(release, 5000);
      });
    };
    const a = spawnCli(applyArgs(o, 'a.jsonl'), { cwd: o.dir, env: o.env });
    const b = spawnCli(applyArgs(o, 'b.jsonl'), { cwd: o.dir, env: o.env });
    const exits = await Promise.all([a.exited, b.exited]);
    release();
    const codes = exits.map((x) => x.code);
    const outputs = [a, b].map((c) => c.out() + c.err());
    // One applies everything; the other applied the rest or found it done (0), or reports
    // what it could not do (3).
    const [low, high] = [...codes].sort();
    const ok = low === 0 && (high === 0 || high === 3);
    expect({ ok, codes, outputs: ok ? [] : outputs }).toEqual({ ok: true, codes, outputs: [] });
    const journals = ['a.jsonl', 'b.jsonl'].map((f) => readJournal(path.join(o.dir, f)));
    for (const j of journals) {
      expect(j.finished).toBe(true);
      // Each journal accounts for every change, and none failed because the other apply
      // had already made the object ("... already in use", "... already exists").
      expect({
        missing: o.changes.map((c) => c.id).filter((id) => !j.changes.some((c) => c.id === id)),
        failedAsTaken: j.changes
          .filter(
            (c) =>
              c.status === 'failed' &&
              /already/i.test(`${c.error?.message ?? ''} ${c.message ?? ''}`),
          )
          .map((c) => `${c.id}: ${c.error?.message ?? c.message ?? ''}`),
      }).toEqual({ missing: [], failedAsTaken: [] });
      await expectJournalTrue(o, j);
    }
    // Between them, every change is applied or done.
    const recovered = new Set(
      journals.flatMap((j) => j.changes.filter((c) => isRecovered(c.status)).map((c) => c.id)),
    );
    expect(o.changes.map((c) => c.id).filter((id) => !recovered.has(id))).toEqual([]);
    await expectConverged(o);
  });
});

describe('the same plan applied again after it fully landed', () => {
  it('exits 0, writes nothing, and reports every change as done (not as changed since the plan)', async () => {
    const o = await setup();
    const first = await cli(o, applyArgs(o, 'first.jsonl'));
    expect(first.code).toBe(0);
    const landed = view(o.z.org);

    const again = await cli(o, applyArgs(o, 'again.jsonl'));
    expect({ ...exited(again), writes: again.writes }).toEqual({ code: 0, writes: 0 });
    expect(again.out).not.toMatch(CONFLICT);
    expectAllRecovered(o, readJournal(path.join(o.dir, 'again.jsonl')));
    expect(view(o.z.org)).toEqual(landed);
    await expectConverged(o);
  });
});
