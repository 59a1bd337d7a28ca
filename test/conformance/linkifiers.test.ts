/**
 * Conformance: linkifiers, ported from zerver/tests/test_realm_linkifiers.py (Zulip at feature
 * level 442; RE2 patterns, RFC 6570 templates as Python's uri_template validates them).
 * iago → admin, hamlet → alice. Like Zulip's setUp, each case starts without linkifiers.
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
  z.org.linkifiers.length = 0;
  iago = clientFor(z, 'admin');
});
afterEach(() => z.close());

interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

const add = (pattern: string, url_template: string): Promise<TestResponse> =>
  iago.post('/realm/filters', { pattern, url_template });

async function addOk(pattern: string, url_template: string): Promise<number> {
  const res = await add(pattern, url_template);
  expectSuccess(res);
  return res.body.id as number;
}

async function list(): Promise<Linkifier[]> {
  const res = await iago.get('/realm/linkifiers');
  expectSuccess(res);
  // the fields of FL 442 (newer levels add example_input, reverse_template, ...)
  return (res.body.linkifiers as Linkifier[]).map(({ id, pattern, url_template }) => ({
    id,
    pattern,
    url_template,
  }));
}

describe('test_realm_linkifiers.py RealmFilterTest', () => {
  it('test_list: a created linkifier is listed as sent', async () => {
    await addOk('#(?P<id>[123])', 'https://realm.com/my_realm_filter/{id}');
    const got = await list();
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      pattern: '#(?P<id>[123])',
      url_template: 'https://realm.com/my_realm_filter/{id}',
    });
  });

  it.each([
    ['', 'https://realm.com/my_realm_filter/{id}', 'This field cannot be blank.'],
    ['(foo', 'https://realm.com/my_realm_filter/{id}', 'Bad regular expression: missing ): (foo'],
    [
      'ZUL-(?P<id>\\d????)',
      'https://realm.com/my_realm_filter/{id}',
      'Bad regular expression: bad repetition operator: ????',
    ],
    [
      'ZUL-(?P<id>\\d+)',
      '$fgfg',
      "Group 'id' in linkifier pattern is not present in URL template.",
    ],
    [
      'ZUL-(?P<id>\\d+)',
      'https://realm.com/my_realm_filter/',
      "Group 'id' in linkifier pattern is not present in URL template.",
    ],
    [
      'ZUL-(?P<id>\\d+)',
      'https://realm.com/my_realm_filter/{hello}',
      "Group 'hello' in URL template is not present in linkifier pattern.",
    ],
    [
      'ZUL-(?P<id>\\d+)-(?P<hello>\\d+)',
      'https://realm.com/my_realm_filter/{hello}',
      "Group 'id' in linkifier pattern is not present in URL template.",
    ],
    [
      'ZUL-(?P<id>\\d+)-(?P<hello>\\d+)-(?P<world>\\d+)',
      'https://realm.com/my_realm_filter/{hello}',
      "Group 'id' in linkifier pattern is not present in URL template.",
    ],
  ])('test_create: %j → %j is refused: %s', async (pattern, template, msg) => {
    expectError(await add(pattern, template), msg);
    expect(await list()).toEqual([]);
  });

  it.each([
    ['ZUL-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/#hashtag/{id}'],
    ['ZUL2-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/?value={id}'],
    ['_code=(?P<id>[0-9a-zA-Z]+)', 'https://example.com/product/{id}/details'],
    [
      'PR (?P<id>[0-9]+)',
      'https://example.com/~user/web#view_type=type&model=model&action=12345&id={id}',
    ],
    ['lp/(?P<id>[0-9]+)', 'https://realm.com/my_realm_filter/?value={id}&sort=reverse'],
    ['lp:(?P<id>[0-9]+)', 'https://realm.com/my_realm_filter/?sort=reverse&value={id}'],
    ['!(?P<id>[0-9]+)', 'https://realm.com/index.pl?Action=AgentTicketZoom;TicketNumber={id}'],
    ['ZULZ-(?P<hello>\\d+)-(?P<world>\\d+)', 'https://realm.com/my_realm_filter/{hello}/{world}'],
    ['ZUL-URL-(?P<id>\\d+)', 'https://example.com/%ba/{id}'],
    [
      '(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)',
      'https://github.com/{org}/{repo}/issue/{id}',
    ],
    [
      'FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})',
      'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
    ],
  ])('test_create: %j → %j is accepted', async (pattern, template) => {
    const id = await addOk(pattern, template);
    expect(await list()).toEqual([{ id, pattern, url_template: template }]);
  });

  it('test_not_realm_admin: members can neither create nor delete', async () => {
    const id = await addOk('#(?P<id>[123])', 'https://realm.com/my_realm_filter/{id}');
    const hamlet = clientFor(z, 'alice');
    expectError(
      await hamlet.post('/realm/filters', {}),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectError(
      await hamlet.delete(`/realm/filters/${id}`),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(await list()).toHaveLength(1);
  });

  it('test_delete: an unknown ID is "Linkifier not found.", a known one goes', async () => {
    const id = await addOk('#(?P<id>[123])', 'https://realm.com/my_realm_filter/{id}');
    expectError(await iago.delete(`/realm/filters/${id + 1}`), 'Linkifier not found.');
    expect(await list()).toHaveLength(1);
    expectSuccess(await iago.delete(`/realm/filters/${id}`));
    expect(await list()).toEqual([]);
  });

  it('test_update: pattern and template change, and read back', async () => {
    const id = await addOk('#(?P<id>[123])', 'https://realm.com/my_realm_filter/{id}');
    expectSuccess(
      await iago.patch(`/realm/filters/${id}`, {
        pattern: '#(?P<id>[0-9]+)',
        url_template: 'https://realm.com/my_realm_filter/issues/{id}',
      }),
    );
    expect(await list()).toEqual([
      {
        id,
        pattern: '#(?P<id>[0-9]+)',
        url_template: 'https://realm.com/my_realm_filter/issues/{id}',
      },
    ]);
  });

  it.each([
    [
      'ZUL-(?P<id>\\d????)',
      'https://realm.com/my_realm_filter/{id}',
      'Bad regular expression: bad repetition operator: ????',
    ],
    [
      'ZUL-(?P<id>\\d+)',
      '$fgfg',
      "Group 'id' in linkifier pattern is not present in URL template.",
    ],
    ['#(?P<id>[123])', '{id', 'Invalid URL template.'],
  ])('test_update: %j → %j is refused: %s', async (pattern, template, msg) => {
    const id = await addOk('#(?P<id>[0-9]+)', 'https://realm.com/my_realm_filter/issues/{id}');
    expectError(await iago.patch(`/realm/filters/${id}`, { pattern, url_template: template }), msg);
    expect((await list())[0]?.pattern).toBe('#(?P<id>[0-9]+)');
  });

  it('test_update: an unknown ID is "Linkifier not found."', async () => {
    const id = await addOk('#(?P<id>[0-9]+)', 'https://realm.com/my_realm_filter/issues/{id}');
    expectError(
      await iago.patch(`/realm/filters/${id + 1}`, {
        pattern: '#(?P<id>[123])',
        url_template: 'https://realm.com/my_realm_filter/{id}',
      }),
      'Linkifier not found.',
    );
  });

  // test_valid_urls: url_template_validator accepts these; a linkifier whose pattern names the
  // template's variables is therefore created.
  it.each([
    ['http://example.com/', []],
    ['https://example.com/', []],
    ['https://user:password@example.com/', []],
    ['https://example.com/@user/thing', []],
    ['https://example.com/!path', []],
    ['https://example.com/foo.bar', []],
    ['https://example.com/foo[bar]', []],
    ['https://example.com/{foo}', ['foo']],
    ['https://example.com/{foo}{bars}', ['foo', 'bars']],
    ['https://example.com/{foo}/and/{bar}', ['foo', 'bar']],
    ['https://example.com/?foo={foo}', ['foo']],
    ['https://example.com/%ab', []],
    ['https://example.com/%ba', []],
    ['https://example.com/%21', []],
    ['https://example.com/words%20with%20spaces', []],
    ['https://example.com/back%20to%20{back}', ['back']],
    ['https://example.com/encoded%2fwith%2fletters', []],
    ['https://example.com/encoded%2Fwith%2Fupper%2Fcase%2Fletters', []],
    ['https://example.com/%%', []],
    ['https://example.com/%%(', []],
    ['https://example.com/%%()', []],
    ['https://example.com/%%(foo', []],
    ['https://example.com/%%(foo)', []],
    ['https://example.com/%%(foo)s', []],
    ['https://example.com{/foo,bar,baz}', ['foo', 'bar', 'baz']],
    ['https://example.com/{?foo*}', ['foo']],
    ['https://example.com/{+foo,bar}', ['foo', 'bar']],
    ['https://chat{.domain}.com/{#foo}', ['domain', 'foo']],
    [
      'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
      ['zone', 'domain', 'location', 'id', 'name', 'chapter', 'fragment'],
    ],
    ['$not_a_url$', []],
  ])('test_valid_urls: %j is a valid URL template', async (template, groups) => {
    const pattern = `V-${groups.map((g) => `(?P<${g}>[0-9]+)`).join('-')}`;
    await addOk(pattern, template);
  });

  it.each([
    'https://example.com/{foo',
    'https://example.com/{{}',
    'https://example.com/{//foo}',
    'https://example.com/{bar++}',
  ])('test_valid_urls: %j is not a valid URL template', async (template) => {
    const res = await add('(?P<foo>[0-9]+)', template);
    expectError(res, 'Invalid URL template.');
    expect(res.body.errors).toEqual({ url_template: ['Invalid URL template.'] });
  });

  it('RealmFilter unique_together (realm, pattern): a second linkifier with the same pattern', async () => {
    await addOk('#(?P<id>[123])', 'https://a.example/{id}');
    const res = await add('#(?P<id>[123])', 'https://b.example/{id}');
    expectError(res, 'Realm filter with this Realm and Pattern already exists.');
    expect(res.body.errors).toEqual({
      __all__: ['Realm filter with this Realm and Pattern already exists.'],
    });
  });

  it("full_clean: field errors come before clean()'s (an invalid template before a bad pattern)", async () => {
    const res = await add('(foo', '{id');
    expectError(res, 'Invalid URL template.');
    expect(res.body.errors).toEqual({
      url_template: ['Invalid URL template.'],
      __all__: ['Bad regular expression: missing ): (foo'],
    });
  });

  it('full_clean: a bad pattern is a model error (`__all__`), not a field error', async () => {
    const res = await add('(foo', 'https://x.example/');
    expect(res.body.errors).toEqual({ __all__: ['Bad regular expression: missing ): (foo'] });
  });
});

describe('test_realm_linkifiers.py: pattern and url_template are stripped (issue 11 item 5)', () => {
  it('do_add_linkifier strips both', async () => {
    const id = await addOk('  #(?P<id>[0-9]+)\n', '\thttps://x.example/{id}  ');
    expect(await list()).toEqual([
      { id, pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' },
    ]);
  });

  it('do_add_linkifier: a padded copy of an existing pattern is a duplicate', async () => {
    await addOk('#(?P<id>[0-9]+)', 'https://x.example/{id}');
    expectError(
      await add(' #(?P<id>[0-9]+) ', 'https://y.example/{id}'),
      'Realm filter with this Realm and Pattern already exists.',
    );
  });

  it('do_add_linkifier: a pattern of spaces is blank', async () => {
    expectError(await add('   ', 'https://x.example/'), 'This field cannot be blank.');
  });

  it('do_update_linkifier strips both', async () => {
    const id = await addOk('#(?P<id>[0-9]+)', 'https://x.example/{id}');
    expectSuccess(
      await iago.patch(`/realm/filters/${id}`, {
        pattern: ' ZUL-(?P<id>[0-9]+) ',
        url_template: ' https://z.example/{id}\n',
      }),
    );
    expect(await list()).toEqual([
      { id, pattern: 'ZUL-(?P<id>[0-9]+)', url_template: 'https://z.example/{id}' },
    ]);
  });
});

describe('test_realm_linkifiers.py RealmFilterTest.test_reorder_linkifiers', () => {
  const reorder = (ids: unknown): Promise<TestResponse> =>
    iago.patch('/realm/linkifiers', { ordered_linkifier_ids: ids });
  const order = async (): Promise<number[]> => (await list()).map((l) => l.id);

  async function three(): Promise<number[]> {
    return [
      await addOk('1#(?P<id>[123])', 'https://filter.com/foo/{id}'),
      await addOk('2#(?P<id>[123])', 'https://filter.com/bar/{id}'),
      await addOk('3#(?P<id>[123])', 'https://filter.com/baz/{id}'),
    ];
  }

  it('an empty list with no linkifiers succeeds', async () => {
    expectSuccess(await reorder([]));
    expect(await list()).toEqual([]);
  });

  it('creation order is the default order; a reorder sticks', async () => {
    const ids = await three();
    expect(await order()).toEqual(ids);
    const reversed = [ids[2], ids[1], ids[0]];
    expectSuccess(await reorder(reversed));
    expect(await order()).toEqual(reversed);
  });

  it('a new linkifier goes last; deleting one keeps the others in order', async () => {
    const ids = await three();
    const reversed = [ids[2]!, ids[1]!, ids[0]!];
    expectSuccess(await reorder(reversed));
    const fresh = await addOk('3#123', 'https://example.com');
    expect(await order()).toEqual([...reversed, fresh]);
    expectSuccess(await iago.delete(`/realm/filters/${reversed[2]}`));
    expect(await order()).toEqual([reversed[0], reversed[1], fresh]);
  });

  it('a non-existent ID is refused', async () => {
    const ids = await three();
    expectSuccess(await iago.delete(`/realm/filters/${ids[0]}`));
    expectError(
      await reorder([ids[0], ids[2], ids[1]]),
      'The ordered list must enumerate all existing linkifiers exactly once',
    );
    expect(await order()).toEqual([ids[1], ids[2]]);
  });

  it('duplicated IDs are refused', async () => {
    const ids = await three();
    expectError(
      await reorder([ids[2], ids[1], ids[0], ids[2]]),
      'The ordered list must not contain duplicated linkifiers',
    );
    expect(await order()).toEqual(ids);
  });

  it('an incomplete list is refused', async () => {
    const ids = await three();
    expectError(
      await reorder([ids[2], ids[1]]),
      'The ordered list must enumerate all existing linkifiers exactly once',
    );
  });

  it('members are refused', async () => {
    const ids = await three();
    expectError(
      await clientFor(z, 'alice').patch('/realm/linkifiers', {
        ordered_linkifier_ids: [...ids].reverse(),
      }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(await order()).toEqual(ids);
  });
});
