import { badRequest, missingArgument } from './errors';
import { NOT_JSON, parseJson } from './json-parse';

/**
 * Request parameters with Zulip's validation messages (zerver/lib/typed_endpoint.py
 * `ERROR_TEMPLATES`). Every getter declares the parameter, so `unsupported()` lists exactly the
 * parameters the endpoint does not know (`ignored_parameters_unsupported`).
 */
export class Params {
  private readonly raw: ReadonlyMap<string, string>;
  private readonly declared = new Set<string>();

  public constructor(raw: ReadonlyMap<string, string>) {
    this.raw = raw;
  }

  /** Declares parameters the endpoint accepts without reading them. */
  public declare(...names: string[]): void {
    for (const n of names) this.declared.add(n);
  }

  /** Whether the request carries `name` (and declares it). */
  public has(name: string): boolean {
    this.declared.add(name);
    return this.raw.has(name);
  }

  /** The raw text, if sent. */
  public raw_(name: string): string | undefined {
    this.declared.add(name);
    return this.raw.get(name);
  }

  /** Names sent but never declared, in the order they were sent. */
  public unsupported(): string[] {
    return [...this.raw.keys()].filter((k) => !this.declared.has(k));
  }

  /** A plain (not JSON-encoded) string. */
  public string(
    name: string,
    opts: { maxLength?: number; nonBlank?: boolean; strip?: boolean } = {},
  ): string | undefined {
    let v = this.raw_(name);
    if (v === undefined) return undefined;
    if (opts.strip) v = v.trim();
    if (opts.nonBlank && v.length === 0) throw badRequest(`${name} cannot be blank`);
    if (opts.maxLength !== undefined && [...v].length > opts.maxLength)
      throw badRequest(`${name} is too long (limit: ${opts.maxLength} characters)`);
    return v;
  }

  /** A required plain string: "Missing 'x' argument" when absent. */
  public requiredString(
    name: string,
    opts: { maxLength?: number; nonBlank?: boolean; strip?: boolean } = {},
  ): string {
    const v = this.string(name, opts);
    if (v === undefined) throw missingArgument(name);
    return v;
  }

  /**
   * A JSON-encoded value of any shape, numbers written with a fraction or an exponent as
   * `JsonFloat`s (parseJson), which the integer checks below refuse.
   */
  public json(name: string): unknown {
    const v = this.raw_(name);
    if (v === undefined) return undefined;
    const parsed = parseJson(v);
    if (parsed === NOT_JSON) throw badRequest(`${name} is not valid JSON`);
    return parsed;
  }

  /** A required JSON-encoded value. */
  public requiredJson(name: string): unknown {
    const v = this.json(name);
    if (v === undefined) throw missingArgument(name);
    return v;
  }

  /** A JSON boolean (`true` / `false`). */
  public bool(name: string): boolean | undefined {
    const v = this.json(name);
    if (v === undefined) return undefined;
    return expectBool(v, name);
  }

  /**
   * A JSON integer. Zulip parses `Json[int]` strictly (`validate_python(..., strict=True)`):
   * a JSON number with a fraction or an exponent is no integer, even `1.0`.
   */
  public int(name: string): number | undefined {
    const v = this.json(name);
    if (v === undefined) return undefined;
    return expectInt(v, name);
  }

  /** A JSON list of integers, each as strictly as {@link int}. */
  public intList(name: string): number[] | undefined {
    const v = this.json(name);
    if (v === undefined) return undefined;
    return expectIntList(v, name);
  }

  /** A JSON list of strings. */
  public stringList(name: string): string[] | undefined {
    const v = this.json(name);
    if (v === undefined) return undefined;
    return expectStringList(v, name);
  }
}

/** "x is not a boolean" unless `v` is a boolean. */
export function expectBool(v: unknown, name: string): boolean {
  if (typeof v !== 'boolean') throw badRequest(`${name} is not a boolean`);
  return v;
}

/**
 * "x is not an integer" unless `v` is an integer: a JSON integer, not a number written with a
 * fraction or an exponent (a `JsonFloat`, Python's float, which strict pydantic refuses).
 */
export function expectInt(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw badRequest(`${name} is not an integer`);
  return v;
}

/** "x is not a string" unless `v` is a string. */
export function expectString(v: unknown, name: string): string {
  if (typeof v !== 'string') throw badRequest(`${name} is not a string`);
  return v;
}

/** "x is not a list" unless `v` is an array. */
export function expectList(v: unknown, name: string): unknown[] {
  if (!Array.isArray(v)) throw badRequest(`${name} is not a list`);
  return v as unknown[];
}

/** A list of integers, each checked by {@link expectInt} under its index (`order[2]`). */
export function expectIntList(v: unknown, name: string): number[] {
  return expectList(v, name).map((x, i) => expectInt(x, `${name}[${i}]`));
}

/** A list of strings, each checked by {@link expectString} under its index (`delete[0]`). */
export function expectStringList(v: unknown, name: string): string[] {
  return expectList(v, name).map((x, i) => expectString(x, `${name}[${i}]`));
}

/** "x is not a dict" unless `v` is a plain object. */
export function expectDict(v: unknown, name: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw badRequest(`${name} is not a dict`);
  return v as Record<string, unknown>;
}
