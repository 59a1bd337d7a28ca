import { randomBytes } from 'node:crypto';
import type { UploadFile } from './http-types';

/**
 * Zulip's wire conventions for parameters (NOTES section 1): plain strings travel as they
 * are; everything else (lists, objects, booleans, numbers, null) travels JSON-encoded in one
 * form field. A few parameters take a JSON-encoded string (e.g. `message_retention_days` =
 * `"unlimited"`, `Json[str]` upstream): callers name those in `jsonStrings`.
 */

/** Encodes one parameter value; `undefined` means "leave the parameter out". */
export function encodeParam(value: unknown, jsonString = false): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return jsonString ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

/** Encodes parameters as `application/x-www-form-urlencoded` (also used for GET query strings). */
export function encodeForm(
  params: object | undefined,
  jsonStrings: readonly string[] = [],
): string {
  const form = new URLSearchParams();
  if (params === undefined) return '';
  for (const [name, value] of Object.entries(params) as [string, unknown][]) {
    const encoded = encodeParam(value, jsonStrings.includes(name));
    if (encoded !== undefined) form.append(name, encoded);
  }
  return form.toString();
}

/** Encodes one path segment (`{stream_id}`, `{email}`). */
export function pathSegment(value: string | number): string {
  return encodeURIComponent(String(value));
}

/** Encodes a path parameter that may hold slashes (a navigation view's `fragment`). */
export function pathWithSlashes(value: string): string {
  return value
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}

/**
 * A `multipart/form-data` body (RFC 7578): the parameters as Zulip encodes them, then the files.
 * The boundary is random and checked against the content, so no part can contain it.
 */
export function encodeMultipart(
  fields: readonly [string, string][],
  files: readonly UploadFile[],
): { body: Buffer; contentType: string } {
  const quote = (v: string): string => v.replace(/["\\\r\n]/g, (c) => encodeURIComponent(c));
  for (;;) {
    const boundary = `zulip-cdk-${randomBytes(16).toString('hex')}`;
    const parts: Buffer[] = [];
    for (const [name, value] of fields)
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`,
        ),
      );
    for (const f of files) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${quote(f.field)}"; filename="${quote(f.filename)}"\r\nContent-Type: ${f.contentType}\r\n\r\n`,
        ),
        Buffer.from(f.bytes),
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    const body = Buffer.concat(parts);
    // A boundary that occurs in the content would cut a part short: pick another.
    const inside = Buffer.concat([
      ...fields.map(([, v]) => Buffer.from(v)),
      ...files.map((f) => Buffer.from(f.bytes)),
    ]);
    if (!inside.includes(boundary))
      return { body, contentType: `multipart/form-data; boundary=${boundary}` };
  }
}
