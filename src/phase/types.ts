/** Phase Validation Agent Protocol 1.0: the input and output shapes, exactly as the schemas define them. */

/** Canonical language names (the schema's aliases js, ts, py, golang, rs, rb are normalized to these). */
export const LANGUAGES = ['javascript', 'typescript', 'python', 'go', 'rust', 'ruby', 'java'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Validated input with defaults filled in and the language alias resolved. */
export interface PhaseInput {
  working_directory: string;
  changed_files: string[];
  language?: Language;
  format_command?: string;
  lint_command?: string;
  build_command?: string;
  test_command?: string;
  max_retries: number;
  skip_build: boolean;
  skip_tests: boolean;
}

export interface FormatterCheck {
  status: 'pass' | 'fail';
  issues: string[];
  retry_count: number;
  command: string;
  execution_time_ms: number;
}

export type LinterCheck = FormatterCheck;

export interface BuildCheck {
  status: 'pass' | 'fail' | 'skipped';
  errors: string[];
  retry_count: number;
  command: string;
  execution_time_ms: number;
}

export interface TestsCheck {
  status: 'pass' | 'fail' | 'skipped';
  failing_count: number;
  retry_count: number;
  command: string;
  execution_time_ms: number;
}

export type CodeSeverity = 'none' | 'low' | 'medium' | 'high';
export type SecuritySeverity = CodeSeverity | 'critical';

export interface CodeReviewCheck {
  status: 'pass' | 'fail';
  findings: string[];
  severity: CodeSeverity;
  execution_time_ms: number;
}

export interface SecurityReviewCheck {
  status: 'pass' | 'fail';
  vulnerabilities: string[];
  severity: SecuritySeverity;
  execution_time_ms: number;
}

export interface PhaseChecks {
  formatter: FormatterCheck;
  linter: LinterCheck;
  build: BuildCheck;
  tests: TestsCheck;
  code_review: CodeReviewCheck;
  security_review: SecurityReviewCheck;
}

export interface PhaseOutput {
  status: 'pass' | 'fail';
  execution_time_ms: number;
  total_retries: number;
  /** Present (and true) only when the security review found a critical vulnerability. */
  critical_security_issue?: true;
  checks: PhaseChecks;
}

/** Options of `runPhase` that are not part of the protocol's input (which allows no additional properties). */
export interface PhaseOptions {
  env?: NodeJS.ProcessEnv;
  /** Per-command timeout in ms (default 10 minutes). */
  commandTimeoutMs?: number;
  /** Budget for each review in ms (default 5 minutes). */
  reviewTimeoutMs?: number;
  /** Receives a line for people (stderr) about what happened: a tool not installed, where the log is. */
  onNote?: (note: string) => void;
}
