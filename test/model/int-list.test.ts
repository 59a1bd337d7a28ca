import { z } from 'zod';
import { intListSchema } from '../../src/model/int-list';

describe('intListSchema (issue 17: a million subscriber IDs checked in one loop)', () => {
  const s = z.object({ ids: intListSchema() });

  it('accepts a list of integers and returns the same list, not a copy', () => {
    const ids = [3, 1, 2];
    expect(s.parse({ ids }).ids).toBe(ids);
    expect(s.parse({ ids: [] }).ids).toEqual([]);
  });

  it.each([
    ['a string element', [1, '2'], 'ids.1'],
    ['a fraction', [1, 2.5], 'ids.1'],
    ['NaN', [Number.NaN], 'ids.0'],
    ['an unsafe integer', [2 ** 53], 'ids.0'],
    ['null', [null], 'ids.0'],
  ])('rejects %s, naming the element', (_name, ids, where) => {
    const r = s.safeParse({ ids });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual([where]);
  });

  it.each([
    ['a number', 5],
    ['an object', { 0: 1 }],
    ['absent', undefined],
  ])('rejects %s instead of a list', (_name, ids) => {
    const r = s.safeParse({ ids });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/array of integers/);
  });
});
