/**
 * The git side of a snapshot (read by git-status.ts): HEAD, the index entries that differ from HEAD, and the ignore
 * files outside the working tree. With them a later comparison tells what a command (or a whole turn) changed even
 * when the change was committed, staged or hidden behind a new ignore rule, and what each file held before — from the
 * earlier HEAD and index, never from the current ones (which a `git add` or `git commit` has already moved).
 */
import { homedir } from '../os/home.ts';
import { join, resolve } from 'node:path';
import { git as runGit } from '../os/git.ts';

export interface GitState {
  /** HEAD's commit; null on an unborn branch. */
  head: string | null;
  /** Project-relative paths whose index entry differs from HEAD → the index blob (null: removed from the index). */
  staged: Record<string, string | null>;
  /** More staged paths than `trackMaxFiles`: the rest were left out. */
  stagedTruncated?: boolean;
  /** The repository's top directory, and the project root relative to it (`` or `sub/`). */
  top: string;
  prefix: string;
  /** Ignore files outside the working tree (info/exclude, the global excludes) → [size, mtime]; null = absent. */
  excludes: Record<string, [number, number] | null>;
}

export interface GitRun {
  code: number;
  out: Buffer;
}

/** One git run in `cwd` (os/git.ts); undefined when git is not installed. Never takes `index.lock`. */
export async function git(cwd: string, args: string[], stdin?: string): Promise<GitRun | undefined> {
  // The agent's own git commands must not fail because a hook is looking.
  const r = await runGit(args, { cwd, stdin, noOptionalLocks: true });
  return r && { code: r.code, out: r.stdout };
}

/** The user's global excludes file when `core.excludesFile` is not set (git's own default). */
export function globalExcludes(): string {
  const xdg = process.env.XDG_CONFIG_HOME;
  return xdg ? join(xdg, 'git', 'ignore') : join(homedir(), '.config', 'git', 'ignore');
}

/**
 * The global excludes file git reads in `root`: `core.excludesFile` from any config level (a path relative to the
 * repository's `top`, as git reads it), else git's default. One git run: taken at a turn's start only, since an agent
 * can point it elsewhere (`git config core.excludesFile …`) during the turn.
 */
export async function excludesFileOf(root: string, top: string): Promise<string> {
  const r = await git(root, ['config', '--path', '--get', 'core.excludesFile']);
  const value = r?.code === 0 ? r.out.toString().replace(/\n$/, '') : '';
  return value ? resolve(top, value) : globalExcludes();
}

/** True when HEAD or the index moved between two states. */
export function gitMoved(a: GitState, b: GitState): boolean {
  if (a.head !== b.head || a.stagedTruncated || b.stagedTruncated) return true;
  const ka = Object.keys(a.staged);
  if (ka.length !== Object.keys(b.staged).length) return true;
  return ka.some((k) => b.staged[k] !== a.staged[k]);
}

/** True when an ignore file outside the working tree changed between two states. */
export function excludesChanged(a: GitState, b: GitState): boolean {
  const keys = new Set([...Object.keys(a.excludes), ...Object.keys(b.excludes)]);
  for (const k of keys) {
    const x = a.excludes[k];
    const y = b.excludes[k];
    if ((x === null) !== (y === null) || x?.[0] !== y?.[0] || x?.[1] !== y?.[1]) return true;
  }
  return false;
}

/**
 * The project paths whose working-tree content differs from commit `head` (null: the empty tree) — a file committed,
 * staged, reset or checked out since shows here even when it is clean now. Bounded by `maxFiles`.
 */
export async function changedSinceCommit(root: string, head: string | null, maxFiles: number): Promise<string[]> {
  let base = head;
  if (!base) {
    const empty = await git(root, ['hash-object', '-t', 'tree', '/dev/null']);
    base = empty?.code === 0 ? empty.out.toString().trim() : '';
    if (!base) return [];
  }
  const r = await git(root, ['diff', '--name-only', '-z', '--no-renames', '--relative', '--no-ext-diff', base, '--']);
  if (!r || r.code !== 0) return [];
  return r.out.toString().split('\0').filter(Boolean).slice(0, maxFiles);
}

/**
 * Texts of git objects (`<blob>`, `<commit>:./<path>`, `:./<path>`) in one `git cat-file --batch`: a string, null
 * when the object is missing (the file did not exist there), absent when binary or over `maxBytes`.
 */
export async function gitTexts(
  root: string,
  specs: string[],
  maxBytes = 512 * 1024,
): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (!specs.length) return out;
  const r = await git(root, ['cat-file', '--batch'], specs.join('\n') + '\n');
  if (!r) return out;
  const buf = r.out;
  let off = 0;
  for (const spec of specs) {
    const nl = buf.indexOf(10, off);
    if (nl < 0) break;
    const header = buf.subarray(off, nl).toString();
    off = nl + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!m) {
      if (header.endsWith(' missing')) out.set(spec, null);
      continue;
    }
    const size = Number(m[2]);
    const body = buf.subarray(off, off + size);
    off += size + 1;
    if (m[1] === 'blob' && size <= maxBytes && !body.subarray(0, 8192).includes(0))
      out.set(spec, body.toString('utf8'));
  }
  return out;
}
