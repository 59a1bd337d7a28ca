import type { ApplyMeasurement } from './measure-apply';
import type { PlanMeasurement } from './measure';
import type { SubscribeMeasurement } from './measure-subscribe';
import type { SynthMeasurement } from './measure-synth';
import type { BenchOrgCounts } from './org-generator';

/** Zulip's default rate limit for authenticated API requests (`api_by_user`). */
export const DEFAULT_RATE_PER_MINUTE = 200;

/** One apply-from-nothing measurement and the organization it ran on. */
export type ApplyRun = ApplyMeasurement & {
  readonly scale: number;
  readonly counts: BenchOrgCounts;
  readonly serverCpuMs: number;
};

/** (d) One call subscribing to N new channels, then to 10 N (issue 12: linear, not quadratic). */
export interface SubscribeRun {
  readonly small: SubscribeMeasurement;
  readonly large: SubscribeMeasurement;
  /** The large call's wall time / (10 × the small one's): 1 when linear; the target is < 3. */
  readonly ratioToLinear: number;
  /** The same with CPU times (steadier than wall times on a loaded machine). */
  readonly cpuRatioToLinear: number;
}

/** (f) Synth of an organization of N users as constructs, then of 10 N (linear, not quadratic). */
export interface SynthRun {
  readonly small: SynthMeasurement;
  readonly large: SynthMeasurement;
  /** The large synth's wall time (declaring and synth) / (10 × the small one's): 1 when linear. */
  readonly ratioToLinear: number;
  /** The same with CPU times. */
  readonly cpuRatioToLinear: number;
}

/** Everything one bench run measured (what `--json FILE` writes). */
export interface BenchResults {
  readonly formatVersion: 1;
  readonly date: string;
  readonly node: string;
  readonly cpus: number;
  /** The commit measured (`git rev-parse HEAD`), when known. */
  readonly commit?: string;
  /** 1-minute load average at the start: other work on the machine slows the wall times. */
  readonly loadAverage?: number;
  /** `--only subscribe` or `--only synth`: only (d) or (f) ran (no organization generated, no plan, no apply). */
  readonly only?: 'subscribe' | 'synth';
  readonly scale: number;
  readonly counts: BenchOrgCounts | null;
  readonly featureLevel: number;
  readonly rateLimit: 'off';
  readonly plan: {
    readonly ours: PlanMeasurement & { readonly serverCpuMs: number };
    readonly naive: PlanMeasurement & { readonly serverCpuMs: number };
    readonly ratios: {
      readonly requests: number;
      readonly wallTime: number;
      readonly peakRss: number;
    };
    readonly samePlan: boolean;
    /** (a) and (b) again with the emulator's responses replayed from memory. */
    readonly replayed: {
      readonly ours: PlanMeasurement & { readonly serverCpuMs: number };
      readonly naive: PlanMeasurement & { readonly serverCpuMs: number };
      /** Whether every replayed request was found in the recording. */
      readonly complete: boolean;
    };
  } | null;
  readonly apply: {
    /** At the bench's scale: executed, or planned with predicted requests. */
    readonly atScale: ApplyRun;
    /** Executed with rate limiting off (at --apply-scale). */
    readonly executed: ApplyRun;
    /** Executed with the emulator's rate limit at 200/min (at --rate-limited-scale). */
    readonly rateLimited: ApplyRun | null;
    /** (e) The ~5% change of (a) applied to the full organization (absent in older results). */
    readonly incremental?: ApplyRun | null;
  } | null;
  /** (d) bulk subscribe; absent in results written before it existed. */
  readonly subscribe?: SubscribeRun | null;
  /** (f) synth; absent in results written before it existed. */
  readonly synth?: SynthRun | null;
  readonly totalMs: number;
}

/** Minutes a number of requests takes at `perMinute` (the brief's model: requests / rate). */
export function modelledMinutes(requests: number, perMinute = DEFAULT_RATE_PER_MINUTE): number {
  return requests / perMinute;
}

const int = (n: number): string => Math.round(n).toLocaleString('en-US');

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 2 * 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

const ratio = (a: number, b: number): string =>
  b === 0 ? 'n/a' : a / b >= 100 ? `${int(a / b)}x` : `${(a / b).toFixed(2)}x`;

function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
        .join('   ')
        .trimEnd(),
    )
    .join('\n');
}

/** The readable report printed on stdout. */
export function renderReport(r: BenchResults): string {
  const c = r.counts;
  const out: string[] = [];
  out.push(
    c === null
      ? `zulip-cdk bench: only ${r.only === 'synth' ? '(f) synth' : '(d) bulk subscribe'}`
      : `zulip-cdk bench: scale ${r.scale} (${int(c.channels)} channels, ${int(c.groups)} groups, ` +
          `${int(c.users)} users, ${int(c.subscriptions)} subscriptions, ${int(c.folders)} folders)`,
    `node ${r.node}, ${r.cpus} CPUs` +
      (r.loadAverage === undefined
        ? ''
        : ` (load average ${r.loadAverage.toFixed(1)} at the start)`) +
      (r.commit === undefined ? '' : `, commit ${r.commit.slice(0, 7)}`) +
      (r.only === 'synth'
        ? '; each measurement in a fresh child process.'
        : `; emulator at feature level ${r.featureLevel} in its own process; each measurement in a fresh child process.`),
  );
  if (r.plan) renderPlan(r.plan, out);
  if (r.only === undefined) renderApply(r.apply, out);
  if (r.only === undefined) renderIncremental(r.apply?.incremental, out);
  if (r.subscribe) renderSubscribe(r.subscribe, out);
  if (r.synth) renderSynth(r.synth, out);
  out.push('', `bench total: ${duration(r.totalMs)}`);
  return out.join('\n') + '\n';
}

/** (a) and (b). */
function renderPlan(plan: NonNullable<BenchResults['plan']>, out: string[]): void {
  const { ours, naive } = plan;
  const rep = plan.replayed;
  out.push('', '(a) plan vs (b) naive read, rate limiting OFF on the emulator', '');
  const model = (m: PlanMeasurement): string => duration(modelledMinutes(m.requests) * 60_000);
  out.push(
    table([
      ['', 'ours', 'naive', 'naive/ours'],
      ['read strategy', 'POST /register', 'list + 1 per channel', ''],
      ['requests', int(ours.requests), int(naive.requests), ratio(naive.requests, ours.requests)],
      [
        'read wall time',
        duration(ours.readMs),
        duration(naive.readMs),
        ratio(naive.readMs, ours.readMs),
      ],
      [
        '  of which emulator CPU',
        duration(ours.serverCpuMs),
        duration(naive.serverCpuMs),
        ratio(naive.serverCpuMs, ours.serverCpuMs),
      ],
      ['plan (diff) time', duration(ours.planMs), duration(naive.planMs), ''],
      [
        'wall time (read + plan)',
        duration(ours.totalMs),
        duration(naive.totalMs),
        ratio(naive.totalMs, ours.totalMs),
      ],
      [
        'peak RSS (measuring process)',
        `${int(ours.peakRssMb ?? 0)} MB`,
        `${int(naive.peakRssMb ?? 0)} MB`,
        ratio(naive.peakRssMb ?? 0, ours.peakRssMb ?? 1),
      ],
      [
        '  before the read (node, tsx, modules)',
        `${int(ours.startRssMb ?? 0)} MB`,
        `${int(naive.startRssMb ?? 0)} MB`,
        '',
      ],
      [
        '  growth during read + plan',
        `${int((ours.peakRssMb ?? 0) - (ours.startRssMb ?? 0))} MB`,
        `${int((naive.peakRssMb ?? 0) - (naive.startRssMb ?? 0))} MB`,
        ratio(
          (naive.peakRssMb ?? 0) - (naive.startRssMb ?? 0),
          (ours.peakRssMb ?? 0) - (ours.startRssMb ?? 0),
        ),
      ],
      [
        `modelled at ${DEFAULT_RATE_PER_MINUTE} req/min (requests / ${DEFAULT_RATE_PER_MINUTE} min)`,
        model(ours),
        model(naive),
        ratio(naive.requests, ours.requests),
      ],
      [
        'changes in the plan',
        int(ours.changes),
        int(naive.changes),
        plan.samePlan ? 'same plan' : 'PLANS DIFFER',
      ],
      ['replayed from memory (server time ~0):', '', '', ''],
      [
        '  read wall time',
        duration(rep.ours.readMs),
        duration(rep.naive.readMs),
        ratio(rep.naive.readMs, rep.ours.readMs),
      ],
      [
        '  wall time (read + plan)',
        duration(rep.ours.totalMs),
        duration(rep.naive.totalMs),
        ratio(rep.naive.totalMs, rep.ours.totalMs),
      ],
      [
        '  peak RSS (measuring process)',
        `${int(rep.ours.peakRssMb ?? 0)} MB`,
        `${int(rep.naive.peakRssMb ?? 0)} MB`,
        ratio(rep.naive.peakRssMb ?? 0, rep.ours.peakRssMb ?? 1),
      ],
    ]),
  );
  out.push(
    '',
    'Emulator CPU: time the emulator process spent serving the read (its views answer from',
    'in-memory indexes: subscriptions by channel and by user, users and groups by ID).',
    '"Replayed from memory": the same requests answered by a recording proxy in front of the',
    'emulator (in its own process), without asking it again: what each strategy costs on the',
    'client and the wire.',
    `Rate limiting is off for (a) and (b); the modelled line is what the request count costs at`,
    `Zulip's default of ${DEFAULT_RATE_PER_MINUTE} requests per minute, which dominates on a real server.`,
  );

  const floor = rep.ours.floor;
  if (floor) {
    out.push(
      '',
      `Floor (issue 17): a bare JSON.parse of the same register response (${(floor.bytes / 1e6).toFixed(1)} MB) in the`,
      `replayed process after its measurement, best of three: ${duration(floor.parseMs)} (UTF-8 decoding before it: ${duration(floor.decodeMs)}).`,
      `  replayed read + plan / JSON.parse: ${duration(rep.ours.totalMs)} / ${duration(floor.parseMs)} = ${ratio(rep.ours.totalMs, floor.parseMs)} (target: 3x at most, and 3 s)`,
      `  replayed read / JSON.parse: ${ratio(rep.ours.readMs, floor.parseMs)}; plan / JSON.parse: ${ratio(rep.ours.planMs, floor.parseMs)}`,
      ...(floor.parseCpuMs !== undefined &&
      rep.ours.readCpuMs !== undefined &&
      rep.ours.planCpuMs !== undefined
        ? [
            `  by CPU time (steadier on a loaded machine): read ${duration(rep.ours.readCpuMs)} + plan ${duration(rep.ours.planCpuMs)} / JSON.parse ${duration(floor.parseCpuMs)} = ${ratio(rep.ours.readCpuMs + rep.ours.planCpuMs, floor.parseCpuMs)}`,
          ]
        : []),
      ...(floor.wireMs !== undefined && floor.receiveMs !== undefined
        ? [
            `  the wire's floor: the same body received from the same server (${duration(floor.receiveMs)}), decoded and parsed: ${duration(floor.wireMs)}`,
            `  replayed read + plan / that floor: ${ratio(rep.ours.totalMs, floor.wireMs)}; replayed read / that floor: ${ratio(rep.ours.readMs, floor.wireMs)}`,
          ]
        : []),
      `  peak RSS of the replayed planning process: ${int(rep.ours.peakRssMb ?? 0)} MB (target: 450 MB at most)`,
    );
  }
  const phases = rep.ours.planPhases;
  if (phases)
    out.push(
      '  plan phases: ' +
        Object.entries(phases)
          .map(([k, ms]) => `${k} ${duration(ms)}`)
          .join(', '),
    );
  if (!rep.complete)
    out.push('note: some replayed requests were not in the recording and went to the emulator.');
}

/** (c). */
function renderApply(a: BenchResults['apply'], out: string[]): void {
  out.push(
    '',
    '(c) apply from nothing: the same organization with only its users, and the desired state above',
    '',
  );
  if (!a) out.push('apply benchmark: skipped (--no-apply)');
  else if (!a.executed.available) out.push('apply benchmark: not available yet');
  else {
    const full = a.atScale;
    const ex = a.executed;
    const ours = full.requests ?? full.predictedRequests;
    const at = (n: number): string => duration(modelledMinutes(n) * 60_000);
    out.push(
      table([
        [
          `scale ${full.scale}: ${int(full.changes)} changes`,
          'requests',
          `at ${DEFAULT_RATE_PER_MINUTE} req/min`,
          'vs ours',
        ],
        [
          full.executed ? 'ours (measured)' : 'ours (predicted, see below)',
          int(ours),
          at(ours),
          '',
        ],
        [
          '1 request per change',
          int(full.naivePerChange),
          at(full.naivePerChange),
          ratio(full.naivePerChange, ours),
        ],
        [
          '1 request per item (subscription, member, property)',
          int(full.naivePerItem),
          at(full.naivePerItem),
          ratio(full.naivePerItem, ours),
        ],
      ]),
      '',
      `"at ${DEFAULT_RATE_PER_MINUTE} req/min" is the modelled wall time, requests / ${DEFAULT_RATE_PER_MINUTE} minutes: at Zulip's`,
      'default rate limit the request count, not the server, sets the time of a large apply.',
    );
    if (!full.executed)
      out.push(
        `"predicted": from the engine's execution order (one request per step, the subscribers and`,
        'members of new channels and groups sent inside their create, plus the re-read before',
        `writing). The apply itself is executed at scale ${ex.scale} below (--apply-scale), where`,
        'predicted and measured are compared.',
      );
    const run = (x: ApplyRun, label: string): void => {
      out.push(
        '',
        `${label}: ${int(x.counts.channels)} channels, ${int(x.counts.groups)} groups, ` +
          `${int(x.counts.users)} users, ${int(x.counts.subscriptions)} subscriptions; ${int(x.changes)} changes`,
        table([
          [
            '  requests sent (429 retries included) / predicted',
            `${int(x.requests ?? 0)} / ${int(x.predictedRequests)}`,
          ],
          [
            '  1 request per change / per item',
            `${int(x.naivePerChange)} / ${int(x.naivePerItem)}`,
          ],
          ['  wall time (measured)', duration(x.wallMs ?? 0)],
          [`  wall time modelled at ${DEFAULT_RATE_PER_MINUTE} req/min`, at(x.requests ?? 0)],
          ['  emulator CPU (plan read, apply, check)', duration(x.serverCpuMs)],
          ['  429 responses waited out', int(x.rateLimitHits ?? 0)],
          ['  changes left by the next plan', int(x.leftAfter ?? -1)],
          ['  peak RSS (applying process)', `${int(x.peakRssMb ?? 0)} MB`],
        ]),
      );
      if (x.byEndpoint) out.push(byEndpointLine(x.byEndpoint));
    };
    out.push(
      '',
      floorLine(full, full.executed ? 'measured' : 'predicted'),
      `  floor: ${floorParts(full)}`,
    );
    run(ex, `executed at scale ${ex.scale}, rate limiting off`);
    if (ex !== full) out.push(floorLine(ex, 'measured'));
    if (a.rateLimited)
      run(
        a.rateLimited,
        `executed at scale ${a.rateLimited.scale} with the emulator's rate limit at ${DEFAULT_RATE_PER_MINUTE}/min`,
      );
  }
}

function floorParts(x: ApplyRun): string {
  return Object.entries(x.floor?.byKind ?? {})
    .map(([k, n]) => `${k} ${int(n)}`)
    .join(', ');
}

/** Our write requests against the fewest Zulip allows (bench/floor.ts); target 1.2x at most. */
function floorLine(x: ApplyRun, how: string): string {
  const floor = x.floor?.total ?? 0;
  const writes = x.writes ?? 0;
  return `  write requests (${how}) / the API's floor: ${int(writes)} / ${int(floor)} = ${ratio(writes, floor)} (target: 1.2x at most)`;
}

/** The requests of an apply by endpoint, most first. */
function byEndpointLine(byEndpoint: Readonly<Record<string, number>>): string {
  return (
    '  by endpoint: ' +
    Object.entries(byEndpoint)
      .sort((p, q) => q[1] - p[1])
      .map(([e, n]) => `${e} ${int(n)}`)
      .join(', ')
  );
}

/** (e). */
function renderIncremental(x: ApplyRun | null | undefined, out: string[]): void {
  if (!x) return;
  out.push(
    '',
    `(e) incremental apply: the plan of (a), ${int(x.changes)} changes, applied to the full organization at scale ${x.scale}`,
    '',
    table([
      [
        '  requests sent (reads included) / write requests',
        `${int(x.requests ?? 0)} / ${int(x.writes ?? 0)}`,
      ],
      ["  the API's floor (fewest write requests)", int(x.floor?.total ?? 0)],
      ['  write requests / floor (target 1.2x at most)', ratio(x.writes ?? 0, x.floor?.total ?? 0)],
      ['  1 request per change / per item', `${int(x.naivePerChange)} / ${int(x.naivePerItem)}`],
      ['  wall time (measured, rate limiting off)', duration(x.wallMs ?? 0)],
      [
        `  wall time modelled at ${DEFAULT_RATE_PER_MINUTE} req/min`,
        duration(modelledMinutes(x.requests ?? 0) * 60_000),
      ],
      ['  changes left by the next plan', int(x.leftAfter ?? -1)],
    ]),
    `  floor: ${floorParts(x)}`,
  );
  if (x.byEndpoint) out.push(byEndpointLine(x.byEndpoint));
}

/** (d). */
function renderSubscribe(s: SubscribeRun, out: string[]): void {
  const row = (m: SubscribeMeasurement): string[] => [
    `${int(m.channels)} channels`,
    duration(m.wallMs),
    duration(m.cpuMs),
    int(m.events),
    `${int(m.peakRssMb ?? 0)} MB`,
  ];
  out.push(
    '',
    '(d) bulk subscribe: one POST /users/me/subscriptions creating every channel (demo organization)',
    '',
    table([['', 'wall time', 'CPU', 'events queued', 'peak RSS'], row(s.small), row(s.large)]),
    '',
    `${int(s.large.channels)} channels / ${int(s.large.channels / s.small.channels)} × ${int(s.small.channels)} channels: ` +
      `wall time ${s.ratioToLinear.toFixed(2)}x, CPU ${s.cpuRatioToLinear.toFixed(2)}x (1 when linear; target under 3x)`,
    'Each size in a fresh child process (after a 200-channel warm-up call), with the emulator in it',
    "and the owner's event queue registered. Wall times include waiting for a CPU: on a loaded",
    'machine the CPU ratio is the steadier one.',
  );
}

function renderSynth(s: SynthRun, out: string[]): void {
  const row = (m: SynthMeasurement): string[] => [
    `${int(m.constructs)} constructs`,
    duration(m.constructMs),
    duration(m.synthMs),
    duration(m.cpuMs),
    `${int(m.peakRssMb ?? 0)} MB`,
  ];
  out.push(
    '',
    '(f) synth: users, a channel per 5 users and a group per 50, declared as constructs, validated and written',
    '',
    table([['', 'declaring', 'synth', 'CPU', 'peak RSS'], row(s.small), row(s.large)]),
    '',
    `${int(s.large.constructs)} constructs / ${int(s.large.constructs / s.small.constructs)} × ${int(s.small.constructs)}: ` +
      `wall time ${s.ratioToLinear.toFixed(2)}x, CPU ${s.cpuRatioToLinear.toFixed(2)}x (1 when linear; target under 3x)`,
    'Each size in a fresh child process. Module loading is not counted.',
  );
}
