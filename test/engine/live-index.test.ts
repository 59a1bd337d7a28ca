import { IdMarks, LiveIndex } from '../../src/engine/live-index';
import { ROLES } from '../../src/model';
import { LiveBuilder } from './fixtures';

describe('IdMarks (issue 17)', () => {
  it('marks each ID once a round, inside the span and outside it, and clears them all at once', () => {
    const marks = new IdMarks(100, 10);
    expect([100, 105, 109, 99, 110, 7, 105, 99].map((id) => marks.mark(id))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect([100, 101, 109, 99, 110, 7, 8].map((id) => marks.has(id))).toEqual([
      true,
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
    marks.clear();
    expect([100, 105, 99, 7].map((id) => marks.has(id))).toEqual([false, false, false, false]);
    expect(marks.mark(105)).toBe(true);
    expect(marks.has(105)).toBe(true);
  });

  it('works without a span (sparse IDs): a set', () => {
    const marks = new IdMarks(0, 0);
    expect([3, 3, 1_000_000].map((id) => marks.mark(id))).toEqual([true, false, true]);
    marks.clear();
    expect(marks.has(3)).toBe(false);
  });
});

describe('LiveIndex.resolve', () => {
  it('gives each active user of a list once, in its order, and the other addresses as problems', () => {
    const b = new LiveBuilder();
    for (const [id, email, isActive] of [
      [20, 'a@x.example', true],
      [21, 'b@x.example', true],
      [22, 'gone@x.example', false],
    ] as const)
      b.state.users.push({
        id,
        email,
        fullName: email,
        role: ROLES.member,
        isActive,
        isBot: false,
      });
    const idx = new LiveIndex(b.build());
    expect(
      idx.resolve(['B@x.example', 'a@x.example', 'b@x.example', 'gone@x.example', 'no@x.example']),
    ).toEqual({
      ids: [21, 20],
      problems: [
        { email: 'gone@x.example', deactivated: true },
        { email: 'no@x.example', deactivated: false },
      ],
    });
    // Each list apart: the marks of one list do not leave out the users of the next.
    expect(idx.resolve(['a@x.example', 'b@x.example']).ids).toEqual([20, 21]);
  });
});
