import { plan } from '../src/engine';
import type { Change } from '../src/engine';
import type { DesiredState } from '../src/model/desired-state';
import { readLiveState } from '../src/zulip/handlers/read-live-state';
import { benchClient, peakRssMb } from './measure';
import type { Target } from './measure';

/** What the apply-from-nothing measurement found. */
export interface ApplyMeasurement {
  /** Whether the apply engine exists yet; without it only the plan side is measured. */
  readonly available: boolean;
  /** Changes in the plan from nothing. */
  readonly changes: number;
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
  peakRssMb?: number;
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

/**
 * Applies `desired` to the organization at `target` (the users-only organization: an apply
 * from nothing), counting requests.
 *
 * TODO(issue 6): the apply engine (src/engine/apply) is being written; until it lands this
 * measures the plan from nothing only and reports `available: false` ("apply benchmark: not
 * available yet").
 */
export async function measureApply(
  target: Target,
  desired: DesiredState,
): Promise<ApplyMeasurement> {
  const client = benchClient(target);
  try {
    const live = await readLiveState(client);
    const p = plan(desired, live);
    let naivePerItem = 0;
    for (const c of p.changes) naivePerItem += itemsOf(c);
    return {
      available: false,
      changes: p.changes.length,
      naivePerChange: p.changes.length,
      naivePerItem,
      requests: null,
      wallMs: null,
      leftAfter: null,
      peakRssMb: peakRssMb(),
    };
  } finally {
    await client.close();
  }
}
