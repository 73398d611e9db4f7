/**
 * How the accepted state speaks in a hook answer: a notice for the user (the agent shows it in the session) and,
 * where the event takes context, a note for the model. Works on the engine's decision, so every answer — a pass, a
 * block, a deny — carries the notice the same way on every agent.
 */
import type { Decision, EventAbility } from '../protocol/decision.ts';

const MODEL_NOTE =
  "Note from avp: changes to avp's validators, config or hooks wait for the user's acceptance (`avp accept`, run by " +
  'the user in their own terminal) and are not in effect yet. Tell the user; do not try to accept or work around them.';

/**
 * The decision with the accepted state's notice for the user and, with `tellModel`, a short note for the model where
 * the event takes context; unchanged without a notice.
 */
export function withNotice(
  decision: Decision,
  ability: EventAbility | undefined,
  notice: string | undefined,
  tellModel = false,
): Decision {
  if (!notice) return decision;
  const out: Decision = {
    ...decision,
    userMessage: decision.userMessage !== undefined ? `${notice}\n\n${decision.userMessage}` : notice,
  };
  if (tellModel && ability?.context)
    out.context = decision.context ? `${decision.context}\n\n${MODEL_NOTE}` : MODEL_NOTE;
  return out;
}
