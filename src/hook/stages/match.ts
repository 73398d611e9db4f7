/**
 * Match: the validators and load errors for the event (also for the trigger the agent never sends for this call,
 * `alsoTrigger`), once-validators narrowed to those this process claimed for the session. Nothing matched: the
 * common case ends here.
 */
import type { HookEvent } from '../../protocol/event.ts';
import { onceState } from '../../session/session.ts';
import { loadErrorsForEvent, matchValidators } from '../../validator/match.ts';
import { PASS_DECISION } from '../decision.ts';
import type { HookContext } from '../context.ts';

export async function match(ctx: HookContext) {
  const event: HookEvent = ctx.event;
  let matched = matchValidators(ctx.active, event);
  let loadErrors = loadErrorsForEvent(ctx.errors, event);
  if (event.alsoTrigger) {
    // The agent never sends that event for this call (a Codex shell patch has no PostToolUse): judge it now.
    const also = { ...event, event: event.alsoTrigger };
    const more = matchValidators(ctx.active, also).filter((v) => !matched.includes(v));
    matched = [...matched, ...more];
    const moreErrors = loadErrorsForEvent(ctx.errors, also).filter((e) => !loadErrors.includes(e));
    loadErrors = [...loadErrors, ...moreErrors];
  }
  if (matched.some((v) => v.spec.once)) {
    // Claimed atomically: of several hook processes racing on the same session, exactly one runs a once-validator;
    // the claim is released after the run if that run errors, so "done" means evaluated.
    const state = await onceState(event.projectRoot, event.stateless ? undefined : event.sessionId);
    const wanted = matched.filter((v) => v.spec.once && !state.isDone(v.id)).map((v) => v.id);
    const mine = new Set(event.sessionId ? await state.claim(wanted) : wanted);
    matched = matched.filter((v) => !v.spec.once || mine.has(v.id));
    ctx.once = { state, mine };
  }
  ctx.matched = matched;
  ctx.loadErrors = loadErrors;
  return !matched.length && !loadErrors.length && !ctx.carried.length ? PASS_DECISION : undefined;
}
