/**
 * The nearest of `known` to a mistyped `word`, for a "did you mean": the smallest edit distance
 * (Damerau–Levenshtein, case-insensitive, so `storageURI` → `storageUri` and `rendr` → `render`),
 * if it is at most a third of the word's length (at least 1, at most 3); ties go to the first known.
 * Git and kubectl suggest the same way.
 */
export function nearest(word: string, known: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    if (candidate === word) continue;
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** `, did you mean X?` or nothing. */
export function didYouMean(word: string, known: Iterable<string>, show: (s: string) => string = (s) => s): string {
  const found = nearest(word, known);
  return found === undefined ? '' : `, did you mean ${show(found)}?`;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function distance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  const at = (i: number, j: number) => rows[i]?.[j] ?? 0;
  for (let j = 0; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, at(i - 2, j - 2) + 1);
      row[j] = d;
    }
  }
  return at(a.length, b.length);
}
