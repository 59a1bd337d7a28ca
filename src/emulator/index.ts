import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { ZulipCdkError } from '../model/errors';
import { FEATURE_LEVELS, MIN_FEATURE_LEVEL } from '../model/features';
import { ROLES } from '../model/kinds';
import { FaultInjector } from './faults';
import { buildIndexes } from './indexes';
import { StateFile } from './persist';
import { writePrivateFile } from './private-file';
import type { FaultOptions } from './faults';
import { RateLimiter, TornadoRateLimiter } from './rate-limit';
import type { RateLimitOptions } from './rate-limit';
import type { Clock, EventQueue, PendingEvent, ServerCore } from './router';
import { deliverEvents } from './events';
import { promoteNewFullMembers } from './full-members';
import { buildRouter } from './routes';
import { expireAllQueues } from './routes/register';
import { DEMO_DOMAIN, demoOrg } from './seed';
import { createListener } from './server';
import type { Limiters, RequestInterceptor, RequestLogEntry, ResponseObserver } from './server';
import { addUser, completeOrgState, emptyOrg, parseOrgState, setRealmPlanType } from './state';
import type { OrgState } from './state';

export type { FaultOptions, FaultRule } from './faults';
export type { RateLimitOptions } from './rate-limit';
export type { Clock } from './router';
export type {
  InterceptedRequest,
  ObservedResponse,
  RequestInterceptor,
  RequestLogEntry,
  ResponseObserver,
} from './server';
export type { OrgState } from './state';
export { PLAN_TYPES } from './state';
export { QUEUE_IDLE_TIMEOUT_MS } from './routes/register';
export { DEMO_DOMAIN } from './seed';
export { writePrivateFile } from './private-file';

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /** Port on 127.0.0.1; 0 or absent: picked by the OS. */
  readonly port?: number;
  /** The Zulip feature level to behave as. Default 478 (the newest in NOTES). */
  readonly featureLevel?: number;
  /**
   * Requests per minute per user (default 200; unauthenticated requests: 100 per IP), `false`
   * to switch rate limiting off, or full options.
   */
  readonly rateLimit?: number | false | RateLimitOptions;
  /** A state file to load (if it exists) or a state object to start from (copied). */
  readonly state?: string | OrgState;
  /**
   * With `state` a file: keep it up to date. It is written when it does not exist yet, then
   * after every request other than GET that changed the organization, atomically and before
   * the response is sent, so a killed server loses nothing it acknowledged (see persist.ts).
   * Default false: the file is only read (and written by {@link Emulator.save}).
   */
  readonly persist?: boolean;
  /** The organization when no state is given or the file does not exist. Default `demo`. */
  readonly seed?: 'demo' | 'empty';
  /**
   * The realm's plan type (`PLAN_TYPES`, Zulip's `Realm.plan_type`), e.g. `PLAN_TYPES.limited`
   * for a Zulip Cloud Free organization (no user groups, no retention). Default: as the state
   * or seed says (self-hosted for the seeds).
   */
  readonly planType?: number;
  /** Faults to inject from the start. */
  readonly faults?: FaultOptions;
  /** Clock for queue expiry and rate limits. Default: `Date.now`. */
  readonly clock?: Clock;
  /** How long `GET /events` long-polls before a heartbeat. Default 50 s (Zulip: about a minute). */
  readonly heartbeatMs?: number;
  /**
   * Sees every API response body (tests check them against zulip.yaml). It runs inside the
   * request, so it must not throw: collect problems and assert on them afterwards.
   */
  readonly observe?: ResponseObserver;
  /**
   * Sees every request once its body is read, before faults, authentication and the handler,
   * and is awaited: a test can hold a request (to make two clients overlap) or act at a precise
   * point of a client's run (kill it when its Nth write arrives). Returning `'drop'` destroys
   * the connection without handling the request: nothing changes, and the client sees a
   * dropped connection (logged with fault `intercepted`). With {@link observe}, which runs after
   * the handler and before the answer is sent, a test can also act when a write has landed but
   * its client has not heard of it.
   */
  readonly intercept?: RequestInterceptor;
}

/** A running emulator. */
export interface Emulator {
  /** The API root, e.g. `http://127.0.0.1:40123/api/v1`. */
  readonly url: string;
  /** The site (what a zuliprc's `site` holds), e.g. `http://127.0.0.1:40123`. */
  readonly site: string;
  readonly port: number;
  readonly featureLevel: number;
  /** The owner's credentials (an active human owner of the organization). */
  readonly owner: { readonly email: string; readonly apiKey: string };
  /** The live in-memory organization, for tests to inspect or arrange. */
  readonly org: OrgState;
  /** Every request so far (method, path, status, user, code, fault; never credentials). */
  readonly requestLog: RequestLogEntry[];
  /** The API key of a user by email (tests log in as any demo user). */
  apiKeyOf(email: string): string;
  /** Replaces the fault rules (undefined clears them); counters restart. */
  setFaults(faults: FaultOptions | undefined): void;
  /** Changes the rate limit at run time (`false`: off). Counters restart. */
  setRateLimit(rateLimit: number | false | RateLimitOptions): void;
  /**
   * Expires every event queue now, as Zulip does after {@link QUEUE_IDLE_TIMEOUT_MS} without a
   * request (zerver/tornado/event_queue.py garbage-collects idle queues), without waiting ten
   * minutes: a long-poll waiting now is answered with what its queue holds (as Zulip's
   * ClientDescriptor.cleanup does), then the next `GET /events` on any queue answers
   * `BAD_EVENT_QUEUE_ID` and the client must register again. Returns how many queues there
   * were. For testing how a bot or `zulip-cdk watch` recovers.
   */
  expireEventQueues(): number;
  /** The number of event queues registered and not expired or deleted. */
  readonly eventQueueCount: number;
  /**
   * Runs Zulip's daily `promote_new_full_members` now, by the emulator's clock: members whose
   * waiting period (`waiting_period_threshold` days since they joined) is over join
   * role:fullmembers, with the `user_group` events Zulip sends; nothing happens when the
   * threshold is 0 (see full-members.ts). Resolves once a kept state file is written.
   */
  promoteNewFullMembers(): Promise<void>;
  /** Writes the organization as JSON (mode 0600: it holds API keys). */
  save(path: string): Promise<void>;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Zulip's `api_by_user` (200/min) and `api_by_ip` (100/min, unauthenticated requests) rules;
 * a configured limit applies to both. The event queue's requests are Tornado's, counted by its
 * own backend with the user's rule (`RATE_LIMITING_DOMAINS_FOR_TORNADO`).
 */
function limiterFor(r: number | false | RateLimitOptions | undefined): Limiters | undefined {
  if (r === false) return undefined;
  const user = r === undefined ? { max: 200 } : typeof r === 'number' ? { max: r } : r;
  const ip = r === undefined ? { max: 100 } : user;
  return {
    user: new RateLimiter(user),
    ip: new RateLimiter(ip),
    events: new TornadoRateLimiter(user),
  };
}

async function initialOrg(options: EmulatorOptions, now: number): Promise<OrgState> {
  const { state } = options;
  if (typeof state === 'object') return structuredClone(state);
  if (typeof state === 'string' && existsSync(state))
    return parseOrgState(JSON.parse(await readFile(state, 'utf8')) as unknown);
  if (options.seed === 'empty') {
    const org = emptyOrg(now);
    addUser(org, now, {
      email: `owner@${DEMO_DOMAIN}`,
      fullName: 'Olivia Owner',
      role: ROLES.owner,
    });
    return org;
  }
  return demoOrg(now).org;
}

/** The feature levels the emulator models: from Zulip 10.2 to the newest one it knows. */
export const EMULATOR_FEATURE_LEVELS = { min: MIN_FEATURE_LEVEL, max: FEATURE_LEVELS.newest };

/** Throws unless the emulator models `featureLevel` (an integer in the supported range). */
export function checkEmulatorFeatureLevel(featureLevel: number): void {
  const { min, max } = EMULATOR_FEATURE_LEVELS;
  if (Number.isInteger(featureLevel) && featureLevel >= min && featureLevel <= max) return;
  throw new ZulipCdkError(
    'EMULATOR_FEATURE_LEVEL',
    `The emulator supports Zulip feature levels ${min} to ${max}; got ${featureLevel}.`,
    { hint: `Pick a level from ${min} (Zulip 10.2) to ${max} (the newest modelled).` },
  );
}

/**
 * Starts the embedded Zulip-compatible server on 127.0.0.1.
 *
 * @example
 * const z = await startEmulator({ featureLevel: 421 });
 * const res = await fetch(`${z.url}/users`, {
 *   headers: { authorization: 'Basic ' + btoa(`${z.owner.email}:${z.owner.apiKey}`) },
 * });
 * await z.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const clock: Clock = options.clock ?? { now: () => Date.now() };
  const featureLevel = options.featureLevel ?? FEATURE_LEVELS.newest;
  checkEmulatorFeatureLevel(featureLevel);
  const org = completeOrgState(await initialOrg(options, clock.now()), clock.now());
  if (options.planType !== undefined) setRealmPlanType(org.realm, options.planType);
  // As a database has its indexes when it starts answering: the first request of a large
  // organization (1,000,000 subscriptions) does not pay for building them.
  buildIndexes(org);
  const stateFile =
    options.persist === true && typeof options.state === 'string'
      ? new StateFile(options.state, () => core.org)
      : undefined;
  const ownerUser = org.users.find((u) => u.isActive && !u.isBot && u.role === ROLES.owner);
  if (!ownerUser) throw new Error('the organization has no active owner');
  let site = '';
  const queues = new Map<string, EventQueue>();
  const core: ServerCore = {
    org,
    featureLevel,
    clock,
    site: () => site,
    queues,
    heartbeatMs: options.heartbeatMs ?? 50_000,
  };
  const faults = new FaultInjector(options.faults);
  let limiter = limiterFor(options.rateLimit);
  const requestLog: RequestLogEntry[] = [];
  const server = createServer(
    createListener({
      core,
      router: buildRouter(),
      faults,
      limiter: () => limiter,
      log: requestLog,
      ...(options.observe === undefined ? {} : { observe: options.observe }),
      ...(options.intercept === undefined ? {} : { intercept: options.intercept }),
      ...(stateFile === undefined ? {} : { afterChange: () => stateFile.flush() }),
    }),
  );
  if (stateFile && !existsSync(stateFile.file)) await stateFile.flush();
  // nginx in front of Zulip keeps idle connections 65 s (keepalive_timeout 65 in
  // puppet/zulip/templates/nginx.conf.template.erb). A shorter timeout races clients that
  // reuse a pooled connection just as the server closes it (ECONNRESET).
  server.keepAliveTimeout = 65_000;
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  site = `http://127.0.0.1:${port}`;
  const emulator: Emulator = {
    url: `${site}/api/v1`,
    site,
    port,
    featureLevel,
    owner: { email: ownerUser.email, apiKey: ownerUser.apiKey },
    org,
    requestLog,
    apiKeyOf(email) {
      const u = org.users.find((x) => x.email.toLowerCase() === email.toLowerCase());
      if (!u) throw new Error(`no user ${email}`);
      return u.apiKey;
    },
    setFaults(f) {
      faults.set(f);
    },
    setRateLimit(r) {
      limiter = limiterFor(r);
    },
    expireEventQueues() {
      return expireAllQueues(core);
    },
    get eventQueueCount() {
      return queues.size;
    },
    async promoteNewFullMembers() {
      const events: PendingEvent[] = [];
      // The channel events are computed only for queues to deliver them to.
      const fl = queues.size > 0 ? core.featureLevel : undefined;
      if (!promoteNewFullMembers(core.org, clock.now(), events, fl)) return;
      deliverEvents(core, events);
      await stateFile?.flush();
    },
    async save(path) {
      // The state holds every user's API key.
      await writePrivateFile(path, `${JSON.stringify(org, null, 2)}\n`);
    },
    async close() {
      running.delete(emulator);
      await new Promise<void>((resolve) => {
        for (const q of queues.values()) for (const w of q.waiters.splice(0)) w();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      });
      await stateFile?.idle();
    },
  };
  running.add(emulator);
  return emulator;
}

/** The emulators started in this process (this module instance) and not closed yet. */
const running = new Set<Emulator>();

/**
 * Closes every emulator started by this module and not closed yet; returns how many. For test
 * teardown (the project's jest setup calls it after each test file): a test that fails between
 * `startEmulator` and `close` would otherwise leave a listening server that keeps the process,
 * and jest, from exiting.
 */
export async function closeAllEmulators(): Promise<number> {
  const open = [...running];
  await Promise.all(open.map((z) => z.close()));
  return open.length;
}
