import type { DesiredState } from '../model/desired-state';
import type { LiveState } from '../model/live-state';
import { desiredStateDigest } from './digest';
import { checkFeatures } from './feature-check';
import type { Plan } from './plan-format';
import { PLAN_FORMAT_VERSION } from './plan-format';
import { finishPlan } from './plan-finish';
import { liveStateDigest, planDigest } from './plan-io';
import { Planner } from './plan/planner';

export { isIgnored } from './plan/planner';

/** Options of {@link plan}. */
export interface PlanOptions {
  /**
   * Limit the plan to these addresses (`channel["eng"]`) or kinds (`channel`), plus the changes
   * they depend on.
   */
  readonly targets?: readonly string[];
  /** Recorded as `createdAt`; left out by default so plans are deterministic. */
  readonly createdAt?: string;
  /**
   * Filled with the time of each phase (ms): `features`, `planner`, `finish`, `digests`, for
   * the bench (issue 17). The plan does not depend on it.
   */
  readonly timings?: Record<string, number>;
}

/**
 * Diffs the desired state against the live organization. Pure: no I/O, no clock.
 *
 * Throws `UNSUPPORTED_FEATURE` (every feature the configuration uses that the server lacks)
 * and `UNRESOLVED_REFERENCE` (groups or folders that exist neither in the configuration nor
 * live, e-mails that are not users of the organization, and what the server would refuse)
 * before producing any change.
 */
export function plan(desired: DesiredState, live: LiveState, options: PlanOptions = {}): Plan {
  const timings = options.timings;
  let last = timings ? performance.now() : 0;
  const phase = (name: string): void => {
    if (!timings) return;
    const now = performance.now();
    timings[name] = (timings[name] ?? 0) + now - last;
    last = now;
  };
  checkFeatures(desired, live.server);
  phase('features');
  const planner = new Planner(desired, live);
  planner.run();
  planner.throwErrors();
  phase('planner');
  const { changes, warnings, findings, fingerprints, summary } = finishPlan({
    changes: planner.changes,
    meta: planner.meta,
    warnings: planner.warnings,
    findings: planner.findings,
    idx: planner.idx,
    live,
    ...(options.targets ? { targets: options.targets } : {}),
    maxRemovals: desired.organization.maxRemovals ?? 10,
  });
  phase('finish');
  const desiredDigest = desiredStateDigest(desired);
  const liveDigest = liveStateDigest(live);
  const made: Omit<Plan, 'digest'> = {
    formatVersion: PLAN_FORMAT_VERSION,
    ...(options.createdAt !== undefined ? { createdAt: options.createdAt } : {}),
    desiredDigest,
    liveDigest,
    server: {
      site: live.server.site,
      featureLevel: live.server.featureLevel,
      version: live.server.version,
      channelEventsMessages: live.server.channelEventsMessages,
    },
    account: { userId: live.me.userId, email: live.me.email },
    ...(options.targets ? { targets: [...options.targets] } : {}),
    summary,
    changes,
    warnings,
    findings,
    fingerprints,
    desired,
  };
  const digest = planDigest(made);
  phase('digests');
  return { ...made, digest };
}
