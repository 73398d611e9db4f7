/**
 * The one read of a file that someone else may have put there (a validator, a config, a prompt's reference, a
 * script): only a regular file is read. It is opened without blocking, so a named pipe or a device swapped in where
 * a file was — between a stat that saw a file and this read — is refused at once instead of holding the hook until
 * the agent's time limit lets the tool call through unchecked. Symlinks are followed, as `readFileSync` does.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** Thrown for a path that is no regular file; `code` as the other file errors carry theirs. */
export class NotARegularFile extends Error {
  readonly code = 'ENOTREG';
  constructor(path: string) {
    super(`${path} is not a regular file (a pipe, a device or a folder)`);
  }
}

/**
 * Regular file `path` opened for reading, never waiting on a pipe, with its stat; `noFollow`: a link in its place is
 * refused too. Throws as `openSync` does, or `NotARegularFile`; the caller closes `fd`.
 */
export function openRegularFile(path: string, opts: { noFollow?: boolean } = {}): { fd: number; stat: Stats } {
  // O_NONBLOCK is undefined on Windows, where opening a pipe by path does not wait for a writer.
  const noFollow = opts.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0;
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | noFollow);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new NotARegularFile(path);
    return { fd, stat };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** The bytes of regular file `path`; throws as `readFileSync` does, or `NotARegularFile`. */
export function readRegularFile(path: string): Buffer {
  const { fd, stat } = openRegularFile(path);
  try {
    // The size is where to start (one byte more, so the read that finds the end needs no second buffer); a file that
    // grows while it is read is read to its end, as readFileSync reads it.
    let buffer = Buffer.allocUnsafe(stat.size + 1);
    let used = 0;
    for (;;) {
      if (used === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, used);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, used, buffer.length - used, null);
      if (n === 0) break;
      used += n;
    }
    return buffer.subarray(0, used);
  } finally {
    closeSync(fd);
  }
}

/** `readRegularFile` as UTF-8 text. */
export function readRegularText(path: string): string {
  return readRegularFile(path).toString('utf8');
}
