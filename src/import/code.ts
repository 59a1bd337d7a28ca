/**
 * A small code model and printer for the generated TypeScript. It prints what prettier (the
 * project's settings: single quotes, width 100, trailing commas) would print for the few shapes
 * the importer emits, so the output needs no formatter at run time (prettier is only a
 * development dependency). The tests check the output with `prettier.check`.
 */

/** Prettier's `printWidth` in the project's configuration. */
export const PRINT_WIDTH = 100;

/** Where a reference points: resolved to a variable name when the file is printed. */
export interface RefTarget {
  readonly kind: 'group' | 'folder' | 'channel';
  readonly key: string;
}

/** An expression in generated code. */
export type Expr =
  | { readonly t: 'raw'; readonly code: string }
  | { readonly t: 'str'; readonly value: string }
  | { readonly t: 'ref'; readonly target: RefTarget }
  | { readonly t: 'array'; readonly items: readonly Expr[] }
  | { readonly t: 'object'; readonly entries: readonly Entry[] }
  | { readonly t: 'call'; readonly callee: string; readonly entries: readonly Entry[] };

/** One property of an object literal, with comment lines above it. */
export interface Entry {
  readonly key: string;
  readonly value: Expr;
  readonly comments?: readonly string[];
}

/** Code written as it is: an identifier, `true`, a number, `SystemGroup.ADMINISTRATORS`. */
export const raw = (code: string): Expr => ({ t: 'raw', code });
/** A string literal. */
export const str = (value: string): Expr => ({ t: 'str', value });
/** A reference to a declared construct, printed as its variable. */
export const ref = (kind: RefTarget['kind'], key: string): Expr => ({
  t: 'ref',
  target: { kind, key },
});
/** An array literal. */
export const arr = (items: readonly Expr[]): Expr => ({ t: 'array', items });

/** An object key as prettier prints it: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name);
}

/** Resolves a reference to code, in the file being printed. */
export type RefResolver = (target: RefTarget) => string;

/**
 * A string literal as prettier writes it: single quotes unless the text holds more single than
 * double quotes; backslashes, the chosen quote, line breaks, control characters, U+2028/2029
 * and lone surrogates escaped; every other character (accents, emoji) kept as it is.
 */
export function quote(value: string): string {
  const singles = (value.match(/'/g) ?? []).length;
  const doubles = (value.match(/"/g) ?? []).length;
  const q = singles > doubles ? '"' : "'";
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value.charAt(i);
    const code = value.charCodeAt(i);
    if (ch === '\\') out += '\\\\';
    else if (ch === q) out += `\\${q}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029)
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += value.slice(i, i + 2);
        i++;
      } else out += `\\u${code.toString(16)}`;
    } else if (code >= 0xdc00 && code <= 0xdfff) out += `\\u${code.toString(16)}`;
    else out += ch;
  }
  return q + out + q;
}

/**
 * Display width as prettier measures it (`getStringWidth`): an emoji (with its modifiers and
 * joined sequence) counts 2, wide East Asian characters count 2, combining marks 0.
 */
export function width(text: string): number {
  let w = 0;
  let joining = false;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp === 0x200d) {
      joining = true;
      continue;
    }
    const modifier =
      cp === 0xfe0f || cp === 0xfe0e || (cp >= 0x1f3fb && cp <= 0x1f3ff) || /\p{M}/u.test(ch);
    if (modifier) continue;
    if (joining) {
      joining = false;
      continue;
    }
    const wide =
      /\p{Emoji_Presentation}/u.test(ch) ||
      (cp >= 0x1100 && cp <= 0x115f) ||
      (cp >= 0x2e80 && cp <= 0xa4cf) ||
      (cp >= 0xac00 && cp <= 0xd7a3) ||
      (cp >= 0xf900 && cp <= 0xfaff) ||
      (cp >= 0xfe30 && cp <= 0xfe4f) ||
      (cp >= 0xff00 && cp <= 0xff60) ||
      (cp >= 0xffe0 && cp <= 0xffe6) ||
      (cp >= 0x20000 && cp <= 0x3fffd);
    w += wide ? 2 : 1;
  }
  return w;
}

const fits = (line: string): boolean => width(line) <= PRINT_WIDTH;

/** An expression on one line, or undefined when it has no one-line form (objects). */
function inline(e: Expr, resolve: RefResolver): string | undefined {
  switch (e.t) {
    case 'raw':
      return e.code;
    case 'str':
      return quote(e.value);
    case 'ref':
      return resolve(e.target);
    case 'array': {
      const items = e.items.map((i) => inline(i, resolve));
      if (items.some((i) => i === undefined)) return undefined;
      return `[${items.join(', ')}]`;
    }
    case 'object':
      return undefined;
    case 'call': {
      const parts: string[] = [];
      for (const entry of e.entries) {
        if (entry.comments?.length) return undefined;
        const v = inline(entry.value, resolve);
        if (v === undefined) return undefined;
        parts.push(`${entry.key}: ${v}`);
      }
      return parts.length === 0 ? `${e.callee}({})` : `${e.callee}({ ${parts.join(', ')} })`;
    }
  }
}

/** The lines of one object property at `indent` spaces, with its trailing comma. */
export function printEntry(entry: Entry, indent: number, resolve: RefResolver): string[] {
  const pad = ' '.repeat(indent);
  const out = (entry.comments ?? []).map((c) => `${pad}// ${c}`);
  const prefix = `${pad}${entry.key}: `;
  const v = entry.value;
  const one = inline(v, resolve);
  if (one !== undefined && fits(`${prefix}${one},`)) return [...out, `${prefix}${one},`];
  switch (v.t) {
    case 'str':
    case 'raw':
    case 'ref':
      // Prettier moves a long string after the colon unless the key is short.
      if (v.t === 'str' && entry.key.length >= 5)
        return [...out, `${pad}${entry.key}:`, `${pad}  ${one ?? ''},`];
      return [...out, `${prefix}${one ?? ''},`];
    case 'array':
      if (v.items.length === 0) return [...out, `${prefix}[],`];
      return [
        ...out,
        `${prefix}[`,
        ...v.items.flatMap((item) => printItem(item, indent + 2, resolve)),
        `${pad}],`,
      ];
    case 'object':
      return [...out, `${prefix}{`, ...printEntries(v.entries, indent + 2, resolve), `${pad}},`];
    case 'call':
      return [
        ...out,
        `${prefix}${v.callee}({`,
        ...printEntries(v.entries, indent + 2, resolve),
        `${pad}}),`,
      ];
  }
}

function printItem(item: Expr, indent: number, resolve: RefResolver): string[] {
  const pad = ' '.repeat(indent);
  return [`${pad}${inline(item, resolve) ?? ''},`];
}

/** The lines of an object's properties. */
export function printEntries(
  entries: readonly Entry[],
  indent: number,
  resolve: RefResolver,
): string[] {
  return entries.flatMap((e) => printEntry(e, indent, resolve));
}

/**
 * `head({` ... `});`: a construct declaration whose last argument is its props, at `indent`.
 * `head` is everything up to the props, such as `const x = new Channel(org, 'x', `.
 */
export function printCall(
  head: string,
  entries: readonly Entry[],
  indent: number,
  resolve: RefResolver,
): string[] {
  const pad = ' '.repeat(indent);
  return [`${pad}${head}{`, ...printEntries(entries, indent + 2, resolve), `${pad}});`];
}

/** An import declaration, broken one name per line when it is too long. */
export function printImport(names: readonly string[], from: string, typeOnly = false): string[] {
  const kw = typeOnly ? 'import type' : 'import';
  const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const one = `${kw} { ${sorted.join(', ')} } from ${quote(from)};`;
  if (fits(one)) return [one];
  return [`${kw} {`, ...sorted.map((n) => `  ${n},`), `} from ${quote(from)};`];
}

/** `// text` lines, wrapped at the print width (comments are never reflowed by prettier). */
export function commentLines(text: string, indent = 0, prefix = '// '): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && width(pad + prefix + candidate) > PRINT_WIDTH) {
      lines.push(pad + prefix + line);
      line = word;
    } else line = candidate;
  }
  lines.push(pad + prefix + line);
  return lines.map((l) => l.trimEnd());
}
