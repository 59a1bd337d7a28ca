/**
 * Edit distance for "did you mean" hints: the number of single-character insertions,
 * deletions, substitutions and transpositions of two adjacent characters that turn `a` into
 * `b` (Damerau-Levenshtein, optimal string alignment). A swapped pair ("exmaple") is one typo,
 * not two, which plain Levenshtein would count.
 */
export function editDistance(a: string, b: string): number {
  // Three rows: the one before the previous (for transpositions), the previous, the current.
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      cur.push(d);
    }
    before = prev;
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * The candidates closest to `word` (case-insensitively) at a distance of at most `maxDistance`,
 * in the order given; empty when none is that close. Several come back only when they tie.
 */
export function closest(word: string, candidates: Iterable<string>, maxDistance: number): string[] {
  const w = word.toLowerCase();
  let best: string[] = [];
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (d > maxDistance || d > bestDistance) continue;
    if (d < bestDistance) {
      bestDistance = d;
      best = [];
    }
    best.push(c);
  }
  return best;
}
