/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are untyped by nature */
/**
 * Requests read as Zulip reads them: Django fills request.POST from url-encoded and multipart
 * bodies, Zulip's process_as_post (zerver/decorator.py) does the same for PATCH and DELETE,
 * typed_endpoint (zerver/lib/typed_endpoint.py) takes a parameter from the body first, then
 * from the query string, on every method; bodies of other types are not read; bodies over
 * Django's DATA_UPLOAD_MAX_MEMORY_SIZE are refused without being read into memory.
 */
import { request as httpRequest } from 'node:http';
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { MAX_BODY_BYTES, MAX_FIELDS } from '../../src/emulator/request-body';
import { TestClient, clientFor, expectSuccess } from '../support/emulator-client';

let z: Emulator;
let admin: TestClient;
let auth: string;

beforeAll(async () => {
  z = await startEmulator({ rateLimit: false });
  admin = clientFor(z, 'admin');
  auth = `Basic ${Buffer.from(`admin@zulip-cdk.example:${z.apiKeyOf('admin@zulip-cdk.example')}`).toString('base64')}`;
});
afterAll(() => z.close());

/** A raw request: a body of any type, the emulator's answer as status and parsed JSON. */
async function raw(
  method: string,
  path: string,
  body: string | Buffer | FormData | undefined,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${z.url}${path}`, {
    method,
    headers: { authorization: auth, ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) };
}

/** A request through node:http, for what fetch does not send (a GET body, no content type). */
function nodeRequest(
  method: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      new URL(`${z.url}${path}`),
      {
        method,
        headers: { authorization: auth, 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function linkifierPatterns(): Promise<string[]> {
  const r = await admin.get('/realm/linkifiers');
  return (r.body.linkifiers as Array<{ pattern: string }>).map((l) => l.pattern);
}

describe('where parameters come from', () => {
  test.each(['form', 'multipart', 'query'] as const)(
    'POST with parameters %s: the linkifier is created',
    async (encoding) => {
      const pattern = `${encoding}-(?P<id>[0-9]+)`;
      const r = await admin.call(
        'POST',
        '/realm/filters',
        { pattern, url_template: 'https://example.com/{id}' },
        { encoding },
      );
      expectSuccess(r);
      expect(await linkifierPatterns()).toContain(pattern);
    },
  );

  test.each(['form', 'multipart', 'query'] as const)(
    'PATCH with parameters %s: the linkifier is changed',
    async (encoding) => {
      const created = await admin.post('/realm/filters', {
        pattern: `patch-${encoding}-(?P<id>[0-9]+)`,
        url_template: 'https://example.com/{id}',
      });
      const pattern = `patched-${encoding}-(?P<id>[0-9]+)`;
      const r = await admin.call(
        'PATCH',
        `/realm/filters/${created.body.id}`,
        { pattern, url_template: 'https://example.org/{id}' },
        { encoding },
      );
      expectSuccess(r);
      expect(await linkifierPatterns()).toContain(pattern);
    },
  );

  test.each(['form', 'multipart', 'query'] as const)(
    'DELETE with parameters %s: the subscription is removed',
    async (encoding) => {
      const erin = clientFor(z, 'erin');
      const name = `delete-${encoding}`;
      expectSuccess(await erin.post('/users/me/subscriptions', { subscriptions: [{ name }] }));
      const r = await erin.call(
        'DELETE',
        '/users/me/subscriptions',
        { subscriptions: [name] },
        { encoding },
      );
      expectSuccess(r);
      expect(r.body.removed).toEqual([name]);
      const subs = await erin.get('/users/me/subscriptions');
      expect(subs.body.subscriptions.map((s: { name: string }) => s.name)).not.toContain(name);
    },
  );

  test('a name in the body wins over the same name in the query string', async () => {
    const form = new URLSearchParams({
      pattern: 'body-(?P<id>[0-9]+)',
      url_template: 'https://example.com/{id}',
    });
    const r = await raw(
      'POST',
      `/realm/filters?${new URLSearchParams({ pattern: 'in-query-(?P<id>[0-9]+)' }).toString()}`,
      form.toString(),
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    expect(r.status).toBe(200);
    const patterns = await linkifierPatterns();
    expect(patterns).toContain('body-(?P<id>[0-9]+)');
    expect(patterns).not.toContain('in-query-(?P<id>[0-9]+)');
  });

  test('a repeated name counts once, with its last value', async () => {
    const r = await raw(
      'POST',
      '/realm/filters',
      'pattern=first-(%3FP<id>[0-9]%2B)&pattern=last-(%3FP<id>[0-9]%2B)&url_template=https://example.com/{id}',
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    expect(r.status).toBe(200);
    expect(r.body.ignored_parameters_unsupported).toBeUndefined();
    const patterns = await linkifierPatterns();
    expect(patterns).toContain('last-(?P<id>[0-9]+)');
    expect(patterns).not.toContain('first-(?P<id>[0-9]+)');
  });

  test('the content type is matched without case and parameters', async () => {
    const r = await raw(
      'POST',
      '/realm/filters',
      new URLSearchParams({
        pattern: 'charset-(?P<id>[0-9]+)',
        url_template: 'https://example.com/{id}',
      }).toString(),
      { 'content-type': 'Application/X-WWW-Form-URLEncoded; charset=UTF-8' },
    );
    expect(r.status).toBe(200);
    expect(await linkifierPatterns()).toContain('charset-(?P<id>[0-9]+)');
  });

  test('the body of a GET is not read', async () => {
    const r = await nodeRequest('GET', '/users', 'bogus=1', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(r.status).toBe(200);
    expect(r.body.ignored_parameters_unsupported).toBeUndefined();
  });

  test('a file part of a multipart body is not a parameter', async () => {
    const data = new FormData();
    data.append('pattern', 'file-(?P<id>[0-9]+)');
    data.append('url_template', 'https://example.com/{id}');
    data.append('attachment', new Blob(['hello']), 'hello.txt');
    const r = await raw('POST', '/realm/filters', data);
    expect(r.status).toBe(200);
    expect(r.body.ignored_parameters_unsupported).toBeUndefined();
  });

  test('ignored_parameters_unsupported is sorted, as typed_endpoint reports it', async () => {
    const r = await admin.get('/users', { zeta: 1, alpha: 2, mid: 3 });
    expect(r.body.ignored_parameters_unsupported).toEqual(['alpha', 'mid', 'zeta']);
  });

  test('a POST carrying method=DELETE is dispatched as a DELETE (zerver/lib/rest.py)', async () => {
    const erin = clientFor(z, 'erin');
    expectSuccess(
      await erin.post('/users/me/subscriptions', { subscriptions: [{ name: 'overridden' }] }),
    );
    const r = await erin.call(
      'POST',
      '/users/me/subscriptions',
      { method: 'DELETE', subscriptions: ['overridden'] },
      { validate: false },
    );
    expectSuccess(r);
    expect(r.body.removed).toEqual(['overridden']);
    expect(r.body.ignored_parameters_unsupported).toEqual(['method']);
    expect(z.requestLog.at(-1)).toMatchObject({ method: 'DELETE', status: 200 });
  });
});

describe('bodies Zulip does not read', () => {
  test.each([
    ['application/json', JSON.stringify({ pattern: 'x', url_template: 'y' })],
    ['text/plain', 'pattern=x&url_template=y'],
  ])('a %s body is not read: "Missing \'pattern\' argument"', async (type, body) => {
    const r = await raw('POST', '/realm/filters', body, { 'content-type': type });
    expect(r).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: "Missing 'pattern' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'pattern',
      },
    });
  });

  test('a body without a content type is not read', async () => {
    const r = await nodeRequest('POST', '/realm/filters', 'pattern=x&url_template=y');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('REQUEST_VARIABLE_MISSING');
  });

  test.each([
    ['no boundary', 'multipart/form-data', '--x\r\n'],
    [
      'a truncated body',
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="pattern"\r\n\r\nabc',
    ],
  ])(
    'a multipart body with %s: 400 "Malformed payload", never a 500',
    async (_what, type, body) => {
      const r = await raw('POST', '/realm/filters', body, { 'content-type': type });
      expect(r).toEqual({
        status: 400,
        body: { result: 'error', msg: 'Malformed payload', code: 'BAD_REQUEST' },
      });
    },
  );

  test('a malformed body fails before authentication (rest_dispatch reads request.POST first)', async () => {
    const res = await fetch(`${z.url}/realm/filters`, {
      method: 'POST',
      headers: { authorization: 'Basic bm9ib2R5Ondyb25n', 'content-type': 'multipart/form-data' },
      body: 'junk',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { msg: string }).msg).toBe('Malformed payload');
  });

  test(`more than ${MAX_FIELDS} parameters: Django's TooManyFieldsSent`, async () => {
    const many = Array.from({ length: MAX_FIELDS + 1 }, (_, i) => `p${i}=1`).join('&');
    const r = await raw('POST', '/realm/filters', many, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(r).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: 'The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS.',
        code: 'BAD_REQUEST',
      },
    });
  });
});

describe('body size', () => {
  const tooLarge = {
    status: 413,
    body: {
      result: 'error',
      msg: 'Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.',
      code: 'BAD_REQUEST',
    },
  };

  test('a body just under the limit is read', async () => {
    const form = new URLSearchParams({
      pattern: 'big-(?P<id>[0-9]+)',
      url_template: 'https://example.com/{id}',
    });
    const padding = 'a'.repeat(MAX_BODY_BYTES - form.toString().length - '&padding='.length);
    const body = `${form.toString()}&padding=${padding}`;
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    const r = await raw('POST', '/realm/filters', body, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(r.status).toBe(200);
    expect(r.body.ignored_parameters_unsupported).toEqual(['padding']);
  });

  test('a Content-Length of 60 MB: 413 before a byte of the body is sent, the server stays up', async () => {
    const before = z.org.linkifiers.length;
    // Only the head goes out: the answer must come without the body being read.
    const r = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(
        new URL(`${z.url}/realm/filters`),
        {
          method: 'POST',
          headers: {
            authorization: auth,
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': 60 * 1024 * 1024,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(r).toEqual(tooLarge);
    expect(z.org.linkifiers.length).toBe(before);
    expect(z.requestLog.at(-1)).toMatchObject({
      method: 'POST',
      path: '/realm/filters',
      status: 413,
    });
    expectSuccess(await admin.get('/users'));
  });

  test('a streamed body stops being read once over the limit', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    let sent = 0;
    const before = z.requestLog.length;
    const r = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(
        new URL(`${z.url}/realm/filters`),
        {
          method: 'POST',
          headers: {
            authorization: auth,
            'content-type': 'application/x-www-form-urlencoded',
            'transfer-encoding': 'chunked',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      const pump = (): void => {
        while (sent < 8) {
          sent += 1;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        req.end();
      };
      pump();
    });
    expect(r).toEqual(tooLarge);
    expect(z.requestLog.slice(before).map((e) => e.status)).toEqual([413]);
  });
});
