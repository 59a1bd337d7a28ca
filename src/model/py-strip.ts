/** Python's `str.isspace` characters (JS `\s` without U+FEFF, with U+001C..U+001F and U+0085). */
const PY_SPACE =
  '[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'g');

/**
 * Python's `str.strip()`, which Zulip applies to names before checking them. A module of its
 * own, importing nothing, so that the kinds' specs can use it (`./rules.ts` imports the kinds).
 */
export function pyStrip(s: string): string {
  return s.replace(PY_STRIP, '');
}
