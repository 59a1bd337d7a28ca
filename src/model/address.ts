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

/**
 * The natural key of a playground, `language/name`: Zulip's uniqueness is (realm,
 * pygments_language, name) (zerver/models/realm_playgrounds.py). Both may contain `/`
 * (`HTML+Django/Jinja` is a Pygments language), so the language's `\` and `/` are escaped with
 * a `\`: the first unescaped `/` ends the language, and (`HTML+Django/Jinja`, `Tutor`) is
 * `HTML+Django\/Jinja/Tutor` (in an address, as JSON writes it,
 * `playground["HTML+Django\\/Jinja/Tutor"]`) while (`HTML+Django`, `Jinja/Tutor`) is
 * `HTML+Django/Jinja/Tutor`. A language without either character is as it is, so those keys are `python/Python Tutor`.
 */
export function playgroundKey(p: { pygmentsLanguage: string; name: string }): string {
  return `${p.pygmentsLanguage.replace(/[\\/]/g, (c) => `\\${c}`)}/${p.name}`;
}

/** Channel and folder names are compared case-insensitively by Zulip. */
export function channelNameKey(name: string): string {
  return name.trim().toLowerCase();
}
