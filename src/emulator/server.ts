import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors';
import type { FaultDecision, FaultInjector } from './faults';
import { Params } from './params';
import { rateLimitHeaders, rateLimitMessage } from './rate-limit';
import type { RateLimiter, TornadoRateLimiter } from './rate-limit';
import { deliverEvents } from './events';
import { encodeJsonBody, materialize } from './json-body';
import type { EncodedBody } from './json-body';
import {
  MAX_BODY_BYTES,
  MAX_MULTIPART_BYTES,
  bodyParams,
  bodyTooLarge,
  discardRest,
  mediaType,
  parseUrlEncoded,
  readBody,
} from './request-body';
import type { UploadedFile } from './request-body';
import { serveEmojiImage } from './routes/realm-emoji';
import type { PendingEvent, RequestContext, Router, ServerCore } from './router';
import type { StoredUser } from './state';

/** One line of the request log. Never holds credentials. */
export interface RequestLogEntry {
  readonly method: string;
  /** Path under `/api/v1`, without the query string. */
  readonly path: string;
  readonly status: number;
  /** The authenticated user's email, when there was one. */
  readonly user?: string;
  /** The Zulip error code, for errors. */
  readonly code?: string;
  /** The injected fault, if any. */
  readonly fault?: string;
  /** Parameter names sent (not values). */
  readonly params: readonly string[];
  readonly at: number;
}

/** The rate limiters: per user, per IP (unauthenticated), and Tornado's for the event queue. */
export interface Limiters {
  readonly user: RateLimiter;
  readonly ip: RateLimiter;
  readonly events: TornadoRateLimiter;
}

/** Everything the request listener needs. */
export interface ListenerDeps {
  readonly core: ServerCore;
  readonly router: Router;
  readonly faults: FaultInjector;
  /**
   * The limiters for authenticated requests (per user) and unauthenticated ones (per IP);
   * undefined: rate limiting off.
   */
  readonly limiter: () => Limiters | undefined;
  readonly log: RequestLogEntry[];
  /** Sees every API response the router produced (tests validate them against zulip.yaml). */
  readonly observe?: ResponseObserver;
  /**
   * Awaited after the handler of a request other than GET ran (success or Zulip error) and
   * before the response is sent: the state file is written there (`persist`), so what is
   * acknowledged is on disk. A failure answers 500.
   */
  readonly afterChange?: () => Promise<void>;
  /** See `EmulatorOptions.intercept`. */
  readonly intercept?: RequestInterceptor;
}

/** A request as an interceptor sees it: read, not yet handled. */
export interface InterceptedRequest {
  /** After a POST's `method` override. */
  readonly method: string;
  /** Path under `/api/v1`, without the query string. */
  readonly path: string;
}

/**
 * Called for every request before it is handled (see `EmulatorOptions.intercept`); awaited.
 * `'drop'` destroys the connection without handling the request.
 */
export type RequestInterceptor = (
  request: InterceptedRequest,
) => void | 'drop' | Promise<void | 'drop'>;

/** One API response, as an observer sees it. */
export interface ObservedResponse {
  readonly method: string;
  /** Path under `/api/v1`, without the query string. */
  readonly path: string;
  readonly status: number;
  /** The JSON body sent. */
  readonly body: Record<string, unknown>;
}

/**
 * Called for every JSON API response in Zulip's format (success, Zulip errors, 401, 404, 429
 * including injected ones); not for 405s or injected 5xx. Must not throw. It is called after
 * the request was handled and before the answer is sent, so a test can act at the moment a
 * write has landed but its client has not heard of it (kill the client).
 */
export type ResponseObserver = (response: ObservedResponse) => void;

const API_PREFIX = '/api/v1';

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function send(
  res: ServerResponse,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): void {
  sendEncoded(res, status, encodeJsonBody(body), headers);
}

/** Sends an encoded body (encoded once: the length and the bytes sent). */
function sendEncoded(
  res: ServerResponse,
  status: number,
  body: EncodedBody,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': body.length,
    ...headers,
  });
  if ('bytes' in body) res.end(body.bytes);
  else void writeParts(res, body.parts);
}

const CHUNK_SIZE = 1 << 20;
/** Chunks not in use by a response being sent (reused: fresh memory is slow). */
const freeChunks: Buffer[] = [];
const utf8 = new TextEncoder();

/**
 * Writes a large body's text a megabyte at a time through one reused chunk, each chunk sent
 * before the next is encoded: the process never holds the body's bytes at once (80 MB of new
 * buffers made V8 run a full garbage collection of the whole organization).
 */
async function writeParts(res: ServerResponse, parts: readonly string[]): Promise<void> {
  const chunk = freeChunks.pop() ?? Buffer.allocUnsafeSlow(CHUNK_SIZE);
  // A connection closed while a chunk is being written: stop there.
  const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
  try {
    for (const part of parts) {
      let text = part;
      while (text.length > 0) {
        if (res.destroyed) return;
        // encodeInto never splits a character: the rest goes into the next chunk.
        const r = utf8.encodeInto(text, chunk);
        text = r.read === text.length ? '' : text.slice(r.read);
        await Promise.race([
          new Promise<void>((resolve) => res.write(chunk.subarray(0, r.written), () => resolve())),
          closed,
        ]);
      }
    }
    res.end();
  } finally {
    if (freeChunks.length < 4) freeChunks.push(chunk);
  }
}

/**
 * HTTP basic authentication of `/api/v1` requests (zerver/lib/rest.py rest_dispatch,
 * zerver/decorator.py get_basic_credentials, authenticated_rest_api_view, validate_api_key,
 * access_user_by_api_key). No header: `MissingAuthenticationError` (401 "Not logged in").
 * A scheme other than Basic: 400 `BAD_REQUEST`. A header that does not split into a scheme and
 * `email:key`: 401 "Invalid authorization header for basic auth". Every error of
 * validate_api_key (a malformed or unknown key, another user's key, a deactivated user, an
 * incoming-webhook bot) is re-raised as `UnauthorizedError`: 401, code `UNAUTHORIZED`, with
 * its message (zerver/openapi/python_examples.py test_invalid_api_key asserts the code).
 */
function authenticate(core: ServerCore, header: string | undefined): StoredUser {
  const unauthorized = (msg: string): ApiError =>
    new ApiError(msg, {
      status: 401,
      code: 'UNAUTHORIZED',
      headers: { 'WWW-Authenticate': 'Basic realm="zulip"' },
    });
  if (header === undefined)
    throw unauthorized('Not logged in: API authentication or user session required');
  // Made when thrown: an Error per request costs its stack trace.
  const invalidHeader = (): ApiError => unauthorized('Invalid authorization header for basic auth');
  // Python's str.split(): runs of whitespace, ends stripped; exactly two parts.
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2) throw invalidHeader();
  const [scheme = '', credentials = ''] = parts;
  if (scheme.toLowerCase() !== 'basic')
    throw new ApiError('This endpoint requires HTTP basic authentication.');
  // base64.b64decode drops characters outside the alphabet, then needs whole 4-char groups.
  const b64 = credentials.replace(/[^A-Za-z0-9+/=]/g, '');
  const data = b64.replace(/=+$/, '');
  if (b64.length % 4 !== 0 || data.includes('=')) throw invalidHeader();
  const bytes = Buffer.from(data, 'base64');
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidHeader();
  }
  const fields = decoded.split(':');
  if (fields.length !== 2) throw invalidHeader();
  const email = (fields[0] ?? '').trim();
  const key = (fields[1] ?? '').trim();
  if (!/^[A-Za-z0-9]{32}$/.test(key)) throw unauthorized('Malformed API key');
  const user = core.org.users.find((u) => u.apiKey === key);
  if (!user || user.email.toLowerCase() !== email.toLowerCase())
    throw unauthorized('Invalid API key');
  if (!user.isActive) throw unauthorized('Account is deactivated');
  if (user.isBot && user.botType === 2)
    throw unauthorized('This API is not available to incoming webhook bots.');
  return user;
}

/** The node:http request listener of the emulator. */
export function createListener(
  deps: ListenerDeps,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(deps, req, res).catch(() => {
      if (!res.headersSent)
        send(res, 500, { result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' });
      else res.destroy();
    });
  };
}

/** An injected 5xx: Zulip's JSON for a 500, a proxy's HTML page for the others. */
function sendServerError(res: ServerResponse, status: number, body: 'zulip' | 'html'): void {
  if (body === 'zulip')
    send(res, 500, { result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' });
  else {
    res.writeHead(status, { 'Content-Type': 'text/html' });
    res.end(`<html><body><h1>${status}</h1></body></html>`);
  }
}

/**
 * Faults decided `after` the handling (faults.ts): the request has been handled, its changes
 * made; wait for latencies, then replace the answer by the first failure. True when the
 * answer was replaced (the caller sends nothing more).
 */
async function answerLost(
  faults: readonly FaultDecision[],
  res: ServerResponse,
  log: (status: number, extra: { code?: string; fault?: string }) => void,
): Promise<boolean> {
  for (const f of faults) {
    if (f.kind === 'latency') {
      await sleep(f.ms);
      continue;
    }
    if (f.kind === 'drop') {
      log(0, { fault: 'drop-after' });
      res.socket?.destroy();
      return true;
    }
    if (f.kind === 'server-error') {
      log(f.status, { fault: 'server-error-after' });
      sendServerError(res, f.status, f.body);
      return true;
    }
  }
  return false;
}

async function handle(
  deps: ListenerDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { core, router } = deps;
  // The server's own clock, as a real server's Date is (X-RateLimit-Reset is on it too).
  res.setHeader('Date', new Date(core.clock.now()).toUTCString());
  let method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const path = url.pathname.startsWith(API_PREFIX)
    ? url.pathname.slice(API_PREFIX.length) || '/'
    : url.pathname;
  // Emoji images, outside the API and without credentials, as Zulip's web server serves
  // uploaded avatars and emoji (`/user_avatars/`, the local upload backend).
  if (method === 'GET' && url.pathname.startsWith('/user_avatars/')) {
    const image = serveEmojiImage(core.org, url.pathname);
    if (image) {
      res.writeHead(200, {
        'Content-Type': image.contentType,
        'Content-Length': image.bytes.length,
      });
      res.end(image.bytes);
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Not Found');
    }
    return;
  }
  const multipart = mediaType(req.headers['content-type']) === 'multipart/form-data';
  const read = await readBody(req, multipart ? MAX_MULTIPART_BYTES : MAX_BODY_BYTES);
  if (!('bytes' in read)) {
    // Over the limit: answered without keeping or parsing the body; the rest is discarded
    // so that the client, still sending, gets the answer (see discardRest).
    const e = bodyTooLarge();
    deps.log.push({
      method,
      path,
      status: e.status,
      code: e.code,
      params: [],
      at: core.clock.now(),
    });
    send(res, e.status, e.body());
    discardRest(req);
    return;
  }
  // Parameters as Zulip's typed_endpoint reads them (zerver/lib/typed_endpoint.py): a name
  // in the body (request.POST) wins over the same name in the query string (request.GET);
  // a repeated name counts once, with its last value (QueryDict.__getitem__).
  const raw = new Map<string, string>();
  const files: UploadedFile[] = [];
  let parseError: ApiError | undefined;
  try {
    for (const [k, v] of parseUrlEncoded(url.search.slice(1))) raw.set(k, v);
    const posted = await bodyParams(method, req.headers, read.bytes, files);
    for (const [k, v] of posted) raw.set(k, v);
    // zerver/lib/rest.py get_target_view_function_or_response: a POST whose body carries
    // `method` is dispatched as that method (the parameter itself stays unprocessed).
    const override = method === 'POST' ? posted.findLast(([k]) => k === 'method') : undefined;
    if (override !== undefined) method = override[1];
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    parseError = e;
  }
  const at = core.clock.now();
  let userEmail: string | undefined;
  const log = (status: number, extra: { code?: string; fault?: string } = {}): void => {
    deps.log.push({
      method,
      path,
      status,
      ...(userEmail === undefined ? {} : { user: userEmail }),
      ...extra,
      params: [...raw.keys()],
      at,
    });
  };

  if (deps.intercept !== undefined && (await deps.intercept({ method, path })) === 'drop') {
    log(0, { fault: 'intercepted' });
    req.socket.destroy();
    return;
  }

  const decided = deps.faults.decide(method, path);
  const after = decided.filter((f) => f.when === 'after');
  for (const f of decided.filter((d) => d.when === 'before')) {
    if (f.kind === 'latency') {
      await sleep(f.ms);
      continue;
    }
    if (f.kind === 'drop') {
      log(0, { fault: 'drop' });
      req.socket.destroy();
      return;
    }
    if (f.kind === 'rate-limit') {
      log(429, { fault: 'rate-limit', code: 'RATE_LIMIT_HIT' });
      const limited = {
        result: 'error',
        msg: rateLimitMessage(core.featureLevel),
        code: 'RATE_LIMIT_HIT',
        'retry-after': f.retryAfter,
      };
      deps.observe?.({ method, path, status: 429, body: limited });
      // As a real 429: the headers say nothing is left until Retry-After (rate_limit_request).
      send(res, 429, limited, {
        'Retry-After': String(f.retryAfter),
        ...rateLimitHeaders(
          deps.limiter()?.user.max ?? 200,
          0,
          core.clock.now() + f.retryAfter * 1000,
        ),
      });
      return;
    }
    log(f.status, { fault: 'server-error' });
    sendServerError(res, f.status, f.body);
    return;
  }

  let rateHeaders: Record<string, string> = {};
  let pending: PendingEvent[] = [];
  let handled = false;
  try {
    if (!url.pathname.startsWith(`${API_PREFIX}/`))
      throw new ApiError('Invalid API endpoint', { status: 404 });
    const found = router.match(method, path, core.featureLevel);
    if (found === undefined) throw new ApiError('Invalid API endpoint', { status: 404 });
    // A body Django cannot read fails before authentication: rest_dispatch reads request.POST
    // of a POST before checking the method; process_as_post, which reads the body of other
    // methods, wraps the view outside the authentication (zerver/lib/rest.py).
    if (parseError && method === 'POST') throw parseError;
    if ('methods' in found) {
      log(405);
      send(res, 405, {
        result: 'error',
        msg: 'Method Not Allowed',
        allowed_methods: found.methods,
      });
      return;
    }
    if (parseError) throw parseError;
    const { route } = found;
    let user: StoredUser | undefined;
    if (route.auth !== 'none') {
      user = authenticate(core, req.headers.authorization);
      userEmail = user.email;
    }
    const limiters = deps.limiter();
    // GET /server_settings is not rate-limited (zerver/views/auth.py api_get_server_settings).
    if (limiters && path !== '/server_settings') {
      const limiter = !user ? limiters.ip : path === '/events' ? limiters.events : limiters.user;
      const key = user ? `user:${user.id}` : `ip:${req.socket.remoteAddress ?? ''}`;
      const r = limiter.hit(key, core.clock.now());
      rateHeaders = r.headers;
      if (!r.allowed) {
        const retryAfter = Number(r.retryAfter.toFixed(6));
        throw new ApiError(rateLimitMessage(core.featureLevel), {
          status: 429,
          code: 'RATE_LIMIT_HIT',
          data: { 'retry-after': retryAfter },
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
    }
    const params = new Params(raw);
    const ctx: RequestContext = {
      core,
      org: core.org,
      featureLevel: core.featureLevel,
      user: user as StoredUser,
      params,
      path: found.params,
      now: core.clock.now(),
      events: [],
      files,
      ...(req.headers['user-agent'] === undefined ? {} : { userAgent: req.headers['user-agent'] }),
    };
    pending = ctx.events;
    handled = method !== 'GET';
    const data = await route.handler(ctx);
    // Sorted, as typed_endpoint reports them.
    const ignored = params.unsupported().sort();
    const out: Record<string, unknown> = { result: 'success', msg: '', ...data };
    if (ignored.length > 0) out.ignored_parameters_unsupported = ignored;
    // Encoded before anything is awaited, from the state the handler answered from (a lazy
    // list of the answer is built here), and so is what an observer will see.
    const encoded = encodeJsonBody(out);
    const observed = deps.observe === undefined ? undefined : materialize(out);
    if (handled) await deps.afterChange?.();
    deliverEvents(core, pending);
    if (await answerLost(after, res, log)) return;
    log(200);
    if (observed !== undefined) deps.observe?.({ method, path, status: 200, body: observed });
    sendEncoded(res, 200, encoded, rateHeaders);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    // Non-atomic endpoints keep what they applied before the error, and its events.
    if (handled) await deps.afterChange?.();
    deliverEvents(core, pending);
    if (await answerLost(after, res, log)) return;
    log(e.status, { code: e.code });
    const errorBody = e.body();
    deps.observe?.({ method, path, status: e.status, body: errorBody });
    send(res, e.status, errorBody, { ...rateHeaders, ...e.headers });
  }
}
