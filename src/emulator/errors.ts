/**
 * Zulip's error responses (zerver/lib/exceptions.py `JsonableError` and
 * zerver/lib/response.py `json_response_from_error`): HTTP 400 and code `BAD_REQUEST` unless
 * the error says otherwise, extra data fields merged into the body.
 */
export class ApiError extends Error {
  public override readonly name = 'ApiError';
  public readonly status: number;
  public readonly code: string;
  public readonly data: Record<string, unknown>;
  public readonly headers: Record<string, string>;

  public constructor(
    msg: string,
    options: {
      status?: number;
      code?: string;
      data?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(msg);
    this.status = options.status ?? 400;
    this.code = options.code ?? 'BAD_REQUEST';
    this.data = options.data ?? {};
    this.headers = options.headers ?? {};
  }

  /** The JSON body Zulip sends for this error. */
  public body(): Record<string, unknown> {
    return { result: 'error', msg: this.message, code: this.code, ...this.data };
  }
}

/** A plain `JsonableError`: HTTP 400, code `BAD_REQUEST`. */
export function badRequest(msg: string, data?: Record<string, unknown>): ApiError {
  return new ApiError(msg, data === undefined ? {} : { data });
}

/** `RequestVariableMissingError`: "Missing 'x' argument". */
export function missingArgument(name: string): ApiError {
  return new ApiError(`Missing '${name}' argument`, {
    code: 'REQUEST_VARIABLE_MISSING',
    data: { var_name: name },
  });
}

/** `OrganizationAdministratorRequiredError` (HTTP 400, not 403). */
export function adminRequired(): ApiError {
  return new ApiError('Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
}

/** `OrganizationOwnerRequiredError` (HTTP 400, not 403). */
export function ownerRequired(): ApiError {
  return new ApiError('Must be an organization owner', { code: 'UNAUTHORIZED_PRINCIPAL' });
}

/**
 * `IncompatibleParametersError` (zerver/lib/exceptions.py): "Unsupported parameter combination:
 * a, b", code `BAD_REQUEST`, with the names joined in a `parameters` data field.
 */
export function incompatibleParameters(names: readonly string[]): ApiError {
  const parameters = names.join(', ');
  return badRequest(`Unsupported parameter combination: ${parameters}`, { parameters });
}

/** "Insufficient permission" (`JsonableError`). */
export function insufficientPermission(): ApiError {
  return badRequest('Insufficient permission');
}

/** `ResourceNotFoundError`: HTTP 404, code `BAD_REQUEST`. */
export function notFound(msg: string): ApiError {
  return new ApiError(msg, { status: 404 });
}

/**
 * `PreviousSettingValueMismatchedError`: an `ExpectationMismatchError`, whose `data_fields`
 * put `field_name` ("old") in the body beside `msg` and `code`.
 */
export function expectationMismatch(): ApiError {
  return new ApiError("'old' value does not match the expected value.", {
    code: 'EXPECTATION_MISMATCH',
    data: { field_name: 'old' },
  });
}

/**
 * An unhandled exception (e.g. a database IntegrityError): zerver/middleware.py
 * `JsonErrorHandler` answers 500 with `json_response(res_type="error", msg="Internal server
 * error")`, a body without `code`.
 */
export class InternalServerError extends ApiError {
  public constructor() {
    super('Internal server error', { status: 500 });
  }

  public override body(): Record<string, unknown> {
    return { result: 'error', msg: this.message };
  }
}
