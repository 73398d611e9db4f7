/**
 * Name uniqueness within one source: the same name twice is a load error for every copy (fail closed — avp cannot
 * know which one the author meant to run). Pure and light: used by discovery on every call.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { LoadError, Source, Validator } from './types.ts';

/** The line of the top-level `name:` key (only read in the rare duplicate case, so discovery stays stat-only). */
function nameLine(path: string): number {
  try {
    const lines = readFileSync(path, 'utf8').split(/\r?\n/);
    const i = lines.findIndex((l) => /^["']?name["']?\s*:/.test(l));
    return i >= 0 ? i + 1 : 1;
  } catch {
    return 1;
  }
}

/**
 * The file that declares a validator's (or a load error's) name: a RuleSet rule's name comes from its RuleSet's
 * VALIDATOR.md. (A load error carries no form; a `rules/x.md` next to a VALIDATOR.md is a rule.)
 */
export function declaringPath(x: { path: string; form?: string; dir?: string }): string {
  if (x.form === 'ruleset' && x.dir) return join(x.dir, 'VALIDATOR.md');
  if (x.form === undefined && basename(dirname(x.path)) === 'rules') {
    const manifest = join(dirname(dirname(x.path)), 'VALIDATOR.md');
    if (existsSync(manifest)) return manifest;
  }
  return x.path;
}

/** Replaces every validator sharing its name with another unit of the same source by a load error naming all paths. */
export function findDuplicates(
  validators: Validator[],
  errors: LoadError[],
  source: Source,
): { validators: Validator[]; errors: LoadError[] } {
  // A unit is identified by the file that declares the name (a RuleSet's rules share their VALIDATOR.md).
  const paths = new Map<string, Set<string>>();
  const note = (name: string | undefined, path: string) => {
    if (!name) return;
    if (!paths.has(name)) paths.set(name, new Set());
    paths.get(name)!.add(path);
  };
  for (const v of validators) note(v.name, declaringPath(v));
  for (const e of errors) note(e.name, declaringPath(e));
  const dup = new Set([...paths].filter(([, p]) => p.size > 1).map(([n]) => n));
  if (dup.size === 0) return { validators, errors };
  const out: LoadError[] = [...errors];
  const reported = new Set<string>();
  for (const v of validators) {
    if (!dup.has(v.name)) continue;
    const at = declaringPath(v);
    if (reported.has(at)) continue;
    reported.add(at);
    const others = [...paths.get(v.name)!].filter((p) => p !== at);
    out.push({
      source,
      path: at,
      line: nameLine(at),
      column: 1,
      message: `validator name \`${v.name}\` is used twice in the ${source} validators: ${at} and ${others.join(', ')}`,
      fix: 'give each validator a unique name (and rename its file or folder to match), or delete one copy',
      name: v.name,
      trigger: v.spec.trigger,
    });
  }
  return { validators: validators.filter((v) => !dup.has(v.name)), errors: out };
}
