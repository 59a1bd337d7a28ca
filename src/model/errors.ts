/**
 * The codes the Zulip client (src/zulip) raises itself, not Zulip's own codes; part of
 * {@link ERROR_CODES}.
 */
export const CLIENT_ERROR_CODES = [
  /**
   * The connection failed: before the request was sent (nothing reached the server), or, for an
   * idempotent request, on every attempt (dropped, timed out).
   */
  'NETWORK_ERROR',
  /** A non-idempotent request may have reached the server but no answer came back: re-read state before deciding. */
  'REQUEST_OUTCOME_UNKNOWN',
  /** An idempotent request got HTTP 500/502/503/504 on every attempt; the message says how many. */
  'SERVER_UNAVAILABLE',
  /** Another 5xx (501, 505...) without a Zulip error body on an idempotent request; not retried. */
  'SERVER_ERROR',
  /** The server answered with something that is not a Zulip JSON response. */
  'INVALID_RESPONSE',
  /** A success response did not have the shape we expect. */
  'UNEXPECTED_RESPONSE',
  /** The configuration, or a client call, uses a feature the server's feature level lacks. */
  'UNSUPPORTED_FEATURE',
  /** The feature level is not known yet: call `fetchCapabilities()` or `register()` first. */
  'CAPABILITIES_UNKNOWN',
  /** No credentials were found, or some of them are missing. */
  'CREDENTIALS_MISSING',
  /** Credentials are unusable: a malformed site or zuliprc, an unreadable CA bundle, `insecure=true`. */
  'CREDENTIALS_INVALID',
  /** An outgoing-webhook payload failed parsing. */
  'WEBHOOK_INVALID_PAYLOAD',
  /** An outgoing-webhook payload failed its token check. */
  'WEBHOOK_BAD_TOKEN',
  /** A method was called with an unusable argument. */
  'INVALID_ARGUMENT',
  /** The client was closed. */
  'CLIENT_CLOSED',
] as const;

/**
 * The codes of apply's refusals (the CLI exits 4 on them, not 1): a plan that is not the one
 * reviewed (tampered, stale, for another server or account) or that a safety rule stops.
 * Nothing was applied. Part of {@link ERROR_CODES}.
 */
export const REFUSAL_ERROR_CODES = [
  /** A saved plan has a format version this zulip-cdk does not read. */
  'PLAN_FORMAT_UNSUPPORTED',
  /** A saved plan does not match the plan format, or asks for a change zulip-cdk cannot write. */
  'PLAN_INVALID',
  /** A saved plan was edited after it was made (its digest or its changes do not agree). */
  'PLAN_TAMPERED',
  /** A saved plan's digest is not the one given with `--plan-digest`. */
  'PLAN_DIGEST_MISMATCH',
  /** A saved plan was made for another server. */
  'PLAN_WRONG_SERVER',
  /** A saved plan was made with another account. */
  'PLAN_WRONG_ACCOUNT',
  /** The plan has safety findings (a change zulip-cdk would not make unreviewed). */
  'PLAN_UNSAFE',
  /** The plan has privileged changes (someone gets an administrator-level ability) and `--allow-privileged` was not given. */
  'PRIVILEGED_NOT_ALLOWED',
  /** The plan would remove or replace a resource the configuration protects. */
  'PLAN_TOUCHES_PROTECTED',
  /** The plan has destructive changes and destroying was not allowed. */
  'DESTROY_NOT_ALLOWED',
] as const;

/**
 * Every code zulip-cdk raises itself, one line each on what it means. The code is stable (tests
 * and callers branch on it); the message says what went wrong, where, and how to fix it.
 */
export const ERROR_CODES = [
  // Constructs and synth
  /** The configuration has problems (`ValidationError`: every one, each on its construct path). */
  'VALIDATION_FAILED',
  /** A resource construct is not inside an `Organization`. */
  'NO_ORGANIZATION',
  /** An `Organization` is inside another one. */
  'NESTED_ORGANIZATION',
  /** Two organizations of one stack would be written to the same file. */
  'DUPLICATE_ORGANIZATION',
  /** Synth produced a desired state that does not match its own schema: a bug in zulip-cdk. */
  'INTERNAL_ERROR',
  /** `zulip-cdk.json` or `cdktf.json` is not valid JSON. */
  'BAD_CONFIG',
  /** The synth output's manifest is not valid JSON or not a zulip-cdk manifest. */
  'BAD_MANIFEST',
  /** The app command could not be run, or exited with an error. */
  'APP_FAILED',
  /** The app ran but wrote no manifest, or a desired-state file it lists cannot be read. */
  'NO_DESIRED_STATE',
  /** A desired-state file (`--desired`) cannot be read or is not JSON. */
  'DESIRED_STATE_UNREADABLE',
  /** A desired-state file is not a zulip-cdk desired state (another version, or edited). */
  'DESIRED_STATE_INVALID',
  /** A snapshot file (`--live`) cannot be read or is not JSON. */
  'LIVE_STATE_UNREADABLE',
  /** A snapshot file is not a zulip-cdk snapshot. */
  'LIVE_STATE_INVALID',

  // Planning
  /** The server is older than the oldest feature level zulip-cdk supports. */
  'SERVER_TOO_OLD',
  // UNSUPPORTED_FEATURE (a feature the server's feature level lacks) is with the client's codes.
  /** The configuration declares web-public channels and the server has them turned off. */
  'WEB_PUBLIC_DISABLED',
  /**
   * The configuration cannot be planned: a name it refers to (user, group, channel, folder,
   * field) does not exist, or Zulip would refuse a change (its rules on values, and the
   * applying account's rights when other problems come with them). At apply, a name a change
   * refers to no longer exists.
   */
  'UNRESOLVED_REFERENCE',
  /**
   * Every problem of the plan is a change Zulip would refuse the applying account (a setting
   * only an owner may change, a group it may not manage...): plan and apply with an account
   * that may, each problem says which.
   */
  'ACCOUNT_NOT_ALLOWED',

  // Saved plans and apply
  /** A saved plan file cannot be read or is not JSON. */
  'PLAN_UNREADABLE',
  /** A custom emoji's image file cannot be read where apply runs (not the directory synth ran in). */
  'EMOJI_IMAGE_UNREADABLE',
  ...REFUSAL_ERROR_CODES,
  /** apply would ask for confirmation, but stdin is not a terminal. */
  'CONFIRMATION_REQUIRED',
  /**
   * What a write expected no longer holds. Zulip's own code on a `ZulipApiError`; zulip-cdk also
   * raises it when a channel's settings, read back, are not what the plan expected.
   */
  'EXPECTATION_MISMATCH',

  // The Zulip client
  ...CLIENT_ERROR_CODES,

  // The embedded server
  /** `startEmulator` was given a feature level it does not model. */
  'EMULATOR_FEATURE_LEVEL',
  /** `startEmulator` was given a fault rule it cannot apply. */
  'EMULATOR_FAULTS',
] as const;

/** A code zulip-cdk raises itself: one of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

declare const foreign: unique symbol;

/**
 * A code zulip-cdk does not choose: Zulip's own error code on a `ZulipApiError` (`BAD_REQUEST`,
 * `CHANNEL_ALREADY_EXISTS`...), or a code read back from an app's error file. Made only by
 * {@link foreignErrorCode}, so a mistyped code literal is still a compile error.
 */
export type ForeignErrorCode = string & { readonly [foreign]: true };

/** Marks `code` as a {@link ForeignErrorCode}: one that came from outside (Zulip, a child process). */
export function foreignErrorCode(code: string): ForeignErrorCode {
  return code as ForeignErrorCode;
}

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

/** True when `code` is one of {@link ERROR_CODES}. */
export function isErrorCode(code: string): code is ErrorCode {
  return KNOWN.has(code);
}

/**
 * The one error type every layer throws. `code` is stable (tests and callers branch on it),
 * `message` says what went wrong, where, and how to fix it.
 */
export class ZulipCdkError extends Error {
  /** A stable, machine-readable code such as `VALIDATION_FAILED`, or Zulip's own code. */
  public readonly code: ErrorCode | ForeignErrorCode;
  /** Where: a construct path, resource address, file and line, or endpoint. */
  public readonly where: string | undefined;
  /** How to fix it, when we know. */
  public readonly hint: string | undefined;

  public constructor(
    code: ErrorCode | ForeignErrorCode,
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

/**
 * True when `e` is a {@link ZulipCdkError}, optionally with the given code: one of ours, or
 * Zulip's own (`BAD_EVENT_QUEUE_ID`...) for a `ZulipApiError`.
 */
// `string & {}` keeps editors offering the known codes while taking Zulip's too.
export function isZulipCdkError(e: unknown, code?: ErrorCode | (string & {})): e is ZulipCdkError {
  return e instanceof ZulipCdkError && (code === undefined || e.code === code);
}
