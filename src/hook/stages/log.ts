/** Log: one JSONL line per validator run in .avp/logs/ (duration, tokens, cache, the call); none outside a project. */
import type { HookContext } from '../context.ts';

export function log(ctx: HookContext) {
  if (ctx.event.stateless) return undefined;
  const error = ctx.engine.log.writeRunLog(ctx.event, ctx.logged, ctx.report, {
    call: ctx.call,
    callMs: Date.now() - ctx.startedAt,
    cacheEnabled: ctx.config.cache.enabled,
  });
  if (error) ctx.notes.push(`avp: could not write the run log: ${error.message}`);
  return undefined;
}
