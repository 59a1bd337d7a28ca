import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ZulipCdkError } from '../model/errors';
import type { ErrorCode } from '../model/errors';

/**
 * Reads a file as JSON, or throws `code` (`Cannot read FILE: why`) with the file as `where`.
 * The document's shape is the caller's to check.
 */
export function readJson(file: string, code: ErrorCode, hint?: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ZulipCdkError(code, `Cannot read ${file}: ${(e as Error).message}`, {
      where: file,
      cause: e,
      ...(hint !== undefined && { hint }),
    });
  }
}

/** A kind of JSON document zulip-cdk writes and reads back (a desired state, a snapshot). */
export interface JsonDocument<T> {
  readonly schema: z.ZodType<T>;
  /** What the file should be, in the message: `a zulip-cdk snapshot`. */
  readonly what: string;
  /** The code when the file cannot be read as JSON. */
  readonly unreadable: ErrorCode;
  readonly unreadableHint?: string;
  /** The code when it is JSON but not such a document. */
  readonly invalid: ErrorCode;
  readonly invalidHint: string;
}

/** Reads a {@link JsonDocument}: JSON first, then its schema, each with its own code. */
export function readJsonDocument<T>(file: string, doc: JsonDocument<T>): T {
  const data = readJson(file, doc.unreadable, doc.unreadableHint);
  const parsed = doc.schema.safeParse(data);
  if (!parsed.success)
    throw new ZulipCdkError(doc.invalid, `${file} is not ${doc.what}: ${parsed.error.message}`, {
      where: file,
      hint: doc.invalidHint,
    });
  return parsed.data;
}
