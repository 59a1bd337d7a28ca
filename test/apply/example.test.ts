import { Testing } from 'zulip-cdk';
import { predictRequests } from '../../src/engine/apply/batching';
import { acme } from '../../examples/acme/organization';
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
});
