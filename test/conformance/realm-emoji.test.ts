/**
 * Conformance: custom emoji, ported from zerver/tests/test_realm_emoji.py (Zulip at feature
 * level 442): `GET /realm/emoji`, `POST /realm/emoji/{emoji_name}` (multipart, one file) and
 * `DELETE /realm/emoji/{emoji_name}` (a deactivation). iago → admin, othello → bob (member),
 * cordelia → carol (member). Zulip's tests start with one emoji (`green_tick`); here the
 * organization starts with none, so the counts are one less.
 */
import { startEmulator } from '../../src/emulator';
import { ROLES } from '../../src/model';
import type { Emulator } from '../../src/emulator';
import { validateResponse } from '../support/openapi-validate';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient, TestResponse } from '../support/emulator-client';

let z: Emulator;
let iago: TestClient;
let othello: TestClient;
let cordelia: TestClient;

beforeAll(() => {
  validateResponse('GET', '/users/me', 200, { result: 'success', msg: '' });
});
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  iago = clientFor(z, 'admin');
  othello = clientFor(z, 'bob');
  cordelia = clientFor(z, 'carol');
});
afterEach(() => z.close());

/** A 1×1 PNG and GIF (Zulip's tests use `img.png` and `img.gif`). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
/** The start of a little-endian TIFF (`img.tif`). */
const TIF = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]);

const png = (field = 'f1') => ({ field, filename: 'img.png', type: 'image/png', bytes: PNG });

function upload(
  c: TestClient,
  name: string,
  files: { field: string; filename: string; type: string; bytes: Uint8Array }[] = [png()],
): Promise<TestResponse> {
  return c.call('POST', `/realm/emoji/${name}`, {}, { files });
}

interface Emoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
  author_id: number | null;
  still_url: string | null;
}

async function list(c: TestClient = iago): Promise<Record<string, Emoji>> {
  const res = await c.get('/realm/emoji');
  expectSuccess(res);
  return res.body.emoji as Record<string, Emoji>;
}

const userId = (email: string): number =>
  z.org.users.find((u) => u.email === `${email}@zulip-cdk.example`)?.id ?? -1;

describe('test_realm_emoji.py RealmEmojiTest', () => {
  it('test_upload: the author is the uploader; the list has it', async () => {
    expectSuccess(await upload(iago, 'my_emoji'));
    const emoji = Object.values(await list());
    expect(emoji).toHaveLength(1);
    expect(emoji[0]).toMatchObject({
      name: 'my_emoji',
      deactivated: false,
      author_id: userId('admin'),
      still_url: null,
    });
  });

  it('test_list_admins_only: the list is public to members', async () => {
    expectSuccess(await upload(iago, 'my_emoji'));
    expect(Object.keys(await list(othello))).toHaveLength(1);
  });

  /** `create_test_emoji_with_no_author`: a RealmEmoji row made without an author. */
  function emojiWithoutAuthor(name: string): number {
    const id = Math.max(0, ...z.org.users.map((u) => u.id)) + 1000;
    (z.org.emoji ??= []).push({
      id,
      name,
      fileName: name,
      contentType: 'image/png',
      data: PNG.toString('base64'),
      authorId: null,
      deactivated: false,
    });
    return id;
  }

  it('test_list: the uploaded emoji is listed', async () => {
    expectSuccess(await upload(iago, 'my_emoji'));
    expect(Object.values(await list()).map((e) => e.name)).toEqual(['my_emoji']);
  });

  it('test_list_no_author: author_id is null', async () => {
    const id = emojiWithoutAuthor('my_emoji');
    const emoji = await list();
    expect(Object.keys(emoji)).toHaveLength(1);
    expect(emoji[String(id)]?.author_id).toBeNull();
  });

  it('test_list_admins_only: an emoji without an author, listed to a member while only administrators may add', async () => {
    z.org.realm.settings.can_add_custom_emoji_group =
      z.org.groups.find((g) => g.name === 'role:administrators')?.id ?? -1;
    const id = emojiWithoutAuthor('my_emoji');
    const emoji = await list(othello);
    expect(Object.keys(emoji)).toHaveLength(1);
    expect(emoji[String(id)]?.author_id).toBeNull();
  });

  it('test_delete_no_author: an administrator deactivates it', async () => {
    const id = emojiWithoutAuthor('my_emoji');
    expectSuccess(await iago.delete('/realm/emoji/my_emoji'));
    expect((await list())[String(id)]?.deactivated).toBe(true);
  });

  it('check_remove_custom_emoji: a member cannot deactivate an emoji without an author', async () => {
    emojiWithoutAuthor('my_emoji');
    expectError(
      await othello.delete('/realm/emoji/my_emoji'),
      'Must be an organization administrator or emoji author',
    );
  });

  it('test_override_built_in_emoji_by_admin', async () => {
    expectError(
      await upload(othello, 'laughing'),
      'Only administrators can override default emoji.',
      'BAD_REQUEST',
    );
    expectSuccess(await upload(iago, 'smile'));
  });

  const invalid =
    'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.';
  it('test_upload_exception: my_em*oji', async () => {
    expectError(await upload(iago, 'my_em*oji'), invalid, 'BAD_REQUEST');
  });
  it('test_forward_slash_exception', async () => {
    expectError(await upload(iago, 'my/emoji/with/forward/slash/'), invalid, 'BAD_REQUEST');
  });
  it('test_upload_uppercase_exception', async () => {
    expectError(await upload(iago, 'my_EMoji'), invalid, 'BAD_REQUEST');
  });
  it('test_upload_end_character_exception', async () => {
    expectError(
      await upload(iago, 'my_emoji_'),
      'Emoji names must end with either a letter or digit.',
      'BAD_REQUEST',
    );
  });
  it('test_missing_name_exception', async () => {
    expectError(await upload(iago, '%20'), 'Emoji name is missing', 'BAD_REQUEST');
  });
  it('upload_emoji: spaces become underscores after the strip', async () => {
    expectSuccess(await upload(iago, '%20party%20parrot%20'));
    expect(Object.values(await list()).map((e) => e.name)).toEqual(['party_parrot']);
  });

  it('test_user_settings_for_adding_custom_emoji: can_add_custom_emoji_group', async () => {
    const admins = z.org.groups.find((g) => g.name === 'role:administrators')?.id ?? -1;
    z.org.realm.settings.can_add_custom_emoji_group = admins;
    expectError(
      await upload(clientFor(z, 'moderator'), 'my_emoji_1'),
      'Insufficient permission',
      'BAD_REQUEST',
    );
    expectSuccess(await upload(iago, 'my_emoji_1'));
  });

  // The same test, by othello's role (set_user_role) and the setting's value
  // (do_change_realm_permission_group_setting), as Zulip's steps go. Its full-members step
  // (waiting_period_threshold 100000) is the next case, through the API.
  it('test_user_settings_for_adding_custom_emoji: role:fullmembers and waiting_period_threshold 100000', async () => {
    const owner = clientFor(z, 'owner');
    const full = z.org.groups.find((g) => g.name === 'role:fullmembers')?.id ?? -1;
    expectSuccess(await owner.patch(`/users/${userId('bob')}`, { role: ROLES.moderator }));
    expectSuccess(await owner.patch('/realm', { can_add_custom_emoji_group: { new: full } }));
    expectSuccess(await owner.patch('/realm', { waiting_period_threshold: 100000 }));
    expectSuccess(await owner.patch(`/users/${userId('bob')}`, { role: ROLES.member }));
    expectError(await upload(othello, 'my_emoji_3'), 'Insufficient permission');
    expectSuccess(await owner.patch('/realm', { waiting_period_threshold: 0 }));
    expectSuccess(await upload(othello, 'my_emoji_3'));
  });

  it('test_user_settings_for_adding_custom_emoji: roles, a user group and an anonymous group', async () => {
    const group = (name: string): number => z.org.groups.find((g) => g.name === name)?.id ?? -1;
    const setting = (value: number | { direct_members: number[]; direct_subgroups: number[] }) => {
      z.org.realm.settings.can_add_custom_emoji_group = value;
    };
    const bob = z.org.users.find((u) => u.id === userId('bob'));
    const role = (r: number): void => {
      if (bob) bob.role = r;
    };
    role(ROLES.moderator);
    setting(group('role:administrators'));
    expectError(await upload(othello, 'my_emoji_1'), 'Insufficient permission');
    role(ROLES.administrator);
    expectSuccess(await upload(othello, 'my_emoji_1'));

    setting(group('role:moderators'));
    role(ROLES.member);
    expectError(await upload(othello, 'my_emoji_2'), 'Insufficient permission');
    role(ROLES.moderator);
    expectSuccess(await upload(othello, 'my_emoji_2'));

    setting(group('role:fullmembers'));
    role(ROLES.member);
    expectSuccess(await upload(othello, 'my_emoji_3'));

    setting(group('role:members'));
    role(ROLES.guest);
    expectError(await upload(othello, 'my_emoji_4'), 'Not allowed for guest users');
    role(ROLES.member);
    expectSuccess(await upload(othello, 'my_emoji_4'));

    const created = await iago.post('/user_groups/create', {
      name: 'newgroup',
      description: '',
      members: [userId('bob'), userId('carol')],
    });
    expectSuccess(created);
    setting(created.body.group_id as number);
    expectSuccess(await upload(othello, 'my_emoji_5'));
    expectError(await upload(iago, 'my_emoji_6'), 'Insufficient permission');

    setting({ direct_members: [userId('bob')], direct_subgroups: [group('role:administrators')] });
    expectSuccess(await upload(iago, 'my_emoji_6'));
    expectSuccess(await upload(othello, 'my_emoji_7'));
    expectError(await upload(cordelia, 'my_emoji_8'), 'Insufficient permission');
    expect(Object.values(await list()).map((e) => [e.name, e.author_id])).toEqual([
      ['my_emoji_1', userId('bob')],
      ['my_emoji_2', userId('bob')],
      ['my_emoji_3', userId('bob')],
      ['my_emoji_4', userId('bob')],
      ['my_emoji_5', userId('bob')],
      ['my_emoji_6', userId('admin')],
      ['my_emoji_7', userId('bob')],
    ]);
  });

  it('require_member_or_admin: guests cannot upload', async () => {
    expectError(
      await upload(clientFor(z, 'guest'), 'my_emoji'),
      'Not allowed for guest users',
      'BAD_REQUEST',
    );
  });

  it('test_delete: deactivated, not removed', async () => {
    expectSuccess(await upload(iago, 'my_emoji'));
    expectSuccess(await iago.delete('/realm/emoji/my_emoji'));
    const emoji = Object.values(await list());
    expect(emoji).toHaveLength(1);
    expect(emoji[0]?.deactivated).toBe(true);
  });

  it('test_delete_admin_or_author', async () => {
    for (const n of ['my_emoji_1', 'my_emoji_2', 'my_emoji_3'])
      expectSuccess(await upload(othello, n));
    expectSuccess(await othello.delete('/realm/emoji/my_emoji_1'));
    expectSuccess(await iago.delete('/realm/emoji/my_emoji_2'));
    expectError(
      await cordelia.delete('/realm/emoji/my_emoji_3'),
      'Must be an organization administrator or emoji author',
      'BAD_REQUEST',
    );
  });

  it('test_delete_exception: 404', async () => {
    expectError(
      await iago.delete('/realm/emoji/invalid_emoji'),
      "Emoji 'invalid_emoji' does not exist",
      'BAD_REQUEST',
      404,
    );
  });

  it('test_multiple_upload', async () => {
    expectError(
      await upload(iago, 'my_emoji', [png('f1'), png('f2')]),
      'You must upload exactly one file.',
      'BAD_REQUEST',
    );
    expectError(
      await upload(iago, 'my_emoji', []),
      'You must upload exactly one file.',
      'BAD_REQUEST',
    );
  });

  // zerver/views/realm_emoji.py upload_emoji counts `len(request.FILES)`: Django's FILES has
  // one entry per field name, its last file ([emoji_file] = request.FILES.values()).
  it('test_multiple_upload: two files under one field name are one file, the last', async () => {
    expectSuccess(
      await upload(iago, 'my_emoji', [
        png('f1'),
        { field: 'f1', filename: 'img.gif', type: 'image/gif', bytes: GIF },
      ]),
    );
    const [e] = Object.values(await list());
    expect(e?.source_url).toMatch(/\.gif$/);
  });

  // zerver/lib/upload/__init__.py get_file_info: a file without a content type (Django's
  // UploadedFile.content_type is then "") gets `guess_type(file name)`, else
  // application/octet-stream. fetch always declares one, so these bodies are written by hand.
  it.each([
    ['img.png', undefined, PNG, '.png'],
    ['IMG.GIF', undefined, GIF, '.gif'],
    ['img.png.gz', undefined, PNG, '.png'],
    ['img', undefined, PNG, 'Invalid image format'],
    ['.png', undefined, PNG, 'Invalid image format'],
    ['img.tif', undefined, TIF, 'Invalid image format'],
    ['img.png', 'text/plain', PNG, 'Invalid image format'],
  ])('get_file_info: file %j with Content-Type %j', async (filename, type, bytes, outcome) => {
    const boundary = 'emoji-boundary';
    // A field that declares a type comes first: each part's own header counts.
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n` +
      'Content-Type: text/plain\r\n\r\nhi\r\n' +
      `--${boundary}\r\nContent-Disposition: form-data; name="f1"; filename="${filename}"\r\n` +
      (type === undefined ? '' : `Content-Type: ${type}\r\n`) +
      '\r\n';
    const body = Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const res = await fetch(`${z.url}/realm/emoji/my_emoji`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`admin@zulip-cdk.example:${z.apiKeyOf('admin@zulip-cdk.example')}`).toString('base64')}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
    });
    const answer = {
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
      headers: res.headers,
    };
    if (outcome.startsWith('.')) {
      expectSuccess(answer);
      expect(Object.values(await list())[0]?.source_url.endsWith(outcome)).toBe(true);
    } else expectError(answer, outcome, 'BAD_IMAGE');
  });

  it('test_emoji_upload_success: a GIF', async () => {
    expectSuccess(
      await upload(iago, 'my_emoji', [
        { field: 'file', filename: 'img.gif', type: 'image/gif', bytes: GIF },
      ]),
    );
  });

  it('test_emoji_upload_file_size_error: over MAX_EMOJI_FILE_SIZE_MIB (5)', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    expectError(
      await upload(iago, 'my_emoji', [
        { field: 'file', filename: 'img.png', type: 'image/png', bytes: big },
      ]),
      'Uploaded file is larger than the allowed limit of 5 MiB',
      'BAD_REQUEST',
    );
  });

  it('test_emoji_upload_file_format_error: a TIFF', async () => {
    expectError(
      await upload(iago, 'my_emoji', [
        { field: 'file', filename: 'img.tif', type: 'image/tiff', bytes: TIF },
      ]),
      'Invalid image format',
      'BAD_IMAGE',
    );
  });

  it('libvips_check_image: bytes that are not an image', async () => {
    expectError(
      await upload(iago, 'my_emoji', [
        { field: 'file', filename: 'img.png', type: 'image/png', bytes: Buffer.from('hello') },
      ]),
      'Could not decode image; did you upload an image file?',
      'BAD_IMAGE',
    );
    expect(await list()).toEqual({});
  });

  it('test_upload_already_existed_emoji', async () => {
    expectSuccess(await upload(iago, 'green_tick'));
    expectError(
      await upload(iago, 'green_tick'),
      'A custom emoji with this name already exists.',
      'BAD_REQUEST',
    );
  });

  it('test_reupload: an archived name can be uploaded again, as a new emoji', async () => {
    expectSuccess(await upload(iago, 'my_emoji'));
    expectSuccess(await iago.delete('/realm/emoji/my_emoji'));
    expectSuccess(await upload(iago, 'my_emoji'));
    const emoji = Object.values(await list());
    expect(emoji.map((e) => [e.name, e.deactivated])).toEqual([
      ['my_emoji', true],
      ['my_emoji', false],
    ]);
  });

  it('test_check_admin_realm_emoji: each author removes their own emoji of a reused name', async () => {
    expectSuccess(await upload(cordelia, 'test_emoji'));
    expectSuccess(await cordelia.delete('/realm/emoji/test_emoji'));
    expectSuccess(await upload(othello, 'test_emoji'));
    expectSuccess(await othello.delete('/realm/emoji/test_emoji'));
  });

  it('get_emoji_url: the image is served at source_url and at source_url.original, as uploaded', async () => {
    expectSuccess(await upload(iago, 'my_emoji'));
    const [e] = Object.values(await list());
    for (const url of [e?.source_url, `${e?.source_url}.original`]) {
      const res = await fetch(`${z.site}${url}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    }
    expect((await fetch(`${z.site}/user_avatars/1/emoji/images/nothing.png`)).status).toBe(404);
  });

  it('register: realm_emoji lists deactivated emoji too', async () => {
    expectSuccess(await upload(iago, 'a1'));
    expectSuccess(await upload(iago, 'b2'));
    expectSuccess(await iago.delete('/realm/emoji/b2'));
    const res = await iago.post('/register', { fetch_event_types: ['realm_emoji'] });
    expectSuccess(res);
    await iago.delete('/events', { queue_id: res.body.queue_id });
    const emoji = Object.values(res.body.realm_emoji as Record<string, Emoji>);
    expect(emoji.map((e) => [e.name, e.deactivated])).toEqual([
      ['a1', false],
      ['b2', true],
    ]);
  });
});
