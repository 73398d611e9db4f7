/**
 * "Did you mean …?" for a validator name that was not found: the names of the embedded catalog and of what is
 * installed (project and user) are the likely targets of a typo (`avp add no-secret` → no-secrets).
 */
import { readdirSync } from 'node:fs';
import { closest } from '../did-you-mean.ts';
import { AvpError, isAvpError } from '../errors.ts';
import { projectValidatorsDir, userValidatorsDir } from '../paths.ts';

/** Errors that mean "no validator of that name here": a typo may be the cause. */
const NOT_FOUND = new Set(['not-in-catalog', 'not-installed', 'registry-404', 'registry-unreachable']);

function installedNames(projectRoot: string): string[] {
  const names: string[] = [];
  for (const dir of [projectValidatorsDir(projectRoot), userValidatorsDir()]) {
    try {
      for (const entry of readdirSync(dir)) if (!entry.startsWith('.')) names.push(entry.replace(/\.md$/, ''));
    } catch {
      // No such folder: nothing installed there.
    }
  }
  return names;
}

/** The catalog or installed validator name closest to `name` (only installed ones with `installedOnly`). */
export async function closestValidatorName(
  name: string,
  projectRoot: string,
  installedOnly = false,
): Promise<string | undefined> {
  const { listCatalog } = await import('../catalog/index.ts');
  const catalog = installedOnly ? [] : (await listCatalog()).map((e) => e.name);
  return closest(name, [...catalog, ...installedNames(projectRoot)]);
}

/**
 * `e` with "did you mean X?" added when it says a plain validator name was not found and a known name is close
 * (for `remove`, an installed one; otherwise also the catalog's); otherwise `e` itself. Specs that are paths, URLs
 * or carry a version range are left alone.
 */
export async function withNameSuggestion(
  e: unknown,
  spec: string,
  projectRoot: string,
  command: 'add' | 'remove' | 'info',
): Promise<unknown> {
  if (!isAvpError(e) || !NOT_FOUND.has(e.code) || !/^[a-z0-9][a-z0-9-]*$/i.test(spec)) return e;
  const near = await closestValidatorName(spec, projectRoot, command === 'remove').catch(() => undefined);
  if (!near) return e;
  const retry = `\`${['avp', command, near].join(' ')}\` if that is the one you meant`;
  return new AvpError(e.code, `${e.message} (did you mean ${near}?)`, {
    fix: e.fix ? `${retry}; otherwise ${e.fix}` : retry,
    file: e.file,
    line: e.line,
    column: e.column,
    cause: e,
  });
}
