import { createHash } from 'node:crypto';
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

  it.each([
    [
      'integer-like keys (they come first, in numeric order)',
      { b: 1, 10: 'x', 9: [2], a: { 2: 1, 1: 0 } },
    ],
    [
      'functions and symbols (left out of objects, null in lists)',
      { f: () => 1, s: Symbol('s'), l: [() => 1, { g: () => 2 }] },
    ],
    ['non-finite numbers and -0', { a: NaN, b: Infinity, c: -0, d: [{ e: -Infinity }] }],
    ['strings to escape', { '"k"\n': 'é\u2028\ud800"', l: [{ x: '\u0000' }] }],
    [
      'a Date and a class instance (own keys only, as the copy has)',
      {
        d: new Date(0),
        c: new (class {
          y = 1;
          x = [1];
          toJSON() {
            return 'no';
          }
        })(),
      },
    ],
    [
      'objects of one shape in different key orders',
      [
        { a: 1, b: { c: 1 } },
        { b: { c: 2 }, a: 2 },
        { a: 3, b: 4 },
      ],
    ],
    ['a top-level list of scalars', [3, 'a', null]],
    [
      'an own __proto__ key, as JSON.parse makes it',
      JSON.parse('{"a":1,"__proto__":{"b":2},"l":[{"__proto__":3}]}') as unknown,
    ],
    ['deep nesting with undefined', { a: { b: { c: [{ d: undefined, e: [[1], [{ f: 1 }]] }] } } }],
  ])('writes %s exactly as the sorted copy does', (_name, value) => {
    expect(canonicalJson(value)).toBe(reference(value));
  });

  it('writes a long list of objects of several shapes (copied a batch at a time) as the sorted copy does', () => {
    const list = Array.from({ length: 2500 }, (_, i) =>
      i % 3 === 0
        ? { z: i, a: { d: [i, 'x'], c: undefined, b: [{ y: 1, x: 2 }] } }
        : i % 3 === 1
          ? [{ b: i, 2: 'two', 1: 'one' }, null, () => 1, new Date(i)]
          : (JSON.parse(`{"__proto__":{"q":1},"m":${i}}`) as unknown),
    );
    expect(canonicalJson({ list })).toBe(reference({ list }));
    expect(canonicalJson(list)).toBe(reference(list));
  });

  it('hashes a value larger than one chunk as the whole canonical JSON', () => {
    const big = {
      users: Array.from({ length: 5000 }, (_, i) => ({
        id: i,
        email: `u${i}@x.example`,
        p: { b: [i], a: i % 2 === 0 },
      })),
    };
    const whole = createHash('sha256').update(reference(big)).digest('hex');
    expect(sha256Json(big)).toBe(whole);
  });

  it('writes a list of large and small objects (batches of every size) as the sorted copy does', () => {
    const list = Array.from({ length: 3000 }, (_, i) =>
      i % 500 < 40 ? { z: 'x'.repeat(5000 + i), a: [i] } : { y: i, b: { d: 1, c: 2 } },
    );
    // Compared by digest: a failing toBe would diff megabytes of text.
    const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
    expect(sha(canonicalJson(list))).toBe(sha(reference(list)));
    expect(sha256Json({ list })).toBe(sha(reference({ list })));
  });

  it('hashes non-ASCII text, in pieces large and small, as its UTF-8', () => {
    const value = {
      name: 'é€😀'.repeat(30_000),
      list: Array.from({ length: 3000 }, (_, i) => ({ b: `ü${i}😀`, a: '\u2028'.repeat(i % 7) })),
    };
    const whole = createHash('sha256').update(reference(value)).digest('hex');
    expect(sha256Json(value)).toBe(whole);
  });

  it('gives the same digest whatever the key order', () => {
    expect(sha256Json({ a: [1, 2], b: { d: 1, c: 2 } })).toBe(
      sha256Json({ b: { c: 2, d: 1 }, a: [1, 2] }),
    );
  });
});
