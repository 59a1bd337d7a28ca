import { ZulipCdkError } from '../../model/errors';
import type { JsonValue } from '../../engine/plan-format';

/** A plan value that must be a string (a name, a description, a role). */
export function text(v: JsonValue | undefined, what = 'value'): string {
  if (typeof v === 'string') return v;
  throw new ZulipCdkError(
    'PLAN_INVALID',
    `The plan has ${JSON.stringify(v)} where a string ${what} belongs.`,
  );
}
