import { z } from 'zod';

/** Why `v` is not a list of safe integers, and where (the index of the first bad element). */
export function intListFailure(v: unknown): { path: number[]; message: string } | undefined {
  if (!Array.isArray(v))
    return { path: [], message: 'Invalid input: expected an array of integers' };
  for (let i = 0; i < v.length; i++)
    if (!Number.isSafeInteger(v[i]))
      return {
        path: [i],
        message: `Invalid input: expected an integer, received ${JSON.stringify(v[i]) ?? typeof v[i]}`,
      };
  return undefined;
}

/** The schemas {@link intListSchema} made, so checkInPlace runs {@link intListFailure} directly. */
export const INT_LIST_SCHEMAS = new WeakSet<z.ZodType>();

/**
 * A list of integer IDs (subscribers, group members), checked as `z.array(z.number().int())`
 * checks it, in one loop instead of one schema run per element and without copying the list:
 * a register response of the largest organizations holds a million subscriber IDs, and the
 * per-element check was the largest part of validating it (issue 17). Still a real check:
 * anything else than an array of safe integers fails, with the index of the first bad element.
 */
export function intListSchema() {
  const schema = z.custom<number[]>().superRefine((v, ctx) => {
    const f = intListFailure(v);
    if (f) ctx.addIssue({ code: 'custom', path: f.path, message: f.message });
  });
  INT_LIST_SCHEMAS.add(schema);
  return schema;
}
