/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- JSON bodies are untyped by nature */
/**
 * Default channels, ported from Zulip's zerver/tests/test_default_channels.py
 * (`DefaultStreamTest`; default channel groups are not served by the embedded server) at
 * feature level 442, against `POST/DELETE /default_streams`, `PATCH /streams/{id}`
 * `is_default_stream`, `GET /streams?include_default` and register's `realm_default_streams`.
 * hamlet (member) is alice here, iago (administrator) admin.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { ROLES } from '../../src/model/kinds';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false, heartbeatMs: 200 });
});
afterEach(() => z.close());

const as = (local: string): TestClient => clientFor(z, local);
const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const id = (local: string): number => user(local).id;
const ch = (name: string) => z.org.channels.find((c) => c.name === name)!;
const setRole = (local: string, role: number): void => {
  user(local).role = role;
};

async function makeChannel(
  name: string,
  subscribers: string[],
  opts: Record<string, unknown> = {},
): Promise<number> {
  const r = await as('owner').post('/channels/create', {
    name,
    subscribers: subscribers.map(id),
    ...opts,
  });
  expectSuccess(r);
  return r.body.id as number;
}

/** The default channels' names, read back through register (`realm_default_streams`). */
async function defaultNames(): Promise<string[]> {
  const r = await as('owner').post('/register', {
    fetch_event_types: ['default_streams'],
    client_capabilities: { notification_settings_null: true },
  });
  expectSuccess(r);
  return (r.body.realm_default_streams as number[])
    .map((sid) => z.org.channels.find((c) => c.id === sid)!.name)
    .sort();
}

describe('DefaultStreamTest.test_api_calls', () => {
  it('a member may not add a default channel', async () => {
    const sid = await makeChannel('stream ADDED via api', []);
    expectError(
      await as('alice').post('/default_streams', { stream_id: sid }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(await defaultNames()).toEqual(['general']);
  });

  it('an administrator adds one; GET /streams include_default marks it; DELETE removes it', async () => {
    const sid = await makeChannel('stream ADDED via api', []);
    setRole('alice', ROLES.administrator);
    expectSuccess(await as('alice').post('/default_streams', { stream_id: sid }));
    expect(await defaultNames()).toEqual(['general', 'stream ADDED via api']);
    const r = await as('alice').get('/streams', { include_public: true, include_default: true });
    const streams = r.body.streams as any[];
    expect(
      streams
        .filter((s) => s.is_default)
        .map((s) => s.name)
        .sort(),
    ).toEqual(['general', 'stream ADDED via api']);
    expect(streams.filter((s) => !s.is_default).length).toBeGreaterThan(0);
    expectSuccess(await as('alice').delete('/default_streams', { stream_id: sid }));
    expect(await defaultNames()).toEqual(['general']);
  });

  it('an administrator cannot reach an unsubscribed private channel; a subscribed one cannot be default', async () => {
    const sid = await makeChannel('private_stream', ['alan'], { invite_only: true });
    expectError(
      await as('admin').post('/default_streams', { stream_id: sid }),
      'Invalid channel ID',
    );
    expectSuccess(
      await as('alan').post('/users/me/subscriptions', {
        subscriptions: [{ name: 'private_stream' }],
        principals: [id('admin')],
      }),
    );
    expectError(
      await as('admin').post('/default_streams', { stream_id: sid }),
      'Private channels cannot be made default.',
    );
    expect(await defaultNames()).toEqual(['general']);
  });
});

describe('DefaultStreamTest.test_add_and_remove_default_stream', () => {
  it('adding and removing are idempotent', async () => {
    const sid = await makeChannel('Added stream', []);
    for (let i = 0; i < 2; i++) {
      expectSuccess(await as('admin').post('/default_streams', { stream_id: sid }));
      expect(await defaultNames()).toEqual(['Added stream', 'general']);
    }
    for (let i = 0; i < 2; i++) {
      expectSuccess(await as('admin').delete('/default_streams', { stream_id: sid }));
      expect(await defaultNames()).toEqual(['general']);
    }
  });

  it('notify_default_streams: one default_streams event to active users who are not guests, none for a no-op', async () => {
    const sid = await makeChannel('Added stream', []);
    const queue = async (who: string): Promise<string> =>
      (
        await as(who).post('/register', {
          event_types: ['default_streams'],
          client_capabilities: { notification_settings_null: true },
        })
      ).body.queue_id as string;
    const drain = async (who: string, q: string): Promise<any[]> =>
      (
        (await as(who).get('/events', { queue_id: q, last_event_id: -1, dont_block: true })).body
          .events as any[]
      ).filter((e) => e.type === 'default_streams');
    const qa = await queue('alice');
    const qg = await queue('guest');
    expectSuccess(await as('admin').post('/default_streams', { stream_id: sid }));
    expectSuccess(await as('admin').post('/default_streams', { stream_id: sid }));
    const got = await drain('alice', qa);
    expect(got).toHaveLength(1);
    expect([...got[0].default_streams].sort()).toEqual([ch('general').id, sid].sort());
    expect(await drain('guest', qg)).toEqual([]);
  });
});

describe('add_default_stream / remove_default_stream: access_stream_by_id', () => {
  it('an archived channel is "Invalid channel ID" both ways', async () => {
    const sid = ch('old-projects').id;
    expectError(
      await as('owner').post('/default_streams', { stream_id: sid }),
      'Invalid channel ID',
    );
    expectError(
      await as('owner').delete('/default_streams', { stream_id: sid }),
      'Invalid channel ID',
    );
  });

  it('removal needs only metadata access: an unsubscribed administrator may remove a private channel (a no-op)', async () => {
    const sid = await makeChannel('private_stream', ['alan'], { invite_only: true });
    expectSuccess(await as('admin').delete('/default_streams', { stream_id: sid }));
    expectError(
      await as('admin').delete('/default_streams', { stream_id: 99999 }),
      'Invalid channel ID',
    );
  });

  it('stream_id is a required JSON integer', async () => {
    expectError(
      await as('admin').post('/default_streams', {}),
      "Missing 'stream_id' argument",
      'REQUEST_VARIABLE_MISSING',
    );
    expectError(
      await as('admin').post('/default_streams', { stream_id: 'general' }),
      'stream_id is not valid JSON',
    );
  });
});

describe('DefaultStreamTest.test_add_and_remove_stream_as_default (PATCH /streams/{id})', () => {
  it('channel administrators and organization administrators, privacy and default together', async () => {
    const sid = await makeChannel('stream', ['alice']);
    const patch = (who: string, streamId: number, params: Record<string, unknown>) =>
      as(who).patch(`/streams/${streamId}`, params);
    const isDefault = (streamId: number): boolean => z.org.defaultChannelIds.includes(streamId);

    expectError(
      await patch('alice', sid, { is_default_stream: true }),
      'You do not have permission to administer this channel.',
    );
    expect(isDefault(sid)).toBe(false);

    // A channel administrator still needs to be an organization administrator.
    ch('stream').settings.can_administer_channel_group = {
      direct_members: [id('alice')],
      direct_subgroups: [],
    };
    expectError(
      await patch('alice', sid, { is_default_stream: true }),
      'You do not have permission to change default channels.',
    );
    expect(isDefault(sid)).toBe(false);

    setRole('alice', ROLES.administrator);
    expectSuccess(await patch('alice', sid, { is_default_stream: true }));
    expect(isDefault(sid)).toBe(true);

    expectError(
      await patch('alice', sid, { is_private: true }),
      'A default channel cannot be private.',
    );
    expect(ch('stream').inviteOnly).toBe(false);

    setRole('alice', ROLES.member);
    expectError(
      await patch('alice', sid, { is_private: true, is_default_stream: false }),
      'You do not have permission to change default channels.',
    );
    expect(isDefault(sid)).toBe(true);

    setRole('alice', ROLES.administrator);
    expectSuccess(await patch('alice', sid, { is_private: true, is_default_stream: false }));
    expect(ch('stream').inviteOnly).toBe(true);
    expect(isDefault(sid)).toBe(false);

    const sid2 = await makeChannel('stream_2', ['alice']);
    expectError(
      await patch('alice', sid2, { is_default_stream: true, is_private: true }),
      'A default channel cannot be private.',
    );
    expect(ch('stream_2').inviteOnly).toBe(false);
    expect(isDefault(sid2)).toBe(false);

    const sid3 = await makeChannel('private_stream', ['alice'], { invite_only: true });
    expectError(
      await patch('alice', sid3, { is_default_stream: true }),
      'A default channel cannot be private.',
    );
    expect(isDefault(sid3)).toBe(false);

    expectSuccess(await patch('alice', sid3, { is_private: false, is_default_stream: true }));
    expect(ch('private_stream').inviteOnly).toBe(false);
    expect(isDefault(sid3)).toBe(true);
  });
});

describe('add_subscriptions_backend is_default_stream', () => {
  it('new channels become default; an existing one named in the same request does not', async () => {
    const sid = await makeChannel('existing', []);
    expectSuccess(
      await as('admin').post('/users/me/subscriptions', {
        subscriptions: [{ name: 'brand_new' }, { name: 'existing' }],
        is_default_stream: true,
      }),
    );
    expect(await defaultNames()).toEqual(['brand_new', 'general']);
    expect(z.org.defaultChannelIds).not.toContain(sid);
  });

  it('check_channel_creation_permissions: only administrators create default channels, never private ones', async () => {
    expectError(
      await as('alice').post('/users/me/subscriptions', {
        subscriptions: [{ name: 'wanted_default' }],
        is_default_stream: true,
      }),
      'Insufficient permission',
    );
    expectError(
      await as('admin').post('/users/me/subscriptions', {
        subscriptions: [{ name: 'wanted_default' }],
        is_default_stream: true,
        invite_only: true,
      }),
      'A default channel cannot be private.',
    );
    expect(z.org.channels.some((c) => c.name === 'wanted_default')).toBe(false);
  });
});
