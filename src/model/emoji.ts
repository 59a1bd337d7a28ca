/**
 * Zulip's rules for custom emoji, shared by synth (checked offline, on the construct path) and
 * the embedded server (which refuses what Zulip refuses).
 */

/**
 * `settings.MAX_EMOJI_FILE_SIZE_MIB`: Zulip's default (zproject/default_settings.py) is 5; a
 * server may configure another limit, which the API does not report.
 */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

/** The image types Zulip accepts for an emoji: `THUMBNAIL_ACCEPT_IMAGE_TYPES` ∩ `INLINE_MIME_TYPES`. */
export const EMOJI_IMAGE_TYPES = [
  'image/avif',
  'image/gif',
  'image/jpeg',
  'image/png',
  'image/webp',
] as const;
export type EmojiImageType = (typeof EMOJI_IMAGE_TYPES)[number];

/** The file extension Zulip gives each type (`guess_extension`), for file names. */
export const EMOJI_IMAGE_EXTENSIONS: Record<EmojiImageType, string> = {
  'image/avif': '.avif',
  'image/gif': '.gif',
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
};

/**
 * zerver/lib/emoji.py `check_valid_emoji_name`: Zulip's message for a name it refuses, or
 * undefined. The name is the one after `upload_emoji` strips it and turns spaces into `_`.
 */
export function checkEmojiName(name: string): string | undefined {
  if (name === '') return 'Emoji name is missing';
  if (/^[0-9a-z\-_]+(?<![-_])$/.test(name)) return undefined;
  if (/^[0-9a-z\-_]+$/.test(name)) return 'Emoji names must end with either a letter or digit.';
  return 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.';
}

/** `upload_emoji`: the name Zulip stores for the one in the URL. */
export function normaliseEmojiName(name: string): string {
  return name.trim().replaceAll(' ', '_');
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean =>
  prefix.every((b, i) => bytes[at + i] === b);

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/**
 * The image type of a file by its first bytes (PNG, GIF, JPEG, WebP, AVIF), or undefined. Zulip
 * decodes the image with libvips (`libvips_check_image`) and refuses what it cannot decode;
 * this looks only at the signature, so a truncated or corrupt file of a known type passes here
 * and is refused by Zulip ("Could not decode image; did you upload an image file?").
 */
export function sniffImageType(bytes: Uint8Array): EmojiImageType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (
    startsWith(bytes, ascii('ftyp'), 4) &&
    (startsWith(bytes, ascii('avif'), 8) || startsWith(bytes, ascii('avis'), 8))
  )
    return 'image/avif';
  return undefined;
}
