/**
 * `plan --target`: a kind (`channel`: every object of the kind) or one object's address
 * (`channel["general"]`, `channelFolder["*"]` for a kind's order). A target that names nothing
 * is a mistake, never "no changes": a plan limited to it would be empty, and a pipeline that
 * reads an empty plan as "the organization matches" would pass (Terraform refuses a target
 * that is not an address as well).
 */
import { parseResourceAddress, resourceAddress } from '../model/address';
import type { DesiredState } from '../model/desired-state';
import { ZulipCdkError } from '../model/errors';
import { KIND_SPECS, RESOURCE_KINDS } from '../model/kinds';
import type { ResourceKind } from '../model/kinds';
import type { LiveState } from '../model/live-state';
import { closest } from '../model/spelling';

const HINT =
  'A target is a kind (channel, userGroup, ...) or an address as the plan shows it, such as channel["general"] or user["ada@example.com"].';

function isKind(s: string): s is ResourceKind {
  return (RESOURCE_KINDS as readonly string[]).includes(s);
}

function meant(word: string, candidates: Iterable<string>): string {
  const near = closest(word, candidates, 2);
  return near.length > 0 ? ` (did you mean ${near.map((n) => `'${n}'`).join(' or ')}?)` : '';
}

/** What is wrong with a target's form, or undefined: checked before anything is read. */
function formProblem(target: string): string | undefined {
  if (isKind(target)) return undefined;
  const parsed = parseResourceAddress(target);
  if (!parsed) {
    // Most likely a kind mistyped.
    return /^[a-zA-Z]+$/.test(target)
      ? `'${target}' is not a kind${meant(target, RESOURCE_KINDS)}; the kinds are ${RESOURCE_KINDS.join(', ')}`
      : `'${target}' is neither a kind nor an address such as channel["general"] (the key in double quotes, as JSON writes it)`;
  }
  if (!isKind(parsed.kind))
    return `'${target}': '${parsed.kind}' is not a kind${meant(parsed.kind, RESOURCE_KINDS)}`;
  return undefined;
}

function refuse(problems: readonly string[]): never {
  throw new ZulipCdkError(
    'INVALID_ARGUMENT',
    `--target names nothing to plan:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    { hint: HINT },
  );
}

/** Refuses targets that are neither a kind nor an address of one (before the organization is read). */
export function checkTargetForms(targets: readonly string[]): void {
  const problems = targets.flatMap((t) => formProblem(t) ?? []);
  if (problems.length > 0) refuse(problems);
}

/** The natural keys of every object of `kind` the configuration declares or the organization has. */
function knownKeys(kind: ResourceKind, desired: DesiredState, live: LiveState): string[] {
  switch (kind) {
    case 'user':
      return [...desired.users.map((d) => d.email), ...live.users.map((l) => l.email)];
    case 'subscriptionSettings':
      return [
        ...desired.subscriptionSettings.map((d) => d.channel),
        ...live.channels.map((l) => l.name),
      ];
    case 'organizationSettings':
    case 'defaultUserSettings':
      return ['organization'];
    default: {
      const spec = KIND_SPECS[kind];
      const facts = spec.keyed as
        { key: (d: unknown) => string; liveKey: (l: unknown) => string } | undefined;
      if (!facts) return [];
      const declared = desired[spec.collection as keyof DesiredState] as unknown;
      const found = live[spec.collection as keyof LiveState] as unknown;
      return [
        ...(Array.isArray(declared) ? declared.map((d) => facts.key(d)) : []),
        ...(Array.isArray(found) ? found.map((l) => facts.liveKey(l)) : []),
      ];
    }
  }
}

/**
 * Refuses targets that name nothing: a form that is neither a kind nor an address, a kind that
 * does not exist, or an object neither declared nor in the organization (with the closest
 * addresses). `kind["*"]` is the order of an ordered kind.
 */
export function checkTargets(
  targets: readonly string[],
  desired: DesiredState,
  live: LiveState,
): void {
  const problems: string[] = [];
  for (const t of targets) {
    const form = formProblem(t);
    if (form !== undefined) {
      problems.push(form);
      continue;
    }
    const parsed = parseResourceAddress(t);
    if (!parsed || !isKind(parsed.kind)) continue;
    const kind = parsed.kind;
    const spec = KIND_SPECS[kind];
    if (parsed.key === '*' && spec.ordered) continue;
    const keys = knownKeys(kind, desired, live);
    const wanted = spec.compareKey(parsed.key);
    if (keys.some((k) => spec.compareKey(k) === wanted)) continue;
    const near = closest(parsed.key, new Set(keys), 3).map((k) => resourceAddress(kind, k));
    problems.push(
      `'${t}': no ${spec.nouns[0]} with that ${kind === 'user' ? 'address' : 'name'} is declared or in the organization${near.length > 0 ? ` (did you mean ${near.join(' or ')}?)` : ''}`,
    );
  }
  if (problems.length > 0) refuse(problems);
}

/**
 * Whether an address is one a plan limited to `targets` keeps: a target is the address itself,
 * its kind, or the same object by its kind's comparison (channel names are case-insensitive in
 * Zulip, as {@link checkTargets} finds them). The targets are parsed once.
 */
export function targetMatcher(targets: readonly string[]): (address: string) => boolean {
  const exact = new Set(targets);
  const kinds = new Set(targets.filter(isKind));
  const byKind = new Map<string, Set<string>>();
  for (const t of targets) {
    const parsed = parseResourceAddress(t);
    if (!parsed || !isKind(parsed.kind)) continue;
    const keys = byKind.get(parsed.kind) ?? new Set<string>();
    keys.add(KIND_SPECS[parsed.kind].compareKey(parsed.key));
    byKind.set(parsed.kind, keys);
  }
  return (address) => {
    if (exact.has(address)) return true;
    const parsed = parseResourceAddress(address);
    if (parsed === undefined || !isKind(parsed.kind)) return false;
    if (kinds.has(parsed.kind)) return true;
    return byKind.get(parsed.kind)?.has(KIND_SPECS[parsed.kind].compareKey(parsed.key)) === true;
  };
}
