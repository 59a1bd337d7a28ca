import type { DesiredState } from '../model/desired-state';
import { parseResourceAddress } from '../model/address';
import { RESOURCE_KINDS } from '../model/kinds';
import type { ResourceKind } from '../model/kinds';
import { canonicalJson } from './digest';
import type {
  Change,
  IgnoredDrift,
  MembershipChange,
  Origin,
  PlanWarning,
  PropertyChange,
} from './plan-format';

/**
 * `plan --base`: which differences a pull request makes, and which are drift (the organization
 * changed by hand). A difference is the pull request's when planning the base branch's
 * configuration against the same organization does not give it; when it does (same property,
 * same value to set; same member added or removed; the same change), the base branch already
 * says so, and applying reverts what was done by hand.
 */

type MemberLike = { readonly email?: string; readonly name?: string };

const memberKey = (m: MemberLike): string =>
  m.email !== undefined ? `u:${m.email.toLowerCase()}` : `g:${m.name ?? ''}`;

function overall(origins: readonly Origin[]): Origin | 'mixed' {
  if (origins.length === 0 || origins.every((o) => o === 'change')) return 'change';
  return origins.every((o) => o === 'drift') ? 'drift' : 'mixed';
}

/** A change without what says nothing of the difference itself (ids, order, labels). */
function essence(c: Change): string {
  const { dependsOn: _d, tags: _t, path: _p, origin: _o, ...rest } = stripOrigins(c);
  return canonicalJson(rest);
}

/** Each change of `changes` with its origin (and its properties' and members'). */
export function markOrigins(changes: readonly Change[], baseChanges: readonly Change[]): Change[] {
  const base = new Map(baseChanges.map((c) => [c.id, c]));
  return changes.map((c): Change => {
    const b = base.get(c.id);
    if (c.action === 'update') {
      const was = new Map(
        b?.action === 'update' ? b.properties.map((p) => [p.property, canonicalJson(p.after)]) : [],
      );
      const properties = c.properties.map((p): PropertyChange => ({
        ...p,
        origin: was.get(p.property) === canonicalJson(p.after) ? 'drift' : 'change',
      }));
      return { ...c, properties, origin: overall(properties.map((p) => p.origin!)) };
    }
    if (c.action === 'membership') {
      const bm = b?.action === 'membership' ? b : undefined;
      const mark = <T extends MemberLike>(
        list: readonly T[],
        baseList: readonly MemberLike[] | undefined,
      ): (T & { origin: Origin })[] => {
        const there = new Set((baseList ?? []).map(memberKey));
        return list.map((m) => ({ ...m, origin: there.has(memberKey(m)) ? 'drift' : 'change' }));
      };
      const marked: MembershipChange = {
        ...c,
        add: mark(c.add, bm?.add),
        remove: mark(c.remove, bm?.remove),
        addSubgroups: mark(c.addSubgroups, bm?.addSubgroups),
        removeSubgroups: mark(c.removeSubgroups, bm?.removeSubgroups),
      };
      const all = [
        ...marked.add,
        ...marked.remove,
        ...marked.addSubgroups,
        ...marked.removeSubgroups,
      ].map((m) => m.origin ?? 'change');
      return { ...marked, origin: overall(all) };
    }
    const same = b !== undefined && essence(b) === essence(c);
    return { ...c, origin: same ? 'drift' : 'change' };
  });
}

/** The change without any origin (what the plan's digest and apply's comparisons look at). */
export function stripOrigins(c: Change): Change {
  if (c.origin === undefined) return c;
  const { origin: _o, ...rest } = c;
  if (rest.action === 'update')
    return {
      ...rest,
      properties: rest.properties.map(({ origin: _p, ...p }) => p),
    };
  if (rest.action === 'membership') {
    const strip = <T extends { origin?: Origin | undefined }>(
      xs: readonly T[],
    ): Omit<T, 'origin'>[] => xs.map(({ origin: _m, ...m }) => m);
    return {
      ...rest,
      add: strip(rest.add),
      remove: strip(rest.remove),
      addSubgroups: strip(rest.addSubgroups),
      removeSubgroups: strip(rest.removeSubgroups),
    };
  }
  return rest;
}

/** The desired state with every `ignoreChanges` dropped: what the plan would be without them. */
export function withoutIgnoreChanges(desired: DesiredState): DesiredState {
  const copy = JSON.parse(JSON.stringify(desired)) as Record<string, unknown>;
  for (const value of Object.values(copy)) {
    if (!Array.isArray(value)) continue;
    for (const item of value as { lifecycle?: { ignoreChanges?: unknown } }[])
      if (item.lifecycle?.ignoreChanges !== undefined) delete item.lifecycle.ignoreChanges;
  }
  return copy as DesiredState;
}

const show = (v: unknown): string => JSON.stringify(v);

/**
 * What the plan leaves alone: differences that appear only when `ignoreChanges` is dropped
 * (`unignored`, the changes of that plan), and undeclared objects (the plan's `UNDECLARED`
 * warnings).
 */
export function ignoredDrift(
  changes: readonly Change[],
  unignored: readonly Change[],
  warnings: readonly PlanWarning[],
): IgnoredDrift[] {
  const out: IgnoredDrift[] = [];
  const planned = new Map(changes.map((c) => [c.id, c]));
  for (const u of unignored) {
    const c = planned.get(u.id);
    const at = { reason: 'ignoreChanges' as const, kind: u.kind, address: u.address, path: u.path };
    if (u.action === 'update') {
      const have = new Set(c?.action === 'update' ? c.properties.map((p) => p.property) : []);
      for (const p of u.properties)
        if (!have.has(p.property))
          out.push({
            ...at,
            property: p.property,
            before: p.before,
            after: p.after,
            message: `${p.property} is ${show(p.before)} in the organization; the configuration says ${show(p.after)} but ignores it`,
          });
      continue;
    }
    if (u.action === 'membership') {
      const m = c?.action === 'membership' ? c : undefined;
      const keys = (xs: readonly MemberLike[]): Set<string> => new Set(xs.map(memberKey));
      const madd = keys([...(m?.add ?? []), ...(m?.addSubgroups ?? [])]);
      const mremove = keys([...(m?.remove ?? []), ...(m?.removeSubgroups ?? [])]);
      const name = (x: MemberLike): string => x.email ?? `group ${x.name ?? ''}`;
      const add = [...u.add, ...u.addSubgroups].filter((x) => !madd.has(memberKey(x))).map(name);
      const remove = [...u.remove, ...u.removeSubgroups]
        .filter((x) => !mremove.has(memberKey(x)))
        .map(name);
      if (add.length + remove.length > 0)
        out.push({
          ...at,
          property: u.collection,
          add,
          remove,
          message: `${u.collection} differ from the configuration, which ignores them (${[
            add.length > 0 ? `it would add ${add.join(', ')}` : '',
            remove.length > 0 ? `it would remove ${remove.join(', ')}` : '',
          ]
            .filter(Boolean)
            .join('; ')})`,
        });
      continue;
    }
    if (!c)
      out.push({
        ...at,
        message: `the configuration ignores what would make this ${u.action} (${u.id})`,
      });
  }
  for (const w of warnings) {
    if (w.code !== 'UNDECLARED' || w.address === undefined) continue;
    const kind = parseResourceAddress(w.address)?.kind;
    if (!(RESOURCE_KINDS as readonly string[]).includes(kind ?? '')) continue;
    out.push({
      reason: 'undeclared',
      kind: kind as ResourceKind,
      address: w.address,
      path: null,
      message: w.message,
    });
  }
  return out;
}

/** A plan's changes in the sections of `plan --base`: the pull request's, and reverted drift. */
export interface ChangesByOrigin {
  /** What the pull request changes (each change with only its `change` properties and members). */
  readonly change: Change[];
  /** What applying reverts of changes made by hand (only the `drift` properties and members). */
  readonly drift: Change[];
}

/**
 * Splits the changes of a plan made with `--base` by origin; a `mixed` change appears in both
 * sections, each with its own properties or members. Undefined for a plan without origins.
 */
export function changesByOrigin(changes: readonly Change[]): ChangesByOrigin | undefined {
  if (!changes.some((c) => c.origin !== undefined)) return undefined;
  const part = (c: Change, o: Origin): Change | undefined => {
    if (c.origin === o) return c;
    if (c.origin !== 'mixed') return undefined;
    if (c.action === 'update')
      return { ...c, properties: c.properties.filter((p) => p.origin === o) };
    if (c.action === 'membership')
      return {
        ...c,
        add: c.add.filter((m) => m.origin === o),
        remove: c.remove.filter((m) => m.origin === o),
        addSubgroups: c.addSubgroups.filter((m) => m.origin === o),
        removeSubgroups: c.removeSubgroups.filter((m) => m.origin === o),
      };
    return undefined;
  };
  const pick = (o: Origin): Change[] =>
    changes.map((c) => part(c, o)).filter((c): c is Change => c !== undefined);
  return { change: pick('change'), drift: pick('drift') };
}

/** The headings of the `--base` sections, shared by the text and Markdown plans. */
export const ORIGIN_SECTIONS = {
  change: 'Changes of this pull request',
  drift: 'Drift that applying reverts (changed in Zulip by hand; the base branch says the same)',
  ignored: 'Drift left alone (ignoreChanges, undeclared objects)',
} as const;
