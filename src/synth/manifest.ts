import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { z } from 'zod';
import { DesiredStateSchema } from '../model/desired-state';
import type { DesiredState } from '../model/desired-state';
import { ZulipCdkError } from '../model/errors';
import { readJsonDocument } from './json-file';
import { compareStrings, stableStringify } from './stable-json';

/** The manifest synth writes at the top of the output directory. */
export const MANIFEST_FILE = 'zulip-cdk.manifest.json';

/** One organization in the manifest: where its desired state went. */
export const ManifestEntrySchema = z.strictObject({
  /** The organization's id (its construct id). */
  id: z.string(),
  /** Its construct path. */
  path: z.string(),
  /** The desired-state file, relative to the output directory, with `/` separators. */
  file: z.string(),
});
/** One organization in the manifest (see {@link ManifestEntrySchema}). */
export type ManifestEntry = z.infer<typeof ManifestEntrySchema>;

/** The manifest, `zulip-cdk.manifest.json`: every organization the app synthesized. */
export const ManifestSchema = z.strictObject({
  formatVersion: z.literal(1),
  organizations: z.array(ManifestEntrySchema),
});
/** The manifest (see {@link ManifestSchema}). */
export type Manifest = z.infer<typeof ManifestSchema>;

/** A path relative to the output directory, with `/` on every platform. */
export function manifestPath(...parts: string[]): string {
  return parts.join('/').split(sep).join('/');
}

/** Writes the manifest, entries sorted by construct path. */
export function writeManifest(outdir: string, entries: readonly ManifestEntry[]): void {
  mkdirSync(outdir, { recursive: true });
  const manifest: Manifest = {
    formatVersion: 1,
    organizations: [...entries].sort((a, b) => compareStrings(a.path, b.path)),
  };
  writeFileSync(join(outdir, MANIFEST_FILE), stableStringify(manifest));
}

/** Reads the manifest of an output directory; undefined when there is none. */
export function readManifest(outdir: string): Manifest | undefined {
  const file = join(outdir, MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ZulipCdkError('BAD_MANIFEST', `${file} is not valid JSON`, { cause: e });
  }
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ZulipCdkError('BAD_MANIFEST', `${file} is not a zulip-cdk manifest`, {
      hint: 'delete the output directory and synthesize again',
    });
  }
  return parsed.data;
}

/** Removes the manifest (before running an app, so a stale one is never read). */
export function removeManifest(outdir: string): void {
  rmSync(join(outdir, MANIFEST_FILE), { force: true });
}

/**
 * Reads a desired-state file (`<org>.zulip.json`, synth output): `DESIRED_STATE_UNREADABLE`
 * when it cannot be read as JSON, `DESIRED_STATE_INVALID` when it is not a desired state.
 * Used by `runApp` and by `--desired`.
 */
export function readDesiredStateFile(file: string): DesiredState {
  return readJsonDocument(file, {
    schema: DesiredStateSchema,
    what: 'a zulip-cdk desired state',
    unreadable: 'DESIRED_STATE_UNREADABLE',
    invalid: 'DESIRED_STATE_INVALID',
    invalidHint: 'Make it with `zulip-cdk synth` of this zulip-cdk version.',
  });
}
