import { ZulipCdkError } from '../model/errors';
import { sha256Json } from './digest';
import { LEFT_OUT_WARNING_CODES, PLAN_FORMAT_VERSION, PlanSchema } from './plan-format';
import type { Plan } from './plan-format';

/**
 * The plan's digest (octoDNS `--checksum`): a SHA-256 of its content, shown in the pull-request
 * comment, so apply can be pinned to the plan that was reviewed (`--expect-digest`). `createdAt`
 * is left out so re-planning the same change gives the same digest.
 */
export function planDigest(plan: Plan): string {
  const { createdAt: _createdAt, ...rest } = plan;
  return sha256Json(rest);
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
  return parsed.data;
}
