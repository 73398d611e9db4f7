/**
 * The hook call's pieces that need no engine: its config (a broken one becomes avp's own blocking error, with the kill
 * switch still working), which validators an event matches (and which once-validators this process claimed), and the
 * AVP_PROFILE timer.
 */
import type { AvpConfig } from '../config/types.ts';
import { killSwitchForbidden } from '../config/managed.ts';
import { applyEnv, defaultConfig, loadConfig, truthy } from '../config/config.ts';
import { AvpError, errorMessage } from '../errors.ts';
import type { HookEvent } from '../protocol/event.ts';
import { loadErrorsForEvent, matchValidators } from '../validator/match.ts';
import type { LoadError, Validator } from '../validator/types.ts';
import type { TrustView } from '../trust/hook-view.ts';
import { onceState, type OnceState } from '../session/session.ts';
import type { ValidatorRun } from '../runner/types.ts';

/** Non-throwing config load: a broken config becomes a blocking "validator error" of avp's own config. */
export async function configFor(
  event: HookEvent,
  env: NodeJS.ProcessEnv,
  view: TrustView,
): Promise<{ config: AvpConfig; problem?: AvpError }> {
  try {
    const config = await loadConfig({
      cwd: event.cwd,
      projectRoot: event.projectRoot,
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

export function configRun(problem: AvpError): ValidatorRun {
  return {
    id: 'avp-config',
    name: 'avp-config',
    severity: 'error',
    path: problem.file ?? 'avp config',
    status: 'error',
    error: {
      cause: `avp's configuration is invalid: ${problem.describe().split('\n')[0]}`,
      fix: `${problem.fix ?? 'fix the config file'}; AVP_DISABLE=1 turns avp off meanwhile`,
      code: problem.code,
      setup: true,
    },
    durationMs: 0,
  };
}

/**
 * The validators and load errors for `event` (also for the trigger the agent never sends for this call, `alsoTrigger`),
 * once-validators narrowed to those this process claimed for the session.
 */
export async function matchForEvent(
  active: Validator[],
  errors: LoadError[],
  event: HookEvent,
): Promise<{ matched: Validator[]; loadErrors: LoadError[]; once?: { state: OnceState; mine: Set<string> } }> {
  let matched: Validator[] = matchValidators(active, event);
  let loadErrors: LoadError[] = loadErrorsForEvent(errors, event);
  if (event.alsoTrigger) {
    // The agent never sends that event for this call (a Codex shell patch has no PostToolUse): judge it now.
    const also = { ...event, event: event.alsoTrigger };
    const more = matchValidators(active, also).filter((v) => !matched.includes(v));
    matched = [...matched, ...more];
    const moreErrors = loadErrorsForEvent(errors, also).filter((e) => !loadErrors.includes(e));
    loadErrors = [...loadErrors, ...moreErrors];
  }
  let once: { state: OnceState; mine: Set<string> } | undefined;
  if (matched.some((v) => v.spec.once)) {
    // Claimed atomically: of several hook processes racing on the same session, exactly one runs a once-validator;
    // the claim is released below if that run errors, so "done" means evaluated.
    const state = await onceState(event.projectRoot, event.stateless ? undefined : event.sessionId);
    const wanted = matched.filter((v) => v.spec.once && !state.isDone(v.id)).map((v) => v.id);
    const mine = new Set(event.sessionId ? await state.claim(wanted) : wanted);
    matched = matched.filter((v) => !v.spec.once || mine.has(v.id));
    once = { state, mine };
  }
  return { matched, loadErrors, once };
}

/** AVP_PROFILE=1: per-phase milliseconds, for stderr. */
export function profiler() {
  let last = performance.now();
  const marks: string[] = [];
  return {
    mark(name: string) {
      const now = performance.now();
      marks.push(`${name} ${(now - last).toFixed(2)}`);
      last = now;
    },
    done: () => `avp profile (ms): ${marks.join(', ')}; since process start ${performance.now().toFixed(1)}`,
  };
}
