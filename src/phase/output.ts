import type {
  BuildCheck,
  CodeReviewCheck,
  FormatterCheck,
  PhaseChecks,
  PhaseOutput,
  SecurityReviewCheck,
  TestsCheck,
} from './types.ts';

const int = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.round(n)) : 0);

/**
 * Example 4's output for input that does not validate: every check `fail`, the problems in the formatter's
 * issues (the first check), every other array empty, commands "" and times 0 — nothing ran.
 */
export function invalidInputOutput(issues: string[]): PhaseOutput {
  const none = { retry_count: 0, command: '', execution_time_ms: 0 };
  return {
    status: 'fail',
    execution_time_ms: 0,
    total_retries: 0,
    checks: {
      formatter: { status: 'fail', issues: issues.length ? issues : ['Validation failed: invalid input'], ...none },
      linter: { status: 'fail', issues: [], ...none },
      build: { status: 'fail', errors: [], ...none },
      tests: { status: 'fail', failing_count: 0, ...none },
      code_review: { status: 'fail', findings: [], severity: 'none', execution_time_ms: 0 },
      security_review: { status: 'fail', vulnerabilities: [], severity: 'none', execution_time_ms: 0 },
    },
  };
}

/**
 * Assembles the output and enforces the protocol's guarantees whatever the checks returned: integer non-negative
 * times and counts, `skipped` only for build and tests (with "" command, no errors, 0 failing), empty issue lists
 * on pass, `total_retries` = the sum of retry counts, `critical_security_issue` present only when true, and
 * exactly the schema's properties (objects are rebuilt field by field, so nothing extra can leak out).
 */
export function assembleOutput(checks: PhaseChecks, elapsedMs: number): PhaseOutput {
  const tool = (c: FormatterCheck): FormatterCheck => {
    const status = c.status === 'pass' ? 'pass' : 'fail';
    return {
      status,
      issues: status === 'pass' ? [] : [...c.issues],
      retry_count: int(c.retry_count),
      command: c.command,
      execution_time_ms: int(c.execution_time_ms),
    };
  };
  const b = checks.build;
  const build: BuildCheck =
    b.status === 'skipped'
      ? { status: 'skipped', errors: [], retry_count: 0, command: '', execution_time_ms: 0 }
      : {
          status: b.status,
          errors: b.status === 'pass' ? [] : [...b.errors],
          retry_count: int(b.retry_count),
          command: b.command,
          execution_time_ms: int(b.execution_time_ms),
        };
  const t = checks.tests;
  const tests: TestsCheck =
    t.status === 'skipped'
      ? { status: 'skipped', failing_count: 0, retry_count: 0, command: '', execution_time_ms: 0 }
      : {
          status: t.status,
          failing_count: t.status === 'pass' ? 0 : int(t.failing_count),
          retry_count: int(t.retry_count),
          command: t.command,
          execution_time_ms: int(t.execution_time_ms),
        };
  const cr = checks.code_review;
  const code_review: CodeReviewCheck = {
    status: cr.status,
    findings: cr.status === 'pass' ? [] : [...cr.findings],
    severity: cr.status === 'pass' ? 'none' : cr.severity,
    execution_time_ms: int(cr.execution_time_ms),
  };
  const sr = checks.security_review;
  const security_review: SecurityReviewCheck = {
    status: sr.status,
    vulnerabilities: sr.status === 'pass' ? [] : [...sr.vulnerabilities],
    severity: sr.status === 'pass' ? 'none' : sr.severity,
    execution_time_ms: int(sr.execution_time_ms),
  };
  const out: PhaseChecks = {
    formatter: tool(checks.formatter),
    linter: tool(checks.linter),
    build,
    tests,
    code_review,
    security_review,
  };
  const all = Object.values(out) as Array<{ status: string; retry_count?: number }>;
  const total = all.reduce((sum, c) => sum + (c.retry_count ?? 0), 0);
  const status = all.every((c) => c.status === 'pass' || c.status === 'skipped') ? 'pass' : 'fail';
  return {
    status,
    execution_time_ms: int(elapsedMs),
    total_retries: total,
    // Key order as in the seed's Example 3: after total_retries, before checks.
    ...(security_review.severity === 'critical' ? { critical_security_issue: true as const } : {}),
    checks: out,
  };
}
