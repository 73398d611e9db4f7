/**
 * The optional stages of a Stop or SubagentStop: the loop guard (after N consecutive blocks: pass and tell the user),
 * findings already shown at an earlier blocked Stop said briefly, and the Stop's answer remembered for the next round.
 */
import { noteStopAnswer, stopGuard as loopGuard } from '../../session/session.ts';
import { isEvent } from '../../protocol/trigger.ts';
import type { HookContext } from '../context.ts';

/** Before log: whether this Stop may still block, and which findings the agent was already shown. */
export async function stopGuard(ctx: HookContext) {
  const { event, report } = ctx;
  const guard: { block: boolean; systemMessage?: string } = event.stateless
    ? { block: report.outcome === 'ERROR' }
    : await loopGuard(event, report.outcome === 'ERROR', ctx.config, { remaining: report.summary });
  ctx.stop = { ...(guard.systemMessage ? { systemMessage: guard.systemMessage } : {}), noBlock: !guard.block };
  // A blocked Stop re-sends no finding the agent was already shown for the same content (a brief "still failing").
  if (!guard.block) return undefined;
  ctx.repeats = (await import('../../session/shown-findings.ts')).stopRepeats(event);
  return undefined;
}

/** After decide: the main agent's Stop answer noted (a continuation is no new prompt), the findings shown recorded. */
export async function stopRecord(ctx: HookContext) {
  const { event, decision } = ctx;
  if (isEvent(event, 'Stop')) await noteStopAnswer(event, decision.kind === 'block', decision.reason);
  const error = ctx.report.outcome === 'ERROR' ? ctx.repeats?.remember(ctx.runs) : undefined;
  if (error) ctx.notes.push(`avp: could not record the findings shown: ${error.message}`);
  return undefined;
}
