/**
 * How the accepted state speaks in a hook answer: a notice for the user (`systemMessage`, which Claude Code shows in
 * the session) and, where the event accepts it, a note for the model; and the deny answer of the control-plane guard.
 * Works on the rendered JSON so every answer — a pass, a block, a deny — carries the notice the same way.
 */
import type { HookEvent } from '../event.ts';

interface Answer {
  stdout: string;
  exitCode: number;
  notes: string[];
}

/** Events whose `hookSpecificOutput.additionalContext` reaches the model. */
const MODEL_CONTEXT = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'SessionStart']);

const MODEL_NOTE =
  "Note from avp: changes to avp's validators, config or hooks wait for the user's acceptance (`avp accept`, run by " +
  'the user in their own terminal) and are not in effect yet. Tell the user; do not try to accept or work around them.';

/**
 * The answer with `notice` added for the user and, with `tellModel`, a short note for the model; unchanged without
 * a notice.
 */
export function withNotice<T extends Answer>(
  answer: T,
  event: HookEvent,
  notice: string | undefined,
  tellModel = false,
): T {
  if (!notice) return answer;
  let out: Record<string, unknown>;
  try {
    out = JSON.parse(answer.stdout || '{}') as Record<string, unknown>;
  } catch {
    return answer;
  }
  out.systemMessage = typeof out.systemMessage === 'string' ? `${notice}\n\n${out.systemMessage}` : notice;
  if (tellModel && MODEL_CONTEXT.has(event.event)) {
    const hso = (out.hookSpecificOutput ?? { hookEventName: event.event }) as Record<string, unknown>;
    const ctx = typeof hso.additionalContext === 'string' ? `${hso.additionalContext}\n\n` : '';
    out.hookSpecificOutput = { ...hso, additionalContext: `${ctx}${MODEL_NOTE}` };
  }
  return { ...answer, stdout: `${JSON.stringify(out)}\n` };
}

/** The guard's refusal, in the shape the event needs (PreToolUse denies the tool; PermissionRequest denies it). */
export function denyAnswer(event: HookEvent, reason: string): Answer {
  const avp = { reason, passed: false, violations: [], summary: 'avp refused a change to its own files' };
  const hookSpecificOutput =
    event.event === 'PermissionRequest'
      ? { hookEventName: event.event, decision: { behavior: 'deny', message: reason } }
      : { hookEventName: event.event, permissionDecision: 'deny', permissionDecisionReason: reason };
  return {
    stdout: `${JSON.stringify({ hookSpecificOutput, ...avp, systemMessage: reason })}\n`,
    exitCode: 0,
    notes: [],
  };
}
