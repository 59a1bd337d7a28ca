/**
 * Response bodies: the JSON text of a handler's answer, its large lists written item by item.
 * A register at scale 10 is 80 MB; as one `JSON.stringify` of a tree of 140,000 built objects
 * it cost garbage collections that copied every object of the tree while it was being built,
 * and the bytes of the whole body at once (fresh memory each time, which V8 also counts as
 * external memory: 80 MB of it starts a full garbage collection).
 */

/**
 * A list of a response built while the body is written: each item's object is made, written
 * and dropped, so it never outlives the young generation. `JSON.stringify` sees the array
 * (`toJSON`), and {@link materialize} gives it to a response observer.
 */
export class LazyList<T> {
  public constructor(
    private readonly items: readonly T[],
    private readonly view: (item: T) => unknown,
  ) {}

  public get length(): number {
    return this.items.length;
  }

  /** Each item's view, in order. */
  public forEachView(f: (value: unknown) => void): void {
    for (const item of this.items) f(this.view(item));
  }

  public toJSON(): unknown[] {
    return this.items.map((item) => this.view(item));
  }
}

/** The body with its lazy lists made arrays (what an observer of the response sees). */
export function materialize(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) out[k] = v instanceof LazyList ? v.toJSON() : v;
  return out;
}

/**
 * An encoded body: a small one as its bytes; a large one as its JSON text in parts of about a
 * megabyte, encoded while it is sent (server.ts), and its length in UTF-8 bytes.
 */
export type EncodedBody =
  | { readonly length: number; readonly bytes: Buffer }
  | { readonly length: number; readonly parts: readonly string[] };

/** Bodies up to this size (in UTF-16 units of the JSON text) are encoded at once. */
const SMALL_BODY = 1 << 20;
/** Parts of about this size: each is one string outside the young generation, never copied. */
const PART_SIZE = 1 << 20;

/** Gathers the text in parts, counting its UTF-8 length. */
class PartWriter {
  private readonly parts: string[] = [];
  private length = 0;
  private pending: string[] = [];
  private pendingUnits = 0;

  public write(text: string): void {
    this.pending.push(text);
    this.pendingUnits += text.length;
    if (this.pendingUnits >= PART_SIZE) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const part = this.pending.join('');
    this.pending = [];
    this.pendingUnits = 0;
    this.parts.push(part);
    this.length += Buffer.byteLength(part);
  }

  public finish(): EncodedBody {
    this.flush();
    return { length: this.length, parts: this.parts };
  }
}

/**
 * The UTF-8 bytes of `JSON.stringify(body)`, the same bytes: keys in the same order, those
 * whose value JSON leaves out (undefined, functions) left out, a {@link LazyList} written item
 * by item (an item JSON leaves out is `null`, as in an array). A small body is its bytes; a
 * large one its text, encoded as it is sent.
 */
export function encodeJsonBody(body: Record<string, unknown>): EncodedBody {
  const lazy = Object.values(body).some((v) => v instanceof LazyList);
  if (!lazy) {
    const text = JSON.stringify(body);
    if (text.length <= SMALL_BODY) {
      const bytes = Buffer.from(text);
      return { length: bytes.length, bytes };
    }
    return { length: Buffer.byteLength(text), parts: [text] };
  }
  const w = new PartWriter();
  let sep = '{';
  for (const [key, value] of Object.entries(body)) {
    if (value instanceof LazyList) {
      w.write(`${sep}${JSON.stringify(key)}:[`);
      let first = true;
      value.forEachView((item) => {
        const text = JSON.stringify(item) as string | undefined;
        w.write(first ? (text ?? 'null') : `,${text ?? 'null'}`);
        first = false;
      });
      w.write(']');
    } else {
      const text = JSON.stringify(value) as string | undefined;
      if (text === undefined) continue;
      w.write(`${sep}${JSON.stringify(key)}:${text}`);
    }
    sep = ',';
  }
  w.write(sep === '{' ? '{}' : '}');
  return w.finish();
}
