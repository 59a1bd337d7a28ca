/**
 * The cases `check-in-place.test.ts` runs twice: in the test's own process, and in a Node
 * started with `--disallow-code-generation-from-strings` (where the checks cannot be generated
 * and fall back to a loop). Prints the outcomes as JSON when run as a script.
 */
import { z } from 'zod';
import { parseInPlace } from '../../../src/model/check-in-place';
import { intListSchema } from '../../../src/model/int-list';
import { RegisterResponseSchema } from '../../../src/zulip/wire/register';

/** Each case's outcome: `ok` with the value after the check, or the first issue's path and message. */
export function checkInPlaceOutcomes(): unknown[] {
  const strict = z.strictObject({
    a: z.number(),
    b: z.boolean().default(true),
    l: intListSchema(),
    o: z.looseObject({ s: z.string() }).optional(),
  });
  const register = (over: Record<string, unknown>): Record<string, unknown> => ({
    result: 'success',
    msg: '',
    zulip_version: '11.0',
    realm_users: [
      { user_id: 8, email: 'a@x.example', full_name: 'A', is_bot: false, avatar_url: null },
    ],
    ...over,
  });
  const cases: [z.ZodType, unknown][] = [
    [strict, { a: 1, l: [1, 2] }],
    [strict, { a: 1, l: [], o: { s: 'x', extra: 1 } }],
    [strict, { a: 1, l: [], c: 2 }],
    [strict, { a: 'x', l: [] }],
    [strict, { a: 1, l: [1, '2'] }],
    [strict, { a: 1, l: [], o: { s: 3 } }],
    [strict, [1]],
    [RegisterResponseSchema, register({})],
    [RegisterResponseSchema, register({ realm_users: [{ user_id: '8' }] })],
  ];
  return cases.map(([schema, value]) => {
    try {
      return { ok: parseInPlace(schema, value) };
    } catch (e) {
      if (!(e instanceof z.ZodError)) return { threw: String(e) };
      const issue = e.issues[0];
      return { path: issue?.path.join('.'), message: issue?.message };
    }
  });
}

if (require.main === module) process.stdout.write(JSON.stringify(checkInPlaceOutcomes()));
