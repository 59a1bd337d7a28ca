import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { EmojiImageSchema } from '../model/desired-state';
import type { EmojiImage } from '../model/desired-state';
import { ZulipCdkError } from '../model/errors';
import type { CreateChange, ReplaceChange } from '../engine/plan-format';
import type { ZulipClient } from '../zulip/client';

/**
 * Custom emoji (zerver/views/realm_emoji.py): an upload is `POST /realm/emoji/{name}` with the
 * image as the one file of a multipart body; a removal is `DELETE /realm/emoji/{name}`, which
 * Zulip implements as a deactivation. The image is read from the file synth recorded, and sent
 * only if its digest is still the one the plan was reviewed with.
 */

function imageOf(change: CreateChange | ReplaceChange): EmojiImage {
  const raw = change.action === 'create' ? change.properties.image : change.after.image;
  const parsed = EmojiImageSchema.safeParse(raw);
  if (!parsed.success)
    throw new ZulipCdkError('PLAN_INVALID', `${change.address}: the plan has no valid image`, {
      where: change.address,
      hint: 'Plan again.',
    });
  return parsed.data;
}

/** The image's bytes, checked against the plan's digest. */
async function readImage(change: CreateChange | ReplaceChange, baseDir: string): Promise<Buffer> {
  const image = imageOf(change);
  const file = isAbsolute(image.file) ? image.file : resolve(baseDir, image.file);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new ZulipCdkError(
      'EMOJI_IMAGE_UNREADABLE',
      `${change.address}: the emoji image ${image.file} cannot be read (${e instanceof Error ? e.message : String(e)})`,
      {
        where: change.path ?? change.address,
        hint: `apply reads the image from ${baseDir}: run apply in the directory synth ran in, with the same files`,
      },
    );
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== image.sha256)
    throw new ZulipCdkError(
      'PLAN_TAMPERED',
      `${change.address}: the emoji image ${image.file} changed since the plan was made (SHA-256 ${sha256.slice(0, 12)}…, the plan has ${image.sha256.slice(0, 12)}…)`,
      { where: change.path ?? change.address, hint: 'Plan again, and review the new image.' },
    );
  return bytes;
}

function extension(contentType: string): string {
  return contentType.replace(/^image\//, '').replace('jpeg', 'jpg');
}

/** Uploads the declared image under the emoji's name. */
export async function uploadEmoji(
  client: ZulipClient,
  change: CreateChange | ReplaceChange,
  baseDir: string,
): Promise<void> {
  const bytes = await readImage(change, baseDir);
  const image = imageOf(change);
  await client.uploadEmoji(change.key, {
    field: 'file',
    filename: `${change.key}.${extension(image.contentType)}`,
    contentType: image.contentType,
    bytes,
  });
}

/**
 * A new image: the old emoji is deactivated (its name is then free), then the new image is
 * uploaded. The file is read first, so a missing or changed file deactivates nothing.
 */
export async function replaceEmoji(
  client: ZulipClient,
  change: ReplaceChange,
  baseDir: string,
): Promise<void> {
  await readImage(change, baseDir);
  await client.deactivateEmoji(change.key);
  await uploadEmoji(client, change, baseDir);
}
