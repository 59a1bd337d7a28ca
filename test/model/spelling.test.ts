import { closest, editDistance } from '../../src/model/spelling';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
    ['example', 'exmaple', 1], // a swapped pair is one typo
    ['bob@example.com', 'bbo@example.com', 1],
    ['ca', 'abc', 3], // optimal string alignment: no edit of a transposed pair
    ['alice@example.com', 'alice@example.com', 0],
  ])('%j -> %j is %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('closest', () => {
  it('returns the nearest candidates within the distance, ties in order, case-insensitively', () => {
    expect(closest('ANNE', ['bob', 'ann', 'anna', 'annex'], 2)).toEqual(['ann', 'anna', 'annex']);
    expect(closest('anne', ['Anne', 'ann'], 2)).toEqual(['Anne']);
    expect(closest('zed', ['bob', 'ann'], 2)).toEqual([]);
    expect(closest('ab', ['abcd'], 1)).toEqual([]);
  });
});
