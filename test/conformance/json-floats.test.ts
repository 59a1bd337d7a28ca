/**
 * A JSON number written with a fraction or an exponent (`1.0`, `1e0`) is a float to Zulip's
 * parsers, even when whole, and a float is no integer wherever it is in a parameter:
 *
 * - zerver/lib/typed_endpoint.py `parse_value_for_parameter` validates `Json[...]` with
 *   `strict=True`, which holds for the models, TypedDicts and dataclasses inside the parameter
 *   too, so an `int` field or list element refuses `1.0` (`int_type`) and a union reports its
 *   first member's error (`x["int"]`, `x["str"]`, `x["list[str]"][0]`);
 * - code that decodes JSON itself with orjson checks `isinstance(x, int)`
 *   (zerver/actions/message_send.py `extract_stream_indicator`, `extract_private_recipients`),
 *   and so do the validators `NarrowParameter.validate_terms` runs (zerver/lib/validator.py
 *   `check_string_or_int`, `check_list(check_int)`).
 *
 * No Zulip test sends such a number; each case names the parameter's type (in the view's
 * signature or a model) and the view or the Zulip test of that parameter.
 * Top-level `Json[int]` and `Json[list[int]]` are in request-parsing.test.ts, group-setting
 * values in group-setting-values.test.ts. Where Zulip's type takes a float
 * (`DraftData.timestamp: int | float | None`), `1.0` is taken.
 * hamlet → alice, othello → bob, iago → admin, desdemona → owner.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';

let z: Emulator;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
});
afterEach(() => z.close());

const uid = (local: string): number => z.org.users.find((u) => u.email.startsWith(`${local}@`))!.id;
const general = (): number => z.org.channels.find((c) => c.name === 'general')!.id;
const as = (who: string) => clientFor(z, who);

describe('subscriptions', () => {
  it('subscription_data: Json[list[SubscriptionPropertyChangeRequest]], stream_id: int (test_set_color_missing_stream_id)', async () => {
    expectError(
      await as('alice').post('/users/me/subscriptions/properties', {
        subscription_data: `[{"stream_id": ${general()}.0, "property": "pin_to_top", "value": true}]`,
      }),
      'subscription_data[0]["stream_id"] is not an integer',
    );
  });

  it.each([
    ['POST', (ids: string) => `[${ids}]`],
    ['DELETE', (ids: string) => `[${ids}]`],
  ])(
    'principals on %s /users/me/subscriptions: Json[list[str] | list[int]], the list[str] member reports (test_bad_principals)',
    async (method, principals) => {
      for (const ids of [`${uid('bob')}.0`, `${uid('bob')}, ${uid('carol')}e0`])
        expectError(
          await as('owner').call(method, '/users/me/subscriptions', {
            subscriptions: method === 'POST' ? [{ name: 'general' }] : ['general'],
            principals: principals(ids),
          }),
          'principals["list[str]"][0] is not a string',
        );
    },
  );
});

describe('custom profile data', () => {
  it('profile_data of PATCH /users/{id}: ProfileDataElement(id: int, value: str | list[int] | None) (update_user_backend)', async () => {
    const admin = as('admin');
    const target = `/users/${uid('carol')}`;
    expectError(
      await admin.patch(target, { profile_data: '[{"id": 1.0, "value": "x"}]' }),
      'profile_data[0]["id"] is not an integer',
    );
    expectError(
      await admin.patch(target, { profile_data: `[{"id": 1, "value": [${uid('bob')}.0]}]` }),
      'profile_data[0]["value"]["str"] is not a string',
    );
  });

  it('data of PATCH /users/me/profile_data: ProfileDataElementUpdateDict(id: int, value: str | list[int]); of DELETE: Json[list[int]]', async () => {
    const alice = as('alice');
    expectError(
      await alice.patch('/users/me/profile_data', { data: '[{"id": 1e0, "value": "x"}]' }),
      'data[0]["id"] is not an integer',
    );
    expectError(
      await alice.patch('/users/me/profile_data', { data: `[{"id": 1, "value": [2, 3.0]}]` }),
      'data[0]["value"]["str"] is not a string',
    );
    expectError(
      await alice.delete('/users/me/profile_data', { data: '[1.0]' }),
      'data[0] is not an integer',
    );
  });

  it('order of PATCH /realm/profile_fields: Json[list[int]] (reorder_realm_custom_profile_fields)', async () => {
    const admin = as('admin');
    const ids: number[] = [];
    for (const name of ['Phone', 'Biography']) {
      const r = await admin.post('/realm/profile_fields', { name, field_type: 1 });
      expectSuccess(r);
      ids.push(r.body.id as number);
    }
    expectError(
      await admin.patch('/realm/profile_fields', { order: `[${ids[1]}, ${ids[0]}.0]` }),
      'order[1] is not an integer',
    );
  });
});

describe('drafts and scheduled messages', () => {
  const draft = (to: string, extra = '') =>
    `{"type": "private", "to": ${to}, "topic": "", "content": "x"${extra}}`;

  it('DraftData.to: list[int] (drafts_create, drafts_edit)', async () => {
    const alice = as('alice');
    expectError(
      await alice.post('/drafts', { drafts: `[${draft(`[${uid('bob')}.0]`)}]` }),
      'drafts[0]["to"][0] is not an integer',
    );
    const created = await alice.post('/drafts', { drafts: `[${draft(`[${uid('bob')}]`)}]` });
    expectSuccess(created);
    const id = (created.body.ids as number[])[0]!;
    expectError(
      await alice.patch(`/drafts/${id}`, { draft: draft(`[${uid('bob')}e0]`) }),
      'draft["to"][0] is not an integer',
    );
  });

  it('DraftData.timestamp: int | float | None takes a float', async () => {
    const alice = as('alice');
    expectSuccess(
      await alice.post('/drafts', {
        drafts: `[${draft(`[${uid('bob')}]`, ', "timestamp": 1595479019.0')}]`,
      }),
    );
    const r = await alice.get('/drafts');
    expectSuccess(r);
    expect((r.body.drafts as Array<{ timestamp: unknown }>)[0]!.timestamp).toBe(1595479019);
  });

  it.each([
    ['channel', () => `${general()}.0`],
    ['direct', () => `[${uid('bob')}e0]`],
  ])(
    'to of POST /scheduled_messages (%s): Json[int | list[int]] (test_schedule_message: \'to["int"] is not an integer\')',
    async (type, to) => {
      expectError(
        await as('alice').post('/scheduled_messages', {
          type,
          to: to(),
          topic: 'Test topic',
          content: 'Test message',
          scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 86400,
        }),
        'to["int"] is not an integer',
      );
    },
  );
});

describe('messages', () => {
  it.each([
    ['channel', () => `${general()}.0`, 'Invalid data type for channel'],
    ['channel', () => `[${general()}e0]`, 'Invalid data type for channel'],
    ['direct', () => `[${uid('bob')}.0]`, 'Invalid data type for recipients'],
    [
      'direct',
      () => `[${uid('bob')}, ${uid('carol')}.0]`,
      'Recipient lists may contain emails or user IDs, but not both.',
    ],
  ])(
    'to of POST /messages (%s) %#: isinstance(x, int) after orjson (extract_stream_indicator, extract_private_recipients)',
    async (type, to, msg) => {
      expectError(
        await as('alice').post('/messages', { type, to: to(), topic: 'x', content: 'x' }),
        msg,
      );
      expect(z.org.messages ?? []).toHaveLength(0);
    },
  );

  const fetch = (params: Record<string, unknown>) =>
    as('alice').get('/messages', { anchor: 0, num_before: 0, num_after: 0, ...params });

  it('narrow operands: NarrowParameter.operand is Any, then check_string_or_int / check_list(check_int)', async () => {
    expectError(
      await fetch({ narrow: '[{"operator": "id", "operand": 1.0}]' }),
      'operand is not a string or integer',
    );
    expectError(
      await fetch({ narrow: `[{"operator": "dm", "operand": [${uid('bob')}.0]}]` }),
      'operand[0] is not an integer',
    );
  });

  it('message_ids of GET /messages: Json[list[NonNegativeInt] | None] (get_messages_backend)', async () => {
    expectError(
      await as('alice').get('/messages', { message_ids: '[1, 2.0]' }),
      'message_ids[1] is not an integer',
    );
  });
});

describe('organization and channel settings', () => {
  it.each(['message_content_edit_limit_seconds', 'message_retention_days'])(
    '%s of PATCH /realm: Annotated[Json[int | str] | None, ...], the int member reports (update_realm)',
    async (setting) => {
      for (const v of ['600.0', '6e2', 'null'])
        expectError(
          await as('owner').patch('/realm', { [setting]: v }),
          `${setting}["int"] is not an integer`,
        );
    },
  );

  it('message_retention_days of channels: Json[str] | Json[int], the json[str] member reports (create_channel, update_stream_backend)', async () => {
    const owner = as('owner');
    const msg = 'message_retention_days["json[str]"] is not a string';
    expectError(
      await owner.post('/channels/create', {
        name: 'new-channel',
        subscribers: [uid('owner')],
        message_retention_days: '10.0',
      }),
      msg,
    );
    expectError(await owner.patch(`/streams/${general()}`, { message_retention_days: '1e1' }), msg);
  });

  it('folder_id: Json[int] on creation, Json[int | None] | MissingType on update (test_updating_stream_folder)', async () => {
    const owner = as('owner');
    const folder = z.org.folders[0]!.id;
    expectError(
      await owner.post('/channels/create', {
        name: 'new-channel',
        subscribers: [uid('owner')],
        folder_id: `${folder}.0`,
      }),
      'folder_id is not an integer',
    );
    expectError(
      await owner.patch(`/streams/${general()}`, { folder_id: `${folder}e0` }),
      'folder_id["json[nullable[int]]"] is not an integer',
    );
  });
});
