/**
 * Response bodies written item by item into reused chunks (src/emulator/json-body.ts) are the
 * bytes of `JSON.stringify` of the same answer, whatever the size and the characters.
 */
import { LazyList, encodeJsonBody, materialize } from '../../src/emulator/json-body';

function bytesOf(body: Record<string, unknown>): Buffer {
  const encoded = encodeJsonBody(body);
  const out = 'bytes' in encoded ? encoded.bytes : Buffer.from(encoded.parts.join(''));
  expect(out.length).toBe(encoded.length);
  return out;
}

/** The same answer with its lazy lists as arrays, through JSON.stringify. */
function expected(body: Record<string, unknown>): Buffer {
  return Buffer.from(JSON.stringify(materialize(body)));
}

test('keys in order, values JSON leaves out left out, a lazy list item by item', () => {
  const body: Record<string, unknown> = {
    result: 'success',
    skipped: undefined,
    fn: () => 1,
    list: new LazyList([1, 2, 3], (n) => ({ n, half: n / 2, gone: undefined })),
    empty: new LazyList([], (n: number) => n),
    holes: new LazyList([1, 2], (n) => (n === 1 ? undefined : n)),
    nested: { inner: new LazyList(['a'], (s) => s.toUpperCase()) },
    last: undefined,
  };
  expect(bytesOf(body).toString()).toBe(expected(body).toString());
  expect(bytesOf(body).toString()).toBe(
    '{"result":"success","list":[{"n":1,"half":0.5},{"n":2,"half":1},{"n":3,"half":1.5}],' +
      '"empty":[],"holes":[null,2],"nested":{"inner":["A"]}}',
  );
  expect(bytesOf({}).toString()).toBe('{}');
  expect(bytesOf({ a: undefined }).toString()).toBe('{}');
});

test('large bodies in parts: the same bytes, characters of 1 to 4 bytes and escapes', () => {
  // Names of 2-, 3- and 4-byte characters and escapes, several MB in all (the parts' UTF-8
  // lengths add up to the body's).
  const names = [
    'Zoë Łukasz',
    '日本語の名前',
    'emoji 💡🎉',
    'quote " and \\ and \n',
    'a'.repeat(999),
  ];
  const items = Array.from({ length: 30_000 }, (_, i) => i);
  const view = (i: number) => ({ id: i, name: `${names[i % names.length]}${i}` });
  const lazy = { result: 'success', users: new LazyList(items, view) };
  const big = bytesOf(lazy);
  expect(big.length).toBeGreaterThan(3 << 20);
  expect(big.equals(expected(lazy))).toBe(true);
  // The same large answer built as arrays (one JSON.stringify, then the chunks).
  const plain = { result: 'success', users: items.map(view) };
  expect(bytesOf(plain).equals(big)).toBe(true);
  const again = bytesOf({ result: 'success', users: new LazyList(items.slice(0, 5000), view) });
  expect(again.toString()).toBe(
    JSON.stringify({ result: 'success', users: items.slice(0, 5000).map(view) }),
  );
});
