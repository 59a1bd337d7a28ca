/**
 * The pieces of planning that every keyed kind shares: matching a declared object to the live
 * one it manages (by natural key, else through `renamedFrom`), and the slot order of the kinds
 * whose declaration order is Zulip's order (folders, linkifiers).
 */
import type { Lifecycle } from '../../model/desired-state';
import { KIND_SPECS } from '../../model/kinds';
import type { ResourceKind } from '../../model/kinds';
import { resourceAddress } from '../../model/address';
import type { ReorderChange } from '../plan-format';

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

  public constructor(private readonly kind: 'channelFolder' | 'linkifier' | 'customProfileField') {}

  /** A declared object: live (`id`) or created now (`null`). */
  public declare(key: string, id: number | null, lifecycle: Lifecycle | undefined): void {
    const entry = { key, id };
    if (id === null) this.created.push(entry);
    else this.liveEntries.set(id, entry);
    if (!ignoresOrder(lifecycle)) this.declaredOrder.push(entry);
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
