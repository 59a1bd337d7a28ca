/**
 * Authentication and rate limiting, ported from zerver/tests/test_decorators.py and
 * test_rate_limiter.py, with the code they test: zerver/lib/rest.py rest_dispatch,
 * zerver/decorator.py get_basic_credentials / authenticated_rest_api_view / validate_api_key /
 * access_user_by_api_key, zerver/lib/rate_limiter.py and zerver/middleware.py
 * RateLimitMiddleware.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { TestClient, clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestResponse } from '../support/emulator-client';

const UNAUTHORIZED = 'UNAUTHORIZED';

/** A request with a raw Authorization header (or none). */
async function withHeader(
  z: Emulator,
  authorization: string | undefined,
  method = 'GET',
  path = '/users/me',
): Promise<TestResponse> {
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  const res = await fetch(`${z.url}${path}`, { method, headers });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const basic = (s: string): string => `Basic ${Buffer.from(s).toString('base64')}`;

describe('authentication (test_decorators.py)', () => {
  let z: Emulator;
  beforeAll(async () => {
    z = await startEmulator({ rateLimit: false });
  });
  afterAll(() => z.close());
  const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;

  it('rest_dispatch: no Authorization header on /api/v1 → 401 UNAUTHORIZED "Not logged in", WWW-Authenticate Basic', async () => {
    const r = await withHeader(z, undefined);
    expectError(r, 'Not logged in: API authentication or user session required', UNAUTHORIZED, 401);
    expect(r.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
  });

  it('DecoratorLoggingTestCase.test_authenticated_rest_api_view_errors: a Digest header → 400 "This endpoint requires HTTP basic authentication."', async () => {
    const alice = user('alice');
    const r = await withHeader(
      z,
      `Digest ${Buffer.from(`${alice.email}:${alice.apiKey}`).toString('base64')}`,
    );
    expectError(r, 'This endpoint requires HTTP basic authentication.');
  });

  it.each([
    ['base64("foo") (test_authenticated_rest_api_view_errors)', basic('foo')],
    ['three fields', `Basic ${Buffer.from('a@b.c:x:y').toString('base64')} extra`],
    ['a:b:c', basic('a@b.c:key:more')],
    ['bad padding', 'Basic Zm9vYmE'],
    ['not UTF-8', `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0x41]).toString('base64')}`],
  ])(
    'get_basic_credentials: %s → 401 "Invalid authorization header for basic auth"',
    async (_what, header) => {
      const r = await withHeader(z, header);
      expectError(r, 'Invalid authorization header for basic auth', UNAUTHORIZED, 401);
      expect(r.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
    },
  );

  it.each([
    [
      'not_32_length',
      'TestValidateApiKey.test_validate_api_key_if_api_key_does_not_match_profile_api_key',
    ],
    [
      '32LONGXXXXXXXXXXXXXXXXXXXXXXXXX-',
      'TestValidateApiKey.test_has_api_key_format (invalid character)',
    ],
    ['33LONGXXXXXXXXXXXXXXXXXXXXXXXXXXX', 'TestValidateApiKey.test_has_api_key_format (too long)'],
    ['TooShort', 'TestValidateApiKey.test_has_api_key_format (too short)'],
  ])('%s: access_user_by_api_key → 401 UNAUTHORIZED "Malformed API key" (%s)', async (key) => {
    const r = await withHeader(z, basic(`${user('alice').email}:${key}`));
    expectError(r, 'Malformed API key', UNAUTHORIZED, 401);
  });

  it('TestValidateApiKey.test_validate_api_key_if_profile_does_not_exist: a well-formed unknown key → "Invalid API key"', async () => {
    const r = await withHeader(z, basic('email@doesnotexist.com:VIzRVw2CspUOnEm9Yu5vQiQtJNkvETkp'));
    expectError(r, 'Invalid API key', UNAUTHORIZED, 401);
  });

  it('TestValidateApiKey.test_validate_api_key_if_api_key_does_not_match_profile_api_key: another user\'s key → "Invalid API key"', async () => {
    const r = await withHeader(z, basic(`${user('alice').email}:${user('bob').apiKey}`));
    expectError(r, 'Invalid API key', UNAUTHORIZED, 401);
  });

  it('python_examples.py test_invalid_api_key: the code is UNAUTHORIZED, not INVALID_API_KEY (authenticated_rest_api_view re-raises)', async () => {
    const r = await new TestClient(z, user('alice').email, 'x'.repeat(32)).get(
      '/users/me/subscriptions',
    );
    expect(r.status).toBe(401);
    expect(r.body.code).toBe(UNAUTHORIZED);
  });

  it('TestValidateApiKey.test_validate_api_key_if_email_is_case_insensitive', async () => {
    const bot = user('deploy-bot');
    const r = await new TestClient(z, bot.email.toUpperCase(), bot.apiKey).get('/users/me');
    expectSuccess(r);
    expect(r.body.user_id).toBe(bot.id);
  });

  it('validate_api_key strips whitespace around the email and key', async () => {
    const alice = user('alice');
    expectSuccess(await withHeader(z, basic(` ${alice.email} : ${alice.apiKey}\t`)));
  });

  it('get_basic_credentials: the scheme is case-insensitive (RFC 1945)', async () => {
    const alice = user('alice');
    const r = await withHeader(
      z,
      `bAsIc ${Buffer.from(`${alice.email}:${alice.apiKey}`).toString('base64')}`,
    );
    expectSuccess(r);
  });

  it('InactiveUserTest.test_send_deactivated_user: api_post of a deactivated user → 401 "Account is deactivated"', async () => {
    const former = user('former');
    const r = await new TestClient(z, former.email, former.apiKey).post('/messages', {
      type: 'private',
      to: [user('alice').id],
      content: 'Test message',
    });
    expectError(r, 'Account is deactivated', UNAUTHORIZED, 401);
    expect(r.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
  });

  it('TestValidateApiKey.test_validate_api_key_if_profile_is_not_active: a deactivated bot too', async () => {
    const bot = user('deploy-bot');
    bot.isActive = false;
    try {
      const r = await new TestClient(z, bot.email, bot.apiKey).get('/users/me');
      expectError(r, 'Account is deactivated', UNAUTHORIZED, 401);
    } finally {
      bot.isActive = true;
    }
  });

  it('TestIncomingWebhookBot.test_webhook_bot_permissions: an incoming webhook bot may not use the API', async () => {
    const bot = user('deploy-bot');
    bot.botType = 2;
    try {
      const r = await new TestClient(z, bot.email, bot.apiKey).post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'x',
        content: 'hi',
      });
      expectError(r, 'This API is not available to incoming webhook bots.', UNAUTHORIZED, 401);
    } finally {
      bot.botType = 1;
    }
  });

  it('TestValidateApiKey (default_bot): a generic bot authenticates with its own key', async () => {
    const bot = user('deploy-bot');
    const r = await new TestClient(z, bot.email, bot.apiKey).get('/users/me');
    expectSuccess(r);
    expect(r.body.is_bot).toBe(true);
  });
});

describe('rate limiting (test_rate_limiter.py, RateLimitMiddleware)', () => {
  function fakeClock(start = Date.UTC(2026, 0, 1, 0, 0, 0, 250)) {
    let t = start;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  }

  it('RedisRateLimiterBackendTest.test_hit_ratelimits: rule (2 s, 3): three calls pass, the fourth is limited, free again after 2.01 s', async () => {
    const clock = fakeClock();
    const z = await startEmulator({ clock, rateLimit: { max: 3, windowSeconds: 2 } });
    try {
      const alice = clientFor(z, 'alice');
      for (let i = 0; i < 3; i++) {
        expectSuccess(await alice.get('/users/me'));
        clock.advance(100);
      }
      clock.advance(100);
      expect((await alice.get('/users/me')).status).toBe(429);
      clock.advance(2010 - 400);
      expectSuccess(await alice.get('/users/me'));
    } finally {
      await z.close();
    }
  });

  it('RedisRateLimiterBackendTest.api_calls_left_from_history: X-RateLimit-Remaining = max - calls in the window; Reset = int(newest call + window)', async () => {
    const clock = fakeClock();
    const z = await startEmulator({ clock, rateLimit: { max: 5, windowSeconds: 60 } });
    try {
      const alice = clientFor(z, 'alice');
      const r1 = await alice.get('/users/me');
      expect(r1.headers.get('x-ratelimit-limit')).toBe('5');
      expect(r1.headers.get('x-ratelimit-remaining')).toBe('4');
      expect(r1.headers.get('x-ratelimit-reset')).toBe(
        String(Math.floor((clock.now() + 60000) / 1000)),
      );
      clock.advance(1500);
      const r2 = await alice.get('/users/me');
      expect(r2.headers.get('x-ratelimit-remaining')).toBe('3');
      expect(r2.headers.get('x-ratelimit-reset')).toBe(
        String(Math.floor((clock.now() + 60000) / 1000)),
      );
    } finally {
      await z.close();
    }
  });

  it('RateLimitedError (FL 442): 429 RATE_LIMIT_HIT, float retry-after in the body and the Retry-After header, Remaining 0, Reset when the oldest call leaves', async () => {
    const clock = fakeClock();
    const z = await startEmulator({ clock, rateLimit: { max: 2, windowSeconds: 60 } });
    try {
      const alice = clientFor(z, 'alice');
      const first = clock.now();
      await alice.get('/users/me');
      clock.advance(500);
      await alice.get('/users/me');
      clock.advance(250);
      const r = await alice.get('/users/me');
      expectError(
        r,
        'API usage exceeded rate limit; see https://zulip.com/api/http-headers#rate-limiting-response-headers',
        'RATE_LIMIT_HIT',
        429,
      );
      expect(r.body['retry-after']).toBe(59.25);
      expect(r.headers.get('retry-after')).toBe('59.25');
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(r.headers.get('x-ratelimit-limit')).toBe('2');
      expect(r.headers.get('x-ratelimit-reset')).toBe(String(Math.floor((first + 60000) / 1000)));
    } finally {
      await z.close();
    }
  });

  it('RateLimitedError before the link was added (FL 421, Zulip 11.0): "API usage exceeded rate limit"', async () => {
    const z = await startEmulator({ featureLevel: 421, rateLimit: 1 });
    try {
      const alice = clientFor(z, 'alice');
      await alice.get('/users/me');
      expectError(
        await alice.get('/users/me'),
        'API usage exceeded rate limit',
        'RATE_LIMIT_HIT',
        429,
      );
    } finally {
      await z.close();
    }
  });

  it('RateLimitedObjectsTest.test_user_rate_limits: the bucket is per user', async () => {
    const z = await startEmulator({ rateLimit: 1 });
    try {
      await clientFor(z, 'alice').get('/users/me');
      expect((await clientFor(z, 'alice').get('/users/me')).status).toBe(429);
      expectSuccess(await clientFor(z, 'bob').get('/users/me'));
    } finally {
      await z.close();
    }
  });

  it('authenticated_rest_api_view: rate_limit_user runs after authentication, so refused credentials do not use the bucket', async () => {
    const z = await startEmulator({ rateLimit: 1 });
    try {
      const alice = z.org.users.find((u) => u.email.startsWith('alice@'))!;
      const bad = await new TestClient(z, alice.email, 'y'.repeat(32)).get('/users/me');
      expectError(bad, 'Invalid API key', UNAUTHORIZED, 401);
      expect(bad.headers.get('x-ratelimit-limit')).toBeNull();
      expectSuccess(await clientFor(z, 'alice').get('/users/me'));
    } finally {
      await z.close();
    }
  });
});
