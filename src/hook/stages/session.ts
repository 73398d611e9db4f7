/**
 * Session: what the session's state adds to the event — a shell command's changes, the turn's files at a Stop, a new
 * turn at a prompt (session/session.ts). Given the enabled validators, Bash snapshots no validator could look at are
 * skipped. A prompt that continues the same turn (a blocked Stop's reason sent back) is answered at once.
 */
import { prepareEvent } from '../../session/session.ts';
import { PASS_DECISION } from '../decision.ts';
import type { HookContext } from '../context.ts';

export async function session(ctx: HookContext) {
  if (ctx.normalized.stateless) return undefined;
  const prepared = await prepareEvent(ctx.event, ctx.config, { validators: ctx.active });
  ctx.files = prepared.files;
  return prepared.sameTurn ? PASS_DECISION : undefined;
}
