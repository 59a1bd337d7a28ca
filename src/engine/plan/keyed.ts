/**
 * The generic keyed planner ({@link planKeyed}), used by every kind whose objects have a natural
 * key: it matches a declared object to the live one it manages (by natural key, else through
 * `renamedFrom`), creates, renames, removes or restores, diffs properties into an update (or a
 * replace), says what is undeclared (pruning it when asked) and puts ordered kinds in order.
 * What it knows of a kind is its `KindSpec` (`KIND_SPECS[kind].keyed`: keys, the declared and
 * live objects in the same terms, which properties update and which replace) and a
 * {@link KeyedPlan}: where the kind's objects are, and the hooks of what only that kind does
 * (a channel's permissions and subscribers, a group's members).
 */
import type { Lifecycle } from '../../model/desired-state';
import { KIND_SPECS } from '../../model/kinds';
import type { KeyedFacts, KeyedKind, KindSpec, ResourceKind } from '../../model/kinds';
import { resourceAddress } from '../../model/address';
import type { FeatureName } from '../../model/features';
import type { JsonValue, PropertyChange, ReorderChange } from '../plan-format';
import type { ChangeMeta } from '../plan-finish';
import type { ChangeBase, Planner, Props, RenamedBy } from './planner';
import { isIgnored, jsonEqual } from './planner';

/** The live object a declared one manages, and whether it was found through `renamedFrom`. */
export interface LiveMatch<L> {
  readonly live: L | undefined;
  readonly renamed: boolean;
}

/**
 * Finds the live object a declared object of `kind` manages: the one with its key, else the
 * first of its `renamedFrom` names that is live, is not itself declared (a declared name is its
 * own object) and is not already `claimed` by another declaration. Keys are compared with the
 * kind's `compareKey` (`KIND_SPECS[kind].compareKey`): `live` and `declared` are keyed by
 * compared keys.
 */
export function matchLive<L>(
  kind: ResourceKind,
  key: string,
  renamedFrom: readonly string[] | undefined,
  live: { get(key: string): L | undefined },
  declared: { has(key: string): boolean },
  claimed: (l: L) => boolean = () => false,
): LiveMatch<L> {
  const compare = KIND_SPECS[kind].compareKey;
  const l = live.get(compare(key));
  if (l) return { live: l, renamed: false };
  for (const from of renamedFrom ?? []) {
    const k = compare(from);
    if (declared.has(k)) continue;
    const candidate = live.get(k);
    if (candidate && !claimed(candidate)) return { live: candidate, renamed: true };
  }
  return { live: undefined, renamed: false };
}

/** One object in a kind's order: its natural key and live ID (null when the plan creates it). */
export type OrderEntry = { key: string; id: number | null };

/**
 * The full order to send, as a slot merge, or undefined when it is the order Zulip will have
 * anyway. `current` is that order: the live objects left after the deletes, in live order, then
 * the objects this plan creates (Zulip appends them). `declared` are the entries of `current`
 * the configuration orders, in declaration order. Every other entry (undeclared live objects,
 * archived or pruned folders, objects whose `order` is in `ignoreChanges`) keeps its slot; the
 * declared entries are permuted among the remaining slots into declaration order. Entries are
 * compared by identity.
 */
export function arrangeOrder(
  current: readonly OrderEntry[],
  declared: readonly OrderEntry[],
): OrderEntry[] | undefined {
  const moving = new Set(declared);
  let next = 0;
  const final = current.map((e) => (moving.has(e) ? (declared[next++] ?? e) : e));
  return final.every((e, i) => e === current[i]) ? undefined : final;
}

const ignoresOrder = (lc: Lifecycle | undefined): boolean =>
  lc?.ignoreChanges?.includes('order') === true;

/**
 * Collects the order of an ordered kind while its objects are planned, then gives the
 * `reorder` change that puts the declared ones in declaration order (see {@link arrangeOrder}).
 */
export class SlotOrder {
  /** Live ID → its entry in the order. */
  private readonly liveEntries = new Map<number, OrderEntry>();
  /** Created objects, in declaration order (Zulip appends them). */
  private readonly created: OrderEntry[] = [];
  /** Declared objects whose order is managed, in declaration order. */
  private readonly declaredOrder: OrderEntry[] = [];

  public constructor(private readonly kind: OrderedKind) {}

  /** A declared object: live (`id`) or created now (`null`). */
  public declare(key: string, id: number | null, lifecycle: Lifecycle | undefined): void {
    const entry = { key, id };
    if (id === null) this.created.push(entry);
    else this.liveEntries.set(id, entry);
    if (!ignoresOrder(lifecycle)) this.declaredOrder.push(entry);
  }

  /** A declared live object the plan replaces: the new one is appended, like a created one. */
  public replaced(id: number): void {
    const entry = this.liveEntries.get(id);
    if (!entry) return;
    this.liveEntries.delete(id);
    entry.id = null;
    this.created.push(entry);
  }

  /** An undeclared live object that stays: it keeps its slot. */
  public keep(key: string, id: number): void {
    this.liveEntries.set(id, { key, id });
  }

  /**
   * The reorder change, or undefined when the order after the plan is already the declared
   * one. `live` is the live objects in live order; `before` their keys.
   */
  public reorder(
    live: readonly { id: number }[],
    before: string[],
    path: string,
  ): Omit<ReorderChange, 'tags'> | undefined {
    const current = [...live.flatMap((l) => this.liveEntries.get(l.id) ?? []), ...this.created];
    const final = arrangeOrder(current, this.declaredOrder);
    if (!final) return undefined;
    const address = resourceAddress(this.kind, '*');
    return {
      id: `${address}#reorder`,
      action: 'reorder',
      kind: this.kind,
      address,
      key: '*',
      path,
      dependsOn: [],
      before,
      after: final,
    };
  }
}

/** The kinds the generic keyed planner plans: those whose spec has `keyed` facts. */
export type { KeyedKind };

/** What every declared object has. */
export interface DeclaredObject {
  readonly path: string;
  readonly lifecycle?: Lifecycle | undefined;
}

/**
 * The declared objects with their `renamedFrom` keys trimmed, for a kind whose keys Zulip
 * strips (linkifier patterns, field labels): a `renamedFrom` key names what Zulip stored.
 */
export function trimRenames<D extends DeclaredObject>(declared: readonly D[]): D[] {
  return declared.map((d) =>
    d.lifecycle?.renamedFrom
      ? {
          ...d,
          lifecycle: { ...d.lifecycle, renamedFrom: d.lifecycle.renamedFrom.map((f) => f.trim()) },
        }
      : d,
  );
}

/** The base of every change of one declared object of a keyed kind. */
export type KeyedBase = ChangeBase & { kind: KeyedKind; path: string };

/** What a hook adds to a create or an update: the change's meta, and what follows it. */
export interface HookResult {
  readonly meta?: ChangeMeta;
  /** Runs after the change is added (a group's members follow its create). */
  readonly then?: () => void;
}

/**
 * Where a keyed kind's objects are, and what only that kind does, for {@link planKeyed}. All
 * hooks are optional: a kind made only of properties (linkifiers, playgrounds, snippets) needs
 * none.
 */
export interface KeyedPlan<D extends DeclaredObject, L extends { readonly id: number }> {
  readonly kind: KeyedKind;
  /** The declared objects, in declaration order; default: the kind's desired collection. */
  readonly declared?: (p: Planner) => readonly D[];
  /**
   * The live objects, in live order: those matched, said undeclared, and ordered; default: the
   * kind's live collection.
   */
  readonly live?: (p: Planner) => readonly L[];
  /** Live objects that are never undeclared (system groups, archived channels). */
  readonly unmanaged?: (l: L) => boolean;
  /** The live objects by compared key; default: the first of each key. */
  readonly index?: (p: Planner, live: readonly L[]) => ReadonlyMap<string, L>;
  /** The match of a declared object, when the planner made it already (`matchAll`). */
  readonly match?: (p: Planner, d: D, key: string) => L | undefined;
  /** False leaves the declared object out (the hook said why). */
  readonly check?: (p: Planner, d: D, base: KeyedBase) => boolean;
  /** False leaves a rename out (the hook said why: Zulip cannot rename that object). */
  readonly rename?: (p: Planner, d: D, l: L, base: KeyedBase) => boolean;
  /** A declared object declared removed that does not exist; default: ARCHIVED_NOT_FOUND. */
  readonly notFound?: (p: Planner, d: D, base: KeyedBase) => void;
  /** The rest of a create (`props` as it will be sent can be completed) and its meta. */
  readonly create?: (p: Planner, d: D, base: KeyedBase, props: Props) => HookResult | undefined;
  /** The rest of an update (after the diff of the spec's `updatable`) and its meta. */
  readonly update?: (
    p: Planner,
    d: D,
    l: L,
    base: KeyedBase,
    props: PropertyChange[],
  ) => HookResult | undefined;
  /** False when the live object cannot be compared for a replace (the hook said why). */
  readonly comparable?: (p: Planner, d: D, l: L, base: KeyedBase) => boolean;
  /** Runs when the plan removes (or replaces) a live object: declared, pruned or replaced. */
  readonly removing?: (
    p: Planner,
    l: L,
    base: Omit<KeyedBase, 'path'> & { path: string | null },
  ) => void;
  /** A restore the server may lack (`reactivate` of a group, `unarchive` of a channel). */
  readonly restoreNeeds?: { feature: FeatureName; what: string; hint?: string };
  /** True when a removed object's other properties are still diffed (a folder's description). */
  readonly diffsRemoved?: boolean;
  /** How a replace is described in a PROTECTED finding (`delete and re-create`). */
  readonly replaceIs?: string;
  /** What a removal shows as `before`, when it needs more than the live object (channel names). */
  readonly removed?: (p: Planner, l: L) => Props;
  /** The key an undeclared live object is said under (a duplicate's own address). */
  readonly undeclaredKey?: (p: Planner, l: L) => string;
  /** Runs after the declared objects, before the undeclared ones. */
  readonly afterDeclared?: (p: Planner) => void;
  /** What is done with the reorder of an ordered kind; default: added. */
  readonly reorder?: (p: Planner, change: Omit<ReorderChange, 'tags'>) => void;
}

const RESTORE = { archive: 'unarchive', deactivate: 'reactivate' } as const;

/** The first live object of each compared key. */
function firstOfEachKey<L>(live: readonly L[], key: (l: L) => string): Map<string, L> {
  const out = new Map<string, L>();
  for (const l of live) {
    const k = key(l);
    if (!out.has(k)) out.set(k, l);
  }
  return out;
}

/**
 * Plans one keyed kind: for each declared object, in declaration order, its create, or its
 * rename, removal or restore, update or replace; then the live objects nothing declares
 * (removed when pruning is on, else an UNDECLARED warning), then the order of an ordered kind.
 * Returns, for each declared object planned, the live object it is after the plan (null: one
 * the plan creates, or replaces by a new one).
 */
export function planKeyed<D extends DeclaredObject, L extends { readonly id: number }>(
  p: Planner,
  k: KeyedPlan<D, L>,
): ReadonlyMap<D, L | null> {
  const kind = k.kind;
  const spec: KindSpec = KIND_SPECS[kind];
  const facts = spec.keyed as unknown as KeyedFacts<D, L>;
  const compare = spec.compareKey;
  const collection = KIND_SPECS[kind].collection;
  const declared = k.declared?.(p) ?? (p.desired[collection] as unknown as readonly D[]);
  const live = k.live?.(p) ?? (p.live[collection] as unknown as readonly L[]);
  const byKey = k.match
    ? undefined
    : (k.index?.(p, live) ?? firstOfEachKey(live, (l) => compare(facts.liveKey(l))));
  const declaredKeys = new Set(declared.map((d) => compare(facts.key(d))));
  // The live keys declarations name in renamedFrom: a live object under one that stays
  // unclaimed (its declaration's own name is live, and matched first) was meant to be renamed.
  const renamedBy = new Map<string, D>();
  if (facts.followsRenames)
    for (const d of declared)
      for (const from of d.lifecycle?.renamedFrom ?? [])
        if (!renamedBy.has(compare(from))) renamedBy.set(compare(from), d);
  const claimed = new Set<number>();
  /** The live key each declaration matched (its own, or the renamedFrom name it renames). */
  const matchedKey = new Map<D, string>();
  const after = new Map<D, L | null>();
  const order = spec.ordered ? new SlotOrder(kind as OrderedKind) : undefined;
  const renames = (spec.actions as readonly string[]).includes('rename');
  const removal =
    spec.removal === 'archive' || spec.removal === 'deactivate' ? spec.removal : undefined;
  for (const d of declared) {
    const key = facts.key(d);
    const address = resourceAddress(kind, key);
    const base: KeyedBase = { kind, address, key, path: d.path };
    if (k.check && !k.check(p, d, base)) continue;
    const lc = d.lifecycle;
    const l = byKey
      ? matchLive(
          kind,
          key,
          facts.followsRenames ? lc?.renamedFrom : undefined,
          byKey,
          declaredKeys,
          (c) => claimed.has(c.id),
        ).live
      : k.match?.(p, d, key);
    const flag = facts.removedFlag;
    const removedDeclared = flag !== undefined && (d as Record<string, unknown>)[flag] === true;
    if (!l) {
      if (removedDeclared) {
        if (k.notFound) k.notFound(p, d, base);
        else p.removedNotFound(flag, address, d.path);
        continue;
      }
      const props: Props = { ...(facts.created ?? facts.desired)(d, p.fl) } as Props;
      const r = k.create?.(p, d, base, props);
      p.addCreate(base, props, r?.meta);
      order?.declare(key, null, lc);
      after.set(d, null);
      r?.then?.();
      continue;
    }
    claimed.add(l.id);
    matchedKey.set(d, facts.liveKey(l));
    order?.declare(key, l.id, lc);
    after.set(d, l);
    const renamed = compare(facts.liveKey(l)) !== compare(key);
    const rename = (): void => {
      if (renamed && renames && (k.rename?.(p, d, l, base) ?? true))
        p.addRename(base, l.id, facts.liveKey(l), key);
    };
    if (flag !== undefined && removal !== undefined) {
      rename();
      const liveRemoved = (l as unknown as Record<string, boolean>)[flag] === true;
      const wanted = isIgnored(lc, flag) ? liveRemoved : removedDeclared;
      p.addRemoveOrRestore(base, l.id, {
        live: liveRemoved,
        declared: wanted,
        protect: lc?.protect,
        remove: removal,
        restore: RESTORE[removal],
        ...(k.restoreNeeds ? { restoreNeeds: k.restoreNeeds } : {}),
        before: k.removed?.(p, l) ?? ((facts.removed ?? facts.live)(l) as Props),
      });
      if (wanted && !liveRemoved && lc?.protect !== true) k.removing?.(p, l, base);
      if (wanted && k.diffsRemoved !== true) continue;
    }
    const before = facts.live(l) as Props;
    const wantedProps = facts.desired(d, p.fl) as Props;
    if (facts.replaces.length > 0) {
      if (k.comparable && !k.comparable(p, d, l, base)) continue;
      const differs =
        facts.replaces.some(
          (name) => !isIgnored(lc, name) && !jsonEqual(before[name], wantedProps[name]),
        ) || facts.replacedWhen?.(d, l) === true;
      if (differs) {
        // A replace makes the object anew under its declared key: no rename before it.
        if (lc?.protect) {
          p.protectedFinding(address, d.path, `replace (${k.replaceIs ?? 'delete and re-create'})`);
          continue;
        }
        k.removing?.(p, l, base);
        p.add({
          ...base,
          id: `${address}#replace`,
          action: 'replace',
          dependsOn: [],
          liveId: l.id,
          before,
          after: (facts.created ?? facts.desired)(d, p.fl) as Props,
        });
        order?.replaced(l.id);
        after.set(d, null);
        continue;
      }
    }
    if (flag === undefined || removal === undefined) rename();
    const fixed = facts.fixed?.(l) ?? [];
    const props: PropertyChange[] = [];
    for (const name of facts.updatable) {
      if (renamed && name === facts.keyProperty) continue;
      if (!(name in before) || !(name in wantedProps) || fixed.includes(name)) continue;
      p.prop(props, lc, name, before[name] as JsonValue, wantedProps[name] as JsonValue);
    }
    const r = k.update?.(p, d, l, base, props);
    p.addUpdate(base, l.id, props, r?.meta);
    r?.then?.();
  }
  k.afterDeclared?.(p);
  /** The declaration whose renamedFrom names a live object left over, and what it took instead. */
  const meantBy = (d: D | undefined): RenamedBy | undefined => {
    if (d === undefined) return undefined;
    const took = matchedKey.get(d);
    const renames = took !== undefined && compare(took) !== compare(facts.key(d));
    return {
      path: d.path,
      address: resourceAddress(kind, facts.key(d)),
      ...(renames ? { renames: { address: resourceAddress(kind, took), key: took } } : {}),
    };
  };
  for (const l of live) {
    if (claimed.has(l.id)) continue;
    const key = k.undeclaredKey?.(p, l) ?? facts.liveKey(l);
    if (k.unmanaged?.(l)) {
      order?.keep(key, l.id);
      continue;
    }
    const removed =
      spec.removal !== 'none' &&
      p.undeclared(
        kind,
        key,
        l.id,
        k.removed?.(p, l) ?? ((facts.removed ?? facts.live)(l) as Props),
        meantBy(renamedBy.get(compare(facts.liveKey(l)))),
      );
    if (removed) k.removing?.(p, l, { kind, address: resourceAddress(kind, key), key, path: null });
    // An object that stays keeps its slot; so does an archived one (Zulip's order lists it).
    if (!removed || spec.removal !== 'delete') order?.keep(key, l.id);
  }
  if (order) {
    const reorder = order.reorder(live, live.map(facts.liveKey), p.desired.organization.path);
    if (reorder && k.reorder) k.reorder(p, reorder);
    else if (reorder) p.add(reorder);
  }
  return after;
}

/** The kinds whose spec says `ordered: true`. */
type OrderedKind = {
  [K in ResourceKind]: (typeof KIND_SPECS)[K]['ordered'] extends true ? K : never;
}[ResourceKind];
