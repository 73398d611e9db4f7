/**
 * Decide: the report → one neutral decision (deny / block / warn / pass) from what the agent can do on the event
 * (hook/decision.ts), with a pointer to the full report when the answer summarises.
 */
import type { HookContext } from '../context.ts';

export function decide(ctx: HookContext) {
  const { event, engine } = ctx;
  // Not a project: nothing is written under it, so there is no full report to point to.
  ctx.reportPath = event.stateless ? undefined : engine.log.fullReportPath(event);
  const repeats = ctx.repeats;
  const { decision, fullReport } = engine.decision.decide(event, ctx.report, ctx.runs, ctx.ability, {
    ...ctx.stop,
    fullReport: ctx.reportPath,
    managed: ctx.config.policy?.forbidDisabling,
    ...(repeats ? { repeated: repeats.repeated } : {}),
  });
  ctx.decision = decision;
  ctx.fullReport = fullReport;
  return undefined;
}
