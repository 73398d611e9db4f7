/**
 * Run: the matched validators and load errors, concurrently under the call's budget (runner/run.ts); once-claims of
 * runs that errored are released (so "done" means evaluated); a broken config joins as avp's own error, carried
 * findings as runs of their own (in the answer, not the run log); then the aggregated report. A blocking report makes
 * the session forget the contents it judged (no secret at rest, session/store.ts `flagContents`).
 */
import { forgetBlockedContents } from '../../session/session.ts';
import { killSwitchForbidden } from '../../config/managed.ts';
import { configRun } from './config.ts';
import { releasingOnce } from './prepare.ts';
import type { HookContext } from '../context.ts';

export async function run(ctx: HookContext) {
  const { config, once, notes } = ctx;
  const { runValidators } = ctx.engine.run;
  const runs =
    ctx.matched.length || ctx.loadErrors.length
      ? await releasingOnce(ctx, () =>
          runValidators(ctx.matched, ctx.loadErrors, ctx.event, config, { deadline: ctx.startedAt + config.budgetMs }),
        )
      : [];
  if (once) {
    const unevaluated = runs.filter((r) => r.status === 'error' && once.mine.has(r.id)).map((r) => r.id);
    await once.state.release(unevaluated).catch((e: Error) => notes.push(`avp: once state: ${e.message}`));
  }
  if (ctx.problem) runs.unshift(configRun(ctx.problem, killSwitchForbidden(ctx.env)));
  ctx.logged = runs;
  ctx.runs = ctx.carried.length ? [...runs, ...ctx.carried] : runs;
  ctx.report = ctx.engine.aggregate.aggregate(ctx.runs, config);
  const forgot = ctx.report.outcome === 'ERROR' ? forgetBlockedContents(ctx.event, ctx.runs) : undefined;
  if (forgot) notes.push(forgot);
  return undefined;
}
