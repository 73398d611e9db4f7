/**
 * A file's stat as one comparable string (the hook memo's and the hook shortcut's record of what they looked at).
 * No node: built-ins at run time: the shortcut prints Bun's stats with it before node:fs is loaded.
 */
import type { Stats } from 'node:fs';

/** A stat: the file's `Stats`, `null` when it does not exist, `'error'` when it cannot be stat'ed (EACCES, ELOOP…). */
export type StatResult = Stats | null | 'error';

/** What a print reads of a stat: node:fs' `Stats` and Bun's `BunFile.stat()` alike. */
export type StatFields = Pick<Stats, 'ino' | 'mode' | 'size' | 'mtimeMs' | 'ctimeMs'> | null | 'error';

/**
 * A stat as a string that any change to the file or folder changes: a folder's entries added, removed or renamed
 * move its mtime and ctime; contents, mode and owner move the ctime, which only the kernel sets (`touch -d` sets the
 * mtime back, not the ctime); a file replaced by another keeps neither inode nor ctime. `-`: missing; `!`: unreadable.
 */
export function seenPrint(s: StatFields): string {
  if (s === null) return '-';
  if (s === 'error') return '!';
  return `${s.ino}:${s.mode}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
}
