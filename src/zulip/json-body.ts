import { randomUUID } from 'node:crypto';
import type { ZulipBody } from './http-types';

/** A response body, read whole; parsed after the response is reported. */
export interface ResponseBody {
  /** Its first 200 characters, for messages about a body that is not Zulip's JSON. */
  readonly start: string;
  /**
   * The body parsed, when it is a JSON object (else undefined). Once: a large body's memory is
   * given back as soon as it is parsed.
   */
  parse(): ZulipBody | undefined;
}

/** A body from this size on is read into one buffer of its length (1 MB). */
const LARGE_BODY = 1 << 20;

/** Characters of a body kept for messages. */
const START = 200;

/**
 * Reads a response body. Undici's `text()` keeps every chunk until the end and then
 * concatenates them, twice the body in memory: a large body whose length is known is copied
 * into one buffer of its length as it arrives instead, and parsed from it (see
 * {@link parseJsonBytes}), never decoded whole (the register response of the largest
 * organizations is 62 MB, issue 17). The text is UTF-8, a byte-order mark dropped, as `text()`
 * gives it.
 */
export async function readResponseBody(
  body: AsyncIterable<Buffer> & { text(): Promise<string> },
  length: number | undefined,
): Promise<ResponseBody> {
  if (length === undefined || length < LARGE_BODY) {
    const text = await body.text();
    return { start: text.slice(0, START), parse: () => jsonObject(() => JSON.parse(text)) };
  }
  let buf = Buffer.allocUnsafe(length);
  let at = 0;
  for await (const chunk of body) {
    // More than announced (undici refuses it, but never write past the end).
    if (at + chunk.length > buf.length) buf = Buffer.concat([buf.subarray(0, at), chunk]);
    else chunk.copy(buf, at);
    at += chunk.length;
  }
  const bom = at >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  // At most three bytes of UTF-8 per UTF-16 code unit.
  const start = buf.toString('utf8', bom, Math.min(at, bom + 3 * START)).slice(0, START);
  return {
    start,
    parse: () => {
      try {
        return jsonObject(() => parseJsonBytes(buf, bom, at));
      } finally {
        release(buf);
      }
    },
  };
}

function jsonObject(parse: () => unknown): ZulipBody | undefined {
  try {
    const v = parse();
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as ZulipBody) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Gives the memory of a buffer of ours back now, not at the next full garbage collection (80 MB
 * at the largest sizes, issue 17). Transferring the buffer's memory detaches it (its length is
 * 0 after); the copy that takes it over is garbage at once.
 */
function release(buf: Buffer): void {
  const memory = buf.buffer;
  // Only memory the buffer has to itself (a small one shares Node's pool).
  if (memory instanceof ArrayBuffer && buf.byteOffset === 0 && memory.byteLength === buf.length)
    structuredClone(memory, { transfer: [memory] });
}

/** `":[{`: a member whose value is a list of objects. */
const LIST_OF_OBJECTS = Buffer.from('":[{');
/** `},{"`: between two objects of a list, most likely. */
const BETWEEN = Buffer.from('},{"');
/** `}]`: the end of a list of objects, maybe. */
const LIST_END = Buffer.from('}]');
/** Lists of objects from this size on are parsed a piece at a time. */
const LARGE_LIST = 1 << 20;
/** About the size of one piece (a string of up to 128 KB is an ordinary young object). */
const PIECE = 1 << 16;
/** Pieces that may fail to parse before the body is parsed whole. */
const MAX_MISSES = 32;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const CLOSE_BRACE = 0x7d;
const COLON = 0x3a;

/** Whether `buf[at]` opens a key: a string followed by `:` (no escaped quote in it). */
function opensKey(buf: Buffer, at: number): boolean {
  if (buf[at] !== QUOTE) return false;
  const close = buf.indexOf(QUOTE, at + 1);
  return close > 0 && buf[close + 1] === COLON;
}

/**
 * The next `},{"` from `from` that may be between two objects of a list: the object after it
 * starts with a key (not `},{` at the end of a string). -1: none before `end`.
 */
function nextBetween(buf: Buffer, from: number, end: number): number {
  for (let i = buf.indexOf(BETWEEN, from); i >= 0 && i < end; i = buf.indexOf(BETWEEN, i + 1))
    if (opensKey(buf, i + 3)) return i;
  return -1;
}

/**
 * The next `}]` from `from` that may end a member's list of objects: followed by the end of
 * the object (`}`) or by the next member (`,` and a key), not by the end of a string. -1: none
 * before `end`.
 */
function nextListEnd(buf: Buffer, from: number, end: number): number {
  for (
    let i = buf.indexOf(LIST_END, from);
    i >= 0 && i + 2 < end;
    i = buf.indexOf(LIST_END, i + 1)
  ) {
    const next = buf[i + 2];
    if (next === CLOSE_BRACE || (next === COMMA && opensKey(buf, i + 3))) return i;
  }
  return -1;
}

/**
 * `JSON.parse` of the UTF-8 bytes `buf[start, end)`, the same value, without decoding them into
 * one string: the large lists of objects a JSON object holds (users, channels with their
 * subscribers) are decoded and parsed a piece of about 64 KB at a time, and the rest of the
 * object with a marker in place of each list. The text of a large body is then never whole in
 * memory: decoded at once, it is a string as large as the body that outlives its parse until
 * the next full garbage collection, which V8 does not make before a plan ends (62 MB of the
 * planning process's peak at the largest sizes, issue 17).
 *
 * Where the lists and pieces end is guessed from the bytes (`":[{`, `},{"`, `}]`); every guess
 * is checked by the parses themselves: a piece parses as a list only when it is whole objects
 * and the list goes on (or ends) where it was cut, and the rest parses with each marker as the
 * value of a member of the object only when each list was one. A piece that does not parse is
 * made longer; failing that, or anything else unexpected, the bytes are parsed whole.
 */
export function parseJsonBytes(buf: Buffer, start: number, end: number): unknown {
  return (
    (end - start >= LARGE_LIST ? parseInPieces(buf, start, end) : undefined) ??
    JSON.parse(buf.toString('utf8', start, end))
  );
}

/** `buf[from, to]` (both ends included) as a list: the bytes around it are made brackets. */
function parseList(buf: Buffer, from: number, to: number): unknown[] | undefined {
  const before = buf[from - 1] as number;
  const after = buf[to + 1] as number;
  buf[from - 1] = OPEN_BRACKET;
  buf[to + 1] = CLOSE_BRACKET;
  let text: string;
  try {
    text = buf.toString('utf8', from - 1, to + 2);
  } finally {
    buf[from - 1] = before;
    buf[to + 1] = after;
  }
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * See {@link parseJsonBytes}; undefined when the bytes are not an object whose large lists of
 * objects could be cut into pieces.
 */
function parseInPieces(buf: Buffer, start: number, end: number): object | undefined {
  const nonce = randomUUID();
  const rest: string[] = [];
  const lists = new Map<string, unknown[][]>();
  let copied = start;
  let misses = 0;
  for (let at = buf.indexOf(LIST_OF_OBJECTS, start); at >= 0 && at < end;) {
    const open = at + 2;
    const pieces: unknown[][] = [];
    let from = open + 1;
    let listEnd = nextListEnd(buf, from, end);
    let close = -1;
    while (close < 0) {
      if (listEnd < 0) return undefined;
      let between = nextBetween(buf, from + PIECE, end);
      for (;;) {
        const last = between < 0 || listEnd < between;
        const to = last ? listEnd : between;
        const piece = parseList(buf, from, to);
        if (piece) {
          pieces.push(piece);
          if (last) close = to + 1;
          else from = to + 2;
          break;
        }
        // Cut inside an object or a string: the next possible end, or one more object.
        if (++misses > MAX_MISSES) return undefined;
        if (!last) between = nextBetween(buf, between + 1, end);
        else if ((listEnd = nextListEnd(buf, listEnd + 1, end)) < 0) return undefined;
      }
    }
    if (close - open >= LARGE_LIST) {
      const marker = `${nonce}:${lists.size}`;
      rest.push(buf.toString('utf8', copied, open), JSON.stringify(marker));
      lists.set(marker, pieces);
      copied = close + 1;
    }
    at = buf.indexOf(LIST_OF_OBJECTS, close + 1);
  }
  if (lists.size === 0) return undefined;
  rest.push(buf.toString('utf8', copied, end));
  let top: unknown;
  try {
    top = JSON.parse(rest.join(''));
  } catch {
    // Not JSON with the markers in: the parse of the whole bytes says what it is.
    return undefined;
  }
  if (typeof top !== 'object' || top === null || Array.isArray(top)) return undefined;
  const o = top as Record<string, unknown>;
  let found = 0;
  for (const key of Object.keys(o)) {
    const value = o[key];
    const pieces = typeof value === 'string' ? lists.get(value) : undefined;
    if (!pieces) continue;
    const list: unknown[] = [];
    for (const piece of pieces) for (let i = 0; i < piece.length; i++) list.push(piece[i]);
    // Not `o[key] =`: a member named `__proto__` is an own property, as JSON.parse makes it.
    Object.defineProperty(o, key, {
      value: list,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    found += 1;
  }
  // A marker elsewhere than as a member's value: a list was not one of the object's.
  return found === lists.size ? o : undefined;
}
