import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let owner: TestClient;
let alice: TestClient;

beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  owner = clientFor(z, 'owner');
  alice = clientFor(z, 'alice');
});
afterEach(() => z.close());

describe('linkifiers', () => {
  const add = (pattern: string, url_template: string, c?: TestClient) =>
    (c ?? owner).post('/realm/filters', { pattern, url_template });

  test('validation messages (RE2, RFC 6570, named groups)', async () => {
    expectError(await add('', 'https://x/{id}'), 'This field cannot be blank.');
    expectError(await add('(foo', 'https://x'), 'Bad regular expression: missing ): (foo');
    expectError(
      await add('ZUL-(?P<id>\\d????)', 'https://x/{id}'),
      'Bad regular expression: bad repetition operator: ????',
    );
    expectError(await add('(?P<id>[0-9]+)', 'https://example.com/{foo'), 'Invalid URL template.');
    expectError(
      await add('(?P<id>[0-9]+)', 'https://x/{hello}/{id}'),
      "Group 'hello' in URL template is not present in linkifier pattern.",
    );
    expectError(
      await add('(?P<id>[0-9]+)-(?P<x>[a-z])', 'https://x/{x}'),
      "Group 'id' in linkifier pattern is not present in URL template.",
    );
    expectError(
      await add('#(?P<id>[0-9]+)', 'https://other/{id}'),
      'Realm filter with this Realm and Pattern already exists.',
    );
    expectError(
      await add('A(?P<id>[0-9]+)', 'https://x/{id}', alice),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectError(
      await owner.post('/realm/filters', { pattern: 'x' }),
      "Missing 'url_template' argument",
      'REQUEST_VARIABLE_MISSING',
    );
  });

  test('order: new ones go last, delete keeps order, reorder needs every ID exactly once', async () => {
    const a = (await add('A-(?P<id>[0-9]+)', 'https://a/{id}')).body.id as number;
    const b = (await add('B-(?P<id>[0-9]+)', 'https://b/{id}')).body.id as number;
    const first = z.org.linkifiers[0]!.id;
    const ids = async (): Promise<number[]> =>
      ((await owner.get('/realm/linkifiers')).body.linkifiers as Array<{ id: number }>).map(
        (l) => l.id,
      );
    expect(await ids()).toEqual([first, a, b]);
    expectError(
      await owner.patch('/realm/linkifiers', { ordered_linkifier_ids: [b, a, a] }),
      'The ordered list must not contain duplicated linkifiers',
    );
    expectError(
      await owner.patch('/realm/linkifiers', { ordered_linkifier_ids: [b, a] }),
      'The ordered list must enumerate all existing linkifiers exactly once',
    );
    expectError(
      await owner.patch('/realm/linkifiers', { ordered_linkifier_ids: [b, a, first, 999] }),
      'The ordered list must enumerate all existing linkifiers exactly once',
    );
    expectSuccess(await owner.patch('/realm/linkifiers', { ordered_linkifier_ids: [b, first, a] }));
    expectSuccess(await owner.delete(`/realm/filters/${first}`));
    expect(await ids()).toEqual([b, a]);
    expectError(await owner.delete(`/realm/filters/${first}`), 'Linkifier not found.');
    expectError(
      await owner.patch(`/realm/filters/${first}`, { pattern: 'x', url_template: 'https://x' }),
      'Linkifier not found.',
    );
  });

  test('register gives an empty list without the linkifier_url_template capability', async () => {
    const without = await owner.post('/register', { fetch_event_types: ['realm_linkifiers'] });
    expect(without.body.realm_linkifiers).toEqual([]);
    const withCap = await owner.post('/register', {
      fetch_event_types: ['realm_linkifiers'],
      client_capabilities: { notification_settings_null: true, linkifier_url_template: true },
    });
    expect(withCap.body.realm_linkifiers).toHaveLength(1);
  });
});

describe('playgrounds', () => {
  const add = (name: string, pygments_language: string, url_template: string) =>
    owner.post('/realm/playgrounds', { name, pygments_language, url_template });

  test('validation messages', async () => {
    expectError(
      await add('x', 'py$', 'https://x/?c={code}'),
      'Invalid characters in pygments language',
    );
    expectError(
      await add('x', 'python', 'https://x/{?test,code}'),
      '"code" should be the only variable present in the URL template',
    );
    expectError(await add('x', 'python', 'https://x/?test={test'), 'Invalid URL template.');
    expectError(
      await add('x', 'python', 'https://x/{?test}'),
      'Missing the required variable "code" in the URL template',
    );
    expectError(
      await add('Python Tutor', 'python', 'https://x/?c={code}'),
      'Realm playground with this Realm, Pygments language and Name already exists.',
    );
    expectSuccess(await add('Another', 'python', 'https://x/?c={code}'));
    expectError(
      await alice.post('/realm/playgrounds', {
        name: 'a',
        pygments_language: 'go',
        url_template: 'https://x/{code}',
      }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
  });

  test('delete: Invalid playground; resets default_code_block_language', async () => {
    expectError(await owner.delete('/realm/playgrounds/99999'), 'Invalid playground');
    z.org.realm.defaultCodeBlockLanguage = 'python';
    expectSuccess(await owner.delete(`/realm/playgrounds/${z.org.playgrounds[0]!.id}`));
    expect(z.org.realm.defaultCodeBlockLanguage).toBe('');
  });
});

describe('saved snippets', () => {
  test('limits, 404s, own snippets only, PATCH with nothing', async () => {
    expectError(
      await alice.post('/saved_snippets', { title: 'x'.repeat(61), content: 'c' }),
      'title is too long (limit: 60 characters)',
    );
    expectError(
      await alice.post('/saved_snippets', { title: '  ', content: 'c' }),
      'title cannot be blank',
    );
    expectError(
      await alice.post('/saved_snippets', { title: 't', content: 'c'.repeat(10001) }),
      'content is too long (limit: 10000 characters)',
    );
    expectError(
      await alice.post('/saved_snippets', { title: 't', content: ' \n ' }),
      'content cannot be blank',
    );
    const id = (await alice.post('/saved_snippets', { title: 't', content: 'c' })).body
      .saved_snippet_id as number;
    expectSuccess(await alice.patch(`/saved_snippets/${id}`, {}));
    expectError(
      await owner.delete(`/saved_snippets/${id}`),
      'Saved snippet does not exist.',
      'BAD_REQUEST',
      404,
    );
    expectError(
      await alice.patch('/saved_snippets/99999', { title: 'x' }),
      'Saved snippet does not exist.',
      'BAD_REQUEST',
      404,
    );
    expect(
      (await owner.get('/saved_snippets')).body.saved_snippets.map(
        (s: { title: string }) => s.title,
      ),
    ).toEqual(['Welcome']);
  });
});

describe('channel folders', () => {
  test('create: admin only, names, duplicates case-insensitive, markdown description', async () => {
    expectError(
      await alice.post('/channel_folders/create', { name: 'x', description: '' }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    const r = await owner.post('/channel_folders/create', {
      name: 'Frontend',
      description: 'Channels for **backend** discussions',
    });
    expectSuccess(r);
    expectError(
      await owner.post('/channel_folders/create', { name: 'frontEND', description: '' }),
      'Channel folder name already in use',
    );
    expectError(
      await owner.post('/channel_folders/create', { name: '', description: '' }),
      "Channel folder name can't be empty.",
    );
    expectError(
      await owner.post('/channel_folders/create', { name: 'abc\u0000', description: '' }),
      'Invalid character in channel folder name, at position 4.',
    );
    const list = await alice.get('/channel_folders');
    const f = list.body.channel_folders.find(
      (x: { id: number }) => x.id === r.body.channel_folder_id,
    );
    expect(f.rendered_description).toBe('<p>Channels for <strong>backend</strong> discussions</p>');
    expect(f.order).toBe(f.id);
  });

  test('archive needs an empty folder (archived channels count); include_archived; reorder', async () => {
    const folder = z.org.folders[0]!;
    const eng = z.org.channels.find((c) => c.name === 'engineering')!;
    expectError(
      await owner.patch(`/channel_folders/${folder.id}`, { is_archived: true }),
      'You need to remove all the channels from this folder to archive it.',
    );
    expectSuccess(await owner.patch(`/streams/${eng.id}`, { folder_id: null }));
    expectSuccess(await owner.patch(`/channel_folders/${folder.id}`, { is_archived: true }));
    expect((await alice.get('/channel_folders')).body.channel_folders).toEqual([]);
    expect(
      (await alice.get('/channel_folders', { include_archived: true })).body.channel_folders,
    ).toHaveLength(1);
    expectError(
      await owner.patch('/channel_folders/99999', { name: 'x' }),
      'Invalid channel folder ID',
    );
    expectError(
      await owner.patch(`/streams/${eng.id}`, { folder_id: 99999 }),
      'Invalid channel folder ID',
    );
    const b = (await owner.post('/channel_folders/create', { name: 'B', description: '' })).body
      .channel_folder_id as number;
    expectError(await owner.patch('/channel_folders', { order: [b] }), 'Invalid order mapping.');
    expectSuccess(await owner.patch('/channel_folders', { order: [b, folder.id] }));
    const all = await owner.get('/channel_folders', { include_archived: true });
    expect(all.body.channel_folders.map((x: { id: number }) => x.id)).toEqual([b, folder.id]);
  });
});
