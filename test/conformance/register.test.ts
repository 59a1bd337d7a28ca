/**
 * POST /register, GET /events and DELETE /events, ported from Zulip's tests
 * (zerver/tests/test_event_system.py, test_events.py, test_home.py) and, where Zulip's tests
 * exercise the function directly, from the code they test (zerver/views/events_register.py
 * events_register_backend, zerver/lib/events.py do_events_register, fetch_initial_state_data,
 * post_process_state).
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';

let z: Emulator;
beforeAll(async () => {
  z = await startEmulator({ rateLimit: false });
});
afterAll(() => z.close());

const NSN = { notification_settings_null: true };
const ch = (name: string) => z.org.channels.find((c) => c.name === name)!;
const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;

describe('register: client_capabilities (events.py ClientCapabilities)', () => {
  it('test_events.py BaseAction.verify_action (notification_settings_null=False): a dict without notification_settings_null is refused', async () => {
    const r = await clientFor(z, 'alice').post('/register', {
      fetch_event_types: ['realm'],
      client_capabilities: { linkifier_url_template: true },
    });
    expectError(
      r,
      'client_capabilities["notification_settings_null"] field is missing: Field required',
    );
  });

  it.each([
    [{ notification_settings_null: 'yes' }, 'client_capabilities["notification_settings_null"]'],
    [
      { notification_settings_null: true, archived_channels: 1 },
      'client_capabilities["archived_channels"]',
    ],
    [
      { notification_settings_null: false, bulk_message_deletion: null },
      'client_capabilities["bulk_message_deletion"]',
    ],
  ])(
    'events_register_backend Json[ClientCapabilities]: %j → "%s is not a boolean"',
    async (caps, where) => {
      const r = await clientFor(z, 'alice').post('/register', {
        fetch_event_types: ['realm'],
        client_capabilities: caps,
      });
      expectError(r, `${where} is not a boolean`);
    },
  );

  it('events_register_backend: client_capabilities must be a JSON dict', async () => {
    expectError(
      await clientFor(z, 'alice').post('/register', { client_capabilities: [true] }),
      'client_capabilities is not a dict',
    );
    expectError(
      await clientFor(z, 'alice').post('/register', { client_capabilities: '{nope' }),
      'client_capabilities is not valid JSON',
    );
  });

  it('ClientCapabilities: unknown keys are ignored (a TypedDict, not extra="forbid")', async () => {
    const r = await clientFor(z, 'alice').post('/register', {
      fetch_event_types: ['realm_user'],
      client_capabilities: { ...NSN, some_future_capability: true },
    });
    expectSuccess(r);
    expect(r.body.user_id).toBe(user('alice').id);
  });

  it('test_events.py test_change_stream_notification_settings: with notification_settings_null the stream settings stay null', async () => {
    const r = await clientFor(z, 'alice').post('/register', {
      fetch_event_types: ['subscription'],
      client_capabilities: NSN,
    });
    expectSuccess(r);
    const general = r.body.subscriptions.find((s: { name: string }) => s.name === 'general');
    expect(general).toMatchObject({
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
    });
  });

  it('post_process_state (notification_settings_null=False, also the default without client_capabilities): null becomes the user default, wildcard_mentions_notify stays null', async () => {
    for (const params of [{}, { client_capabilities: { notification_settings_null: false } }]) {
      const r = await clientFor(z, 'alice').post('/register', {
        fetch_event_types: ['subscription'],
        ...params,
      });
      expectSuccess(r);
      for (const sub of r.body.subscriptions)
        expect(sub).toMatchObject({
          desktop_notifications: false,
          audible_notifications: false,
          push_notifications: false,
          email_notifications: false,
          wildcard_mentions_notify: null,
        });
    }
  });

  it('post_process_state: an explicit stream setting is kept with notification_settings_null=false', async () => {
    const alice = clientFor(z, 'alice');
    const id = ch('engineering').id;
    expectSuccess(
      await alice.post('/users/me/subscriptions/properties', {
        subscription_data: [{ stream_id: id, property: 'push_notifications', value: true }],
      }),
    );
    const r = await alice.post('/register', { fetch_event_types: ['subscription'] });
    const eng = r.body.subscriptions.find((s: { name: string }) => s.name === 'engineering');
    expect(eng.push_notifications).toBe(true);
    expect(eng.email_notifications).toBe(false);
  });
});

describe('register: include_subscribers (views/streams.py parse_include_subscribers)', () => {
  it.each(['true', 'false', 'partial'])(
    'FL 412+: the plain literal "%s" is accepted',
    async (v) => {
      const r = await clientFor(z, 'alice').post('/register', {
        fetch_event_types: ['subscription'],
        include_subscribers: v,
        client_capabilities: NSN,
      });
      expectSuccess(r);
      const general = r.body.subscriptions.find((s: { name: string }) => s.name === 'general');
      expect('subscribers' in general).toBe(v !== 'false');
    },
  );

  it.each(['"partial"', 'yes', '1', 'True'])(
    'FL 412+: include_subscribers=%s is not one of the literals → "Invalid include_subscribers"',
    async (v) => {
      const r = await clientFor(z, 'alice').post('/register', {
        fetch_event_types: ['subscription'],
        include_subscribers: v,
      });
      expectError(r, 'Invalid include_subscribers');
    },
  );

  it('FL 372..411 (Zulip 10.2 Json[bool]): "partial" is not JSON, true is', async () => {
    const old = await startEmulator({ rateLimit: false, featureLevel: 372 });
    try {
      const c = clientFor(old, 'alice');
      expectError(
        await c.post('/register', {
          fetch_event_types: ['subscription'],
          include_subscribers: 'partial',
        }),
        'include_subscribers is not valid JSON',
      );
      expectError(
        await c.post('/register', {
          fetch_event_types: ['subscription'],
          include_subscribers: '"x"',
        }),
        'include_subscribers is not a boolean',
      );
      expectSuccess(
        await c.post('/register', {
          fetch_event_types: ['subscription'],
          include_subscribers: true,
        }),
      );
    } finally {
      await old.close();
    }
  });
});

describe('register: parameters (events_register_backend)', () => {
  it('test_event_system.py EventsEndpointTest.test_events_register_endpoint_all_public_streams_access: guests may not use all_public_streams', async () => {
    expectSuccess(
      await clientFor(z, 'alice').post('/register', {
        fetch_event_types: ['realm'],
        all_public_streams: true,
      }),
    );
    expectError(
      await clientFor(z, 'guest').post('/register', {
        fetch_event_types: ['realm'],
        all_public_streams: true,
      }),
      'User not authorized for this query',
    );
  });

  it.each([
    ['event_types', 'realm', 'event_types is not valid JSON'],
    ['event_types', { a: 1 }, 'event_types is not a list'],
    ['fetch_event_types', [1], 'fetch_event_types[0] is not a string'],
    ['apply_markdown', 'maybe', 'apply_markdown is not valid JSON'],
    ['client_gravatar', 1, 'client_gravatar is not a boolean'],
    ['slim_presence', '"no"', 'slim_presence is not a boolean'],
    ['presence_history_limit_days', 'x', 'presence_history_limit_days is not valid JSON'],
    ['queue_lifespan_secs', 1.5, 'queue_lifespan_secs is not an integer'],
  ])('typed_endpoint: %s=%j → "%s"', async (name, value, msg) => {
    expectError(await clientFor(z, 'alice').post('/register', { [name]: value }), msg);
  });
});

describe('register: what each fetch_event_types yields (fetch_initial_state_data)', () => {
  const always = [
    'queue_id',
    'last_event_id',
    'zulip_version',
    'zulip_feature_level',
    'zulip_merge_base',
  ];
  const data = (body: Record<string, unknown>) =>
    Object.keys(body)
      .filter((k) => !['result', 'msg', ...always].includes(k))
      .sort();

  it('version fields, queue_id and last_event_id are always there, even for unknown types', async () => {
    const r = await clientFor(z, 'alice').post('/register', {
      fetch_event_types: ['no_such_type'],
    });
    expectSuccess(r);
    for (const k of always) expect(r.body).toHaveProperty(k);
    expect(r.body.last_event_id).toBe(-1);
    expect(data(r.body)).toEqual([]);
  });

  it.each([
    [['realm_user_groups'], ['realm_user_groups']],
    [['default_streams'], ['realm_default_streams']],
    [
      ['realm_linkifiers', 'realm_filters'],
      ['realm_filters', 'realm_linkifiers'],
    ],
    [['realm_playgrounds'], ['realm_playgrounds']],
    [['saved_snippets'], ['saved_snippets']],
    [['channel_folders'], ['channel_folders']],
    [['stream'], ['streams']],
    [['subscription'], ['never_subscribed', 'subscriptions', 'unsubscribed']],
    [
      ['drafts', 'scheduled_messages'],
      ['drafts', 'scheduled_messages'],
    ],
    [['navigation_views'], ['navigation_views']],
    [['presence'], ['presence_last_update_id', 'presences', 'server_timestamp']],
    [['user_status'], ['user_status']],
    [
      ['message', 'starred_messages'],
      ['max_message_id', 'starred_messages'],
    ],
    [['realm_users'], []],
  ])('fetch_event_types=%j yields exactly %j', async (types, keys) => {
    const r = await clientFor(z, 'alice').post('/register', {
      fetch_event_types: types,
      client_capabilities: NSN,
    });
    expectSuccess(r);
    expect(data(r.body)).toEqual(keys);
  });

  it('FL 372 (Zulip 10.2): no navigation_views (FL 390) and no channel_folders (FL 389) in the state; saved_snippets (FL 297) are', async () => {
    const old = await startEmulator({ rateLimit: false, featureLevel: 372 });
    try {
      const r = await clientFor(old, 'alice').post('/register', {
        fetch_event_types: ['navigation_views', 'channel_folders', 'saved_snippets'],
      });
      expectSuccess(r);
      expect(data(r.body)).toEqual(['saved_snippets']);
      expect(r.body.zulip_feature_level).toBe(372);
    } finally {
      await old.close();
    }
  });

  it('realm_user: the users (without is_active, by ID) and the caller, with the creation rights; not the realm settings', async () => {
    const r = await clientFor(z, 'guest').post('/register', { fetch_event_types: ['realm_user'] });
    expectSuccess(r);
    expect(r.body).toMatchObject({
      user_id: user('guest').id,
      is_guest: true,
      is_admin: false,
      can_create_streams: false,
      can_create_public_streams: false,
      can_invite_others_to_realm: false,
      cross_realm_bots: [],
    });
    expect(r.body).not.toHaveProperty('can_subscribe_other_users');
    expect(r.body).not.toHaveProperty('realm_name');
    const ids = r.body.realm_users.map((u: { user_id: number }) => u.user_id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(r.body.realm_users[0]).not.toHaveProperty('is_active');
    expect(r.body.realm_non_active_users.map((u: { user_id: number }) => u.user_id)).toEqual([
      user('former').id,
    ]);
  });

  it('realm: realm and server settings only; can_create_* belong to realm_user', async () => {
    const r = await clientFor(z, 'owner').post('/register', { fetch_event_types: ['realm'] });
    expect(r.body.realm_name).toBe(z.org.realm.name);
    expect(r.body).not.toHaveProperty('can_create_streams');
    expect(r.body).not.toHaveProperty('realm_users');
  });

  it('default_streams: guests are told there are none', async () => {
    const a = await clientFor(z, 'alice').post('/register', {
      fetch_event_types: ['default_streams'],
    });
    expect(a.body.realm_default_streams).toEqual([ch('general').id]);
    const g = await clientFor(z, 'guest').post('/register', {
      fetch_event_types: ['default_streams'],
    });
    expect(g.body.realm_default_streams).toEqual([]);
  });

  it('subscription: gather_subscriptions_helper sorts subscriptions by name', async () => {
    const r = await clientFor(z, 'owner').post('/register', {
      fetch_event_types: ['subscription'],
      client_capabilities: NSN,
    });
    const names = r.body.subscriptions.map((s: { name: string }) => s.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('leadership');
  });

  it.each([
    [377, false],
    [378, true],
  ])(
    'stream (FL %i): do_get_streams(include_all=True) sorts by name; archived channels with the archived_channels capability only from FL 378',
    async (level, archivedListed) => {
      const y = await startEmulator({ rateLimit: false, featureLevel: level });
      try {
        const owner = clientFor(y, 'owner');
        const design = y.org.channels.find((c) => c.name === 'design')!;
        expectSuccess(await owner.delete(`/streams/${design.id}`));
        const r = await owner.post('/register', {
          fetch_event_types: ['stream', 'subscription'],
          client_capabilities: { ...NSN, archived_channels: true },
        });
        expectSuccess(r);
        const names = r.body.streams.map((s: { name: string }) => s.name);
        expect(names).toEqual([...names].sort());
        expect(names.includes('design')).toBe(archivedListed);
        // The subscription lists have it at both levels (never_subscribed from FL 362).
        const lists = ['subscriptions', 'unsubscribed', 'never_subscribed'].flatMap((k) =>
          (r.body[k] as { name: string }[]).map((s) => s.name),
        );
        expect(lists).toContain('design');
      } finally {
        await y.close();
      }
    },
  );

  it('test_event_system.py test_events_register_endpoint: fetch_event_types wins over event_types for the state; event_types alone chooses the events', async () => {
    const alice = clientFor(z, 'alice');
    const r = await alice.post('/register', {
      event_types: ['realm_user'],
      fetch_event_types: ['message'],
    });
    expectSuccess(r);
    expect(r.body).toHaveProperty('max_message_id');
    expect(r.body).not.toHaveProperty('realm_users');
    const r2 = await alice.post('/register', { event_types: ['realm_playgrounds'] });
    expect(data(r2.body)).toEqual(['realm_playgrounds']);
    // The queue gets only event_types: a channel event is not delivered.
    await clientFor(z, 'owner').patch(`/streams/${ch('general').id}`, { description: 'news' });
    const ev = await alice.get('/events', {
      queue_id: r.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expectSuccess(ev);
    expect(ev.body.events).toEqual([]);
  });

  it('ClientDescriptor.accepts_event: event_types lists event types (user_group), not fetch names (realm_user_groups)', async () => {
    const alice = clientFor(z, 'alice');
    const byFetchName = (await alice.post('/register', { event_types: ['realm_user_groups'] })).body
      .queue_id as string;
    const byEventType = (await alice.post('/register', { event_types: ['user_group'] })).body
      .queue_id as string;
    const backend = z.org.groups.find((g) => g.name === 'backend')!;
    expectSuccess(
      await clientFor(z, 'owner').patch(`/user_groups/${backend.id}`, { description: 'Back end' }),
    );
    const get = (q: string) =>
      alice.get('/events', { queue_id: q, last_event_id: -1, dont_block: true });
    expect((await get(byFetchName)).body.events).toEqual([]);
    const events = (await get(byEventType)).body.events;
    expect(events.map((e: { type: string; op: string }) => `${e.type}/${e.op}`)).toEqual([
      'user_group/update',
    ]);
  });

  it('test_home.py test_limit_drafts (state side): drafts come newest first', async () => {
    const c = clientFor(z, 'carol');
    const made = await c.post('/drafts', {
      drafts: [
        { type: '', to: [], topic: '', content: 'old', timestamp: 1000 },
        { type: '', to: [], topic: '', content: 'new', timestamp: 2000 },
      ],
    });
    expectSuccess(made);
    const r = await c.post('/register', { fetch_event_types: ['drafts'] });
    expect(r.body.drafts.map((d: { content: string }) => d.content)).toEqual(['new', 'old']);
  });
});

describe('GET /events and DELETE /events', () => {
  it('GET /events without queue_id: REQUEST_VARIABLE_MISSING', async () => {
    expectError(
      await clientFor(z, 'alice').get('/events', { last_event_id: -1 }),
      "Missing 'queue_id' argument",
      'REQUEST_VARIABLE_MISSING',
    );
  });

  it('python_examples.py get_events (BAD_EVENT_QUEUE_ID): an unknown queue', async () => {
    const r = await clientFor(z, 'alice').get('/events', {
      queue_id: 'nope',
      last_event_id: -1,
      dont_block: true,
    });
    expectError(r, 'Bad event queue ID: nope', 'BAD_EVENT_QUEUE_ID');
    expect(r.body.queue_id).toBe('nope');
  });

  it("another user's queue is BAD_EVENT_QUEUE_ID; DELETE then GET is BAD_EVENT_QUEUE_ID", async () => {
    const q = (await clientFor(z, 'alice').post('/register', { fetch_event_types: ['realm'] })).body
      .queue_id as string;
    expectError(
      await clientFor(z, 'bob').get('/events', { queue_id: q, dont_block: true }),
      `Bad event queue ID: ${q}`,
      'BAD_EVENT_QUEUE_ID',
    );
    expectSuccess(await clientFor(z, 'alice').delete('/events', { queue_id: q }));
    expectError(
      await clientFor(z, 'alice').get('/events', { queue_id: q, dont_block: true }),
      `Bad event queue ID: ${q}`,
      'BAD_EVENT_QUEUE_ID',
    );
  });

  it('test_event_system.py GetEventsTest.test_get_events: dont_block on an empty queue gives no events; last_event_id acknowledges', async () => {
    const alice = clientFor(z, 'alice');
    const q = (await alice.post('/register', { event_types: ['stream'] })).body.queue_id as string;
    const empty = await alice.get('/events', { queue_id: q, last_event_id: -1, dont_block: true });
    expect(empty.body.events).toEqual([]);
    await clientFor(z, 'owner').patch(`/streams/${ch('general').id}`, { description: 'x' });
    const one = await alice.get('/events', { queue_id: q, last_event_id: -1, dont_block: true });
    expect(one.body.events).toHaveLength(1);
    expect(one.body.events[0].type).toBe('stream');
    const after = await alice.get('/events', {
      queue_id: q,
      last_event_id: one.body.events[0].id,
      dont_block: true,
    });
    expect(after.body.events).toEqual([]);
  });
});
