/**
 * Untracked files judged by the ignore rules of an earlier snapshot. `echo f >> .gitignore && echo KEY > f` must not
 * hide `f`: when a `.gitignore`, `.git/info/exclude` or the global excludes file changed between two snapshots, the
 * later snapshot's untracked set is recomputed with the earlier rules. git evaluates them (`check-ignore --no-index`
 * in a throwaway repository holding only the earlier ignore files), so the pattern semantics are git's own. This is
 * the rare path: it runs only when an ignore file changed.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { nodeOs } from '../os/home.ts';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { readText, recallBlob } from './content.ts';
import { entryFor, type Snapshot } from './fingerprint.ts';
import { git } from './git-state.ts';
import { getBlob } from './store.ts';

/** The ignore rules at a turn's start, kept whole with its baseline. */
export interface StartRules {
  /** Ignore files' contents (absolute path → text, null = absent). */
  texts: Record<string, string | null>;
  /** The global excludes file git read then (`core.excludesFile`, else git's default); undefined: unknown. */
  excludesFile?: string;
  /** What git ignored then (untracked, ignored folders collapsed); undefined: unknown (too many, or no git). */
  ignored?: string[];
}

/**
 * True when a rule the dirty set cannot show may hide a file the turn wrote, so the untracked files must be judged by
 * the start rules: git ignores a path now that it did not ignore at the turn's start, and either a `.gitignore` is
 * among them (a rule file that ignores itself — at the root, in a new folder) or `core.excludesFile` points elsewhere
 * or holds other rules (`excludesFile`: where it points now). Other newly ignored paths (new build output) are
 * ignored by rules the turn's start had: an ignored folder is matched by a rule outside it, and every rule file
 * outside is tracked, dirty, an exclude file, or itself listed. Unknown start (or now): true.
 */
export function ignoresMore(rules: StartRules, ignoredNow: string[] | undefined, excludesFile: string): boolean {
  if (!rules.ignored || !ignoredNow) return true;
  const then = new Set(rules.ignored);
  const added = ignoredNow.filter((p) => !then.has(p));
  if (!added.length) return false;
  if (added.some((p) => basename(p) === '.gitignore')) return true;
  if (excludesFile !== rules.excludesFile) return true;
  const text = readText(excludesFile);
  return text === undefined || text !== (rules.texts[excludesFile] ?? null);
}

/**
 * What an exclude file held at the earlier snapshot: the copy kept with it (`rules`), else remembered content, '' when
 * absent, else today's content.
 */
function earlierExclude(
  dir: string,
  path: string,
  fp: [number, number] | null | undefined,
  kept: StartRules['texts'] | undefined,
): string {
  const then = kept?.[path];
  if (then !== undefined) return then ?? '';
  if (fp === null) return '';
  const blob = fp ? recallBlob(dir, path, { size: fp[0], mtime: fp[1] }) : undefined;
  const text = blob ? getBlob(dir, blob) : readText(path);
  return typeof text === 'string' ? text : '';
}

/**
 * What git ignores under `root` (untracked; an ignored folder is one `dir/` entry), never `.avp/`; undefined outside
 * git or past `max` paths.
 */
export async function ignoredPaths(root: string, max: number): Promise<string[] | undefined> {
  const r = await git(root, ['ls-files', '-z', '-o', '-i', '--exclude-standard', '--directory']);
  if (!r || r.code !== 0) return undefined;
  const paths = r.out
    .toString()
    .split('\0')
    .filter((p) => p && !p.startsWith('.avp/'));
  return paths.length > max ? undefined : paths;
}

/** Files under a directory (project-relative, `/` separators), at most `max`. */
function filesUnder(root: string, rel: string, max: number, out: string[]): void {
  const stack = [rel.replace(/\/$/, '')];
  while (stack.length && out.length < max) {
    const d = stack.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(join(root, d), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const r = `${d}/${e.name}`;
      if (e.isDirectory() && e.name !== '.git') stack.push(r);
      else if (e.isFile() && out.length < max) out.push(r);
    }
  }
}

/** The project-relative paths of `rels` that the rules in `repo` ignore. */
async function ignoredBy(repo: string, prefix: string, excludesFile: string, rels: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  if (!rels.length) return out;
  const r = await git(
    repo,
    ['-c', `core.excludesFile=${excludesFile}`, 'check-ignore', '--no-index', '-z', '--stdin'],
    rels.map((r) => prefix + r).join('\0') + '\0',
  );
  if (!r) return out;
  for (const p of r.out.toString().split('\0')) if (p) out.add(p.slice(prefix.length));
  return out;
}

/**
 * `post` with its untracked set as the earlier snapshot's rules see it: files git ignores now but did not then are
 * added (tag `?`), untracked files the earlier rules ignored are dropped. `earlierGitignores` maps the project-relative
 * `.gitignore` files that changed to their earlier content (null: absent then; undefined: unknown, today's is used).
 */
export async function underEarlierRules(
  dir: string,
  root: string,
  pre: Snapshot,
  post: Snapshot,
  earlierGitignores: Map<string, string | null | undefined>,
  maxFiles: number,
  /** The ignore rules kept with the earlier snapshot (a turn's start). */
  kept?: StartRules,
  /** What git ignores now (`ignoredPaths`), when the caller has it already. */
  ignoredNowKnown?: string[],
): Promise<Snapshot> {
  const g = post.git;
  if (!g || !pre.git) return post;
  const repo = mkdtempSync(join(nodeOs().tmpdir(), 'avp-ignore-'));
  try {
    const init = await git(repo, ['init', '-q', '--template=']);
    if (!init || init.code !== 0) return post;
    const [infoExclude, defaultGlobal] = Object.keys(pre.git.excludes);
    // The global excludes file of the start: `core.excludesFile` may point elsewhere now.
    const globalExcl = kept?.excludesFile ?? defaultGlobal!;
    mkdirSync(join(repo, '.git', 'info'), { recursive: true });
    writeFileSync(
      join(repo, '.git', 'info', 'exclude'),
      earlierExclude(dir, infoExclude!, pre.git.excludes[infoExclude!], kept?.texts),
    );
    const globalFile = join(repo, '.git', 'global-excludes');
    writeFileSync(globalFile, earlierExclude(dir, globalExcl, pre.git.excludes[globalExcl], kept?.texts));
    // Every .gitignore of the repository as it is now, then the changed ones as they were.
    const listed = await git(root, [
      'ls-files',
      '-z',
      '-c',
      '-o',
      '--exclude-standard',
      '--full-name',
      '--',
      ':(top,glob)**/.gitignore',
    ]);
    const rules = new Map<string, string | null | undefined>();
    for (const p of listed?.out.toString().split('\0') ?? []) if (p) rules.set(p, readText(join(g.top, p)));
    // Every `.gitignore` kept at the start as it was then, also one git ignored (a rule file may ignore itself).
    for (const [abs, text] of Object.entries(kept?.texts ?? {})) {
      const rel = relative(root, abs);
      if (basename(abs) === '.gitignore' && !rel.startsWith('..') && !isAbsolute(rel))
        rules.set(g.prefix + rel.split(sep).join('/'), text);
    }
    for (const [rel, text] of earlierGitignores) if (text !== undefined) rules.set(g.prefix + rel, text);
    for (const [p, text] of rules) {
      if (typeof text !== 'string') continue;
      mkdirSync(dirname(join(repo, p)), { recursive: true });
      writeFileSync(join(repo, p), text);
    }
    // Ignored now: directories collapsed (`node_modules/` is one line); only those the earlier rules do not ignore are
    // opened, and their files are judged one by one (the earlier rules may ignore some of them).
    const ignoredNow = ignoredNowKnown ?? (await ignoredPaths(root, Infinity)) ?? [];
    const dirs = ignoredNow.filter((p) => p.endsWith('/'));
    const hiddenDirs = await ignoredBy(repo, g.prefix, globalFile, dirs);
    const candidates = ignoredNow.filter((p) => !p.endsWith('/'));
    for (const d of dirs) if (!hiddenDirs.has(d)) filesUnder(root, d, maxFiles, candidates);
    const untrackedNow = Object.keys(post.files).filter((r) => post.files[r]![2] === '?');
    const ignoredThen = await ignoredBy(repo, g.prefix, globalFile, [
      ...candidates.slice(0, maxFiles),
      ...untrackedNow,
    ]);
    const files = { ...post.files };
    for (const r of untrackedNow) if (ignoredThen.has(r)) delete files[r];
    for (const r of candidates.slice(0, maxFiles)) if (!ignoredThen.has(r)) files[r] = entryFor(join(root, r), '?');
    return { ...post, files };
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}
