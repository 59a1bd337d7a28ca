import { ZulipCdkError } from '../model/errors';
import type { LiveState } from '../model/live-state';
import { desiredStateDigest, sha256Json } from './digest';
import { summarise } from './plan-finish';
import { stripOrigins } from './origins';
import { LEFT_OUT_WARNING_CODES, PLAN_FORMAT_VERSION, PlanSchema } from './plan-format';
import type { Plan } from './plan-format';

/**
 * The plan's digest (octoDNS `--checksum`): a SHA-256 of its content, shown in the pull-request
 * comment, so apply can be pinned to the plan that was reviewed (`--expect-digest`). `createdAt`
 * is left out so re-planning the same change gives the same digest.
 */
export function planDigest(plan: Omit<Plan, 'digest'> | Plan): string {
  return sha256Json({
    formatVersion: plan.formatVersion,
    desiredDigest: plan.desiredDigest,
    site: plan.server.site,
    account: plan.account,
    targets: plan.targets ?? null,
    // Only when a run set guards of its own, so other plans keep their digest.
    guards: plan.guards,
    summary: plan.summary,
    // Origins (`--base`) say where a change comes from, not what it does: a plan made with and
    // without `--base` has one digest, which apply on the merged branch can be pinned to.
    changes: plan.changes.map(stripOrigins),
    findings: plan.findings,
    // Absent in plans saved before it existed: left out, so their digests stay the same.
    permissions: plan.permissions,
  });
}

/** @deprecated the former name of {@link planDigest}. */
export const planChecksum = planDigest;

/** Whether applying the plan would change anything. */
export function hasChanges(plan: Plan): boolean {
  return plan.changes.length > 0;
}

/**
 * Whether the organization differs from the configuration: the plan has changes, or declared
 * changes were left out of it because Zulip would refuse them ({@link LEFT_OUT_WARNING_CODES}).
 * What `plan --detailed-exitcode` exits 2 on.
 */
export function hasDifferences(plan: Pick<Plan, 'changes' | 'warnings'>): boolean {
  return (
    plan.changes.length > 0 || plan.warnings.some((w) => LEFT_OUT_WARNING_CODES.includes(w.code))
  );
}

/** Reads a saved plan (parsed JSON), checking its format version and shape. */
export function parsePlan(data: unknown, where = 'plan'): Plan {
  const version = (data as { formatVersion?: unknown } | null)?.formatVersion;
  // No format version at all: not a plan (another JSON file given by mistake).
  if (version === undefined || typeof data !== 'object' || Array.isArray(data))
    throw new ZulipCdkError(
      'PLAN_INVALID',
      'The file is not a zulip-cdk plan (it has no formatVersion)',
      { where, hint: 'Give the file `zulip-cdk plan --out FILE` saved.' },
    );
  if (version !== PLAN_FORMAT_VERSION)
    throw new ZulipCdkError(
      'PLAN_FORMAT_UNSUPPORTED',
      `The plan has format version ${JSON.stringify(version)}; this zulip-cdk reads version ${PLAN_FORMAT_VERSION}`,
      { where, hint: 'Make the plan again with this version of zulip-cdk.' },
    );
  const parsed = PlanSchema.safeParse(data);
  if (!parsed.success)
    throw new ZulipCdkError(
      'PLAN_INVALID',
      `The plan file is not a valid plan: ${parsed.error.message}`,
      {
        where,
      },
    );
  // The desired state as the file has it: parsing fills in the collections of kinds newer than
  // the zulip-cdk that made the plan (empty), which changes its digest but not what it declares.
  const raw = (data as { desired?: unknown }).desired;
  const rawDigest = desiredStateDigest(raw);
  if (rawDigest === parsed.data.desiredDigest) verifiedDesired.set(parsed.data.desired, rawDigest);
  checkPlanIntegrity(parsed.data, where);
  return parsed.data;
}

/**
 * Desired states of plans read by {@link parsePlan} whose digest was checked on the file's own
 * text of them, by object: a plan saved by an older zulip-cdk (without the newest kinds'
 * collections) stays valid, and apply does not hash the desired state a second time. A caller
 * that changes a read plan's `desired` object in memory before applying it is not caught here
 * (the file was not changed); apply still plans again from it and runs only what it implies.
 */
const verifiedDesired = new WeakMap<object, string>();

/**
 * A SHA-256 of the live organization as read (the read's request count and time left out):
 * when it is the same at apply time, nothing changed since the plan, and the plan must be
 * exactly what planning again gives.
 */
export function liveStateDigest(live: LiveState): string {
  const { requestCount: _requestCount, server, ...rest } = live;
  // When it was read is not what was read.
  const { readAt: _readAt, ...what } = server;
  return sha256Json({ ...rest, server: what });
}

function tampered(where: string, what: string): ZulipCdkError {
  return new ZulipCdkError('PLAN_TAMPERED', `The plan was changed after it was made: ${what}.`, {
    where,
    hint: 'Apply only a plan saved by `zulip-cdk plan --out` and not edited since; make it again from the configuration.',
  });
}

/**
 * Checks what a plan says of itself, before any request: its digest, its desired state's digest,
 * its summary and the references between its changes. A plan edited by hand fails here; one
 * whose digests were recomputed after editing fails later, when apply plans again from its
 * desired state (`reconcile`).
 */
export function checkPlanIntegrity(plan: Plan, where = 'plan'): void {
  const desiredDigest = verifiedDesired.get(plan.desired) ?? desiredStateDigest(plan.desired);
  if (desiredDigest !== plan.desiredDigest)
    throw tampered(where, 'its desired state does not have the digest it records (desiredDigest)');
  const ids = new Set<string>();
  for (const c of plan.changes) {
    if (ids.has(c.id)) throw tampered(where, `the change ${c.id} appears twice`);
    if (c.id !== `${c.address}#${c.action}`)
      throw tampered(
        where,
        `the change ${c.id} does not have the id of a ${c.action} of ${c.address}`,
      );
    for (const d of c.dependsOn)
      if (!ids.has(d))
        throw tampered(
          where,
          `the change ${c.id} depends on ${d}, which is not an earlier change of the plan`,
        );
    ids.add(c.id);
  }
  const summary = summarise(plan.changes);
  for (const [k, v] of Object.entries(summary))
    if (plan.summary[k as keyof typeof summary] !== v)
      throw tampered(
        where,
        `its summary says ${plan.summary[k as keyof typeof summary]} for "${k}", but its changes make ${v}`,
      );
  if (planDigest(plan) !== plan.digest)
    throw tampered(where, 'its content does not have the digest it records (digest)');
}
