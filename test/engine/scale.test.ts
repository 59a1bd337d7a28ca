import { plan } from '../../src/engine';
import { ROLES } from '../../src/model';
import { LiveBuilder, dChannel, dGroup, desired } from './fixtures';

/**
 * The bench's organization size (issue 5): the plan is right at that size. How fast it is,
 * `npm run bench` measures (never a unit test).
 */
describe('plan at scale', () => {
  it('plans 2,000 channels, 300 groups, 10,000 users and 100,000 subscriptions', () => {
    const b = new LiveBuilder();
    for (let i = 0; i < 10000; i++)
      b.state.users.push({
        id: 10000 + i,
        email: `u${i}@example.com`,
        fullName: `U ${i}`,
        role: ROLES.member,
        isActive: true,
        isBot: false,
      });
    const members = b.state.userGroups.find((g) => g.name === 'role:members')!;
    members.members.push(...b.state.users.filter((u) => u.id >= 10000).map((u) => u.id));
    for (let g = 0; g < 300; g++)
      b.group(`team-${g}`, {
        members: Array.from({ length: 30 }, (_, k) => 10000 + ((g * 30 + k) % 10000)),
      });
    for (let c = 0; c < 2000; c++)
      b.channel(`channel-${c}`, {
        subscribers: [1, ...Array.from({ length: 50 }, (_, k) => 10000 + ((c * 50 + k) % 10000))],
      });
    const live = b.build();
    const d = desired((d) => {
      for (let g = 0; g < 300; g++)
        d.userGroups.push(
          dGroup(`team-${g}`, {
            members: {
              mode: 'exact',
              users: Array.from(
                { length: 30 },
                (_, k) => `u${(g * 30 + k + 1) % 10000}@example.com`,
              ),
              groups: [],
            },
          }),
        );
      for (let c = 0; c < 2000; c++)
        d.channels.push(
          dChannel(`channel-${c}`, {
            description: c % 10 === 0 ? 'changed' : '',
            subscribers: {
              mode: c % 2 ? 'exact' : 'atLeast',
              users: ['owner@example.com'],
              groups: [`team-${c % 300}`, ...(c % 100 === 0 ? ['role:members'] : [])],
            },
          }),
        );
    });
    const p = plan(d, live);
    expect(p.summary.update).toBe(200);
    expect(p.summary.membership).toBeGreaterThan(2000);
    expect(p.warnings).toEqual([]);
    // Planned again from the same inputs, the plan is the same (no order left to chance).
    expect(plan(d, live).changes).toEqual(p.changes);
  });
});
