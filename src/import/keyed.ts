/**
 * The default importer's view of a keyed kind (one without an importer of its own, such as
 * linkifiers, code playgrounds and saved snippets): everything comes from the kind's spec. A live
 * object's construct props are its live view in desired terms (`keyed.live`), without the
 * values Zulip gives an absent property; its construct id is made of its natural key.
 */
import { KIND_SPECS } from '../model/kinds';
import type { KeyedFacts, KeyedKind, PlanObject, PlanValue } from '../model/kinds';
import { arr, propertyKey, raw, str } from './code';
import type { Entry, Expr } from './code';
import { constructIdFor } from './names';

/** A live object of a keyed kind, as the default importer sees it. */
type LiveObject = { readonly id: number };

/** The props every construct has, which no live object says: not props of an import. */
const COMMON_PROPS: ReadonlySet<string> = new Set(['path', 'lifecycle']);

/** The spec's keyed facts of `kind`, over live objects of any shape. */
export function keyedFacts(kind: KeyedKind): KeyedFacts<Record<string, unknown>, LiveObject> {
  return KIND_SPECS[kind].keyed as unknown as KeyedFacts<Record<string, unknown>, LiveObject>;
}

/**
 * The props of a live object's construct: its live view, in that order, without the props
 * every construct has and without those that may be left out (the declared object is valid
 * without them) because the declared object means the same without them (`keyed.desired` at
 * feature level `fl` gives them the same value: Zulip's default); then the removed flag
 * (`archived: true`) of a removed object.
 */
export function keyedProps(kind: KeyedKind, l: LiveObject, fl: number): Entry[] {
  const facts = keyedFacts(kind);
  const schema = KIND_SPECS[kind].desiredSchema;
  const props: PlanObject = Object.fromEntries(
    Object.entries(facts.live(l)).filter(([key]) => !COMMON_PROPS.has(key)),
  );
  const declared: Record<string, unknown> = { path: '', ...props };
  for (const key of Object.keys(props)) {
    const { [key]: _value, ...without } = declared;
    if (!schema.safeParse([without]).success) continue;
    const given = facts.desired(declared, fl)[key];
    const absent = facts.desired(without, fl)[key];
    if (JSON.stringify(given) === JSON.stringify(absent)) delete declared[key];
  }
  const entries = Object.keys(props)
    .filter((key) => key in declared)
    .map((key) => ({ key: propertyKey(key), value: expressionOf(props[key] ?? null) }));
  // The live view leaves the removed flag to the planner's removal; an import declares it.
  const flag = facts.removedFlag;
  if (flag !== undefined && (l as Record<string, unknown>)[flag] === true)
    entries.push({ key: flag, value: raw('true') });
  return entries;
}

/** The construct id of a live object (before it is made unique): see `KeyedFacts.constructId`. */
export function keyedConstructId(kind: KeyedKind, l: LiveObject): string {
  const facts = keyedFacts(kind);
  const key = facts.live(l)[facts.keyProperty];
  const name = facts.constructId?.from?.(l) ?? (typeof key === 'string' ? key : '');
  return constructIdFor(name, constructWord(kind), facts.constructId?.suffix);
}

/** The kind in one word (`snippet`): see `KeyedFacts.constructId`. */
export function constructWord(kind: KeyedKind): string {
  return keyedFacts(kind).constructId?.word ?? kind.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** A value of a live view as code. */
function expressionOf(v: PlanValue): Expr {
  if (typeof v === 'string') return str(v);
  if (v === null || typeof v !== 'object') return raw(String(v));
  if (Array.isArray(v)) return arr((v as readonly PlanValue[]).map(expressionOf));
  return {
    t: 'object',
    entries: Object.entries(v).map(([key, x]) => ({
      key: propertyKey(key),
      value: expressionOf(x),
    })),
  };
}
