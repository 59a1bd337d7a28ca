import type { DesiredState } from '../model/desired-state';
import type { LiveState } from '../model/live-state';
import { desiredStateDigest } from './digest';
import { checkDeclaredKeys } from './declared-keys';
import { checkFeatures } from './feature-check';
import type { Change, IgnoredDrift, Plan, PlanPermissions, PlanWarning } from './plan-format';
import { ignoredDrift, markOrigins, withoutIgnoreChanges } from './origins';
import { PLAN_FORMAT_VERSION } from './plan-format';
import { effectivePermissions } from './effective-permissions';
import { finishPlan } from './plan-finish';
import { effectiveGuards } from './guards';
import type { GuardOverrides } from './guards';
import { liveStateDigest, planDigest } from './plan-io';
import { checkTargets } from './targets';
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
  /** This run's overrides of the organization's guards (CLI flags); recorded as `guards`. */
  readonly guards?: GuardOverrides;
  /**
   * The desired state of the base branch (`plan --base`): each change, property and member then
   * says whether the pull request makes it or it reverts drift (`origin`), and the plan lists
   * the drift it leaves alone (`ignoredDrift`). Recorded as `base`; not part of the digest.
   */
  readonly base?: DesiredState;
  /**
   * The time the plan judges Zulip's waiting period for full members by (who gains and loses a
   * permission through role:fullmembers), ISO; null for none (every member counts as a full
   * member). Default: when the live state was read (`server.readAt`). Apply passes the saved
   * plan's, so that planning again gives the same plan. Recorded as `server.readAt`.
   */
  readonly readAt?: string | null;
  /**
   * Filled with the time of each phase (ms): `features`, `planner`, `finish`, `permissions`, `base`, `digests`, for
   * the bench (issue 17). The plan does not depend on it.
   */
  readonly timings?: Record<string, number>;
}

/** The plan's `permissions` field: absent when the plan touches no permission. */
function withPermissions(p: PlanPermissions): { permissions?: PlanPermissions } {
  return p.effects.length > 0 ? { permissions: p } : {};
}

/**
 * Diffs the desired state against the live organization. Pure: no I/O, no clock (the time it
 * judges waiting periods by is the read's, or `options.readAt`).
 *
 * Throws `UNSUPPORTED_FEATURE` (every feature the configuration uses that the server lacks)
 * and `UNRESOLVED_REFERENCE` (groups or folders that exist neither in the configuration nor
 * live, e-mails that are not users of the organization, and what the server would refuse), or
 * `ACCOUNT_NOT_ALLOWED` when every problem is a change Zulip would refuse the applying account,
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
  if (options.targets) checkTargets(options.targets, desired, live);
  phase('features');
  const planner = new Planner(desired, live);
  checkDeclaredKeys(desired, planner.liveUsers());
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
    desired,
    guards: effectiveGuards(desired, options.guards),
  });
  phase('finish');
  const realm = live.organizationSettings?.permissions;
  const readAt = options.readAt === undefined ? live.server.readAt : (options.readAt ?? undefined);
  const permissions = effectivePermissions(changes, live, planner.idx, {
    ...(realm ? { realm } : {}),
    ...(readAt !== undefined ? { now: Date.parse(readAt) } : {}),
  });
  phase('permissions');
  const withBase = options.base ? fromBase(desired, live, options, changes, warnings) : undefined;
  phase('base');
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
      ...(readAt !== undefined ? { readAt } : {}),
    },
    account: { userId: live.me.userId, email: live.me.email },
    ...(options.targets ? { targets: [...options.targets] } : {}),
    ...(options.guards && Object.keys(options.guards).length > 0
      ? { guards: { ...options.guards } }
      : {}),
    summary,
    changes: withBase?.changes ?? changes,
    warnings: withBase?.warnings ?? warnings,
    findings,
    ...withPermissions(permissions),
    fingerprints,
    desired,
    ...(withBase ? { base: options.base, ignoredDrift: withBase.ignoredDrift } : {}),
  };
  const digest = planDigest(made);
  phase('digests');
  return { ...made, digest };
}

/**
 * With `--base`: the changes with their origin (planning the base branch's configuration
 * against the same organization tells drift from the pull request's changes), and what the plan
 * leaves alone (planning without `ignoreChanges`; undeclared objects).
 */
function fromBase(
  desired: DesiredState,
  live: LiveState,
  options: PlanOptions,
  changes: Change[],
  warnings: PlanWarning[],
): { changes: Change[]; warnings: PlanWarning[]; ignoredDrift: IgnoredDrift[] } {
  const targets = options.targets ? { targets: options.targets } : {};
  let marked = changes;
  const notes = [...warnings];
  try {
    marked = markOrigins(changes, plan(options.base!, live).changes);
  } catch (e) {
    // The base branch may not plan against the organization as it is now (a user it names has
    // left): the pull request can still be planned, without telling its changes from drift.
    notes.push({
      code: 'BASE_NOT_PLANNED',
      message: `the base branch's configuration cannot be planned against the organization (${(e as Error).message.split('\n')[0]}); this plan does not tell its changes from drift`,
    });
  }
  const unignored = plan(withoutIgnoreChanges(desired), live, targets).changes;
  return {
    changes: marked,
    warnings: notes,
    ignoredDrift: ignoredDrift(changes, unignored, warnings),
  };
}
