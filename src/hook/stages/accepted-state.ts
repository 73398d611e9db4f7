/**
 * Accepted state: the user's kill switch first (it needs no config and no accepted state, unless a managed policy
 * forbids it), then the state the user accepted — what avp runs on; changes to it (pending) are announced, not obeyed.
 */
import { killSwitchForbidden } from '../../config/managed.ts';
import { truthy } from '../../config/config.ts';
import { hookTrustView } from '../../trust/hook-view.ts';
import { PASS_DECISION } from '../decision.ts';
import type { HookContext } from '../context.ts';

export function acceptedState(ctx: HookContext) {
  if (truthy(ctx.env.AVP_DISABLE) && !killSwitchForbidden(ctx.env)) return PASS_DECISION;
  ctx.view = hookTrustView(ctx.normalized.projectRoot, ctx.env, ctx.normalized.event);
  return undefined;
}
