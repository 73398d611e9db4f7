/**
 * One batched request as runs: the batch's own timeout (the shortest of its validators', within the call's budget),
 * its verdicts as runs, and every validator the batch could not settle asked again alone (`runAlone`, the single
 * flow). Fail closed: a timeout or a failed request makes every member a validator error; an answer that could not be
 * read at all sends every member to the single flow. A validator is never passed for lack of an answer.
 */
import type { AvpConfig } from '../config/types.ts';
import { AvpError } from '../errors.ts';
import type { HookEvent } from '../protocol/event.ts';
import type { Validator } from '../validator/types.ts';
import type { BatchGroup, BatchOutcome } from '../judges/batch.ts';
import { addUsage } from '../judges/llm-judge.ts';
import { disableHint } from '../judges/script.ts';
import { errorRun, FINISHED, runIdentity, whenAborted } from './run-one.ts';
import type { ValidatorRun } from './types.ts';

export async function runBatch(
  group: BatchGroup,
  event: HookEvent,
  config: AvpConfig,
  budget: AbortSignal,
  deadline: number,
  env: NodeJS.ProcessEnv,
  runAlone: (v: Validator) => Promise<ValidatorRun>,
): Promise<Map<string, ValidatorRun>> {
  const started = performance.now();
  const members = group.validators;
  const out = new Map<string, ValidatorRun>();
  const left = deadline - Date.now();
  if (left <= 0 || budget.aborted) {
    for (const v of members) out.set(v.id, await runAlone(v)); // each says the budget ran out
    return out;
  }
  const shortest = Math.min(...members.map((v) => v.spec.timeout));
  const timeoutMs = Math.min(shortest * 1000, left);
  const ownTimeout = shortest * 1000 <= left;
  const reason = ownTimeout
    ? `timed out after ${shortest} s (the shortest timeout of the ${members.length} validators judged in one request)`
    : `stopped after ${Math.round(timeoutMs / 100) / 10} s: avp's budget of ${config.budgetMs / 1000} s for this hook call ran out`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(reason), timeoutMs);
  const onBudget = () => controller.abort(reason);
  budget.addEventListener('abort', onBudget, { once: true });
  let outcomes: Map<string, BatchOutcome>;
  try {
    const { evaluateBatch } = await import('../judges/batch.ts');
    outcomes = await Promise.race([
      evaluateBatch(group, event, config, controller.signal, timeoutMs, env),
      whenAborted(controller.signal),
    ]);
  } catch (e) {
    const aborted = controller.signal.aborted;
    if (!aborted && e instanceof AvpError && e.code === 'judge-unreadable') {
      outcomes = new Map(members.map((v) => [v.id, { alone: e.message }]));
    } else {
      const cause = aborted ? reason : e instanceof Error ? e.message : String(e);
      const code = aborted ? 'judge-timeout' : e instanceof AvpError ? e.code : 'judge-crash';
      for (const v of members) {
        const fix =
          !aborted && e instanceof AvpError && e.fix
            ? e.fix
            : ownTimeout
              ? `raise "timeout" in the validators' frontmatter, make the judge faster, or set "judge": {"batch": false}; ${disableHint(v)}`
              : `raise budgetMs / AVP_BUDGET_MS (and the hook timeout); ${disableHint(v)}`;
        out.set(
          v.id,
          errorRun(v, config, started, cause, fix.includes('AVP_DISABLE') ? fix : `${fix}; ${disableHint(v)}`, code),
        );
      }
      return out;
    }
  } finally {
    clearTimeout(timer);
    budget.removeEventListener('abort', onBudget);
    controller.abort(FINISHED);
  }
  const durationMs = Math.round(performance.now() - started);
  const asked = [...outcomes.values()].filter((o) => !o.result?.cached).length;
  const again: Array<Promise<void>> = [];
  for (const v of members) {
    const o = outcomes.get(v.id) ?? { alone: 'the batch returned nothing for it' };
    if (o.result) {
      const r = o.result;
      out.set(v.id, {
        ...runIdentity(v, config),
        status: r.verdict.passed ? 'passed' : 'failed',
        verdict: r.verdict,
        durationMs,
        judge: r.judge,
        ...(r.model ? { model: r.model } : {}),
        ...(r.usage ? { usage: r.usage } : {}),
        ...(r.cached ? { cached: true } : { batched: asked }),
      });
      continue;
    }
    // Asked again alone: its share of the batch's tokens stays on its run, so the spend adds up.
    again.push(
      runAlone(v).then((run) => {
        const usage = addUsage(o.share, run.usage);
        out.set(v.id, { ...run, ...(usage ? { usage } : {}), durationMs: durationMs + run.durationMs });
      }),
    );
  }
  await Promise.all(again);
  return out;
}
