import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Directories that hold dependencies, build output or caches: a fix never needs to change them. */
const SKIP = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  '.avp',
  'target',
  'dist',
  'build',
  'out',
  '.next',
  'vendor',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.tox',
  '.gradle',
  'coverage',
]);
const MAX_ENTRIES = 50_000;

/**
 * A cheap fingerprint of the project's source tree (path, size, mtime of every file outside dependency and build
 * directories). Used to tell whether a fix run changed anything: if not, retrying again cannot help. Undefined when
 * the tree is too big to walk cheaply (then only max_retries bounds the retries).
 */
export function treeFingerprint(root: string): string | undefined {
  const hash = createHash('sha1');
  let count = 0;
  const walk = (dir: string): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return true;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (++count > MAX_ENTRIES) return false;
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (SKIP.has(e.name)) continue;
        if (!walk(p)) return false;
      } else if (e.isFile()) {
        try {
          const st = statSync(p);
          hash.update(`${p}\0${st.size}\0${st.mtimeMs}\n`);
        } catch {
          /* vanished meanwhile */
        }
      }
    }
    return true;
  };
  return walk(root) ? hash.digest('hex') : undefined;
}
