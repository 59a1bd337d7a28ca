import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors';
import type { FaultInjector } from './faults';
import { Params } from './params';
import type { RateLimiter } from './rate-limit';
import { deliverEvents } from './events';
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

/** Everything the request listener needs. */
export interface ListenerDeps {
  readonly core: ServerCore;
  readonly router: Router;
  readonly faults: FaultInjector;
  /**
   * The limiters for authenticated requests (per user) and unauthenticated ones (per IP);
   * undefined: rate limiting off.
   */
  readonly limiter: () => { user: RateLimiter; ip: RateLimiter } | undefined;
  readonly log: RequestLogEntry[];
  /** Sees every API response the router produced (tests validate them against zulip.yaml). */
  readonly observe?: ResponseObserver;
  /**
   * Awaited after the handler of a request other than GET ran (success or Zulip error) and
   * before the response is sent: the state file is written there (`persist`), so what is
   * acknowledged is on disk. A failure answers 500.
   */
  readonly afterChange?: () => Promise<void>;
}

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
 * including injected ones); not for 405s or injected 5xx. Must not throw.
 */
export type ResponseObserver = (response: ObservedResponse) => void;

const API_PREFIX = '/api/v1';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function authenticate(core: ServerCore, header: string | undefined): StoredUser {
  const www = { 'WWW-Authenticate': 'Basic realm="zulip"' };
  if (header === undefined)
    throw new ApiError('Not logged in: API authentication or user session required', {
      status: 401,
      code: 'UNAUTHORIZED',
      headers: www,
    });
  const m = /^Basic\s+(\S+)$/i.exec(header);
  const decoded = m?.[1] === undefined ? '' : Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0)
    throw new ApiError('Invalid authorization header for basic auth', {
      status: 401,
      code: 'UNAUTHORIZED',
      headers: www,
    });
  const email = decoded.slice(0, colon);
  const key = decoded.slice(colon + 1);
  const user = core.org.users.find(
    (u) => u.apiKey === key && u.email.toLowerCase() === email.toLowerCase(),
  );
  if (!user)
    throw new ApiError('Invalid API key', { status: 401, code: 'INVALID_API_KEY', headers: www });
  if (!user.isActive)
    throw new ApiError('Account is deactivated', { status: 401, code: 'USER_DEACTIVATED' });
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

async function handle(
  deps: ListenerDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { core, router } = deps;
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const body = await readBody(req);
  const raw = new Map<string, string>();
  for (const [k, v] of url.searchParams) raw.set(k, v);
  const ctype = req.headers['content-type'] ?? '';
  if (body.length > 0 && (ctype === '' || ctype.includes('application/x-www-form-urlencoded')))
    for (const [k, v] of new URLSearchParams(body)) raw.set(k, v);
  const path = url.pathname.startsWith(API_PREFIX)
    ? url.pathname.slice(API_PREFIX.length) || '/'
    : url.pathname;
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

  for (const f of deps.faults.decide(method, path)) {
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
        msg: 'API usage exceeded rate limit',
        code: 'RATE_LIMIT_HIT',
        'retry-after': f.retryAfter,
      };
      deps.observe?.({ method, path, status: 429, body: limited });
      send(res, 429, limited, { 'Retry-After': String(f.retryAfter) });
      return;
    }
    log(f.status, { fault: 'server-error' });
    if (f.status === 500)
      send(res, 500, { result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' });
    else {
      res.writeHead(f.status, { 'Content-Type': 'text/html' });
      res.end(`<html><body><h1>${f.status}</h1></body></html>`);
    }
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
    if ('methods' in found) {
      log(405);
      send(res, 405, {
        result: 'error',
        msg: 'Method Not Allowed',
        allowed_methods: found.methods,
      });
      return;
    }
    const { route } = found;
    let user: StoredUser | undefined;
    if (route.auth !== 'none') {
      user = authenticate(core, req.headers.authorization);
      userEmail = user.email;
    }
    const limiters = deps.limiter();
    if (limiters) {
      const limiter = user ? limiters.user : limiters.ip;
      const key = user ? `user:${user.id}` : `ip:${req.socket.remoteAddress ?? ''}`;
      const r = limiter.hit(key, core.clock.now());
      rateHeaders = r.headers;
      if (!r.allowed) {
        const retryAfter = Number(r.retryAfter.toFixed(6));
        throw new ApiError('API usage exceeded rate limit', {
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
    };
    pending = ctx.events;
    handled = method !== 'GET';
    const data = await route.handler(ctx);
    if (handled) await deps.afterChange?.();
    const ignored = params.unsupported();
    const out: Record<string, unknown> = { result: 'success', msg: '', ...data };
    if (ignored.length > 0) out.ignored_parameters_unsupported = ignored;
    log(200);
    deliverEvents(core, pending);
    deps.observe?.({ method, path, status: 200, body: out });
    send(res, 200, out, rateHeaders);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    // Non-atomic endpoints keep what they applied before the error, and its events.
    if (handled) await deps.afterChange?.();
    deliverEvents(core, pending);
    log(e.status, { code: e.code });
    const errorBody = e.body();
    deps.observe?.({ method, path, status: e.status, body: errorBody });
    send(res, e.status, errorBody, { ...rateHeaders, ...e.headers });
  }
}
