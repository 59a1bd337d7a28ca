/**
 * JSON as Zulip's request parsers read it. To them (pydantic's `Json[...]`, orjson), a number
 * written with a fraction or an exponent is a `float` even when it is whole (`1.0`, `1e3`), and
 * a float is no integer: pydantic's strict `int` refuses it (`int_type`, "x is not an
 * integer", zerver/lib/typed_endpoint.py parse_value_for_parameter validates with
 * `strict=True`, nested models and dataclasses included), and so does `isinstance(x, int)`
 * (zerver/actions/message_send.py extract_private_recipients, zerver/lib/validator.py
 * check_string_or_int). JSON.parse cannot tell `1.0` from `1`; {@link parseJson} keeps them
 * apart by giving every such number as a {@link JsonFloat}, so that a check for an integer
 * (`typeof v === 'number'`, `Number.isInteger(v)`) refuses it wherever it is in the value.
 */

/**
 * A JSON number written with a fraction or an exponent: Python's `float`. Only a parameter
 * that takes a float (`DraftData.timestamp: int | float | None`) reads its `value`; it is
 * serialised as that number.
 */
export class JsonFloat {
  public constructor(public readonly value: number) {}

  public toJSON(): number {
    return this.value;
  }
}

/** A digit followed by what only a fraction or an exponent has: text that may hold a float. */
const MAY_HOLD_FLOAT = /[0-9][.eE]/;
const WHITESPACE = /[ \t\n\r]*/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

/** What {@link parseJson} gives for text that is not JSON. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * Parses JSON text as JSON.parse does ({@link NOT_JSON} for text it refuses), except that
 * numbers written with a fraction or an exponent are {@link JsonFloat}s.
 */
export function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
  if (!MAY_HOLD_FLOAT.test(text)) return value;
  return new FloatReader(text).value();
}

/** Reads text JSON.parse has accepted, so it meets no syntax error. */
class FloatReader {
  private at = 0;

  public constructor(private readonly text: string) {}

  public value(): unknown {
    this.skip(WHITESPACE);
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return JSON.parse(this.skip(STRING)[0]) as string;
    for (const [word, v] of LITERALS)
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return v;
      }
    const m = this.skip(NUMBER);
    const n = Number(m[0]);
    return m[1] === undefined && m[2] === undefined ? n : new JsonFloat(n);
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.at++;
    while (this.next() !== '}') {
      const key = JSON.parse(this.skip(STRING)[0]) as string;
      this.next(); // ':'
      this.at++;
      // As JSON.parse: an own property even for `__proto__`, the last of repeated keys.
      Object.defineProperty(out, key, {
        value: this.value(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (this.next() === ',') this.at++;
    }
    this.at++;
    return out;
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.at++;
    while (this.next() !== ']') {
      out.push(this.value());
      if (this.next() === ',') this.at++;
    }
    this.at++;
    return out;
  }

  /** The next character after whitespace. */
  private next(): string | undefined {
    this.skip(WHITESPACE);
    return this.text[this.at];
  }

  private skip(re: RegExp): RegExpExecArray {
    re.lastIndex = this.at;
    const m = re.exec(this.text);
    // Unreachable: JSON.parse has accepted the text.
    if (m === null) throw new Error(`JSON token expected at position ${this.at}`);
    this.at = re.lastIndex;
    return m;
  }
}

const LITERALS: ReadonlyArray<[string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];
