import type { ToolPlan } from './commands.ts';
import { findMissingProgram, runCommand, type ExecResult } from './exec.ts';
import { failingCount, relevantLines, unformattedFiles } from './issues.ts';
import { treeFingerprint } from './fingerprint.ts';
import type { PhaseLog } from './logs.ts';
import type { BuildCheck, FormatterCheck, TestsCheck } from './types.ts';

/** What every tool check needs to run commands. */
export interface CheckContext {
  wd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxRetries: number;
  log: PhaseLog;
  note: (text: string) => void;
  /** Why no language-specific command exists (language not detected), for the issue text. */
  noLanguage?: string;
}

const ms = (start: number) => Math.max(0, Math.round(performance.now() - start));

function failed(r: ExecResult, plan: ToolPlan): boolean {
  return r.code !== 0 || r.timedOut || r.signal !== null || (plan.failOnOutput === true && r.output.trim() !== '');
}

async function exec(check: string, command: string, ctx: CheckContext, plan: ToolPlan): Promise<ExecResult> {
  const missing = findMissingProgram(command, ctx.wd, ctx.env);
  if (missing) {
    const r: ExecResult = {
      command,
      code: 127,
      signal: null,
      output: '',
      timedOut: false,
      ms: 0,
      notInstalled: missing,
    };
    ctx.log.note(check, `$ ${command}: not run, ${missing}`);
    return r;
  }
  const r = await runCommand(command, ctx.wd, { timeoutMs: ctx.timeoutMs, env: ctx.env });
  ctx.log.command(check, r);
  if (plan.failOnOutput && r.code === 0 && r.output.trim())
    ctx.log.note(check, 'output is not empty: failure for this command');
  return r;
}

/** The sentence for a command that could not run or did not finish, or undefined when it ran normally. */
function cannotRun(check: string, r: ExecResult, override: string, ctx: CheckContext): string | undefined {
  if (r.notInstalled) {
    const hint = /^package\.json has no/.test(r.notInstalled)
      ? `add the script, or pass ${override}`
      : `install it, or pass ${override} with a command that exists`;
    const msg = `${r.notInstalled}: \`${r.command}\` could not run (${hint})`;
    ctx.note(`${check}: ${msg}`);
    return msg;
  }
  if (r.timedOut) return `\`${r.command}\` timed out after ${Math.round(ctx.timeoutMs / 1000)} s and was killed`;
  return undefined;
}

const OVERRIDE: Record<string, string> = {
  formatter: 'format_command',
  linter: 'lint_command',
  build: 'build_command',
  tests: 'test_command',
};

/**
 * Formatter and linter: run the check; while it fails and a fix mode is known, run the fix, then the check again —
 * at most `max_retries` times, stopping early when a round changed no file (see fingerprint.ts). `retry_count` is
 * the number of fix-and-recheck rounds that really ran.
 */
export async function runFixable(
  kind: 'formatter' | 'linter',
  plan: ToolPlan,
  ctx: CheckContext,
): Promise<FormatterCheck> {
  const start = performance.now();
  if (!plan.command) {
    return {
      status: 'fail',
      issues: [`No ${kind} command: ${ctx.noLanguage ?? 'unknown language'} — pass "language" or "${OVERRIDE[kind]}"`],
      retry_count: 0,
      command: '',
      execution_time_ms: ms(start),
    };
  }
  let r = await exec(kind, plan.command, ctx, plan);
  let retries = 0;
  let fixFailure: ExecResult | undefined;
  let fixBlocked: string | undefined;
  while (failed(r, plan) && !r.notInstalled && !r.timedOut && plan.fix && retries < ctx.maxRetries) {
    const before = treeFingerprint(ctx.wd);
    if (plan.fix !== plan.command) {
      const f = await exec(`${kind} fix`, plan.fix, ctx, plan);
      if (f.notInstalled || f.timedOut) {
        fixBlocked = cannotRun(`${kind} fix`, f, OVERRIDE[kind]!, ctx);
        break;
      }
      fixFailure = f.code !== 0 ? f : undefined;
    }
    r = await exec(kind, plan.command, ctx, plan);
    retries++;
    // A retry that changed no file cannot be followed by a more successful one.
    if (failed(r, plan) && before !== undefined && before === treeFingerprint(ctx.wd)) break;
  }
  const base = { retry_count: retries, command: plan.command };
  if (!failed(r, plan)) return { status: 'pass', issues: [], ...base, execution_time_ms: ms(start) };
  const why = cannotRun(kind, r, OVERRIDE[kind]!, ctx);
  let issues: string[];
  if (why) issues = [why];
  else if (kind === 'formatter') {
    const files = unformattedFiles(r.output, ctx.wd);
    const tail =
      retries > 0
        ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}`
        : plan.fix
          ? ''
          : ` (no fix mode known for \`${plan.command}\`)`;
    issues = files.length
      ? files.map((f) => `File ${f} still has formatting issues${tail}`)
      : relevantLines(r.output, ctx.wd);
  } else issues = relevantLines(r.output, ctx.wd);
  if (fixBlocked) issues.push(`fix mode could not run: ${fixBlocked}`);
  if (fixFailure && !why) {
    // Why the fix could not finish (a syntax error stops a formatter), unless the check already says the same.
    const extra = relevantLines(fixFailure.output, ctx.wd)
      .filter((l) => !issues.includes(l))
      .slice(0, 3);
    issues.push(...extra.map((l) => `fix \`${fixFailure!.command}\` failed: ${l}`));
  }
  return { status: 'fail', issues, ...base, execution_time_ms: ms(start) };
}

/** Build: one run (a build has no fix mode; retrying an unchanged tree would give the same answer). */
export async function runBuild(plan: ToolPlan, ctx: CheckContext): Promise<BuildCheck> {
  const start = performance.now();
  if (plan.skip) return { status: 'skipped', errors: [], retry_count: 0, command: '', execution_time_ms: 0 };
  if (!plan.command)
    return {
      status: 'fail',
      errors: [
        `No build command: ${ctx.noLanguage ?? 'unknown language'} — pass "language", "build_command" or skip_build`,
      ],
      retry_count: 0,
      command: '',
      execution_time_ms: ms(start),
    };
  const r = await exec('build', plan.command, ctx, plan);
  if (!failed(r, plan))
    return { status: 'pass', errors: [], retry_count: 0, command: plan.command, execution_time_ms: ms(start) };
  const why = cannotRun('build', r, OVERRIDE.build!, ctx);
  return {
    status: 'fail',
    errors: why ? [why] : relevantLines(r.output, ctx.wd),
    retry_count: 0,
    command: plan.command,
    execution_time_ms: ms(start),
  };
}

/**
 * Tests: one run (re-running failing tests would hide flakiness, not fix it). The tests check has no issues array
 * in the protocol, so why it failed goes to the log and to the notes (stderr of `avp phase`).
 */
export async function runTests(plan: ToolPlan, ctx: CheckContext, logPath?: string): Promise<TestsCheck> {
  const start = performance.now();
  if (plan.skip) return { status: 'skipped', failing_count: 0, retry_count: 0, command: '', execution_time_ms: 0 };
  if (!plan.command) {
    ctx.note(
      `tests: no test command: ${ctx.noLanguage ?? 'unknown language'} — pass "language", "test_command" or skip_tests`,
    );
    return { status: 'fail', failing_count: 0, retry_count: 0, command: '', execution_time_ms: ms(start) };
  }
  const r = await exec('tests', plan.command, ctx, plan);
  if (!failed(r, plan))
    return { status: 'pass', failing_count: 0, retry_count: 0, command: plan.command, execution_time_ms: ms(start) };
  const why = cannotRun('tests', r, OVERRIDE.tests!, ctx);
  const count = why ? 0 : (failingCount(r.output) ?? 0);
  if (!why) {
    const where = logPath ? ` (full output: ${logPath})` : '';
    ctx.note(
      `tests: \`${plan.command}\` failed${count ? ` with ${count} failing test(s)` : ''}${where}: ${relevantLines(r.output, ctx.wd).slice(0, 5).join(' | ')}`,
    );
  }
  return { status: 'fail', failing_count: count, retry_count: 0, command: plan.command, execution_time_ms: ms(start) };
}
