/**
 * Runs the matching validators of one event: concurrently (at most `config.concurrency` at once), each under its own
 * timeout (frontmatter `timeout`), all under the call's budget (`config.budgetMs`) so that avp answers before the
 * host cancels the hook. Fail closed: whatever prevents a verdict becomes a run with `status: 'error'`, never a pass;
 * its `error.code` says what kind (`judge-timeout`, …) and `error.setup` marks the user's setup (no judge configured).
 */
import { basename, dirname } from 'node:path';
import type { AvpConfig } from '../config/types.ts';
import { effectiveSeverity } from '../config/config.ts';
import { AvpError } from '../errors.ts';
import type { HookEvent } from '../protocol/event.ts';
import { matchedFiles } from '../validator/match.ts';
import type { LoadError, Validator } from '../validator/types.ts';
import { disableHint } from '../judges/script.ts';
import type { ValidatorRun } from './types.ts';

export interface RunOptions {
  /** Epoch ms at which every unfinished validator is stopped (default: now + config.budgetMs). */
  deadline?: number;
  /** Judge selection (default: judges/select.ts); tests inject one with their own environment. */
  judgeFor?: (v: Validator, c: AvpConfig) => Promise<import('../judges/types.ts').Judge>;
  /** Where AVP_HOME (the spend ledger) and the judges' keys are read (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** The name a load error is reported (and can be disabled) under: its validator's name, else the file's. */
export function loadErrorName(error: LoadError): string {
  return (
    error.name ??
    (basename(error.path) === 'VALIDATOR.md'
      ? basename(dirname(error.path))
      : basename(error.path).replace(/\.md$/, ''))
  );
}

/** A load error as a run: the validator could not even be read, so it blocks the events it would have seen. */
export function loadErrorRun(error: LoadError, config: AvpConfig): ValidatorRun {
  const name = loadErrorName(error);
  const where = `${error.path}${error.line ? `:${error.line}${error.column ? `:${error.column}` : ''}` : ''}`;
  return {
    id: name,
    name,
    // Its severity could not be read: treat it as `error` (fail closed) unless config says otherwise.
    severity: effectiveSeverity(config, name, name, 'error'),
    source: error.source,
    path: error.path,
    status: 'error',
    error: {
      cause: `cannot load ${where}: ${error.message}`,
      fix: `${error.fix}; ${disableHint({ id: name })}`,
      code: 'validator-load',
    },
    durationMs: 0,
  };
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
  const timeoutMs = Math.min(v.spec.timeout * 1000, left);
  const ownTimeout = v.spec.timeout * 1000 <= left;
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
  } catch (e) {
    const cause = controller.signal.aborted ? reason : e instanceof Error ? e.message : String(e);
    const fix =
      e instanceof AvpError && e.fix && !controller.signal.aborted
        ? e.fix
        : ownTimeout
          ? `raise "timeout" in the validator's frontmatter, or make its judge faster; ${disableHint(v)}`
          : `raise budgetMs / AVP_BUDGET_MS (and the hook timeout); ${disableHint(v)}`;
    const code = controller.signal.aborted ? 'judge-timeout' : e instanceof AvpError ? e.code : 'judge-crash';
    return errorRun(v, config, started, cause, fix.includes('AVP_DISABLE') ? fix : `${fix}; ${disableHint(v)}`, code);
  } finally {
    clearTimeout(timer);
    budget.removeEventListener('abort', onBudget);
    controller.abort(FINISHED);
  }
}

/** A validator not run on the user's explicit choice (`budgets.policy: "warn"`, `judge.skipLlmWhenBlocked`). */
function skippedRun(
  v: Validator,
  config: AvpConfig,
  code: 'budget-spent' | 'cheap-first',
  reason: string,
): ValidatorRun {
  return {
    ...runIdentity(v, config),
    status: 'skipped',
    skipped: { code, reason },
    durationMs: 0,
  };
}

/**
 * Runs `tasks` with at most `n` at once. Workers gathered in a plain loop: `Array.from` is one of the engine's
 * built-ins written in JavaScript, compiled on its first call (~0.1–0.25 ms in a hook process, docs/hook-mode.md).
 */
async function pool(tasks: Array<() => Promise<void>>, n: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  const workers: Promise<void>[] = [];
  for (let i = Math.min(Math.max(1, n), tasks.length); i > 0; i--) workers.push(worker());
  await Promise.all(workers);
}

/**
 * Evaluates `validators` against `event` and turns `loadErrors` into error runs. Runs come back in the order given
 * (load errors first), whatever order they finish in. LLM validators on the same backend and model share batched
 * requests (`judge.batch`); a spent budget (`budgets`) stops them before any request; with
 * `judge.skipLlmWhenBlocked`, script validators run first and a blocking one skips the LLM validators. What the LLM
 * validators spent is added to the spend ledger (runner/budget.ts).
 */
export async function runValidators(
  validators: Validator[],
  loadErrors: LoadError[],
  event: HookEvent,
  config: AvpConfig,
  opts: RunOptions = {},
): Promise<ValidatorRun[]> {
  const env = opts.env ?? process.env;
  const deadline = opts.deadline ?? Date.now() + config.budgetMs;
  const budget = new AbortController();
  const budgetTimer = setTimeout(() => budget.abort('budget'), Math.max(0, deadline - Date.now()));
  const done = new Map<Validator, ValidatorRun>();
  const scripts = validators.filter((v) => v.spec.script);
  let llm = validators.filter((v) => !v.spec.script);
  const evaluate = async (list: Validator[]) => {
    const one = (v: Validator) => async () =>
      void done.set(v, await runOne(v, event, config, budget.signal, deadline, opts));
    // Injected judges (tests) are asked one by one; batching needs the real backends.
    const planned =
      opts.judgeFor || !config.judge.batch || list.length < 2
        ? { groups: [], single: list }
        : await (await import('../judges/batch.ts')).planBatches(list, config, env);
    const tasks = planned.single.map(one);
    if (planned.groups.length) {
      const { runBatch } = await import('./run-batch.ts');
      for (const group of planned.groups)
        tasks.push(async () => {
          const runs = await runBatch(group, event, config, budget.signal, deadline, env, (v) =>
            runOne(v, event, config, budget.signal, deadline, opts),
          );
          for (const v of group.validators) done.set(v, runs.get(v.id)!);
        });
    }
    await pool(tasks, config.concurrency);
  };
  try {
    if (llm.length && (Object.keys(config.budgets.session).length || Object.keys(config.budgets.day).length)) {
      const spent = (await import('./budget.ts')).spentBudget(config, event.sessionId, env);
      if (spent) {
        for (const v of llm)
          done.set(
            v,
            config.budgets.policy === 'warn'
              ? skippedRun(v, config, 'budget-spent', `not run: ${spent.message}`)
              : errorRun(
                  v,
                  config,
                  performance.now(),
                  `not evaluated: ${spent.message}`,
                  `raise budgets.${spent.scope}.${spent.what} in avp.config.json, or wait for ${spent.scope === 'day' ? 'tomorrow' : 'a new session'}; "budgets": {"policy": "warn"} lets the agent go on without LLM validators (and says so); \`avp stats\` shows the spend`,
                  'budget-spent',
                ),
          );
        llm = [];
      }
    }
    if (config.judge.skipLlmWhenBlocked && scripts.length && llm.length) {
      // Cheap first: the scripts' verdicts decide whether the LLM validators are worth asking at all.
      await evaluate(scripts);
      const { runLevel } = await import('./aggregate.ts');
      const blocking = scripts.filter((v) => runLevel(done.get(v)!, config) === 'error').map((v) => v.id);
      if (blocking.length) {
        const why = `skipped: ${blocking.join(', ')} already ${blocking.length === 1 ? 'blocks' : 'block'} this change (judge.skipLlmWhenBlocked)`;
        for (const v of llm) done.set(v, skippedRun(v, config, 'cheap-first', why));
        llm = [];
      }
      await evaluate(llm);
    } else await evaluate([...scripts, ...llm]);
  } finally {
    clearTimeout(budgetTimer);
  }
  const runs = validators.map((v) => done.get(v)!);
  if (runs.some((r) => r.usage && !r.cached)) {
    const { recordSpend } = await import('./budget.ts');
    recordSpend(runs, config, event.sessionId, env);
  }
  return [...loadErrors.map((e) => loadErrorRun(e, config)), ...runs];
}
