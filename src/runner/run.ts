/**
 * Runs the matching validators of one event: concurrently (at most `config.concurrency` at once), each under its own
 * timeout (frontmatter `timeout`, run-one.ts), all under the call's budget (`config.budgetMs`) so that avp answers
 * before the host cancels the hook. Fail closed: whatever prevents a verdict becomes a run with `status: 'error'`,
 * never a pass; its `error.code` says what kind (`judge-timeout`, …) and `error.setup` marks the user's setup (no
 * judge configured).
 */
import { basename, dirname } from 'node:path';
import type { AvpConfig } from '../config/types.ts';
import { effectiveSeverity } from '../config/config.ts';
import type { HookEvent } from '../protocol/event.ts';
import type { LoadError, Validator } from '../validator/types.ts';
import { disableHint } from '../judges/script.ts';
import { errorRun, runIdentity, runOne, type RunOptions } from './run-one.ts';
import type { ValidatorRun } from './types.ts';

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
