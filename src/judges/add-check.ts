/**
 * `avp add`'s judge check. avp fails closed: an LLM validator with no judge that can work blocks every event it
 * matches. The user must never meet that by surprise, so `avp add` refuses such a validator — before anything is
 * installed — with the ways to configure a judge, and `--force` installs it anyway. Script validators (and RuleSets
 * whose rules are all scripts) need no judge and are never refused. The check is static (what `avp doctor --no-probe`
 * sees): no request is sent, so an offline `avp add` stays offline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AvpConfig } from '../config/types.ts';
import { AvpError } from '../errors.ts';
import type { Validator } from '../validator/types.ts';
import type { Fetched } from '../registry-client/sources.ts';
import { HOW_TO_CONFIGURE } from './detect.ts';
import { checkJudge, checkJudges } from './judge-check.ts';

export interface AddCheckOptions {
  projectRoot: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  scope: 'user' | 'project';
  registry?: string;
  offline?: boolean;
}

/** What `avp add` fetched for one spec: checked here, then installed as it is (one download, not two). */
export interface FetchedSpec {
  spec: string;
  fetched: Fetched;
}

/** The validators a fetched package would install, read from a throwaway copy of it (nothing is installed). */
async function validatorsOf(fetched: Fetched, scope: AddCheckOptions['scope']): Promise<Validator[]> {
  const [{ extractArchive }, { loadValidatorsAt }] = await Promise.all([
    import('../registry-client/archive.ts'),
    import('../validator/load.ts'),
  ]);
  const root = mkdtempSync(join(tmpdir(), 'avp-add-check-'));
  try {
    const dir = join(root, fetched.name);
    await extractArchive(fetched.info, dir);
    return loadValidatorsAt(dir, scope).validators;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** True when every judge in sight works: then no package has to be looked at. */
function allJudgesWork(config: AvpConfig, env: NodeJS.ProcessEnv, projectRoot: string): boolean {
  if (checkJudge(config, env, projectRoot).problem) return false;
  return Object.keys(config.judge.validators).every(
    (id) => !checkJudge(config, env, projectRoot, { id, name: id }).problem,
  );
}

/**
 * Throws `add-no-judge` when one of `specs` holds an LLM validator whose judge cannot work (config problems included),
 * naming the validators, what is wrong, every way to configure a judge, and `--force`.
 */
export async function refuseWithoutJudge(specs: FetchedSpec[], opts: AddCheckOptions): Promise<void> {
  const { loadConfig } = await import('../config/config.ts');
  let config: AvpConfig | undefined;
  let configError: unknown;
  try {
    config = await loadConfig({ cwd: opts.cwd, projectRoot: opts.projectRoot, env: opts.env });
  } catch (e) {
    configError = e;
  }
  if (config && allJudgesWork(config, opts.env, opts.projectRoot)) return;
  for (const { spec, fetched } of specs) {
    const name = fetched.name;
    const validators = await validatorsOf(fetched, opts.scope);
    const llm = validators.filter((v) => !v.spec.script && !v.notRun);
    if (!llm.length) continue;
    if (!config) throw configError;
    const broken = checkJudges(llm, config, opts.env, opts.projectRoot).filter((c) => c.problem && c.validators.length);
    if (!broken.length) continue;
    const ids = broken.flatMap((c) => c.validators);
    const what = ids.length === 1 && ids[0] === name ? name : `${name} (${ids.join(', ')})`;
    const problems = broken.map((c) => c.problem!);
    const nothingFound = problems.some((p) => p.fix === HOW_TO_CONFIGURE);
    throw new AvpError(
      'add-no-judge',
      `${what} is an LLM validator, and no judge can evaluate it: ${problems.map((p) => p.message).join('; ')}.\n` +
        `Installed anyway, every event it matches would be blocked ("could not be evaluated": avp fails closed).`,
      {
        fix:
          `${nothingFound ? HOW_TO_CONFIGURE : problems.map((p) => p.fix).join('; ')}; then run this again. ` +
          `Nothing was installed. \`avp add ${spec} --force\` installs it anyway.`,
      },
    );
  }
}

/**
 * After `--force`: the warning for installed LLM validators that no judge can evaluate (they block every event they
 * match until one works), or undefined.
 */
export async function missingJudgeWarning(dirs: string[], opts: AddCheckOptions): Promise<string | undefined> {
  const [{ loadConfig }, { loadValidatorsAt }] = await Promise.all([
    import('../config/config.ts'),
    import('../validator/load.ts'),
  ]);
  const config = await loadConfig({ cwd: opts.cwd, projectRoot: opts.projectRoot, env: opts.env }).catch(() => null);
  if (!config) return undefined; // an invalid config is reported by every command that reads it
  const llm = dirs
    .flatMap((d) => loadValidatorsAt(d, opts.scope).validators)
    .filter((v) => !v.spec.script && !v.notRun);
  const broken = checkJudges(llm, config, opts.env, opts.projectRoot).filter((c) => c.problem && c.validators.length);
  if (!broken.length) return undefined;
  return (
    `no judge can evaluate ${broken.flatMap((c) => c.validators).join(', ')} (${broken[0]!.problem!.message}): ` +
    'every event it matches is blocked until a judge works; `avp doctor` shows what to fix'
  );
}

/**
 * `avp new`'s judge check: the problem that would keep the default judge from evaluating a new LLM validator (so it
 * would block every change it matches), or undefined when a judge can work. Static, like `avp doctor --no-probe`.
 */
export async function defaultJudgeProblem(opts: {
  projectRoot: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<string | undefined> {
  const { loadConfig } = await import('../config/config.ts');
  const config = await loadConfig({ cwd: opts.cwd, projectRoot: opts.projectRoot, env: opts.env });
  return checkJudge(config, opts.env, opts.projectRoot).problem?.message;
}
