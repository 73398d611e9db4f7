/**
 * One JSONL line per validator run in `<projectRoot>/.avp/logs/hook-YYYY-MM-DD.jsonl`: what ran, on which event, the
 * outcome, how long it took (the validator's `durationMs`, the whole call's `callMs`), which judge and model, how many
 * tokens, the verdict cache's state, and the agent's call it belongs to (`call`, shared with the hook-call counter,
 * src/stats/calls.ts). `avp stats` and `avp report` read these lines. `info` findings live here (they are never shown
 * to the agent). All lines of a call go out in one append so concurrent hook processes do not interleave within a line.
 * When an answer had to summarise its report, the full text goes to `.avp/logs/reports/` (the newest 100 are kept).
 */
import { appendFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HookEvent } from '../protocol/event.ts';
import { projectAvpDir } from '../paths.ts';
import type { Report, ValidatorRun } from './types.ts';

/** The log directory of a project. */
export function logDir(projectRoot: string): string {
  return join(projectAvpDir(projectRoot), 'logs');
}

/** The log file for a given day (UTC). */
export function logFile(projectRoot: string, when = new Date()): string {
  return join(logDir(projectRoot), `hook-${when.toISOString().slice(0, 10)}.jsonl`);
}

/**
 * The verdict cache's part in a run: `hit` (answered from it, no judge asked), `miss` (asked, then stored), `off`
 * (caching disabled), `none` (script judges are never cached; a validator error never reached a judge).
 */
export type CacheState = 'hit' | 'miss' | 'off' | 'none';

export function cacheState(r: ValidatorRun, cacheEnabled: boolean): CacheState {
  if (r.cached) return 'hit';
  if (!r.judge || r.judge === 'script' || r.judge === 'builtin-script') return 'none';
  return cacheEnabled ? 'miss' : 'off';
}

/** What a run cost: the fields the run log and `avp check --json` both carry per validator. */
export function runCost(r: ValidatorRun, cacheEnabled: boolean) {
  return {
    durationMs: r.durationMs,
    judge: r.judge,
    model: r.model,
    cache: cacheState(r, cacheEnabled),
    cached: r.cached,
    tokens: r.usage,
  };
}

export interface LogContext {
  /** The agent's call (see `callKey`): groups the lines of one call and matches the hook-call counter. */
  call?: string;
  /** The whole hook call so far, in ms: the latency the agent waited. */
  callMs?: number;
  cacheEnabled?: boolean;
}

/** The JSONL lines for one call. */
export function logLines(
  event: HookEvent,
  runs: ValidatorRun[],
  report: Report,
  when = new Date(),
  ctx: LogContext = {},
): string {
  const base = {
    ts: when.toISOString(),
    agent: event.agent,
    session: event.sessionId,
    event: event.event,
    tool: event.tool,
    files: event.files.map((f) => f.relPath),
    outcome: report.outcome,
    call: ctx.call,
    callMs: ctx.callMs,
  };
  return runs
    .map((r) =>
      JSON.stringify({
        ...base,
        validator: r.id,
        severity: r.severity,
        source: r.source,
        status: r.status,
        ...runCost(r, ctx.cacheEnabled ?? true),
        violations: r.verdict?.violations.length ?? 0,
        // Without the snippet: the offending code is often the secret itself, and a log is kept for weeks.
        details:
          r.verdict && r.verdict.violations.length
            ? r.verdict.violations.map(({ snippet: _snippet, ...rest }) => rest)
            : undefined,
        summary: r.verdict?.summary,
        error: r.error,
        skipped: r.skipped,
        batched: r.batched,
      }),
    )
    .join('\n')
    .concat(runs.length ? '\n' : '');
}

/** Appends the call's lines; a log that cannot be written never changes the hook's answer (returns the error). */
export function writeRunLog(
  event: HookEvent,
  runs: ValidatorRun[],
  report: Report,
  ctx: LogContext = {},
): Error | undefined {
  if (!runs.length) return undefined;
  try {
    // Synchronous on purpose: node:fs is loaded on the hook path already, node:fs/promises would cost ~0.6 ms more.
    // One append call (O_APPEND) keeps the lines of concurrent hook processes from interleaving.
    mkdirSync(logDir(event.projectRoot), { recursive: true });
    const when = new Date();
    appendFileSync(logFile(event.projectRoot, when), logLines(event, runs, report, when, ctx));
    return undefined;
  } catch (e) {
    return e as Error;
  }
}

/** Full reports kept in `.avp/logs/reports/`; older ones are removed when a new one is written. */
const KEEP_REPORTS = 100;

/** The project-relative path a call's full report gets (unique per process and millisecond). */
export function fullReportPath(event: HookEvent, when = new Date()): string {
  const stamp = when.toISOString().replace(/[:.]/g, '-');
  return `.avp/logs/reports/${stamp}-${event.event.replace(/[^\w-]/g, '')}-${process.pid}.md`;
}

/** Writes a full report (see `fullReportPath`) and prunes old ones; never throws (returns the error). */
export function writeFullReport(projectRoot: string, relPath: string, text: string): Error | undefined {
  try {
    const dir = join(logDir(projectRoot), 'reports');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(projectRoot, relPath), `${text}\n`);
    // Names start with an ISO timestamp: sorted by name is sorted by age.
    const names = readdirSync(dir)
      .filter((n) => n.endsWith('.md'))
      .sort();
    for (const n of names.slice(0, -KEEP_REPORTS)) rmSync(join(dir, n), { force: true });
    return undefined;
  } catch (e) {
    return e as Error;
  }
}
