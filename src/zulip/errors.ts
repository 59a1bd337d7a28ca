import { ZulipCdkError, foreignErrorCode } from '../model/errors';
import type { CLIENT_ERROR_CODES } from '../model/errors';

/** The codes the client raises itself; what each means is documented with the list in src/model/errors.ts. */
export { CLIENT_ERROR_CODES } from '../model/errors';
/** The codes of the errors the client raises itself (not Zulip's `code`), from {@link CLIENT_ERROR_CODES}. */
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** Fields of a Zulip error body other than `result`, `msg` and `code`. */
export type ZulipErrorData = Readonly<Record<string, unknown>>;

/**
 * An error response from Zulip: `{"result":"error","msg":...,"code":...}`.
 *
 * `code` is Zulip's own error code (`BAD_REQUEST`, `EXPECTATION_MISMATCH`, `RATE_LIMIT_HIT`,
 * `CANNOT_DEACTIVATE_GROUP_IN_USE`, `CHANNEL_ALREADY_EXISTS`...), so callers branch with
 * `isZulipCdkError(e, 'EXPECTATION_MISMATCH')`. Branch on `code`, never on `zulipMessage`
 * (Zulip translates it). Extra data fields (`stream`, `objections`, `retry-after`,
 * `var_name`...) are in `data`.
 */
export class ZulipApiError extends ZulipCdkError {
  /** Zulip's error code, the same as `code`. */
  public readonly zulipCode: string;
  /** The HTTP status. */
  public readonly status: number;
  /** The endpoint, e.g. `PATCH /streams/{stream_id}`. */
  public readonly endpoint: string;
  /** The method and concrete path, e.g. `PATCH /api/v1/streams/12`. */
  public readonly request: string;
  /** Zulip's `msg`, possibly translated; for people, not for branching. */
  public readonly zulipMessage: string;
  /** The extra fields of the error body. */
  public readonly data: ZulipErrorData;

  public constructor(args: {
    code: string;
    status: number;
    endpoint: string;
    request: string;
    zulipMessage: string;
    data: ZulipErrorData;
    hint?: string;
  }) {
    super(
      foreignErrorCode(args.code),
      `${args.request} failed: ${args.zulipMessage || '(no message)'} (${args.code}, HTTP ${args.status})`,
      args.hint === undefined
        ? { where: args.endpoint }
        : { where: args.endpoint, hint: args.hint },
    );
    this.name = 'ZulipApiError';
    this.zulipCode = args.code;
    this.status = args.status;
    this.endpoint = args.endpoint;
    this.request = args.request;
    this.zulipMessage = args.zulipMessage;
    this.data = args.data;
  }

  /** Seconds to wait, for `RATE_LIMIT_HIT` errors (from the header or the body). */
  public get retryAfter(): number | undefined {
    const v = this.data['retry-after'];
    return typeof v === 'number' ? v : undefined;
  }
}

/** True when `e` is a {@link ZulipApiError}, optionally with the given Zulip code. */
export function isZulipApiError(e: unknown, code?: string): e is ZulipApiError {
  return e instanceof ZulipApiError && (code === undefined || e.zulipCode === code);
}
