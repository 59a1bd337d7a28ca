import { ZulipCdkError } from '../model/errors';
import { compilePath } from './router';

/**
 * Fault injection for tests: on a seeded fraction of requests, or on the Nth request matching
 * a route, delay the answer, answer 429 or 5xx, or destroy the socket; before the request is
 * handled (nothing changes) or after (the change is made, the answer is lost).
 */
export interface FaultRule {
  /** What happens. */
  readonly kind: 'latency' | 'rate-limit' | 'server-error' | 'drop';
  /** HTTP method to match; any when absent. */
  readonly method?: string;
  /**
   * Path under `/api/v1` to match: a pattern like `/streams/{stream_id}` or `/users/*`; any when
   * absent.
   */
  readonly path?: string;
  /** 1-based positions among the requests this rule matches, e.g. `2` or `[1, 3]`. */
  readonly nth?: number | readonly number[];
  /** Probability (0..1) per matching request, drawn from the seeded generator. */
  readonly fraction?: number;
  /** For `latency`: the delay. Default 100 ms. */
  readonly latencyMs?: number;
  /** For `server-error`: the status. Default 500. */
  readonly status?: number;
  /**
   * For `server-error`: the body. `zulip` is Zulip's JSON error (what Django answers for an
   * unhandled exception), `html` a proxy's error page (what nginx answers while Zulip
   * restarts). Default `zulip` for 500, `html` otherwise.
   */
  readonly body?: 'zulip' | 'html';
  /** For `rate-limit`: the `Retry-After` seconds. Default 0.5. */
  readonly retryAfter?: number;
  /**
   * `before` (the default): the fault replaces the handling, so the request changes nothing.
   * `after`: the request is handled first (its changes are made, and saved with `persist`),
   * then the fault replaces the answer: the client cannot tell whether its write landed, as
   * behind a proxy that timed out on a slow server. A `latency` fault `after` delays the
   * answer. Rate limiting is decided before handling: `rate-limit` does not take `after`.
   */
  readonly when?: 'before' | 'after';
}

/** Fault settings: the rules and the seed of the generator for `fraction`. */
export interface FaultOptions {
  readonly seed?: number;
  readonly rules: readonly FaultRule[];
}

/** A fault decided for one request, and whether it comes before or after the handling. */
export type FaultDecision = (
  | { kind: 'latency'; ms: number }
  | { kind: 'rate-limit'; retryAfter: number }
  | { kind: 'server-error'; status: number; body: 'zulip' | 'html' }
  | { kind: 'drop' }
) & { when: 'before' | 'after' };

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface RuleState {
  rule: FaultRule;
  re: RegExp | undefined;
  count: number;
}

/** Decides the faults of each request, deterministically for a given seed and request order. */
export class FaultInjector {
  private rules: RuleState[] = [];
  private random: () => number = mulberry32(1);

  public constructor(options?: FaultOptions) {
    this.set(options);
  }

  /** Replaces the rules (and resets counters and the generator). */
  public set(options: FaultOptions | undefined): void {
    for (const rule of options?.rules ?? [])
      if (rule.kind === 'rate-limit' && rule.when === 'after')
        throw new ZulipCdkError(
          'EMULATOR_FAULTS',
          "A rate-limit fault is decided before the request is handled; it does not take when: 'after'.",
          {
            hint: "Leave `when` out of the rate-limit rule (or use a server-error or drop fault with when: 'after').",
          },
        );
    this.random = mulberry32(options?.seed ?? 1);
    this.rules = (options?.rules ?? []).map((rule) => ({
      rule,
      re: rule.path === undefined ? undefined : pathRegExp(rule.path),
      count: 0,
    }));
  }

  /**
   * The faults for one request, in rule order; the server applies those `before` the handling
   * (latencies, then the first failure), then those `after` it.
   */
  public decide(method: string, path: string): FaultDecision[] {
    const out: FaultDecision[] = [];
    for (const s of this.rules) {
      const { rule } = s;
      if (rule.method !== undefined && rule.method.toUpperCase() !== method) continue;
      if (s.re && !s.re.test(path)) continue;
      s.count += 1;
      let hit = rule.nth === undefined && rule.fraction === undefined;
      if (rule.nth !== undefined) {
        const nths = typeof rule.nth === 'number' ? [rule.nth] : rule.nth;
        if (nths.includes(s.count)) hit = true;
      }
      if (rule.fraction !== undefined && this.random() < rule.fraction) hit = true;
      if (!hit) continue;
      const when = rule.when ?? 'before';
      switch (rule.kind) {
        case 'latency':
          out.push({ kind: 'latency', ms: rule.latencyMs ?? 100, when });
          break;
        case 'rate-limit':
          out.push({ kind: 'rate-limit', retryAfter: rule.retryAfter ?? 0.5, when });
          break;
        case 'server-error': {
          const status = rule.status ?? 500;
          out.push({
            kind: 'server-error',
            status,
            body: rule.body ?? (status === 500 ? 'zulip' : 'html'),
            when,
          });
          break;
        }
        case 'drop':
          out.push({ kind: 'drop', when });
          break;
      }
    }
    return out;
  }
}

function pathRegExp(pattern: string): RegExp {
  if (pattern.includes('*')) {
    const src = pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${src}$`);
  }
  return compilePath(pattern).re;
}
