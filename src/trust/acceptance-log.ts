/**
 * The acceptance log: one JSON line per acceptance, appended to `$AVP_HOME/trust/…/acceptances.jsonl` of the scope
 * (a project's or the user's) under the scope's trust lock — when, by which command, what changed, from which process
 * (its parent chain, terminal, session) and whether an agent's marker was seen. Every session of the project is told
 * of each new line once (announce.ts), so an acceptance the agent managed to make is never silent.
 *
 * The record (`accepted.json`) names the byte offset of its own log line, and that line carries the SHA-256 of the
 * record's bytes: a record edited by anything but avp no longer matches its line, and the next hook call says so.
 * An agent with a shell runs as the user and can rewrite both; docs/accepted-state.md says what that leaves open.
 */
import { closeSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { TrustScope } from './control-files.ts';

export const LOG_NAME = 'acceptances.jsonl';

export interface AcceptanceEntry {
  at: string;
  scope: TrustScope;
  base: string;
  /** The command that accepted: `avp accept`, `avp add`, …, `first run` (a hook call meeting a new scope). */
  by: string;
  changes: Array<{ key: string; change: 'added' | 'changed' | 'deleted' }>;
  /** SHA-256 of the record written with this acceptance. */
  record: string;
  /** Who accepted (the fields of process-origin.ts; the hook's first run records the pid and parent only). */
  origin: {
    pid: number;
    ppid: number;
    sid?: number;
    tty?: string | null;
    stdinTty?: boolean;
    chain?: Array<{ pid: number; name: string; args: string[] }>;
    /** An agent's marker seen in this process's or an ancestor's environment. */
    marker?: string;
  };
}

export function logPath(dir: string): string {
  return join(dir, LOG_NAME);
}

/** The log's size in bytes (0 when there is none): where the next line will start. */
export function logSize(dir: string): number {
  try {
    return statSync(logPath(dir)).size;
  } catch {
    return 0;
  }
}

/** Appends one line (the caller holds the scope's trust lock, so `logSize` before is this line's offset). */
export function appendAcceptance(dir: string, entry: AcceptanceEntry): void {
  const fd = openSync(logPath(dir), 'a', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(entry)}\n`);
  } finally {
    closeSync(fd);
  }
}

function readRange(path: string, from: number, length: number): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, from);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function parse(line: string): AcceptanceEntry | undefined {
  try {
    const e = JSON.parse(line) as AcceptanceEntry;
    return e && typeof e.at === 'string' && typeof e.record === 'string' && Array.isArray(e.changes) ? e : undefined;
  } catch {
    return undefined;
  }
}

/** The line starting at `offset` (undefined when there is none there, or it is not an acceptance). */
export function entryAt(dir: string, offset: number): AcceptanceEntry | undefined {
  try {
    if (offset > 0 && readRange(logPath(dir), offset - 1, 1) !== '\n') return undefined;
    const text = readRange(logPath(dir), offset, 256 * 1024);
    const end = text.indexOf('\n');
    return end < 0 ? undefined : parse(text.slice(0, end));
  } catch {
    return undefined;
  }
}

/** The entries in `[from, to)` (whole lines only; at most 1 MiB is read, the newest kept). */
export function entriesBetween(dir: string, from: number, to: number): AcceptanceEntry[] {
  if (to <= from) return [];
  const start = Math.max(from, to - 1024 * 1024);
  let text: string;
  try {
    text = readRange(logPath(dir), start, to - start);
  } catch {
    return [];
  }
  const lines = text.split('\n');
  if (start > from) lines.shift(); // a partial first line
  return lines.flatMap((l) => (l ? (parse(l) ?? []) : []));
}
