/**
 * Calls the hook shortcut counted: one small file each in `.avp/logs/pending-calls/` (stats/call-line.ts), folded by
 * the next call of the full path into the day's `calls-YYYY-MM-DD.jsonl`, and read by `avp stats` until then.
 *
 * The folder sits in the project, where the agent can write too. Only files named as the shortcut names them are read
 * or removed, links are never followed (the folder itself must be a folder, not a link to one), anything larger than
 * a counter line is not read, and what is not a counted call is removed once it is too old to be a write in progress.
 */
import { appendFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, unlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { callsFile, isPendingName, pendingDirOf } from './call-line.ts';

/** At most this many entries of the folder are looked at per fold (on the hook path): the rest wait for the next. */
const MAX_FOLD = 512;
/** A counter line is under 400 bytes (a key is at most 200 characters): a larger file is not one. */
export const MAX_PENDING_BYTES = 1024;
/** A file the shortcut is writing can be read empty or cut short: such a file is left alone this long. */
const WRITING_MS = 60_000;

function lstatOf(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The pending calls' files of `dir`: regular files named as the shortcut names them, among its first `max` entries. */
export function pendingFiles(dir: string, max = MAX_FOLD): { path: string; stat: Stats }[] {
  if (!lstatOf(dir)?.isDirectory()) return [];
  let names: string[];
  try {
    names = readdirSync(dir).slice(0, max);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    const stat = isPendingName(name) ? lstatOf(path) : undefined;
    return stat?.isFile() ? [{ path, stat }] : [];
  });
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
 * writes a line twice, which `avp stats` counts once: it counts calls by key). Makes the folder when it is missing, so
 * the shortcut has somewhere to count. Never throws: a call that cannot be folded stays pending.
 */
export function foldPending(projectRoot: string): void {
  const dir = pendingDirOf(projectRoot);
  if (lstatOf(dir) === undefined) {
    try {
      mkdirSync(dir);
    } catch {
      // no logs folder yet, or not writable: the shortcut's record then names no folder and it counts nothing
    }
    return;
  }
  const byDay = new Map<string, { lines: string; paths: string[] }>();
  const done: string[] = [];
  const settled = Date.now() - WRITING_MS;
  for (const { path, stat } of pendingFiles(dir)) {
    let call: { day: string; line: string } | undefined;
    try {
      call = stat.size <= MAX_PENDING_BYTES ? pendingCall(readFileSync(path, 'utf8')) : undefined;
    } catch {
      continue;
    }
    if (!call) {
      if (stat.mtimeMs < settled) done.push(path);
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
