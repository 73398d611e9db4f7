import { errorMessage } from '../errors.ts';
import { planCommands } from './commands.ts';
import { detectLanguage } from './detect.ts';
import { validateInput } from './input.ts';
import { PhaseLog } from './logs.ts';
import { assembleOutput, invalidInputOutput } from './output.ts';
import { runBuild, runFixable, runTests, type CheckContext } from './retry.ts';
import { runReviews } from './reviews.ts';
import type { PhaseOptions, PhaseOutput } from './types.ts';

export interface PhaseRun {
  output: PhaseOutput;
  /** The bounded command log, when one could be written. */
  logPath?: string;
  /** Lines for people: why the input is invalid, language detected, tools not installed, why tests failed. */
  notes: string[];
}

const DEFAULT_COMMAND_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_REVIEW_TIMEOUT_MS = 5 * 60_000;

/**
 * One phase validation. Order: formatter → linter (both rewrite files, so nothing else may read the tree
 * meanwhile) → build → tests, with the two reviews running alongside build and tests. Build and tests run one after
 * the other because test suites often consume the build's output (dist/, target/) and both compete for the same
 * CPUs; the reviews wait on a remote judge, so overlapping them with the tool checks is where the time is won.
 * Never throws for bad input: that is Example 4's output.
 */
export async function runPhaseDetailed(data: unknown, opts: PhaseOptions = {}): Promise<PhaseRun> {
  const started = performance.now();
  const notes: string[] = [];
  const note = (text: string) => {
    notes.push(text);
    opts.onNote?.(text);
  };
  const valid = await validateInput(data);
  if (!valid.ok) {
    note(valid.issues.join('; '));
    return { output: invalidInputOutput(valid.issues), notes };
  }
  const input = valid.input;
  const env = opts.env ?? process.env;
  const detection = input.language
    ? { language: input.language, reason: 'given in the input' }
    : detectLanguage(input.working_directory, input.changed_files);
  note(`language: ${detection.language ?? 'unknown'} (${detection.reason})`);
  const plan = planCommands(input, detection.language);
  const log = new PhaseLog(input.working_directory);
  const ctx: CheckContext = {
    wd: input.working_directory,
    env,
    timeoutMs: opts.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    maxRetries: input.max_retries,
    log,
    note,
  };
  if (!detection.language) ctx.noLanguage = `could not detect the language (${detection.reason})`;

  const formatter = await guard(
    () => runFixable('formatter', plan.formatter, ctx),
    (m) => ({
      status: 'fail' as const,
      issues: [m],
      retry_count: 0,
      command: plan.formatter.command,
      execution_time_ms: 0,
    }),
  );
  const linter = await guard(
    () => runFixable('linter', plan.linter, ctx),
    (m) => ({
      status: 'fail' as const,
      issues: [m],
      retry_count: 0,
      command: plan.linter.command,
      execution_time_ms: 0,
    }),
  );
  const reviews = runReviews({
    wd: input.working_directory,
    files: input.changed_files,
    env,
    timeoutMs: opts.reviewTimeoutMs ?? DEFAULT_REVIEW_TIMEOUT_MS,
    note,
  });
  const build = await guard(
    () => runBuild(plan.build, ctx),
    (m) => ({
      status: 'fail' as const,
      errors: [m],
      retry_count: 0,
      command: plan.build.command,
      execution_time_ms: 0,
    }),
  );
  const tests = await guard(
    () => runTests(plan.tests, ctx, log.path),
    (m) => {
      note(`tests: ${m}`);
      return {
        status: 'fail' as const,
        failing_count: 0,
        retry_count: 0,
        command: plan.tests.command,
        execution_time_ms: 0,
      };
    },
  );
  const { code, security } = await reviews;
  for (const r of [
    code.status === 'fail' ? code.findings : [],
    security.status === 'fail' ? security.vulnerabilities : [],
  ].flat()) {
    log.note('review', r);
  }
  const output = assembleOutput(
    { formatter, linter, build, tests, code_review: code, security_review: security },
    performance.now() - started,
  );
  const run: PhaseRun = { output, notes };
  if (log.path) {
    run.logPath = log.path;
    if (output.status === 'fail') note(`command output: ${log.path}`);
  }
  return run;
}

/** A check that throws (a bug, an fs error) becomes a failed check naming the error: the output stays complete. */
async function guard<T>(body: () => Promise<T>, failed: (message: string) => T): Promise<T> {
  try {
    return await body();
  } catch (e) {
    return failed(`internal error: ${errorMessage(e)}`);
  }
}

/** The contract entry point: the protocol's output for any input (see `runPhaseDetailed`). */
export async function runPhase(data: unknown, opts: PhaseOptions = {}): Promise<PhaseOutput> {
  return (await runPhaseDetailed(data, opts)).output;
}
