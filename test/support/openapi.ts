/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return --
   the OpenAPI document is untyped JSON; tests read it structurally. */
/**
 * Zulip's OpenAPI description (test/fixtures/zulip-api/zulip.yaml, Zulip 10.2, FL 372) for tests:
 * loaded once per test file (it is 1.2 MB), with helpers to find an operation, list its
 * parameters (and which travel JSON-encoded) and collect its example responses.
 *
 * For response validation with ajv, use `resolveSchema(responseSchema(op, '200'))` (refs
 * inlined) with `new Ajv({ strict: false })` plus ajv-formats; OpenAPI 3.0's `nullable` needs
 * the `nullable` keyword support ajv has built in (`new Ajv({ strict: false })` accepts it).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** Where the yaml is: kept in the repository (see its SOURCE.md). */
export const OPENAPI_PATH = path.resolve(__dirname, '../fixtures/zulip-api/zulip.yaml');

/** A loosely typed OpenAPI node. */
export type OpenApiNode = Record<string, any>;

let cached: OpenApiNode | undefined;

/** The parsed yaml, parsed once per test file (module registry is per file in jest). */
export function loadOpenApi(): OpenApiNode {
  cached ??= parse(readFileSync(OPENAPI_PATH, 'utf8'), { maxAliasCount: -1 }) as OpenApiNode;
  return cached;
}

/** Follows `$ref`s (local ones, `#/...`) until a non-reference node. */
export function deref<T = OpenApiNode>(node: unknown): T {
  const doc = loadOpenApi();
  let cur: any = node;
  let guard = 0;
  while (cur && typeof cur === 'object' && typeof cur.$ref === 'string') {
    const ref: string = cur.$ref;
    if (!ref.startsWith('#/')) throw new Error(`Non-local $ref ${ref}`);
    cur = ref
      .slice(2)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((a: any, k) => (a === undefined ? undefined : a[k]), doc);
    if (++guard > 50) throw new Error(`$ref loop at ${ref}`);
  }
  return cur as T;
}

/** Inlines every `$ref` in a schema (depth-limited, for recursive schemas). */
export function resolveSchema(node: unknown, depth = 0): any {
  if (depth > 40) return {};
  if (Array.isArray(node)) return node.map((n) => resolveSchema(n, depth + 1));
  if (!node || typeof node !== 'object') return node;
  const d = deref(node);
  if (!d || typeof d !== 'object') return d;
  const out: OpenApiNode = {};
  for (const [k, v] of Object.entries(d)) out[k] = resolveSchema(v, depth + 1);
  return out;
}

/** The operation for a method and a path template under /api/v1, e.g. `('PATCH', '/streams/{stream_id}')`. */
export function findOperation(method: string, pathTemplate: string): OpenApiNode | undefined {
  const item = loadOpenApi().paths?.[pathTemplate];
  return item === undefined ? undefined : (item[method.toLowerCase()] as OpenApiNode | undefined);
}

/** One parameter of an operation. */
export interface OperationParam {
  readonly name: string;
  /** Where the yaml puts it; body parameters of a GET travel in the query string. */
  readonly in: 'path' | 'query' | 'body';
  readonly required: boolean;
  /** Whether the value travels JSON-encoded (`content: application/json` or an encoding contentType). */
  readonly json: boolean;
  /** The parameter's schema, refs inlined. */
  readonly schema: any;
}

/** Every parameter of an operation: path and query parameters, and form-body properties. */
export function operationParams(op: OpenApiNode): OperationParam[] {
  const out: OperationParam[] = [];
  for (const raw of (op.parameters ?? []) as unknown[]) {
    const p = deref(raw);
    const jsonContent = p.content?.['application/json'];
    out.push({
      name: p.name,
      in: p.in,
      required: p.required === true,
      json: jsonContent !== undefined,
      schema: resolveSchema(jsonContent?.schema ?? p.schema ?? {}),
    });
  }
  const body = deref(op.requestBody);
  const form = body?.content?.['application/x-www-form-urlencoded'];
  if (form !== undefined) {
    const schema = deref(form.schema);
    const required: string[] = schema.required ?? [];
    for (const [name, s] of Object.entries(schema.properties ?? {})) {
      out.push({
        name,
        in: 'body',
        required: required.includes(name),
        json: form.encoding?.[name]?.contentType === 'application/json',
        schema: resolveSchema(s),
      });
    }
  }
  return out;
}

/** The JSON schema of a response, refs not inlined (see {@link resolveSchema}). */
export function responseSchema(op: OpenApiNode, status = '200'): any {
  const res = deref(op.responses?.[status]);
  return res?.content?.['application/json']?.schema;
}

/** Every example body the yaml gives for a response (`example`, `examples`, and examples inside `allOf`/`oneOf`). */
export function exampleResponses(op: OpenApiNode, status = '200'): unknown[] {
  const res = deref(op.responses?.[status]);
  const content = res?.content?.['application/json'];
  if (content === undefined) return [];
  const out: unknown[] = [];
  if (content.example !== undefined) out.push(content.example);
  for (const ex of Object.values(content.examples ?? {})) {
    const e = deref(ex);
    if (e?.value !== undefined) out.push(e.value);
  }
  const visit = (node: unknown, depth: number): void => {
    if (depth > 3) return;
    const s = deref(node);
    if (!s || typeof s !== 'object') return;
    if (s.example !== undefined && typeof s.example === 'object' && 'result' in s.example) {
      out.push(s.example);
    }
    for (const k of ['allOf', 'oneOf', 'anyOf']) {
      for (const part of (s[k] ?? []) as unknown[]) visit(part, depth + 1);
    }
  };
  visit(content.schema, 0);
  return out;
}
