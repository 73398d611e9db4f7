/**
 * bench/_run-log.ts — the project's run log as the benches read it, to check that what a row measures happened: a
 * validator that was skipped (not accepted, not matched, an error) leaves no line, and the row would still print a
 * plausible number. Not a benchmark itself (bench/run.ts skips `_` files).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One line of `.avp/logs/hook-*.jsonl`, the fields the benches check. */
export interface RunLine {
  session: string;
  validator: string;
  status: string;
  cache: string;
}

/** Every line of a project's run logs, oldest file first; none when it has no log yet. */
export function runLines(projectRoot: string): RunLine[] {
  const dir = join(projectRoot, '.avp/logs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^hook-.*\.jsonl$/.test(f))
    .sort()
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as RunLine);
}

/** A validator's own name, whatever scope prefixes its id (`user:name`, `ruleset/rule` gives the rule). */
export const validatorName = (run: RunLine) => run.validator.split(/[/:]/).pop()!;

/** Runs per `validator:status`, minus those already counted in `before`; keys whose count is 0 left out. */
export function runCounts(projectRoot: string, before = new Map<string, number>()): Map<string, number> {
  const counts = new Map<string, number>();
  for (const run of runLines(projectRoot)) {
    const key = `${validatorName(run)}:${run.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const [k, n] of before) counts.set(k, (counts.get(k) ?? 0) - n);
  for (const [k, n] of counts) if (n === 0) counts.delete(k);
  return counts;
}
