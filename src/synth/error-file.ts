import { writeFileSync } from 'node:fs';
import { isZulipCdkError } from '../model/errors';
import { stableStringify } from './stable-json';

/**
 * The environment variable naming a file where a synthesizing app leaves its error, so that
 * `zulip-cdk synth` can show the message (not a stack trace) of an app run as a child process.
 */
export const ERROR_FILE_ENV = 'ZULIP_CDK_ERROR_FILE';

/** Records a zulip-cdk error in the error file, when the runner asked for one. */
export function reportError(e: unknown): void {
  const file = process.env[ERROR_FILE_ENV];
  if (!file || !isZulipCdkError(e)) return;
  try {
    writeFileSync(
      file,
      stableStringify({ code: e.code, message: e.message, where: e.where, hint: e.hint }),
    );
  } catch {
    // The error itself matters more than the report: it is rethrown by the caller.
  }
}
