import type { ResourceKind } from './kinds';

/**
 * A resource address: kind and natural key, e.g. `channel["engineering"]` or
 * `playground["python/Python Tutor"]`. Stable across runs, used in plans, journals and messages.
 */
export function resourceAddress(kind: ResourceKind, key: string): string {
  return `${kind}[${JSON.stringify(key)}]`;
}

/** Parses an address made by {@link resourceAddress}; undefined when it is not one. */
export function parseResourceAddress(address: string): { kind: string; key: string } | undefined {
  const m = /^([a-zA-Z]+)\[("(?:[^"\\]|\\.)*")\]$/.exec(address);
  if (!m?.[1] || !m[2]) return undefined;
  return { kind: m[1], key: JSON.parse(m[2]) as string };
}

/** The natural key of a playground: Zulip's uniqueness is (language, name). */
export function playgroundKey(p: { pygmentsLanguage: string; name: string }): string {
  return `${p.pygmentsLanguage}/${p.name}`;
}

/** Channel and folder names are compared case-insensitively by Zulip. */
export function channelNameKey(name: string): string {
  return name.trim().toLowerCase();
}
