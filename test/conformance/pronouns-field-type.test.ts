/**
 * Pronouns profile fields for clients that predate the type (Zulip at feature level 442): the
 * mobile app before 27.192, known by its `User-Agent` (zerver/lib/compatibility.py
 * `is_pronouns_field_type_supported`, read by zerver/views/events_register.py; it is not a
 * client capability), gets them as short text fields, in `POST /register`
 * (zerver/lib/events.py `fetch_initial_state_data`) and in `custom_profile_fields` events
 * (Tornado's `process_custom_profile_fields_event`).
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';
import { drainer } from '../support/event-queue';

const SHORT_TEXT = 1;
const PRONOUNS = 8;
const OLD_APP = 'ZulipMobile/27.191 (iOS 12.0)';

let z: Emulator;
let iago: TestClient;
let hamlet: TestClient;
let pronounsId: number;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  iago = clientFor(z, 'admin');
  hamlet = clientFor(z, 'alice');
  const r = await iago.post('/realm/profile_fields', {
    name: 'Pronouns',
    field_type: PRONOUNS,
    hint: 'What pronouns should people use to refer to you?',
  });
  expectSuccess(r);
  pronounsId = r.body.id as number;
});
afterEach(() => z.close());

/** `POST /register` for the profile fields, as a client with this `User-Agent`. */
function registerAs(
  userAgent: string | undefined,
  validate = true,
): ReturnType<TestClient['call']> {
  return hamlet.call(
    'POST',
    '/register',
    { fetch_event_types: ['custom_profile_fields'], event_types: ['custom_profile_fields'] },
    { validate, ...(userAgent === undefined ? {} : { headers: { 'user-agent': userAgent } }) },
  );
}

/** The type of the Pronouns field in a list of fields. */
const pronounsType = (fields: { id: number; type: number }[]): number | undefined =>
  fields.find((f) => f.id === pronounsId)?.type;

describe('test_events.py test_pronouns_type_support_in_custom_profile_fields_events', () => {
  it('a field change: the pronouns field keeps its type for a current client, and is a short text field for an old mobile app', async () => {
    const current = await registerAs(undefined);
    const old = await registerAs(OLD_APP);
    expectSuccess(current);
    expectSuccess(old);
    const drainCurrent = drainer(hamlet, current.body.queue_id as string);
    const drainOld = drainer(hamlet, old.body.queue_id as string);
    expectSuccess(
      await iago.patch(`/realm/profile_fields/${pronounsId}`, {
        name: 'Pronouns',
        hint: 'What pronouns should people use for you?',
      }),
    );
    const [currentEvent] = await drainCurrent();
    const [oldEvent] = await drainOld();
    expect(pronounsType(currentEvent!.fields)).toBe(PRONOUNS);
    expect(pronounsType(oldEvent!.fields)).toBe(SHORT_TEXT);
    // Tornado's own event: type and fields only; the other fields as they are.
    expect(Object.keys(oldEvent!).sort()).toEqual(['fields', 'id', 'type']);
    const others = (fields: { id: number }[]) => fields.filter((f) => f.id !== pronounsId);
    expect(others(oldEvent!.fields)).toEqual(others(currentEvent!.fields));
    expect(oldEvent!.fields.find((f: { id: number }) => f.id === pronounsId)).toEqual({
      ...currentEvent!.fields.find((f: { id: number }) => f.id === pronounsId),
      type: SHORT_TEXT,
    });
  });

  it('the register state (fetch_initial_state_data): pronouns fields as short text, and no PRONOUNS type', async () => {
    const current = await registerAs(undefined);
    const old = await registerAs(OLD_APP);
    expectSuccess(current);
    expectSuccess(old);
    expect(pronounsType(current.body.custom_profile_fields)).toBe(PRONOUNS);
    expect(current.body.custom_profile_field_types.PRONOUNS).toEqual({
      id: PRONOUNS,
      name: 'Pronouns',
    });
    expect(pronounsType(old.body.custom_profile_fields)).toBe(SHORT_TEXT);
    const { PRONOUNS: _, ...rest } = current.body.custom_profile_field_types;
    expect(old.body.custom_profile_field_types).toEqual(rest);
  });
});

describe('test_compatibility.py test_is_pronouns_field_type_supported', () => {
  it('the mobile app before 27.192 gets pronouns fields as short text; others as pronouns', async () => {
    const table: [string, boolean][] = [
      ['ZulipMobile/20.0.103 (Android 6.0.1)', false],
      ['ZulipMobile/20.0.103 (iOS 12.0)', false],
      ['ZulipMobile/27.191 (Android 6.0.1)', false],
      ['ZulipMobile/27.191 (iOS 12.0)', false],
      ['ZulipMobile/27.192 (Android 6.0.1)', true],
      ['ZulipMobile/27.192 (iOS 12.0)', true],
      [
        'ZulipElectron/5.2.0 Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Zulip/5.2.0 Chrome/80.0.3987.165 Electron/8.2.5 Safari/537.36',
        true,
      ],
      // version_lt: more numbers beat the end of the string; trailing text cannot be compared.
      ['ZulipMobile/27', false],
      ['ZulipMobile/27.192.0', true],
      ['ZulipMobile/27.191beta', false],
      ['ZulipMobile/beta', true],
    ];
    const got: [string, boolean][] = [];
    for (const [userAgent] of table) {
      const r = await registerAs(userAgent);
      expectSuccess(r);
      got.push([userAgent, pronounsType(r.body.custom_profile_fields) === PRONOUNS]);
    }
    expect(got).toEqual(table);
  });

  it('ZulipMobile without a version: version_lt(None, ...) raises, an internal server error', async () => {
    // A 500's body has no `code`, which the yaml's error schema requires.
    const r = await registerAs('ZulipMobile', false);
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ result: 'error', msg: 'Internal server error' });
  });
});
