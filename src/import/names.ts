/**
 * Names for generated code: TypeScript identifiers and construct ids derived from Zulip names,
 * readable, short enough that a declaration stays on one line, and unique.
 */

/** Identifiers a generated variable must not take (keywords, globals, the app's own names). */
const RESERVED = new Set([
  // ECMAScript keywords and strict-mode reserved words
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
  'let',
  'static',
  'implements',
  'interface',
  'package',
  'private',
  'protected',
  'public',
  'await',
  'arguments',
  'eval',
  // TypeScript and well-known globals that would confuse a reader
  'any',
  'as',
  'async',
  'boolean',
  'constructor',
  'declare',
  'from',
  'get',
  'infer',
  'is',
  'keyof',
  'module',
  'namespace',
  'never',
  'number',
  'object',
  'of',
  'readonly',
  'require',
  'set',
  'string',
  'symbol',
  'type',
  'undefined',
  'unique',
  'unknown',
  'NaN',
  'Infinity',
  'globalThis',
  'process',
  'console',
  // names the generated code itself uses
  'app',
  'org',
  'groups',
  'channels',
  'folders',
]);

/** Longest derived identifier or construct id, before a collision suffix. */
export const MAX_NAME_LENGTH = 28;

/** Words of a Zulip name, ASCII letters and digits only (accents dropped), lower-cased. */
export function wordsOf(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** Joins words up to `max` characters, dropping whole words from the end when possible. */
function clip(words: string[], join: (ws: string[]) => string, max: number): string {
  let ws = [...words];
  while (ws.length > 1 && join(ws).length > max) ws = ws.slice(0, -1);
  const out = join(ws);
  return out.length > max ? out.slice(0, max) : out;
}

/**
 * A camelCase identifier for a Zulip name: `'Retired team'` → `retiredTeam`. `suffix` is a
 * word appended to every name of the kind (`Folder`), unless the name already says it
 * (`'Ops folder'` → `opsFolder`, not `opsFolderFolder`); `kind` replaces an empty name and
 * prefixes a name starting with a digit; reserved words get the kind appended.
 */
export function identifierFor(name: string, kind: string, suffix = ''): string {
  const words = wordsOf(name);
  if (suffix !== '' && words.includes(suffix.toLowerCase())) suffix = '';
  const camel = (ws: string[]): string =>
    ws.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  const max = MAX_NAME_LENGTH - suffix.length;
  let base = words.length === 0 ? kind : clip(words, camel, max);
  if (/^[0-9]/.test(base)) {
    // Prefixed with its kind, the name says what it is: `channel2024Plans`, not
    // `channel2024PlansChannel`.
    if (suffix.toLowerCase() === kind.toLowerCase()) suffix = '';
    base = clip([kind, ...words], camel, MAX_NAME_LENGTH - suffix.length);
  }
  let id = base + suffix;
  if (RESERVED.has(id)) id = base + kind.charAt(0).toUpperCase() + kind.slice(1);
  return id;
}

/** A kebab-case construct id for a Zulip name: `'Retired team'` → `retired-team`. */
export function constructIdFor(name: string, fallback: string, suffix = ''): string {
  const words = wordsOf(name);
  const max = MAX_NAME_LENGTH - suffix.length;
  const base = words.length === 0 ? fallback : clip(words, (ws) => ws.join('-'), max);
  return base + suffix;
}

/** Hands out unique names: a name already taken gets `2`, `3`, ... appended (with `sep`). */
export class NameAllocator {
  private readonly taken = new Set<string>();

  public constructor(private readonly sep = '') {}

  /** Reserves `name` (or a suffixed variant) and returns it. */
  public allocate(name: string): string {
    let candidate = name;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++)
      candidate = `${name}${this.sep}${n}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
