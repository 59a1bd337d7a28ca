import { findTemplate, validateResponse } from '../support/openapi-validate';

describe('the yaml validator itself', () => {
  test('maps concrete paths to yaml templates', () => {
    expect(findTemplate('GET', '/users/me')).toBe('/users/me');
    expect(findTemplate('GET', '/users/12')).toBe('/users/{user_id}');
    expect(findTemplate('GET', '/users/a@b.c')).toBe('/users/{email}');
    expect(findTemplate('PATCH', '/streams/7')).toBe('/streams/{stream_id}');
    expect(findTemplate('GET', '/channel_folders')).toBeUndefined();
  });

  test('rejects wrong types, unknown fields and missing required fields', () => {
    const bad = validateResponse('GET', '/streams', 200, {
      result: 'success',
      msg: '',
      streams: [{ stream_id: 'x' }],
    });
    expect(bad.checked).toBe(true);
    expect(bad.errors.length).toBeGreaterThan(0);
    const extra = validateResponse('GET', '/users/me/subscriptions', 200, {
      result: 'success',
      msg: '',
      subscriptions: [],
      surprise: 1,
    });
    expect(extra.errors.length).toBeGreaterThan(0);
    const user = validateResponse('GET', '/users', 200, {
      result: 'success',
      msg: '',
      members: [{ user_id: 1, role: 150 }],
    });
    expect(user.errors.length).toBeGreaterThan(0);
  });

  test('register: deep fields are checked, newer fields allowed', () => {
    const deep = validateResponse('POST', '/register', 200, {
      result: 'success',
      msg: '',
      queue_id: 'q',
      zulip_feature_level: 478,
      realm_user_groups: [{ id: 'not-an-int' }],
      channel_folders: [],
    });
    expect(deep.errors.join()).toMatch(/realm_user_groups/);
  });

  test('errors: nullable, float retry-after, documented server-only data', () => {
    expect(
      validateResponse('POST', '/users/me/subscriptions', 429, {
        result: 'error',
        msg: 'API usage exceeded rate limit',
        code: 'RATE_LIMIT_HIT',
        'retry-after': 0.5,
      }).errors,
    ).toEqual([]);
    expect(
      validateResponse('POST', '/user_groups/5/deactivate', 400, {
        result: 'error',
        msg: 'Cannot deactivate user group in use.',
        code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
        objections: [{ type: 'realm', settings: ['can_create_groups'] }],
      }).errors,
    ).toEqual([]);
    expect(
      validateResponse('GET', '/streams/5', 400, { result: 'error', msg: 'x' }).errors.length,
    ).toBeGreaterThan(0);
  });

  test('events: yaml event shapes, plus the newer channel_folder events', () => {
    const ok = validateResponse('GET', '/events', 200, {
      result: 'success',
      msg: '',
      queue_id: 'q',
      events: [
        { type: 'heartbeat', id: 0 },
        { type: 'channel_folder', op: 'reorder', order: [1, 2], id: 1 },
      ],
    });
    expect(ok.errors).toEqual([]);
    const bad = validateResponse('GET', '/events', 200, {
      result: 'success',
      msg: '',
      events: [{ type: 'channel_folder', op: 'reorder', order: 'x', id: 1 }],
    });
    expect(bad.errors.length).toBeGreaterThan(0);
    const unknown = validateResponse('GET', '/events', 200, {
      result: 'success',
      msg: '',
      events: [{ type: 'no_such_event', id: 1 }],
    });
    expect(unknown.errors.length).toBeGreaterThan(0);
  });
});
