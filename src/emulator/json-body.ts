/**
 * Response bodies as bytes: the JSON text of a handler's answer, written straight into reused
 * chunks of memory. A register at scale 10 is 80 MB; as one `JSON.stringify` of a tree of
 * 140,000 built objects it cost the string (fresh memory each time), a buffer for its bytes,
 * and garbage collections that copied every object of the tree while it was being built.
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

/** An encoded body: its chunks in order and their total length. */
export interface EncodedBody {
  readonly chunks: readonly Buffer[];
  readonly length: number;
  /** Gives reused chunks back once the response has been sent. */
  release(): void;
}

/** Bodies up to this size (in UTF-16 units of the JSON text) are one new buffer. */
const SMALL_BODY = 1 << 20;
const CHUNK_SIZE = 1 << 20;
/** At most this many free chunks are kept (a register at scale 10 fills 80 of them). */
const MAX_FREE_CHUNKS = 128;
const freeChunks: Buffer[] = [];
const utf8 = new TextEncoder();

/** Strings gathered before they are encoded (one encoding call per 64 K units, not per item). */
const FLUSH_AT = 1 << 16;

class ChunkWriter {
  private readonly chunks: Buffer[] = [];
  /** Bytes used in each full chunk (a character that does not fit leaves a few unused). */
  private readonly sizes: number[] = [];
  private current: Buffer;
  private used = 0;
  private parts: string[] = [];
  private pending = 0;

  public constructor() {
    this.current = this.newChunk();
  }

  private newChunk(): Buffer {
    if (this.chunks.length > 0) this.sizes.push(this.used);
    const chunk = freeChunks.pop() ?? Buffer.allocUnsafeSlow(CHUNK_SIZE);
    this.chunks.push(chunk);
    this.used = 0;
    return chunk;
  }

  public write(text: string): void {
    this.parts.push(text);
    this.pending += text.length;
    if (this.pending >= FLUSH_AT) this.flush();
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    let text = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
    this.parts = [];
    this.pending = 0;
    for (;;) {
      const r = utf8.encodeInto(text, this.current.subarray(this.used));
      this.used += r.written;
      if (r.read === text.length) return;
      // The chunk is full (encodeInto never splits a character): go on in a new one.
      text = text.slice(r.read);
      this.current = this.newChunk();
    }
  }

  public finish(): EncodedBody {
    this.flush();
    const chunks = this.chunks;
    const sizes = [...this.sizes, this.used];
    const sent = chunks.map((c, i) => c.subarray(0, sizes[i]));
    let released = false;
    return {
      chunks: sent,
      length: sizes.reduce((a, b) => a + b, 0),
      release: () => {
        if (released) return;
        released = true;
        for (const c of chunks) if (freeChunks.length < MAX_FREE_CHUNKS) freeChunks.push(c);
      },
    };
  }
}

/**
 * The UTF-8 bytes of `JSON.stringify(body)`, the same bytes: keys in the same order, those
 * whose value JSON leaves out (undefined, functions) left out, a {@link LazyList} written item
 * by item (an item JSON leaves out is `null`, as in an array). A small body is one buffer; a
 * large one is written into reused chunks.
 */
export function encodeJsonBody(body: Record<string, unknown>): EncodedBody {
  const lazy = Object.values(body).some((v) => v instanceof LazyList);
  if (!lazy) {
    const text = JSON.stringify(body);
    if (text.length <= SMALL_BODY) {
      const bytes = Buffer.from(text);
      return { chunks: [bytes], length: bytes.length, release: () => undefined };
    }
    const w = new ChunkWriter();
    w.write(text);
    return w.finish();
  }
  const w = new ChunkWriter();
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
