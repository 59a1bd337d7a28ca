/**
 * Apply against the plan, for every kind of edit. For seeded random organizations
 * (test/import/random-org.ts) on the embedded server, the desired state imported from the
 * organization (it plans no change) is changed by seeded random edits across the kinds
 * (./random-edits.ts), planned, applied; the apply must end `applied` (no refusal the plan did
 * not foresee), and the next plan must have no change but those a warning of the first plan
 * left for the next plan. Users are deactivated, never reactivated: see `userActive` in
 * ./random-edits.ts for what reactivation brings back that no plan sees.
 */
import { startEmulator } from '../../src/emulator';
import { applyPlan, plan } from '../../src/engine';
import type { Plan } from '../../src/engine';
import { LEFT_OUT_WARNING_CODES } from '../../src/engine/plan-format';
import { generateApp } from '../../src/import';
import { FEATURE_LEVELS } from '../../src/model/features';
import { readLiveState } from '../../src/provider/read-live-state';
import { ZulipApplyTarget } from '../../src/provider/write-target';
import { ZulipClient } from '../../src/zulip';
import { synthInProcess, writeApp } from '../import/harness';
import { randomOrg } from '../import/random-org';
import { EDIT_KINDS, randomEdits } from './random-edits';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const FL = FEATURE_LEVELS.newest;
const EDITS = 16;
const SEEDS = Array.from({ length: 30 }, (_, i) => i + 1);
/**
 * Seeds whose edits Zulip refuses, and the plan says so before any request (the refusal is
 * Zulip's, the plan error is right):
 * - a channel made web-public while the organization has spectator access off and the
 *   configuration leaves it off: "Web-public channels are not enabled."
 *   (`web_public_streams_enabled()` in `create_stream_if_needed`'s checks and
 *   `update_stream_backend`);
 * - seed 21: a web-public channel the importer left web-public (webPublic in ignoreChanges: the
 *   server had web-public channels off) made private: `update_stream_backend` keeps
 *   `is_web_public` and refuses a private web-public channel ("Invalid parameters");
 * - seed 10: team-f deactivated, while the channels' canSubscribeGroup that named it is what
 *   gives the applying owner access to their content (private, not subscribed): the plan
 *   leaves that change for the next plan (NO_CONTENT_ACCESS), so in this apply the group is
 *   still in use and Zulip refuses to deactivate it ("Cannot deactivate user group in use.",
 *   `check_user_group_can_be_deactivated`). The deactivation could wait for the next plan too.
 */
const REFUSED: Record<number, string> = {
  7: 'web-public channels are not enabled on this server',
  10: 'Zulip refuses to deactivate a user group still in use',
  11: 'web-public channels are not enabled on this server',
  21: 'Zulip refuses a web-public channel that is private ("Invalid parameters")',
  27: 'web-public channels are not enabled on this server',
};

const describeChange = (c: Plan['changes'][number]): string =>
  `${c.action} ${c.address} ${JSON.stringify(c).slice(0, 300)}`;

async function run(seed: number): Promise<{ log: string[]; outcome: string; left: string[] }> {
  const z = await startEmulator({
    state: randomOrg(seed, FL),
    featureLevel: FL,
    rateLimit: false,
    clock: { now: () => NOW },
  });
  const client = ZulipClient.forEmbeddedOwner(z);
  try {
    const { requestCount: _n, ...live } = await readLiveState(client);
    const [imported] = synthInProcess(writeApp(generateApp(live).files));
    const { desired, log } = randomEdits(seed, imported!, live, EDITS);
    let p: Plan;
    try {
      p = plan(desired, live);
    } catch (e) {
      return { log, outcome: `plan error: ${(e as Error).message}`, left: [] };
    }
    const result = await applyPlan(p, new ZulipApplyTarget(client, p), {
      allowDestroy: true,
      force: true,
      allowPrivileged: true,
    });
    const failed = result.journal.entries
      .filter((e) => e.status !== 'applied' && e.status !== 'done')
      .map((e) => JSON.stringify(e).slice(0, 600));
    const leftFor = new Set(
      p.warnings.filter((w) => LEFT_OUT_WARNING_CODES.includes(w.code)).map((w) => w.address),
    );
    const again = plan(desired, await readLiveState(client));
    const left = again.changes.filter((c) => !leftFor.has(c.address)).map(describeChange);
    return { log, outcome: `${result.outcome} ${failed.join('\n')}`, left };
  } finally {
    await client.close();
    await z.close();
  }
}

const seen = new Set<string>();

describe('apply converges on random edits of every kind', () => {
  it.each(SEEDS)('seed %i', async (seed) => {
    const { log, outcome, left } = await run(seed);
    for (const line of log) seen.add(line.slice(0, line.indexOf(':')));
    const refused = REFUSED[seed];
    if (refused !== undefined) {
      expect(outcome).toMatch(/^plan error: /);
      expect(outcome).toContain(refused);
      return;
    }
    expect({ log, outcome, left }).toEqual({ log, outcome: 'applied ', left: [] });
  });

  it('the seeds made edits of every kind', () => {
    expect([...EDIT_KINDS].filter((k) => !seen.has(k))).toEqual([]);
  });
});
