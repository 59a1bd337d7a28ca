import { plan } from '../src/engine';
import type { DesiredState } from '../src/model/desired-state';
import type { LiveState } from '../src/model/live-state';
import { ZulipClient } from '../src/zulip/client';
import { ZulipCredentials } from '../src/zulip/credentials';
import type { RetryOptions } from '../src/zulip/http';
import { readLiveState } from '../src/provider/read-live-state';
import { readLiveStateNaively } from './naive-read';

/** Where the server under test is and whom to log in as. Never printed (it holds a key). */
export interface Target {
  readonly site: string;
  readonly email: string;
  readonly apiKey: string;
}

/** What one read-and-plan measurement found. */
export interface PlanMeasurement {
  readonly strategy: 'ours' | 'naive';
  /** HTTP requests of the read. */
  readonly requests: number;
  readonly readMs: number;
  readonly planMs: number;
  readonly totalMs: number;
  /** Changes in the resulting plan (both strategies must agree). */
  readonly changes: number;
  /** A digest of the plan's changes, to check that both reads led to the same plan. */
  readonly planDigest: string;
  /** Peak resident memory of the measuring process (MB); filled in by the child. */
  peakRssMb?: number;
  /** Its resident memory before the measurement (node, tsx and the modules loaded), MB. */
  startRssMb?: number;
  readonly channelsRead: number;
  /**
   * The read's floor, measured after it in the same process (replayed `ours` only): a bare
   * JSON.parse of the register response, and its UTF-8 decoding.
   */
  floor?: {
    readonly bytes: number;
    readonly parseMs: number;
    readonly decodeMs: number;
    /** CPU time of the parse (best of three). */
    readonly parseCpuMs?: number;
    /** Receiving the same body from the same replaying server (best of three). */
    readonly receiveMs?: number;
    /** Receiving, decoding and parsing it, nothing else: the wire's floor (best of three). */
    readonly wireMs?: number;
  };
  /** CPU time of this process for the read and for the plan (steadier than wall time on a loaded machine). */
  readCpuMs?: number;
  planCpuMs?: number;
  /** The planner's phases (ms), when `plan` reports them. */
  planPhases?: Readonly<Record<string, number>>;
}

/** The client the bench uses: rate limiting is off on the server, so no budget applies. */
export function benchClient(target: Target, retry: RetryOptions = {}): ZulipClient {
  return new ZulipClient({
    retry,
    credentials: new ZulipCredentials({
      site: target.site,
      email: target.email,
      apiKey: target.apiKey,
    }),
    timeouts: { headersMs: 600_000, bodyMs: 600_000 },
  });
}

function digestOf(changes: readonly { id: string }[]): string {
  // Cheap and order-sensitive: enough to tell two plans apart.
  let h = 0;
  for (const c of changes)
    for (let i = 0; i < c.id.length; i++) h = (Math.imul(h, 31) + c.id.charCodeAt(i)) | 0;
  return `${changes.length}:${(h >>> 0).toString(16)}`;
}

/**
 * Reads the live organization with the given strategy and plans the desired state against
 * it. `ours` is the project's `readLiveState` (`POST /register` + `DELETE /events`); `naive`
 * is {@link readLiveStateNaively}.
 */
export async function measurePlan(
  target: Target,
  desired: DesiredState,
  strategy: 'ours' | 'naive',
): Promise<PlanMeasurement> {
  const client = benchClient(target);
  try {
    const cpu = (): number => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    const cpu0 = cpu();
    const started = performance.now();
    const before = client.requestCount;
    const live: LiveState =
      strategy === 'ours' ? await readLiveState(client) : await readLiveStateNaively(client);
    const requests = client.requestCount - before;
    const read = performance.now();
    const cpu1 = cpu();
    const planPhases: Record<string, number> = {};
    const p = plan(desired, live, { timings: planPhases });
    const done = performance.now();
    const cpu2 = cpu();
    return {
      strategy,
      requests,
      readMs: read - started,
      planMs: done - read,
      totalMs: done - started,
      changes: p.changes.length,
      planDigest: digestOf(p.changes),
      channelsRead: live.channels.length,
      planPhases,
      readCpuMs: cpu1 - cpu0,
      planCpuMs: cpu2 - cpu1,
    };
  } finally {
    await client.close();
  }
}

/** Peak resident set size of this process so far, in MB (`getrusage` `ru_maxrss`). */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}
