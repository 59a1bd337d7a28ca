/**
 * Conformance: custom profile fields and users' values, ported from
 * zerver/tests/test_custom_profile_data.py and the profile data cases of
 * zerver/tests/test_users.py (Zulip at feature level 442). iago → admin, hamlet → alice,
 * cordelia → carol, aaron → bob. Like Zulip's test realm, each case starts with its fields:
 * Phone number, Biography, Favorite food, Favorite editor (Vim "0", Emacs "1"), Birthday,
 * Favorite website, Mentor, GitHub username and Pronouns.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { validateResponse } from '../support/openapi-validate';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let iago: TestClient;
let hamlet: TestClient;

const SHORT_TEXT = 1;
const LONG_TEXT = 2;
const SELECT = 3;
const DATE = 4;
const URL = 5;
const USER = 6;
const EXTERNAL_ACCOUNT = 7;
const PRONOUNS = 8;
const ADMIN_REQUIRED = ['Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'] as const;

beforeAll(() => {
  validateResponse('GET', '/users/me', 200, { result: 'success', msg: '' });
});
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  iago = clientFor(z, 'admin');
  hamlet = clientFor(z, 'alice');
  // zerver/lib/test_classes.py: the test realm's fields.
  const fields: [string, number, Record<string, unknown>?][] = [
    ['Phone number', SHORT_TEXT],
    ['Biography', LONG_TEXT],
    ['Favorite food', SHORT_TEXT],
    [
      'Favorite editor',
      SELECT,
      { '0': { text: 'Vim', order: '1' }, '1': { text: 'Emacs', order: '2' } },
    ],
    ['Birthday', DATE],
    ['Favorite website', URL],
    ['Mentor', USER],
    ['GitHub username', EXTERNAL_ACCOUNT, { subtype: 'github' }],
    ['Pronouns', PRONOUNS],
  ];
  for (const [name, field_type, field_data] of fields)
    expectSuccess(await iago.post('/realm/profile_fields', { name, field_type, field_data }));
});
afterEach(() => z.close());

interface Field {
  id: number;
  name: string;
  type: number;
  hint: string;
  field_data: string;
  order: number;
  required: boolean;
  editable_by_user: boolean;
  display_in_profile_summary?: boolean;
}

async function fields(): Promise<Field[]> {
  const res = await iago.get('/realm/profile_fields');
  expectSuccess(res);
  return res.body.custom_fields as Field[];
}

async function fieldId(name: string): Promise<number> {
  const f = (await fields()).find((x) => x.name === name);
  if (!f) throw new Error(`no field ${name}`);
  return f.id;
}

const create = (data: Record<string, unknown>) => iago.post('/realm/profile_fields', data);
const update = (id: number, data: Record<string, unknown>) =>
  iago.patch(`/realm/profile_fields/${id}`, data);

/** A user's values by field ID, as `GET /users/{id}` with profile data gives them. */
async function values(who: string): Promise<Record<string, { value: string }>> {
  const id = z.org.users.find((u) => u.email === `${who}@zulip-cdk.example`)!.id;
  const res = await iago.get(`/users/${id}`, { include_custom_profile_fields: true });
  expectSuccess(res);
  return res.body.user.profile_data as Record<string, { value: string }>;
}

const userId = (who: string): number =>
  z.org.users.find((u) => u.email === `${who}@zulip-cdk.example`)!.id;

describe('test_custom_profile_data.py CreateCustomProfileFieldTest', () => {
  it("test_create: JSON, blank label, lengths, type, summary rules, order = id, the label's uniqueness", async () => {
    const data: Record<string, unknown> = { name: 'Phone', field_type: 'text id' };
    expectError(await create(data), 'field_type is not valid JSON');
    Object.assign(data, { name: '', field_type: 100 });
    expectError(await create(data), 'Label cannot be blank.');
    data.name = '*'.repeat(41);
    expectError(await create(data), 'name is too long (limit: 40 characters)');
    data.name = 'Phone';
    expectError(await create(data), 'Invalid field type.');
    Object.assign(data, { hint: '*'.repeat(81), field_type: SHORT_TEXT });
    expectError(await create(data), 'hint is too long (limit: 80 characters)');
    Object.assign(data, {
      hint: 'Contact number',
      field_type: LONG_TEXT,
      display_in_profile_summary: 'true',
    });
    expectError(await create(data), 'Field type not supported for display in profile summary.');
    data.field_type = USER;
    expectError(await create(data), 'Field type not supported for display in profile summary.');
    data.field_type = SHORT_TEXT;
    const res = await create(data);
    expectSuccess(res);
    const phone = (await fields()).find((f) => f.name === 'Phone')!;
    expect(phone.order).toBe(phone.id);
    expect(res.body.id).toBe(phone.id);

    Object.assign(data, { name: 'Name ', hint: 'Some name', display_in_profile_summary: 'true' });
    expectSuccess(await create(data));
    const named = (await fields()).find((f) => f.name === 'Name')!;
    expect(named.order).toBe(named.id);
    expectError(
      await create(data),
      'Only 2 custom profile fields can be displayed in the profile summary.',
    );
    data.display_in_profile_summary = 'false';
    expectError(await create(data), 'A field with that label already exists.');
  });

  it.each([
    ['invalid', 'field_data is not valid JSON'],
    [{ python: ['1'], java: ['2'] }, 'field_data["python"]["dict[str,str]"] is not a dict'],
    [{ '0': { text: 'Python' }, '1': { text: 'Java' } }, 'order key is missing from field_data'],
    [
      { '0': { text: 'Python', order: '' }, '1': { text: 'Java', order: '2' } },
      'field_data["order"] cannot be blank.',
    ],
    [
      { '': { text: 'Python', order: '1' }, '1': { text: 'Java', order: '2' } },
      "'value' cannot be blank.",
    ],
    [
      { '0': { text: 'Python', order: 1 }, '1': { text: 'Java', order: '2' } },
      'field_data["0"]["dict[str,str]"]["order"] is not a string',
    ],
    [{}, 'Field must have at least one choice.'],
    [
      { '0': { text: 'Duplicate', order: '1' }, '1': { text: 'Duplicate', order: '2' } },
      'Field must not have duplicate choices.',
    ],
  ])('test_create_select_field: field_data %j → %s', async (field_data, msg) => {
    expectError(
      await create({ name: 'Favorite programming language', field_type: SELECT, field_data }),
      msg,
    );
  });

  it('test_create_select_field: a valid list of options is created', async () => {
    expectSuccess(
      await create({
        name: 'Favorite programming language',
        field_type: SELECT,
        field_data: { '0': { text: 'Python', order: '1' }, '1': { text: 'Java', order: '2' } },
      }),
    );
  });

  it("test_create_default_external_account_field: Zulip's own name and hint; only display_in_profile_summary changes", async () => {
    // The realm's GitHub field is not part of this case.
    expectSuccess(await iago.delete(`/realm/profile_fields/${await fieldId('GitHub username')}`));
    const field_data = { subtype: 'twitter' };
    const res = await create({
      field_type: EXTERNAL_ACCOUNT,
      field_data,
      hint: 'Not required field hint',
      name: 'Not required field name',
    });
    expectSuccess(res);
    let twitter = (await fields()).find((f) => f.id === res.body.id)!;
    expect([twitter.name, twitter.hint]).toEqual(['Twitter username', '']);
    expectSuccess(await iago.delete(`/realm/profile_fields/${twitter.id}`));
    const again = await create({ field_type: EXTERNAL_ACCOUNT, field_data });
    expectSuccess(again);
    twitter = (await fields()).find((f) => f.id === again.body.id)!;
    expectError(
      await update(twitter.id, { name: 'Twitter', field_type: EXTERNAL_ACCOUNT }),
      'Default custom field cannot be updated.',
    );
    expectSuccess(
      await update(twitter.id, {
        name: twitter.name,
        hint: twitter.hint,
        field_data,
        display_in_profile_summary: 'true',
      }),
    );
    expectSuccess(await iago.delete(`/realm/profile_fields/${twitter.id}`));
  });

  it.each([
    ['invalid', 'field_data is not valid JSON'],
    [{}, 'subtype key is missing from field_data'],
    [{ subtype: '' }, 'field_data["subtype"] cannot be blank.'],
    [{ subtype: '123' }, 'Invalid external account type'],
    [{ subtype: 'linkedin' }, 'Invalid external account type'],
  ])('test_create_external_account_field: field_data %j → %s', async (field_data, msg) => {
    expectError(
      await create({ name: 'Twitter username', field_type: EXTERNAL_ACCOUNT, field_data }),
      msg,
    );
  });

  it.each([
    [{ subtype: 'custom' }, 'Custom external account must define URL pattern'],
    [
      { subtype: 'custom', url_pattern: 123 },
      'field_data["url_pattern"]["dict[str,str]"] is not a dict',
    ],
    [{ subtype: 'custom', url_pattern: 'invalid' }, "URL pattern must contain '%(username)s'."],
    [
      {
        subtype: 'custom',
        url_pattern: 'https://www.reddit.com/%(username)s/user/%(username)s',
      },
      "URL pattern must contain '%(username)s'.",
    ],
    [
      { subtype: 'custom', url_pattern: 'reddit.com/%(username)s' },
      'field_data["url_pattern"] is not a URL',
    ],
  ])('test_create_external_account_field: custom %j → %s', async (field_data, msg) => {
    expectError(await create({ name: 'Reddit', field_type: EXTERNAL_ACCOUNT, field_data }), msg);
  });

  it('test_create_external_account_field: a custom account with its URL pattern; the label stays unique', async () => {
    const data = {
      name: 'Reddit',
      field_type: EXTERNAL_ACCOUNT,
      field_data: { subtype: 'custom', url_pattern: 'https://www.reddit.com/user/%(username)s' },
    };
    expectSuccess(await create(data));
    const reddit = (await fields()).find((f) => f.name === 'Reddit')!;
    expect(reddit.type).toBe(EXTERNAL_ACCOUNT);
    expect(JSON.parse(reddit.field_data)).toEqual(data.field_data);
    expectError(await create(data), 'A field with that label already exists.');
  });

  it('test_create_field_of_type_user and test_create_field_of_type_pronouns', async () => {
    expectSuccess(await create({ name: 'Your mentor', field_type: USER }));
    expectSuccess(
      await create({
        name: 'Pronouns for you',
        hint: 'What pronouns should people use to refer to you?',
        field_type: PRONOUNS,
      }),
    );
  });

  it('test_not_realm_admin: creating and deleting need an administrator', async () => {
    expectError(await hamlet.post('/realm/profile_fields'), ...ADMIN_REQUIRED);
    expectError(await hamlet.delete('/realm/profile_fields/1'), ...ADMIN_REQUIRED);
  });
});

describe('test_custom_profile_data.py DeleteCustomProfileFieldTest', () => {
  it('test_delete: an unknown ID, then the field is gone', async () => {
    expectError(await iago.delete('/realm/profile_fields/100'), 'Field id 100 not found.');
    const id = await fieldId('Phone number');
    expectSuccess(await iago.delete(`/realm/profile_fields/${id}`));
    expect((await fields()).map((f) => f.id)).not.toContain(id);
  });

  it('test_delete_field_value: an unknown field, then a value removed twice without error', async () => {
    expectError(
      await iago.delete('/users/me/profile_data', { data: [1234] }),
      'Field id 1234 not found.',
    );
    const mentor = await fieldId('Mentor');
    expectSuccess(
      await iago.patch('/users/me/profile_data', {
        data: [{ id: mentor, value: [userId('bob')] }],
      }),
    );
    expect((await values('admin'))[String(mentor)]?.value).toBe(`[${userId('bob')}]`);
    expectSuccess(await iago.delete('/users/me/profile_data', { data: [mentor] }));
    expect((await values('admin'))[String(mentor)]).toBeUndefined();
    expectSuccess(await iago.delete('/users/me/profile_data', { data: [mentor] }));
  });

  it("test_delete_internals: deleting a field deletes every user's value of it", async () => {
    const phone = await fieldId('Phone number');
    expectSuccess(
      await iago.patch('/users/me/profile_data', { data: [{ id: phone, value: '123456' }] }),
    );
    expect((await values('admin'))[String(phone)]?.value).toBe('123456');
    expectSuccess(await iago.delete(`/realm/profile_fields/${phone}`));
    expect((await values('admin'))[String(phone)]).toBeUndefined();
  });
});

describe('test_custom_profile_data.py UpdateCustomProfileFieldTest', () => {
  it('test_update: errors, then every property; what is not sent is kept; the label is stripped', async () => {
    expectError(await update(100, { name: 'Phone number' }), 'Field id 100 not found.');
    const id = await fieldId('Phone number');
    expectError(await update(id, { name: '' }), 'Label cannot be blank.');
    expectError(
      await update(id, { name: '*'.repeat(41) }),
      'name is too long (limit: 40 characters)',
    );
    expectError(
      await update(id, { hint: '*'.repeat(81) }),
      'hint is too long (limit: 80 characters)',
    );
    expectError(await update(id, { required: 'invalid value' }), 'required is not valid JSON');
    expectError(
      await update(id, { editable_by_user: 'invalid value' }),
      'editable_by_user is not valid JSON',
    );
    expectSuccess(
      await update(id, {
        name: 'New phone number',
        hint: 'New contact number',
        display_in_profile_summary: 'true',
        required: 'true',
        editable_by_user: 'false',
      }),
    );
    const get = async () => (await fields()).find((f) => f.id === id)!;
    expect(await get()).toMatchObject({
      name: 'New phone number',
      hint: 'New contact number',
      type: SHORT_TEXT,
      display_in_profile_summary: true,
      required: true,
      editable_by_user: false,
    });
    expect(await fields()).toHaveLength(9);
    expectSuccess(await update(id, { hint: 'New hint' }));
    expect(await get()).toMatchObject({
      hint: 'New hint',
      required: true,
      editable_by_user: false,
    });
    expectSuccess(await update(id, { name: 'Name ' }));
    expect((await get()).name).toBe('Name');
    expectSuccess(await update(id, { hint: '' }));
    expect((await get()).hint).toBe('');
  });

  it('test_update_display_in_profile_summary: not JSON, kept when not sent, at most 2', async () => {
    const phone = await fieldId('Phone number');
    expectError(
      await update(phone, { display_in_profile_summary: 'invalid value' }),
      'display_in_profile_summary is not valid JSON',
    );
    expectSuccess(await update(phone, { display_in_profile_summary: 'true' }));
    expectSuccess(await update(phone, { hint: 'New hint' }));
    expect((await fields()).find((f) => f.id === phone)!.display_in_profile_summary).toBe(true);
    expectSuccess(await update(await fieldId('Pronouns'), { display_in_profile_summary: 'true' }));
    expectError(
      await update(await fieldId('Birthday'), { display_in_profile_summary: 'true' }),
      'Only 2 custom profile fields can be displayed in the profile summary.',
    );
  });

  it('test_update_field_data: not JSON, a choice that is not a dict, then new choices', async () => {
    const id = await fieldId('Favorite editor');
    expectError(await update(id, { field_data: 'invalid' }), 'field_data is not valid JSON');
    expectError(
      await update(id, { field_data: { '0': 'Vim', '1': { order: '2', text: 'Emacs' } } }),
      'field_data is not a dict',
    );
    expectSuccess(
      await update(id, {
        field_data: {
          '0': { order: '1', text: 'Vim' },
          '1': { order: '2', text: 'Emacs' },
          '2': { order: '3', text: 'Notepad' },
        },
      }),
    );
    expectSuccess(await update(id, { hint: 'new hint' }));
    expect((await fields()).find((f) => f.id === id)!.hint).toBe('new hint');
  });

  it('test_update_is_aware_of_uniqueness: a rename to a taken label', async () => {
    expectSuccess(await create({ name: 'Phone', field_type: SHORT_TEXT }));
    const res = await create({ name: 'Phone 1', field_type: SHORT_TEXT });
    expectSuccess(res);
    expectError(
      await update(res.body.id as number, { name: 'Phone' }),
      'A field with that label already exists.',
    );
  });

  it('test_update_invalid_field: an unknown field', async () => {
    expectError(
      await iago.patch('/users/me/profile_data', { data: [{ id: 1234, value: '12' }] }),
      'Field id 1234 not found.',
    );
  });

  it.each([
    ['Phone number', 't'.repeat(201), 'Phone number is too long (limit: 50 characters)'],
    ['Birthday', 'a-b-c', 'Birthday is not a date'],
    ['Birthday', '1909-3-5', 'Birthday is not a date'],
    ['Birthday', '19090305', 'Birthday is not a date'],
    ['Birthday', [123], 'Birthday is not a string'],
    ['Favorite website', 'not URL', 'Favorite website is not a URL'],
    ['Mentor', [1000], 'Invalid user IDs: 1000'],
    ['Favorite editor', 'foobar', "'foobar' is not a valid choice for 'Favorite editor'."],
  ])(
    'test_update_invalid_short_text, _date, _url, _user_field, _select_field: %s = %j',
    async (name, value, msg) => {
      expectError(
        await iago.patch('/users/me/profile_data', {
          data: [{ id: await fieldId(name), value }],
        }),
        msg,
      );
    },
  );

  // zerver/lib/types.py ProfileDataElementUpdateDict (a TypedDict, `value: str | list[int]`,
  // required, not nullable); the wording as in the profile_data case below.
  it.each([
    [[{ id: 1 }], 'data[0]["value"] field is missing: Field required'],
    [[{ id: 1, value: null }], 'data[0]["value"]["str"] is not a string'],
    [[{ id: 1, value: { a: 1 } }], 'data[0]["value"]["str"] is not a string'],
    [[5], 'data[0] is not a dict'],
  ])('PATCH /users/me/profile_data: data %j is refused while parsing', async (data, msg) => {
    const phone = await fieldId('Phone number');
    expectSuccess(
      await iago.patch('/users/me/profile_data', { data: [{ id: phone, value: '1' }] }),
    );
    const withPhone = data.map((x) => (typeof x === 'object' ? { ...x, id: phone } : x));
    expectError(await iago.patch('/users/me/profile_data', { data: withPhone }), msg);
    expect((await values('admin'))[String(phone)]?.value).toBe('1');
  });

  it('test_update_profile_data_successfully: every type, then one field', async () => {
    const wanted: [string, string | number[]][] = [
      ['Phone number', '*short* text data'],
      ['Biography', '~~short~~ **long** text data'],
      ['Favorite food', 'long short text data'],
      ['Favorite editor', '0'],
      ['Birthday', '1909-03-05'],
      ['Favorite website', 'https://zulip.com'],
      ['Mentor', [userId('carol')]],
      ['GitHub username', 'zulip-mobile'],
      ['Pronouns', 'he/him'],
    ];
    const data = await Promise.all(
      wanted.map(async ([name, value]) => ({ id: await fieldId(name), value })),
    );
    expectSuccess(await iago.patch('/users/me/profile_data', { data }));
    const got = await values('admin');
    for (const { id, value } of data)
      expect(got[String(id)]?.value).toBe(
        typeof value === 'string' ? value : JSON.stringify(value),
      );
    const bio = await fieldId('Biography');
    expectSuccess(
      await iago.patch('/users/me/profile_data', { data: [{ id: bio, value: 'foobar' }] }),
    );
    expect((await values('admin'))[String(bio)]?.value).toBe('foobar');
  });

  it('test_removing_option_from_select_field: the values of a removed choice go', async () => {
    const id = await fieldId('Favorite editor');
    await iago.patch('/users/me/profile_data', { data: [{ id, value: '0' }] });
    await hamlet.patch('/users/me/profile_data', { data: [{ id, value: '1' }] });
    expectSuccess(
      await update(id, {
        name: 'Favorite editor',
        field_data: { '1': { text: 'Emacs', order: '1' } },
      }),
    );
    expect((await values('admin'))[String(id)]).toBeUndefined();
    expect((await values('alice'))[String(id)]?.value).toBe('1');
  });

  it('test_default_external_account_type_field: subtype, name and URL pattern cannot change', async () => {
    const id = await fieldId('GitHub username');
    for (const data of [
      { name: 'GitHub username', field_type: EXTERNAL_ACCOUNT, field_data: { subtype: 'twitter' } },
      { name: 'GitHub', field_type: EXTERNAL_ACCOUNT, field_data: { subtype: 'github' } },
      {
        name: 'GitHub username',
        field_type: EXTERNAL_ACCOUNT,
        field_data: { subtype: 'github', url_pattern: 'invalid' },
      },
    ])
      expectError(await update(id, data), 'Default custom field cannot be updated.');
  });

  it('test_update_with_editable_by_user: administrators always may; users only when editable', async () => {
    const res = await iago.post('/realm/profile_fields', {
      name: 'Dummy field',
      field_type: SHORT_TEXT,
      editable_by_user: 'false',
    });
    expectSuccess(res);
    const id = res.body.id as number;
    const data = [{ id, value: 'test' }];
    expectSuccess(await iago.patch('/users/me/profile_data', { data }));
    expect((await values('admin'))[String(id)]?.value).toBe('test');
    const aaron = clientFor(z, 'bob');
    expectSuccess(await iago.patch(`/users/${userId('bob')}`, { profile_data: data }));
    expect((await values('bob'))[String(id)]?.value).toBe('test');
    expectError(
      await aaron.patch('/users/me/profile_data', { data }),
      'You are not allowed to change this field. Contact an administrator to update it.',
    );
    expectSuccess(await update(id, { editable_by_user: 'true' }));
    expectSuccess(await aaron.patch('/users/me/profile_data', { data: [{ id, value: 'test2' }] }));
    expect((await values('bob'))[String(id)]?.value).toBe('test2');
  });
});

describe('test_custom_profile_data.py ListCustomProfileFieldTest', () => {
  it('test_list: every field', async () => {
    expect(await fields()).toHaveLength(9);
  });

  it('test_reorder and test_reorder_duplicates: order = place in the list; a repeated ID takes its last place', async () => {
    const ids = (await fields()).map((f) => f.id).reverse();
    expectSuccess(await iago.patch('/realm/profile_fields', { order: ids }));
    const got = await fields();
    expect(got.map((f) => f.id)).toEqual(ids);
    for (const f of got) expect(ids[f.order]).toBe(f.id);
    const dup = [...ids, ids[0]!];
    expectSuccess(await iago.patch('/realm/profile_fields', { order: dup }));
    expect((await fields()).find((f) => f.id === ids[0])!.order).toBe(dup.length - 1);
  });

  it('test_reorder_unauthorized: an administrator only', async () => {
    const ids = (await fields()).map((f) => f.id);
    expectError(await hamlet.patch('/realm/profile_fields', { order: ids }), ...ADMIN_REQUIRED);
  });

  it('test_reorder_invalid: every field must be in the order', async () => {
    expectError(
      await iago.patch('/realm/profile_fields', { order: [100, 200, 300] }),
      'Invalid order mapping.',
    );
    expectError(
      await iago.patch('/realm/profile_fields', { order: [1, 2] }),
      'Invalid order mapping.',
    );
  });
});

describe('test_users.py profile data on PATCH /users/{user_id}', () => {
  it('test_admin_user_can_change_profile_data: every type, invalid values, clearing, setting again', async () => {
    const cordelia = userId('carol');
    expectSuccess(await update(await fieldId('Biography'), { editable_by_user: 'false' }));
    const all: Record<string, string | number[]> = {
      'Phone number': 'short text data',
      Biography: 'long text data',
      'Favorite food': 'short text data',
      'Favorite editor': '0',
      Birthday: '1909-03-05',
      'Favorite website': 'https://zulip.com',
      Mentor: [cordelia],
      'GitHub username': 'timabbott',
      Pronouns: 'she/her',
    };
    const ids = Object.fromEntries(
      await Promise.all(Object.keys(all).map(async (n) => [n, await fieldId(n)] as const)),
    );
    const patch = (profile_data: unknown) => iago.patch(`/users/${cordelia}`, { profile_data });
    expectSuccess(await patch(Object.entries(all).map(([n, value]) => ({ id: ids[n], value }))));
    const got = await values('carol');
    for (const [n, v] of Object.entries(all))
      expect(got[String(ids[n])]?.value).toBe(typeof v === 'string' ? v : JSON.stringify(v));

    for (const [name, value, msg] of [
      [
        'Favorite editor',
        'invalid choice',
        "'invalid choice' is not a valid choice for 'Favorite editor'.",
      ],
      ['Birthday', '1909-34-55', 'Birthday is not a date'],
      ['Favorite website', 'not url', 'Favorite website is not a URL'],
      ['Mentor', 'not list of user ids', 'User IDs is not a list'],
    ] as const)
      expectError(await patch([{ id: ids[name], value }]), msg);
    expectError(await patch([{ id: 9001, value: '' }]), 'Field id 9001 not found.');
    expectError(await patch([{ id: 9001, value: 'some data' }]), 'Field id 9001 not found.');

    expectSuccess(
      await patch(Object.keys(all).map((n) => ({ id: ids[n], value: n === 'Mentor' ? [] : '' }))),
    );
    expect(await values('carol')).toEqual({});

    const hamletId = userId('alice');
    expectSuccess(
      await patch(
        Object.keys(all).map((n) => ({
          id: ids[n],
          value:
            n === 'Biography'
              ? 'A test user'
              : n === 'Favorite website'
                ? 'https://zulip.github.io'
                : n === 'Mentor'
                  ? [hamletId]
                  : n === 'GitHub username'
                    ? 'timabbott'
                    : null,
        })),
      ),
    );
    const after = await values('carol');
    expect(Object.keys(after).sort()).toEqual(
      [ids.Biography, ids['Favorite website'], ids.Mentor, ids['GitHub username']]
        .map(String)
        .sort(),
    );
    expect(after[String(ids.Mentor)]?.value).toBe(`[${hamletId}]`);
  });

  it('test_non_admin_user_cannot_change_profile_data: Insufficient permission, even for oneself', async () => {
    const data = [{ id: await fieldId('Biography'), value: 'New hamlet Biography' }];
    const cordelia = clientFor(z, 'carol');
    expectError(
      await cordelia.patch(`/users/${userId('alice')}`, { profile_data: data }),
      'Insufficient permission',
    );
    expectError(
      await cordelia.patch(`/users/${userId('carol')}`, { profile_data: data }),
      'Insufficient permission',
    );
  });

  it('a refused value rolls the whole request back (update_user_by_id_api is atomic)', async () => {
    const phone = await fieldId('Phone number');
    const birthday = await fieldId('Birthday');
    expectError(
      await iago.patch(`/users/${userId('carol')}`, {
        full_name: 'Cordelia Changed',
        profile_data: [
          { id: phone, value: '123' },
          { id: birthday, value: 'never' },
        ],
      }),
      'Birthday is not a date',
    );
    expect(await values('carol')).toEqual({});
    expect(z.org.users.find((u) => u.id === userId('carol'))!.fullName).toBe('Carol Member');
  });

  // zerver/views/users.py ProfileDataElement (`value: str | list[int] | None`, no default: required)
  // parsed by typed_endpoint (zerver/lib/typed_endpoint.py parse_value_for_parameter) with the
  // wording of test_subscription_settings.py ('subscription_data[0]["value"] field is missing'),
  // test_subs.py ('Invalid add[0]: Input should be a valid dictionary or instance of …') and
  // test_custom_profile_data.py test_create_select_field (a union names its member:
  // 'field_data["0"]["dict[str,str]"]["order"] is not a string').
  it('profile_data: value is required, and the shape is checked before the user is looked up', async () => {
    const phone = await fieldId('Phone number');
    const carol = userId('carol');
    expectSuccess(
      await iago.patch(`/users/${carol}`, { profile_data: [{ id: phone, value: '1' }] }),
    );
    expectError(
      await iago.patch(`/users/${carol}`, { profile_data: [{ id: phone }] }),
      'profile_data[0]["value"] field is missing: Field required',
    );
    expect((await values('carol'))[String(phone)]?.value).toBe('1');
    for (const [profile_data, msg] of [
      [{ a: 1 }, 'profile_data is not a list'],
      [
        [5],
        'Invalid profile_data[0]: Input should be a valid dictionary or instance of ProfileDataElement',
      ],
      [[{ value: 'x' }], 'profile_data[0]["id"] field is missing: Field required'],
      [[{ id: phone, value: 5 }], 'profile_data[0]["value"]["str"] is not a string'],
      [[{ id: phone, value: [1, 'a'] }], 'profile_data[0]["value"]["str"] is not a string'],
    ] as const) {
      expectError(await iago.patch('/users/99999', { profile_data }), msg);
      // Before the role check too: a member changing someone else.
      expectError(await hamlet.patch(`/users/${carol}`, { profile_data }), msg);
    }
  });
});

describe('zerver/lib/events.py fetch_initial_state_data: custom_profile_fields', () => {
  it('register lists the fields in order and the types; realm_users carry profile_data', async () => {
    const phone = await fieldId('Phone number');
    expectSuccess(
      await iago.patch('/users/me/profile_data', { data: [{ id: phone, value: '**bold**' }] }),
    );
    const res = await iago.post('/register', {
      fetch_event_types: ['custom_profile_fields', 'realm_user'],
    });
    expectSuccess(res);
    expect((res.body.custom_profile_fields as Field[]).map((f) => f.name)).toEqual(
      (await fields()).map((f) => f.name),
    );
    expect(res.body.custom_profile_field_types.SELECT).toEqual({ id: 3, name: 'List of options' });
    const me = (
      res.body.realm_users as { user_id: number; profile_data: Record<string, unknown> }[]
    ).find((u) => u.user_id === userId('admin'))!;
    expect(me.profile_data[String(phone)]).toEqual({
      value: '**bold**',
      rendered_value: expect.stringContaining('<strong>bold</strong>') as string,
    });
  });
});

/** An event as the queue returns it. */
interface Ev {
  id: number;
  type: string;
  op?: string;
  fields?: Field[];
  person?: { user_id: number; custom_profile_field?: Record<string, unknown> };
}

describe('events (test_events.py)', () => {
  async function queue(types: string[]): Promise<() => Promise<Ev[]>> {
    const r = await iago.post('/register', { event_types: types });
    expectSuccess(r);
    const id = r.body.queue_id as string;
    let last = -1;
    return async () => {
      const res = await iago.get('/events', {
        queue_id: id,
        last_event_id: last,
        dont_block: true,
      });
      expectSuccess(res);
      const events = (res.body.events as Ev[]).filter((e) => e.id > last);
      for (const e of events) last = Math.max(last, e.id);
      return events;
    };
  }

  it('test_custom_profile_fields_events: create, update, delete and reorder each send the whole list', async () => {
    const drain = await queue(['custom_profile_fields']);
    const res = await create({ name: 'Expertise', field_type: LONG_TEXT });
    const id = res.body.id as number;
    expectSuccess(await update(await fieldId('Biography'), { hint: 'Biography of the user' }));
    expectSuccess(await iago.delete(`/realm/profile_fields/${id}`));
    const ids = (await fields()).map((f) => f.id).reverse();
    expectSuccess(await iago.patch('/realm/profile_fields', { order: ids }));
    const events = await drain();
    expect(events.map((e) => [e.type, e.fields?.length])).toEqual([
      ['custom_profile_fields', 10],
      ['custom_profile_fields', 10],
      ['custom_profile_fields', 9],
      ['custom_profile_fields', 9],
    ]);
    expect(events[3]!.fields?.map((f) => f.id)).toEqual(ids);
  });

  it('test_custom_profile_field_data_events: realm_user update with the value (rendered for text); none when unchanged', async () => {
    const drain = await queue(['realm_user']);
    const bio = await fieldId('Biography');
    const mentor = await fieldId('Mentor');
    const zoe = userId('erin');
    expectSuccess(
      await iago.patch('/users/me/profile_data', { data: [{ id: bio, value: 'New value' }] }),
    );
    expectSuccess(
      await iago.patch('/users/me/profile_data', { data: [{ id: mentor, value: [zoe] }] }),
    );
    expectSuccess(
      await iago.patch('/users/me/profile_data', { data: [{ id: mentor, value: [zoe] }] }),
    );
    const events = await drain();
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ type: 'realm_user', op: 'update' });
    expect(Object.keys(events[0]!.person?.custom_profile_field ?? {}).sort()).toEqual([
      'id',
      'rendered_value',
      'value',
    ]);
    expect(events[1]!.person?.custom_profile_field).toEqual({ id: mentor, value: `[${zoe}]` });
  });
});
