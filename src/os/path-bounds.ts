/**
 * The bounds of a path any file system can hold, checked on strings alone (no disk, no node: built-ins), so a hostile
 * hook input is refused before anything walks it — by the full hook path and the hook shortcut alike.
 */
import { AvpError } from '../errors.ts';

/** Linux's PATH_MAX: no real file has a longer path, so a longer one is refused before any disk access. */
export const MAX_PATH_BYTES = 4096;

/** Far past any real project (the deepest real trees are a few dozen levels), far below what makes walks costly. */
export const MAX_PATH_DEPTH = 512;
/**
 * Throws a clear error for a path no file can have (over PATH_MAX bytes or MAX_PATH_DEPTH components), before
 * anything walks it: `what` names the input (`"cwd"`, `"tool_input.file_path"`).
 */
export function checkPathBounds(path: string, what: string): void {
  const bytes = path.length > MAX_PATH_BYTES ? Buffer.byteLength(path) : path.length;
  let depth = 0;
  // A Windows path (`C:\…`, `\\server\…`) counts its backslashes too; elsewhere a backslash is part of a name.
  // Counted with a loop, not a regular expression: the hook shortcut compiles none.
  const lower = path.charCodeAt(0) | 32;
  const drive = lower >= 97 && lower <= 122 && path[1] === ':';
  const windows = path[drive ? 2 : 0] === '\\';
  for (let i = 0; bytes <= MAX_PATH_BYTES && i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 47 || (windows && c === 92)) depth++;
  }
  if (bytes > MAX_PATH_BYTES || depth > MAX_PATH_DEPTH) {
    throw new AvpError(
      'path-too-long',
      bytes > MAX_PATH_BYTES
        ? `${what} is ${bytes} bytes long; no file system path exceeds ${MAX_PATH_BYTES} bytes`
        : `${what} is ${depth} directories deep; avp accepts at most ${MAX_PATH_DEPTH}`,
      { fix: `give a real path (the hook input's ${what} is not one a coding agent produces)` },
    );
  }
}
