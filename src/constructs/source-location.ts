import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IConstruct } from 'constructs';

/**
 * Where each construct was created: the stack of its `new`, captured with one frame and left
 * unformatted (V8 formats it, source maps applied, only when `.stack` is read: for a problem).
 */
const SITES = new WeakMap<IConstruct, { stack?: string }>();

/**
 * Records where `construct` is being created: the frame that called `new` of `constructor`
 * (pass `new.target`), so a user's `new Channel(...)` points at the user's line, and a
 * construct made inside a composite construct's constructor at that constructor's line.
 */
export function recordCreationSite(
  construct: IConstruct,
  constructor: Parameters<typeof Error.captureStackTrace>[1],
): void {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 1;
  try {
    Error.captureStackTrace(holder, constructor);
  } finally {
    Error.stackTraceLimit = limit;
  }
  SITES.set(construct, holder);
}

/**
 * Where `construct` was created, as `file:line:column` (the file relative to the working
 * directory when it is under it), or undefined when it was not recorded or cannot be read.
 */
export function creationSite(construct: IConstruct): string | undefined {
  const frame = SITES.get(construct)?.stack?.split('\n')[1];
  if (frame === undefined) return undefined;
  // `    at f (/dir/file.ts:3:5)`, `    at /dir/file.ts:3:5`, `    at file:///dir/file.mjs:3:5`
  const m = /\bat (?:.*? \()?(.+?):(\d+):(\d+)\)?$/.exec(frame.trim());
  if (!m) return undefined;
  let file = m[1]!;
  if (file.startsWith('file://')) {
    try {
      file = fileURLToPath(file);
    } catch {
      return undefined;
    }
  }
  if (!isAbsolute(file)) return undefined; // node:internal, <anonymous>, eval
  const rel = relative(process.cwd(), file);
  return `${rel.startsWith('..') || isAbsolute(rel) ? file : rel}:${m[2]}:${m[3]}`;
}
