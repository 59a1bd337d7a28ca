import type { ZulipCredentials } from './credentials';
import type { RetryOptions } from './retry';

/*
 * The types of the HTTP layer ({@link ZulipHttp} in ./http.ts): its options, the requests it
 * sends, the events it reports and its counters.
 */

/** The HTTP methods the Zulip API uses. */
export const HTTP_METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;
/** An HTTP method the client sends. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Timeouts, in milliseconds. */
export interface TimeoutOptions {
  /** Establishing the connection (TCP and TLS). @default 10000 */
  readonly connectMs?: number;
  /** Waiting for the response headers. @default 60000 */
  readonly headersMs?: number;
  /** Waiting between chunks of the response body. @default 60000 */
  readonly bodyMs?: number;
}

/** What the HTTP layer reports, for callers that log or show progress. */
export type ClientEvent =
  | {
      readonly type: 'warning';
      readonly code: 'IGNORED_PARAMETERS';
      readonly endpoint: string;
      readonly request: string;
      /** The parameters the server ignored (`ignored_parameters_unsupported`). */
      readonly parameters: readonly string[];
      readonly message: string;
    }
  | {
      readonly type: 'retry';
      readonly reason: 'rate-limit' | 'server-error' | 'connection';
      readonly endpoint: string;
      readonly request: string;
      /** The attempt that failed, from 1. */
      readonly attempt: number;
      /** How many attempts (or, for `rate-limit`, waits plus one) are allowed in all. */
      readonly maxAttempts: number;
      readonly delayMs: number;
      /** The HTTP status that failed (`rate-limit`, `server-error`). */
      readonly status?: number;
      /** The connection error's code, e.g. `ECONNRESET` or `UND_ERR_SOCKET` (`connection`). */
      readonly errorCode?: string;
    }
  | {
      /**
       * The rate-limit budget of the last response was spent (`X-RateLimit-Remaining: 0`):
       * the request waits until `X-RateLimit-Reset` instead of running into a 429.
       */
      readonly type: 'pace';
      readonly endpoint: string;
      readonly request: string;
      readonly delayMs: number;
      /** `X-RateLimit-Limit`, when the server sent it. */
      readonly limit: number | undefined;
      /** `X-RateLimit-Reset` (epoch seconds). */
      readonly resetAt: number;
    }
  | {
      readonly type: 'response';
      readonly endpoint: string;
      readonly request: string;
      readonly status: number;
      readonly durationMs: number;
    };

/** A warning the server gave on a successful request. */
export type ClientWarning = Extract<ClientEvent, { type: 'warning' }>;

/** The rate-limit budget, from the last `X-RateLimit-*` headers seen. */
export interface RateLimitBudget {
  /** `X-RateLimit-Limit`: requests allowed per window. */
  readonly limit: number | undefined;
  /** `X-RateLimit-Remaining`. */
  readonly remaining: number | undefined;
  /**
   * `X-RateLimit-Reset`: epoch seconds when the budget is full again, on this machine's clock
   * (the server's time moved by the difference between its `Date` header and our clock).
   */
  readonly resetAt: number | undefined;
  /** When the headers were read (epoch milliseconds), undefined before any. */
  readonly updatedAt: number | undefined;
}

/** Counters. */
export interface HttpStats {
  /** HTTP requests attempted (retries included). */
  readonly requestCount: number;
  /** Retries (rate limits, faults). */
  readonly retryCount: number;
  /** 429 responses received. */
  readonly rateLimitHits: number;
  /** Waits for the rate-limit budget (`pace` events), and their total (ms). */
  readonly paceWaits: number;
  readonly paceWaitMs: number;
}

/** Options of {@link ZulipHttp}. */
export interface ZulipHttpOptions {
  /** Who to authenticate as, and the site. */
  readonly credentials?: ZulipCredentials;
  /** The site, for unauthenticated use only (`GET /server_settings`); `credentials.site` otherwise. */
  readonly site?: string;
  /** Extra CA certificates to trust (PEM). TLS verification always stays on. */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  readonly timeouts?: TimeoutOptions;
  readonly retry?: RetryOptions;
  /** Connections per origin. @default 4 */
  readonly connections?: number;
  /** Injectable for tests. @default setTimeout-based */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Injectable for tests; returns [0, 1). @default Math.random */
  readonly random?: () => number;
  /** Injectable for tests. @default Date.now */
  readonly now?: () => number;
  /** Receives warnings, retries and responses. */
  readonly onEvent?: (event: ClientEvent) => void;
}

/** One request to the Zulip API. */
export interface ZulipRequest {
  readonly method: HttpMethod;
  /** The concrete path under `/api/v1`, with a leading slash, e.g. `/streams/12`. */
  readonly path: string;
  /** The endpoint template, e.g. `PATCH /streams/{stream_id}`, for messages. */
  readonly endpoint: string;
  /** Parameters: the query string for GET, a form body otherwise. `undefined` values are left out. */
  readonly params?: object | undefined;
  /** Parameters whose string values are sent JSON-encoded. */
  readonly jsonStrings?: readonly string[];
  /**
   * Whether repeating the request is harmless. Defaults to true for GET only: a POST,
   * PATCH or DELETE that may have reached the server is never repeated.
   */
  readonly idempotent?: boolean;
  /** @default true */
  readonly authenticated?: boolean;
  /**
   * Files to send: the body is then `multipart/form-data` (the parameters as fields, each file
   * as a part), as Zulip's uploads (`POST /realm/emoji/{emoji_name}`) need.
   */
  readonly files?: readonly UploadFile[];
}

/** One file of a multipart request. */
export interface UploadFile {
  /** The form field name (Zulip's upload views take any). */
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

/** A parsed Zulip success body. */
export type ZulipBody = Record<string, unknown>;
