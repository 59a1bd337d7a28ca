import { ZulipCdkError } from '../model/errors';
import { sha256Json } from './digest';
import { PLAN_FORMAT_VERSION, PlanSchema } from './plan-format';
import type { Plan } from './plan-format';

/**
 * A checksum of the plan's content (octoDNS `--checksum`): apply can refuse a plan other than
 * the one reviewed. `createdAt` is left out so re-planning the same change gives the same sum.
 */
export function planChecksum(plan: Plan): string {
  const { createdAt: _createdAt, ...rest } = plan;
  return sha256Json(rest);
}

/** Whether applying the plan would change anything. */
export function hasChanges(plan: Plan): boolean {
  return plan.changes.length > 0;
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
