/**
 * Zulip's per-user API rate limit (NOTES 4): a sliding window of `max` requests per
 * `windowSeconds`, with the `X-RateLimit-*` headers and a float `Retry-After`, as Zulip's Redis
 * backend counts (zerver/lib/rate_limiter.py RedisRateLimiterBackend).
 */
import { supports } from '../model/features';

/**
 * The 429 message (zerver/lib/exceptions.py RateLimitedError). The link was added after
 * Zulip 11.0: a 12.0-dev server of October 2025 still sent the bare text (zulip/zulip#36237),
 * the source at FL 442 has the link. Which level in between changed it is not known; the
 * emulator switches at 442.
 */
export function rateLimitMessage(featureLevel: number): string {
  return supports(featureLevel, 'rateLimitDocsLink')
    ? 'API usage exceeded rate limit; see https://zulip.com/api/http-headers#rate-limiting-response-headers'
    : 'API usage exceeded rate limit';
}
/** Rate limit settings of the embedded server. */
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

/** A rule (`max` requests per window) and the headers Zulip's middleware sends for it. */
abstract class WindowLimiter {
  public readonly max: number;
  protected readonly windowMs: number;

  public constructor(options: RateLimitOptions) {
    this.max = options.max;
    this.windowMs = (options.windowSeconds ?? 60) * 1000;
  }

  /** Counts a request of `key` at `now` (ms). */
  public abstract hit(key: string, now: number): RateLimitResult;

  protected headers(remaining: number, resetAtMs: number): Record<string, string> {
    return rateLimitHeaders(this.max, remaining, resetAtMs);
  }
}

/** RateLimitMiddleware: `X-RateLimit-Reset` is `int(now + secs_to_freedom)`, truncated. */
export function rateLimitHeaders(
  limit: number,
  remaining: number,
  resetAtMs: number,
): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(Math.floor(resetAtMs / 1000)),
  };
}

export class RateLimiter extends WindowLimiter {
  private readonly hits = new Map<string, number[]>();

  /** Counts a request of `key` at `now` (ms). */
  public hit(key: string, now: number): RateLimitResult {
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    this.hits.set(key, list);
    const oldest = list[0];
    if (list.length >= this.max && oldest !== undefined) {
      const retryAfter = (oldest + this.windowMs - now) / 1000;
      // is_ratelimited: free when the oldest of the last `max` calls leaves the window.
      return { allowed: false, retryAfter, headers: this.headers(0, oldest + this.windowMs) };
    }
    list.push(now);
    // get_api_calls_left: calls left in the window, reset when the newest call (this one) leaves.
    return {
      allowed: true,
      retryAfter: 0,
      headers: this.headers(this.max - list.length, now + this.windowMs),
    };
  }
}

/**
 * Zulip's Tornado backend (zerver/lib/rate_limiter.py TornadoInMemoryRateLimiterBackend): GET and
 * DELETE /events are answered by Tornado and counted there, apart from every other request. Each
 * key has a reset time that an allowed request moves `window / max` later (`need_to_limit`: at
 * most `max` in a window, plus one); calls left are what the reset time leaves of the window
 * (`get_api_calls_left`). A refused request's headers say 0 left, free in `Retry-After`
 * (`RateLimitedObject.rate_limit_request`).
 */
export class TornadoRateLimiter extends WindowLimiter {
  private readonly resetTimes = new Map<string, number>();

  /** Counts a request of `key` at `now` (ms). */
  public hit(key: string, now: number): RateLimitResult {
    const newReset = Math.max(this.resetTimes.get(key) ?? now, now) + this.windowMs / this.max;
    if (newReset > now + this.windowMs) {
      const retryAfter = (newReset - this.windowMs - now) / 1000;
      return { allowed: false, retryAfter, headers: this.headers(0, now + retryAfter * 1000) };
    }
    this.resetTimes.set(key, newReset);
    const left = Math.floor(((now + this.windowMs - newReset) * this.max) / this.windowMs);
    return { allowed: true, retryAfter: 0, headers: this.headers(left, newReset) };
  }
}
