/**
 * The git side of a snapshot in one `git status --porcelain=v2 -z` run: the files that differ from the index
 * (modified, deleted, unmerged: what `git ls-files -m` lists; untracked and not ignored: `ls-files -o
 * --exclude-standard`), the index entries that differ from HEAD (`diff --cached`) and HEAD itself. Four git runs
 * were one each; git reads the index once and stats each tracked file once for all of them (racily clean entries are
 * compared by content, as `ls-files -m` does). What the status cannot say — the top folder, the prefix and the
 * exclude path — comes from the session's cache of them (git-paths.ts), or one `rev-parse` run beside it.
 */
import { fingerprintOf } from './content.ts';
import { globalExcludes, type GitState } from './git-state.ts';
import { gitSync } from '../os/git.ts';
import { cachedGitPaths, findGitPaths, underPrefix, type GitPaths } from './git-paths.ts';

/** `[tag, project-relative path]`: `C` differs from the index (tracked), `?` untracked. */
export type DirtyPath = ['C' | '?', string];

const STATUS_ARGS = [
  // A fsmonitor hook would be a program of the project's choosing, and its answer git's word on what changed; the
  // untracked cache is a record in the index, which a command can write (`ls-files -o` never read it either).
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.untrackedCache=false',
  'status',
  '--porcelain=v2',
  '-z',
  '--branch',
  '--no-ahead-behind',
  '--untracked-files=all',
  '--ignored=no',
  '--no-renames',
  // A submodule's checked-out commit, as `ls-files -m` sees it; no `git status` inside each one.
  '--ignore-submodules=dirty',
  '--',
  '.',
];

export interface GitSnapshot {
  dirty: DirtyPath[];
  git: GitState;
}

/** `count` space-separated fields, then the rest (a path may hold spaces). */
function fields(record: string, count: number): string[] {
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const sp = record.indexOf(' ', at);
    if (sp < 0) return [];
    out.push(record.slice(at, sp));
    at = sp + 1;
  }
  out.push(record.slice(at));
  return out;
}

/** Parses `git status --porcelain=v2 -z --branch` output into a snapshot's dirty set and git state. */
export function parseStatus(out: string, paths: GitPaths, maxFiles: number): GitSnapshot {
  const dirty: DirtyPath[] = [];
  const staged: GitState['staged'] = {};
  let head: string | null = null;
  let count = 0;
  let stagedTruncated = false;
  const stage = (rel: string, blob: string | null) => {
    if (count >= maxFiles) stagedTruncated = true;
    else if (!(rel in staged)) {
      staged[rel] = blob;
      count++;
    }
  };
  const records = out.split('\0');
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (r.startsWith('# branch.oid ')) {
      const oid = r.slice('# branch.oid '.length);
      head = /^[0-9a-f]{40,64}$/.test(oid) ? oid : null;
    } else if (r.startsWith('? ')) {
      const rel = underPrefix(r.slice(2), paths.prefix);
      if (rel) dirty.push(['?', rel]);
    } else if (r.startsWith('1 ') || r.startsWith('2 ')) {
      // `1 XY sub mH mI mW hH hI path`; a rename (`2`, off here) has a score before the path and its origin after.
      const f = fields(r, r[0] === '1' ? 8 : 9);
      if (r[0] === '2') i++;
      const xy = f[1] ?? '..';
      const rel = underPrefix(f[f.length - 1] ?? '', paths.prefix);
      if (!rel) continue;
      if (xy[1] !== '.') dirty.push(['C', rel]);
      // A submodule's commit in the index is not a file (`diff --cached` entries of mode 160000 were skipped).
      if (xy[0] !== '.' && f[4] !== '160000') stage(rel, xy[0] === 'D' ? null : f[7]!);
    } else if (r.startsWith('u ')) {
      // `u XY sub m1 m2 m3 mW h1 h2 h3 path`: unmerged, in the working tree with conflict markers; its index entry
      // has no blob (`diff --cached` shows it as all zeros).
      const f = fields(r, 10);
      const rel = underPrefix(f[10] ?? '', paths.prefix);
      if (!rel) continue;
      dirty.push(['C', rel]);
      stage(rel, '0'.repeat(f[7]?.length || 40));
    }
  }
  const excludes: GitState['excludes'] = {};
  for (const p of [paths.exclude, globalExcludes()]) {
    const fp = fingerprintOf(p);
    excludes[p] = fp ? [fp.size, fp.mtime] : null;
  }
  const git: GitState = {
    head,
    staged,
    ...(stagedTruncated ? { stagedTruncated } : {}),
    top: paths.top,
    prefix: paths.prefix,
    excludes,
  };
  return { dirty, git };
}

/**
 * One `git status` run (and a `rev-parse` beside it when the session holds no valid paths); undefined when git is
 * missing or `root` is not in a work tree. `dir`: the session folder that caches the paths (none: never cached).
 */
export async function gitSnapshot(
  root: string,
  maxFiles: number,
  dir: string | undefined,
): Promise<GitSnapshot | undefined> {
  const cached = dir ? cachedGitPaths(dir, root) : undefined;
  // Without valid kept paths, `rev-parse` runs beside the status. The status is waited for in place: reading an async
  // child's output through a stream costs ~0.4 ms more CPU in a hook process (measured), and no timer of the hook
  // runs while the session stage does.
  const finding = cached ? undefined : findGitPaths(dir, root);
  const status = gitSync(STATUS_ARGS, { cwd: root, noOptionalLocks: true });
  const paths = cached ?? (await finding);
  if (!status || status.code !== 0 || !paths) return undefined;
  return parseStatus(status.stdout.toString(), paths, maxFiles);
}
