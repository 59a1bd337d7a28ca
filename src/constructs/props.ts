import { z } from 'zod';
import { KIND_SPECS } from '../model/kinds';
import type { ResourceKind } from '../model/kinds';
import { closest } from '../model/spelling';
import { Permission, isGroupReference } from './permission';
import type { GroupReference, PermissionValue } from './permission';
import { isResourceOf } from './symbols';

/**
 * Zod pieces shared by the constructs' props schemas. Props schemas are strict: a misspelt
 * property fails at synth, for JavaScript users as much as for TypeScript users.
 */

/** Loose e-mail shape check: Zulip is the judge of which users exist. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+$/.test(value);
}

export const emailSchema = z
  .string()
  .refine(isEmail, { message: 'expected a user e-mail address such as alice@example.com' });

export const groupRefSchema = z.custom<GroupReference>(isGroupReference, {
  message:
    'expected a UserGroup construct or a SystemGroup (such as SystemGroup.ADMINISTRATORS); groups are referenced by object, not by name',
});

/**
 * A prop that takes a construct of `kind` (a channel, a folder), recognised by its brand and
 * kind ({@link isResourceOf}), so this module need not import the construct's class.
 */
export function resourceRefSchema<T>(kind: ResourceKind, message: string) {
  return z.custom<T>((v) => isResourceOf(v, kind), { message });
}

export const permissionSchema = z.custom<PermissionValue>(
  (v) => isGroupReference(v) || Permission.isPermission(v),
  {
    message:
      'expected a SystemGroup (such as SystemGroup.ADMINISTRATORS), a UserGroup construct or Permission.anyOf({users, groups})',
  },
);

/** One optional permission prop per name (`canSendMessageGroup`...), to spread into a props schema. */
export function permissionShape<K extends string>(names: readonly K[]) {
  return Object.fromEntries(names.map((n) => [n, permissionSchema.optional()])) as Record<
    K,
    z.ZodOptional<typeof permissionSchema>
  >;
}

/** The lifecycle options of a kind, to spread into its props schema. */
export function lifecycleShape(kind: ResourceKind) {
  return {
    protect: z.boolean().optional(),
    ignoreChanges: z.array(z.enum(KIND_SPECS[kind].ignorable as readonly string[])).optional(),
    renamedFrom: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
  };
}

/**
 * The props schema of a kind whose props are the fields of its desired entry: that entry's
 * schema without `path` and `lifecycle`, with `overrides` where the construct takes something
 * else (a construct where the entry has its name), and the lifecycle options.
 */
export function propsSchema(
  kind: ResourceKind,
  desired: z.ZodObject,
  overrides: z.ZodRawShape = {},
): z.ZodObject {
  const { path: _path, lifecycle: _lifecycle, ...own } = desired.shape;
  return z.strictObject({ ...own, ...overrides, ...lifecycleShape(kind) });
}

/** The props among `names` that are set, to spread into a desired entry (absent stays absent). */
export function definedProps<P extends object, K extends keyof P>(
  props: P,
  names: readonly K[],
): { [N in K]?: Exclude<P[N], undefined> } {
  const out: { [N in K]?: Exclude<P[N], undefined> } = {};
  for (const n of names) if (props[n] !== undefined) out[n] = props[n] as Exclude<P[K], undefined>;
  return out;
}

/** The closest known name, if it is close enough to be a typo. */
export function suggest(name: string, known: readonly string[]): string | undefined {
  return closest(name, known, Math.max(2, Math.floor(name.length / 3)))[0];
}

function describePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/**
 * Validates `props` against a strict schema; returns one message per problem, each saying
 * which property and how to fix it.
 */
export function checkProps(
  schema: z.ZodObject,
  props: unknown,
  what: string,
): { ok: true } | { ok: false; problems: string[]; onlyUnknownKeys: boolean } {
  if (props === null || typeof props !== 'object') {
    return { ok: false, problems: [`${what} props must be an object`], onlyUnknownKeys: false };
  }
  const result = schema.safeParse(props);
  if (result.success) return { ok: true };
  const onlyUnknownKeys = result.error.issues.every((i) => i.code === 'unrecognized_keys');
  const known = Object.keys(schema.shape);
  const problems: string[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const nested = issue.path.length > 0 ? `${describePath(issue.path)}.` : '';
        const hint = issue.path.length === 0 ? suggest(key, known) : undefined;
        problems.push(
          `unknown property '${nested}${key}' in ${what} props: ${
            hint ? `did you mean '${hint}'?` : 'remove it or check its spelling'
          }`,
        );
      }
      continue;
    }
    const where = issue.path.length > 0 ? `property '${describePath(issue.path)}'` : 'props';
    problems.push(`${where}: ${issue.message}`);
  }
  return { ok: false, problems, onlyUnknownKeys };
}
