import { startEmulator } from '../../src/emulator';
import type { Emulator, FaultRule } from '../../src/emulator';
import { isZulipCdkError } from '../../src/model/errors';
import { isZulipApiError, ZulipClient } from '../../src/zulip';
import type { ClientEvent } from '../../src/zulip';
import { readLiveState } from '../../src/provider/read-live-state';
import type { ReadEvent } from '../../src/provider/read-live-state';
import { rejection } from '../support/errors';

// Reads survive transient faults (issue 13, item 5): idempotent requests are repeated with
// backoff on 5xx and dropped connections; writes are not; only a persistent failure is an
// error, and it blames the server's state, not the site.

let z: Emulator;
let client: ZulipClient;
let retries: Extract<ClientEvent, { type: 'retry' }>[];

async function start(rules: FaultRule[], maxAttempts = 4): Promise<void> {
  z = await startEmulator({ rateLimit: false, faults: { rules } });
  retries = [];
  client = ZulipClient.forEmbeddedOwner(z, {
    retry: { maxAttempts, baseDelayMs: 1, maxDelayMs: 5 },
    onEvent: (e) => {
      if (e.type === 'retry') retries.push(e);
    },
  });
}

afterEach(async () => {
  await client.close();
  await z.close();
});

const sent = (method: string, path: string) =>
  z.requestLog.filter((r) => r.method === method && r.path === path);

describe('POST /register', () => {
  it("survives Zulip's own 500 and then a proxy's 503: the read succeeds, each retry is an event", async () => {
    await start([
      { kind: 'server-error', method: 'POST', path: '/register', nth: 1 }, // JSON, from Django
      { kind: 'server-error', method: 'POST', path: '/register', nth: 2, status: 503 }, // HTML
    ]);
    const live = await readLiveState(client);
    expect(live.users.some((u) => u.email === z.owner.email)).toBe(true);
    expect(sent('POST', '/register').map((r) => r.status)).toEqual([500, 503, 200]);
    expect(retries).toMatchObject([
      { reason: 'server-error', endpoint: 'POST /register', status: 500, attempt: 1 },
      { reason: 'server-error', endpoint: 'POST /register', status: 503, attempt: 2 },
    ]);
    expect(retries[0]!.maxAttempts).toBe(4);
    expect(client.stats.retryCount).toBe(2);
  });

  it('gives up after maxAttempts with an error that counts the attempts and does not blame the site', async () => {
    await start([{ kind: 'server-error', method: 'POST', path: '/register', status: 503 }]);
    const e = await rejection(readLiveState(client));
    expect(e.code).toBe('SERVER_UNAVAILABLE');
    expect(e.message).toMatch(
      /^POST \/api\/v1\/register: the server answered HTTP 503 to 4 attempts over \d+\.\d s\.$/,
    );
    expect(e.hint).toBe('It may be restarting or overloaded; try again later.');
    expect(e.where).toBe('POST /register');
    expect(sent('POST', '/register')).toHaveLength(4);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3]);
    for (const text of [e.message, e.hint ?? '']) {
      expect(text).not.toContain(z.owner.apiKey);
      expect(text).not.toMatch(/Zulip server|site URL/);
    }
  });

  it("a persistent 500 quotes Zulip's message and says the server may be failing on the request", async () => {
    await start([{ kind: 'server-error', method: 'POST', path: '/register' }], 2);
    const e = await rejection(readLiveState(client));
    expect(e.code).toBe('SERVER_UNAVAILABLE');
    expect(e.message).toMatch(/HTTP 500 \(Internal server error\) to 2 attempts over/);
    expect(e.hint).toMatch(/restarting, overloaded or failing on this request/);
    expect(sent('POST', '/register')).toHaveLength(2);
  });

  it('the same 500 that a register survives is not repeated on a create (a write)', async () => {
    await start([
      { kind: 'server-error', method: 'POST', path: '/register', nth: 1 },
      { kind: 'server-error', method: 'POST', path: '/channels/create', nth: 1 },
      { kind: 'server-error', method: 'POST', path: '/channel_folders/create', status: 503 },
    ]);
    await client.register({ fetch_event_types: ['realm'] });
    expect(sent('POST', '/register')).toHaveLength(2);

    const created = await rejection(client.createChannel({ name: 'retry-me', subscribers: [] }));
    // The apply executor reads a 5xx status (or REQUEST_OUTCOME_UNKNOWN) as "may have landed"
    // and re-reads before sending again: the client must not have sent it twice.
    expect(isZulipApiError(created) && created.status).toBe(500);
    expect(sent('POST', '/channels/create')).toHaveLength(1);

    const folder = await rejection(client.createChannelFolder({ name: 'F', description: '' }));
    expect(folder.code).toBe('REQUEST_OUTCOME_UNKNOWN');
    expect(sent('POST', '/channel_folders/create')).toHaveLength(1);
    expect(retries.map((r) => r.endpoint)).toEqual(['POST /register']);
  });
});

describe('dropped connections', () => {
  it('a GET and DELETE /events (the event-queue delete) whose connection drops are sent again', async () => {
    await start([
      { kind: 'drop', method: 'GET', path: '/users', nth: [1, 2] },
      { kind: 'drop', method: 'DELETE', path: '/events', nth: 1 },
    ]);
    const res = await client.getUsers();
    expect(res.members.length).toBeGreaterThan(0);
    expect(sent('GET', '/users').map((r) => r.status)).toEqual([0, 0, 200]);
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatchObject({ reason: 'connection', endpoint: 'GET /users' });
    expect(['UND_ERR_SOCKET', 'ECONNRESET']).toContain(retries[0]!.errorCode);

    const reg = await client.register({ fetch_event_types: ['realm'] });
    await client.deleteEventQueue(reg.queue_id!);
    expect(sent('DELETE', '/events').map((r) => r.status)).toEqual([0, 200]);
    expect(retries[2]).toMatchObject({ reason: 'connection', endpoint: 'DELETE /events' });
    // The queue is gone: deleting it again is refused.
    const again = await rejection(client.deleteEventQueue(reg.queue_id!));
    expect(isZulipCdkError(again, 'BAD_EVENT_QUEUE_ID')).toBe(true);
  });

  it('readLiveState deletes its queue through a dropped connection without a warning', async () => {
    await start([{ kind: 'drop', method: 'DELETE', path: '/events', nth: 1 }]);
    const events: ReadEvent[] = [];
    await readLiveState(client, { onEvent: (e) => events.push(e) });
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    expect(sent('DELETE', '/events').map((r) => r.status)).toEqual([0, 200]);
  });

  it('a connection that keeps dropping ends in an error that counts the attempts', async () => {
    await start([{ kind: 'drop', method: 'POST', path: '/register' }]);
    const e = await rejection(readLiveState(client));
    expect(e.code).toBe('NETWORK_ERROR');
    expect(e.message).toMatch(/the connection failed \(\w+: .*\) on 4 attempts over \d+\.\d s\.$/);
    expect(e.hint).toMatch(/dropped the connection: it may be restarting or overloaded/);
    expect(e.message).not.toContain(z.owner.apiKey);
    expect(sent('POST', '/register')).toHaveLength(4);
  });
});
