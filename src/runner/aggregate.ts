/**
 * The aggregated report's rules, plus validator errors kept apart from violations:
 * - ERROR  when an `error` validator found violations, or any validator could not be evaluated whatever its severity
 *   (the spec's fail closed: the error is a blocking violation);
 * - WARNED when a `warn` validator found violations (or, with `softValidatorErrors`, which leaves the spec, a
 *   `warn`/`info` validator could not be evaluated);
 * - PASSED otherwise — `info` findings are logged, not shown.
 */
import type { Violation } from '../judges/types.ts';
import type { Outcome, Report, ValidatorRun } from './types.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface AggregateOptions {
  /** `softValidatorErrors` from config: a warn/info validator that cannot be evaluated warns instead of blocking. */
  softValidatorErrors?: boolean;
}

/** Whether a run blocks (`error`), warns (`warn`) or only informs (`info` / passed). */
export function runLevel(run: ValidatorRun, opts: AggregateOptions = {}): 'error' | 'warn' | 'info' | 'pass' {
  if (run.status === 'passed') return 'pass';
  // Not run on the user's explicit choice: never blocks, always said (a warning).
  if (run.status === 'skipped') return 'warn';
  if (run.status === 'error') return run.severity === 'error' || !opts.softValidatorErrors ? 'error' : 'warn';
  return run.severity;
}

/** Aggregates the runs of one event into one report (pass the config as `opts`). */
export function aggregate(runs: ValidatorRun[], opts: AggregateOptions = {}): Report {
  let outcome: Outcome = 'PASSED';
  let totalViolations = 0;
  let failed = 0;
  let errors = 0;
  let infos = 0;
  const skipped = new Map<string, number>();
  const validators: Report['validators'] = runs.map((run) => {
    const level = runLevel(run, opts);
    if (level === 'error') outcome = 'ERROR';
    else if (level === 'warn' && outcome === 'PASSED') outcome = 'WARNED';
    const shown: Violation[] =
      run.status === 'failed' && run.severity !== 'info' ? (run.verdict?.violations ?? []) : [];
    if (run.status === 'failed' && run.severity !== 'info') {
      failed++;
      // A judge that says "failed" without listing anything still counts as one finding.
      totalViolations += Math.max(1, shown.length);
    }
    if (run.status === 'failed' && run.severity === 'info') infos++;
    if (run.status === 'error') errors++;
    if (run.status === 'skipped') {
      const why = run.skipped?.code === 'cheap-first' ? 'a script validator already blocks' : 'the LLM budget is spent';
      skipped.set(why, (skipped.get(why) ?? 0) + 1);
    }
    return {
      name: run.id,
      severity: run.severity,
      // info findings never fail the report (the verdict rules: info → passed: true).
      passed: run.status === 'passed' || (run.status === 'failed' && run.severity === 'info'),
      violations: shown,
      summary:
        run.status === 'error'
          ? `validator error: ${run.error?.cause ?? 'unknown'}`
          : run.status === 'skipped'
            ? (run.skipped?.reason ?? 'not run')
            : (run.verdict?.summary ?? ''),
      ...(run.error ? { error: run.error } : {}),
    };
  });
  const parts: string[] = [];
  if (failed) parts.push(`${plural(failed, 'validator')} failed with ${plural(totalViolations, 'violation')}`);
  if (errors) parts.push(`${plural(errors, 'validator')} could not be evaluated`);
  for (const [why, n] of skipped) parts.push(`${plural(n, 'validator')} not run (${why})`);
  if (!parts.length) parts.push(`${plural(runs.length, 'validator')} passed`);
  if (infos) parts.push(`${plural(infos, 'info note')} logged`);
  return { outcome, validators, totalViolations, summary: parts.join('; ') };
}
