/**
 * "Did you mean …?" for anything a person types: commands, flags, validator names, config keys, triggers. No
 * imports, so the hook can use it for an unknown flag without loading anything.
 */

/** Case, `-` and `_` do not count: `PostTooluse`, `post_tool_use` and `posttooluse` are all `PostToolUse`. */
function fold(s: string): string {
  return s.toLowerCase().replace(/[-_\s]/g, '');
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost 1. */
export function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  // One flat row-major table: d[i * width + j] is the distance between a[0..i) and b[0..j).
  const d = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number) => d[i * width + j] as number;
  for (let i = 0; i <= a.length; i++) d[i * width] = i;
  for (let j = 0; j <= b.length; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * width + j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate closest to `input`, or undefined when none is close enough to be a likely typo: at most one edit
 * per three characters (at least one), or `input` being the start of exactly one candidate (`--dry` → `--dry-run`).
 * The input itself never counts as a suggestion.
 */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  const wanted = fold(input);
  if (!wanted) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  const starts: string[] = [];
  for (const c of new Set(candidates)) {
    if (c === input) continue;
    const folded = fold(c);
    const d = folded === wanted ? 0 : editDistance(wanted, folded);
    if (d < bestDistance) [best, bestDistance] = [c, d];
    if (wanted.length >= 3 && folded.startsWith(wanted)) starts.push(c);
  }
  if (best !== undefined && bestDistance <= Math.max(1, Math.floor(wanted.length / 3))) return best;
  return starts.length === 1 ? starts[0] : undefined;
}

/** ` (did you mean X?)`, or '' when nothing is close: ready to append to a message. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const hit = closest(input, candidates);
  return hit === undefined ? '' : ` (did you mean ${hit}?)`;
}
