/**
 * One validator's run: its judge chosen and asked under the validator's own timeout and the call's budget, the
 * answer (or whatever stopped it) as a run. Fail closed: every way of not getting a verdict is a run with
 * `status: 'error'`, its `error.code` saying which (`judge-timeout`, `judge-crash`…).
 */
import type { AvpConfig } from '../config/types.ts';
import { effectiveSeverity } from '../config/config.ts';
import { AvpError } from '../errors.ts';
import type { HookEvent } from '../protocol/event.ts';
import { matchedFiles } from '../validator/match.ts';
import type { Validator } from '../validator/types.ts';
import { disableHint } from '../judges/script.ts';
import type { Judge, JudgeResult } from '../judges/types.ts';
import type { ValidatorRun } from './types.ts';

export interface RunOptions {
  /** Epoch ms at which every unfinished validator is stopped (default: now + config.budgetMs). */
  deadline?: number;
  /** Judge selection (default: judges/select.ts); tests inject one with their own environment. */
  judgeFor?: (v: Validator, c: AvpConfig) => Promise<Judge>;
  /** Where AVP_HOME (the spend ledger) and the judges' keys are read (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** Judge errors that are the user's setup, not this run: the same for every validator until the user acts. */
const SETUP_CODES = new Set(['judge-unconfigured', 'judge-none', 'judge-auth']);

/** What every run of `v` reports about the validator itself (its severity as config overrides it). */
export function runIdentity(
  v: Validator,
  config: AvpConfig,
): Pick<ValidatorRun, 'id' | 'name' | 'severity' | 'source' | 'path'> {
  return {
    id: v.id,
    name: v.name,
    severity: effectiveSeverity(config, v.id, v.name, v.spec.severity),
    source: v.source,
    path: v.path,
  };
}

/** A run that could not be evaluated (fail closed); `code` from SETUP_CODES marks the user's setup. */
export function errorRun(
  v: Validator,
  config: AvpConfig,
  started: number,
  cause: string,
  fix: string,
  code?: string,
): ValidatorRun {
  return {
    ...runIdentity(v, config),
    status: 'error',
    error: { cause, fix, ...(code ? { code } : {}), ...(code && SETUP_CODES.has(code) ? { setup: true } : {}) },
    durationMs: Math.round(performance.now() - started),
  };
}

/** The reason a run's controller is aborted with once its judge answered (or failed): its work is over. */
export const FINISHED = 'done';

/**
 * Rejects when `signal` aborts, so a judge that ignores its signal still cannot hold the call past its deadline.
 * Aborted as FINISHED, it stays pending: the race it was in is decided, and an error built then costs its stack
 * for nothing, on every run.
 */
export function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fire = () => {
      if (signal.reason !== FINISHED) reject(new AvpError('judge-timeout', String(signal.reason)));
    };
    if (signal.aborted) fire();
    else signal.addEventListener('abort', fire, { once: true });
  });
}

/**
 * `work`'s outcome, or whenAborted's rejection if `signal` aborts first: `Promise.race([work, whenAborted(signal)])`,
 * settled in the same order, without `Promise.race` (compiled on its first call, ~0.1 ms of a hook call).
 */
function beforeAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    work.then(resolve, reject);
    whenAborted(signal).catch(reject);
  });
}

/** A judge's answer as a run. */
function judgedRun(v: Validator, config: AvpConfig, started: number, result: JudgeResult): ValidatorRun {
  return {
    ...runIdentity(v, config),
    status: result.verdict.passed ? 'passed' : 'failed',
    verdict: result.verdict,
    durationMs: Math.round(performance.now() - started),
    judge: result.judge,
    ...(result.model ? { model: result.model } : {}),
    ...(result.usage ? { usage: result.usage } : {}),
    ...(result.cached ? { cached: true } : {}),
  };
}

/** What stopped a judge, as a run: `stopped` is the abort's reason when its timeout or the budget stopped it. */
function thrownRun(
  v: Validator,
  config: AvpConfig,
  started: number,
  e: unknown,
  ownTimeout: boolean,
  stopped?: string,
): ValidatorRun {
  const cause = stopped ?? (e instanceof Error ? e.message : String(e));
  const fix =
    e instanceof AvpError && e.fix && stopped === undefined
      ? e.fix
      : ownTimeout
        ? `raise "timeout" in the validator's frontmatter, or make its judge faster; ${disableHint(v)}`
        : `raise budgetMs / AVP_BUDGET_MS (and the hook timeout); ${disableHint(v)}`;
  const code = stopped !== undefined ? 'judge-timeout' : e instanceof AvpError ? e.code : 'judge-crash';
  return errorRun(v, config, started, cause, fix.includes('AVP_DISABLE') ? fix : `${fix}; ${disableHint(v)}`, code);
}

export async function runOne(
  v: Validator,
  event: HookEvent,
  config: AvpConfig,
  budget: AbortSignal,
  deadline: number,
  opts: RunOptions,
): Promise<ValidatorRun> {
  const started = performance.now();
  const left = deadline - Date.now();
  if (left <= 0 || budget.aborted) {
    return errorRun(
      v,
      config,
      started,
      `not started: avp's budget of ${config.budgetMs / 1000} s for this hook call ran out`,
      `raise budgetMs / AVP_BUDGET_MS or lower concurrency demands; ${disableHint(v)}`,
      'judge-timeout',
    );
  }
  // A change avp could not rebuild within its bounds (hostile edits): no verdict on a partial picture.
  const unseen = matchedFiles(v, event).find((f) => f.unavailable !== undefined);
  if (unseen) {
    return errorRun(
      v,
      config,
      started,
      `cannot show ${unseen.relPath} after the change: ${unseen.unavailable}`,
      `make the change in smaller edits; ${disableHint(v)}`,
    );
  }
  const ownTimeout = v.spec.timeout * 1000 <= left;
  // A catalog script installed unmodified (its `scripts/` key known since load) runs from avp's own bundle, and
  // synchronously: no timer or abort could stop it mid-way, so it runs without them — their set-up is ~0.2–0.4 ms
  // of a hook call that runs one (side by side, docs/hook-mode.md). Any other script takes the path below.
  if (!opts.judgeFor && v.spec.script && v.scripts) {
    try {
      const result = await (await import('../judges/script.ts')).builtinRun(v, event);
      if (result) return judgedRun(v, config, started, result);
    } catch (e) {
      return thrownRun(v, config, started, e, ownTimeout);
    }
  }
  const timeoutMs = Math.min(v.spec.timeout * 1000, left);
  const controller = new AbortController();
  const reason = ownTimeout
    ? `timed out after ${v.spec.timeout} s (the validator's timeout)`
    : `stopped after ${Math.round(timeoutMs / 100) / 10} s: avp's budget of ${config.budgetMs / 1000} s for this hook call ran out`;
  const timer = setTimeout(() => controller.abort(reason), timeoutMs);
  const onBudget = () => controller.abort(reason);
  budget.addEventListener('abort', onBudget, { once: true });
  try {
    const pick = opts.judgeFor ?? (await import('../judges/select.ts')).judgeFor;
    const judge = await beforeAbort(pick(v, config), controller.signal);
    const result = await beforeAbort(
      judge.evaluate({ validator: v, event, signal: controller.signal, timeoutMs }),
      controller.signal,
    );
    return judgedRun(v, config, started, result);
  } catch (e) {
    return thrownRun(v, config, started, e, ownTimeout, controller.signal.aborted ? reason : undefined);
  } finally {
    clearTimeout(timer);
    budget.removeEventListener('abort', onBudget);
    controller.abort(FINISHED);
  }
}
