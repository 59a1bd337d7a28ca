/**
 * Request parsing, ported from Zulip's tests. Zulip's test client sends url-encoded bodies
 * (zerver/lib/test_classes.py client_post/client_patch) and can send multipart ones
 * (client_patch_multipart); each case runs in both encodings and with the parameters in the
 * query string, since Zulip reads all three alike (zerver/lib/typed_endpoint.py).
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';

let z: Emulator;
beforeAll(async () => {
  z = await startEmulator({ rateLimit: false });
});
afterAll(() => z.close());

const ENCODINGS = ['form', 'multipart', 'query'] as const;

describe.each(ENCODINGS)('parameters sent as %s', (encoding) => {
  it('test_subscription_settings.py SubscriptionPropertiesTest.test_ignored_parameters_in_subscriptions_properties_endpoint: the unknown parameter is reported, the known one applied', async () => {
    const alice = clientFor(z, 'alice');
    const subs = await alice.get('/users/me/subscriptions');
    const sub = (subs.body.subscriptions as Array<{ stream_id: number; name: string }>).find(
      (s) => s.name === 'general',
    )!;
    const value = encoding !== 'multipart';
    const r = await alice.call(
      'POST',
      '/users/me/subscriptions/properties',
      {
        subscription_data: [
          { property: 'wildcard_mentions_notify', stream_id: sub.stream_id, value },
        ],
        invalid_parameter: [{ property: 'pin_to_top', stream_id: sub.stream_id, value: false }],
      },
      { encoding },
    );
    expectSuccess(r);
    expect(r.body.ignored_parameters_unsupported).toEqual(['invalid_parameter']);
    const after = await alice.get('/users/me/subscriptions');
    const read = (
      after.body.subscriptions as Array<{ stream_id: number; wildcard_mentions_notify: unknown }>
    ).find((s) => s.stream_id === sub.stream_id)!;
    expect(read.wildcard_mentions_notify).toBe(value);
  });

  it('test_decorators.py RestAPITest.test_method_not_allowed: PATCH /users is 405 "Method Not Allowed"', async () => {
    const r = await clientFor(z, 'alice').call('PATCH', '/users', { full_name: 'x' }, { encoding });
    expect(r.status).toBe(405);
    expect(r.body).toMatchObject({ result: 'error', msg: 'Method Not Allowed' });
  });
});

/**
 * zerver/lib/typed_endpoint.py parse_value_for_parameter validates with `strict=True`: a JSON
 * number written with a fraction or an exponent is no `int` (pydantic's `int_type`), even when
 * it is whole. No Zulip test sends one; the parameters are `num_after: Json[NonNegativeInt]`
 * (get_messages_backend) and `add: Json[list[int]]` (update_user_group_backend).
 */
describe('strict integers (Json[int] with strict=True)', () => {
  it.each(['1.0', '1e3', '-2.5'])('num_after=%s is "num_after is not an integer"', async (raw) => {
    expectError(
      await clientFor(z, 'alice').get('/messages', {
        anchor: 'newest',
        num_before: 0,
        num_after: raw,
      }),
      'num_after is not an integer',
    );
  });

  it('an element of a list of integers: "add[1] is not an integer"', async () => {
    const group = z.org.groups.find((g) => g.name === 'design')!;
    expectError(
      await clientFor(z, 'owner').post(`/user_groups/${group.id}/members`, { add: '[3, 4.0]' }),
      'add[1] is not an integer',
    );
  });
});
