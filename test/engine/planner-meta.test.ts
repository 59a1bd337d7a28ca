/**
 * `Planner.add` and `Planner.waitFor`: an order recorded for a change is kept whichever comes
 * first, the change or the order (the `--target` audit met checks that ran before the change
 * they order was added, and lost their order).
 */
import { Planner } from '../../src/engine/plan/planner';
import { LiveBuilder, desired } from './fixtures';

function change(id: string) {
  return {
    id,
    kind: 'linkifier' as const,
    address: id,
    key: id,
    path: null,
    action: 'delete' as const,
    dependsOn: [],
    liveId: 1,
    reason: 'prune' as const,
    before: {},
  };
}

test('a waitFor made before the change is added is kept, with the meta add is given', () => {
  const p = new Planner(desired(), new LiveBuilder().build());
  p.waitFor('a', ['b']);
  p.add(change('a'), { refs: ['r'], after: ['c', 'b'] });
  p.waitFor('a', ['d']);
  expect(p.meta.get('a')).toEqual({ refs: ['r'], after: ['b', 'c', 'd'] });
});

test('without an earlier waitFor, add records the meta as given', () => {
  const p = new Planner(desired(), new LiveBuilder().build());
  const meta = { refs: ['r'] };
  p.add(change('a'), meta);
  expect(p.meta.get('a')).toBe(meta);
});
