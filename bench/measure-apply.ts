import { applyPlan, plan } from '../src/engine';
import { predictRequests } from '../src/engine/apply/batching';
import type { Change } from '../src/engine';
import type { DesiredState } from '../src/model/desired-state';
import { readLiveState } from '../src/provider/read-live-state';
import { ZulipApplyTarget } from '../src/provider/write-target';
import { requestFloor } from './floor';
import type { RequestFloor } from './floor';
import { benchClient } from './measure';
import type { Target } from './measure';

/** What the apply-from-nothing measurement found. */
export interface ApplyMeasurement {
  /** Whether the apply engine exists (it does since issue 6 landed). */
  readonly available: boolean;
  /** Whether the apply was run, or only planned and predicted. */
  readonly executed: boolean;
  /** The emulator's rate limit during the run (requests per minute), or false. */
  readonly rateLimit: number | false;
  /** Requests predicted from the engine's execution order (see {@link measureApply}). */
  readonly predictedRequests: number;
  /** 429 responses the client waited out. */
  readonly rateLimitHits?: number;
  /** Changes in the plan. */
  readonly changes: number;
  /** The fewest write requests Zulip's API allows for them (bench/floor.ts). */
  readonly floor?: RequestFloor;
  /** Our apply's write requests (its requests less the re-read), or predicted ones. */
  readonly writes?: number;
  /** A tool that sends one request per plan change. */
  readonly naivePerChange: number;
  /**
   * A tool that sends one request per item: per subscription (user × channel), per group
   * member, per changed property (the per-resource Terraform way).
   */
  readonly naivePerItem: number;
  /** Requests of our apply (reads included); null when the apply engine is not there yet. */
  readonly requests: number | null;
  readonly wallMs: number | null;
  /** Changes left by a plan made right after the apply (must be 0). */
  readonly leftAfter: number | null;
  /** Our apply's requests by endpoint (e.g. `POST /users/me/subscriptions`). */
  readonly byEndpoint?: Readonly<Record<string, number>>;
  peakRssMb?: number;
  /** Emulator CPU time during the measurement (ms), filled in by bench/run.ts. */
  serverCpuMs?: number;
}

/** Requests a one-request-per-item tool would send for a change. */
export function itemsOf(c: Change): number {
  switch (c.action) {
    case 'membership':
      return c.add.length + c.remove.length + c.addSubgroups.length + c.removeSubgroups.length;
    case 'update':
      return c.properties.length;
    default:
      return 1;
  }
}

/** Options of {@link measureApply}. */
export interface MeasureApplyOptions {
  /** Apply for real; false: plan only, and predict the requests from the execution order. */
  readonly execute: boolean;
  /** Requests per minute the client is allowed (the server's limit, for the report). */
  readonly rateLimit?: number | false;
}

/**
 * Plans `desired` against the organization at `target` (the users-only organization: an apply
 * from nothing), predicts the requests of its apply from the engine's execution order (one
 * request per executed step, memberships of new objects folded into their create, plus the
 * read that checks for conflicts), and with `execute` applies it with the project's apply
 * engine, counting requests by endpoint, then plans again to check that nothing is left.
 */
export async function measureApply(
  target: Target,
  desired: DesiredState,
  options: MeasureApplyOptions,
): Promise<ApplyMeasurement> {
  // Rate-limited runs wait out every 429 (Zulip's window is a minute).
  const client = benchClient(target, { maxRateLimitRetries: 1000 });
  const byEndpoint: Record<string, number> = {};
  try {
    const live = await readLiveState(client);
    const p = plan(desired, live);
    let naivePerItem = 0;
    for (const c of p.changes) naivePerItem += itemsOf(c);
    const predictedRequests = predictRequests(p.changes, p.server.featureLevel);
    const base = {
      changes: p.changes.length,
      floor: requestFloor(p.changes),
      naivePerChange: p.changes.length,
      naivePerItem,
      predictedRequests,
      rateLimit: options.rateLimit ?? false,
    };
    if (!options.execute)
      return {
        ...base,
        available: true,
        executed: false,
        writes: predictedRequests - READ_REQUESTS,
        requests: null,
        wallMs: null,
        leftAfter: null,
      };

    const before = client.requestCount;
    const stop = client.onEvent((e) => {
      if (e.type === 'response') byEndpoint[e.endpoint] = (byEndpoint[e.endpoint] ?? 0) + 1;
    });
    const started = performance.now();
    // The incremental plan unsubscribes, removes members and demotes: the bench's own
    // organization, so destructive changes and safety findings are allowed.
    const result = await applyPlan(p, new ZulipApplyTarget(client, p), {
      allowDestroy: true,
      force: true,
      // The generated organization nests teams in groups that administer channels.
      allowPrivileged: true,
    });
    const wallMs = performance.now() - started;
    stop();
    const requests = client.requestCount - before;
    if (result.outcome !== 'applied')
      throw new Error(
        `the apply from nothing did not apply everything: ${result.outcome} ${JSON.stringify(result.journal.counts)}${result.journal.error ? ` (${result.journal.error.code}: ${result.journal.error.message})` : ''}`,
      );
    const after = plan(desired, await readLiveState(client));
    return {
      ...base,
      available: true,
      executed: true,
      requests,
      writes: requests - READ_REQUESTS - client.stats.rateLimitHits,
      rateLimitHits: client.stats.rateLimitHits,
      byEndpoint,
      wallMs,
      leftAfter: after.changes.length,
    };
  } finally {
    await client.close();
  }
}

/** Apply re-reads the organization once before writing (`POST /register`, `DELETE /events`). */
const READ_REQUESTS = 2;
