import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { Pool } from 'undici';
import { ZulipCdkError } from '../model/errors';
import { normalizeSite } from './credentials';
import type { ZulipCredentials } from './credentials';
import { encodeForm, encodeMultipart } from './encode';
import { ZulipApiError } from './errors';
import {
  GATEWAY_STATUSES,
  NOT_SENT_CODES,
  TRANSIENT_CODES,
  TRANSIENT_STATUSES,
  backoffDelay,
  errorCodeOf,
  isTlsError,
  networkError,
  unavailable,
} from './retry';
import type { RetryOptions } from './retry';
import { USER_AGENT } from './version';
import { readResponseBody } from './json-body';
import type { ResponseBody } from './json-body';
import type {
  ClientEvent,
  ClientWarning,
  HttpStats,
  RateLimitBudget,
  TimeoutOptions,
  ZulipBody,
  ZulipHttpOptions,
  ZulipRequest,
} from './http-types';

export type { RetryOptions } from './retry';

const API_PREFIX = '/api/v1';

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function finiteNumber(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * What to do after a 429 the client did not wait out: Zulip asked for longer than it waits (a
 * server with a longer rule than 200 a minute, such as an hourly one, whose headers alone
 * Zulip sends), or the retries ran out.
 */
function rateLimitHint(retryAfter: unknown, maxWaitMs: number): string {
  if (typeof retryAfter !== 'number' || retryAfter * 1000 <= maxWaitMs)
    return 'Wait and try again, or lower the request rate.';
  return `Zulip asks to wait ${Math.ceil(retryAfter)} s, longer than the ${Math.round(maxWaitMs / 1000)} s this client waits (a rate limit over a longer window than a minute); run it again after that: a new plan shows what is left.`;
}

/** How long a GET /events long-poll may wait for its answer: Zulip's 90 s, and a margin. */
const LONG_POLL_MS = 100_000;

/**
 * The HTTP layer of the Zulip client: undici with one `Pool` per origin, HTTP Basic auth,
 * form-encoded parameters, Zulip error mapping, rate-limit handling and retries.
 *
 * Retry rules:
 * - a 429 `RATE_LIMIT_HIT` is waited out (`Retry-After`, float seconds) and repeated, for any
 *   method: Zulip rejects rate-limited requests before doing anything;
 * - a connection that failed before sending (refused, connect timeout, `EAI_AGAIN`) is
 *   retried, for any method;
 * - dropped connections, timeouts and HTTP 500/502/503/504 are retried with bounded
 *   exponential backoff and jitter only for idempotent requests (GET, and the endpoints marked
 *   idempotent: `POST /register`, `DELETE /events`). Any other POST, PATCH or DELETE is never
 *   repeated once it may have reached the server: it fails with `REQUEST_OUTCOME_UNKNOWN` (or
 *   a `ZulipApiError` with status 500), and the caller re-reads state and decides. (PATCH and
 *   DELETE are not treated as idempotent: a repeated `{new, old}` PATCH fails with
 *   `EXPECTATION_MISMATCH`, a repeated archive with "already deactivated", which would hide
 *   that the first attempt worked.)
 * - only when every attempt failed is it an error, saying how many attempts were made over how
 *   long, and blaming the server's state or the network, not the site.
 *
 * The API key never appears in errors or events: messages are built without headers and
 * are passed through the credentials' redaction.
 */

export class ZulipHttp {
  /** The normalised site, e.g. `https://chat.example.com`. */
  public readonly site: string;
  readonly #credentials: ZulipCredentials | undefined;
  readonly #origin: string;
  readonly #basePath: string;
  readonly #pools = new Map<string, Pool>();
  readonly #ca: (string | Buffer)[] | undefined;
  readonly #timeouts: Required<TimeoutOptions>;
  readonly #retry: Required<RetryOptions>;
  readonly #connections: number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #now: () => number;
  readonly #listeners = new Set<(event: ClientEvent) => void>();
  readonly #warnings: ClientWarning[] = [];
  #stats = { requestCount: 0, retryCount: 0, rateLimitHits: 0, paceWaits: 0, paceWaitMs: 0 };
  #budget: RateLimitBudget = {
    limit: undefined,
    remaining: undefined,
    resetAt: undefined,
    updatedAt: undefined,
  };
  #serverDate: number | undefined;
  #closed = false;

  public constructor(options: ZulipHttpOptions) {
    const site = options.credentials?.site ?? options.site;
    if (site === undefined) {
      throw new ZulipCdkError('CREDENTIALS_MISSING', 'A Zulip client needs credentials or a site.');
    }
    this.site = normalizeSite(site);
    const url = new URL(this.site);
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, '') + API_PREFIX;
    this.#credentials = options.credentials;
    const ca: (string | Buffer)[] = [];
    if (options.ca !== undefined) {
      if (Array.isArray(options.ca)) ca.push(...(options.ca as readonly (string | Buffer)[]));
      else ca.push(options.ca as string | Buffer);
    }
    const caFile = options.credentials?.caFile;
    if (caFile !== undefined) {
      try {
        ca.push(readFileSync(caFile));
      } catch (cause) {
        throw new ZulipCdkError('CREDENTIALS_INVALID', `Cannot read the CA bundle ${caFile}.`, {
          where: caFile,
          cause,
        });
      }
    }
    this.#ca = ca.length > 0 ? ca : undefined;
    this.#timeouts = {
      connectMs: options.timeouts?.connectMs ?? 10_000,
      headersMs: options.timeouts?.headersMs ?? 60_000,
      bodyMs: options.timeouts?.bodyMs ?? 60_000,
    };
    this.#retry = {
      maxAttempts: Math.max(1, options.retry?.maxAttempts ?? 4),
      baseDelayMs: options.retry?.baseDelayMs ?? 500,
      maxDelayMs: options.retry?.maxDelayMs ?? 8_000,
      maxRateLimitRetries: options.retry?.maxRateLimitRetries ?? 5,
      maxRetryAfterMs: options.retry?.maxRetryAfterMs ?? 120_000,
      paceFromHeaders: options.retry?.paceFromHeaders ?? true,
    };
    this.#connections = options.connections ?? 4;
    this.#sleep =
      options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
    if (options.onEvent !== undefined) this.#listeners.add(options.onEvent);
  }

  /** Counters: requests attempted, retries, 429s. */
  public get stats(): HttpStats {
    return { ...this.#stats };
  }

  /** The rate-limit budget from the last `X-RateLimit-*` headers. */
  public get rateLimit(): RateLimitBudget {
    return { ...this.#budget };
  }

  /**
   * The server's clock, in milliseconds, by the `Date` header of the last response that had
   * one (to the second); undefined before any.
   */
  public get serverDate(): number | undefined {
    return this.#serverDate;
  }

  /** Every warning so far (e.g. `ignored_parameters_unsupported`), oldest first. */
  public get warnings(): readonly ClientWarning[] {
    return [...this.#warnings];
  }

  /** Whether requests are authenticated. */
  public get authenticated(): boolean {
    return this.#credentials !== undefined;
  }

  /** The email requests are authenticated as, if any. */
  public get email(): string | undefined {
    return this.#credentials?.email;
  }

  /** Subscribes to events; returns the unsubscribe function. */
  public onEvent(listener: (event: ClientEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Replaces secrets in `text`. */
  public redact(text: string): string {
    return this.#credentials?.redact(text) ?? text;
  }

  /** Closes the connection pools. Further requests fail with `CLIENT_CLOSED`. */
  public async close(): Promise<void> {
    this.#closed = true;
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((p) => p.close()));
  }

  /** Sends one request; returns the parsed success body or throws. */
  public async request(req: ZulipRequest): Promise<ZulipBody> {
    const authenticated = req.authenticated ?? true;
    if (authenticated && this.#credentials === undefined) {
      throw new ZulipCdkError(
        'CREDENTIALS_MISSING',
        `${req.endpoint} needs credentials; this client has none.`,
        { where: req.endpoint },
      );
    }
    const idempotent = req.idempotent ?? req.method === 'GET';
    const encoded = encodeForm(req.params, req.jsonStrings);
    const fullPath = this.#basePath + req.path;
    const path = req.method === 'GET' && encoded !== '' ? `${fullPath}?${encoded}` : fullPath;
    const multipart =
      req.files !== undefined && req.method !== 'GET'
        ? encodeMultipart([...new URLSearchParams(encoded)], req.files)
        : undefined;
    const body: string | Buffer | undefined =
      req.method === 'GET' ? undefined : (multipart?.body ?? encoded);
    const label = `${req.method} ${fullPath}`;
    const headers: Record<string, string> = {
      'user-agent': USER_AGENT,
      accept: 'application/json',
    };
    if (body !== undefined)
      headers['content-type'] = multipart?.contentType ?? 'application/x-www-form-urlencoded';
    if (authenticated && this.#credentials !== undefined) {
      headers.authorization = this.#credentials.authorizationHeader();
    }

    const firstStarted = this.#now();
    let faults = 0;
    let rateLimited = 0;
    for (;;) {
      if (this.#closed) {
        throw new ZulipCdkError('CLIENT_CLOSED', 'The Zulip client is closed.', {
          where: req.endpoint,
        });
      }
      await this.#pace(req, label);
      const started = this.#now();
      let status: number;
      let resHeaders: Record<string, string | string[] | undefined>;
      let received: ResponseBody;
      this.#stats.requestCount += 1;
      try {
        const res = await this.#pool().request({
          path,
          method: req.method,
          headers,
          body: body ?? null,
          // A long-poll of GET /events is answered by an event or Zulip's heartbeat, within the
          // `event_queue_longpoll_timeout_seconds` register returns (90 by default): not before.
          headersTimeout:
            req.method === 'GET' && req.path === '/events'
              ? Math.max(this.#timeouts.headersMs, LONG_POLL_MS)
              : this.#timeouts.headersMs,
          bodyTimeout: this.#timeouts.bodyMs,
        });
        status = res.statusCode;
        resHeaders = res.headers;
        // Always consume the body, so the connection goes back to the pool.
        received = await readResponseBody(
          res.body,
          finiteNumber(headerValue(res.headers['content-length'])),
        );
      } catch (err) {
        const code = errorCodeOf(err) ?? 'UNKNOWN';
        const notSent = NOT_SENT_CODES.has(code);
        const tls = isTlsError(code);
        const retryable = !tls && TRANSIENT_CODES.has(code) && (idempotent || notSent);
        if (retryable && faults + 1 < this.#retry.maxAttempts && !this.#closed) {
          faults += 1;
          await this.#backoff(req, label, faults, 'connection', { errorCode: code });
          continue;
        }
        throw networkError(this, req, label, err, code, {
          notSent,
          idempotent,
          tls,
          attempts: faults + 1,
          elapsedMs: this.#now() - firstStarted,
        });
      }
      // GET and DELETE /events are Tornado's, counted in a bucket of their own
      // (zerver/lib/rate_limiter.py TornadoInMemoryRateLimiterBackend): their headers say
      // nothing of the budget the other requests share.
      // The server's clock (`Date`, to the second); NaN without one.
      const serverNow = Date.parse(headerValue(resHeaders.date) ?? '');
      if (!Number.isNaN(serverNow)) this.#serverDate = serverNow;
      if (req.path !== '/events') this.#readBudget(resHeaders, serverNow);
      this.#emit({
        type: 'response',
        endpoint: req.endpoint,
        request: label,
        status,
        durationMs: this.#now() - started,
      });
      const parsed = received.parse();

      if (status === 429) {
        this.#stats.rateLimitHits += 1;
        const seconds =
          finiteNumber(headerValue(resHeaders['retry-after'])) ??
          (typeof parsed?.['retry-after'] === 'number' ? parsed['retry-after'] : undefined) ??
          1;
        const delayMs = Math.max(0, Math.ceil(seconds * 1000));
        if (
          rateLimited < this.#retry.maxRateLimitRetries &&
          delayMs <= this.#retry.maxRetryAfterMs
        ) {
          rateLimited += 1;
          this.#stats.retryCount += 1;
          this.#emit({
            type: 'retry',
            reason: 'rate-limit',
            endpoint: req.endpoint,
            request: label,
            attempt: rateLimited,
            maxAttempts: this.#retry.maxRateLimitRetries + 1,
            delayMs,
            status,
          });
          await this.#sleep(delayMs);
          // Retry-After was the wait: the 429's budget headers are not waited for again.
          this.#budget = { ...this.#budget, remaining: undefined };
          continue;
        }
        throw this.#apiError(req, label, status, {
          ...(parsed ?? {}),
          code: typeof parsed?.code === 'string' ? parsed.code : 'RATE_LIMIT_HIT',
          msg: typeof parsed?.msg === 'string' ? parsed.msg : 'API usage exceeded rate limit',
          'retry-after': seconds,
        });
      }

      if (idempotent && TRANSIENT_STATUSES.has(status)) {
        if (faults + 1 < this.#retry.maxAttempts && !this.#closed) {
          faults += 1;
          await this.#backoff(req, label, faults, 'server-error', { status });
          continue;
        }
        throw unavailable(this, req, label, status, parsed, {
          attempts: faults + 1,
          elapsedMs: this.#now() - firstStarted,
        });
      }
      if (!idempotent && GATEWAY_STATUSES.has(status)) {
        throw new ZulipCdkError(
          'REQUEST_OUTCOME_UNKNOWN',
          `${label} got HTTP ${status} from the server; the request may or may not have taken effect, so it was not repeated.`,
          { where: req.endpoint, hint: 'Re-read the live state (plan again) before retrying.' },
        );
      }

      if (parsed !== undefined && parsed.result === 'error') {
        throw this.#apiError(req, label, status, parsed);
      }
      if (status >= 200 && status < 300 && parsed !== undefined && parsed.result === 'success') {
        this.#checkIgnored(req, label, parsed);
        return parsed;
      }
      if (status >= 500 && !idempotent) {
        throw new ZulipCdkError(
          'REQUEST_OUTCOME_UNKNOWN',
          `${label} failed with HTTP ${status}; the request may have partly taken effect, so it was not repeated.`,
          { where: req.endpoint, hint: 'Re-read the live state (plan again) before retrying.' },
        );
      }
      const snippet = this.redact(received.start).replace(/\s+/g, ' ');
      throw new ZulipCdkError(
        status >= 500 ? 'SERVER_ERROR' : 'INVALID_RESPONSE',
        `${label} returned HTTP ${status} without a Zulip JSON body: ${JSON.stringify(snippet)}`,
        {
          where: req.endpoint,
          hint:
            status === 401 || status === 403
              ? 'Check the email and API key (zuliprc, or ZULIP_EMAIL / ZULIP_API_KEY).'
              : status >= 500
                ? // A 5xx page comes from the server or a proxy failing, not from a wrong site.
                  'The server or a proxy in front of it failed; try again later, or ask its administrator.'
                : `Check that ${this.site} is a Zulip server (the site URL, without /api/v1).`,
        },
      );
    }
  }

  /**
   * Downloads a file the server links to (an emoji's `source_url`): a path on the site, or an
   * absolute URL (uploads in S3). Never sends the credentials: Zulip serves these files to
   * anyone with the URL, and an absolute URL may point at another host. Counted as a request;
   * not retried. Throws `NETWORK_ERROR` when it cannot be read, `INVALID_RESPONSE` on a status
   * other than 200 or a file larger than `maxBytes`.
   */
  public async download(url: string, maxBytes: number): Promise<Buffer> {
    const target = new URL(url, this.site);
    const label = `GET ${target.pathname}`;
    this.#stats.requestCount += 1;
    let status: number;
    let bytes: Buffer;
    try {
      if (target.origin === this.#origin) {
        // The site's own pool: its CA and timeouts.
        const res = await this.#pool().request({
          path: target.pathname + target.search,
          method: 'GET',
          headers: { 'user-agent': USER_AGENT },
        });
        status = res.statusCode;
        bytes = Buffer.from(await res.body.arrayBuffer());
      } else {
        const res = await fetch(target, { headers: { 'user-agent': USER_AGENT } });
        status = res.status;
        bytes = Buffer.from(await res.arrayBuffer());
      }
    } catch (err) {
      throw new ZulipCdkError('NETWORK_ERROR', `${label} failed: ${String(err)}`, {
        where: label,
      });
    }
    if (status !== 200)
      throw new ZulipCdkError('INVALID_RESPONSE', `${label} returned HTTP ${status}`, {
        where: label,
      });
    if (bytes.length > maxBytes)
      throw new ZulipCdkError(
        'INVALID_RESPONSE',
        `${label} is ${bytes.length} bytes, more than the ${maxBytes} expected`,
        { where: label },
      );
    return bytes;
  }

  #pool(): Pool {
    let pool = this.#pools.get(this.#origin);
    if (pool === undefined) {
      pool = new Pool(this.#origin, {
        connections: this.#connections,
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyMs,
        connect: {
          timeout: this.#timeouts.connectMs,
          rejectUnauthorized: true,
          ...(this.#ca === undefined ? {} : { ca: this.#ca }),
        },
      });
      this.#pools.set(this.#origin, pool);
    }
    return pool;
  }

  async #backoff(
    req: ZulipRequest,
    label: string,
    attempt: number,
    reason: 'server-error' | 'connection',
    extra: { status?: number; errorCode?: string },
  ): Promise<void> {
    const delayMs = backoffDelay(this.#retry, attempt, this.#random);
    this.#stats.retryCount += 1;
    this.#emit({
      type: 'retry',
      reason,
      endpoint: req.endpoint,
      request: label,
      attempt,
      maxAttempts: this.#retry.maxAttempts,
      delayMs,
      ...extra,
    });
    await this.#sleep(delayMs);
  }

  #apiError(req: ZulipRequest, label: string, status: number, body: ZulipBody): ZulipApiError {
    const data: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) {
      if (k !== 'result' && k !== 'msg' && k !== 'code') data[k] = this.#redactValue(v);
    }
    const code = typeof body.code === 'string' ? body.code : 'BAD_REQUEST';
    const msg = typeof body.msg === 'string' ? this.redact(body.msg) : '';
    const hint =
      status === 401
        ? 'Check the email and API key (zuliprc, or ZULIP_EMAIL / ZULIP_API_KEY).'
        : code === 'EXPECTATION_MISMATCH'
          ? 'The live value changed since it was read: plan again.'
          : code === 'RATE_LIMIT_HIT'
            ? rateLimitHint(body['retry-after'], this.#retry.maxRetryAfterMs)
            : undefined;
    return new ZulipApiError({
      code,
      status,
      endpoint: req.endpoint,
      request: label,
      zulipMessage: msg,
      data,
      ...(hint === undefined ? {} : { hint }),
    });
  }

  #redactValue(v: unknown): unknown {
    if (typeof v === 'string') return this.redact(v);
    if (typeof v !== 'object' || v === null) return v;
    return JSON.parse(this.redact(JSON.stringify(v))) as unknown;
  }

  #checkIgnored(req: ZulipRequest, label: string, body: ZulipBody): void {
    const ignored = body.ignored_parameters_unsupported;
    if (!Array.isArray(ignored) || ignored.length === 0) return;
    const parameters = ignored.map((p) => String(p));
    const warning: ClientWarning = {
      type: 'warning',
      code: 'IGNORED_PARAMETERS',
      endpoint: req.endpoint,
      request: label,
      parameters,
      message: `${label}: the server ignored unsupported parameters: ${parameters.join(', ')}.`,
    };
    this.#warnings.push(warning);
    this.#emit(warning);
  }

  /**
   * Waits, before sending, while the rate-limit budget is spent. Zulip's headers
   * (zerver/middleware.py RateLimitMiddleware.set_response_headers, zerver/lib/rate_limiter.py
   * get_api_calls_left): `X-RateLimit-Remaining` is what is left of the sliding window after
   * the request, `X-RateLimit-Reset` when the newest call leaves it (the whole budget is back),
   * truncated to a second: so the wait lasts until a second after it. Each request sent takes
   * one from the budget until its answer brings the server's count, so requests sent at once
   * do not all spend the last one.
   */
  async #pace(req: ZulipRequest, label: string): Promise<void> {
    if (!this.#retry.paceFromHeaders) return;
    const b = this.#budget;
    if (b.remaining === undefined || b.resetAt === undefined) return;
    if (b.remaining > 0) {
      this.#budget = { ...b, remaining: b.remaining - 1 };
      return;
    }
    const delayMs = Math.ceil((b.resetAt + 1) * 1000 - this.#now());
    if (delayMs > 0 && delayMs <= this.#retry.maxRetryAfterMs) {
      this.#stats.paceWaits += 1;
      this.#stats.paceWaitMs += delayMs;
      this.#emit({
        type: 'pace',
        endpoint: req.endpoint,
        request: label,
        delayMs,
        limit: b.limit,
        resetAt: b.resetAt,
      });
      await this.#sleep(delayMs);
    }
    // The window has emptied: the whole budget, less this request, until an answer says more.
    this.#budget = {
      ...b,
      remaining: b.limit === undefined ? undefined : b.limit - 1,
      updatedAt: this.#now(),
    };
  }

  /**
   * `X-RateLimit-Reset` is a time on the server's clock: it is moved onto ours by the
   * response's `Date` (`serverNow`: the server's clock too, to the second), so that a clock
   * ahead or behind the server's neither runs into 429s nor waits for nothing. Without `Date`
   * (`serverNow` NaN), as it is.
   */
  #readBudget(headers: Record<string, string | string[] | undefined>, serverNow: number): void {
    const limit = finiteNumber(headerValue(headers['x-ratelimit-limit']));
    const remaining = finiteNumber(headerValue(headers['x-ratelimit-remaining']));
    const reset = finiteNumber(headerValue(headers['x-ratelimit-reset']));
    if (limit === undefined && remaining === undefined && reset === undefined) return;
    const now = this.#now();
    const resetAt =
      reset === undefined || Number.isNaN(serverNow)
        ? reset
        : now / 1000 + (reset - Math.floor(serverNow / 1000));
    this.#budget = { limit, remaining, resetAt, updatedAt: now };
  }

  #emit(event: ClientEvent): void {
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch {
        // A listener's failure must not break the request.
      }
    }
  }

  public toJSON(): Record<string, unknown> {
    return { site: this.site, email: this.email, stats: this.stats };
  }

  public [inspect.custom](): string {
    return `ZulipHttp { site: ${JSON.stringify(this.site)}, email: ${JSON.stringify(this.email)} }`;
  }
}
