import { z } from 'zod';
import { INT_LIST_SCHEMAS, intListFailure } from './int-list';

/**
 * Checks a value against a zod schema without copying it (issue 17). zod's `parse` builds a
 * new object for every object it checks: at the largest sizes (a register response of 100,000
 * users and 20,000 channels, each in three lists) that copy costs more than the JSON.parse
 * before it and doubles the memory held. The check here is compiled once from the schema
 * itself (so the schema stays the one description of the shape and of the TypeScript type)
 * and leaves the value as it is: the same result as `parse` for the schemas it accepts, since
 * those give back what they were given (loose objects keep their extra keys, strict ones
 * refuse them); a `.default()` of an object's property is written into the object.
 *
 * It is a real check: anything `parse` refuses fails, with the path of the first bad value
 * (`realm_users.41.email: Invalid input: expected string, received number`). Schemas it does
 * not know (transforms, plain `z.object`, which strips unknown keys, number bounds) are
 * refused when the check is compiled, so it can never pass what zod would change.
 */

/** Where a value failed and why; the path is built on the way out, so success costs nothing. */
interface Failure {
  readonly path: (string | number)[];
  readonly message: string;
}
type Check = (value: unknown) => Failure | undefined;

const fail = (message: string): Failure => ({ path: [], message });

/** What zod calls the type of a value in its messages. */
function received(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' && Number.isNaN(v)) return 'NaN';
  return typeof v;
}

const expected = (what: string, v: unknown): Failure =>
  fail(`Invalid input: expected ${what}, received ${received(v)}`);

/** zod's internals (v4): the definition behind a schema. */
interface Def {
  readonly type: string;
  readonly [key: string]: unknown;
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const compiled = new WeakMap<z.ZodType, Check>();

function compile(schema: z.ZodType): Check {
  const done = compiled.get(schema);
  if (done) return done;
  // Recursive schemas would need a forward reference; none of ours is.
  const check = build(schema);
  compiled.set(schema, check);
  return check;
}

function build(schema: z.ZodType): Check {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      noChecks(def);
      return (v) => (typeof v === 'string' ? undefined : expected('string', v));
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? undefined : expected('boolean', v));
    case 'null':
      return (v) => (v === null ? undefined : expected('null', v));
    case 'unknown':
      return () => undefined;
    case 'number': {
      const checks = (def.checks as { _zod: { def: { check: string; format?: string } } }[]) ?? [];
      const int = checks.some((c) => c._zod.def.format === 'safeint');
      if (checks.some((c) => c._zod.def.format !== 'safeint'))
        throw unsupported('a number with bounds');
      return int
        ? (v) => (Number.isSafeInteger(v) ? undefined : expected('int', v))
        : (v) => (typeof v === 'number' && Number.isFinite(v) ? undefined : expected('number', v));
    }
    case 'literal': {
      const values = def.values as readonly unknown[];
      return (v) =>
        values.includes(v)
          ? undefined
          : fail(`Invalid input: expected ${values.map((x) => JSON.stringify(x)).join(' | ')}`);
    }
    case 'enum': {
      const values = Object.values(def.entries as Record<string, unknown>);
      return (v) =>
        values.includes(v)
          ? undefined
          : fail(
              `Invalid option: expected one of ${values.map((x) => JSON.stringify(x)).join('|')}`,
            );
    }
    case 'optional': {
      const inner = compile(def.innerType as z.ZodType);
      return (v) => (v === undefined ? undefined : inner(v));
    }
    case 'nullable': {
      const inner = compile(def.innerType as z.ZodType);
      return (v) => (v === null ? undefined : inner(v));
    }
    case 'union': {
      const options = (def.options as z.ZodType[]).map(compile);
      return (v) =>
        options.some((o) => o(v) === undefined)
          ? undefined
          : fail(`Invalid input: ${received(v)} matches none of the allowed forms`);
    }
    case 'array': {
      const element = compile(def.element as z.ZodType);
      return (v) => {
        if (!Array.isArray(v)) return expected('array', v);
        for (let i = 0; i < v.length; i++) {
          const f = element(v[i]);
          if (f) return within(i, f);
        }
        return undefined;
      };
    }
    case 'record': {
      if (defOf(def.keyType as z.ZodType).type !== 'string') throw unsupported('a record key');
      const value = compile(def.valueType as z.ZodType);
      return (v) => {
        if (!isObject(v)) return expected('record', v);
        for (const k of Object.keys(v)) {
          const f = value(v[k]);
          if (f) return within(k, f);
        }
        return undefined;
      };
    }
    case 'object':
      return objectCheck(def);
    case 'custom':
      if (INT_LIST_SCHEMAS.has(schema)) return intListFailure;
      // A refinement: zod runs it and gives the value back unchanged.
      return (v) => {
        const r = schema.safeParse(v);
        if (r.success) return undefined;
        const issue = r.error.issues[0];
        return {
          path: [...(issue?.path ?? [])] as (string | number)[],
          message: issue?.message ?? 'Invalid input',
        };
      };
    default:
      throw unsupported(`a ${def.type} schema`);
  }
}

function objectCheck(def: Def): Check {
  const catchall = def.catchall as z.ZodType | undefined;
  const catchallType = catchall && defOf(catchall).type;
  // A plain z.object strips unknown keys: checking it in place would keep them.
  if (catchallType !== 'unknown' && catchallType !== 'never')
    throw unsupported('a z.object (use z.looseObject or z.strictObject)');
  const strict = catchallType === 'never';
  const shape = def.shape as Record<string, z.ZodType>;
  const fields = Object.entries(shape).map(([key, s]) => {
    const d = defOf(s);
    return d.type === 'default'
      ? { key, check: compile(d.innerType as z.ZodType), fill: () => d.defaultValue }
      : { key, check: compile(s), fill: undefined };
  });
  const keys = new Set(Object.keys(shape));
  // The check is written out, a statement per property, each reading its property by name: an
  // access by a key that varies (`v[key]` in a loop over the fields) is a generic lookup, which
  // made the register's and the LiveState's checks cost half a JSON.parse at the largest sizes
  // (issue 17). The code is made from the schema's own keys, written as JSON string literals.
  const body = [
    'return function check(v) {',
    "  if (!isObject(v)) return expected('object', v);",
    '  let f;',
    '  let x;',
    ...fields.map(({ key, fill }, i) => {
      const k = JSON.stringify(key);
      const test = `if ((f = fields[${i}].check(x))) return within(${k}, f);`;
      return fill
        ? `  x = v[${k}]; if (x === undefined) v[${k}] = fields[${i}].fill(); else ${test}`
        : `  x = v[${k}]; ${test}`;
    }),
    strict
      ? '  for (const k in v) if (!keys.has(k)) return fail(`Unrecognized key: ${JSON.stringify(k)}`);'
      : '',
    '  return undefined;',
    '};',
  ].join('\n');
  let make: (...args: unknown[]) => Check;
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see above: generated from the schema's keys only
    make = new Function('fields', 'keys', 'isObject', 'expected', 'within', 'fail', body) as (
      ...args: unknown[]
    ) => Check;
  } catch {
    // A host that forbids code from strings (`--disallow-code-generation-from-strings`, a
    // content security policy): the same check as a loop, slower. zod's own JIT does the same.
    return loopCheck(fields, keys, strict);
  }
  return make(fields, keys, isObject, expected, within, fail);
}

/** {@link objectCheck}'s check as a loop over the fields: the same answers. */
function loopCheck(
  fields: readonly { key: string; check: Check; fill: (() => unknown) | undefined }[],
  keys: ReadonlySet<string>,
  strict: boolean,
): Check {
  return (v) => {
    if (!isObject(v)) return expected('object', v);
    for (const { key, check, fill } of fields) {
      const x = v[key];
      if (x === undefined && fill) v[key] = fill();
      else {
        const f = check(x);
        if (f) return within(key, f);
      }
    }
    if (strict)
      for (const k in v) if (!keys.has(k)) return fail(`Unrecognized key: ${JSON.stringify(k)}`);
    return undefined;
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function within(key: string | number, f: Failure): Failure {
  f.path.unshift(key);
  return f;
}

function noChecks(def: Def): void {
  if (Array.isArray(def.checks) && def.checks.length > 0)
    throw unsupported(`a ${def.type} with checks`);
}

function unsupported(what: string): Error {
  return new Error(`checkInPlace: ${what} cannot be checked in place`);
}

/**
 * `schema` as a zod schema that checks in place: parsing with it gives back the value it was
 * given (defaults of object properties written into it), or fails with the path of the first
 * bad value. For the large lists of a register response and the LiveState made from it.
 */
export function inPlace<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, z.input<S>> {
  const check = compile(schema);
  return z.custom<z.output<S>>().superRefine((v, ctx) => {
    const f = check(v);
    if (f) ctx.addIssue({ code: 'custom', path: f.path, message: f.message });
  }) as unknown as z.ZodType<z.output<S>, z.input<S>>;
}

/** Checks `value` against `schema` in place and returns it; throws a ZodError as `parse` does. */
export function parseInPlace<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const f = compile(schema)(value);
  if (f)
    throw new z.ZodError([{ code: 'custom', path: f.path, message: f.message, input: undefined }]);
  return value as z.output<S>;
}
