/**
 * The changes `avp check` validates: files given on the command line (whole-file creates), the staged changes
 * (`--staged`: HEAD → index), a revision range (`--diff REV`: REV → working tree; `A..B` / `A...B`: A (or the merge
 * base) → B), or by default the working tree against HEAD plus untracked files. Renames are a delete plus a create.
 */
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { FileChange } from '../protocol/event.ts';
import { AvpError } from '../errors.ts';
import { changeBetween, readText } from '../session/content.ts';
import { git, revisionRange, type RevisionRange } from './git.ts';

export interface ChangeSource {
  paths?: string[];
  diff?: string;
  staged?: boolean;
  /** `diff` already resolved (`revisionRange`), so the merge base is computed once per check. */
  range?: RevisionRange;
}

/** Content of `spec` (`REV:path` or `:path`), undefined when binary or too big, null when absent. */
function gitContent(root: string, spec: string): string | null | undefined {
  const out = git(root, ['cat-file', 'blob', spec], true);
  if (!out) return null;
  if (out.length > 512 * 1024 || out.subarray(0, 8192).includes(0)) return undefined;
  return out.toString('utf8');
}

/** `git diff --name-status -z` → [status, path] pairs (renames off). */
function nameStatus(root: string, args: string[]): Array<[string, string]> {
  const parts = git(root, [
    '-c',
    'core.quotepath=off',
    'diff',
    '--name-status',
    '--no-renames',
    '-z',
    ...args,
    '--',
    '.',
  ])!
    .toString()
    .split('\0')
    .filter(Boolean);
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < parts.length; i += 2) out.push([parts[i]![0]!, parts[i + 1]!]);
  return out;
}

/** The change of a project file, `rel` relative to the project root. */
function change(
  projectRoot: string,
  rel: string,
  before: string | null | undefined,
  after: string | null | undefined,
): Promise<FileChange | undefined> {
  return changeBetween(join(projectRoot, rel), rel.split(sep).join('/'), true, before, after);
}

function walkFiles(abs: string, out: string[]): void {
  const st = statSync(abs);
  if (st.isFile()) {
    out.push(abs);
    return;
  }
  if (!st.isDirectory()) return;
  for (const d of readdirSync(abs, { withFileTypes: true })) {
    if (d.isDirectory() && ['.git', 'node_modules', '.avp'].includes(d.name)) continue;
    walkFiles(join(abs, d.name), out);
  }
}

/** The project-relative path git commands use (paths in git output are relative to the repository top). */
function topLevel(root: string): string {
  return git(root, ['rev-parse', '--show-toplevel'])!.toString().trim();
}

/** Collects the changes to check, relative to `projectRoot`. */
export async function collectChanges(projectRoot: string, cwd: string, src: ChangeSource): Promise<FileChange[]> {
  const out: FileChange[] = [];
  const push = (c: FileChange | undefined) => c && out.push(c);
  if (src.paths?.length) {
    const files: string[] = [];
    for (const p of src.paths) {
      const abs = isAbsolute(p) ? p : resolve(cwd, p);
      try {
        walkFiles(abs, files);
      } catch {
        throw new AvpError('check-path', `${p}: no such file or directory`, { fix: 'pass existing files or folders' });
      }
    }
    for (const abs of files) {
      const rel = relative(projectRoot, abs);
      const inside = !rel.startsWith('..') && !isAbsolute(rel);
      push(await changeBetween(abs, (inside ? rel : abs).split(sep).join('/'), inside, null, readText(abs)));
    }
    return out;
  }
  const top = topLevel(projectRoot);
  const prefix = relative(top, projectRoot);
  const toRel = (gitPath: string) => (prefix ? relative(prefix, gitPath) : gitPath);
  if (src.staged) {
    const hasHead = git(projectRoot, ['rev-parse', '--verify', '-q', 'HEAD'], true) !== undefined;
    const list = nameStatus(
      projectRoot,
      hasHead
        ? ['--cached', 'HEAD']
        : ['--cached', git(projectRoot, ['hash-object', '-t', 'tree', '/dev/null'])!.toString().trim()],
    );
    for (const [st, p] of list) {
      push(
        await change(
          projectRoot,
          toRel(p),
          st === 'A' ? null : gitContent(projectRoot, `HEAD:${p}`),
          st === 'D' ? null : gitContent(projectRoot, `:${p}`),
        ),
      );
    }
    return out;
  }
  if (src.diff) {
    const { from, to } = src.range ?? revisionRange(projectRoot, src.diff);
    for (const [st, p] of nameStatus(projectRoot, to ? [from, to] : [from])) {
      const before = st === 'A' ? null : gitContent(projectRoot, `${from}:${p}`);
      const after = st === 'D' ? null : to ? gitContent(projectRoot, `${to}:${p}`) : readText(join(top, p));
      push(await change(projectRoot, toRel(p), before, after));
    }
    return out;
  }
  // Default: the working tree against HEAD (everything, when there is no commit yet), plus untracked files.
  const hasHead = git(projectRoot, ['rev-parse', '--verify', '-q', 'HEAD'], true) !== undefined;
  if (hasHead) {
    for (const [st, p] of nameStatus(projectRoot, ['HEAD'])) {
      push(
        await change(
          projectRoot,
          toRel(p),
          st === 'A' ? null : gitContent(projectRoot, `HEAD:${p}`),
          st === 'D' ? null : readText(join(top, p)),
        ),
      );
    }
  }
  const untracked = git(projectRoot, ['ls-files', '-z', '-o', '--exclude-standard', ...(hasHead ? [] : ['-c'])])!
    .toString()
    .split('\0')
    .filter(Boolean);
  for (const rel of untracked) {
    if (rel.startsWith('.avp/')) continue;
    push(await change(projectRoot, rel, null, readText(join(projectRoot, rel))));
  }
  return out;
}
