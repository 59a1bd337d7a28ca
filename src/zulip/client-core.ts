import { inspect } from 'node:util';
import type { z } from 'zod';
import { ZulipCdkError } from '../model/errors';
import type { FeatureName } from '../model/features';
import { ServerCapabilities } from './capabilities';
import type { ZulipCredentials } from './credentials';
import { pathSegment, pathWithSlashes } from './encode';
import { ENDPOINTS } from './endpoints';
import type { EndpointName, EndpointSpec } from './endpoints';
import { ZulipHttp } from './http';
import type {
  ClientEvent,
  ClientWarning,
  HttpStats,
  RateLimitBudget,
  UploadFile,
  ZulipHttpOptions,
} from './http-types';
import { SuccessSchema } from './wire/common';
import type { Success } from './wire/common';
import { ServerSettingsSchema } from './wire/register';
import type { ServerSettings } from './wire/register';

/** Options of {@link ZulipClient}. */
export interface ZulipClientOptions extends Omit<ZulipHttpOptions, 'credentials' | 'site'> {
  /** Who to act as. Without credentials only `getServerSettings()` works. */
  readonly credentials?: ZulipCredentials;
  /** The site when there are no credentials. */
  readonly site?: string;
  /** Capabilities already known (e.g. from a snapshot); skips the lookup. */
  readonly capabilities?: ServerCapabilities;
}

type PathParams = Readonly<Record<string, string | number>>;

/**
 * What every {@link ZulipClient} call goes through: the HTTP layer, the server's capabilities
 * (learned from `GET /server_settings` or `POST /register`), the endpoint table and the check
 * of each answer. The endpoints themselves are the methods of {@link ZulipClient}.
 */
export class ZulipClientCore {
  /** The HTTP layer (pool, retries, budget, events). */
  public readonly http: ZulipHttp;
  #capabilities: ServerCapabilities | undefined;
  #capabilitiesPending: Promise<ServerCapabilities> | undefined;

  public constructor(options: ZulipClientOptions) {
    const { capabilities, ...httpOptions } = options;
    this.http = new ZulipHttp(httpOptions);
    this.#capabilities = capabilities;
  }

  /** The normalised site. */
  public get site(): string {
    return this.http.site;
  }

  /** The email requests are authenticated as. */
  public get email(): string | undefined {
    return this.http.email;
  }

  /** Requests attempted, retries, 429s. */
  public get stats(): HttpStats {
    return this.http.stats;
  }

  /** HTTP requests attempted so far, retries included. */
  public get requestCount(): number {
    return this.http.stats.requestCount;
  }

  /** The rate-limit budget from the last `X-RateLimit-*` headers. */
  public get rateLimit(): RateLimitBudget {
    return this.http.rateLimit;
  }

  /** The server's clock (ms) by the `Date` header of the last response that had one. */
  public get serverDate(): number | undefined {
    return this.http.serverDate;
  }

  /** Warnings so far, e.g. parameters the server ignored. */
  public get warnings(): readonly ClientWarning[] {
    return this.http.warnings;
  }

  /** Subscribes to warnings, retries and responses; returns the unsubscribe function. */
  public onEvent(listener: (event: ClientEvent) => void): () => void {
    return this.http.onEvent(listener);
  }

  /** Closes the connection pool. */
  public close(): Promise<void> {
    return this.http.close();
  }

  // ---------------------------------------------------------------- capabilities

  /** The server's capabilities, once learned (`register()` or `fetchCapabilities()`). */
  public get capabilities(): ServerCapabilities | undefined {
    return this.#capabilities;
  }

  /** Learns the capabilities with `GET /server_settings` unless already known; cached. */
  public fetchCapabilities(): Promise<ServerCapabilities> {
    if (this.#capabilities !== undefined) return Promise.resolve(this.#capabilities);
    this.#capabilitiesPending ??= this.getServerSettings()
      .then(() => this.#known())
      .finally(() => {
        this.#capabilitiesPending = undefined;
      });
    return this.#capabilitiesPending;
  }

  /** Whether the server has `feature`. Throws `CAPABILITIES_UNKNOWN` before they are learned. */
  public supports(feature: FeatureName): boolean {
    return this.#known().supports(feature);
  }

  /** Throws `UNSUPPORTED_FEATURE` unless the server has `feature` (`CAPABILITIES_UNKNOWN` before they are learned). */
  public requireFeature(feature: FeatureName, where?: string): void {
    this.#known().require(feature, where);
  }

  #known(): ServerCapabilities {
    if (this.#capabilities === undefined) {
      throw new ZulipCdkError(
        'CAPABILITIES_UNKNOWN',
        "The server's feature level is not known yet.",
        { hint: 'Call fetchCapabilities() or register() first.' },
      );
    }
    return this.#capabilities;
  }

  protected learn(featureLevel: number, version: string): void {
    this.#capabilities = new ServerCapabilities(featureLevel, version);
  }

  // ---------------------------------------------------------------- core

  /** Calls endpoint `name` and checks its answer against `schema`. */

  protected async call<S extends z.ZodType>(
    name: EndpointName,
    pathParams: PathParams,
    params: object | undefined,
    schema: S,
    files?: readonly UploadFile[],
  ): Promise<z.infer<S>> {
    const spec: EndpointSpec = ENDPOINTS[name];
    const endpoint = `${spec.method} ${spec.path}`;
    if (spec.feature !== undefined && this.#capabilities !== undefined) {
      this.#capabilities.require(spec.feature, endpoint);
    }
    const path = spec.path.replace(/\{(\w+)\}/g, (_m, key: string) => {
      const v = pathParams[key];
      if (v === undefined) {
        throw new ZulipCdkError('INVALID_ARGUMENT', `${endpoint}: missing path parameter ${key}.`, {
          where: endpoint,
        });
      }
      return spec.slashParams?.includes(key) === true ? pathWithSlashes(String(v)) : pathSegment(v);
    });
    const body = await this.http.request({
      method: spec.method,
      path,
      endpoint,
      params,
      ...(spec.jsonStrings === undefined ? {} : { jsonStrings: spec.jsonStrings }),
      ...(spec.idempotent === undefined ? {} : { idempotent: spec.idempotent }),
      authenticated: spec.unauthenticated !== true,
      ...(files === undefined ? {} : { files }),
    });
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const where = [
        ...new Set(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)),
      ].slice(0, 5);
      throw new ZulipCdkError(
        'UNEXPECTED_RESPONSE',
        `${endpoint} returned a response of an unexpected shape (${where.join('; ')}).`,
        {
          where: endpoint,
          hint: 'The server may be too old or too new for this zulip-cdk version.',
        },
      );
    }
    return parsed.data;
  }

  /** Calls endpoint `name`, whose answer is Zulip's success object and nothing else. */
  protected send(name: EndpointName, pathParams: PathParams, params?: object): Promise<Success> {
    return this.call(name, pathParams, params, SuccessSchema);
  }

  /** `GET /server_settings` (unauthenticated, cheap); learns the capabilities. */
  public async getServerSettings(): Promise<ServerSettings> {
    const res = await this.call('getServerSettings', {}, undefined, ServerSettingsSchema);
    this.learn(res.zulip_feature_level, res.zulip_version);
    return res;
  }

  public toJSON(): Record<string, unknown> {
    return {
      site: this.site,
      email: this.email,
      capabilities: this.#capabilities?.toJSON(),
      stats: this.stats,
    };
  }

  public [inspect.custom](): string {
    return `ZulipClient { site: ${JSON.stringify(this.site)}, email: ${JSON.stringify(this.email)} }`;
  }
}
