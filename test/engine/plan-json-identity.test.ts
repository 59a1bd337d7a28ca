import { createHash } from 'node:crypto';
import { Testing } from 'zulip-cdk';
import { generateBenchOrg } from '../../bench/org-generator';
import { acme } from '../../examples/acme/organization';
import { startEmulator } from '../../src/emulator';
import type { EmulatorOptions } from '../../src/emulator';
import { plan, renderJson } from '../../src/engine';
import type { DesiredState, LiveState } from '../../src/model';
import { ZulipClient } from '../../src/zulip';
import { readLiveState } from '../../src/provider/read-live-state';

/**
 * The guard of issue 14's refactor ("behaviour does not change"): the plan JSON that
 * `zulip-cdk plan --out` writes for the example organization against the embedded server's demo
 * seed, and for the bench's organization, is byte-identical to the committed snapshot.
 *
 * The one thing that varies between runs is the site, whose port the OS picks: it is in
 * `server.site` and so in the live-state digest and the plan's digest. It is replaced by a
 * fixed site before planning, so every digest in the plan is the same on every run. The
 * server's clock is fixed too: it dates the demo users and the read (`server.readAt`).
 */
const SITE = 'http://zulip.invalid';
const NOW = Date.parse('2026-06-01T12:00:00Z');

async function planJson(desired: DesiredState, options: EmulatorOptions): Promise<string> {
  const z = await startEmulator({ rateLimit: false, clock: { now: () => NOW }, ...options });
  const client = ZulipClient.forEmbeddedOwner(z);
  try {
    const live: LiveState = await readLiveState(client);
    expect(live.server.site).toBe(z.site);
    return renderJson(plan(desired, { ...live, server: { ...live.server, site: SITE } }));
  } finally {
    await client.close();
    await z.close();
  }
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('the plan JSON does not change (issue 14)', () => {
  it('of the example organization against the demo seed (FL 478)', async () => {
    const json = await planJson(Testing.synth(acme(Testing.app())), {
      seed: 'demo',
      featureLevel: 478,
    });
    expect(json).not.toContain('127.0.0.1');
    expect(json).toMatchSnapshot();
  });

  it("of the bench's organization (scale 0.01)", async () => {
    const bench = generateBenchOrg({ scale: 0.01 });
    const json = await planJson(bench.desired, { state: bench.org });
    expect(json).not.toContain('127.0.0.1');
    // Too long to read in a review: its length and digest stand for it.
    expect({ bytes: json.length, sha256: sha256(json) }).toMatchSnapshot();
  });
});
