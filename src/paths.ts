import { existsSync, statSync } from 'node:fs';
import { homedir } from './os/home.ts';
import * as nodePath from 'node:path';
import { dirname, join, resolve } from 'node:path';
import { checkPathBounds, type PathResolver } from './os/real-paths.ts';

/** `~/.avp`, or `AVP_HOME` when set (tests and portable installs rely on it). */
export function avpHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.AVP_HOME ? resolve(env.AVP_HOME) : join(homedir(), '.avp');
}

/** The user validator source: `~/.avp/validators`. */
export function userValidatorsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(avpHome(env), 'validators');
}

/** The project validator source: `<root>/.avp/validators`. */
export function projectValidatorsDir(projectRoot: string): string {
  return join(projectRoot, '.avp', 'validators');
}

/** Per-project state (sessions, fingerprints), logs and caches live under `.avp/` next to the validators. */
export function projectAvpDir(projectRoot: string): string {
  return join(projectRoot, '.avp');
}

/** True when `dir` holds `.avp/` or `.git/`: what makes a directory a project. */
function marksProject(dir: string): boolean {
  return existsSync(join(dir, '.avp')) || existsSync(join(dir, '.git'));
}

/** The nearest ancestor of absolute `start` (itself included) holding `.avp/` or `.git/`: one pass up. */
export function nearestProject(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (marksProject(dir)) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The variables through which agents name the project directory to the commands they run (Claude Code, Gemini CLI,
 * Qwen Code, Factory Droid; Codex sets none). Hook mode reads only the calling agent's own (its adapter's list), so a
 * variable inherited from another agent's terminal cannot move the project.
 */
export const PROJECT_DIR_VARS = [
  'CLAUDE_PROJECT_DIR',
  'GEMINI_PROJECT_DIR',
  'QWEN_PROJECT_DIR',
  'FACTORY_PROJECT_DIR',
  'DROID_PROJECT_DIR',
] as const;

/** The first of `vars` set in `env`, with its name. */
function projectDirFrom(env: NodeJS.ProcessEnv, vars: readonly string[]): { name: string; value: string } | undefined {
  for (const name of vars) {
    const value = env[name];
    if (value) return { name, value };
  }
  return undefined;
}

/**
 * The project root for commands run in `cwd`: an agent's project-dir variable (`PROJECT_DIR_VARS`) when one is set,
 * else the nearest ancestor of `cwd` holding `.avp/` or `.git/`, else `cwd` itself.
 *
 * Contract: linear in the depth of `cwd` (one pass up); a path no file can have (see `checkPathBounds`) throws
 * `AvpError('path-too-long')` at once. The answer is a place to look for validators, not a licence to write: it may
 * not exist or not be a project (the `cwd` fallback), so code that creates `.avp/` under it must first ask
 * `isProjectRoot` (hook mode carries the answer as `HookEvent.stateless`).
 */
export function findProjectRoot(cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromHost = projectDirFrom(env, PROJECT_DIR_VARS);
  if (fromHost) {
    checkPathBounds(fromHost.value, fromHost.name);
    return resolve(fromHost.value);
  }
  checkPathBounds(cwd, 'the working directory');
  const start = resolve(cwd);
  return nearestProject(start) ?? start;
}

/**
 * True when avp may keep state for `root` (logs and caches under it, session state under `$AVP_HOME`): an existing
 * directory that is a project (`.avp/` or `.git/`) or the one the host named as the project. Never a missing
 * directory, never `/` or a home folder that merely happened to be the working directory.
 */
export function isProjectRoot(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
  vars: readonly string[] = PROJECT_DIR_VARS,
): boolean {
  let isDir = false;
  try {
    isDir = statSync(root).isDirectory();
  } catch {
    return false;
  }
  if (!isDir) return false;
  if (marksProject(root)) return true;
  const fromHost = projectDirFrom(env, vars);
  return !!fromHost && resolve(fromHost.value) === root;
}

/** Where a hook event's project is, all paths real (symlinks resolved). */
export interface ProjectLocation {
  root: string;
  /** False when `root` is only a fallback (no project found, or it does not exist): avp must not write under it. */
  isProject: boolean;
}

/**
 * The project of a hook event, from real paths: the agent's project dir when set; else the project of `cwd` when the
 * changed file lies in it (or no file changed); else the project holding the changed file itself (a `cwd` of `/`,
 * a deleted or unrelated folder must not turn the project's validators off); else the project of `cwd`; else `cwd`.
 */
export function locateProject(
  cwd: string,
  file: string | undefined,
  resolver: PathResolver,
  env: NodeJS.ProcessEnv = process.env,
  /** The file as the tool named it, when a symlink makes it differ from `file`: its folder may be the project. */
  named?: string,
  /** The calling agent's project-dir variables (its adapter's `projectDirVars`). */
  vars: readonly string[] = ['CLAUDE_PROJECT_DIR', 'GEMINI_PROJECT_DIR'],
): ProjectLocation {
  const fromHost = projectDirFrom(env, vars);
  if (fromHost) {
    checkPathBounds(fromHost.value, fromHost.name);
    const root = resolver.resolve(fromHost.value).path;
    return { root, isProject: resolver.exists(root) };
  }
  const fromCwd = nearestProject(cwd);
  if (fromCwd && (!file || relativize(file, fromCwd).inProject)) return { root: fromCwd, isProject: true };
  const fromFile = file ? nearestProject(dirname(file)) : undefined;
  if (fromFile) return { root: fromFile, isProject: true };
  // A link inside a project to a file elsewhere: the project is the link's (the file itself stays outside it).
  const fromLink = named && named !== file ? nearestProject(resolver.resolve(dirname(named)).path) : undefined;
  if (fromLink) return { root: fromLink, isProject: true };
  if (fromCwd) return { root: fromCwd, isProject: true };
  return { root: cwd, isProject: false };
}

/** The parts of `node:path` relativizing needs: the native module, or `path.win32` / `path.posix` in tests. */
export type PathApi = Pick<typeof nodePath, 'relative' | 'isAbsolute' | 'sep'>;

/**
 * A relative path that leaves its base: `..` or `../…` — not a name that merely starts with dots (`..foo`); on
 * Windows also another drive (`D:\…`), which `relative` answers with an absolute path.
 */
function escapes(rel: string, p: PathApi): boolean {
  return rel === '..' || rel.startsWith(`..${p.sep}`) || p.isAbsolute(rel);
}

/**
 * Project-relative path with `/` separators, or the absolute path (with `/` separators) for a file outside the
 * project. `nocase`: the file system ignores case, so `/Proj/x` is inside `/proj`. `p`: the path rules (the native
 * ones; `path.win32` folds case and drive letters itself and accepts `\` and `/` alike).
 */
export function relativize(
  path: string,
  projectRoot: string,
  nocase = false,
  p: PathApi = nodePath,
): { relPath: string; inProject: boolean } {
  let rel = p.relative(projectRoot, path);
  if (nocase && escapes(rel, p) && path.toLowerCase().length === path.length) {
    const folded = p.relative(projectRoot.toLowerCase(), path.toLowerCase());
    // Same length once folded: take the tail of the real path so the file keeps its own spelling.
    if (!(folded === '' || escapes(folded, p))) rel = path.slice(path.length - folded.length);
  }
  if (rel === '' || escapes(rel, p)) return { relPath: path.split(p.sep).join('/'), inProject: false };
  return { relPath: rel.split(p.sep).join('/'), inProject: true };
}
