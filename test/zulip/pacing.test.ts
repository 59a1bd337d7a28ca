import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { ZulipClient } from '../../src/zulip';
import type { ClientEvent } from '../../src/zulip';

// Issue 17, item 5: the client paces itself from Zulip's X-RateLimit-* headers instead of
// running into 429s. One clock for the emulator and the client; the client's sleeps advance it,
// so nothing here waits for real.

let z: Emulator;
let client: ZulipClient;

afterEach(async () => {
  await client.close();
  await z.close();
});

async function start(max: number, startMs: number, paceFromHeaders?: boolean, skewMs = 0) {
  let t = startMs;
  const sleeps: number[] = [];
  const paces: Extract<ClientEvent, { type: 'pace' }>[] = [];
  // The server's clock `skewMs` ahead of the client's (behind when negative).
  z = await startEmulator({
    rateLimit: { max, windowSeconds: 60 },
    clock: { now: () => t + skewMs },
  });
  client = ZulipClient.forEmbeddedOwner(z, {
    now: () => t,
    sleep: (ms) => {
      sleeps.push(ms);
      t += ms;
      return Promise.resolve();
    },
    retry: {
      maxRateLimitRetries: 100,
      ...(paceFromHeaders === undefined ? {} : { paceFromHeaders }),
    },
    onEvent: (e) => {
      if (e.type === 'pace') paces.push(e);
    },
  });
  return { sleeps, paces, now: () => t };
}

const statuses = () => z.requestLog.filter((r) => r.path === '/users/me').map((r) => r.status);

describe('rate-limit pacing', () => {
  it('waits until a second after X-RateLimit-Reset once the budget is spent: no 429', async () => {
    const t0 = 1_800_000_000_500; // half a second into a second: Reset is truncated
    const { sleeps, paces } = await start(5, t0);
    for (let i = 0; i < 12; i++) await client.getOwnUser();

    expect(statuses()).toEqual(Array(12).fill(200));
    expect(client.stats.rateLimitHits).toBe(0);
    // Five requests at t0 spend the budget; X-RateLimit-Reset = int(t0 + 60 s), on the
    // server's clock, which its Date header (to the second) puts at t0 + 60 s on ours; the sixth
    // waits until a second after it, when all five have left the window; the eleventh likewise.
    const reset = t0 / 1000 + 60;
    const firstWait = (reset + 1) * 1000 - t0;
    expect(sleeps[0]).toBe(firstWait);
    expect(paces.map((p) => [p.delayMs, p.limit])).toEqual([
      [firstWait, 5],
      [sleeps[1], 5],
    ]);
    expect(paces[0]?.resetAt).toBe(reset);
    expect(sleeps).toHaveLength(2);
    expect(client.stats.paceWaits).toBe(2);
  });

  it.each([
    ['ahead of', 30_000],
    ['behind', -30_000],
    ['far ahead of', 90_000],
    ['far behind', -90_000],
  ])('a server clock %s ours: still no 429, and no wait beyond the window', async (_, skew) => {
    const t0 = 1_800_000_000_500;
    const { sleeps } = await start(5, t0, undefined, skew);
    for (let i = 0; i < 12; i++) await client.getOwnUser();
    expect(statuses()).toEqual(Array(12).fill(200));
    expect(sleeps).toEqual([61_000, 61_000]);
  });

  it('without pacing the same run meets 429s and waits them out (what pacing avoids)', async () => {
    const { sleeps } = await start(5, 1_800_000_000_500, false);
    for (let i = 0; i < 12; i++) await client.getOwnUser();
    expect(client.stats.rateLimitHits).toBeGreaterThan(0);
    expect(statuses()).toContain(429);
    expect(sleeps.length).toBeGreaterThan(0);
  });

  it('does not wait while the budget lasts', async () => {
    const { sleeps } = await start(50, 1_800_000_000_000);
    for (let i = 0; i < 10; i++) await client.getOwnUser();
    expect(sleeps).toEqual([]);
    expect(client.rateLimit.remaining).toBe(40);
  });
});
