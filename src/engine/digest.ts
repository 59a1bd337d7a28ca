import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, so the same data always gives the same bytes
 * (JSON.stringify keeps insertion order, which depends on who built the object).
 * `undefined` properties are dropped, as JSON.stringify does.
 *
 * The form is fixed (saved plans record digests of it): exactly `JSON.stringify` of a copy of
 * the value whose objects are plain objects with their own enumerable keys inserted in sorted
 * order (so integer-like keys still come first, in numeric order, as they do in any object).
 * It is written piece by piece instead of building that copy whole: at the largest sizes the
 * states hashed for a plan are 2 × 34 MB of JSON, and the copy was most of their digests' cost
 * and memory (issue 17). Lists of scalars are never copied; a list of objects is copied a batch
 * of elements at a time (then one native JSON.stringify per batch); another object whose values
 * are all scalars or lists of scalars is written by one `JSON.stringify(object, sortedKeys)`.
 */
export function canonicalJson(value: unknown): string {
  if (!isObject(value)) return JSON.stringify(value);
  let out = '';
  writeCanonical(value, (s, inner) => {
    out += inner ? s.slice(1, -1) : s;
  });
  return out;
}

/**
 * Where canonical JSON is written, a piece at a time (pieces end between JSON tokens). `inner`:
 * only what is inside the piece's first and last character (a batch of a list, written with
 * its brackets).
 */
type Sink = (piece: string, inner?: boolean) => void;

/**
 * SHA-256 (hex) of the canonical JSON of `value`, hashed as it is written (never whole): the
 * pieces are encoded into one reused buffer, which is hashed when full. No piece is copied to
 * be joined to others or cut (at the largest sizes the states are 2 × 34 MB of JSON, written
 * in batches of up to a few MB).
 */
export function sha256Json(value: unknown): string {
  const hash = createHash('sha256');
  if (!isObject(value)) return hash.update(JSON.stringify(value)).digest('hex');
  let buf = scratch;
  let at = 0;
  writeCanonical(value, (s, inner) => {
    // At most three UTF-8 bytes per UTF-16 code unit.
    const room = 3 * s.length;
    if (inner || at + room > buf.length) {
      hash.update(buf.subarray(0, at));
      at = 0;
      // A piece larger than the buffer (a list of a few MB in one piece): a larger buffer,
      // kept for the next pieces and digests up to MAX_SCRATCH (a buffer of its own per digest
      // was garbage still held when the plan ended, issue 17).
      if (room > buf.length) {
        buf = Buffer.allocUnsafe(Math.max(room, Math.min(2 * buf.length, MAX_SCRATCH)));
        if (buf.length <= MAX_SCRATCH) scratch = buf;
      }
    }
    const n = buf.write(s, at);
    if (inner) hash.update(buf.subarray(1, n - 1));
    else at += n;
  });
  return hash.update(buf.subarray(0, at)).digest('hex');
}

/** The digest a plan records for the desired state it was made from. */
export function desiredStateDigest(desired: unknown): string {
  return sha256Json(desired);
}

/** Bytes handed to the hash at a time, about. */
const CHUNK = 1 << 16;

/** The buffer {@link sha256Json} writes into (it is synchronous: one is enough). */
let scratch = Buffer.allocUnsafe(2 * CHUNK);

/** The largest {@link scratch} buffer kept between digests. */
const MAX_SCRATCH = 8 << 20;

function isObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}

function isScalar(v: unknown): boolean {
  const t = typeof v;
  return t === 'number' || t === 'string' || t === 'boolean' || v === null;
}

/** Whether JSON.stringify writes `v` as it is: a scalar, or a list of scalars. */
function isPlainValue(v: unknown): boolean {
  return !isObject(v) || (Array.isArray(v) && v.every(isScalar));
}

/** Writes the canonical JSON of an object or array. Pieces end between JSON tokens. */
function writeCanonical(value: object, emit: Sink): void {
  if (Array.isArray(value)) {
    // A list of numbers or strings (subscriber IDs, member emails: a million at the largest
    // sizes) has nothing to sort: JSON.stringify writes it as it is.
    if (value.every(isScalar)) {
      emit(JSON.stringify(value));
      return;
    }
    writeList(value, emit);
    return;
  }
  const o = value as Record<string, unknown>;
  const keys = sortedKeys(o);
  let plain = typeof o.toJSON !== 'function';
  for (let i = 0; plain && i < keys.length; i++) plain = isPlainValue(o[keys[i] as string]);
  if (plain) {
    // The property list gives the order; undefined values and functions are left out natively.
    emit(JSON.stringify(o, keys));
    return;
  }
  emit('{');
  let first = true;
  for (const k of keys) {
    const v = o[k];
    if (isObject(v)) {
      emit(first ? `${JSON.stringify(k)}:` : `,${JSON.stringify(k)}:`);
      writeCanonical(v, emit);
      first = false;
      continue;
    }
    const s = JSON.stringify(v);
    // undefined, functions and symbols: the property is left out.
    if (s === undefined) continue;
    emit(first ? `${JSON.stringify(k)}:${s}` : `,${JSON.stringify(k)}:${s}`);
    first = false;
  }
  emit('}');
}

/** Elements of a list of objects copied and written at a time (a few hundred KB of JSON). */
const LIST_BATCH = 1024;

/**
 * A list with objects in it, written as the definition says: a batch of elements at a time
 * copied with their keys in the canonical order, then one native JSON.stringify of the batch.
 * Writing each object apart (JSON.stringify with its key list) costs more than the copy: the
 * users and channels of the largest organizations are 100,000 and 20,000 objects (issue 17).
 * A copy lives only as long as its batch.
 */
function writeList(list: readonly unknown[], emit: Sink): void {
  if (list.length <= LIST_BATCH) {
    emit(JSON.stringify(list.map(sortedCopy)));
    return;
  }
  emit('[');
  let batch = LIST_BATCH;
  for (let i = 0; i < list.length;) {
    if (i > 0) emit(',');
    const part = JSON.stringify(list.slice(i, i + batch).map(sortedCopy));
    emit(part, true);
    i += batch;
    // About CHUNK characters a batch: a string of more than 128 KB is allocated apart (in the
    // large object space, fresh memory each time) and copied once more to be written whole.
    if (part.length > 2 * CHUNK && batch > 1) batch >>= 1;
    else if (part.length < CHUNK / 2 && batch < LIST_BATCH) batch <<= 1;
  }
  emit(']');
}

/**
 * A copy of a value whose objects are plain ones with their own enumerable keys inserted in
 * the canonical order (undefined values left out); lists of scalars are not copied.
 */
function sortedCopy(v: unknown): unknown {
  if (!isObject(v)) return v;
  if (Array.isArray(v)) return v.every(isScalar) ? v : v.map(sortedCopy);
  const o = v as Record<string, unknown>;
  const keys = sortedKeys(o);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const x = o[k];
    if (x !== undefined) out[k] = sortedCopy(x);
  }
  return out;
}

/** Recently sorted key lists: objects of one kind share theirs (compared by identity of the keys). */
const recent: { keys: string[]; sorted: string[] }[] = [];

/**
 * An object's own enumerable keys in the order of the canonical form: integer-like keys first
 * in numeric order (as every JavaScript object lists them), then the others sorted.
 */
function sortedKeys(o: object): string[] {
  const keys = Object.keys(o);
  for (const r of recent) if (sameKeys(r.keys, keys)) return r.sorted;
  const ordered = orderKeys(keys);
  recent.unshift({ keys, sorted: ordered });
  if (recent.length > 16) recent.pop();
  return ordered;
}

/**
 * Keys in the canonical order: integer-like keys first in numeric order (as every JavaScript
 * object lists them), then the others sorted. An own `__proto__` (JSON.parse makes one) never
 * reached the sorted copy the form is defined by (assigning it set the copy's prototype
 * instead): left out.
 */
function orderKeys(keys: readonly string[]): string[] {
  const sorted = keys.filter((k) => k !== '__proto__').sort();
  const indices = sorted.filter(isIndex);
  return indices.length === 0
    ? sorted
    : [...indices.sort((a, b) => Number(a) - Number(b)), ...sorted.filter((k) => !isIndex(k))];
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** An array index as a property key: a canonical integer below 2³² − 1. */
function isIndex(k: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(k) && Number(k) < 4294967295;
}
