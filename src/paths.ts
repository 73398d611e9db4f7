import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

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

/**
 * The project root: `CLAUDE_PROJECT_DIR` (or `GEMINI_PROJECT_DIR`) when the host sets it, else the nearest ancestor of
 * `cwd` holding `.avp/` or `.git/`, else `cwd` itself.
 */
export function findProjectRoot(cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromHost = env.CLAUDE_PROJECT_DIR || env.GEMINI_PROJECT_DIR;
  if (fromHost) return resolve(fromHost);
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.avp')) || existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/** Project-relative path with `/` separators, or the absolute path for a file outside the project. */
export function relativize(path: string, projectRoot: string): { relPath: string; inProject: boolean } {
  const rel = relative(projectRoot, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    return { relPath: path.split(sep).join('/'), inProject: false };
  return { relPath: rel.split(sep).join('/'), inProject: true };
}
