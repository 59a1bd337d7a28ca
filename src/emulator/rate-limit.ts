/**
 * Zulip's per-user API rate limit (NOTES 4): a sliding window of `max` requests per
 * `windowSeconds`, with the `X-RateLimit-*` headers and a float `Retry-After`.
 */
export interface RateLimitOptions {
  /** Requests per window. Default 200. */
  readonly max: number;
  /** Window length in seconds. Default 60. */
  readonly windowSeconds?: number;
}

/** The result of counting one request. */
export interface RateLimitResult {
  readonly allowed: boolean;
  readonly headers: Record<string, string>;
  /** Seconds until a request is allowed again (when not allowed). */
  readonly retryAfter: number;
}

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly max: number;
  private readonly windowMs: number;

  public constructor(options: RateLimitOptions) {
    this.max = options.max;
    this.windowMs = (options.windowSeconds ?? 60) * 1000;
  }

  /** Counts a request of `key` at `now` (ms). */
  public hit(key: string, now: number): RateLimitResult {
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    this.hits.set(key, list);
    const oldest = list[0];
    if (list.length >= this.max && oldest !== undefined) {
      const retryAfter = (oldest + this.windowMs - now) / 1000;
      return {
        allowed: false,
        retryAfter,
        headers: this.headers(0, now, oldest),
      };
    }
    list.push(now);
    return {
      allowed: true,
      retryAfter: 0,
      headers: this.headers(this.max - list.length, now, list[0] ?? now),
    };
  }

  private headers(remaining: number, now: number, oldest: number): Record<string, string> {
    const reset = Math.ceil(Math.max(oldest + this.windowMs, now) / 1000);
    return {
      'X-RateLimit-Limit': String(this.max),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(reset),
    };
  }
}
