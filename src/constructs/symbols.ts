import type { ResourceKind } from '../model/kinds';

/**
 * Brands for `isX` checks. `Symbol.for` (not `instanceof`) so that two copies of the library
 * in one program (a user's app and a test helper, say) still recognise each other's constructs,
 * and so that modules can recognise each other without importing each other.
 */
export const ORGANIZATION = Symbol.for('zulip-cdk/Organization');
export const RESOURCE = Symbol.for('zulip-cdk/Resource');
export const APP = Symbol.for('zulip-cdk/App');
export const SYSTEM_GROUP = Symbol.for('zulip-cdk/SystemGroup');
export const PERMISSION = Symbol.for('zulip-cdk/Permission');

/** True when `x` is an object carrying `brand`. */
export function hasBrand(x: unknown, brand: symbol): boolean {
  return x !== null && typeof x === 'object' && brand in x;
}

/**
 * True when `x` is a resource construct of `kind` (a channel, a user group...), recognised by
 * its brand and kind, so without importing its class.
 */
export function isResourceOf(x: unknown, kind: ResourceKind): boolean {
  return hasBrand(x, RESOURCE) && (x as { readonly resourceKind?: unknown }).resourceKind === kind;
}

/** A static `isX` guard: true when `x` carries the brand `b` ({@link hasBrand}). */
export function brandGuard<T>(b: symbol): (x: unknown) => x is T {
  return (x: unknown): x is T => hasBrand(x, b);
}

/** A resource construct's static `isX` guard: true when `x` is one of `kind` ({@link isResourceOf}). */
export function resourceGuard<T>(kind: ResourceKind): (x: unknown) => x is T {
  return (x: unknown): x is T => isResourceOf(x, kind);
}

/** Marks `target` with `brand`, non-enumerable so it never reaches JSON. */
export function brand(target: object, b: symbol): void {
  Object.defineProperty(target, b, { value: true, enumerable: false });
}
