/**
 * Project snapshots for Bash change tracking: which files exist and their fingerprints (size + mtime).
 *
 * In a git repository git already keeps a stat cache of every tracked file (the index), so avp asks git for the
 * files that differ from it — modified, deleted and untracked-not-ignored (one `git status`, git-status.ts) — and
 * fingerprints only those. A path missing from a snapshot is then "identical to the index". Any change a command
 * makes shows up as a path entering, leaving or changing within that set, at the cost of one `git` run (which stats
 * in C) instead of stat-ing 10,000 files from JS. Outside git, a bounded walk fingerprints every file
 * (skipping .git, node_modules and .avp). `trackMaxFiles` bounds the number of fingerprinted files in both modes.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { GitState } from './git-state.ts';
import { mayBeRepository } from './git-paths.ts';
import { gitSnapshot } from './git-status.ts';

/** `[size, mtimeMs, tag]`; size -1 = the file does not exist; tag `C` modified tracked, `?` untracked, `` walk. */
export type Entry = [number, number, string];

export interface Snapshot {
  mode: 'git' | 'walk';
  takenAt: number;
  /** Project-relative paths (`/` separators). */
  files: Record<string, Entry>;
  /** More files than `trackMaxFiles`: the rest were not fingerprinted. */
  truncated?: boolean;
  /** Git mode: HEAD, staged entries, exclude files (what a commit, `git add` or a new ignore rule would move). */
  git?: GitState;
}

const SKIP_DIRS = new Set(['.git', 'node_modules', '.avp', '.hg', '.svn']);

export function entryFor(abs: string, tag: string): Entry {
  try {
    const st = statSync(abs, { throwIfNoEntry: false });
    if (!st?.isFile()) return [-1, 0, tag];
    return [st.size, st.mtimeMs, tag];
  } catch {
    return [-1, 0, tag];
  }
}

function walk(root: string, max: number): Snapshot {
  const files: Record<string, Entry> = {};
  let count = 0;
  let truncated = false;
  const stack: string[] = [''];
  while (stack.length) {
    const rel = stack.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(rel ? join(root, rel) : root, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const d of entries) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (!SKIP_DIRS.has(d.name)) stack.push(r);
      } else if (d.isFile()) {
        if (count >= max) {
          truncated = true;
          continue;
        }
        files[r] = entryFor(join(root, r), '');
        count++;
      }
    }
  }
  return { mode: 'walk', takenAt: Date.now(), files, ...(truncated ? { truncated } : {}) };
}

/**
 * Takes a snapshot of the project at `root`. `dir`: the session folder, which keeps where the project sits in git
 * between calls (git-paths.ts); without it that costs a `rev-parse` run each time.
 */
export async function snapshot(root: string, maxFiles: number, dir?: string): Promise<Snapshot> {
  const seen = mayBeRepository(root) ? await gitSnapshot(root, maxFiles, dir) : undefined;
  if (!seen) return walk(root, maxFiles);
  const { dirty, git } = seen;
  const files: Record<string, Entry> = {};
  let count = 0;
  let truncated = false;
  for (const [tag, rel] of dirty) {
    // avp's own state is never a change of the agent's (init ignores it, but a project may not have run init).
    if (files[rel] || rel.startsWith('.avp/')) continue;
    if (count >= maxFiles) {
      truncated = true;
      break;
    }
    files[rel] = entryFor(join(root, rel), tag);
    count++;
  }
  return { mode: 'git', takenAt: Date.now(), files, ...(truncated ? { truncated } : {}), git };
}

export interface PathChange {
  rel: string;
  kind: 'create' | 'update' | 'delete';
  /** The pre-command entry (undefined in git mode = the file matched the index). */
  pre?: Entry;
  /** In git mode: the file matched the index before, so the index holds its previous content. */
  wasClean: boolean;
}

/** The paths whose presence or fingerprint differs between two snapshots of the same root. */
export function compareSnapshots(root: string, pre: Snapshot, post: Snapshot): PathChange[] {
  const out: PathChange[] = [];
  const git = pre.mode === 'git' && post.mode === 'git';
  const paths = new Set([...Object.keys(pre.files), ...Object.keys(post.files)]);
  for (const rel of paths) {
    const a = pre.files[rel];
    let b = post.files[rel];
    if (a && b && a[0] === b[0] && a[1] === b[1]) continue;
    if (!git) {
      const existed = !!a && a[0] >= 0;
      const exists = !!b && b[0] >= 0;
      if (!existed && !exists) continue;
      out.push({
        rel,
        kind: !existed ? 'create' : !exists ? 'delete' : 'update',
        ...(a ? { pre: a } : {}),
        wasClean: false,
      });
      continue;
    }
    // git mode: left the dirty set (reverted, committed, added, deleted while untracked…) → look at the disk.
    if (!b) b = entryFor(join(root, rel), '');
    if (!a) {
      // Entered the dirty set: untracked now = created; a tracked file was identical to the index before.
      if (b[2] === '?') {
        if (b[0] >= 0) out.push({ rel, kind: 'create', wasClean: false });
      } else out.push({ rel, kind: b[0] < 0 ? 'delete' : 'update', wasClean: true });
      continue;
    }
    const existed = a[0] >= 0;
    const exists = b[0] >= 0;
    if (!existed && !exists) continue;
    out.push({ rel, kind: !existed ? 'create' : !exists ? 'delete' : 'update', pre: a, wasClean: false });
  }
  return out.sort((x, y) => (x.rel < y.rel ? -1 : x.rel > y.rel ? 1 : 0));
}
