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
import { closeSync, fstatSync, openSync, readSync, statSync, writeSync } from 'node:fs';
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

/** The longest line `entryAt` reads: an acceptance of thousands of files still fits. */
const MAX_LINE = 256 * 1024;

/**
 * The line starting at `offset` (undefined when there is none there, or it is not an acceptance). Runs on every hook
 * call (record-check.ts), for both scopes: it reads the byte before the line and then the line in growing chunks,
 * never more than the file holds, so a typical call reads a few KB instead of filling a 256 KiB buffer.
 */
export function entryAt(dir: string, offset: number): AcceptanceEntry | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(logPath(dir), 'r');
    const size = fstatSync(fd).size;
    const from = offset > 0 ? offset - 1 : 0;
    const limit = Math.min(size, offset + MAX_LINE);
    if (limit <= from) return undefined;
    let buf = Buffer.allocUnsafe(Math.min(limit - from, 16 * 1024));
    let have = 0;
    for (;;) {
      const n = readSync(fd, buf, have, buf.length - have, from + have);
      have += n;
      const text = buf.subarray(0, have);
      if (offset > 0 && have > 0 && text[0] !== 0x0a) return undefined;
      const start = offset > 0 ? 1 : 0;
      const end = text.indexOf(0x0a, start);
      if (end >= 0) return parse(text.subarray(start, end).toString('utf8'));
      // No line end yet: read on (doubling) while the file and the limit allow; else there is no whole line here.
      if (n === 0 || from + have >= limit) return undefined;
      if (have < buf.length) continue; // a short read: the rest of this chunk first
      const next = Buffer.allocUnsafe(Math.min(buf.length * 2, limit - from));
      buf.copy(next, 0, 0, have);
      buf = next;
    }
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
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
