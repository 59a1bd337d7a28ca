/**
 * The generic keyed planner's rules for a kind that both renames and replaces, and orders its
 * objects (custom profile fields): a replace makes the object anew under its declared key, so
 * no rename goes before it, and the new object is appended where Zulip appends it.
 */
import { plan } from '../../src/engine';
import type { Change } from '../../src/engine';
import { LiveBuilder, desired } from './fixtures';

const summary = (changes: readonly Change[]): string[] => changes.map((c) => c.id);

/** A live short-text field Phone, declared as Mobile (renamed from Phone) of `type`. */
function renamedPhone(type: 'link' | 'short-text'): { changes: Change[]; phone: number } {
  const b = new LiveBuilder();
  const phone = b.profileField('Phone', 1);
  const p = plan(
    desired((d) => {
      d.customProfileFields.push({
        path: 'acme/mobile',
        name: 'Mobile',
        type,
        lifecycle: { renamedFrom: ['Phone'] },
      });
    }),
    b.build(),
    {},
  );
  return { changes: p.changes, phone };
}

describe('plan: a keyed kind that renames, replaces and orders', () => {
  it('a renamed field whose type changes is one replace under its new label, no rename', () => {
    const { changes, phone } = renamedPhone('link');
    expect(summary(changes)).toEqual(['customProfileField["Mobile"]#replace']);
    const replace = changes[0]!;
    if (replace.action !== 'replace') throw new Error('not a replace');
    expect(replace.liveId).toBe(phone);
    expect(replace.before).toMatchObject({ name: 'Phone', type: 'short-text' });
    expect(replace.after).toMatchObject({ name: 'Mobile', type: 'link' });
  });

  it('the same rename without a new type is a rename', () => {
    expect(summary(renamedPhone('short-text').changes)).toEqual([
      'customProfileField["Mobile"]#rename',
    ]);
  });

  it('a replaced field is appended like a created one: the reorder moves it back', () => {
    const b = new LiveBuilder();
    const a = b.profileField('A', 1);
    b.profileField('B', 1);
    const p = plan(
      desired((d) => {
        d.customProfileFields.push(
          { path: 'acme/a', name: 'A', type: 'link' },
          { path: 'acme/b', name: 'B', type: 'short-text' },
        );
      }),
      b.build(),
      {},
    );
    const reorder = p.changes.find((c) => c.action === 'reorder');
    if (reorder?.action !== 'reorder') throw new Error('no reorder');
    // After the replace Zulip has B, then the new A: the declared order needs A first again.
    expect(reorder.after).toEqual([
      { key: 'A', id: null },
      { key: 'B', id: expect.any(Number) as number },
    ]);
    expect(reorder.dependsOn).toContain('customProfileField["A"]#replace');
    expect(reorder.after.some((e) => e.id === a)).toBe(false);
  });
});
