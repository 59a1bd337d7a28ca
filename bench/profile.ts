/**
 * Profiling helper for issue 17 (not part of `npm run bench`):
 *
 *   npx tsx bench/profile.ts record --scale 10 --dir /tmp/p10
 *     generates the organization, starts the emulator in this process, reads it once and keeps
 *     the register response body and the desired state in DIR (run it under `node --cpu-prof
 *     --import tsx` to profile the emulator's register).
 *   npx tsx bench/profile.ts registers --scale 10
 *     the emulator's CPU for each of ROUNDS (6) registers, the client in another process.
 *   node --cpu-prof --import tsx bench/profile.ts client --dir /tmp/p10
 *     serves the kept register body from memory and runs readLiveState + plan against it,
 *     printing the phases and the bare JSON.parse of the same body.
 *   npx tsx bench/profile.ts summary FILE.cpuprofile [N]
 *     self time by function (top N), from a V8 CPU profile.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { plan } from '../src/engine';
import type { DesiredState } from '../src/model/desired-state';
import { startEmulator } from '../src/emulator';
import { liveStateFromRegister, readLiveState } from '../src/provider/read-live-state';
import { desiredStateDigest } from '../src/engine/digest';
import { effectivePermissions } from '../src/engine/effective-permissions';
import { LiveIndex } from '../src/engine/live-index';
import { liveStateDigest } from '../src/engine/plan-io';
import { RegisterResponseSchema } from '../src/zulip/wire/register';
import { encodeForm } from '../src/zulip/encode';
import { ORG_READ_REGISTER_PARAMS } from '../src/zulip/wire/register';
import { benchClient } from './measure';
import { generateBenchOrg } from './org-generator';

async function record(scale: number, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const bench = generateBenchOrg({ scale });
  await writeFile(path.join(dir, 'desired.json'), JSON.stringify(bench.desired));
  let body = '';
  const emulator = await startEmulator({
    state: bench.org,
    rateLimit: false,
    observe: (r) => {
      if (r.path === '/register') body = JSON.stringify(r.body);
    },
  });
  const client = benchClient({ site: emulator.site, ...bench.owner });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await readLiveState(client);
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(
    `read in ${Math.round(performance.now() - t0)} ms, process CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms (server + client)\n`,
  );
  await client.close();
  await emulator.close();
  await writeFile(path.join(dir, 'register.json'), body);
  process.stdout.write(`register body: ${(body.length / 1e6).toFixed(1)} MB\n`);
}

/**
 * The emulator's CPU for one register: raw HTTP, the body drained chunk by chunk and dropped
 * (the client's share of the process CPU is the socket reads only; `fetch` kept the 80 MB and
 * copied it twice, about a second at scale 10).
 */
async function serverRun(scale: number): Promise<void> {
  const bench = generateBenchOrg({ scale });
  const emulator = await startEmulator({ state: bench.org, rateLimit: false });
  const body = encodeForm(ORG_READ_REGISTER_PARAMS);
  const auth = `Basic ${Buffer.from(`${bench.owner.email}:${bench.owner.apiKey}`).toString('base64')}`;
  const post = (): Promise<{ status: number; bytes: number }> =>
    new Promise((resolve, reject) => {
      const req = request(
        `${emulator.url}/register`,
        {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
        },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  for (let i = 0; i < Number(process.env.ROUNDS ?? '2'); i++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await post();
    const cpu = process.cpuUsage(cpu0);
    process.stdout.write(
      `register: ${res.status}, ${(res.bytes / 1e6).toFixed(1)} MB in ${Math.round(performance.now() - t0)} ms, CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms\n`,
    );
  }
  await emulator.close();
}

/** A client that posts one register and drains its body, run with `node -e` (input on stdin). */
const DRAIN_CLIENT = `
const { request } = require('node:http');
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const { url, auth, body } = JSON.parse(input);
  const req = request(url, { method: 'POST', headers: { authorization: auth,
    'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
    let bytes = 0;
    res.on('data', (c) => (bytes += c.length));
    res.on('end', () => process.stdout.write(JSON.stringify({ status: res.statusCode, bytes })));
  });
  req.end(body);
});`;

/**
 * The emulator's CPU for each of ROUNDS registers (default 6), the emulator alone in this
 * process: each register is posted and drained by a client in another process, and the
 * organization is generated in a function whose garbage is left behind, as bench/child.ts
 * leaves it. The first register is the cold one the bench measures; the later ones show where
 * full garbage collections fall.
 */
async function registersRun(scale: number): Promise<void> {
  const start = async () => {
    const bench = generateBenchOrg({ scale });
    const emulator = await startEmulator({ state: bench.org, rateLimit: false });
    return { emulator, owner: { ...bench.owner } };
  };
  const { emulator, owner } = await start();
  const input = JSON.stringify({
    url: `${emulator.url}/register`,
    auth: `Basic ${Buffer.from(`${owner.email}:${owner.apiKey}`).toString('base64')}`,
    body: encodeForm(ORG_READ_REGISTER_PARAMS),
  });
  const post = (): Promise<{ status: number; bytes: number }> =>
    new Promise((resolve, reject) => {
      const c = spawn(process.execPath, ['-e', DRAIN_CLIENT], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let out = '';
      c.stdout.on('data', (d: Buffer) => (out += d.toString()));
      c.on('error', reject);
      c.on('exit', () => resolve(JSON.parse(out) as { status: number; bytes: number }));
      c.stdin.end(input);
    });
  const cpus: number[] = [];
  for (let i = 0; i < Number(process.env.ROUNDS ?? '6'); i++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await post();
    const cpu = process.cpuUsage(cpu0);
    cpus.push((cpu.user + cpu.system) / 1000);
    process.stdout.write(
      `register ${i + 1}: ${res.status}, ${(res.bytes / 1e6).toFixed(1)} MB in ${Math.round(performance.now() - t0)} ms, emulator CPU ${Math.round(cpus[i] ?? 0)} ms\n`,
    );
  }
  process.stdout.write(
    `all ${cpus.length}: ${Math.round(cpus.reduce((a, b) => a + b, 0))} ms CPU\n`,
  );
  await emulator.close();
}

async function clientRun(dir: string): Promise<void> {
  const body = await readFile(path.join(dir, 'register.json'));
  const desired = JSON.parse(
    await readFile(path.join(dir, 'desired.json'), 'utf8'),
  ) as DesiredState;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const b = req.url?.includes('/register')
        ? body
        : Buffer.from('{"result":"success","msg":""}');
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': b.length });
      res.end(b);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const rounds = Number(process.env.ROUNDS ?? '1');
  for (let i = 0; i < rounds; i++) {
    const cpu = (): number => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    const mb = (kb: number): number => Math.round(kb / 1024);
    const c0 = cpu();
    const t0 = performance.now();
    JSON.parse(body.toString('utf8'));
    const t1 = performance.now();
    const c1 = cpu();
    const client = benchClient({ site, email: 'owner@bench.example', apiKey: 'x'.repeat(32) });
    const live = await readLiveState(client);
    const t2 = performance.now();
    const c2 = cpu();
    const rssRead = process.resourceUsage().maxRSS;
    const timings: Record<string, number> = {};
    const p = plan(desired, live, { timings });
    const t3 = performance.now();
    const c3 = cpu();
    await client.close();
    const phasesText = Object.entries(timings)
      .map(([k, v]) => `${k} ${Math.round(v)}`)
      .join(', ');
    process.stdout.write(
      `JSON.parse ${Math.round(t1 - t0)} ms; read ${Math.round(t2 - t1)} ms; plan ${Math.round(t3 - t2)} ms (${p.changes.length} changes; ${phasesText}); ` +
        `CPU: JSON.parse ${Math.round(c1 - c0)}, read ${Math.round(c2 - c1)}, plan ${Math.round(c3 - c2)} ms; ` +
        `peak RSS after the read ${mb(rssRead)} MB, at the end ${mb(process.resourceUsage().maxRSS)} MB\n`,
    );
  }
  server.close();
}

/** CPU time of each step of reading and planning the kept register body, in-process. */
async function phases(dir: string): Promise<void> {
  const text = await readFile(path.join(dir, 'register.json'), 'utf8');
  const desired = JSON.parse(
    await readFile(path.join(dir, 'desired.json'), 'utf8'),
  ) as DesiredState;
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  for (let i = 0; i < Number(process.env.ROUNDS ?? '3'); i++) {
    const t: [string, number][] = [];
    let last = cpu();
    const step = (name: string): void => {
      const now = cpu();
      t.push([name, now - last]);
      last = now;
    };
    const raw = JSON.parse(text) as unknown;
    step('JSON.parse');
    const parsed = RegisterResponseSchema.parse(raw);
    step('register schema');
    const live = liveStateFromRegister(parsed, { site: 'http://x' });
    step('liveStateFromRegister');
    const idx = new LiveIndex(live);
    step('LiveIndex');
    void idx;
    const timings: Record<string, number> = {};
    // PLAN=0 leaves the plan out.
    const p =
      process.env.PLAN === '0'
        ? { changes: [], permissions: undefined }
        : plan(desired, live, { timings });
    step('plan');
    const rssAfterPlan = process.resourceUsage().maxRSS;
    const dd = desiredStateDigest(desired);
    step('(desired digest)');
    // The plan's `permissions` phase again, alone, by CPU (the phases above are wall times).
    const realm = live.organizationSettings?.permissions;
    if (process.env.PLAN !== '0') {
      effectivePermissions(p.changes, live, idx, realm ? { realm } : {});
      step('(effective permissions again)');
    }
    const ld = liveStateDigest(live);
    step('(live digest)');
    process.stdout.write(
      `${t.map(([n, ms]) => `${n} ${Math.round(ms)}`).join(', ')} ms CPU; ${p.changes.length} changes; ` +
        `digests ${dd.slice(0, 12)} ${ld.slice(0, 12)}; ` +
        `plan phases (wall ms): ${Object.entries(timings)
          .map(([n, ms]) => `${n} ${Math.round(ms)}`)
          .join(', ')}; ${p.permissions?.effects.length ?? 0} permission effects; ` +
        `peak RSS ${Math.round(rssAfterPlan / 1024)} MB after the plan, ${Math.round(process.resourceUsage().maxRSS / 1024)} MB at the end\n`,
    );
  }
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

async function summary(file: string, top: number): Promise<void> {
  const prof = JSON.parse(await readFile(file, 'utf8')) as {
    nodes: Node[];
    samples: number[];
    timeDeltas: number[];
    startTime: number;
    endTime: number;
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: Node): string =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(src|bench|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
  const selfBy = new Map<string, number>();
  const totalBy = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (!n) continue;
    selfBy.set(key(n), (selfBy.get(key(n)) ?? 0) + us);
    // Inclusive: once per distinct function on the stack.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur) as Node);
      if (seen.has(k)) continue;
      seen.add(k);
      totalBy.set(k, (totalBy.get(k) ?? 0) + us);
    }
  }
  const total = prof.endTime - prof.startTime;
  const show = (title: string, m: Map<string, number>): void => {
    process.stdout.write(`${title} (of ${Math.round(total / 1000)} ms)\n`);
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
      process.stdout.write(`${String(Math.round(us / 1000)).padStart(7)} ms  ${k}\n`);
  };
  show('self time', selfBy);
  show('\ninclusive time', totalBy);
}

async function main(): Promise<void> {
  const [cmd, ...rest] = process.argv.slice(2);
  const opt = (name: string, dflt: string): string => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? (rest[i + 1] ?? dflt) : dflt;
  };
  if (cmd === 'record') await record(Number(opt('scale', '1')), opt('dir', '/tmp/zulip-cdk-prof'));
  else if (cmd === 'server') await serverRun(Number(opt('scale', '1')));
  else if (cmd === 'registers') await registersRun(Number(opt('scale', '1')));
  else if (cmd === 'phases') await phases(opt('dir', '/tmp/zulip-cdk-prof'));
  else if (cmd === 'client') await clientRun(opt('dir', '/tmp/zulip-cdk-prof'));
  else if (cmd === 'summary') await summary(rest[0] ?? '', Number(rest[1] ?? '40'));
  else throw new Error('usage: profile.ts record|client|summary (see the comment at the top)');
}

void main().catch((e: unknown) => {
  process.stderr.write(`${String(e)}\n`);
  process.exitCode = 1;
});
