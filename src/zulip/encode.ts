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
