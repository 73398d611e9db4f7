import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecResult } from './exec.ts';

/** Phase logs kept per project; older ones are pruned so `.avp/logs/` cannot grow without bound. */
const KEEP_LOGS = 20;
/** Per-command cap in the log file (the exec buffer is already bounded; this keeps a log readable). */
const MAX_LOGGED = 256 * 1024;

/**
 * The bounded record of one phase run in `<working_directory>/.avp/logs/phase-<time>-<pid>.log`: every command with
 * its exit status, duration and output, so a failing check can be inspected without re-running it.
 */
export class PhaseLog {
  readonly path: string | undefined;

  constructor(workingDirectory: string, now = new Date()) {
    const dir = join(workingDirectory, '.avp', 'logs');
    let path: string | undefined;
    try {
      mkdirSync(dir, { recursive: true });
      // Logs are not project content: keep them out of git status, prettier and friends.
      const ignore = join(dir, '.gitignore');
      if (!existsSync(ignore)) writeFileSync(ignore, '*\n');
      path = join(dir, `phase-${now.toISOString().replace(/[:.]/g, '-')}-${process.pid}.log`);
      writeFileSync(path, `avp phase — ${now.toISOString()} — ${workingDirectory}\n`);
      prune(dir);
    } catch {
      path = undefined; // read-only project: the phase still runs, only without a log
    }
    this.path = path;
  }

  /** Appends one command's record. Synchronous so concurrent checks never interleave inside a record. */
  command(check: string, r: ExecResult): void {
    const status = r.timedOut ? 'timed out' : r.signal ? `killed by ${r.signal}` : `exit ${r.code}`;
    const body = r.output.length > MAX_LOGGED ? `${r.output.slice(0, MAX_LOGGED)}\n… [truncated]` : r.output;
    this.write(`\n=== ${check}: $ ${r.command}  (${status}, ${r.ms} ms)\n${body}${body.endsWith('\n') ? '' : '\n'}`);
  }

  note(check: string, text: string): void {
    this.write(`\n=== ${check}: ${text}\n`);
  }

  private write(text: string): void {
    if (!this.path) return;
    try {
      appendFileSync(this.path, text);
    } catch {
      /* the log is a convenience; losing it must not fail the phase */
    }
  }
}

function prune(dir: string): void {
  const logs = readdirSync(dir)
    .filter((f) => /^phase-.*\.log$/.test(f))
    .sort();
  for (const old of logs.slice(0, Math.max(0, logs.length - KEEP_LOGS))) rmSync(join(dir, old), { force: true });
}
