/**
 * Calls the hook shortcut counted: one small file each in `.avp/logs/pending-calls/` (stats/call-line.ts), folded by
 * a call of the full path at the turn's end into the day's `calls-YYYY-MM-DD.jsonl`, and read by `avp stats` until
 * then.
 *
 * The folder sits in the project, where the agent can write too. Only files named as the shortcut names them are read
 * or removed, links are never followed (the folder itself must be a folder, not a link to one), a pipe is never
 * waited on, nothing larger than a counter line is read, and what is not a counted call is removed once it is too old
 * to be a write in progress.
 */
import {
  appendFileSync,
  closeSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readSync,
  unlinkSync,
  type Stats,
} from 'node:fs';
import { openRegularFile } from '../os/read-regular.ts';
import { join } from 'node:path';
import { callsFile, isPendingName, pendingDirOf } from './call-line.ts';

/**
 * When the calls are folded. Each costs ~30 µs of CPU (reading, appending, removing: bench/stats.ts), and an agent's
 * turn leaves two per Read, search or web call the shortcut answers. So the full path folds them where the agent
 * waits least on it: at a turn's edge (Stop, SubagentStop, SessionStart, SessionEnd), up to FOLD_AT_EDGE. Mid-turn
 * (a Write, an Edit, a Bash call) it folds only a backlog of at least BACKLOG, MAX_FOLD at a time — a session whose
 * turns never end keeps a bounded folder all the same.
 */
export type FoldWhen = 'turn-edge' | 'mid-turn';
const FOLD_AT_EDGE = 1024;
const BACKLOG = 256;
const MAX_FOLD = 128;
/** A counter line is under 400 bytes (a key is at most 200 characters): a larger file is not one. */
export const MAX_PENDING_BYTES = 1024;
/** A file the shortcut is writing can be read empty or cut short: such a file is left alone this long. */
const WRITING_MS = 60_000;

/**
 * The pending calls' files of `dir`: regular files named as the shortcut names them, among its first `max` entries.
 * None when `dir` is not a folder itself (a link to one is not followed).
 */
export function pendingFiles(dir: string, max = FOLD_AT_EDGE): string[] {
  try {
    if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
    const entries = readdirSync(dir, { withFileTypes: true }).slice(0, max);
    return entries.filter((e) => e.isFile() && isPendingName(e.name)).map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

/**
 * A pending call's text (undefined when larger than a counter line) and when it was written; undefined when it is
 * no regular file. Opened without following a link and without waiting on a pipe put in a file's place since the
 * listing (it would hold the hook), and read no further than the limit.
 */
export function readPending(path: string): { text?: string; mtimeMs: number } | undefined {
  let opened: { fd: number; stat: Stats };
  try {
    opened = openRegularFile(path, { noFollow: true });
  } catch {
    return undefined;
  }
  try {
    const bytes = Buffer.alloc(MAX_PENDING_BYTES + 1);
    const n = readSync(opened.fd, bytes, 0, bytes.length, 0);
    const mtimeMs = opened.stat.mtimeMs;
    return { mtimeMs, ...(n <= MAX_PENDING_BYTES ? { text: bytes.toString('utf8', 0, n) } : {}) };
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
  }
}

/** How many entries `dir` holds (0 when it cannot be listed). */
function entryCount(dir: string): number {
  try {
    return readdirSync(dir).length;
  } catch {
    return 0;
  }
}

/** A counted call's time and its line, or undefined when the text is not one. */
function pendingCall(text: string): { day: string; line: string } | undefined {
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    const ts = typeof j?.ts === 'string' ? Date.parse(j.ts) : NaN;
    if (!Number.isFinite(ts) || typeof j.call !== 'string' || !j.call) return undefined;
    return { day: new Date(ts).toISOString().slice(0, 10), line: `${text.trimEnd()}\n` };
  } catch {
    return undefined;
  }
}

/**
 * Folds the project's pending calls into their days' counter files, then removes them (a fold that runs twice at once
 * writes a line twice, which `avp stats` counts once: it counts calls by key), as `when` allows (FoldWhen above).
 * Makes the folder when it is missing, so the shortcut has somewhere to count. Never throws: a call that cannot be
 * folded stays pending.
 */
export function foldPending(projectRoot: string, when: FoldWhen): void {
  const dir = pendingDirOf(projectRoot);
  try {
    if (!lstatSync(dir, { throwIfNoEntry: false })) {
      mkdirSync(dir);
      return;
    }
  } catch {
    // no logs folder yet, or not writable: the shortcut's record then names no folder and it counts nothing
    return;
  }
  const byDay = new Map<string, { lines: string; paths: string[] }>();
  const done: string[] = [];
  const settled = Date.now() - WRITING_MS;
  // Mid-turn, names are only counted: no entry opened, no file type asked.
  if (when === 'mid-turn' && entryCount(dir) < BACKLOG) return;
  for (const path of pendingFiles(dir, when === 'turn-edge' ? FOLD_AT_EDGE : MAX_FOLD)) {
    const read = readPending(path);
    if (!read) continue;
    const call = read.text === undefined ? undefined : pendingCall(read.text);
    if (!call) {
      if (read.mtimeMs < settled) done.push(path);
      continue;
    }
    const day = byDay.get(call.day) ?? { lines: '', paths: [] };
    day.lines += call.line;
    day.paths.push(path);
    byDay.set(call.day, day);
  }
  for (const [day, { lines, paths }] of byDay) {
    try {
      appendFileSync(callsFile(projectRoot, new Date(`${day}T00:00:00Z`)), lines);
    } catch {
      continue;
    }
    done.push(...paths);
  }
  // Removed only once their lines are written (and what is no counted call, once it cannot be one being written).
  for (const path of done) {
    try {
      unlinkSync(path);
    } catch {
      // removed by a fold beside this one
    }
  }
}
