import { createHash } from 'node:crypto';
import {
  EMOJI_IMAGE_EXTENSIONS,
  EMOJI_IMAGE_TYPES,
  MAX_EMOJI_FILE_SIZE_MIB,
  checkEmojiName,
  normaliseEmojiName,
  sniffImageType,
} from '../../model/emoji';
import type { EmojiImageType } from '../../model/emoji';
import { UNICODE_EMOJI } from '../emoji';
import { ApiError, badRequest, insufficientPermission, notFound } from '../errors';
import { holdsRealmSetting, isAdmin } from '../permissions';
import type { UploadedFile } from '../request-body';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { OrgState, StoredEmoji } from '../state';
import { requireMemberOrAdmin } from './common';

/**
 * Custom emoji: zerver/views/realm_emoji.py (`list_emoji`, `upload_emoji`, `delete_emoji`) and
 * zerver/actions/realm_emoji.py (`check_add_realm_emoji`, `do_remove_realm_emoji`). A removed
 * emoji is only deactivated: it stays in the list, and its name can be uploaded again as a new
 * emoji (the unique constraint covers active emoji only).
 *
 * Left out: Zulip resizes the image to 64×64 (`resize_emoji`), makes a still image of an
 * animated one (`still_url`), and refuses an image it cannot decode or whose resized form is
 * over 128 KiB. The emulator keeps the upload as it is, checks its type by its first bytes
 * (`sniffImageType`) and never reports an emoji as animated.
 */

/** `get_emoji_url` of the local upload backend: `/user_avatars/<realm>/emoji/images/<file>`. */
function emojiUrl(org: OrgState, e: StoredEmoji): string {
  return `/user_avatars/${org.realm.id}/emoji/images/${e.fileName}`;
}

/** zerver/models/realm_emoji.py `get_all_custom_emoji_for_realm`: every emoji by ID. */
export function realmEmojiDict(org: OrgState): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const e of org.emoji ?? [])
    out[String(e.id)] = {
      id: String(e.id),
      name: e.name,
      source_url: emojiUrl(org, e),
      deactivated: e.deactivated,
      author_id: e.authorId,
      still_url: null,
    };
  return out;
}

/**
 * The image at a `/user_avatars/` path: an emoji's file, or its `.original` (Zulip keeps the
 * upload as it was under that name, next to the resized image; the emulator serves the same
 * bytes at both), of active and deactivated emoji alike.
 */
export function serveEmojiImage(
  org: OrgState,
  pathname: string,
): { contentType: string; bytes: Buffer } | undefined {
  const prefix = `/user_avatars/${org.realm.id}/emoji/images/`;
  if (!pathname.startsWith(prefix)) return undefined;
  const file = pathname.slice(prefix.length).replace(/\.original$/, '');
  const e = (org.emoji ?? []).find((x) => x.fileName === file);
  return e ? { contentType: e.contentType, bytes: Buffer.from(e.data, 'base64') } : undefined;
}

/** `notify_realm_emoji`: the whole dictionary, to every active user. */
function notify(ctx: RequestContext): void {
  ctx.events.push({
    users: 'all',
    event: { type: 'realm_emoji', op: 'update', realm_emoji: realmEmojiDict(ctx.org) },
  });
}

/** zerver/lib/emoji.py `get_emoji_file_name`: a hash of the ID (salted in Zulip) and the extension. */
function emojiFileName(type: EmojiImageType, id: number): string {
  const hash = createHash('sha256').update(`emulator:${id}`).digest('hex').slice(0, 8);
  return `${hash}${EMOJI_IMAGE_EXTENSIONS[type]}`;
}

/** zerver/lib/mime_types.py `bare_content_type`: without parameters, lower case. */
function bareContentType(t: string): string {
  return (t.split(';')[0] ?? '').trim().toLowerCase();
}

/** Python's `posixpath.splitext`: the last extension of the last segment, not its leading dots. */
function splitExt(name: string): [string, string] {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot < (/^\.*/.exec(base)?.[0].length ?? 0)) return [name, ''];
  const cut = name.length - base.length + dot;
  return [name.slice(0, cut), name.slice(cut)];
}

/** The extensions of the types an emoji may have, in Python's `mimetypes` table. */
const IMAGE_TYPE_BY_EXTENSION: Readonly<Record<string, EmojiImageType>> = {
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.jpe': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
};

/**
 * `mimetypes.guess_type(name)[0]` where it names a type an emoji may have (any other type, or
 * none, is refused alike): by the extension, case-insensitively, after an encoding suffix
 * (`.gz`, `.Z`, `.bz2`, `.xz`, `.br`), which guess_type sets apart. `.webp` is in Python's
 * table since 3.11 (zerver/lib/mime_types.py adds it and `.avif` for older ones).
 */
function guessImageType(filename: string): EmojiImageType | undefined {
  let [base, ext] = splitExt(filename);
  if (['.gz', '.Z', '.bz2', '.xz', '.br'].includes(ext)) [base, ext] = splitExt(base);
  return IMAGE_TYPE_BY_EXTENSION[ext.toLowerCase()];
}

/**
 * Django's `request.FILES`: one file per field name, the last part of a name (a `MultiValueDict`
 * gives its last value), in the order the names came.
 */
function filesByField(files: readonly UploadedFile[]): UploadedFile[] {
  return [...new Map(files.map((f) => [f.field, f])).values()];
}

/** zerver/views/realm_emoji.py `upload_emoji`, then `check_add_realm_emoji`. */
function uploadEmoji(ctx: RequestContext): Record<string, unknown> {
  requireMemberOrAdmin(ctx);
  const name = normaliseEmojiName(ctx.path.emoji_name ?? '');
  const invalid = checkEmojiName(name);
  if (invalid !== undefined) throw badRequest(invalid);
  if (!holdsRealmSetting(ctx.org, ctx.user, 'can_add_custom_emoji_group'))
    throw insufficientPermission();
  const emoji = (ctx.org.emoji ??= []);
  if (emoji.some((e) => e.name === name && !e.deactivated))
    throw badRequest('A custom emoji with this name already exists.');
  // `len(request.FILES) != 1`: two files under one name are one.
  const files = filesByField(ctx.files ?? []);
  if (files.length !== 1) throw badRequest('You must upload exactly one file.');
  if (name in UNICODE_EMOJI && !isAdmin(ctx.user))
    throw badRequest('Only administrators can override default emoji.');
  const [file] = files;
  if (!file) throw badRequest('You must upload exactly one file.');
  if (file.bytes.length > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024)
    throw badRequest(
      `Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`,
    );
  // get_file_info: the declared type, else guessed from the file name.
  const declared =
    file.contentType === ''
      ? (guessImageType(file.filename) ?? 'application/octet-stream')
      : bareContentType(file.contentType);
  const type = (EMOJI_IMAGE_TYPES as readonly string[]).includes(declared)
    ? (declared as EmojiImageType)
    : undefined;
  // check_add_realm_emoji: the type must be one Zulip both thumbnails and serves inline
  // (BadImageError, HTTP 400 BAD_IMAGE).
  if (type === undefined) throw new ApiError('Invalid image format', { code: 'BAD_IMAGE' });
  // libvips_check_image: bytes that are not an image of a supported type do not decode.
  if (sniffImageType(file.bytes) === undefined)
    throw new ApiError('Could not decode image; did you upload an image file?', {
      code: 'BAD_IMAGE',
    });
  const id = nextId(ctx.org);
  emoji.push({
    id,
    name,
    fileName: emojiFileName(type, id),
    contentType: type,
    data: file.bytes.toString('base64'),
    authorId: ctx.user.id,
    deactivated: false,
  });
  notify(ctx);
  return {};
}

/** zerver/views/realm_emoji.py `delete_emoji`, `check_remove_custom_emoji`, `do_remove_realm_emoji`. */
function deleteEmoji(ctx: RequestContext): Record<string, unknown> {
  const name = ctx.path.emoji_name ?? '';
  const e = (ctx.org.emoji ?? []).find((x) => x.name === name && !x.deactivated);
  if (!e) throw notFound(`Emoji '${name}' does not exist`);
  // Administrators remove any emoji; others only those they added.
  if (!isAdmin(ctx.user) && e.authorId !== ctx.user.id)
    throw badRequest('Must be an organization administrator or emoji author');
  e.deactivated = true;
  notify(ctx);
  return {};
}

export const realmEmojiRoutes: Route[] = [
  // list_emoji: public to the realm's users, deactivated emoji included.
  { method: 'GET', path: '/realm/emoji', handler: (ctx) => ({ emoji: realmEmojiDict(ctx.org) }) },
  // `realm/emoji/<path:emoji_name>`: a name with slashes reaches the view (and is refused there).
  { method: 'POST', path: '/realm/emoji/{emoji_name*}', handler: uploadEmoji },
  { method: 'DELETE', path: '/realm/emoji/{emoji_name*}', handler: deleteEmoji },
];
