/**
 * Guard: avp's own files are refused to the agent's file tools and shell before the change happens (before-tool and
 * permission events only). The guard and its shell reader are loaded only for those events: every other call (the
 * after-tool events, most of a session) does not pay for evaluating them.
 */
import { refusal } from '../decision.ts';
import type { HookContext } from '../context.ts';

export async function guard(ctx: HookContext) {
  const { event } = ctx;
  if (event.event !== 'PreToolUse' && event.event !== 'PermissionRequest') return undefined;
  const { guardDenial } = await import('../../trust/guard.ts');
  const guarded = await guardDenial(event, ctx.env, ctx.startedAt);
  // The guard may rebuild edited files to see what they would become: later stages see them rebuilt.
  ctx.files = guarded.event.files;
  return guarded.denial ? refusal(guarded.denial, 'avp refused a change to its own files') : undefined;
}
