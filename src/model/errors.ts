/**
 * The one error type every layer throws. `code` is stable (tests and callers branch on it),
 * `message` says what went wrong, where, and how to fix it.
 */
export class ZulipCdkError extends Error {
  /** A stable, machine-readable code such as `VALIDATION_FAILED` or `ZULIP_API_ERROR`. */
  public readonly code: string;
  /** Where: a construct path, resource address, file and line, or endpoint. */
  public readonly where: string | undefined;
  /** How to fix it, when we know. */
  public readonly hint: string | undefined;

  public constructor(
    code: string,
    message: string,
    options: { where?: string; hint?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ZulipCdkError';
    this.code = code;
    this.where = options.where;
    this.hint = options.hint;
  }
}

/** True when `e` is a {@link ZulipCdkError}, optionally with the given code. */
export function isZulipCdkError(e: unknown, code?: string): e is ZulipCdkError {
  return e instanceof ZulipCdkError && (code === undefined || e.code === code);
}
