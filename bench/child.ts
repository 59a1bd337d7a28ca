/**
 * The bench's child processes (forked by bench/run.ts, one per role, so that each peak memory
 * figure belongs to one measurement and the server's work is not counted in it):
 *
 * - `server`: generates the organization, writes the desired state to a file, starts the
 *   emulator on it and serves until told to stop; reports its own CPU time on request.
 * - `proxy`: the recording proxy in front of a server (replay-proxy.ts), in its own process so
 *   that the server's CPU time is the emulator's alone (forwarding an 80 MB register costs
 *   the proxy about as much CPU as the emulator spends answering it).
 * - `measure`: reads and plans once with one strategy, reports, exits.
 * - `apply`: applies the desired state once, reports, exits.
 * - `subscribe`: subscribes to N new channels in one call on its own emulator, reports, exits.
 * - `synth`: declares an organization of N users as constructs, synthesizes it, reports, exits.
 *
 * Messages go over the IPC channel (the API key is never on a command line or printed).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { request } from 'undici';
import { startEmulator } from '../src/emulator';
import type { Emulator } from '../src/emulator';
import type { DesiredState } from '../src/model/desired-state';
import { measureApply } from './measure-apply';
import type { ApplyMeasurement } from './measure-apply';
import { measurePlan, peakRssMb } from './measure';
import { measureBulkSubscribe } from './measure-subscribe';
import type { SubscribeMeasurement } from './measure-subscribe';
import { measureSynth } from './measure-synth';
import type { SynthMeasurement } from './measure-synth';
import type { PlanMeasurement, Target } from './measure';
import { generateBenchOrg, usersOnly } from './org-generator';
import { REGISTER_BODY_PATH, startReplayProxy } from './replay-proxy';
import type { ReplayProxy } from './replay-proxy';
import type { BenchOrgCounts } from './org-generator';

/** Parent → child. */
export type ToChild =
  | {
      readonly type: 'serve';
      readonly scale: number;
      readonly channels?: number;
      /** `users-only`: the org before anything was applied (for the apply measurement). */
      readonly org: 'full' | 'users-only';
      readonly rateLimit: number | false;
      readonly desiredFile: string;
    }
  /** Start the recording proxy in front of `upstream` (a server's site). */
  | { readonly type: 'proxy'; readonly upstream: string }
  | { readonly type: 'cpu' }
  | { readonly type: 'mode'; readonly mode: 'record' | 'replay' }
  /** Write the recorded register response body to `file` (the JSON.parse floor). */
  | { readonly type: 'dump'; readonly file: string }
  | { readonly type: 'stop' }
  | {
      readonly type: 'measure';
      readonly target: Target;
      readonly desiredFile: string;
      readonly strategy: 'ours' | 'naive';
      /** A register response body to time a bare JSON.parse of, after the measurement. */
      readonly floorFile?: string;
    }
  | {
      readonly type: 'apply';
      readonly target: Target;
      readonly desiredFile: string;
      readonly execute: boolean;
      readonly rateLimit: number | false;
    }
  | { readonly type: 'subscribe'; readonly channels: number }
  | { readonly type: 'synth'; readonly users: number; readonly outdir: string };

/** Child → parent. */
export type FromChild =
  | {
      readonly type: 'ready';
      readonly target: Target;
      readonly counts: BenchOrgCounts;
      readonly featureLevel: number;
    }
  | { readonly type: 'proxying'; readonly site: string }
  | { readonly type: 'cpu'; readonly cpuMs: number; readonly peakRssMb: number }
  | { readonly type: 'mode'; readonly replayed: number; readonly forwarded: number }
  | { readonly type: 'dumped'; readonly bytes: number }
  | { readonly type: 'plan-result'; readonly result: PlanMeasurement }
  | { readonly type: 'apply-result'; readonly result: ApplyMeasurement }
  | { readonly type: 'subscribe-result'; readonly result: SubscribeMeasurement }
  | { readonly type: 'synth-result'; readonly result: SynthMeasurement }
  | { readonly type: 'error'; readonly message: string };

function send(msg: FromChild): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) {
      reject(new Error('bench/child.ts runs only as a child of bench/run.ts'));
      return;
    }
    process.send(msg, undefined, {}, (e) => (e ? reject(e) : resolve()));
  });
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * The floor of a read (issue 17), in the measuring process after its measurement, best of
 * three: a bare JSON.parse of the register response, and the UTF-8 decoding before it; and the
 * wire's floor, the same body received from the same replaying server (one buffer of its
 * length, as the client reads a large body), decoded and parsed, nothing else.
 */
async function parseFloor(
  file: string,
  site: string,
): Promise<NonNullable<PlanMeasurement['floor']>> {
  const bytes = await readFile(file);
  let parseMs = Infinity;
  let decodeMs = Infinity;
  let parseCpuMs = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const text = bytes.toString('utf8');
    const t1 = performance.now();
    const c1 = cpuMs();
    JSON.parse(text);
    const t2 = performance.now();
    parseCpuMs = Math.min(parseCpuMs, cpuMs() - c1);
    decodeMs = Math.min(decodeMs, t1 - t0);
    parseMs = Math.min(parseMs, t2 - t1);
  }
  let receiveMs = Infinity;
  let wireMs = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const res = await request(`${site}${REGISTER_BODY_PATH}`);
    const body = Buffer.allocUnsafe(Number(res.headers['content-length']));
    let at = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) at += chunk.copy(body, at);
    const t1 = performance.now();
    JSON.parse(body.toString('utf8', 0, at));
    const t2 = performance.now();
    receiveMs = Math.min(receiveMs, t1 - t0);
    wireMs = Math.min(wireMs, t2 - t0);
  }
  return { bytes: bytes.length, parseMs, decodeMs, parseCpuMs, receiveMs, wireMs };
}

let emulator: Emulator | undefined;
let proxy: ReplayProxy | undefined;

async function handle(msg: ToChild): Promise<void> {
  switch (msg.type) {
    case 'serve': {
      const bench = generateBenchOrg({
        scale: msg.scale,
        ...(msg.channels === undefined ? {} : { channels: msg.channels }),
      });
      await writeFile(msg.desiredFile, JSON.stringify(bench.desired));
      const state = msg.org === 'full' ? bench.org : usersOnly(bench.org);
      emulator = await startEmulator({ state, rateLimit: msg.rateLimit });
      await send({
        type: 'ready',
        target: { site: emulator.site, ...bench.owner },
        counts: bench.counts,
        featureLevel: emulator.featureLevel,
      });
      return;
    }
    case 'proxy':
      proxy = await startReplayProxy(msg.upstream);
      await send({ type: 'proxying', site: proxy.site });
      return;
    case 'cpu':
      await send({ type: 'cpu', cpuMs: cpuMs(), peakRssMb: peakRssMb() });
      return;
    case 'mode':
      if (!proxy) throw new Error('no replay proxy: this child was not sent `proxy`');
      proxy.setMode(msg.mode);
      await send({ type: 'mode', ...proxy.stats });
      return;
    case 'dump': {
      const body = proxy?.registerBody();
      if (!body) throw new Error('no register response recorded');
      await writeFile(msg.file, body);
      await send({ type: 'dumped', bytes: body.length });
      return;
    }
    case 'stop':
      await proxy?.close();
      await emulator?.close();
      process.disconnect();
      return;
    case 'measure': {
      const startRssMb = peakRssMb();
      const desired = JSON.parse(await readFile(msg.desiredFile, 'utf8')) as DesiredState;
      const result = await measurePlan(msg.target, desired, msg.strategy);
      result.peakRssMb = peakRssMb();
      result.startRssMb = startRssMb;
      if (msg.floorFile !== undefined)
        result.floor = await parseFloor(msg.floorFile, msg.target.site);
      await send({ type: 'plan-result', result });
      process.disconnect();
      return;
    }
    case 'apply': {
      const desired = JSON.parse(await readFile(msg.desiredFile, 'utf8')) as DesiredState;
      const result = await measureApply(msg.target, desired, {
        execute: msg.execute,
        rateLimit: msg.rateLimit,
      });
      result.peakRssMb = peakRssMb();
      await send({ type: 'apply-result', result });
      process.disconnect();
      return;
    }
    case 'subscribe': {
      const result = await measureBulkSubscribe(msg.channels);
      result.peakRssMb = peakRssMb();
      await send({ type: 'subscribe-result', result });
      process.disconnect();
      return;
    }
    case 'synth': {
      const result = { ...measureSynth(msg.users, msg.outdir), peakRssMb: peakRssMb() };
      await send({ type: 'synth-result', result });
      process.disconnect();
      return;
    }
  }
}

process.on('message', (msg: ToChild) => {
  handle(msg).catch(async (e: unknown) => {
    await send({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    process.exitCode = 1;
    process.disconnect();
  });
});
