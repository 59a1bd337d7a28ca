import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, so the same data always gives the same bytes
 * (JSON.stringify keeps insertion order, which depends on who built the object).
 * `undefined` properties are dropped, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    // A list of numbers or strings (subscriber IDs, member emails: a million at the largest
    // sizes) has nothing to sort: JSON.stringify writes it as it is.
    if (value.every(isScalar)) return value;
    return value.map(sortKeys);
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

function isScalar(v: unknown): boolean {
  const t = typeof v;
  return t === 'number' || t === 'string' || t === 'boolean' || v === null;
}

/** SHA-256 (hex) of the canonical JSON of `value`. */
export function sha256Json(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** The digest a plan records for the desired state it was made from. */
export function desiredStateDigest(desired: unknown): string {
  return sha256Json(desired);
}
