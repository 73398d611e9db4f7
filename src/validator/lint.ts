/**
 * `avp lint`'s library: the same rules as loading, reported as `file:line:col` messages. Errors are what would make
 * a validator fail to load (and block, fail closed); warnings are ignored keys and keys without effect.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { projectValidatorsDir, userValidatorsDir } from '../paths.ts';
import { loadValidatorsAt } from './load.ts';
import type { LintMessage, LoadError } from './types.ts';

/** Load errors as lint errors (a record without a position points at the file's first line). */
export function errorToLint(e: LoadError): LintMessage {
  return { path: e.path, line: e.line ?? 1, column: e.column ?? 1, level: 'error', message: e.message, fix: e.fix };
}

/**
 * Lints validator files or folders (a `name.md`, a directory validator, a RuleSet or a rule of one, or a folder of
 * validators at any depth). Sorted by file, line and column; errors before warnings at the same position.
 */
export async function lintPaths(paths: string[]): Promise<LintMessage[]> {
  const out: LintMessage[] = [];
  const seen = new Set<string>();
  for (const p of paths) {
    const abs = resolve(p);
    const { validators, errors, warnings } = loadValidatorsAt(abs, 'project');
    if (validators.length === 0 && errors.length === 0) {
      // Linting the wrong folder in CI must not look like a clean pass.
      warnings.push({
        path: abs,
        line: 1,
        column: 1,
        level: 'warning',
        message: 'no validators found here',
        fix: 'point avp lint at a name.md, a folder holding VALIDATOR.md, or a folder of validators',
      });
    }
    // Lint-only hints: validators that load but never fire, always fire, or check nothing.
    const { hintWarnings } = await import('./lint-hints.ts');
    for (const v of validators) warnings.push(...hintWarnings(v));
    for (const m of [...errors.map(errorToLint), ...warnings]) {
      const key = `${m.path}:${m.line}:${m.column}:${m.level}:${m.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(m);
    }
  }
  return out.sort((a, b) =>
    a.path < b.path
      ? -1
      : a.path > b.path
        ? 1
        : a.line - b.line || a.column - b.column || (a.level === b.level ? 0 : a.level === 'error' ? -1 : 1),
  );
}

/** The folders `avp lint` checks when given no path: the project's and the user's validators that exist. */
export function defaultLintPaths(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string[] {
  return [projectValidatorsDir(projectRoot), userValidatorsDir(env)].filter(
    (p, i, all) => existsSync(p) && all.indexOf(p) === i,
  );
}

/**
 * `file:line:col: level: message (fix)` — the line format of `avp lint`, usable by editors and CI annotations.
 * With `base`, files under it are shown relative to it (CI annotations want repository-relative paths).
 */
export function formatLint(m: LintMessage, base?: string): string {
  const rel = base ? relative(base, m.path) : '';
  const path = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : m.path;
  return `${path}:${m.line}:${m.column}: ${m.level}: ${m.message}${m.fix ? ` (fix: ${m.fix})` : ''}`;
}
