/**
 * Conformance: allowed domains (`/realm/domains`), ported from zerver/tests/test_realm_domains.py
 * (`RealmDomainTest`, for zerver/views/realm_domains.py and zerver/actions/realm_domains.py at
 * feature level 442) and zerver/tests/test_events.py `test_realm_domain_events`. desdemona →
 * owner, iago → admin (an administrator, not an owner). Zulip's test organization starts with
 * the domain zulip.com and, in `setUp`, `emails_restricted_to_domains` on: so does each case
 * here. The cases Zulip's file has for other functions (`email_allowed_for_realm`, another
 * organization's domains, the database's uniqueness) test nothing the embedded server answers.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { realmProperty, setRealmProperty } from '../../src/emulator/realm-settings';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient, TestResponse } from '../support/emulator-client';

let z: Emulator;
let desdemona: TestClient;
let iago: TestClient;

beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  setRealmProperty(z.org, 'emails_restricted_to_domains', true);
  z.org.realmDomains = [{ id: 9001, domain: 'zulip.com', allowSubdomains: false }];
  desdemona = clientFor(z, 'owner');
  iago = clientFor(z, 'admin');
});
afterEach(() => z.close());

const add = (domain: string, allow_subdomains = true, as = desdemona): Promise<TestResponse> =>
  as.post('/realm/domains', { domain, allow_subdomains });

/** The domains as stored: domain and allow_subdomains. */
const stored = (): [string, boolean][] =>
  (z.org.realmDomains ?? []).map((d) => [d.domain, d.allowSubdomains]);

describe('test_realm_domains.py RealmDomainTest', () => {
  it('test_list_realm_domains: every account lists them in the order they were added (GET /realm/domains, and register)', async () => {
    z.org.realmDomains!.push({ id: 9002, domain: 'acme.com', allowSubdomains: true });
    const expected = [
      { domain: 'zulip.com', allow_subdomains: false },
      { domain: 'acme.com', allow_subdomains: true },
    ];
    const res = await iago.get('/realm/domains');
    expectSuccess(res);
    expect(res.body.domains).toEqual(expected);
    // zerver/lib/events.py fetch_initial_state_data: `realm_domains`, for any account.
    const reg = await clientFor(z, 'guest').post('/register', {
      fetch_event_types: ['realm_domains'],
    });
    expectSuccess(reg);
    expect(reg.body.realm_domains).toEqual(expected);
  });

  // Zulip's test asserts status 403 in later versions; at feature level 442
  // OrganizationOwnerRequiredError is a JsonableError with its default status, 400.
  it('test_not_realm_owner: an administrator is refused every write, before its parameters are read', async () => {
    const owner = 'Must be an organization owner';
    expectError(await iago.post('/realm/domains'), owner, 'UNAUTHORIZED_PRINCIPAL');
    expectError(await iago.patch('/realm/domains/15'), owner, 'UNAUTHORIZED_PRINCIPAL');
    expectError(await iago.delete('/realm/domains/15'), owner, 'UNAUTHORIZED_PRINCIPAL');
    expect(stored()).toEqual([['zulip.com', false]]);
  });

  it('test_create_realm_domain: an empty domain, a new one, the same one again', async () => {
    expectError(await add(''), "Invalid domain: Domain can't be empty.");
    const res = await add('acme.com');
    expectSuccess(res);
    const row = z.org.realmDomains!.find((d) => d.domain === 'acme.com')!;
    expect(res.body.new_domain).toEqual([row.id, 'acme.com']);
    expect(stored()).toEqual([
      ['zulip.com', false],
      ['acme.com', true],
    ]);
    expectError(
      await add('acme.com'),
      'The domain acme.com is already a part of your organization.',
    );
  });

  it('test_patch_realm_domain: allow_subdomains changed; an unknown domain is refused', async () => {
    z.org.realmDomains!.push({ id: 9002, domain: 'acme.com', allowSubdomains: false });
    expectSuccess(await desdemona.patch('/realm/domains/acme.com', { allow_subdomains: true }));
    expect(stored()).toContainEqual(['acme.com', true]);
    expectError(
      await desdemona.patch('/realm/domains/non-existent.com', { allow_subdomains: true }),
      'No entry found for domain non-existent.com.',
    );
  });

  it('test_delete_realm_domain: an unknown domain is refused; with a domain left the restriction stays', async () => {
    z.org.realmDomains!.push({ id: 9002, domain: 'acme.com', allowSubdomains: false });
    expectError(
      await desdemona.delete('/realm/domains/non-existent.com'),
      'No entry found for domain non-existent.com.',
    );
    expectSuccess(await desdemona.delete('/realm/domains/acme.com'));
    expect(stored()).toEqual([['zulip.com', false]]);
    expect(realmProperty(z.org, 'emails_restricted_to_domains')).toBe(true);
  });

  it('test_delete_all_realm_domains: deleting the last domain turns emails_restricted_to_domains off', async () => {
    expectSuccess(await desdemona.delete('/realm/domains/zulip.com'));
    expect(stored()).toEqual([]);
    expect(realmProperty(z.org, 'emails_restricted_to_domains')).toBe(false);
  });

  // Zulip's test checks that validate_domain raises; the view answers with its first message.
  it.each([
    ['', "Domain can't be empty."],
    ['test', 'Domain must have at least one dot (.)'],
    ['t.', 'Domain cannot start or end with a dot (.)'],
    ['test.', 'Domain cannot start or end with a dot (.)'],
    ['.com', 'Domain cannot start or end with a dot (.)'],
    ['-test', 'Domain must have at least one dot (.)'],
    ['test...com', "Consecutive '.' are not allowed."],
    ['test-', 'Domain must have at least one dot (.)'],
    ['test_domain.com', "Domain can only have letters, numbers, '.' and '-'s."],
    ['test.-domain.com', "Subdomains cannot start or end with a '-'."],
    [`${'a'.repeat(255)}.com`, 'Domain is too long'],
  ])('test_validate_domain: %j is invalid', async (domain, msg) => {
    expectError(await add(domain), `Invalid domain: ${msg}`);
    expect(stored()).toEqual([['zulip.com', false]]);
  });

  it.each(['acme.com', 'x-x.y.3.z'])('test_validate_domain: %j is valid', async (domain) => {
    expectSuccess(await add(domain));
    expect(stored()).toContainEqual([domain, true]);
  });
});

/** What the view does besides what Zulip's test file covers, from its code. */
describe('zerver/views/realm_domains.py', () => {
  it('create_realm_domain strips and lower-cases the domain before checking it; PATCH and DELETE look the path up as stored', async () => {
    const res = await add(' Acme.COM\n', false);
    expectSuccess(res);
    expect(res.body.new_domain[1]).toBe('acme.com');
    expectError(
      await add('ACME.com'),
      'The domain acme.com is already a part of your organization.',
    );
    expectError(
      await desdemona.patch('/realm/domains/ACME.com', { allow_subdomains: true }),
      'No entry found for domain ACME.com.',
    );
    expectError(
      await desdemona.delete('/realm/domains/ACME.com'),
      'No entry found for domain ACME.com.',
    );
    expect(stored()).toContainEqual(['acme.com', false]);
  });

  it('allow_subdomains (Json[bool]) is read before the domain, and is required', async () => {
    expectError(
      await desdemona.post('/realm/domains', {}),
      "Missing 'allow_subdomains' argument",
      'REQUEST_VARIABLE_MISSING',
    );
    expectError(
      await desdemona.post('/realm/domains', { domain: 'acme.com', allow_subdomains: 'yes' }),
      'allow_subdomains is not valid JSON',
    );
    expectError(
      await desdemona.post('/realm/domains', { allow_subdomains: false }),
      "Missing 'domain' argument",
      'REQUEST_VARIABLE_MISSING',
    );
    expectError(
      await desdemona.patch('/realm/domains/zulip.com', {}),
      "Missing 'allow_subdomains' argument",
      'REQUEST_VARIABLE_MISSING',
    );
  });

  // validate_domain matches each label with re.match(r"^[a-z0-9-]*$"), whose `$` also matches
  // before a final newline: a line break inside the domain passes (the strip only takes the ends).
  it('validate_domain lets a label end in a line break', async () => {
    expectSuccess(await add('a\n.com'));
    expect(stored()).toContainEqual(['a\n.com', true]);
  });

  // RealmDomain.domain is a CharField of 80, which validate_domain (up to 255) does not check:
  // the database refuses the insert (DataError) and JsonErrorHandler answers 500 (no Zulip test
  // has it, as the test client would re-raise).
  it('a domain over 80 characters is a 500; 80 are stored', async () => {
    expectSuccess(await add(`${'a'.repeat(76)}.com`));
    const res = await desdemona.call(
      'POST',
      '/realm/domains',
      { domain: `${'a'.repeat(77)}.com`, allow_subdomains: true },
      { validate: false },
    );
    expect({ status: res.status, body: res.body }).toEqual({
      status: 500,
      body: { result: 'error', msg: 'Internal server error' },
    });
    expect(stored()).toHaveLength(2);
  });
});

describe('test_events.py test_realm_domain_events', () => {
  it('add, change and remove each send one realm_domains event; removing the last one sends the realm update first', async () => {
    const reg = await desdemona.post('/register', { event_types: ['realm_domains', 'realm'] });
    expectSuccess(reg);
    const queue = reg.body.queue_id as string;
    let last = -1;
    const drain = async (): Promise<Record<string, unknown>[]> => {
      const r = await desdemona.get('/events', {
        queue_id: queue,
        last_event_id: last,
        dont_block: true,
      });
      expectSuccess(r);
      const events = (r.body.events as { id: number }[]).filter((e) => e.id > last);
      for (const e of events) last = Math.max(last, e.id);
      return events.map(({ id: _id, ...e }) => e);
    };
    expectSuccess(await add('zulip.org', false));
    expect(await drain()).toEqual([
      {
        type: 'realm_domains',
        op: 'add',
        realm_domain: { domain: 'zulip.org', allow_subdomains: false },
      },
    ]);
    expectSuccess(await desdemona.patch('/realm/domains/zulip.org', { allow_subdomains: true }));
    expect(await drain()).toEqual([
      {
        type: 'realm_domains',
        op: 'change',
        realm_domain: { domain: 'zulip.org', allow_subdomains: true },
      },
    ]);
    expectSuccess(await desdemona.delete('/realm/domains/zulip.org'));
    expect(await drain()).toEqual([{ type: 'realm_domains', op: 'remove', domain: 'zulip.org' }]);
    // zerver/actions/realm_domains.py do_remove_realm_domain: do_set_realm_property's event is
    // queued before the domain's.
    expectSuccess(await desdemona.delete('/realm/domains/zulip.com'));
    expect(await drain()).toEqual([
      { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false },
      { type: 'realm_domains', op: 'remove', domain: 'zulip.com' },
    ]);
  });
});
