/**
 * The optional stages of agents whose after-event of a file tool cannot refuse (Cursor's afterFileEdit): findings of
 * such an edit are carried — raised once at the session's next blocking point, and at the main agent's Stop until
 * fixed (hook/carry.ts); the after-event is judged on the file as it is on disk, minus what its PreToolUse already
 * judged (hook/observed-edit.ts). Without carried findings, the first stage costs one stat.
 */
import { isEvent } from '../../protocol/trigger.ts';
import { hasCarriedFindings } from '../../session/session.ts';
import { PASS_DECISION } from '../decision.ts';
import type { HookContext } from '../context.ts';

/** Before match: a blocking point refuses once for carried findings; a Stop reports them as runs. */
export async function carriedFindings(ctx: HookContext) {
  const event = ctx.event;
  try {
    if (isEvent(event, 'PreToolUse') && ctx.ability?.stop && hasCarriedFindings(event)) {
      const refused = await (
        await import('../carry.ts')
      ).carriedRefusal(event, ctx.active, ctx.ability.stop, ctx.config.policy?.forbidDisabling);
      if (refused) return refused;
    }
    if (isEvent(event, 'Stop') && !event.subagentId && hasCarriedFindings(event))
      ctx.carried = (await import('../carry.ts')).carriedStopRuns(event, ctx.active);
  } catch (e) {
    // Like all session state, an aid: the call is still judged on its own.
    ctx.notes.push(`avp: could not read the carried findings: ${(e as Error).message}`);
  }
  return undefined;
}

/** After match: an observe-only after-event of a file tool is judged on the file on disk, not twice. */
export async function observedEdit(ctx: HookContext) {
  if (!isEvent(ctx.normalized, 'PostToolUse') || !ctx.matched.length) return undefined;
  ctx.observing = true;
  const { observeEdit, recordObserved } = await import('../observed-edit.ts');
  const observed = await observeEdit(ctx.event, ctx.matched);
  ctx.files = observed.event.files;
  ctx.judgedAtPre = observed.judged;
  ctx.matched = ctx.matched.filter((v) => !ctx.judgedAtPre.includes(v));
  if (ctx.matched.length || ctx.loadErrors.length) return undefined;
  await recordObserved(ctx.event, [], [], ctx.judgedAtPre, ctx.config, []);
  return PASS_DECISION;
}

/** After run: the edit's blocking results are carried (or cleared); a PreToolUse notes what it judged. */
export async function recordObserved(ctx: HookContext) {
  const { event, matched, runs, config, notes } = ctx;
  const { recordObserved: record } = await import('../observed-edit.ts');
  if (ctx.observing) ctx.carriedNow = await record(event, matched, runs, ctx.judgedAtPre, config, notes);
  else if (isEvent(event, 'PreToolUse') && event.alsoTrigger === 'PostToolUse' && ctx.report.outcome !== 'ERROR')
    await record(event, matched, runs, undefined, config, notes);
  return undefined;
}

/** After decide: the answer says what was carried now. */
export async function tellCarried(ctx: HookContext) {
  if (ctx.carriedNow) (await import('../observed-edit.ts')).tellCarried(ctx.decision, ctx.event, ctx.carriedNow);
  return undefined;
}
