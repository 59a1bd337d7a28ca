import { randomBytes } from 'node:crypto';
import { chmod, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes a file that holds secrets (API keys) so that only its owner can read it, whether or
 * not it existed before. `writeFile`'s `mode` applies only when the file is created, so an
 * existing world-readable file would keep its mode: the content goes to a new 0600 file next to
 * it, which then replaces it (the new content is never readable by others, even briefly).
 */
export async function writePrivateFile(file: string, content: string): Promise<void> {
  const tmp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    await writeFile(tmp, content, { mode: 0o600, flag: 'wx' });
    // The umask can only narrow the mode, but be explicit (and cover odd file systems).
    await chmod(tmp, 0o600);
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
