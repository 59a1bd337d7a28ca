import type { Params } from './params';
import type { UploadedFile } from './request-body';
import type { OrgState, StoredUser } from './state';

/** A clock in milliseconds; tests inject a fake one. */
export interface Clock {
  now(): number;
}

/** One registered event queue. */
export interface EventQueue {
  id: string;
  userId: number;
  lastAccess: number;
  lastEventId: number;
  events: Array<Record<string, unknown> & { id: number }>;
  eventTypes: string[] | null;
  /** The `client_capabilities` the queue was registered with. */
  capabilities: Record<string, unknown>;
  /**
   * Whether the client knows the pronouns profile field type (from its `User-Agent`:
   * `is_pronouns_field_type_supported`); Tornado's `ClientDescriptor.pronouns_field_type_supported`.
   */
  pronounsFieldTypeSupported: boolean;
  /** Long-pollers waiting for an event. */
  waiters: Array<() => void>;
}

/** An event for some users: `users` are user IDs, or `all` for every active user. */
export interface PendingEvent {
  readonly users: readonly number[] | 'all';
  readonly event: Record<string, unknown>;
  /** Only queues registered with this client capability get it. */
  readonly capability?: string;
  /** Only queues registered without this client capability get it. */
  readonly withoutCapability?: string;
}

/** What the server shares with every handler. */
export interface ServerCore {
  org: OrgState;
  readonly featureLevel: number;
  readonly clock: Clock;
  readonly site: () => string;
  readonly queues: Map<string, EventQueue>;
  /** How long `GET /events` waits before answering with a heartbeat. */
  readonly heartbeatMs: number;
}

/** One request, as a handler sees it. */
export interface RequestContext {
  readonly core: ServerCore;
  readonly org: OrgState;
  readonly featureLevel: number;
  /** The authenticated user; routes with `auth: 'none'` get undefined. */
  readonly user: StoredUser;
  readonly params: Params;
  /** Path parameters by name, e.g. `stream_id`. */
  readonly path: Readonly<Record<string, string>>;
  readonly now: number;
  /** Events to deliver once the request is done (`atomic` drops those of a rolled-back block). */
  readonly events: PendingEvent[];
  /** The request's `User-Agent` header, if sent. */
  readonly userAgent?: string;
  /** The files of a multipart body (Django's `request.FILES`), in the order sent. */
  readonly files?: readonly UploadedFile[];
}

/** A handler returns the success data (merged into `{result, msg}`) or throws an ApiError. */
export type Handler = (
  ctx: RequestContext,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

/** One endpoint. `minLevel`/`maxLevel` bound the feature levels where it exists. */
export interface Route {
  readonly method: HttpMethod;
  /** Path under `/api/v1`, e.g. `/streams/{stream_id}`. Parameters ending in `_id` match digits;
   * `{name*}` matches the rest of the path, slashes included. */
  readonly path: string;
  readonly handler: Handler;
  readonly minLevel?: number;
  readonly maxLevel?: number;
  /** `none`: no credentials needed (e.g. `/server_settings`). Default: `user`. */
  readonly auth?: 'user' | 'none';
}

interface Compiled {
  route: Route;
  re: RegExp;
  names: string[];
}

/** Compiles a path pattern to a regular expression and its parameter names. */
export function compilePath(path: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const src = path.replace(/\{([a-z_]+)(\*?)\}/g, (_m, name: string, rest: string) => {
    names.push(name);
    if (rest === '*') return '(.+)';
    return name.endsWith('_id') ? '([0-9]+)' : '([^/]+)';
  });
  return { re: new RegExp(`^${src}/?$`), names };
}

/** A small method + path router. */
export class Router {
  private readonly compiled: Compiled[] = [];

  public add(...routes: Route[]): void {
    for (const route of routes) this.compiled.push({ route, ...compilePath(route.path) });
  }

  /**
   * Finds the route for a request at a feature level: the route and its path parameters, or
   * `methods` (the methods the path has) when only the method is wrong, or nothing.
   */
  public match(
    method: string,
    path: string,
    featureLevel: number,
  ): { route: Route; params: Record<string, string> } | { methods: string[] } | undefined {
    const methods: string[] = [];
    for (const c of this.compiled) {
      const { route } = c;
      if (route.minLevel !== undefined && featureLevel < route.minLevel) continue;
      if (route.maxLevel !== undefined && featureLevel > route.maxLevel) continue;
      const m = c.re.exec(path);
      if (!m) continue;
      if (route.method !== method) {
        methods.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      c.names.forEach((n, i) => {
        params[n] = decodeURIComponent(m[i + 1] ?? '');
      });
      return { route, params };
    }
    return methods.length > 0 ? { methods } : undefined;
  }
}
