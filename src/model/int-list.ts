import { z } from 'zod';

/**
 * A list of integer IDs (subscribers, group members), checked as `z.array(z.number().int())`
 * checks it, in one loop instead of one schema run per element and without copying the list:
 * a register response of the largest organizations holds a million subscriber IDs, and the
 * per-element check was the largest part of validating it (issue 17). Still a real check:
 * anything else than an array of safe integers fails, with the index of the first bad element.
 */
export function intListSchema() {
  return z.custom<number[]>().superRefine((v, ctx) => {
    if (!Array.isArray(v)) {
      ctx.addIssue({ code: 'custom', message: 'Invalid input: expected an array of integers' });
      return;
    }
    for (let i = 0; i < v.length; i++)
      if (!Number.isSafeInteger(v[i])) {
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message: `Invalid input: expected an integer, received ${JSON.stringify(v[i]) ?? typeof v[i]}`,
        });
        return;
      }
  });
}
