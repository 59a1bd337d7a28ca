import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QUEUE_IDLE_TIMEOUT_MS, startEmulator } from '../../src/emulator';
import { rateLimitMessage } from '../../src/emulator/rate-limit';
import type { Emulator } from '../../src/emulator';
import { TestClient, clientFor, expectError, expectSuccess } from '../support/emulator-client';

function fakeClock(start = Date.UTC(2026, 0, 1)): {
  now: () => number;
  advance: (ms: number) => void;
} {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('authentication and routing', () => {
  let z: Emulator;
  beforeAll(async () => {
    z = await startEmulator({ rateLimit: false });
  });
  afterAll(() => z.close());

  test('401 without, with malformed and with wrong credentials; deactivated users', async () => {
    const anon = new TestClient(z, 'x', 'y');
    const none = await anon.call('GET', '/users', {}, { auth: false });
    expectError(
      none,
      'Not logged in: API authentication or user session required',
      'UNAUTHORIZED',
      401,
    );
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
    // authenticated_rest_api_view re-raises every validate_api_key error as UnauthorizedError.
    expectError(
      await new TestClient(z, z.owner.email, 'wrong').get('/users'),
      'Malformed API key',
      'UNAUTHORIZED',
      401,
    );
    expectError(
      await new TestClient(z, z.owner.email, 'x'.repeat(32)).get('/users'),
      'Invalid API key',
      'UNAUTHORIZED',
      401,
    );
    const former = z.org.users.find((u) => u.email.startsWith('former@'))!;
    expectError(
      await new TestClient(z, former.email, former.apiKey).get('/users'),
      'Account is deactivated',
      'UNAUTHORIZED',
      401,
    );
  });

  test('/server_settings needs no credentials', async () => {
    const r = await new TestClient(z, 'x', 'y').call(
      'GET',
      '/server_settings',
      {},
      { auth: false },
    );
    expect(r.body).toMatchObject({ zulip_feature_level: 478, realm_uri: z.site });
  });

  test('unknown endpoints 404, wrong methods 405', async () => {
    const owner = clientFor(z, 'owner');
    const r = await owner.get('/no/such/thing');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ result: 'error', msg: 'Invalid API endpoint', code: 'BAD_REQUEST' });
    const m = await owner.call('PUT', '/streams', {});
    expect(m.status).toBe(405);
    expect(m.body).toMatchObject({
      result: 'error',
      msg: 'Method Not Allowed',
      allowed_methods: ['GET'],
    });
  });

  test('ignored_parameters_unsupported lists unknown parameters; the request log never holds keys', async () => {
    const r = await clientFor(z, 'owner').get('/users', { bogus: 1, other: 'x' });
    expect(r.body.ignored_parameters_unsupported).toEqual(['bogus', 'other']);
    const log = JSON.stringify(z.requestLog);
    expect(log).not.toContain(z.owner.apiKey);
    expect(z.requestLog.at(-1)).toMatchObject({
      method: 'GET',
      path: '/users',
      status: 200,
      params: ['bogus', 'other'],
    });
  });

  test('REQUEST_VARIABLE_MISSING carries var_name', async () => {
    const r = await clientFor(z, 'owner').post('/realm/filters', { url_template: 'x' });
    expectError(r, "Missing 'pattern' argument", 'REQUEST_VARIABLE_MISSING');
    expect(r.body.var_name).toBe('pattern');
  });
});

describe('rate limits', () => {
  test('200/min by default, headers on every response, 429 with float retry-after, per user', async () => {
    const clock = fakeClock();
    const z = await startEmulator({ clock, rateLimit: 3 });
    try {
      const owner = clientFor(z, 'owner');
      const r1 = await owner.get('/users/me');
      expect(r1.headers.get('x-ratelimit-limit')).toBe('3');
      expect(r1.headers.get('x-ratelimit-remaining')).toBe('2');
      expect(Number(r1.headers.get('x-ratelimit-reset'))).toBe(
        Math.floor((clock.now() + 60000) / 1000),
      );
      clock.advance(500);
      await owner.get('/users/me');
      await owner.get('/users/me');
      const limited = await owner.get('/users/me');
      expectError(limited, rateLimitMessage(478), 'RATE_LIMIT_HIT', 429);
      expect(limited.body['retry-after']).toBe(59.5);
      expect(limited.headers.get('retry-after')).toBe('59.5');
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expectSuccess(await clientFor(z, 'alice').get('/users/me'));
      clock.advance(59_500);
      expectSuccess(await owner.get('/users/me'));
      z.setRateLimit(false);
      for (let i = 0; i < 5; i++) expectSuccess(await owner.get('/users/me'));
    } finally {
      await z.close();
    }
  });

  test('the default is 200 per minute', async () => {
    const z = await startEmulator();
    try {
      const r = await clientFor(z, 'owner').get('/users/me');
      expect(r.headers.get('x-ratelimit-limit')).toBe('200');
      const anon = await new TestClient(z, 'x', 'y').call(
        'GET',
        '/server_settings',
        {},
        { auth: false },
      );
      // Not rate-limited at all (zerver/views/auth.py api_get_server_settings): no headers.
      expect(anon.status).toBe(200);
      expect(anon.headers.get('x-ratelimit-limit')).toBeNull();
      // The event queue's requests are Tornado's, counted apart (TornadoInMemoryRateLimiterBackend).
      const owner = clientFor(z, 'owner');
      const queue = await owner.post('/register', { event_types: '["realm"]' });
      const events = await owner.get('/events', {
        queue_id: String(queue.body.queue_id),
        last_event_id: '-1',
        dont_block: 'true',
      });
      expect(events.headers.get('x-ratelimit-limit')).toBe('200');
      expect(events.headers.get('x-ratelimit-remaining')).toBe('199');
      const after = await owner.get('/users/me');
      expect(after.headers.get('x-ratelimit-remaining')).toBe('197');
    } finally {
      await z.close();
    }
  });
});

describe('fault injection', () => {
  test('Nth request matching a route: 429, 5xx, dropped connection; latency', async () => {
    const z = await startEmulator({
      rateLimit: false,
      faults: {
        rules: [
          {
            kind: 'rate-limit',
            method: 'GET',
            path: '/streams/{stream_id}',
            nth: 2,
            retryAfter: 1.5,
          },
          { kind: 'server-error', method: 'POST', path: '/user_groups/*', nth: [1], status: 502 },
          { kind: 'drop', method: 'GET', path: '/users', nth: 1 },
        ],
      },
    });
    try {
      const owner = clientFor(z, 'owner');
      const id = z.org.channels[0]!.id;
      expectSuccess(await owner.get(`/streams/${id}`));
      const sent = Date.now();
      const limited = await owner.get(`/streams/${id}`);
      const answered = Date.now();
      expectError(limited, rateLimitMessage(478), 'RATE_LIMIT_HIT', 429);
      expect(limited.headers.get('retry-after')).toBe('1.5');
      // As a real 429: nothing left until Retry-After.
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      const reset = Number(limited.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(Math.floor(sent / 1000 + 1.5));
      expect(reset).toBeLessThanOrEqual(Math.floor(answered / 1000 + 1.5));
      expectSuccess(await owner.get(`/streams/${id}`));
      const bad = await owner.call(
        'POST',
        '/user_groups/create',
        { name: 'x', description: '', members: [] },
        { validate: false },
      );
      expect(bad.status).toBe(502);
      expectSuccess(
        await owner.post('/user_groups/create', { name: 'x', description: '', members: [] }),
      );
      await expect(owner.get('/users')).rejects.toThrow();
      expectSuccess(await owner.get('/users'));
      z.setFaults({ rules: [{ kind: 'latency', latencyMs: 150 }] });
      const t0 = Date.now();
      expectSuccess(await owner.get('/users/me'));
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
      z.setFaults(undefined);
      expect(z.requestLog.filter((e) => e.fault).map((e) => e.fault)).toEqual([
        'rate-limit',
        'server-error',
        'drop',
      ]);
    } finally {
      await z.close();
    }
  });

  test('a seeded fraction is deterministic', async () => {
    const run = async (): Promise<number[]> => {
      const z = await startEmulator({
        rateLimit: false,
        faults: { seed: 42, rules: [{ kind: 'server-error', fraction: 0.3 }] },
      });
      try {
        const owner = clientFor(z, 'owner');
        const out: number[] = [];
        for (let i = 0; i < 20; i++)
          out.push((await owner.call('GET', '/users/me', {}, { validate: false })).status);
        return out;
      } finally {
        await z.close();
      }
    };
    const a = await run();
    expect(await run()).toEqual(a);
    expect(a.filter((s) => s === 500).length).toBeGreaterThan(0);
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(0);
  });
});

describe('faults after the handling, and interception', () => {
  test("when: 'after': the write lands, the answer is a 5xx or a dropped connection", async () => {
    const z = await startEmulator({
      rateLimit: false,
      faults: {
        rules: [
          { kind: 'server-error', method: 'POST', path: '/saved_snippets', nth: 1, when: 'after' },
          { kind: 'drop', method: 'POST', path: '/saved_snippets', nth: 2, when: 'after' },
          { kind: 'server-error', method: 'POST', path: '/saved_snippets', nth: 3 },
        ],
      },
    });
    try {
      const owner = clientFor(z, 'owner');
      const snippet = (title: string) => ({ title, content: 'x' });
      const lost = await owner.call('POST', '/saved_snippets', snippet('a'), { validate: false });
      expect(lost.status).toBe(500);
      await expect(owner.post('/saved_snippets', snippet('b'))).rejects.toThrow();
      const refused = await owner.call('POST', '/saved_snippets', snippet('c'), {
        validate: false,
      });
      expect(refused.status).toBe(500);
      // a and b landed although their answers were lost; c (a fault before) did not.
      expect(z.org.snippets.map((s) => s.title)).toEqual(['Welcome', 'a', 'b']);
      expect(z.requestLog.filter((e) => e.fault).map((e) => e.fault)).toEqual([
        'server-error-after',
        'drop-after',
        'server-error',
      ]);
    } finally {
      await z.close();
    }
  });

  test('a rate-limit fault cannot come after the handling', async () => {
    await expect(
      startEmulator({ faults: { rules: [{ kind: 'rate-limit', when: 'after' }] } }),
    ).rejects.toMatchObject({ code: 'EMULATOR_FAULTS' });
  });

  test('intercept: sees each request before it is handled, can hold it or drop it', async () => {
    const seen: string[] = [];
    let release = (): void => {};
    const held = new Promise<void>((r) => (release = r));
    const z = await startEmulator({
      rateLimit: false,
      intercept: async ({ method, path }) => {
        const n = seen.push(`${method} ${path}`);
        if (path === '/saved_snippets' && n === 1) await held;
        return path === '/saved_snippets' && n === 2 ? 'drop' : undefined;
      },
    });
    try {
      const owner = clientFor(z, 'owner');
      let answered = false;
      const first = owner.post('/saved_snippets', { title: 'held', content: 'x' }).then((r) => {
        answered = true;
        return r;
      });
      await new Promise((r) => setTimeout(r, 50));
      // Held: not handled yet.
      expect(answered).toBe(false);
      expect(z.org.snippets.map((s) => s.title)).toEqual(['Welcome']);
      await expect(
        owner.post('/saved_snippets', { title: 'dropped', content: 'x' }),
      ).rejects.toThrow();
      release();
      expectSuccess(await first);
      expectSuccess(await owner.get('/users/me'));
      expect(z.org.snippets.map((s) => s.title)).toEqual(['Welcome', 'held']);
      expect(seen).toEqual(['POST /saved_snippets', 'POST /saved_snippets', 'GET /users/me']);
      expect(z.requestLog.map((e) => e.fault ?? e.status)).toEqual(['intercepted', 200, 200]);
    } finally {
      await z.close();
    }
  });
});

describe('event queues', () => {
  test('expire after 10 minutes idle with BAD_EVENT_QUEUE_ID', async () => {
    const clock = fakeClock();
    const z = await startEmulator({ clock, rateLimit: false });
    try {
      const owner = clientFor(z, 'owner');
      const q = (await owner.post('/register', { fetch_event_types: ['realm'] })).body
        .queue_id as string;
      clock.advance(QUEUE_IDLE_TIMEOUT_MS - 1000);
      expectSuccess(
        await owner.get('/events', { queue_id: q, last_event_id: -1, dont_block: true }),
      );
      clock.advance(QUEUE_IDLE_TIMEOUT_MS - 1000);
      expectSuccess(
        await owner.get('/events', { queue_id: q, last_event_id: -1, dont_block: true }),
      );
      clock.advance(QUEUE_IDLE_TIMEOUT_MS + 1);
      const gone = await owner.get('/events', { queue_id: q, last_event_id: -1, dont_block: true });
      expectError(gone, `Bad event queue ID: ${q}`, 'BAD_EVENT_QUEUE_ID');
      expect(gone.body.queue_id).toBe(q);
      expectError(
        await owner.delete('/events', { queue_id: q }),
        `Bad event queue ID: ${q}`,
        'BAD_EVENT_QUEUE_ID',
      );
      const other = (await owner.post('/register', {})).body.queue_id as string;
      expectError(
        await clientFor(z, 'alice').delete('/events', { queue_id: other }),
        `Bad event queue ID: ${other}`,
        'BAD_EVENT_QUEUE_ID',
      );
    } finally {
      await z.close();
    }
  });
});

describe('state', () => {
  test('save and load round trip (file, mode 0600) and start from an object', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zcdk-state-'));
    const file = path.join(dir, 'org.json');
    const a = await startEmulator({ rateLimit: false });
    let id: number;
    try {
      const r = await clientFor(a, 'owner').post('/user_groups/create', {
        name: 'saved',
        description: 'kept',
        members: [],
      });
      id = r.body.group_id as number;
      await a.save(file);
    } finally {
      await a.close();
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const b = await startEmulator({ rateLimit: false, state: file });
    try {
      expect(b.owner).toEqual({ email: a.owner.email, apiKey: a.owner.apiKey });
      const r = await clientFor(b, 'owner').get('/user_groups');
      expect(r.body.user_groups.find((g: { id: number }) => g.id === id)).toMatchObject({
        name: 'saved',
        description: 'kept',
      });
      const next = await clientFor(b, 'owner').post('/realm/filters', {
        pattern: 'N(?P<id>[0-9]+)',
        url_template: 'https://x/{id}',
      });
      expect(next.body.id).toBeGreaterThan(id);
    } finally {
      await b.close();
    }
    const c = await startEmulator({
      rateLimit: false,
      state: JSON.parse(readFileSync(file, 'utf8')),
    });
    try {
      expect(c.org.groups.some((g) => g.name === 'saved')).toBe(true);
    } finally {
      await c.close();
    }
  });

  test('an empty organization has system groups and one owner', async () => {
    const z = await startEmulator({ seed: 'empty', rateLimit: false });
    try {
      const r = await clientFor(z, 'owner').get('/user_groups');
      expect(r.body.user_groups.map((g: { name: string }) => g.name)).toHaveLength(8);
      expect(z.org.channels).toEqual([]);
    } finally {
      await z.close();
    }
  });
});
