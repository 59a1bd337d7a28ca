import path from 'node:path';

/** `1 channel`, `2 channels`; `many` for irregular plurals. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The nouns of the resource counts the CLI prints (synth, import). */
const NOUNS = {
  channels: ['channel', 'channels'],
  channelFolders: ['channel folder', 'channel folders'],
  userGroups: ['user group', 'user groups'],
  linkifiers: ['linkifier', 'linkifiers'],
  playgrounds: ['code playground', 'code playgrounds'],
  savedSnippets: ['saved snippet', 'saved snippets'],
  users: ['user', 'users'],
  subscriptionSettings: ['subscription setting', 'subscription settings'],
} as const satisfies Record<string, readonly [string, string]>;

/** `10 channels, 1 channel folder, ...`: the non-zero counts, in the order of `NOUNS`. */
export function resourceCounts(counts: Partial<Record<keyof typeof NOUNS, number>>): string {
  return (Object.keys(NOUNS) as (keyof typeof NOUNS)[])
    .filter((k) => (counts[k] ?? 0) > 0)
    .map((k) => count(counts[k] ?? 0, NOUNS[k][0], NOUNS[k][1]))
    .join(', ');
}

/** A path as the user should see it: relative to `cwd` when inside it, absolute otherwise. */
export function shownPath(cwd: string, file: string): string {
  const rel = path.relative(cwd, path.resolve(cwd, file));
  if (rel === '') return '.';
  return rel.startsWith('..') || path.isAbsolute(rel) ? path.resolve(cwd, file) : rel;
}
