/**
 * Retries and backoff: which failures are worth another attempt, how long to wait before it,
 * and the error that says how many attempts failed over how long. `ZulipHttp` (http.ts) states
 * the retry rules and applies them.
 */
import { ZulipCdkError } from '../model/errors';

/** Retry policy. */
export interface RetryOptions {
  /**
   * Attempts in all for a request that fails with a fault (a dropped connection, a timeout,
   * HTTP 500/502/503/504): only idempotent requests, and requests that never left this
   * machine, are retried.
   * @default 4
   */
  readonly maxAttempts?: number;
  /** First backoff delay; it doubles with each retry, with jitter. @default 500 */
  readonly baseDelayMs?: number;
  /** Largest backoff delay. @default 8000 */
  readonly maxDelayMs?: number;
  /** How many 429 responses in a row are waited out. @default 5 */
  readonly maxRateLimitRetries?: number;
  /** A 429 whose Retry-After is longer than this is not waited out but thrown. @default 120000 */
  readonly maxRetryAfterMs?: number;
  /**
   * Wait for the rate-limit budget when the last `X-RateLimit-Remaining` was 0, until
   * `X-RateLimit-Reset`, instead of sending into a 429 (a wait longer than `maxRetryAfterMs`
   * is not made: the request goes, and a 429 is handled as usual). @default true
   */
  readonly paceFromHeaders?: boolean;
}

/** Connection errors that happen before a single byte of the request is sent. */
export const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EHOSTDOWN',
]);

/**
 * Connection errors worth another attempt: dropped connections (`ECONNRESET` is Node's
 * "socket hang up", `UND_ERR_SOCKET` undici's "other side closed"), timeouts, a truncated body,
 * and failures to connect that a restarting server or a flapping network heal
 * (`ECONNREFUSED` while nginx or Zulip restarts, `EAI_AGAIN`). Not `ENOTFOUND` (a mistyped site
 * does not heal), TLS failures, nor anything else (our own bugs, an abort).
 */
export const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'ENETRESET',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EHOSTDOWN',
]);

const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Statuses an idempotent request is repeated on: 500 (Zulip's own "Internal server error" and
 * `SERVER_NOT_READY`, e.g. while its database restarts: zerver/middleware.py
 * `JsonErrorHandler.process_exception`, zerver/views/health.py) and the proxy's 502/503/504
 * while Zulip restarts or is overloaded.
 */
export const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);

/**
 * Of those, the ones that say nothing reached Zulip or Zulip did not answer; for a request
 * that must not be repeated they mean its outcome is unknown. (A 500 with a Zulip error body
 * stays a `ZulipApiError` with its status, which the apply executor also reads as unknown.)
 */
export const GATEWAY_STATUSES = new Set([502, 503, 504]);

export function errorCodeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const inner = (err as { errors?: unknown }).errors;
  if (Array.isArray(inner)) {
    for (const e of inner) {
      const c = errorCodeOf(e);
      if (c !== undefined) return c;
    }
  }
  return undefined;
}

export function isTlsError(code: string | undefined): boolean {
  return code !== undefined && /CERT|SELF_SIGNED|TLS|SSL|UNABLE_TO_/.test(code);
}

/**
 * The delay before retry number `attempt` (from 1): doubles from `baseDelayMs` up to
 * `maxDelayMs`.
 */
export function backoffDelay(
  retry: Required<RetryOptions>,
  attempt: number,
  random: () => number,
): number {
  const cap = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  // "Equal jitter": at least half the cap, so retries never bunch up at zero.
  return Math.round(cap / 2 + (random() * cap) / 2);
}

/** What the errors below say about the client: its site, and how it hides secrets. */
export interface HttpClientInfo {
  readonly site: string;
  redact(text: string): string;
}

/** An idempotent request that got a 5xx on every attempt. */
export function unavailable(
  client: HttpClientInfo,
  req: { readonly endpoint: string },
  label: string,
  status: number,
  parsed: Record<string, unknown> | undefined,
  how: { attempts: number; elapsedMs: number },
): ZulipCdkError {
  const zulipMsg =
    parsed?.result === 'error' && typeof parsed.msg === 'string'
      ? ` (${client.redact(parsed.msg)})`
      : '';
  return new ZulipCdkError(
    'SERVER_UNAVAILABLE',
    `${label}: the server answered HTTP ${status}${zulipMsg} to ${attemptsOver(how)}.`,
    {
      where: req.endpoint,
      hint:
        status === 500
          ? 'It may be restarting, overloaded or failing on this request (its logs say why); try again later.'
          : 'It may be restarting or overloaded; try again later.',
    },
  );
}

/** A request that failed to connect, or lost its connection, on its last attempt. */
export function networkError(
  client: HttpClientInfo,
  req: { readonly endpoint: string },
  label: string,
  err: unknown,
  code: string,
  how: {
    notSent: boolean;
    idempotent: boolean;
    tls: boolean;
    attempts: number;
    elapsedMs: number;
  },
): ZulipCdkError {
  const detail = client.redact(err instanceof Error ? err.message : String(err)).trim();
  if (how.tls) {
    // An answer that is not TLS at all: most likely a plain-HTTP server reached as https (a site
    // without a scheme is taken as https://, as Zulip's own clients take it).
    const plain = /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/.test(code);
    return new ZulipCdkError(
      'NETWORK_ERROR',
      `${label}: ${plain ? 'the server did not answer in TLS' : 'TLS verification failed'} (${code}: ${detail}).`,
      {
        where: req.endpoint,
        cause: err,
        hint: plain
          ? 'If the server speaks plain HTTP (a local or embedded server), write the site with http:// (a site without a scheme is taken as https://).'
          : 'If the server uses a private CA, give its certificate (cert_bundle in the zuliprc, or the ca option).',
      },
    );
  }
  if (how.notSent || how.idempotent) {
    const tries = how.attempts > 1 ? ` on ${attemptsOver(how)}` : '';
    const what = how.notSent
      ? 'could not connect'
      : TIMEOUT_CODES.has(code)
        ? 'no answer in time'
        : 'the connection failed';
    const hint =
      code === 'ENOTFOUND'
        ? `Check the site URL: ${new URL(client.site).hostname} is not a known host name.`
        : code === 'ECONNREFUSED'
          ? `Nothing accepted the connection at ${client.site}: check the site URL, or try again later if the server is restarting.`
          : TIMEOUT_CODES.has(code)
            ? 'The server or the network is slow: it may be overloaded; try again later (or raise the client timeouts).'
            : TRANSIENT_CODES.has(code)
              ? 'The server or the network dropped the connection: it may be restarting or overloaded; try again later.'
              : `Check that ${client.site} is reachable.`;
    return new ZulipCdkError('NETWORK_ERROR', `${label}: ${what} (${code}: ${detail})${tries}.`, {
      where: req.endpoint,
      cause: err,
      hint,
    });
  }
  return new ZulipCdkError(
    'REQUEST_OUTCOME_UNKNOWN',
    `${label}: the connection failed after the request was sent (${code}: ${detail}); it may or may not have taken effect, so it was not repeated.`,
    {
      where: req.endpoint,
      cause: err,
      hint: 'Re-read the live state (plan again) before retrying.',
    },
  );
}

/** "4 attempts over 3.5 s". */
function attemptsOver(how: { attempts: number; elapsedMs: number }): string {
  const n = how.attempts === 1 ? '1 attempt' : `${how.attempts} attempts`;
  return `${n} over ${(Math.max(0, how.elapsedMs) / 1000).toFixed(1)} s`;
}
