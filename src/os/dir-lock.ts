/**
 * The cross-process lock for short read-then-write decisions (the Stop guard's counter, carried findings, the trust
 * record): `mkdir` is atomic on every filesystem avp runs on, and a lock older than `staleMs` (its holder was
 * killed) is broken. Waiting longer than `waitMs` either takes the lock over (its holder died before its mtime grew
 * old) or fails with the caller's error. (Installs, which hold a lock for long, use os/file-lock.ts: a lock file
 * naming its holder, broken as soon as that process is gone.)
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface DirLockOptions {
  /** How long to wait for a live holder (default 5 s). */
  waitMs?: number;
  /** How old a lock must be to be broken (default 10 s). */
  staleMs?: number;
  /** After `waitMs`: take the lock over (default), or throw this error. */
  onTimeout?: () => Error;
}

/** One attempt: 'taken', 'broken' (a stale lock was removed: try again at once) or 'held'. */
function attempt(path: string, staleMs: number): 'taken' | 'broken' | 'held' {
  try {
    mkdirSync(path);
    return 'taken';
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    try {
      if (Date.now() - statSync(path).mtimeMs <= staleMs) return 'held';
      rmSync(path, { recursive: true, force: true });
    } catch {
      // released between our mkdir and stat
    }
    return 'broken';
  }
}

/** Whether waiting is over: throws the caller's error, or takes the lock over (removes it) and says so. */
function timedOut(path: string, started: number, opts: DirLockOptions): boolean {
  if (Date.now() - started <= (opts.waitMs ?? 5000)) return false;
  if (opts.onTimeout) throw opts.onTimeout();
  rmSync(path, { recursive: true, force: true });
  return true;
}

/** Runs `fn` holding the lock `<dir>/<name>.lock`. */
export async function withLock<T>(
  dir: string,
  name: string,
  fn: () => T | Promise<T>,
  opts: DirLockOptions = {},
): Promise<T> {
  const path = join(dir, `${name}.lock`);
  const started = Date.now();
  for (let state = attempt(path, opts.staleMs ?? 10_000); state !== 'taken';) {
    if (state === 'held' && !timedOut(path, started, opts)) await Bun.sleep(5 + Math.random() * 10);
    state = attempt(path, opts.staleMs ?? 10_000);
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
}

/** The same, for callers that cannot wait asynchronously: runs `fn` holding the lock directory `path`. */
export function withLockSync<T>(path: string, fn: () => T, opts: DirLockOptions = {}): T {
  const started = Date.now();
  for (let state = attempt(path, opts.staleMs ?? 10_000); state !== 'taken';) {
    if (state === 'held' && !timedOut(path, started, opts)) Bun.sleepSync(10 + Math.random() * 40);
    state = attempt(path, opts.staleMs ?? 10_000);
  }
  try {
    return fn();
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
}
