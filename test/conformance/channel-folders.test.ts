/**
 * Conformance: channel folders, ported from zerver/tests/test_channel_folders.py (Zulip at
 * feature level 442). Zulip's users map to the seed's: iago → admin, hamlet → alice,
 * shiva → moderator, polonius → guest, desdemona → owner.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { validateResponse } from '../support/openapi-validate';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let iago: TestClient;
let hamlet: TestClient;

// Parse zulip.yaml before any emulator socket exists: a first validation inside a test blocks
// the event loop for seconds under load, past the server's 5 s keep-alive, and the next
// request on the pooled socket can then fail with ECONNRESET.
beforeAll(() => {
  validateResponse('GET', '/users/me', 200, { result: 'success', msg: '' });
});
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  iago = clientFor(z, 'admin');
  hamlet = clientFor(z, 'alice');
});
afterEach(() => z.close());

interface Folder {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  order: number;
  is_archived: boolean;
  creator_id: number;
}

const userId = (local: string): number =>
  z.org.users.find((u) => u.email === `${local}@zulip-cdk.example`)!.id;

async function folders(includeArchived = false): Promise<Folder[]> {
  const res = await iago.get('/channel_folders', { include_archived: includeArchived });
  expectSuccess(res);
  return res.body.channel_folders as Folder[];
}

async function create(name: string, description = '', c: TestClient = iago): Promise<number> {
  const res = await c.post('/channel_folders/create', { name, description });
  expectSuccess(res);
  return res.body.channel_folder_id as number;
}

/** ChannelFoldersTestCase.setUp: Frontend, Backend (iago) and Marketing (desdemona). */
async function setUp(): Promise<{ frontend: number; backend: number; marketing: number }> {
  const frontend = await create('Frontend', 'Channels for frontend discussions');
  const backend = await create('Backend', 'Channels for **backend** discussions');
  const marketing = await create(
    'Marketing',
    'Channels for marketing discussions',
    clientFor(z, 'owner'),
  );
  return { frontend, backend, marketing };
}

const byName = async (name: string, includeArchived = true): Promise<Folder | undefined> =>
  (await folders(includeArchived)).find((f) => f.name === name);

describe('test_channel_folders.py ChannelFolderCreationTest', () => {
  it('test_creating_channel_folder: members (shiva) are refused, admins create; order = id', async () => {
    expectError(
      await clientFor(z, 'moderator').post('/channel_folders/create', {
        name: 'Frontend',
        description: '',
      }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(await byName('Frontend')).toBeUndefined();
    const id = await create('Frontend', '');
    const f = await byName('Frontend');
    expect(f).toMatchObject({ id, name: 'Frontend', description: '', order: id });
  });

  it('test_creating_channel_folder_with_duplicate_name: "Channel folder name already in use"', async () => {
    await create('Frontend');
    expectError(
      await iago.post('/channel_folders/create', { name: 'Frontend', description: '' }),
      'Channel folder name already in use',
    );
    expect((await folders(true)).filter((f) => f.name === 'Frontend')).toHaveLength(1);
  });

  it('test_creating_channel_folder_with_duplicate_name: archived folder names can be reused', async () => {
    const first = await create('Frontend');
    expectSuccess(await iago.patch(`/channel_folders/${first}`, { is_archived: true }));
    const second = await create('Frontend');
    expect(second).not.toBe(first);
    expect((await folders(true)).filter((f) => f.name === 'Frontend')).toHaveLength(2);
  });

  it('test_creating_channel_folder_with_duplicate_name: names are unique case-insensitively', async () => {
    await create('Frontend');
    expectError(
      await iago.post('/channel_folders/create', { name: 'frontEND', description: '' }),
      'Channel folder name already in use',
    );
    expect(await byName('frontEND')).toBeUndefined();
  });

  it.each([
    ['Channels for frontend discussions', '<p>Channels for frontend discussions</p>'],
    [
      'Channels for **backend** discussions',
      '<p>Channels for <strong>backend</strong> discussions</p>',
    ],
  ])('test_rendered_description_for_channel_folder: %s', async (description, rendered) => {
    await create('Frontend', description);
    expect(await byName('Frontend')).toMatchObject({
      description,
      rendered_description: rendered,
    });
  });

  it.each([
    ['', "Channel folder name can't be empty."],
    ['abc\0', 'Invalid character in channel folder name, at position 4.'],
    ['a'.repeat(61), 'name is too long (limit: 60 characters)'],
  ])('test_invalid_params_for_channel_folder: name %j', async (name, msg) => {
    expectError(
      await iago.post('/channel_folders/create', {
        name,
        description: 'Channels for frontend discussions',
      }),
      msg,
    );
    expect(await folders(true)).toHaveLength(1); // only the seed's folder
  });

  it('test_invalid_params_for_channel_folder: description over 1024 characters', async () => {
    expectError(
      await iago.post('/channel_folders/create', {
        name: 'Frontend',
        description: 'a'.repeat(1025),
      }),
      'description is too long (limit: 1024 characters)',
    );
    expect(await byName('Frontend')).toBeUndefined();
  });

  it('check_channel_folder_name: a blank (spaces only) name is empty', async () => {
    expectError(
      await iago.post('/channel_folders/create', { name: '   ', description: '' }),
      "Channel folder name can't be empty.",
    );
  });

  it('create_channel_folder: the name and description are stored as sent, whitespace included (no strip)', async () => {
    // issue 11 item 5: StringConstraints(max_length=...) only; check_add_channel_folder stores
    // the value as given.
    const id = await create('  Spaced  ', ' described ');
    const f = (await folders()).find((x) => x.id === id);
    expect(f).toMatchObject({ name: '  Spaced  ', description: ' described ' });
    // and such a name does not clash with its stripped form (iexact on the raw value)
    expectSuccess(await iago.post('/channel_folders/create', { name: 'Spaced', description: '' }));
  });

  it('create_channel_folder: name length is counted on the raw value', async () => {
    expectError(
      await iago.post('/channel_folders/create', { name: ` ${'a'.repeat(59)} `, description: '' }),
      'name is too long (limit: 60 characters)',
    );
  });

  it('create_channel_folder (FL 389..413): MAX_NAME_LENGTH was 100', async () => {
    await z.close();
    z = await startEmulator({ rateLimit: false, featureLevel: 400 });
    const c = clientFor(z, 'admin');
    expectSuccess(
      await c.post('/channel_folders/create', { name: 'a'.repeat(100), description: '' }),
    );
    expectError(
      await c.post('/channel_folders/create', { name: 'b'.repeat(101), description: '' }),
      'name is too long (limit: 100 characters)',
    );
  });

  it('create_channel_folder: description is required', async () => {
    expectError(
      await iago.post('/channel_folders/create', { name: 'Frontend' }),
      "Missing 'description' argument",
      'REQUEST_VARIABLE_MISSING',
    );
  });
});

describe('test_channel_folders.py GetChannelFoldersTest', () => {
  it.each(['admin', 'alice', 'guest'])(
    'test_get_channel_folders: %s sees every folder with its fields',
    async (who) => {
      const { frontend, backend, marketing } = await setUp();
      const res = await clientFor(z, who).get('/channel_folders');
      expectSuccess(res);
      const got = (res.body.channel_folders as Folder[]).filter((f) => f.name !== 'Engineering');
      expect(
        got.map((f) => [f.id, f.name, f.rendered_description, f.is_archived, f.creator_id]),
      ).toEqual([
        [frontend, 'Frontend', '<p>Channels for frontend discussions</p>', false, userId('admin')],
        [
          backend,
          'Backend',
          '<p>Channels for <strong>backend</strong> discussions</p>',
          false,
          userId('admin'),
        ],
        [
          marketing,
          'Marketing',
          '<p>Channels for marketing discussions</p>',
          false,
          userId('owner'),
        ],
      ]);
    },
  );

  it('test_get_channel_folders: archived folders only with include_archived', async () => {
    const { marketing } = await setUp();
    expectSuccess(await iago.patch(`/channel_folders/${marketing}`, { is_archived: true }));
    expect((await folders()).map((f) => f.name)).toEqual(['Engineering', 'Frontend', 'Backend']);
    const all = await folders(true);
    expect(all.map((f) => f.name)).toEqual(['Engineering', 'Frontend', 'Backend', 'Marketing']);
    expect(all[3]!.is_archived).toBe(true);
  });

  it('test_get_channel_folders_according_to_order: reversed order is what GET returns', async () => {
    await setUp();
    const ids = (await folders()).map((f) => f.id);
    expectSuccess(await iago.patch('/channel_folders', { order: [...ids].reverse() }));
    expect((await folders()).map((f) => f.name)).toEqual([
      'Marketing',
      'Backend',
      'Frontend',
      'Engineering',
    ]);
  });
});

describe('test_channel_folders.py UpdateChannelFoldersTest', () => {
  it('test_updating_channel_folder_name: members are refused', async () => {
    const { frontend } = await setUp();
    expectError(
      await hamlet.patch(`/channel_folders/${frontend}`, { name: 'Web frontend' }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await byName('Frontend'))?.id).toBe(frontend);
  });

  it.each([
    [{ name: 'Web frontend' }],
    [{ description: 'Channels for **frontend** discussions' }],
    [{ is_archived: true }],
  ])('test_updating_channel_folder_*: unknown folder 999 with %j', async (params) => {
    expectError(await iago.patch('/channel_folders/999', params), 'Invalid channel folder ID');
  });

  it('test_updating_channel_folder_name: rename', async () => {
    const { frontend } = await setUp();
    expectSuccess(await iago.patch(`/channel_folders/${frontend}`, { name: 'Web frontend' }));
    expect((await folders()).find((f) => f.id === frontend)?.name).toBe('Web frontend');
  });

  it.each([
    ['', "Channel folder name can't be empty."],
    ['Backend', 'Channel folder name already in use'],
    ['backEND', 'Channel folder name already in use'],
    ['abc\0', 'Invalid character in channel folder name, at position 4.'],
    ['a'.repeat(61), 'name is too long (limit: 60 characters)'],
  ])('test_updating_channel_folder_name: %j is refused', async (name, msg) => {
    const { frontend } = await setUp();
    expectError(await iago.patch(`/channel_folders/${frontend}`, { name }), msg);
    expect((await folders()).find((f) => f.id === frontend)?.name).toBe('Frontend');
  });

  it('check_channel_folder_name: a case-only rename fails (the folder itself is not excluded)', async () => {
    // issue 11 item 5: zerver/lib/channel_folders.py filters name__iexact over every
    // non-archived folder of the realm, the renamed one included.
    const { frontend } = await setUp();
    expectError(
      await iago.patch(`/channel_folders/${frontend}`, { name: 'FRONTEND' }),
      'Channel folder name already in use',
    );
    expect((await folders()).find((f) => f.id === frontend)?.name).toBe('Frontend');
    // the same name is no change at all (`channel_folder.name != name` is false): success
    expectSuccess(await iago.patch(`/channel_folders/${frontend}`, { name: 'Frontend' }));
  });

  it('check_channel_folder_name: an archived folder may be renamed case-only, and a live one to an archived name', async () => {
    const { frontend, marketing } = await setUp();
    expectSuccess(await iago.patch(`/channel_folders/${marketing}`, { is_archived: true }));
    expectSuccess(await iago.patch(`/channel_folders/${marketing}`, { name: 'MARKETING' }));
    expectSuccess(await iago.patch(`/channel_folders/${frontend}`, { name: 'marketing' }));
    const all = await folders(true);
    expect(all.find((f) => f.id === marketing)?.name).toBe('MARKETING');
    expect(all.find((f) => f.id === frontend)?.name).toBe('marketing');
  });

  it('unique_realm_folder_name_when_not_archived: unarchiving next to a live folder of the same name is a 500', async () => {
    // test_creating_channel_folder_with_duplicate_name reuses an archived name; unarchiving
    // the old folder then breaks the model's constraint (no check in the view: IntegrityError).
    const old = await create('Frontend');
    expectSuccess(await iago.patch(`/channel_folders/${old}`, { is_archived: true }));
    await create('FRONTEND');
    const res = await iago.call(
      'PATCH',
      `/channel_folders/${old}`,
      { is_archived: false },
      {
        validate: false,
      },
    );
    expect({ status: res.status, body: res.body }).toEqual({
      status: 500,
      body: { result: 'error', msg: 'Internal server error' },
    });
    expect((await folders(true)).find((f) => f.id === old)?.is_archived).toBe(true);
  });

  it('test_updating_channel_folder_description: members are refused', async () => {
    const { frontend } = await setUp();
    expectError(
      await hamlet.patch(`/channel_folders/${frontend}`, {
        description: 'Channels for **frontend** discussions',
      }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
  });

  it('test_updating_channel_folder_description: set, render, clear, too long', async () => {
    const { frontend } = await setUp();
    const get = async (): Promise<Folder> => (await folders()).find((f) => f.id === frontend)!;
    expectSuccess(
      await iago.patch(`/channel_folders/${frontend}`, {
        description: 'Channels for **frontend** discussions',
      }),
    );
    expect(await get()).toMatchObject({
      description: 'Channels for **frontend** discussions',
      rendered_description: '<p>Channels for <strong>frontend</strong> discussions</p>',
    });
    expectSuccess(await iago.patch(`/channel_folders/${frontend}`, { description: '' }));
    expect(await get()).toMatchObject({ description: '', rendered_description: '' });
    expectError(
      await iago.patch(`/channel_folders/${frontend}`, { description: 'a'.repeat(1025) }),
      'description is too long (limit: 1024 characters)',
    );
    expect((await get()).description).toBe('');
  });

  it('update_channel_folder: a description is stored as sent (no strip)', async () => {
    const { frontend } = await setUp();
    expectSuccess(await iago.patch(`/channel_folders/${frontend}`, { description: '  padded  ' }));
    expect((await folders()).find((f) => f.id === frontend)?.description).toBe('  padded  ');
  });

  it('test_archiving_and_unarchiving_channel_folder: members are refused', async () => {
    const { frontend } = await setUp();
    expectError(
      await hamlet.patch(`/channel_folders/${frontend}`, { is_archived: true }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await byName('Frontend'))?.is_archived).toBe(false);
  });

  it('test_archiving_and_unarchiving_channel_folder: archive, then unarchive', async () => {
    const { frontend } = await setUp();
    expectSuccess(await iago.patch(`/channel_folders/${frontend}`, { is_archived: true }));
    expect((await byName('Frontend'))?.is_archived).toBe(true);
    expectSuccess(await iago.patch(`/channel_folders/${frontend}`, { is_archived: false }));
    expect((await byName('Frontend'))?.is_archived).toBe(false);
  });

  it('test_archiving_and_unarchiving_channel_folder: a folder holding a channel, even an archived one, cannot be archived', async () => {
    const { frontend } = await setUp();
    const general = z.org.channels.find((c) => c.name === 'general')!;
    expectSuccess(await iago.patch(`/streams/${general.id}`, { folder_id: frontend }));
    const msg = 'You need to remove all the channels from this folder to archive it.';
    expectError(await iago.patch(`/channel_folders/${frontend}`, { is_archived: true }), msg);
    expectSuccess(await iago.delete(`/streams/${general.id}`));
    expectError(await iago.patch(`/channel_folders/${frontend}`, { is_archived: true }), msg);
    expect((await byName('Frontend'))?.is_archived).toBe(false);
    expectSuccess(await iago.patch(`/streams/${general.id}`, { folder_id: null }));
    expectSuccess(await iago.patch(`/channel_folders/${frontend}`, { is_archived: true }));
    expect((await byName('Frontend'))?.is_archived).toBe(true);
  });

  it('update_channel_folder: not atomic, a rename lands before the archive check fails', async () => {
    const engineering = (await byName('Engineering'))!.id; // holds the channel "engineering"
    expectError(
      await iago.patch(`/channel_folders/${engineering}`, { name: 'Eng', is_archived: true }),
      'You need to remove all the channels from this folder to archive it.',
    );
    expect((await folders()).find((f) => f.id === engineering)?.name).toBe('Eng');
  });
});

describe('test_channel_folders.py ReorderChannelFolderTest', () => {
  it('test_reorder: the position in the list becomes the order', async () => {
    await setUp();
    const order = (await folders(true)).map((f) => f.id).reverse();
    expectSuccess(await iago.patch('/channel_folders', { order }));
    for (const f of await folders(true)) expect(order[f.order]).toBe(f.id);
  });

  it('test_reorder_duplicates: a repeated ID is accepted, the last position wins', async () => {
    const { frontend } = await setUp();
    const order = (await folders(true)).map((f) => f.id).reverse();
    order.push(frontend);
    expectSuccess(await iago.patch('/channel_folders', { order }));
    const after = await folders(true);
    for (const f of after) expect(order[f.order]).toBe(f.id);
    expect(after[after.length - 1]!.id).toBe(frontend);
  });

  it('try_reorder_realm_channel_folders: IDs that are not folders are ignored', async () => {
    await setUp();
    const ids = (await folders(true)).map((f) => f.id);
    expectSuccess(await iago.patch('/channel_folders', { order: [99999, ...ids.reverse()] }));
    expect((await folders(true)).map((f) => f.id)).toEqual(ids);
  });

  it('try_reorder_realm_channel_folders: archived folders must be listed too', async () => {
    const { marketing } = await setUp();
    expectSuccess(await iago.patch(`/channel_folders/${marketing}`, { is_archived: true }));
    const live = (await folders()).map((f) => f.id);
    expectError(await iago.patch('/channel_folders', { order: live }), 'Invalid order mapping.');
  });

  it('test_reorder_unauthorized: members are refused', async () => {
    await setUp();
    const before = (await folders(true)).map((f) => f.id);
    expectError(
      await hamlet.patch('/channel_folders', { order: [...before].reverse() }),
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await folders(true)).map((f) => f.id)).toEqual(before);
  });

  it.each([[[100, 200, 300]], [[1, 2]]])(
    'test_reorder_invalid: %j is "Invalid order mapping."',
    async (order) => {
      await setUp();
      expectError(await iago.patch('/channel_folders', { order }), 'Invalid order mapping.');
    },
  );

  it('reorder_realm_channel_folders: order must be a JSON list of integers', async () => {
    expectError(await iago.patch('/channel_folders', { order: '"x"' }), 'order is not a list');
    expectError(
      await iago.patch('/channel_folders', { order: ['a'] }),
      'order[0] is not an integer',
    );
    expectError(
      await iago.patch('/channel_folders', {}),
      "Missing 'order' argument",
      'REQUEST_VARIABLE_MISSING',
    );
  });
});
