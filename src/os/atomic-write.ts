/**
 * The one atomic file write: a temp file beside the target, then a rename, so a reader (another hook process, a CI
 * step, the agent) sees the old file or the new one, never half of one. A failed write leaves no temp file behind.
 */
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** The file's mode from its first byte (a token never sits in a world-readable file); the umask still applies. */
  mode?: number;
  /** Set `mode` exactly, whatever the umask (an executable hook, a settings file that keeps its 0600). */
  exactMode?: boolean;
  /** Hide the temp file (`.name…tmp`) in folders whose other files are listed (the verdict cache, a report's). */
  hidden?: boolean;
}

let counter = 0;

/**
 * A temp name beside `path`, unique across processes (pid) and within one (counter); it ends in `.tmp`, which is how
 * sweepers of stale temp files (the verdict cache's eviction) know one.
 */
export function tempPathFor(path: string, hidden = false): string {
  const name = `${hidden ? '.' : ''}${basename(path)}.${process.pid}.${(counter++).toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`;
  return join(dirname(path), name);
}

/** Writes `data` to `path` atomically. The folder must exist. Throws what the file system throws. */
export function writeFileAtomic(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  const tmp = tempPathFor(path, opts.hidden);
  try {
    writeFileSync(tmp, data, opts.mode === undefined ? undefined : { mode: opts.mode });
    if (opts.exactMode && opts.mode !== undefined) chmodSync(tmp, opts.mode);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
