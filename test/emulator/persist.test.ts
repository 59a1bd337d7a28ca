import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startEmulator } from '../../src/emulator';
import type { Emulator, OrgState } from '../../src/emulator';
import { StateFile } from '../../src/emulator/persist';
import { demoOrg } from '../../src/emulator/seed';
import { emptyOrg } from '../../src/emulator/state';

const MAIN = path.join(__dirname, '../../src/cli/main.ts');
const TSX = pathToFileURL(require.resolve('tsx')).href;

let dir: string;
const children: ChildProcess[] = [];
const emulators: Emulator[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-persist-'));
});
afterEach(async () => {
  // A failed test must not leave a server running (jest would wait for it).
  for (const c of children.splice(0))
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const z of emulators.splice(0)) await z.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Cli {
  readonly child: ChildProcess;
  readonly site: string;
  readonly auth: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/** `zulip-cdk emulator --state org.json --zuliprc z.rc` as a child process, once listening. */
async function startCli(): Promise<Cli> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      TSX,
      MAIN,
      'emulator',
      '--state',
      'org.json',
      '--zuliprc',
      'z.rc',
      '--rate-limit',
      '0',
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const listening = new Promise<void>((resolve) => {
    const check = (): void => {
      if (/listening on/.test(out)) resolve();
    };
    child.stdout.on('data', check);
  });
  const first = await Promise.race([listening.then(() => 'up' as const), exited]);
  if (first !== 'up') throw new Error(`the emulator exited: ${out}`);
  const rc = readFileSync(path.join(dir, 'z.rc'), 'utf8');
  const [, email, key, site] = /email=(.+)\nkey=(.+)\nsite=(.+)\n/.exec(rc)!;
  return {
    child,
    site: site!,
    auth: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`,
    exited,
    output: () => out,
  };
}

async function call(
  cli: { site: string; auth: string },
  method: string,
  p: string,
  params: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${cli.site}/api/v1${p}`, {
    method,
    headers: { authorization: cli.auth, 'content-type': 'application/x-www-form-urlencoded' },
    ...(method === 'GET' ? {} : { body: new URLSearchParams(params).toString() }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const savedChannels = (file: string): string[] =>
  (JSON.parse(readFileSync(file, 'utf8')) as OrgState).channels.map((c) => c.name);

test('zulip-cdk emulator --state: a SIGKILLed server loses nothing it acknowledged', async () => {
  const state = path.join(dir, 'org.json');
  const first = await startCli();
  expect(first.output()).toContain(`Started the demo organization, saved to ${state}`);
  // Concurrent changes (their writes are coalesced), each acknowledged only once on disk.
  const names = ['kept-1', 'kept-2', 'kept-3', 'kept-4', 'kept-5'];
  const answers = await Promise.all(
    names.map((name) =>
      call(first, 'POST', '/users/me/subscriptions', {
        subscriptions: JSON.stringify([{ name }]),
      }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  expect(savedChannels(state)).toEqual(expect.arrayContaining(names));
  const left = await call(first, 'DELETE', '/users/me/subscriptions', {
    subscriptions: JSON.stringify(['general']),
  });
  expect(left.body.removed).toEqual(['general']);

  first.child.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  // Written atomically: no temporary file left, the state file whole, 0600.
  expect(readdirSync(dir).sort()).toEqual(['org.json', 'z.rc']);
  expect(statSync(state).mode & 0o777).toBe(0o600);

  const second = await startCli();
  expect(second.output()).toContain(`Loaded the organization from ${state}`);
  // The owner's API key was saved too: the first run's credentials still work.
  const streams = await call({ site: second.site, auth: first.auth }, 'GET', '/streams');
  expect(streams.status).toBe(200);
  const listed = (streams.body.streams as { name: string }[]).map((s) => s.name);
  expect(listed).toEqual(expect.arrayContaining(names));
  const mine = await call(second, 'GET', '/users/me/subscriptions');
  const subscribed = (mine.body.subscriptions as { name: string }[]).map((s) => s.name);
  expect(subscribed).toEqual(expect.arrayContaining(names));
  expect(subscribed).not.toContain('general');
  second.child.kill('SIGTERM');
  expect((await second.exited).code).toBe(0);
}, 90_000);

test('startEmulator({ state, persist }): written before the answer, only when something changed', async () => {
  const state = path.join(dir, 'sub', 'org.json');
  mkdirSync(path.dirname(state));
  const z = await startEmulator({ rateLimit: false, state, persist: true });
  emulators.push(z);
  // Written at start: the file did not exist.
  const initial = readFileSync(state, 'utf8');
  expect((JSON.parse(initial) as OrgState).users.length).toBe(z.org.users.length);
  // Plain fetch: the yaml check of clientFor is not what this test is about, and its first
  // (slow, synchronous) load can outlast the server's keep-alive and reset the connection.
  const owner = {
    site: z.site,
    auth: `Basic ${Buffer.from(`${z.owner.email}:${z.owner.apiKey}`).toString('base64')}`,
  };
  const subscribe = (names: string[], more: Record<string, string> = {}) =>
    call(owner, 'POST', '/users/me/subscriptions', {
      subscriptions: JSON.stringify(names.map((name) => ({ name }))),
      ...more,
    });

  // Reads, and an atomic request rolled back by its error, leave the file as it was.
  expect((await call(owner, 'GET', '/streams')).status).toBe(200);
  expect((await call(owner, 'POST', '/register')).status).toBe(200);
  const refused = await subscribe(['never-made'], { principals: '[999999]' });
  expect(refused.body.msg).toBe('No such user');
  expect(readFileSync(state, 'utf8')).toBe(initial);

  // A change is in the file when its answer arrives.
  expect((await subscribe(['made'])).status).toBe(200);
  expect(savedChannels(state)).toContain('made');

  // A write that fails is not acknowledged: the request answers 500; the next one writes both.
  rmSync(path.dirname(state), { recursive: true });
  expect((await subscribe(['unsaved'])).status).toBe(500);
  mkdirSync(path.dirname(state));
  expect((await subscribe(['saved'])).status).toBe(200);
  expect(savedChannels(state)).toEqual(expect.arrayContaining(['made', 'unsaved', 'saved']));
});

test('allowed domains are saved with the organization; a state file from before them loads without any', async () => {
  const state = path.join(dir, 'org.json');
  const z = await startEmulator({ rateLimit: false, state, persist: true });
  emulators.push(z);
  const owner = {
    site: z.site,
    auth: `Basic ${Buffer.from(`${z.owner.email}:${z.owner.apiKey}`).toString('base64')}`,
  };
  const added = await call(owner, 'POST', '/realm/domains', {
    domain: 'Acme.Example',
    allow_subdomains: 'true',
  });
  expect(added.status).toBe(200);
  const saved = JSON.parse(readFileSync(state, 'utf8')) as OrgState;
  expect(saved.realmDomains).toEqual([
    {
      id: (added.body.new_domain as [number, string])[0],
      domain: 'acme.example',
      allowSubdomains: true,
    },
  ]);
  await z.close();
  emulators.splice(0);

  const again = await startEmulator({ rateLimit: false, state });
  emulators.push(again);
  const listed = await call({ ...owner, site: again.site }, 'GET', '/realm/domains');
  expect(listed.body.domains).toEqual([{ domain: 'acme.example', allow_subdomains: true }]);

  const { realmDomains: _gone, ...older } = saved;
  const old = await startEmulator({ rateLimit: false, state: older as OrgState });
  emulators.push(old);
  const none = await call({ ...owner, site: old.site }, 'GET', '/realm/domains');
  expect(none.body.domains).toEqual([]);
});

test('StateFile coalesces the flushes asked for during a write into one write', async () => {
  const org = emptyOrg(0);
  const file = path.join(dir, 'org.json');
  const sf = new StateFile(file, () => org);
  const flushes = [sf.flush()];
  for (let i = 0; i < 9; i++) {
    org.realm.name = `change ${i}`;
    flushes.push(sf.flush());
  }
  await Promise.all(flushes);
  // The first write started at once; the nine others shared the second.
  expect(sf.writes).toBe(2);
  expect((JSON.parse(readFileSync(file, 'utf8')) as OrgState).realm.name).toBe('change 8');
  await sf.flush();
  expect(sf.writes).toBe(2);
  org.realm.name = 'again';
  await sf.flush();
  expect(sf.writes).toBe(3);
  expect(readdirSync(dir)).toEqual(['org.json']);
});

test('a state saved before role:fullmembers was stored: its full members are filled at load as update_users_in_full_members_system_group would fill them', async () => {
  const NOW = Date.UTC(2026, 0, 1);
  const { org } = demoOrg(NOW);
  const full = org.groups.find((g) => g.name === 'role:fullmembers')!;
  const stored = [...full.members];
  // As an earlier version saved it: no marker, the group's members empty.
  delete org.fullMembersStored;
  full.members = [];
  // A member who joined yesterday, with a waiting period of 3 days: provisional.
  const alice = org.users.find((u) => u.email.startsWith('alice@'))!;
  alice.dateJoined = new Date(NOW - 86_400_000).toISOString();
  org.realm.waitingPeriodThreshold = 3;
  for (const u of org.users.filter((x) => x !== alice))
    u.dateJoined = new Date(NOW - 10 * 86_400_000).toISOString();
  const z = await startEmulator({ rateLimit: false, state: org, clock: { now: () => NOW } });
  emulators.push(z);
  expect(z.org.fullMembersStored).toBe(true);
  const loaded = z.org.groups.find((g) => g.name === 'role:fullmembers')!.members;
  expect(loaded).toEqual(stored.filter((id) => id !== alice.id));
});
