/**
 * Conformance: code playgrounds, ported from zerver/tests/test_realm_playgrounds.py (Zulip at
 * feature level 442). iago → admin, hamlet → alice. Playgrounds are read back through
 * `POST /register` (`realm_playgrounds`), the only way Zulip lists them.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { validateResponse } from '../support/openapi-validate';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient, TestResponse } from '../support/emulator-client';

let z: Emulator;
let iago: TestClient;

// Parse zulip.yaml before any emulator socket exists: a first validation inside a test blocks
// the event loop for seconds under load, past the server's 5 s keep-alive, and the next
// request on the pooled socket can then fail with ECONNRESET.
beforeAll(() => {
  validateResponse('GET', '/users/me', 200, { result: 'success', msg: '' });
});
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  iago = clientFor(z, 'admin');
});
afterEach(() => z.close());

interface Playground {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

async function playgrounds(): Promise<Playground[]> {
  const res = await iago.post('/register', {
    fetch_event_types: ['realm_playgrounds'],
    client_capabilities: { notification_settings_null: true },
  });
  expectSuccess(res);
  await iago.delete('/events', { queue_id: res.body.queue_id });
  return res.body.realm_playgrounds as Playground[];
}

const add = (
  name: string,
  pygments_language: string,
  url_template: string,
): Promise<TestResponse> =>
  iago.post('/realm/playgrounds', { name, pygments_language, url_template });

const named = async (name: string): Promise<Playground | undefined> =>
  (await playgrounds()).find((p) => p.name === name);

describe('test_realm_playgrounds.py RealmPlaygroundTests', () => {
  it('test_create_one_playground_entry', async () => {
    const res = await add('Python playground', 'Python', 'https://python.example.com{code}');
    expectSuccess(res);
    expect(await named('Python playground')).toEqual({
      id: res.body.id,
      name: 'Python playground',
      pygments_language: 'Python',
      url_template: 'https://python.example.com{code}',
    });
  });

  it('test_create_multiple_playgrounds_for_same_language', async () => {
    expectSuccess(await add('Python playground 1', 'Python', 'https://python.example.com{code}'));
    expectSuccess(await add('Python playground 2', 'Python', 'https://python2.example.com{code}'));
    expect(await named('Python playground 1')).toBeDefined();
    expect(await named('Python playground 2')).toBeDefined();
  });

  it.each([
    [
      'Invalid characters in pygments language',
      'a$b$c',
      'https://template.com{code}',
      'Invalid characters in pygments language',
    ],
    [
      'Template with an unexpected variable',
      'Python',
      'https://template.com{?test,code}',
      '"code" should be the only variable present in the URL template',
    ],
    ['Invalid URL template', 'Python', 'https://template.com?test={test', 'Invalid URL template.'],
    [
      'Template without the required variable',
      'Python',
      'https://template.com{?test}',
      'Missing the required variable "code" in the URL template',
    ],
  ])('test_invalid_params: %s', async (name, language, template, msg) => {
    expectError(await add(name, language, template), msg);
    expect(await named(name)).toBeUndefined();
  });

  // test_invalid_params covers the character class of check_pygments_language; its length cap
  // (RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH = 40, check_capped_string) raises Django's
  // ValidationError inside the parameter's AfterValidator, which pydantic does not catch:
  // JsonErrorHandler answers 500 (Zulip's test suite has no case, as it would re-raise).
  it('test_invalid_params: a pygments_language over 40 characters is a 500', async () => {
    expectSuccess(await add('Forty', 'p'.repeat(40), 'https://p.example.com{code}'));
    const res = await iago.call(
      'POST',
      '/realm/playgrounds',
      {
        name: 'Long',
        pygments_language: 'p'.repeat(41),
        url_template: 'https://p.example.com{code}',
      },
      { validate: false },
    );
    expect({ status: res.status, body: res.body }).toEqual({
      status: 500,
      body: { result: 'error', msg: 'Internal server error' },
    });
    expect(await named('Long')).toBeUndefined();
  });

  it('test_create_already_existing_playground', async () => {
    expectSuccess(await add('Python playground', 'Python', 'https://python.example.com{code}'));
    const res = await add('Python playground', 'Python', 'https://python.example.com{code}');
    expectError(
      res,
      'Realm playground with this Realm, Pygments language and Name already exists.',
    );
    expect(res.body.errors).toEqual({
      __all__: ['Realm playground with this Realm, Pygments language and Name already exists.'],
    });
    expect((await playgrounds()).filter((p) => p.name === 'Python playground')).toHaveLength(1);
  });

  it('test_not_realm_admin', async () => {
    const hamlet = clientFor(z, 'alice');
    const before = await playgrounds();
    expectError(
      await hamlet.post('/realm/playgrounds', {}),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectError(
      await hamlet.delete(`/realm/playgrounds/${before[0]!.id}`),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(await playgrounds()).toEqual(before);
  });

  it('test_delete_realm_playground', async () => {
    const id = (await add('Python playground', 'Python', 'https://python.example.com{code}')).body
      .id as number;
    expectError(await iago.delete(`/realm/playgrounds/${id + 1}`), 'Invalid playground');
    expect(await named('Python playground')).toBeDefined();
    expectSuccess(await iago.delete(`/realm/playgrounds/${id}`));
    expect(await named('Python playground')).toBeUndefined();
  });

  it('test_delete_default_code_block_language_playground', async () => {
    const id = (await add('Python playground', 'Python', 'https://python.example.com{code}')).body
      .id as number;
    // do_set_realm_property, as the Zulip test does (PATCH /realm is not served)
    z.org.realm.defaultCodeBlockLanguage = 'Python';
    const queue = await iago.post('/register', {
      event_types: ['realm', 'realm_playgrounds'],
      client_capabilities: { notification_settings_null: true },
    });
    expectSuccess(queue);
    expectSuccess(await iago.delete(`/realm/playgrounds/${id}`));
    const reg = await iago.post('/register', {
      fetch_event_types: ['realm'],
      client_capabilities: { notification_settings_null: true },
    });
    await iago.delete('/events', { queue_id: reg.body.queue_id });
    expect(reg.body.realm_default_code_block_language).toBe('');
    // zerver/views/realm_playgrounds.py delete_realm_playground: do_set_realm_property (its
    // realm update event) before do_remove_realm_playground (the list without it).
    const ev = await iago.get('/events', {
      queue_id: queue.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expectSuccess(ev);
    await iago.delete('/events', { queue_id: queue.body.queue_id });
    const events = (ev.body.events as Record<string, unknown>[])
      .filter((e) => e.type !== 'heartbeat')
      .map(({ id: _id, ...e }) => e);
    expect(events).toEqual([
      { type: 'realm', op: 'update', property: 'default_code_block_language', value: '' },
      { type: 'realm_playgrounds', realm_playgrounds: await playgrounds() },
    ]);
  });

  it('add_realm_playground: name, language and template are stripped', async () => {
    expectSuccess(await add('  Padded  ', ' Python ', ' https://p.example.com{code} '));
    expect(await named('Padded')).toMatchObject({
      pygments_language: 'Python',
      url_template: 'https://p.example.com{code}',
    });
  });

  it.each([
    ['   ', 'Python', 'https://p.example.com{code}', { name: ['This field cannot be blank.'] }],
    [
      'Blank language',
      '  ',
      'https://p.example.com{code}',
      { pygments_language: ['This field cannot be blank.'] },
    ],
  ])('RealmPlayground.full_clean: %j / %j is blank', async (name, language, template, errors) => {
    const res = await add(name, language, template);
    expectError(res, 'This field cannot be blank.');
    expect(res.body.errors).toEqual(errors);
  });
});
