import type { DesiredState } from '../model/desired-state';
import type { LiveState } from '../model/live-state';
import { desiredStateDigest } from './digest';
import { checkFeatures } from './feature-check';
import type { Plan, PlanPermissions } from './plan-format';
import { PLAN_FORMAT_VERSION } from './plan-format';
import { effectivePermissions } from './effective-permissions';
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
}

/** The plan's `permissions` field: absent when the plan touches no permission. */
function withPermissions(p: PlanPermissions): { permissions?: PlanPermissions } {
  return p.effects.length > 0 ? { permissions: p } : {};
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
  checkFeatures(desired, live.server);
  const planner = new Planner(desired, live);
  planner.run();
  planner.throwErrors();
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
  const made: Omit<Plan, 'digest'> = {
    formatVersion: PLAN_FORMAT_VERSION,
    ...(options.createdAt !== undefined ? { createdAt: options.createdAt } : {}),
    desiredDigest: desiredStateDigest(desired),
    liveDigest: liveStateDigest(live),
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
    ...withPermissions(effectivePermissions(changes, live, planner.idx)),
    fingerprints,
    desired,
  };
  return { ...made, digest: planDigest(made) };
}
