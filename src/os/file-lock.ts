import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { AvpError } from '../errors.ts';

interface Holder {
  pid: number;
  host: string;
  at: number;
}

/** Is a process of this host still running? (EPERM: it exists but belongs to someone else.) */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock is stale when its holder on this host is dead, or (other host, unreadable) it is older than `staleMs`. */
function isStale(path: string, text: string, staleMs: number): boolean {
  try {
    const h = JSON.parse(text) as Holder;
    if (h.host === hostname() && typeof h.pid === 'number') return !alive(h.pid);
    return Date.now() - h.at > staleMs;
  } catch {
    // Half-written by a holder that died between open and write: judge by age.
    try {
      return Date.now() - statSync(path).mtimeMs > 2000;
    } catch {
      return false;
    }
  }
}

/**
 * Breaks a stale lock without stealing a fresh one: the file is moved aside atomically, and put back (with `link`,
 * which never overwrites) if what was moved is not the stale holder that was read.
 */
function breakStale(path: string, staleText: string): void {
  const aside = `${path}.broken-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else broke or released it
  }
  let now = '';
  try {
    now = readFileSync(aside, 'utf8');
  } catch {}
  if (now !== staleText) {
    try {
      linkSync(aside, path);
    } catch {}
  }
  rmSync(aside, { force: true });
}

/**
 * Runs `fn` holding an exclusive lock file (created with O_EXCL). Waits while another live process holds it, breaks
 * it when its holder died. Used around every change of a validators directory and its lockfile, so concurrent
 * `avp add` processes serialize their (short) commit step while downloading and checking in parallel.
 */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T> | T,
  opts: { timeoutMs?: number; staleMs?: number } = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const staleMs = opts.staleMs ?? 10 * 60_000;
  const started = Date.now();
  let fd: number | undefined;
  for (let wait = 10; fd === undefined; wait = Math.min(wait * 1.5, 200)) {
    try {
      fd = openSync(path, 'wx', 0o644);
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() } satisfies Holder));
      closeSync(fd);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let text = '';
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        continue; // released between open and read
      }
      if (isStale(path, text, staleMs)) {
        breakStale(path, text);
        continue;
      }
      if (Date.now() - started > timeoutMs) {
        throw new AvpError(
          'lock-timeout',
          `another avp process has held ${path} for over ${Math.round(timeoutMs / 1000)} s`,
          {
            fix: `wait for it to finish; if no avp is running, delete ${path}`,
          },
        );
      }
      await Bun.sleep(wait + Math.random() * wait);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { force: true });
  }
}
