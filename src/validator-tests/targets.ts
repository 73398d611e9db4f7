/**
 * Which validators `avp test` runs: the installed ones (project, then user) with no argument; a NAME among them; or
 * a PATH — a validator's folder, or a folder of validators (`avp test validators/`) loaded as they are on disk.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../config/config.ts';
import { AvpError } from '../errors.ts';
import { discover } from '../validator/discover.ts';
import { loadValidatorsAt } from '../validator/load.ts';
import type { LoadError, Validator } from '../validator/types.ts';
import { groupByDir, judgeCase, testValidator, type ValidatorTests } from './run.ts';

export interface TestRun {
  projectRoot: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  targets: string[];
  repeat: number;
  /** Reuse stored verdicts (off by default: a test asks the judge). */
  cache: boolean;
  /** Only script validators' cases run (`avp publish`: deterministic, no judge asked); LLM ones come back unrun. */
  scriptOnly?: boolean;
}

const looksLikePath = (t: string, cwd: string) => /[\\/]/.test(t) || t.startsWith('.') || existsSync(resolve(cwd, t));

function loadPath(target: string, cwd: string): Validator[] {
  const path = resolve(cwd, target);
  const r = loadValidatorsAt(path, 'project');
  if (r.errors.length) {
    const e = r.errors[0]!;
    throw new AvpError('test-load', `${e.path}${e.line ? `:${e.line}` : ''}: ${e.message}`, {
      fix: `${e.fix} (avp lint ${target} lists every problem)`,
    });
  }
  if (!r.validators.length)
    throw new AvpError('test-target', `no validator at ${target}`, {
      fix: 'give a validator folder or a folder of them',
    });
  return r.validators;
}

function loadFailure(e: LoadError): ValidatorTests {
  const where = `${e.path}${e.line ? `:${e.line}` : ''}`;
  const c = { name: '(load)', file: e.path, files: [], expect: { pass: true as const } };
  return {
    validator: e.name ?? e.path,
    dir: e.path,
    kind: 'script',
    cases: [judgeCase(c, [], `does not load: ${where}: ${e.message} (fix: ${e.fix})`)],
  };
}

/** Runs the tests of every target; validators without tests come back with `noTests`. */
export async function runTests(run: TestRun): Promise<ValidatorTests[]> {
  const env = run.cache ? run.env : { ...run.env, AVP_NO_CACHE: '1' };
  const config = await loadConfig({ cwd: run.cwd, projectRoot: run.projectRoot, env });
  const validators: Validator[] = [];
  const broken: ValidatorTests[] = [];
  const names = run.targets.filter((t) => !looksLikePath(t, run.cwd));
  for (const t of run.targets) if (looksLikePath(t, run.cwd)) validators.push(...loadPath(t, run.cwd));
  if (names.length || !run.targets.length) {
    const found = await discover({ projectRoot: run.projectRoot, env });
    if (!run.targets.length) validators.push(...found.validators);
    // A validator that does not load cannot run its cases: that is a failure, not silence.
    if (!run.targets.length) for (const e of found.errors) broken.push(loadFailure(e));
    for (const n of names) {
      const hits = found.validators.filter((v) => v.name === n || v.id === n);
      if (!hits.length) {
        const known = [...new Set(found.validators.map((v) => v.name))].join(', ') || 'none installed';
        throw new AvpError('test-target', `no validator named ${n}`, {
          fix: `name an installed validator (${known}) or give a path`,
        });
      }
      validators.push(...hits);
    }
  }
  const results: ValidatorTests[] = [...broken];
  for (const [dir, group] of groupByDir(validators)) {
    results.push(await testValidator(dir, group, { config, env, repeat: run.repeat, scriptOnly: !!run.scriptOnly }));
  }
  return results;
}
