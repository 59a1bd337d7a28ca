import { z } from 'zod';
import { IGNORABLE_PROPERTIES } from '../model/ignorable';
import type { ResourceKind } from '../model/kinds';
import { Permission, isGroupReference } from './permission';
import type { GroupReference, PermissionValue } from './permission';

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

export const permissionSchema = z.custom<PermissionValue>(
  (v) => isGroupReference(v) || Permission.isPermission(v),
  {
    message:
      'expected a SystemGroup (such as SystemGroup.ADMINISTRATORS), a UserGroup construct or Permission.anyOf({users, groups})',
  },
);

/** The lifecycle options of a kind, to spread into its props schema. */
export function lifecycleShape(kind: ResourceKind) {
  return {
    protect: z.boolean().optional(),
    ignoreChanges: z.array(z.enum(IGNORABLE_PROPERTIES[kind] as readonly string[])).optional(),
    renamedFrom: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
  };
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((row[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, prev + cost);
      prev = tmp;
    }
  }
  return row[b.length] ?? 0;
}

/** The closest known name, if it is close enough to be a typo. */
export function suggest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(name.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = k;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3))
    ? best
    : undefined;
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
