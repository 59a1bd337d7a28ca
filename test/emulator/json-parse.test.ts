/**
 * parseJson: JSON.parse's values, but a number written with a fraction or an exponent is a
 * JsonFloat at any depth (what Zulip's parsers call a float); text JSON.parse refuses is NOT_JSON.
 */
import { JsonFloat, NOT_JSON, parseJson } from '../../src/emulator/json-parse';

const float = (n: number): JsonFloat => new JsonFloat(n);

describe('parseJson', () => {
  it.each([
    ['1', 1],
    ['-0', -0],
    ['1.0', float(1)],
    ['1e0', float(1)],
    ['-2.5E+2', float(-250)],
    ['3e-1', float(0.3)],
    [' [1, 2.0, [3e0, "4.0"]] ', [1, float(2), [float(3), '4.0']]],
    ['{"a": {"b": [1.0]}, "c": 2}', { a: { b: [float(1)] }, c: 2 }],
    ['"x 1.0 \\" 2e3"', 'x 1.0 " 2e3'],
    [
      '{"k\\u00e9": "1.5", "n": null, "t": true, "f": false}',
      { ké: '1.5', n: null, t: true, f: false },
    ],
    ['{ }', {}],
    ['[ ]', []],
  ])('%s', (text, expected) => {
    expect(parseJson(text)).toEqual(expected);
  });

  it('keeps the key order and last value of repeated keys, and __proto__ as an own key, as JSON.parse', () => {
    const text = '{"a": 1.0, "__proto__": 2.5, "b": 1, "a": 3}';
    const v = parseJson(text) as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(Object.keys(JSON.parse(text) as object));
    expect(v.a).toBe(3);
    expect(Object.getOwnPropertyDescriptor(v, '__proto__')?.value).toEqual(float(2.5));
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });

  it('a float is serialised as its number', () => {
    expect(JSON.stringify(parseJson('{"t": 1595479019.0}'))).toBe('{"t":1595479019}');
  });

  it.each(['', 'nul', '[1,]', '1.', '.5', 'NaN', "{'a': 1}", '01'])('%j is not JSON', (text) => {
    expect(parseJson(text)).toBe(NOT_JSON);
  });
});
