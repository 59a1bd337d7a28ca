import { inspect } from 'node:util';
import { isZulipCdkError, ZulipCdkError } from '../../src/model/errors';
import {
  CLIENT_VERSION,
  isZulipApiError,
  ServerCapabilities,
  ZulipApiError,
  ZulipClient,
  ZulipCredentials,
} from '../../src/zulip';
import type { ClientEvent, ZulipClientOptions } from '../../src/zulip';
import { CaptureServer } from './capture-server';
import { rejection } from '../support/errors';

const KEY = 'sEcReTaPiKeY0123456789abcdef';
const EMAIL = 'admin@example.com';
const BASIC = Buffer.from(`${EMAIL}:${KEY}`).toString('base64');

let server: CaptureServer;
let client: ZulipClient;
let sleeps: number[];
let events: ClientEvent[];

function makeClient(extra: Partial<ZulipClientOptions> = {}, site = server.site): ZulipClient {
  return new ZulipClient({
    credentials: new ZulipCredentials({ email: EMAIL, apiKey: KEY, site }),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
    onEvent: (e) => events.push(e),
    ...extra,
  });
}

function assertNoSecret(text: string): void {
  expect(text).not.toContain(KEY);
  expect(text).not.toContain(BASIC);
}

beforeEach(async () => {
  server = await CaptureServer.start();
  server.defaultReply = { body: { result: 'success', msg: '', streams: [], members: [] } };
  sleeps = [];
  events = [];
  client = makeClient();
});

afterEach(async () => {
  await client.close();
  await server.close();
});

describe('requests', () => {
  it('authenticates with HTTP Basic and names zulip-cdk and its version', async () => {
    await client.getStreams();
    const req = server.only();
    expect(req.headers.authorization).toBe(`Basic ${BASIC}`);
    expect(req.headers['user-agent']).toBe(`zulip-cdk/${CLIENT_VERSION}`);
    expect(CLIENT_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('puts GET parameters in the query string', async () => {
    await client.getStreams({ include_all: true, exclude_archived: false });
    const req = server.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/api/v1/streams');
    expect(req.query.get('include_all')).toBe('true');
    expect(req.query.get('exclude_archived')).toBe('false');
    expect(req.body).toBe('');
  });

  it('form-encodes bodies: plain strings as they are, everything else (and Json[str] parameters) JSON-encoded', async () => {
    await client.updateStream(12, {
      description: 'Say "hi"',
      new_name: '[42] true',
      is_private: true,
      folder_id: null,
      message_retention_days: 'unlimited',
      topics_policy: 'disable_empty_topic',
      can_send_message_group: { new: { direct_members: [1], direct_subgroups: [] }, old: 11 },
    });
    const req = server.only();
    expect(req.method).toBe('PATCH');
    expect(req.path).toBe('/api/v1/streams/12');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.form.get('description')).toBe('Say "hi"');
    expect(req.form.get('new_name')).toBe('[42] true');
    expect(req.form.get('is_private')).toBe('true');
    expect(req.form.get('folder_id')).toBe('null');
    expect(req.form.get('message_retention_days')).toBe('"unlimited"');
    expect(req.form.get('topics_policy')).toBe('disable_empty_topic');
    expect(JSON.parse(req.form.get('can_send_message_group')!)).toEqual({
      new: { direct_members: [1], direct_subgroups: [] },
      old: 11,
    });
  });

  it('leaves out undefined parameters', async () => {
    await client.updateUserGroup(3, { name: 'x' });
    expect([...server.only().form.keys()]).toEqual(['name']);
  });

  it('keeps slashes of a navigation view fragment and encodes emails in paths', async () => {
    await client.updateNavigationView('narrow/is/alerted', { is_pinned: true });
    await client.updateUserByEmail('a+b@example.com', { full_name: 'A B' });
    expect(server.requests[0]!.path).toBe('/api/v1/navigation_views/narrow/is/alerted');
    expect(server.requests[1]!.url).toBe('/api/v1/users/a%2Bb%40example.com');
  });

  it('counts requests', async () => {
    await client.getStreams();
    await client.getUsers();
    expect(client.requestCount).toBe(2);
    expect(client.stats).toEqual({
      requestCount: 2,
      retryCount: 0,
      rateLimitHits: 0,
      paceWaits: 0,
      paceWaitMs: 0,
    });
  });
});

describe('errors', () => {
  it('maps a 400 with extra fields to ZulipApiError', async () => {
    server.replies.push({
      status: 400,
      body: {
        result: 'error',
        msg: 'Cannot deactivate user group in use.',
        code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
        objections: [{ type: 'channel', channel_id: 9, settings: ['can_send_message_group'] }],
      },
    });
    const e = await rejection(client.deactivateUserGroup(17));
    expect(e).toBeInstanceOf(ZulipApiError);
    expect(e).toBeInstanceOf(ZulipCdkError);
    expect(isZulipCdkError(e, 'CANNOT_DEACTIVATE_GROUP_IN_USE')).toBe(true);
    expect(isZulipApiError(e, 'CANNOT_DEACTIVATE_GROUP_IN_USE')).toBe(true);
    const api = e as ZulipApiError;
    expect(api.status).toBe(400);
    expect(api.endpoint).toBe('POST /user_groups/{user_group_id}/deactivate');
    expect(api.request).toBe('POST /api/v1/user_groups/17/deactivate');
    expect(api.where).toBe(api.endpoint);
    expect(api.zulipMessage).toBe('Cannot deactivate user group in use.');
    expect(api.data).toEqual({
      objections: [{ type: 'channel', channel_id: 9, settings: ['can_send_message_group'] }],
    });
    expect(api.message).toContain('Cannot deactivate user group in use.');
    expect(api.message).toContain('CANNOT_DEACTIVATE_GROUP_IN_USE');
  });

  it('keeps var_name and stream data fields; EXPECTATION_MISMATCH has a hint', async () => {
    server.replies.push({
      status: 400,
      body: {
        result: 'error',
        msg: "Missing 'name' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'name',
      },
    });
    server.replies.push({
      status: 400,
      body: {
        result: 'error',
        msg: "'old' value does not match the expected value.",
        code: 'EXPECTATION_MISMATCH',
      },
    });
    const e1 = (await rejection(
      client.createSavedSnippet({ title: '', content: 'x' }),
    )) as ZulipApiError;
    expect(e1.code).toBe('REQUEST_VARIABLE_MISSING');
    expect(e1.data.var_name).toBe('name');
    const e2 = await rejection(
      client.updateStream(1, { can_send_message_group: { new: 2, old: 3 } }),
    );
    expect(e2.code).toBe('EXPECTATION_MISMATCH');
    expect(e2.hint).toMatch(/plan again/);
  });

  it('maps a 404 saved-snippet error with its status', async () => {
    server.replies.push({
      status: 404,
      body: { result: 'error', msg: 'Saved snippet does not exist.', code: 'BAD_REQUEST' },
    });
    const e = (await rejection(client.deleteSavedSnippet(99))) as ZulipApiError;
    expect(e.status).toBe(404);
    expect(e.code).toBe('BAD_REQUEST');
  });

  it('reports a non-Zulip body as INVALID_RESPONSE', async () => {
    server.replies.push({ status: 404, body: '<html>Not found</html>' });
    const e = await rejection(client.getStreams());
    expect(e.code).toBe('INVALID_RESPONSE');
    expect(e.message).toContain('HTTP 404');
  });

  it('says the site may not be Zulip only when the answer shows it (an HTML 200, a 404), not for a 5xx page', async () => {
    server.replies.push({ status: 200, body: '<html>Welcome to nginx</html>' });
    server.replies.push({ status: 404, body: '<html>Not found</html>' });
    const page = await rejection(client.register());
    const notFound = await rejection(client.register());
    for (const e of [page, notFound]) {
      expect(e.code).toBe('INVALID_RESPONSE');
      expect(e.hint).toBe(
        `Check that ${server.site} is a Zulip server (the site URL, without /api/v1).`,
      );
    }
    // A 501 page (not worth a retry) and a 500 page on every attempt come from a failing server.
    server.replies.push({ status: 501, body: '<html>Not implemented</html>' });
    const notImplemented = await rejection(client.getStreams());
    expect(notImplemented.code).toBe('SERVER_ERROR');
    expect(server.requests).toHaveLength(3);
    server.defaultReply = { status: 500, body: '<html>Internal Server Error</html>' };
    const failing = await rejection(client.getStreams());
    expect(failing.code).toBe('SERVER_UNAVAILABLE');
    expect(failing.message).toMatch(/answered HTTP 500 to 4 attempts over/);
    expect(server.requests).toHaveLength(7);
    for (const e of [notImplemented, failing]) expect(e.hint).not.toMatch(/Zulip server|site URL/);
  });

  it('a plain-HTTP server reached as https: says so, and how to write the site', async () => {
    const c = makeClient({}, server.site.replace('http://', 'https://'));
    try {
      const e = await rejection(c.getStreams());
      expect(isZulipCdkError(e, 'NETWORK_ERROR')).toBe(true);
      expect(e.message).toContain('the server did not answer in TLS');
      expect(e.hint).toContain('write the site with http://');
    } finally {
      await c.close();
    }
  });

  it('reports a success body of the wrong shape as UNEXPECTED_RESPONSE', async () => {
    server.replies.push({ body: { result: 'success', msg: '', streams: 'nope' } });
    const e = await rejection(client.getStreams());
    expect(e.code).toBe('UNEXPECTED_RESPONSE');
    expect(e.message).toContain('streams');
  });

  it('reads a large body of known length whole, multi-byte characters across chunks included (issue 17)', async () => {
    // 3 MB, so it is read into one buffer of its length, in many chunks that split characters.
    const members = Array.from({ length: 20_000 }, (_, i) => ({
      user_id: i,
      email: `u${i}@x.example`,
      full_name: `Zoë Ünal 日本 ${'é'.repeat(i % 50)}`,
      is_bot: false,
    }));
    const text = JSON.stringify({ result: 'success', msg: '', members });
    expect(text.length).toBeGreaterThan(1 << 21);
    server.replies.push({
      body: text,
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      },
    });
    // The same body without a length (chunked).
    server.replies.push({ body: text, headers: { 'content-type': 'application/json' } });
    for (let i = 0; i < 2; i++) {
      const res = await client.getUsers();
      expect(res.members).toHaveLength(20_000);
      expect(res.members[19_999]).toEqual(members[19_999]);
    }
  });

  it('names the bad value deep in a large register response (realm_users checked in place)', async () => {
    const users = Array.from({ length: 3 }, (_, i) => ({
      user_id: i,
      email: `u${i}@x.example`,
      full_name: 'U',
      is_bot: false,
    }));
    server.replies.push({
      body: {
        result: 'success',
        msg: '',
        zulip_version: '11.0',
        zulip_feature_level: 400,
        realm_users: [...users, { ...users[0], user_id: 'seven' }],
      },
    });
    const e = await rejection(client.register());
    expect(e.code).toBe('UNEXPECTED_RESPONSE');
    expect(e.message).toContain(
      'realm_users.3.user_id: Invalid input: expected int, received string',
    );
  });

  it('passes unknown response fields through', async () => {
    server.replies.push({
      body: { result: 'success', msg: '', id: 5, brand_new_field: { a: 1 } },
    });
    const res = await client.addLinkifier({
      pattern: '#(?P<id>[0-9]+)',
      url_template: 'https://x/{id}',
    });
    expect(res.id).toBe(5);
    expect((res as Record<string, unknown>).brand_new_field).toEqual({ a: 1 });
  });
});

describe('warnings', () => {
  it('surfaces ignored_parameters_unsupported as a warning and an event', async () => {
    server.replies.push({
      body: { result: 'success', msg: '', ignored_parameters_unsupported: ['topics_policy'] },
    });
    const seen: ClientEvent[] = [];
    const off = client.onEvent((e) => seen.push(e));
    await client.updateStream(4, { topics_policy: 'inherit' });
    off();
    expect(client.warnings).toHaveLength(1);
    expect(client.warnings[0]).toMatchObject({
      type: 'warning',
      code: 'IGNORED_PARAMETERS',
      endpoint: 'PATCH /streams/{stream_id}',
      parameters: ['topics_policy'],
    });
    expect(seen.filter((e) => e.type === 'warning')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'warning')).toHaveLength(1);
  });
});

describe('rate limits', () => {
  it('waits out a 429 Retry-After (float seconds) and repeats, even a POST', async () => {
    server.replies.push({
      status: 429,
      headers: {
        'retry-after': '0.25',
        'x-ratelimit-limit': '200',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': '1700000060',
      },
      body: {
        result: 'error',
        msg: 'API usage exceeded rate limit',
        code: 'RATE_LIMIT_HIT',
        'retry-after': 0.25,
      },
    });
    server.replies.push({
      headers: {
        'x-ratelimit-limit': '200',
        'x-ratelimit-remaining': '199',
        'x-ratelimit-reset': '1700000061',
      },
      body: { result: 'success', msg: '', group_id: 8 },
    });
    const res = await client.createUserGroup({ name: 'g', description: '', members: [1] });
    expect(res.group_id).toBe(8);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(sleeps).toEqual([250]);
    expect(client.stats).toEqual({
      requestCount: 2,
      retryCount: 1,
      rateLimitHits: 1,
      paceWaits: 0,
      paceWaitMs: 0,
    });
    expect(client.rateLimit).toMatchObject({ limit: 200, remaining: 199 });
    // X-RateLimit-Reset moved onto our clock by the response's Date (the same clock here).
    expect(client.rateLimit.resetAt).toBeGreaterThanOrEqual(1700000061);
    expect(client.rateLimit.resetAt).toBeLessThan(1700000063);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({
      reason: 'rate-limit',
      delayMs: 250,
    });
  });

  it('reads retry-after from the body when the header is missing', async () => {
    server.replies.push({
      status: 429,
      body: { result: 'error', msg: 'x', code: 'RATE_LIMIT_HIT', 'retry-after': 1.5 },
    });
    await client.getUsers();
    expect(sleeps).toEqual([1500]);
  });

  it('gives up with RATE_LIMIT_HIT after the bounded number of waits', async () => {
    await client.close();
    client = makeClient({ retry: { maxRateLimitRetries: 2 } });
    server.defaultReply = {
      status: 429,
      headers: { 'retry-after': '0.1' },
      body: {
        result: 'error',
        msg: 'API usage exceeded rate limit',
        code: 'RATE_LIMIT_HIT',
        'retry-after': 0.1,
      },
    };
    const e = (await rejection(client.getStreams())) as ZulipApiError;
    expect(e.code).toBe('RATE_LIMIT_HIT');
    expect(e.status).toBe(429);
    expect(e.retryAfter).toBeCloseTo(0.1);
    expect(server.requests).toHaveLength(3);
  });

  it('does not wait out a Retry-After longer than the maximum', async () => {
    server.replies.push({
      status: 429,
      headers: { 'retry-after': '600.5' },
      body: { result: 'error', msg: 'x', code: 'RATE_LIMIT_HIT', 'retry-after': 600.5 },
    });
    const e = (await rejection(client.getStreams())) as ZulipApiError;
    expect(e.retryAfter).toBe(600.5);
    expect(sleeps).toEqual([]);
    // A longer window than a minute (Zulip sends the headers of its last rule only): say so.
    expect(e.hint).toBe(
      'Zulip asks to wait 601 s, longer than the 120 s this client waits (a rate limit over a longer window than a minute); run it again after that: a new plan shows what is left.',
    );
  });
});

describe('faults', () => {
  it('retries a GET after a dropped connection', async () => {
    server.replies.push('drop');
    server.replies.push({ body: { result: 'success', msg: '', streams: [] } });
    const res = await client.getStreams();
    expect(res.streams).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(client.stats.retryCount).toBe(1);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ reason: 'connection' });
  });

  it('never repeats a POST after a dropped connection: the server sees exactly one request', async () => {
    server.replies.push('drop');
    const e = await rejection(
      client.subscribe({ subscriptions: [{ name: 'eng' }], principals: [5] }),
    );
    expect(e.code).toBe('REQUEST_OUTCOME_UNKNOWN');
    expect(e.message).toMatch(/not repeated/);
    expect(e.hint).toMatch(/Re-read/);
    expect(e.cause).toBeDefined();
    expect(server.requests).toHaveLength(1);
    // Nothing is sent later either.
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(1);
    assertNoSecret(e.message);
  });

  it('does not repeat a PATCH or DELETE after a dropped connection', async () => {
    server.replies.push('drop', 'drop');
    expect((await rejection(client.updateStream(1, { description: 'x' }))).code).toBe(
      'REQUEST_OUTCOME_UNKNOWN',
    );
    expect((await rejection(client.archiveStream(1))).code).toBe('REQUEST_OUTCOME_UNKNOWN');
    expect(server.requests).toHaveLength(2);
  });

  it('retries 502/503/504 on a GET with growing, bounded backoff', async () => {
    server.replies.push(
      { status: 503, body: 'busy' },
      { status: 502, body: 'bad' },
      { status: 504, body: 'slow' },
    );
    server.replies.push({ body: { result: 'success', msg: '', members: [] } });
    const res = await client.getUsers();
    expect(res.members).toEqual([]);
    expect(server.requests).toHaveLength(4);
    // random() = 0.5: delay = cap * 0.75 with cap = 500, 1000, 2000 (the default base is 0.5 s).
    expect(sleeps).toEqual([375, 750, 1500]);
  });

  it('gives up on a GET after maxAttempts with SERVER_UNAVAILABLE, delays capped', async () => {
    await client.close();
    client = makeClient({ retry: { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 2000 } });
    server.defaultReply = { status: 503, body: 'down' };
    const e = await rejection(client.getStreams());
    expect(e.code).toBe('SERVER_UNAVAILABLE');
    expect(server.requests).toHaveLength(5);
    expect(sleeps).toHaveLength(4);
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(2000);
    expect(sleeps[1]).toBeGreaterThan(sleeps[0]!);
  });

  it('uses jitter', async () => {
    await client.close();
    let r = 0;
    client = makeClient({ random: () => [0, 0.999][r++ % 2]! });
    server.replies.push({ status: 503, body: '' }, { status: 503, body: '' });
    await client.getStreams();
    expect(sleeps[0]).toBe(250); // cap 500, random 0 → half the cap
    expect(sleeps[1]).toBe(1000); // cap 1000, random ~1 → the cap
  });

  it('does not repeat a POST that got a 502, and says the outcome is unknown', async () => {
    server.replies.push({ status: 502, body: 'Bad gateway' });
    const e = await rejection(client.createChannel({ name: 'x', subscribers: [] }));
    expect(e.code).toBe('REQUEST_OUTCOME_UNKNOWN');
    expect(server.requests).toHaveLength(1);
  });

  it('retries a POST whose connection was refused before sending', async () => {
    const port = server.port;
    const site = server.site;
    await server.close();
    let restarted: CaptureServer | undefined;
    await client.close();
    client = makeClient(
      {
        sleep: async (ms) => {
          sleeps.push(ms);
          restarted ??= await CaptureServer.start(port);
        },
      },
      site,
    );
    try {
      restarted = undefined;
      const res = await client
        .createSavedSnippet({ title: 't', content: 'c' })
        .catch((e: unknown) => e);
      // The server was down for the first attempt; the retry reached the restarted one.
      expect(restarted).toBeDefined();
      expect(restarted!.requests).toHaveLength(1);
      expect(res).toBeInstanceOf(ZulipCdkError); // the default reply has no saved_snippet_id
      expect((res as ZulipCdkError).code).toBe('UNEXPECTED_RESPONSE');
      expect(events.find((e) => e.type === 'retry')).toMatchObject({
        reason: 'connection',
        errorCode: 'ECONNREFUSED',
      });
    } finally {
      await restarted?.close();
      server = await CaptureServer.start();
    }
  });

  it('does not retry a host name that does not exist, and says to check the site URL', async () => {
    await client.close();
    client = makeClient({}, 'http://no-such-host.invalid');
    const e = await rejection(client.register());
    expect(e.code).toBe('NETWORK_ERROR');
    expect(e.message).toContain('ENOTFOUND');
    expect(e.hint).toMatch(/Check the site URL: no-such-host\.invalid/);
    expect(events.filter((x) => x.type === 'retry')).toEqual([]);
    expect(sleeps).toEqual([]);
  });

  it('times out a request that gets no answer (configurable), without repeating a POST', async () => {
    await client.close();
    client = makeClient({ timeouts: { headersMs: 150 }, retry: { maxAttempts: 2 } });
    server.defaultReply = 'hang';
    const e = await rejection(client.getStreams());
    expect(e.code).toBe('NETWORK_ERROR');
    expect(e.message).toContain('UND_ERR_HEADERS_TIMEOUT');
    expect(server.requests).toHaveLength(2);
    const p = await rejection(
      client.addPlayground({ name: 'a', pygments_language: 'b', url_template: 'c{code}' }),
    );
    expect(p.code).toBe('REQUEST_OUTCOME_UNKNOWN');
    expect(server.requests).toHaveLength(3);
  });
});

describe('redaction', () => {
  it('never shows the API key in errors, even if the server echoes it', async () => {
    server.replies.push({
      status: 400,
      body: {
        result: 'error',
        msg: `Invalid API key ${KEY}`,
        code: 'BAD_REQUEST',
        echo: { authorization: `Basic ${BASIC}`, key: KEY },
      },
    });
    const e = await rejection(client.getStreams());
    assertNoSecret(e.message);
    assertNoSecret(JSON.stringify((e as ZulipApiError).data));
    assertNoSecret(inspect(e, { depth: 10 }));
    assertNoSecret(JSON.stringify(e));
    expect(e.message).toContain('[REDACTED]');
  });

  it('never shows the key in a non-JSON error body', async () => {
    server.replies.push({ status: 401, body: `<html>bad credentials ${KEY} ${BASIC}</html>` });
    const e = await rejection(client.getStreams());
    expect(e.code).toBe('INVALID_RESPONSE');
    expect(e.hint).toMatch(/API key/);
    assertNoSecret(e.message);
  });

  it('keeps the key out of JSON.stringify and util.inspect of the client and credentials', () => {
    const creds = new ZulipCredentials({ email: EMAIL, apiKey: KEY, site: 'chat.example.com' });
    assertNoSecret(JSON.stringify(creds));
    assertNoSecret(inspect(creds, { depth: 10, showHidden: true }));
    assertNoSecret(String(creds));
    assertNoSecret(JSON.stringify(client));
    assertNoSecret(inspect(client, { depth: 10, showHidden: true }));
    assertNoSecret(inspect(client.http, { depth: 10, showHidden: true }));
    expect(JSON.stringify(creds)).toContain('[REDACTED]');
    expect(creds.apiKey).toBe(KEY);
  });

  it('keeps the key out of events', async () => {
    server.replies.push('drop');
    await client.getStreams();
    assertNoSecret(JSON.stringify(events));
  });
});

describe('capabilities', () => {
  it('learns the feature level from GET /server_settings, unauthenticated, once', async () => {
    server.defaultReply = {
      body: { result: 'success', msg: '', zulip_feature_level: 372, zulip_version: '10.2' },
    };
    expect(() => client.supports('channelFolders')).toThrow(/not known/);
    const caps = await client.fetchCapabilities();
    await client.fetchCapabilities();
    expect(server.requests).toHaveLength(1);
    expect(server.only().path).toBe('/api/v1/server_settings');
    expect(server.only().headers.authorization).toBeUndefined();
    expect(caps.featureLevel).toBe(372);
    expect(caps.version).toBe('10.2');
    expect(client.supports('savedSnippets')).toBe(true);
    expect(client.supports('channelFolders')).toBe(false);
    expect(() => client.requireFeature('channelsCreate')).toThrow(/feature level 417/);
  });

  it('refuses an endpoint the server is too old for, before sending', async () => {
    server.replies.push({
      body: {
        result: 'success',
        msg: '',
        zulip_feature_level: 372,
        zulip_version: '10.2',
        queue_id: 'q',
      },
    });
    await client.register({});
    const e = await rejection(client.createChannelFolder({ name: 'x', description: '' }));
    expect(e.code).toBe('UNSUPPORTED_FEATURE');
    expect(e.message).toContain('channel folders');
    const status = await rejection(client.updateUserStatus(7, { status_text: 'away' }));
    expect(status.code).toBe('UNSUPPORTED_FEATURE');
    expect(status.message).toContain('feature level 407');
    const e2ee = await rejection(client.sendE2eeTestNotification());
    expect(e2ee.code).toBe('UNSUPPORTED_FEATURE');
    expect(e2ee.message).toContain('feature level 420');
    expect(server.requests).toHaveLength(1);
  });

  it('uses known capabilities given at construction', () => {
    const c = new ZulipClient({
      site: server.site,
      capabilities: new ServerCapabilities(421, '11.0'),
    });
    expect(c.supports('channelsCreate')).toBe(true);
    void c.close();
  });

  it('works without credentials for server settings only', async () => {
    const c = new ZulipClient({ site: server.site });
    server.replies.push({
      body: { result: 'success', msg: '', zulip_feature_level: 421, zulip_version: '11.0' },
    });
    await c.getServerSettings();
    const e = await rejection(c.getStreams());
    expect(e.code).toBe('CREDENTIALS_MISSING');
    await c.close();
  });
});
