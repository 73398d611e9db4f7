/**
 * Render: the full report written when the answer summarised, then the decision with the accepted state's notice
 * (pending changes, what the managed policy refused) in the agent's own fields, by its adapter.
 */
import type { Decision } from '../../agents/types.ts';
import { withNotice } from '../../trust/notice.ts';
import type { HookAnswer, HookContext } from '../context.ts';

/** The answer of a call that ran every stage: its decision, and the notes of what went wrong on the way. */
export function renderDecided(ctx: HookContext): HookAnswer {
  if (ctx.fullReport !== undefined && ctx.reportPath) {
    const error = ctx.engine.log.writeFullReport(ctx.normalized.projectRoot, ctx.reportPath, ctx.fullReport);
    if (error) ctx.notes.push(`avp: could not write the full report: ${error.message}`);
  }
  return render(ctx, ctx.decision, ctx.notes);
}

/** `decision` in the agent's words; no notice before the accepted state was read (the kill switch answered). */
export function render(ctx: HookContext, decision: Decision, notes: string[] = []): HookAnswer {
  const { view, ability } = ctx;
  const said =
    view === undefined
      ? decision
      : withNotice(
          decision,
          ability,
          [view.notice, ...ctx.policyNotes].filter(Boolean).join('\n\n') || undefined,
          view.tellModel,
        );
  const out = ctx.adapter.render(ctx.event, said);
  if (ctx.profile) notes.push(ctx.profile.done());
  return { stdout: out.stdout, exitCode: out.exitCode, notes, ...(out.stderr ? { stderr: out.stderr } : {}) };
}
