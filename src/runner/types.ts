import type { Severity, Source } from '../validator/types.ts';
import type { TokenUsage, Verdict, Violation } from '../judges/types.ts';

export type Outcome = 'PASSED' | 'WARNED' | 'ERROR';

/**
 * Why a validator could not be evaluated. `code` is the judge's AvpError code when there was one; `setup` marks a
 * problem of the user's setup (no judge configured, a rejected API key) rather than of this run or of the code.
 */
export interface RunError {
  cause: string;
  fix: string;
  code?: string;
  setup?: boolean;
}

/** The result of one validator on one event. */
export interface ValidatorRun {
  id: string;
  name: string;
  severity: Severity;
  source?: Source;
  path: string;
  /**
   * `failed` = the judge found violations; `error` = the validator could not be evaluated (fail closed); `skipped` =
   * not run, on the user's explicit choice (`budgets.policy: "warn"`, `judge.skipLlmWhenBlocked`), and said so.
   */
  status: 'passed' | 'failed' | 'error' | 'skipped';
  verdict?: Verdict;
  error?: RunError;
  /** Why a `skipped` run was not run: `budget-spent` or `cheap-first`. */
  skipped?: { code: 'budget-spent' | 'cheap-first'; reason: string };
  /** How many validators shared the request that judged this one (batched judging); absent when judged alone. */
  batched?: number;
  durationMs: number;
  judge?: string;
  model?: string;
  usage?: TokenUsage;
  cached?: boolean;
}

/** The aggregated report (plus `errors`, the validator errors kept apart from violations). */
export interface Report {
  outcome: Outcome;
  validators: Array<{
    name: string;
    severity: Severity;
    passed: boolean;
    violations: Violation[];
    summary: string;
    error?: RunError;
  }>;
  totalViolations: number;
  summary: string;
}
