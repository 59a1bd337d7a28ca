import { Testing } from 'zulip-cdk';
import { predictRequests } from '../../src/engine/apply/batching';
import { acme } from '../../examples/acme/organization';
import { readLiveState } from '../../src/provider/read-live-state';
import { harness, summary } from './helpers';
import type { Harness } from './helpers';

describe.each([478])('the acme example on the embedded server (FL %i)', (level) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ featureLevel: level });
  });
  afterAll(() => h.close());

  it('applies in full, and the next plan is empty', async () => {
    const desired = Testing.synth(acme(Testing.app()));
    const { first, result, after } = await h.converge(desired);
    expect(first.changes.length).toBeGreaterThan(10);
    expect(result.journal.entries.filter((e) => e.status !== 'applied')).toEqual([]);
    expect(result.outcome).toBe('applied');
    // The plan's apply-cost line says what apply really sends (the demo prints both).
    expect(predictRequests(first.changes, first.server.featureLevel)).toBe(
      result.journal.requestCount,
    );
    expect(summary(after)).toEqual([]);
  });

  it("says who leaves role:fullmembers with the example's waiting period, as the server does", async () => {
    // The demo's Erin joined yesterday; the example sets a three-day waiting period. (A fresh
    // server: the test above applied the example to the first.)
    const fresh = await harness({ featureLevel: level });
    try {
      const desired = Testing.synth(acme(Testing.app()));
      const { first } = await fresh.converge(desired);
      for (const permission of [
        'permissions.canAddCustomEmojiGroup',
        'permissions.canCreatePublicChannelGroup',
      ])
        expect(
          first.permissions?.effects.find((e) => e.permission === permission)?.lost.users,
        ).toEqual(['erin@zulip-cdk.example']);
      const live = await readLiveState(fresh.client);
      const full = live.userGroups.find((g) => g.name === 'role:fullmembers')!;
      const id = (local: string): number =>
        live.users.find((u) => u.email === `${local}@zulip-cdk.example`)!.id;
      // The server took Erin out of role:fullmembers, and only her.
      expect(full.members).not.toContain(id('erin'));
      expect(full.members).toEqual(
        expect.arrayContaining(['alice', 'bob', 'carol', 'dave'].map(id)),
      );
    } finally {
      await fresh.close();
    }
  });
});
