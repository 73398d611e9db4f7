/** Guard: a file tool's write into avp's own state or hooks is denied before anything else is loaded. */
import { guardDenial } from '../../trust/guard.ts';
import { refusal } from '../decision.ts';
import type { HookContext } from '../context.ts';

export async function guard(ctx: HookContext) {
  const guarded = await guardDenial(ctx.event, ctx.env, ctx.startedAt);
  // The guard may rebuild edited files to see what they would become: later stages see them rebuilt.
  ctx.files = guarded.event.files;
  return guarded.denial ? refusal(guarded.denial, 'avp refused a change to its own files') : undefined;
}
