/**
 * Conformance: the shape of `subscription_data` (POST /users/me/subscriptions/properties), as
 * typed_endpoint parses `Json[list[SubscriptionPropertyChangeRequest]]` before
 * zerver/views/streams.py `update_subscription_properties_backend` runs: a pydantic model in
 * strict mode, fields checked in order (`stream_id: int`, `property: str`, `value: bool | str`),
 * the first error reported, then the model's `validate_terms`, item by item. The cases vary the
 * requests of zerver/tests/test_subscription_settings.py SubscriptionPropertiesTest (the
 * remaining cases of that class are in subscriptions.test.ts). hamlet → alice.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestResponse } from '../support/emulator-client';

let z: Emulator;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
});
afterEach(() => z.close());

const general = (): number => z.org.channels.find((c) => c.name === 'general')!.id;
const alice = (): number => z.org.users.find((u) => u.email.startsWith('alice@'))!.id;
const pinned = (): boolean | undefined =>
  z.org.subscriptions.find((s) => s.userId === alice() && s.channelId === general() && s.active)
    ?.pinToTop;

const props = (subscription_data: unknown): Promise<TestResponse> =>
  clientFor(z, 'alice').post('/users/me/subscriptions/properties', { subscription_data });

describe('test_subscription_settings.py SubscriptionPropertiesTest: subscription_data shapes', () => {
  it.each([
    [
      'test_set_color_missing_stream_id: a stream_id that is not an integer',
      () => [{ property: 'color', stream_id: 'x', value: '#ffffff' }],
      'subscription_data[0]["stream_id"] is not an integer',
    ],
    [
      'test_set_color_missing_stream_id: a boolean stream_id (strict)',
      () => [{ property: 'pin_to_top', stream_id: true, value: true }],
      'subscription_data[0]["stream_id"] is not an integer',
    ],
    [
      'test_set_color_missing_stream_id: a missing stream_id is reported before a bad property',
      () => [{ property: 5, value: 5 }],
      'subscription_data[0]["stream_id"] field is missing: Field required',
    ],
    [
      'test_set_color_missing_color: a bad stream_id is reported before a missing value',
      () => [{ property: 'color', stream_id: '1' }],
      'subscription_data[0]["stream_id"] is not an integer',
    ],
    [
      'test_set_invalid_property: a property that is not a string',
      () => [{ property: 5, stream_id: general(), value: 'bad' }],
      'subscription_data[0]["property"] is not a string',
    ],
    [
      'test_set_subscription_property_incorrect: a value neither boolean nor string (the bool member reports)',
      () => [{ property: 'is_muted', stream_id: general(), value: 5 }],
      'subscription_data[0]["value"]["bool"] is not a boolean',
    ],
    [
      'test_set_subscription_property_incorrect: a null value',
      () => [{ property: 'color', stream_id: general(), value: null }],
      'subscription_data[0]["value"]["bool"] is not a boolean',
    ],
    [
      'test_set_stream_color: an item that is not a dict',
      () => [5],
      'Invalid subscription_data[0]: Input should be a valid dictionary or instance of SubscriptionPropertyChangeRequest',
    ],
    [
      'test_set_invalid_property: validate_terms of the first item runs before the second is parsed',
      () => [
        { property: 'bad', stream_id: general(), value: 'bad' },
        { property: 'pin_to_top', stream_id: 'x', value: true },
      ],
      'Unknown subscription property: bad',
    ],
    [
      'test_set_color_missing_stream_id: the second item',
      () => [
        { property: 'pin_to_top', stream_id: general(), value: true },
        { property: 'pin_to_top', value: true },
      ],
      'subscription_data[1]["stream_id"] field is missing: Field required',
    ],
  ])('%s', async (_what, data, msg) => {
    expectError(await props(data()), msg);
    expect(pinned()).toBe(false);
  });

  it('test_set_pin_to_top: keys the model does not name are ignored', async () => {
    expectSuccess(
      await props([{ property: 'pin_to_top', stream_id: general(), value: true, note: 'x' }]),
    );
    expect(pinned()).toBe(true);
  });
});
