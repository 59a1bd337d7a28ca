import { readLiveStateNaively } from '../../bench/naive-read';
import { benchClient, measurePlan } from '../../bench/measure';
import { measureApply } from '../../bench/measure-apply';
import { measureBulkSubscribe } from '../../bench/measure-subscribe';
import { measureSynth } from '../../bench/measure-synth';
import { FULL_SIZE, generateBenchOrg, usersOnly } from '../../bench/org-generator';
import { startReplayProxy } from '../../bench/replay-proxy';
import { modelledMinutes, renderReport } from '../../bench/report';
import type { BenchResults } from '../../bench/report';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { plan } from '../../src/engine';
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { readLiveState } from '../../src/provider/read-live-state';

/**
 * The bench (`npm run bench`) is not part of `npm test`: this runs its organization generator
 * and its plan measurement in-process at a tiny size so that it cannot rot.
 */
describe('bench smoke test', () => {
  const running: Emulator[] = [];
  afterAll(async () => {
    for (const z of running) await z.close();
  });

  async function serve(channels: number) {
    const bench = generateBenchOrg({ scale: 0.01, channels });
    const z = await startEmulator({ state: bench.org, rateLimit: false });
    running.push(z);
    return { bench, z, target: { site: z.site, ...bench.owner } };
  }

  it('generates the organization it claims, with 50 subscriptions per channel', () => {
    const { org, desired, counts } = generateBenchOrg({ scale: 0.01, channels: 20 });
    expect(counts.channels).toBe(20);
    expect(org.channels).toHaveLength(20);
    expect(org.subscriptions).toHaveLength(20 * FULL_SIZE.subscriptionsPerChannel);
    expect(counts.subscriptions).toBe(org.subscriptions.length);
    expect(org.groups.filter((g) => !g.isSystemGroup)).toHaveLength(counts.groups);
    // Some groups are nested.
    expect(org.groups.some((g) => !g.isSystemGroup && g.subgroups.length > 0)).toBe(true);
    expect(desired.channels).toHaveLength(20 + counts.newChannels);
    // Deterministic: the same size gives the same configuration.
    expect(generateBenchOrg({ scale: 0.01, channels: 20 }).desired).toEqual(desired);
    // The org before any apply keeps its users and loses everything the config creates.
    const empty = usersOnly(org);
    expect(empty.users).toHaveLength(org.users.length);
    expect(empty.channels).toHaveLength(0);
    expect(empty.subscriptions).toHaveLength(0);
    expect(empty.groups.every((g) => g.isSystemGroup)).toBe(true);
  });

  it('reads in 2 requests where the naive read needs one per channel, and both plan the same', async () => {
    const small = await serve(20);
    const ours = await measurePlan(small.target, small.bench.desired, 'ours');
    const naive = await measurePlan(small.target, small.bench.desired, 'naive');
    expect(ours.requests).toBe(2);
    expect(naive.requests).toBe(9 + 20);
    expect(ours.channelsRead).toBe(20);
    expect(naive.planDigest).toBe(ours.planDigest);
    // About 5% of the properties differ: the plan is not trivial, and not everything.
    expect(ours.changes).toBeGreaterThan(5);
    expect(ours.changes).toBeLessThan(small.bench.org.users.length);

    const larger = await serve(40);
    const ours40 = await measurePlan(larger.target, larger.bench.desired, 'ours');
    const naive40 = await measurePlan(larger.target, larger.bench.desired, 'naive');
    expect(ours40.requests).toBe(2);
    expect(naive40.requests - naive.requests).toBe(20);
    expect(naive40.planDigest).toBe(ours40.planDigest);
  });

  it('replays recorded responses from memory without asking the emulator again', async () => {
    const { bench, z, target } = await serve(20);
    const proxy = await startReplayProxy(target.site);
    try {
      const viaProxy = { ...target, site: proxy.site };
      const recorded = await measurePlan(viaProxy, bench.desired, 'naive');
      const seen = z.requestLog.length;
      proxy.setMode('replay');
      const replayed = await measurePlan(viaProxy, bench.desired, 'naive');
      const ours = await measurePlan(viaProxy, bench.desired, 'ours');
      // The naive pass came from memory; ours had not been recorded, so it went through.
      expect(z.requestLog.length - seen).toBe(2);
      expect(replayed.planDigest).toBe(recorded.planDigest);
      expect(ours.planDigest).toBe(recorded.planDigest);
      expect(proxy.stats.replayed).toBe(recorded.requests);
    } finally {
      await proxy.close();
    }
  });

  it('the naive read builds the same live state as readLiveState', async () => {
    const { z, target } = await serve(20);
    const a = benchClient(target);
    const b = benchClient(target);
    const { requestCount: _a, ...ours } = await readLiveState(a);
    const { requestCount: _b, ...naive } = await readLiveStateNaively(b);
    await a.close();
    await b.close();
    expect(naive.channels).toEqual(ours.channels);
    expect(naive.userGroups).toEqual(ours.userGroups);
    expect(naive.users).toEqual(ours.users);
    expect(naive.me).toEqual(ours.me);
    expect(z.requestLog.filter((e) => e.path.endsWith('/members'))).toHaveLength(20);
  });

  it('applies the organization from nothing in fewer requests than one per change, as predicted', async () => {
    const bench = generateBenchOrg({ scale: 0.01, channels: 20 });
    const z = await startEmulator({ state: usersOnly(bench.org), rateLimit: false });
    running.push(z);
    const target = { site: z.site, ...bench.owner };
    const predicted = await measureApply(target, bench.desired, { execute: false });
    expect(predicted.requests).toBeNull();
    const a = await measureApply(target, bench.desired, { execute: true });
    expect(a.changes).toBe(predicted.changes);
    expect(a.leftAfter).toBe(0);
    expect(a.requests).toBe(a.predictedRequests);
    expect(a.requests!).toBeLessThan(a.naivePerChange);
    // Every subscription of every channel is an item of its own for a per-item tool.
    const subscriptions = bench.desired.channels.reduce(
      (n, c) => n + (c.subscribers?.users.length ?? 0),
      0,
    );
    expect(a.naivePerItem).toBeGreaterThan(subscriptions);
    expect(a.byEndpoint?.['POST /channels/create']).toBe(bench.desired.channels.length);
    const client = benchClient(target);
    const live = await readLiveState(client);
    await client.close();
    expect(live.channels).toHaveLength(bench.desired.channels.length);
    const p = plan(bench.desired, live);
    expect(p.changes).toHaveLength(0);
  });

  it('applies the ~5% change to the full organization as predicted, within 1.2x of the API floor', async () => {
    const bench = generateBenchOrg({ scale: 0.01, channels: 20 });
    const z = await startEmulator({ state: bench.org, rateLimit: false });
    running.push(z);
    const target = { site: z.site, ...bench.owner };
    const a = await measureApply(target, bench.desired, { execute: true });
    expect(a.leftAfter).toBe(0);
    // Subscriptions are batched: fewer requests than changes, and the prediction knows it.
    expect(a.requests).toBe(a.predictedRequests);
    expect(a.floor!.total).toBeGreaterThan(0);
    expect(a.writes! / a.floor!.total).toBeLessThanOrEqual(1.2);
    expect(a.byEndpoint?.['POST /users/me/subscriptions']).toBe(a.floor!.byKind.subscribe);
  });

  it('reports ratios and the modelled time at 200 requests per minute', () => {
    expect(modelledMinutes(2000)).toBe(10);
    const m = (requests: number, totalMs: number) => ({
      strategy: 'ours' as const,
      requests,
      readMs: totalMs,
      planMs: 0,
      totalMs,
      changes: 3,
      planDigest: 'x',
      channelsRead: 2000,
      peakRssMb: 100,
      startRssMb: 50,
      serverCpuMs: 10,
    });
    const results: BenchResults = {
      formatVersion: 1,
      date: '2026-01-01T00:00:00.000Z',
      node: 'v20',
      cpus: 2,
      scale: 1,
      counts: {
        channels: 2000,
        groups: 300,
        users: 10000,
        subscriptions: 100000,
        folders: 20,
        newChannels: 20,
        newGroups: 3,
      },
      featureLevel: 478,
      rateLimit: 'off',
      plan: {
        ours: m(2, 1000),
        naive: { ...m(2009, 3000), strategy: 'naive' },
        ratios: { requests: 1004.5, wallTime: 3, peakRss: 1 },
        samePlan: true,
        replayed: {
          ours: m(2, 500),
          naive: { ...m(2009, 2000), strategy: 'naive' },
          complete: true,
        },
      },
      apply: null,
      totalMs: 5000,
    };
    const text = renderReport(results);
    expect(text).toContain('rate limiting OFF');
    expect(text).toMatch(/requests\s+2\s+2,009\s+1,005x/);
    expect(text).toMatch(/modelled at 200 req\/min.*600 ms\s+10\.0 min/);
    expect(text).toContain('apply benchmark: skipped');
    expect(text).not.toContain('(d) bulk subscribe');

    // --only subscribe: no organization, no plan, no apply; (d) and its ratios.
    const sub = (channels: number, wallMs: number, cpuMs: number) => ({
      channels,
      wallMs,
      cpuMs,
      subscribed: channels,
      events: 2 * channels,
      peakRssMb: 200,
    });
    const only = renderReport({
      ...results,
      only: 'subscribe',
      counts: null,
      plan: null,
      apply: null,
      subscribe: {
        small: sub(2000, 200, 150),
        large: sub(20000, 1000, 900),
        ratioToLinear: 0.5,
        cpuRatioToLinear: 0.6,
      },
    });
    expect(only).toContain('zulip-cdk bench: only (d) bulk subscribe');
    expect(only).not.toContain('(a) plan');
    expect(only).not.toContain('(c) apply');
    expect(only).toMatch(/20,000 channels\s+1\.0 s\s+900 ms\s+40,000\s+200 MB/);
    expect(only).toContain('wall time 0.50x, CPU 0.60x (1 when linear; target under 3x)');

    // --only synth: (f) and its ratios, no emulator.
    const syn = (constructs: number, constructMs: number, synthMs: number, cpuMs: number) => ({
      constructs,
      constructMs,
      synthMs,
      cpuMs,
      peakRssMb: 150,
    });
    const synthOnly = renderReport({
      ...results,
      only: 'synth',
      counts: null,
      plan: null,
      apply: null,
      synth: {
        small: syn(1220, 30, 40, 90),
        large: syn(12200, 200, 300, 700),
        ratioToLinear: 0.71,
        cpuRatioToLinear: 0.78,
      },
    });
    expect(synthOnly).toContain('zulip-cdk bench: only (f) synth');
    expect(synthOnly).not.toContain('emulator');
    expect(synthOnly).toMatch(/12,200 constructs\s+200 ms\s+300 ms\s+700 ms\s+150 MB/);
    expect(synthOnly).toContain('wall time 0.71x, CPU 0.78x (1 when linear; target under 3x)');
  });

  it('synthesizes the organization it declares as constructs', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-synth-'));
    try {
      const m = measureSynth(50, dir);
      // 50 users, a channel per 5, a group per 50.
      expect(m.constructs).toBe(50 + 10 + 1);
      const desired = JSON.parse(readFileSync(path.join(dir, 'acme.zulip.json'), 'utf8')) as {
        users: unknown[];
        channels: unknown[];
        userGroups: unknown[];
      };
      expect([desired.users.length, desired.channels.length, desired.userGroups.length]).toEqual([
        50, 10, 1,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('subscribes to N new channels in one call and counts the events queued', async () => {
    const m = await measureBulkSubscribe(30, { warmUp: false });
    expect(m.subscribed).toBe(30);
    // A stream create and a subscription add per channel, in the owner's queue.
    expect(m.events).toBe(60);
    expect(m.wallMs).toBeGreaterThan(0);
  });
});
