/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are untyped by nature */
/**
 * A plain-fetch client for tests of the embedded server: form-encodes parameters as Zulip
 * clients do (strings as they are, everything else JSON-encoded) and validates every response
 * against zulip.yaml (./openapi-validate), failing the test on a mismatch.
 */
import type { Emulator } from '../../src/emulator';
import { validateResponse } from './openapi-validate';

/** A response as the tests see it. */
export interface TestResponse {
  readonly status: number;
  readonly body: any;
  readonly headers: Headers;
}

/** How many responses were checked against a yaml schema (for a coverage assertion). */
export const validationStats = { checked: 0, unchecked: new Set<string>() };

/** Encodes parameters as Zulip expects them: plain strings raw, other values JSON. */
export function encodeParams(params: Record<string, unknown>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return out;
}

export class TestClient {
  public constructor(
    private readonly emulator: Pick<Emulator, 'url'>,
    private readonly email: string,
    private readonly apiKey: string,
  ) {}

  /** Sends a request; `path` is under /api/v1. Validates the response against the yaml. */
  public async call(
    method: string,
    path: string,
    params: Record<string, unknown> = {},
    opts: {
      auth?: boolean;
      validate?: boolean;
      /**
       * How parameters travel: `form` (the default for all but GET) is a url-encoded body,
       * `multipart` a multipart/form-data body (as zulip-js and browsers' FormData send),
       * `query` the query string (the default for GET).
       */
      encoding?: 'form' | 'multipart' | 'query';
      /** File parts (a multipart body): field name, file name, content type, bytes. */
      files?: readonly { field: string; filename: string; type: string; bytes: Uint8Array }[];
      /** More request headers (a `User-Agent`). */
      headers?: Record<string, string>;
    } = {},
  ): Promise<TestResponse> {
    const form = encodeParams(params);
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.auth !== false)
      headers.authorization = `Basic ${Buffer.from(`${this.email}:${this.apiKey}`).toString('base64')}`;
    let url = `${this.emulator.url}${path}`;
    let body: string | FormData | undefined;
    const encoding =
      opts.encoding ?? (opts.files ? 'multipart' : method === 'GET' ? 'query' : 'form');
    if (encoding === 'query') {
      const q = form.toString();
      if (q) url += `${url.includes('?') ? '&' : '?'}${q}`;
    } else if (encoding === 'multipart') {
      // fetch sets the multipart content type with its boundary.
      const data = new FormData();
      for (const [k, v] of form) data.append(k, v);
      for (const f of opts.files ?? [])
        data.append(f.field, new Blob([f.bytes], { type: f.type }), f.filename);
      body = data;
    } else {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = form.toString();
    }
    const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (injected 502s)
    }
    if (opts.validate !== false && typeof parsed === 'object') {
      const outcome = validateResponse(method, path.split('?')[0] ?? path, res.status, parsed);
      if (outcome.checked) validationStats.checked += 1;
      else validationStats.unchecked.add(`${method} ${path}`);
      if (outcome.errors.length > 0)
        throw new Error(
          `${method} ${path} → ${res.status} does not match zulip.yaml (${outcome.template}):\n` +
            `${outcome.errors.slice(0, 10).join('\n')}\nbody: ${text.slice(0, 2000)}`,
        );
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  public get(path: string, params?: Record<string, unknown>): Promise<TestResponse> {
    return this.call('GET', path, params);
  }
  public post(path: string, params?: Record<string, unknown>): Promise<TestResponse> {
    return this.call('POST', path, params);
  }
  public patch(path: string, params?: Record<string, unknown>): Promise<TestResponse> {
    return this.call('PATCH', path, params);
  }
  public delete(path: string, params?: Record<string, unknown>): Promise<TestResponse> {
    return this.call('DELETE', path, params);
  }
}

/** A client logged in as a user of the emulator's organization (by email or local part). */
export function clientFor(z: Emulator, who: string): TestClient {
  const email = who.includes('@') ? who : `${who}@zulip-cdk.example`;
  return new TestClient(z, email, z.apiKeyOf(email));
}

/** Asserts a Zulip error response: status, code and exact message. */
export function expectError(
  res: TestResponse,
  msg: string,
  code = 'BAD_REQUEST',
  status = 400,
): void {
  expect({ status: res.status, code: res.body?.code, msg: res.body?.msg }).toEqual({
    status,
    code,
    msg,
  });
}

/** Asserts success. */
export function expectSuccess(res: TestResponse): void {
  expect({ status: res.status, result: res.body?.result, msg: res.body?.msg }).toEqual({
    status: 200,
    result: 'success',
    msg: '',
  });
}
