import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { ApiError, badRequest } from './errors';

/**
 * The most request-body bytes the server reads: Django's `DATA_UPLOAD_MAX_MEMORY_SIZE`, whose
 * default (2.5 MiB, https://docs.djangoproject.com/en/5.2/ref/settings/#data-upload-max-memory-size)
 * Zulip keeps (zproject/computed_settings.py sets only `FILE_UPLOAD_MAX_MEMORY_SIZE`). Django
 * applies it to the form data of a request; the embedded server takes no file uploads, so its
 * whole body is form data.
 */
export const MAX_BODY_BYTES = 2_621_440;

/** Django's `DATA_UPLOAD_MAX_NUMBER_FIELDS` default: the most parameters one request may carry. */
export const MAX_FIELDS = 1000;

/**
 * The most bytes of a multipart body (which may carry files): Django's limit above covers only
 * the form fields, files are limited by each endpoint (`MAX_EMOJI_FILE_SIZE_MIB`) and by the
 * web server in front (Zulip's nginx allows far more); 25 MiB here.
 */
export const MAX_MULTIPART_BYTES = 25 * 1024 * 1024;

/** A file part of a multipart body (Django's `UploadedFile`). */
export interface UploadedFile {
  /** The form field name. */
  readonly field: string;
  readonly filename: string;
  /** As the part declares it; empty when it declares none (Django's `UploadedFile.content_type`). */
  readonly contentType: string;
  readonly bytes: Buffer;
}

/** What reading a request body gave. */
export type BodyRead = { readonly bytes: Buffer } | { readonly tooLarge: true };

/**
 * Reads the body, keeping no more than `limit` bytes: a `Content-Length` over the limit is
 * refused before reading anything (as Django's `HttpRequest.body` does), a body without one
 * as soon as it goes over. The caller then answers and discards the rest (`discardRest`).
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyRead> {
  const declared = Number(req.headers['content-length'] ?? '');
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > limit) {
        cleanup();
        req.pause();
        chunks.length = 0;
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve({ bytes: Buffer.concat(chunks) });
    };
    const onError = (e: Error): void => {
      cleanup();
      reject(e);
    };
    // The client went away before the end of its body.
    const onClose = (): void => onError(new Error('request aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * The most bytes discarded after refusing a body before the connection is cut: nginx's
 * `client_max_body_size 80m` in front of Zulip (puppet/zulip/templates/nginx.conf.template.erb).
 */
export const MAX_DISCARDED_BYTES = 80 * 1024 * 1024;

/**
 * Reads and drops the rest of a refused body, so that a client still sending it can read the
 * answer (cutting the connection makes it fail with EPIPE instead); past
 * `MAX_DISCARDED_BYTES`, the connection is cut.
 */
export function discardRest(req: IncomingMessage): void {
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > MAX_DISCARDED_BYTES) req.socket.destroy();
  });
  req.resume();
}

/** The error for a body over `MAX_BODY_BYTES` (Django's `RequestDataTooBig`). */
export function bodyTooLarge(): ApiError {
  return new ApiError('Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.', {
    status: 413,
  });
}

/** Django's `TooManyFieldsSent`. */
function tooManyFields(): ApiError {
  return badRequest(
    'The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS.',
  );
}

/** A body Django's multipart parser refuses (`MultiPartParserError`). */
function malformed(): ApiError {
  return badRequest('Malformed payload');
}

/** The media type of a Content-Type header, lowercased, without parameters (Django's `content_type`). */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Query-string or url-encoded parameters in order, as Django's `QueryDict` reads them
 * (`parse_qsl` with `keep_blank_values`; undecodable bytes replaced), refusing more than
 * `MAX_FIELDS` of them as Django does.
 */
export function parseUrlEncoded(text: string): Array<[string, string]> {
  if (text === '') return [];
  if (text.split('&').length > MAX_FIELDS) throw tooManyFields();
  return [...new URLSearchParams(text)];
}

/**
 * Whether each part of a multipart body that busboy reports (a `form-data` Content-Disposition)
 * has a Content-Type header, in the parts' order. busboy reports a part without one as
 * `text/plain` (RFC 7578); Django leaves its `content_type` empty, and Zulip then guesses the
 * type from the file name (zerver/lib/upload/__init__.py `get_file_info`).
 */
function partsDeclaringType(contentType: string | undefined, bytes: Buffer): boolean[] {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const boundary = m?.[1] ?? m?.[2];
  if (boundary === undefined) return [];
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The first delimiter may open the body without its CRLF (busboy reads a CRLF before it).
  const opens = bytes.subarray(0, delimiter.length - 2).equals(delimiter.subarray(2));
  const out: boolean[] = [];
  for (let at = opens ? -2 : bytes.indexOf(delimiter); at !== -1;) {
    const start = at + delimiter.length;
    if (bytes.toString('latin1', start, start + 2) === '--') break;
    const end = bytes.indexOf('\r\n\r\n', start);
    if (end === -1) break;
    const lines = bytes.toString('latin1', start, end).split('\r\n');
    if (lines.some((l) => /^content-disposition:[ \t]*form-data[ \t]*(?:;|$)/i.test(l)))
      out.push(lines.some((l) => /^content-type[ \t]*:/i.test(l)));
    at = bytes.indexOf(delimiter, end);
  }
  return out;
}

/** Parameters of a `multipart/form-data` body (file parts are not parameters: Django's `FILES`). */
function parseMultipart(
  headers: IncomingMessage['headers'],
  bytes: Buffer,
  files?: UploadedFile[],
): Promise<Array<[string, string]>> {
  // Django's MultiPartParser reads an empty body as no parameters.
  if (bytes.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers,
        limits: {
          fieldNameSize: MAX_BODY_BYTES,
          fieldSize: MAX_BODY_BYTES,
          fields: MAX_FIELDS,
        },
      });
    } catch {
      // No or an invalid boundary.
      reject(malformed());
      return;
    }
    const out: Array<[string, string]> = [];
    let failure: ApiError | undefined;
    // busboy reports the parts in order, each as a field or a file.
    const declaresType = partsDeclaringType(headers['content-type'], bytes);
    let part = 0;
    parser.on('field', (name: string, value: string) => {
      part++;
      out.push([name, value]);
    });
    parser.on(
      'file',
      (
        name: string,
        stream: NodeJS.ReadableStream,
        info: { filename?: string; mimeType?: string },
      ) => {
        const declared = declaresType[part++] ?? true;
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () =>
          files?.push({
            field: name,
            filename: info.filename ?? '',
            contentType: declared ? (info.mimeType ?? '') : '',
            bytes: Buffer.concat(chunks),
          }),
        );
      },
    );
    parser.on('fieldsLimit', () => {
      failure ??= tooManyFields();
    });
    parser.on('error', () => {
      failure ??= malformed();
      reject(failure);
    });
    parser.on('close', () => {
      if (failure) reject(failure);
      else resolve(out);
    });
    parser.end(bytes);
  });
}

/**
 * The body parameters of a request, as Zulip sees them: Django fills `request.POST` from
 * url-encoded and multipart bodies of POSTs, and Zulip's `process_as_post`
 * (zerver/decorator.py, applied by zerver/lib/rest.py `rest_dispatch` to DELETE, PATCH and PUT)
 * does the same for those methods. A body of any other content type, or of a GET, is not read:
 * its parameters are simply absent (so Zulip answers "Missing 'x' argument").
 */
export async function bodyParams(
  method: string,
  headers: IncomingMessage['headers'],
  bytes: Buffer,
  files?: UploadedFile[],
): Promise<Array<[string, string]>> {
  if (!['POST', 'PATCH', 'DELETE', 'PUT'].includes(method)) return [];
  const type = mediaType(headers['content-type']);
  if (type === 'application/x-www-form-urlencoded') return parseUrlEncoded(bytes.toString('utf8'));
  if (type === 'multipart/form-data') return parseMultipart(headers, bytes, files);
  return [];
}
