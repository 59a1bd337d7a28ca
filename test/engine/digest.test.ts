import { canonicalJson, sha256Json } from '../../src/engine/digest';

/** The definition canonicalJson follows: every object copied with sorted keys, then stringified. */
function reference(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined) out[k] = sort(x);
      }
      return out;
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

describe('canonicalJson (issue 17: lists of IDs and emails are not copied)', () => {
  // eslint-disable-next-line no-sparse-arrays
  const sparse = [1, , 3];
  it.each([
    ['IDs', { b: [3, 1, 2], a: 1 }],
    ['emails and mixed scalars', { z: ['b@x', 'a@x'], y: [true, null, 2, 'x'] }],
    ['scalars with undefined and a hole', { a: [1, undefined, 2], b: sparse }],
    ['objects in lists', { l: [{ b: 1, a: [2, 1] }, 5, { d: { c: [] } }] }],
    ['empty', { a: [], b: {} }],
  ])('writes %s exactly as the sorted copy does', (_name, value) => {
    expect(canonicalJson(value)).toBe(reference(value));
  });

  it('gives the same digest whatever the key order', () => {
    expect(sha256Json({ a: [1, 2], b: { d: 1, c: 2 } })).toBe(
      sha256Json({ b: { c: 2, d: 1 }, a: [1, 2] }),
    );
  });
});
