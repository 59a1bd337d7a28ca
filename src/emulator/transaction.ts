import { truncateSubscriptions } from './indexes';
import type { RequestContext } from './router';
import type { OrgState } from './state';

/**
 * Zulip's `transaction.atomic` over the emulated organization: a block that throws leaves the
 * organization as it found it, at a cost proportional to what the block changed, not to the
 * organization's size (a copy of 1,000,000 subscriptions per request made the bench's
 * incremental apply take minutes at 10,000 users).
 *
 * What a transaction keeps when it opens:
 * - the large collections ({@link JOURNALED}) by reference and length: elements added at their
 *   end are dropped on rollback; an element that exists already is copied by
 *   {@link beforeChange}, which every write to one inside a block must call first;
 * - a copy of everything else (the realm, the ID counter, folders, default channels, ...),
 *   small in any organization.
 *
 * `checkTransactions(true)` (the test suite's setup turns it on) also copies the whole
 * organization per block and reports, in {@link transactionProblems}, an element of a large
 * collection changed without `beforeChange` or a collection changed other than at its end, and
 * a rollback that does not give back the state before the block.
 */

/** The collections a transaction keeps by length and changed element, not by copy. */
const JOURNALED = ['users', 'groups', 'channels', 'subscriptions', 'messages'] as const;
type JournaledKey = (typeof JOURNALED)[number];

interface Transaction {
  readonly org: OrgState;
  /** Each large collection as it was: its array (absent: undefined) and its length. */
  readonly arrays: ReadonlyMap<
    JournaledKey,
    { readonly ref: object[] | undefined; readonly length: number }
  >;
  /** A copy of the organization's other top-level fields, and which fields there were. */
  readonly rest: Record<string, unknown>;
  readonly keys: ReadonlySet<string>;
  /** The elements changed in place, each with a copy from before its first change. */
  readonly saved: Map<object, Record<string, unknown>>;
  readonly events: number;
  /** In check mode: the whole organization before the block, and each element's position. */
  readonly check?: {
    readonly before: OrgState;
    readonly position: ReadonlyMap<object, [JournaledKey, number]>;
  };
}

/** Open transactions, innermost last (blocks are synchronous: one request at a time). */
const open: Transaction[] = [];

let checking = false;
const problems: string[] = [];

/** Turns the checks described above on or off (tests). */
export function checkTransactions(on: boolean): void {
  checking = on;
}

/** What the checks found since the last call, emptied by the call. */
export function transactionProblems(): string[] {
  return problems.splice(0);
}

/**
 * Whether two values of the organization (plain JSON) are equal, key order aside. Not
 * `util.isDeepStrictEqual`: it also compares prototypes, which differ between a test's realm
 * and the copies `structuredClone` makes.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && sameJson(ra[k], rb[k]));
}

/**
 * A deep copy of a value of the organization (plain JSON: objects, arrays, scalars; an
 * undefined field is kept), a few times faster than `structuredClone` for the small values a
 * transaction copies (it runs on every atomic request).
 */
function copyJson<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(copyJson) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = copyJson((v as Record<string, unknown>)[k]);
  return out as T;
}

function copyFields(obj: object): Record<string, unknown> {
  return copyJson(obj as Record<string, unknown>);
}

/** Puts saved fields back into the same object (its identity is kept: indexes share it). */
function restoreFields(obj: object, saved: Record<string, unknown>): void {
  const target = obj as Record<string, unknown>;
  const keys = Object.keys(target);
  const savedKeys = Object.keys(saved);
  // The same fields in the same order (the usual case): assigned, no field deleted.
  if (keys.length !== savedKeys.length || keys.some((k, i) => k !== savedKeys[i]))
    for (const k of keys) delete target[k];
  // The copies themselves go back: a transaction rolls back once.
  for (const [k, v] of Object.entries(saved)) target[k] = v;
}

/**
 * Call before changing, inside an {@link atomic} block, an object of the organization's large
 * collections that existed before the block (a user, group, channel, subscription row or
 * message): its fields are copied the first time, for a rollback. Outside a block it does
 * nothing. Returns the object.
 */
export function beforeChange<T extends object>(ctx: RequestContext, obj: T): T {
  const tx = open.at(-1);
  if (tx === undefined || tx.org !== ctx.org || tx.saved.has(obj)) return obj;
  if (tx.check !== undefined) {
    const at = tx.check.position.get(obj);
    const was = at && (tx.check.before[at[0]] as object[] | undefined)?.[at[1]];
    if (at && !sameJson(obj, was))
      problems.push(`${at[0]}[${at[1]}] was changed before beforeChange`);
  }
  tx.saved.set(obj, copyFields(obj));
  return obj;
}

function begin(ctx: RequestContext): Transaction {
  const org = ctx.org;
  const arrays = new Map<JournaledKey, { ref: object[] | undefined; length: number }>();
  for (const k of JOURNALED) {
    const ref = org[k] as object[] | undefined;
    arrays.set(k, { ref, length: ref?.length ?? 0 });
  }
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(org))
    if (!(JOURNALED as readonly string[]).includes(k)) rest[k] = v;
  let check: Transaction['check'];
  if (checking) {
    const position = new Map<object, [JournaledKey, number]>();
    for (const [k, { ref }] of arrays) ref?.forEach((x, i) => position.set(x, [k, i]));
    check = { before: structuredClone(org), position };
  }
  return {
    org,
    arrays,
    rest: copyJson(rest),
    keys: new Set(Object.keys(org)),
    saved: new Map(),
    events: ctx.events.length,
    ...(check === undefined ? {} : { check }),
  };
}

function rollback(tx: Transaction): void {
  const org = tx.org as unknown as Record<string, unknown>;
  for (const [obj, fields] of tx.saved) restoreFields(obj, fields);
  for (const k of Object.keys(org)) if (!tx.keys.has(k)) delete org[k];
  Object.assign(org, tx.rest);
  for (const [k, { ref, length }] of tx.arrays) {
    if (ref === undefined) {
      delete org[k];
      continue;
    }
    org[k] = ref;
    if (k === 'subscriptions') truncateSubscriptions(tx.org, length);
    else ref.length = length;
  }
}

/** Check mode: elements changed in place without `beforeChange`, collections not appended to. */
function checkJournal(tx: Transaction): void {
  const before = tx.check?.before;
  if (before === undefined) return;
  for (const [k, { ref, length }] of tx.arrays) {
    const now = tx.org[k] as object[] | undefined;
    const was = (before[k] as object[] | undefined) ?? [];
    if (now !== ref) problems.push(`${k} was replaced by another array`);
    for (let i = 0; i < length; i++) {
      const x = now?.[i];
      if (x === undefined || x !== ref?.[i]) {
        problems.push(`${k}[${i}] was removed or moved`);
        break;
      }
      if (!tx.saved.has(x) && !sameJson(x, was[i]))
        problems.push(`${k}[${i}] was changed without beforeChange`);
    }
  }
}

/**
 * Runs `fn` atomically, like Zulip's `transaction.atomic`: on any error the organization is
 * restored to what it was before, and the events the block queued are dropped. A block inside
 * a block is a savepoint: its rollback undoes only its own changes.
 */
export function atomic<T>(ctx: RequestContext, fn: () => T): T {
  const tx = begin(ctx);
  open.push(tx);
  try {
    const out = fn();
    checkJournal(tx);
    open.pop();
    // The enclosing block must be able to undo what this one did too.
    const outer = open.at(-1);
    if (outer?.org === tx.org)
      for (const [obj, fields] of tx.saved) if (!outer.saved.has(obj)) outer.saved.set(obj, fields);
    return out;
  } catch (e) {
    if (open.at(-1) === tx) {
      checkJournal(tx);
      open.pop();
    }
    rollback(tx);
    ctx.events.length = tx.events;
    if (tx.check !== undefined && !sameJson(tx.org, tx.check.before))
      problems.push('a rollback did not restore the organization');
    throw e;
  }
}
