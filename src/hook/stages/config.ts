/**
 * Config: defaults < config files (the accepted copies when any is pending) < env, the managed policy last. A broken
 * config becomes avp's own blocking error (`configRun`), with the kill switch still working.
 */
import type { AvpConfig } from '../../config/types.ts';
import { killSwitchForbidden } from '../../config/managed.ts';
import { applyEnv, defaultConfig, loadConfig, truthy } from '../../config/config.ts';
import { AvpError, errorMessage } from '../../errors.ts';
import type { ValidatorRun } from '../../runner/types.ts';
import { PASS_DECISION } from '../decision.ts';
import type { HookContext } from '../context.ts';

export async function config(ctx: HookContext) {
  const loaded = await configFor(ctx);
  ctx.problem = loaded.problem;
  // Not a project (no `.avp/`/`.git/`, or missing): validators still run, but nothing is written under it.
  ctx.config = ctx.normalized.stateless
    ? { ...loaded.config, cache: { ...loaded.config.cache, enabled: false } }
    : loaded.config;
  ctx.policyNotes = ctx.config.policy?.notes.map((n) => `avp: ${n}.`) ?? [];
  return ctx.config.disabled ? PASS_DECISION : undefined;
}

/** Non-throwing config load: a broken config becomes a blocking "validator error" of avp's own config. */
async function configFor(ctx: HookContext): Promise<{ config: AvpConfig; problem?: AvpError }> {
  const { env, view } = ctx;
  try {
    const config = await loadConfig({
      cwd: ctx.normalized.cwd,
      projectRoot: ctx.normalized.projectRoot,
      env,
      configRoot: view.projectConfigRoot,
      userConfig: view.userConfig,
    });
    return { config };
  } catch (e) {
    const problem = e instanceof AvpError ? e : new AvpError('config-invalid', errorMessage(e));
    // The kill switch must work even when the config is what is broken.
    let config = defaultConfig();
    try {
      config = applyEnv(config, env);
    } catch {
      config.disabled = truthy(env.AVP_DISABLE);
    }
    if (killSwitchForbidden(env)) config.disabled = false;
    return { config, problem };
  }
}

/** The run that reports a broken config as avp's own blocking error. */
export function configRun(problem: AvpError, managed = false): ValidatorRun {
  return {
    id: 'avp-config',
    name: 'avp-config',
    severity: 'error',
    path: problem.file ?? 'avp config',
    status: 'error',
    error: {
      cause: `avp's configuration is invalid: ${problem.describe().split('\n')[0]}`,
      fix: managed
        ? `${problem.fix ?? 'fix the config file'}; the machine's managed policy keeps avp on meanwhile`
        : `${problem.fix ?? 'fix the config file'}; AVP_DISABLE=1 turns avp off meanwhile`,
      code: problem.code,
      setup: true,
    },
    durationMs: 0,
  };
}
