/**
 * `npm run bench [-- --scale 0.1] [--json FILE] [--apply-scale N] [--no-apply] [--only subscribe|synth]`
 *
 * Plans an organization of 2,000 channels, 300 groups, 10,000 users and 100,000
 * subscriptions (issue 5) against the embedded server, with zulip-cdk's read (a) and with a
 * naive one-request-per-channel read (b) in the same run, then applies it from nothing (c,
 * issue 6), then subscribes to 2,000 and to 20,000 new channels in one call (d, issue 12).
 * The emulator and every measurement run in separate processes.
 */
import { execFileSync, fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FEATURE_LEVELS } from '../src/model/features';
import type { FromChild, ToChild } from './child';
import type { PlanMeasurement, Target } from './measure';
import type { BenchOrgCounts } from './org-generator';
import { DEFAULT_RATE_PER_MINUTE, renderReport } from './report';
import type { ApplyRun, BenchResults, SubscribeRun, SynthRun } from './report';

const CHILD = path.join(__dirname, 'child.ts');

const USAGE = `usage: npm run bench -- [--scale N] [--apply-scale N] [--rate-limited-scale N]
                          [--incremental-scale N] [--no-apply] [--subscribe-channels N]
                          [--only subscribe|synth] [--json FILE]

  --scale N               organization size relative to the issue's (default 1: 2,000
                          channels, 300 groups, 10,000 users, 100,000 subscriptions); 0.1 for
                          a quick run
  --apply-scale N         size at which the apply from nothing is executed (default:
                          --scale; about 5 s at scale 1); when it differs, the apply at
                          --scale is only planned and its requests predicted from the
                          engine's execution order
  --rate-limited-scale N  also execute it at this size with the emulator's rate limit at
                          Zulip's default of 200 requests per minute (default 0.1 when
                          --scale is 1 or more, else off; 0: off). Takes a minute or more.
  --incremental-scale N   size at which the incremental apply (the ~5% change of (a)) is
                          executed (default: --scale, about 3 s at scale 1 and 20 s at
                          scale 10; 0: off)
  --no-apply              skip the apply measurements
  --subscribe-channels N  (d) subscribes to N new channels in one call, then to 10 N, and
                          reports the ratio to linear growth (default 2000: 2,000 and 20,000)
  --only subscribe        run (d) only (about 15 s): no organization, no plan, no apply
  --only synth            run (f) only: synth of scale × 1,000 users' organization as
                          constructs (a channel per 5 users, a group per 50), then of ten
                          times as many, and the ratio to linear growth
  --json FILE             also write the results as JSON
`;

/** A forked child with a promise-based mailbox. */
class Child {
  private readonly proc: ChildProcess;
  private readonly queue: FromChild[] = [];
  private readonly waiting: ((m: FromChild) => void)[] = [];
  private exited: Promise<number | null>;

  public constructor(name: string) {
    // The children inherit the tsx loader from this process's execArgv.
    this.proc = fork(CHILD, [name], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.proc.on('message', (m: FromChild) => {
      const w = this.waiting.shift();
      if (w) w(m);
      else this.queue.push(m);
    });
    this.exited = new Promise((resolve) => this.proc.once('exit', (code) => resolve(code)));
    void this.exited.then(() => {
      for (const w of this.waiting.splice(0))
        w({ type: 'error', message: `the ${name} process exited unexpectedly` });
    });
  }

  public send(msg: ToChild): void {
    this.proc.send(msg);
  }

  public next(): Promise<FromChild> {
    const m = this.queue.shift();
    if (m) return Promise.resolve(m);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  public async expect<T extends FromChild['type']>(
    type: T,
  ): Promise<Extract<FromChild, { type: T }>> {
    const m = await this.next();
    if (m.type === 'error') throw new Error(m.message);
    if (m.type !== type) throw new Error(`expected ${type} from the child, got ${m.type}`);
    return m as Extract<FromChild, { type: T }>;
  }

  public async done(): Promise<void> {
    await this.exited;
  }

  public kill(): void {
    if (this.proc.exitCode === null) this.proc.kill();
  }
}

interface Server {
  /** The emulator's process. */
  readonly child: Child;
  readonly target: Target;
  readonly counts: BenchOrgCounts;
  readonly featureLevel: number;
  /** CPU time of the emulator's process (the recording proxy runs in another). */
  cpuMs(): Promise<number>;
  /** Switches the recording proxy; returns its counts so far. */
  mode(mode: 'record' | 'replay'): Promise<{ replayed: number; forwarded: number }>;
  /** Writes the recorded register response body to a file. */
  dump(file: string): Promise<void>;
  stop(): Promise<void>;
  /** Ends its processes (after a failure). */
  kill(): void;
}

async function startServer(
  scale: number,
  org: 'full' | 'users-only',
  desiredFile: string,
  rateLimit: number | false = false,
  replay = false,
): Promise<Server> {
  const child = new Child('server');
  child.send({ type: 'serve', scale, org, rateLimit, desiredFile });
  const ready = await child.expect('ready');
  let target = ready.target;
  let proxy: Child | undefined;
  if (replay) {
    proxy = new Child('proxy');
    proxy.send({ type: 'proxy', upstream: ready.target.site });
    target = { ...target, site: (await proxy.expect('proxying')).site };
  }
  const proxyChild = (): Child => {
    if (!proxy) throw new Error('no recording proxy: start the server with replay');
    return proxy;
  };
  return {
    child,
    target,
    counts: ready.counts,
    featureLevel: ready.featureLevel,
    async cpuMs() {
      child.send({ type: 'cpu' });
      return (await child.expect('cpu')).cpuMs;
    },
    async mode(mode) {
      proxyChild().send({ type: 'mode', mode });
      const m = await proxyChild().expect('mode');
      return { replayed: m.replayed, forwarded: m.forwarded };
    },
    async dump(file) {
      proxyChild().send({ type: 'dump', file });
      await proxyChild().expect('dumped');
    },
    async stop() {
      for (const c of proxy ? [proxy, child] : [child]) {
        c.send({ type: 'stop' });
        await c.done();
      }
    },
    kill() {
      proxy?.kill();
      child.kill();
    },
  };
}

async function measureIn(
  server: Server,
  desiredFile: string,
  strategy: 'ours' | 'naive',
  floorFile?: string,
): Promise<PlanMeasurement & { serverCpuMs: number }> {
  const before = await server.cpuMs();
  const child = new Child(`measure-${strategy}`);
  child.send({
    type: 'measure',
    target: server.target,
    desiredFile,
    strategy,
    ...(floorFile === undefined ? {} : { floorFile }),
  });
  const { result } = await child.expect('plan-result');
  await child.done();
  const after = await server.cpuMs();
  return { ...result, serverCpuMs: after - before };
}

/** What every run's results start with: the format, when, where, and the commit measured. */
function resultsHeader(
  commit: string | undefined,
  loadAverage: number,
): Pick<BenchResults, 'formatVersion' | 'date' | 'node' | 'cpus' | 'commit' | 'loadAverage'> {
  return {
    formatVersion: 1,
    date: new Date().toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    ...(commit ? { commit } : {}),
    loadAverage,
  };
}

/** What a measuring child answers, by message type. */
type Results = {
  [K in 'subscribe-result' | 'synth-result']: Extract<FromChild, { type: K }>['result'];
};

/** One measurement in a fresh child process: sends `msg`, waits for its `result` and the exit. */
async function inFreshChild<T extends keyof Results>(
  role: string,
  msg: ToChild,
  result: T,
): Promise<Results[T]> {
  const child = new Child(role);
  try {
    child.send(msg);
    // `expect` checks the type; TypeScript cannot narrow the union by a generic key.
    const answer = (await child.expect(result)) as { readonly result: Results[T] };
    await child.done();
    return answer.result;
  } finally {
    child.kill();
  }
}

/** (f) Synth of `users` users' organization as constructs, then of ten times as many. */
async function synthRun(users: number, dir: string): Promise<SynthRun> {
  const at = (n: number) =>
    inFreshChild(
      'synth',
      { type: 'synth', users: n, outdir: path.join(dir, `synth-${n}`) },
      'synth-result',
    );
  const small = await at(users);
  const large = await at(users * 10);
  const wall = (m: SynthRun['small']): number => m.constructMs + m.synthMs;
  return {
    small,
    large,
    ratioToLinear: wall(large) / (10 * wall(small)),
    cpuRatioToLinear: large.cpuMs / (10 * small.cpuMs),
  };
}

/** (d) one bulk subscribe at each size, each in a fresh child process. */
async function subscribeRun(channels: number): Promise<SubscribeRun> {
  const at = (n: number) =>
    inFreshChild('subscribe', { type: 'subscribe', channels: n }, 'subscribe-result');
  const small = await at(channels);
  const large = await at(channels * 10);
  return {
    small,
    large,
    ratioToLinear: large.wallMs / (10 * small.wallMs),
    cpuRatioToLinear: large.cpuMs / (10 * small.cpuMs),
  };
}

/**
 * Starts an organization at `scale` (users only: an apply from nothing; full: the incremental
 * apply of the ~5% change), plans (and maybe applies) into it, stops it.
 */
async function applyAt(
  dir: string,
  scale: number,
  execute: boolean,
  rateLimit: number | false,
  track: Server[],
  org: 'full' | 'users-only' = 'users-only',
): Promise<ApplyRun> {
  const desiredFile = path.join(dir, `desired-apply-${org}-${scale}-${String(rateLimit)}.json`);
  const server = await startServer(scale, org, desiredFile, rateLimit);
  track.push(server);
  const before = await server.cpuMs();
  const child = new Child('apply');
  child.send({ type: 'apply', target: server.target, desiredFile, execute, rateLimit });
  const { result } = await child.expect('apply-result');
  await child.done();
  const serverCpuMs = (await server.cpuMs()) - before;
  await server.stop();
  return { ...result, serverCpuMs, scale, counts: server.counts };
}

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: __dirname,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

function progress(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

/** Prints the report, writes the JSON if asked; the exit code (1: the plans differ). */
async function report(results: BenchResults, json: string | undefined): Promise<number> {
  process.stdout.write(renderReport(results));
  if (typeof json === 'string') {
    const file = path.resolve(json);
    await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
    progress(`wrote ${file}`);
  }
  return results.plan === null || results.plan.samePlan ? 0 : 1;
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: {
        scale: { type: 'string' },
        'apply-scale': { type: 'string' },
        'rate-limited-scale': { type: 'string' },
        'incremental-scale': { type: 'string' },
        'no-apply': { type: 'boolean' },
        'subscribe-channels': { type: 'string' },
        only: { type: 'string' },
        json: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const scale = Number(args.scale ?? '1');
  const applyScale = Number(args['apply-scale'] ?? scale);
  const rateLimitedScale = Number(args['rate-limited-scale'] ?? (scale >= 1 ? 0.1 : 0));
  // At scale 1 and more the emulator spends about a second per PATCH /streams on a loaded
  // machine (16.9 min for the 755 requests at scale 1, load 20): run it at 0.1 unless asked.
  const incrementalScale = Number(args['incremental-scale'] ?? scale);
  const subscribeChannels = Number(args['subscribe-channels'] ?? '2000');
  if (
    !(scale > 0) ||
    !(applyScale > 0) ||
    !(rateLimitedScale >= 0) ||
    !(incrementalScale >= 0) ||
    !Number.isInteger(subscribeChannels) ||
    !(subscribeChannels > 0)
  ) {
    process.stderr.write(
      `--scale, --apply-scale and --subscribe-channels must be positive numbers\n\n${USAGE}`,
    );
    return 1;
  }
  if (args.only !== undefined && args.only !== 'subscribe' && args.only !== 'synth') {
    process.stderr.write(`--only takes \`subscribe\` or \`synth\`\n\n${USAGE}`);
    return 1;
  }
  // (f): scale × 1,000 users and ten times that (12,200 constructs at scale 1).
  const synthUsers = Math.max(1, Math.round(scale * 1000));
  if (args.only === 'synth' || args.only === 'subscribe') {
    const only = args.only;
    const started = performance.now();
    const loadAverage = loadavg()[0] ?? 0;
    const commit = gitCommit();
    const dir = await mkdtemp(path.join(tmpdir(), 'zulip-cdk-bench-'));
    try {
      let measured: Pick<BenchResults, 'subscribe' | 'synth'>;
      if (only === 'synth') {
        progress(`(f) synth: ${synthUsers} and ${synthUsers * 10} users' organizations`);
        measured = { synth: await synthRun(synthUsers, dir) };
      } else {
        progress(`(d) bulk subscribe: ${subscribeChannels} and ${subscribeChannels * 10} channels`);
        measured = { subscribe: await subscribeRun(subscribeChannels) };
      }
      const results: BenchResults = {
        ...resultsHeader(commit, loadAverage),
        only,
        scale,
        counts: null,
        featureLevel: FEATURE_LEVELS.newest,
        rateLimit: 'off',
        plan: null,
        apply: null,
        ...measured,
        totalMs: performance.now() - started,
      };
      return await report(results, args.json);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const started = performance.now();
  const loadAverage = loadavg()[0] ?? 0;
  const commit = gitCommit();
  const dir = await mkdtemp(path.join(tmpdir(), 'zulip-cdk-bench-'));
  const children: Server[] = [];
  try {
    const desiredFile = path.join(dir, 'desired.json');
    progress(`generating the organization at scale ${scale} and starting the emulator`);
    const server = await startServer(scale, 'full', desiredFile, false, true);
    children.push(server);
    progress('(a) readLiveState + plan');
    const ours = await measureIn(server, desiredFile, 'ours');
    progress('(b) naive read + plan');
    const naive = await measureIn(server, desiredFile, 'naive');
    progress('(a) and (b) again, with the recorded responses replayed from memory');
    const recorded = await server.mode('replay');
    const registerFile = path.join(dir, 'register.json');
    await server.dump(registerFile);
    const oursReplayed = await measureIn(server, desiredFile, 'ours', registerFile);
    await rm(registerFile, { force: true });
    const naiveReplayed = await measureIn(server, desiredFile, 'naive');
    const replayStats = await server.mode('record');
    await server.stop();

    let apply: BenchResults['apply'] = null;
    if (args['no-apply'] !== true) {
      let predicted: ApplyRun | null = null;
      if (applyScale !== scale) {
        progress(`(c) plan from nothing at scale ${scale}: changes and predicted requests`);
        predicted = await applyAt(dir, scale, false, false, children);
      }
      progress(`(c) apply from nothing at scale ${applyScale}, rate limiting off`);
      const executed = await applyAt(dir, applyScale, true, false, children);
      let rateLimited: ApplyRun | null = null;
      if (rateLimitedScale > 0) {
        progress(
          `(c) apply from nothing at scale ${rateLimitedScale}, rate limit ${DEFAULT_RATE_PER_MINUTE}/min (a minute or more)`,
        );
        rateLimited = await applyAt(dir, rateLimitedScale, true, DEFAULT_RATE_PER_MINUTE, children);
      }
      let incremental: ApplyRun | null = null;
      if (incrementalScale > 0) {
        progress(`(e) incremental apply of the ~5% change at scale ${incrementalScale}`);
        incremental = await applyAt(dir, incrementalScale, true, false, children, 'full');
      }
      apply = { atScale: predicted ?? executed, executed, rateLimited, incremental };
    }
    progress(`(d) bulk subscribe: ${subscribeChannels} and ${subscribeChannels * 10} channels`);
    const subscribe = await subscribeRun(subscribeChannels);
    progress(`(f) synth: ${synthUsers} and ${synthUsers * 10} users' organizations`);
    const synth = await synthRun(synthUsers, dir);

    const results: BenchResults = {
      ...resultsHeader(commit, loadAverage),
      scale,
      counts: server.counts,
      featureLevel: server.featureLevel,
      rateLimit: 'off',
      plan: {
        ours,
        naive,
        ratios: {
          requests: naive.requests / ours.requests,
          wallTime: naive.totalMs / ours.totalMs,
          peakRss: (naive.peakRssMb ?? 0) / (ours.peakRssMb ?? 1),
        },
        samePlan:
          ours.planDigest === naive.planDigest &&
          oursReplayed.planDigest === ours.planDigest &&
          naiveReplayed.planDigest === ours.planDigest,
        replayed: {
          ours: oursReplayed,
          naive: naiveReplayed,
          // Every request of the replay passes was answered from memory.
          complete: replayStats.forwarded === recorded.forwarded,
        },
      },
      apply,
      subscribe,
      synth,
      totalMs: performance.now() - started,
    };
    return await report(results, args.json);
  } finally {
    for (const s of children) s.kill();
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  },
);
