import { isZulipCdkError } from '../../src/model';
import type { ZulipCdkError } from '../../src/model';

function expected(e: unknown, code: string | undefined, what: string): ZulipCdkError {
  if (isZulipCdkError(e, code)) return e;
  if (isZulipCdkError(e))
    throw new Error(`${what} ${e.code}, not ${code}: ${e.message}`, { cause: e });
  throw e;
}

/**
 * The {@link ZulipCdkError} `f` throws (with `code`, when given). Fails the test when `f`
 * throws nothing or another code; anything else it throws goes through as it is.
 */
export function thrownError(f: () => unknown, code?: string): ZulipCdkError {
  try {
    f();
  } catch (e) {
    return expected(e, code, 'threw');
  }
  throw new Error(`expected an error${code === undefined ? '' : ` ${code}`}, but none was thrown`);
}

/** The {@link ZulipCdkError} `p` rejects with (with `code`, when given); as {@link thrownError}. */
export async function rejection(p: Promise<unknown>, code?: string): Promise<ZulipCdkError> {
  try {
    await p;
  } catch (e) {
    return expected(e, code, 'rejected with');
  }
  throw new Error(`expected a rejection${code === undefined ? '' : ` ${code}`}, but it resolved`);
}
