/**
 * Prepare: only now that something matched are the runner, the decision and the file rebuilding loaded; a broken
 * validator switched off by the name its error is reported under is dropped; the changed files get their contents
 * (the current file for a PreToolUse, edits and patches rebuilt, bounded by the call's budget).
 */
import { isDisabled } from '../../config/config.ts';
import { PASS_DECISION } from '../decision.ts';
import type { HookContext } from '../context.ts';

async function loadEngine() {
  const [run, aggregate, decision, log, completeFiles] = await Promise.all([
    import('../../runner/run.ts'),
    import('../../runner/aggregate.ts'),
    import('../decision.ts'),
    import('../../runner/log.ts'),
    import('../../file-changes/complete-files.ts'),
  ]);
  return { run, aggregate, decision, log, completeFiles };
}
export type Engine = Awaited<ReturnType<typeof loadEngine>>;

export async function prepare(ctx: HookContext) {
  ctx.engine = await loadEngine();
  const { loadErrorName } = ctx.engine.run;
  const { completeFileChanges } = ctx.engine.completeFiles;
  ctx.loadErrors = ctx.loadErrors.filter((e) => !isDisabled(ctx.config, loadErrorName(e), loadErrorName(e)));
  if (!ctx.matched.length && !ctx.loadErrors.length && !ctx.carried.length) return PASS_DECISION;
  const completed = await releasingOnce(ctx, () => completeFileChanges(ctx.event, ctx.startedAt + ctx.config.budgetMs));
  ctx.files = completed.files;
  return undefined;
}

/**
 * Runs `work`; when avp itself fails (the caller answers with the adapter's refusal), nothing was evaluated, so the
 * once-validators this process claimed are released.
 */
export async function releasingOnce<T>(ctx: HookContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    await ctx.once?.state.release([...ctx.once.mine]).catch(() => {});
    throw e;
  }
}
