/**
 * Where a project sits in git: the repository's top folder, the project's prefix in it and the path of
 * `info/exclude`. They do not change between the Bash calls of a session, so the `rev-parse` run that finds them is
 * kept in the session folder, keyed by every file whose change could move them, and rerun only when one changed:
 * - the `.git` entry of each folder from the project root up to the top, with its `HEAD`, `objects`, `refs` (an
 *   invalid `.git` on the way can become valid: `git init` in it), and the folder's own `HEAD` (a bare repository);
 * - the git folder and the common folder: `HEAD`, `objects`, `refs`, `commondir`, `config`, `config.worktree`
 *   (`core.worktree`);
 * - the environment variables git reads (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_CEILING_DIRECTORIES`, …).
 * A file is known by inode, size and ctime — a change cannot put ctime back, unlike mtime — a folder by inode; and a
 * key holding a ctime less than 2 s old is not kept ("racily clean", as git calls it): on a coarse clock a later
 * change in the same tick would keep it. Outside any repository (`mayBeRepository`) no git runs at all.
 */
import { lstatSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { git } from './git-state.ts';
import { writeAtomic } from './store.ts';

export interface GitPaths {
  /** The repository's top folder (a real path: the project's, less git's `--show-cdup`). */
  top: string;
  /** The project root relative to `top`, with a trailing `/` (`` at the top). */
  prefix: string;
  /** `info/exclude` of the repository (absolute). */
  exclude: string;
}

interface Cached extends GitPaths {
  root: string;
  key: string;
}

/** A change within this many ms of a key's ctime could leave the ctime as it was. */
const RACY_MS = 2000;

const cachePath = (dir: string) => join(dir, 'git-paths.json');

/** What git reads from the environment to find a repository and its work tree. */
function gitEnv(): string {
  return Object.keys(process.env)
    .filter((k) => k.startsWith('GIT_'))
    .sort()
    .map((k) => `${k}=${process.env[k]}`)
    .join('\0');
}

/**
 * What identifies `path` for the key (`-` when missing): a file by inode, size, mode and ctime; a folder by inode and
 * mode only (git renames its index into the git folder on every write, which would change the key each time, and
 * whatever in it moves the paths is in the key by name). A symlink's target too.
 */
function identity(path: string, stamps: number[]): string {
  const one = (s: Stats) => {
    if (s.isDirectory()) return `d${s.ino}:${s.mode}`;
    stamps.push(s.ctimeMs);
    return `${s.ino}:${s.size}:${s.mode}:${s.ctimeMs}`;
  };
  try {
    // Most of these paths are missing (no exclude file, no alternate index): asked without a thrown ENOENT.
    const l = lstatSync(path, { throwIfNoEntry: false });
    if (!l) return '-';
    return l.isSymbolicLink() ? `${one(l)}>${one(statSync(path))}` : one(l);
  } catch {
    return '-';
  }
}

/** The folders from `realRoot` up to `top`, both included; undefined when `top` is not one of its ancestors. */
function foldersUpTo(realRoot: string, top: string): string[] | undefined {
  const rel = relative(top, realRoot);
  if (rel === '..' || rel.startsWith(`..${sep}`) || resolve(top, rel) !== realRoot) return undefined;
  const out = [realRoot];
  for (let d = realRoot; d !== top;) {
    d = dirname(d);
    out.push(d);
  }
  return out;
}

/** What makes a folder a git folder (git checks `HEAD`, `objects` and `refs`, or `commondir`), and its config. */
const GIT_DIR_PARTS = ['', 'HEAD', 'objects', 'refs', 'commondir', 'config', 'config.worktree'];

/**
 * The key of a repository's paths: the environment, each folder's `.git` (and `HEAD`: a bare repository) from the
 * root up to the top — an invalid `.git` on the way is watched too, it could become valid — and the git folders.
 * `racy` when a part of it changed too recently to be trusted.
 */
function keyOf(realRoot: string, top: string, gitDirs: string[]): { key: string; racy: boolean } | undefined {
  const folders = foldersUpTo(realRoot, top);
  if (!folders) return undefined;
  const stamps: number[] = [];
  const parts = [gitEnv()];
  const watched = new Set<string>();
  for (const d of folders) {
    watched.add(join(d, 'HEAD'));
    for (const p of GIT_DIR_PARTS) watched.add(join(d, '.git', p));
  }
  for (const g of gitDirs) for (const p of GIT_DIR_PARTS) watched.add(join(g, p));
  for (const path of watched) parts.push(`${path}=${identity(path, stamps)}`);
  const now = Date.now();
  return { key: `${gitDirs.join('\0')}\n${parts.join('\n')}`, racy: stamps.some((t) => now - t < RACY_MS) };
}

/**
 * False when git cannot find a repository from `root`: no folder from it up to `/` holds a `.git` file, a `.git`
 * folder with a `HEAD` in it, or a `HEAD` (a bare repository) — what git looks for — and no `GIT_DIR` /
 * `GIT_WORK_TREE` points elsewhere. Then `git status` would fail and the snapshot is a walk: this answers it without
 * starting git.
 */
export function mayBeRepository(root: string): boolean {
  if (process.env.GIT_DIR || process.env.GIT_WORK_TREE || process.env.GIT_COMMON_DIR) return true;
  let d: string;
  try {
    d = realpathSync.native(root);
  } catch {
    return true; // let git say what it makes of it
  }
  /** Present (and not a folder, with `notFolder`); an error other than "missing" counts as present. */
  const exists = (path: string, notFolder = false) => {
    try {
      // Missing is the usual answer (a dozen paths up to `/`): asked without a thrown ENOENT (~10× the stat).
      const st = lstatSync(path, { throwIfNoEntry: false });
      return !!st && (!notFolder || !st.isDirectory());
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code !== 'ENOENT' && code !== 'ENOTDIR';
    }
  };
  for (;;) {
    // A `.git` folder without `HEAD` is no repository to git, which looks further up; a `.git` file may point anywhere.
    if (exists(join(d, '.git', 'HEAD')) || exists(join(d, '.git'), true) || exists(join(d, 'HEAD'))) return true;
    const up = dirname(d);
    if (up === d) return false;
    d = up;
  }
}

function loadCached(dir: string, root: string): Cached | undefined {
  try {
    const c = JSON.parse(readFileSync(cachePath(dir), 'utf8')) as Cached;
    const ok = [c.root, c.key, c.top, c.prefix, c.exclude].every((v) => typeof v === 'string');
    return ok && c.root === root ? c : undefined;
  } catch {
    return undefined;
  }
}

/** The kept paths when nothing in their key changed since they were found. */
export function cachedGitPaths(dir: string, root: string): GitPaths | undefined {
  const c = loadCached(dir, root);
  if (!c) return undefined;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    return undefined;
  }
  const gitDirs = c.key.slice(0, c.key.indexOf('\n')).split('\0');
  const now = keyOf(realRoot, c.top, gitDirs);
  return now && !now.racy && now.key === c.key ? { top: c.top, prefix: c.prefix, exclude: c.exclude } : undefined;
}

/**
 * One `rev-parse` run: the top, prefix and exclude path, and the git folders the key watches. Kept in `dir` (a
 * session folder) unless the key is racy — which also covers a change made while git ran: the key is read after it,
 * and such a change is less than 2 s old. Undefined when git is missing or `root` is not in a work tree.
 */
export async function findGitPaths(dir: string | undefined, root: string): Promise<GitPaths | undefined> {
  // `--show-cdup` (`../..`) first and the prefix worked out from it: a line break in a folder's name cannot shift it.
  const r = await git(root, [
    'rev-parse',
    '--show-cdup',
    '--git-path',
    'info/exclude',
    '--absolute-git-dir',
    '--git-common-dir',
  ]);
  if (!r || r.code !== 0) return undefined;
  const lines = r.out.toString().split('\n');
  // A line break in the path of the repository itself: no guessing which line is which (the snapshot walks instead).
  if (lines.length !== 5 || lines[4] !== '') return undefined;
  const [cdup, exclude, gitDir, commonDir] = lines as [string, string, string, string];
  if (!exclude || !gitDir || !commonDir) return undefined;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    return undefined;
  }
  // git prints paths relative to its working folder, which is the real path of `root`.
  const top = resolve(realRoot, cdup || '.');
  const rel = relative(top, realRoot).split(sep).join('/');
  const paths: GitPaths = { top, prefix: rel ? `${rel}/` : '', exclude: resolve(realRoot, exclude) };
  if (dir) {
    const common = resolve(realRoot, commonDir);
    const k = keyOf(realRoot, top, common === gitDir ? [gitDir] : [gitDir, common]);
    if (k && !k.racy) writeAtomic(cachePath(dir), JSON.stringify({ root, key: k.key, ...paths } satisfies Cached));
  }
  return paths;
}

/** `rel` (repository-relative, `/`) as a project-relative path; undefined outside the project. */
export function underPrefix(rel: string, prefix: string): string | undefined {
  if (!prefix) return rel;
  return rel.startsWith(prefix) && rel.length > prefix.length ? rel.slice(prefix.length) : undefined;
}
