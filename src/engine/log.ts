/**
 * One JSONL line per validator run in `<projectRoot>/.avp/logs/hook-YYYY-MM-DD.jsonl`: what ran, on which event, the
 * outcome, how long it took, which judge and how many tokens. `info` findings live here (they are never shown to the
 * agent). All lines of a call go out in one append so concurrent hook processes do not interleave within a line.
 * When an answer had to summarise its report, the full text goes to `.avp/logs/reports/` (the newest 100 are kept).
 */
import { appendFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HookEvent } from '../event.ts';
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

/** The JSONL lines for one call. */
export function logLines(event: HookEvent, runs: ValidatorRun[], report: Report, when = new Date()): string {
  const base = {
    ts: when.toISOString(),
    agent: event.agent,
    session: event.sessionId,
    event: event.event,
    tool: event.tool,
    files: event.files.map((f) => f.relPath),
    outcome: report.outcome,
  };
  return runs
    .map((r) =>
      JSON.stringify({
        ...base,
        validator: r.id,
        severity: r.severity,
        source: r.source,
        status: r.status,
        durationMs: r.durationMs,
        judge: r.judge,
        model: r.model,
        cached: r.cached,
        tokens: r.usage,
        violations: r.verdict?.violations.length ?? 0,
        details: r.verdict && r.verdict.violations.length ? r.verdict.violations : undefined,
        summary: r.verdict?.summary,
        error: r.error,
      }),
    )
    .join('\n')
    .concat(runs.length ? '\n' : '');
}

/** Appends the call's lines; a log that cannot be written never changes the hook's answer (returns the error). */
export async function writeRunLog(event: HookEvent, runs: ValidatorRun[], report: Report): Promise<Error | undefined> {
  if (!runs.length) return undefined;
  try {
    await mkdir(logDir(event.projectRoot), { recursive: true });
    await appendFile(logFile(event.projectRoot), logLines(event, runs, report));
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
export async function writeFullReport(projectRoot: string, relPath: string, text: string): Promise<Error | undefined> {
  try {
    const dir = join(logDir(projectRoot), 'reports');
    await mkdir(dir, { recursive: true });
    await writeFile(join(projectRoot, relPath), `${text}\n`);
    // Names start with an ISO timestamp: sorted by name is sorted by age.
    const names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
    await Promise.all(names.slice(0, -KEEP_REPORTS).map((n) => rm(join(dir, n), { force: true })));
    return undefined;
  } catch (e) {
    return e as Error;
  }
}
