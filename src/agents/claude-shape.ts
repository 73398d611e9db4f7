/**
 * The answer shape Claude Code defined and Codex, Qwen Code and Factory Droid adopted: exit 0 with one JSON document
 * whose `hookSpecificOutput` refuses a tool before it runs (`permissionDecision: "deny"`, or for PermissionRequest
 * `decision.behavior: "deny"`), whose `decision: "block"` + `reason` acts after the fact and at a stop, with
 * `additionalContext` for the model and `systemMessage` for the user. Each adapter says which fields its agent
 * accepts; this module only builds the document.
 */
import type { HookEvent } from '../protocol/event.ts';
import type { AgentAnswer, Decision } from './types.ts';

/** The decision as a Claude-shaped document. `extraFields`: AVP's own fields ride along. */
export function claudeShape(event: HookEvent, d: Decision, extraFields: boolean): Record<string, unknown> {
  const name = event.agentEvent ?? event.event;
  const out: Record<string, unknown> = {};
  let hso: Record<string, unknown> | undefined;
  if (d.kind === 'deny') {
    hso =
      event.event === 'PermissionRequest'
        ? { hookEventName: name, decision: { behavior: 'deny', message: d.reason ?? '' } }
        : { hookEventName: name, permissionDecision: 'deny', permissionDecisionReason: d.reason ?? '' };
  } else if (d.kind === 'block') out.decision = 'block';
  if (d.context !== undefined) hso = { ...(hso ?? { hookEventName: name }), additionalContext: d.context };
  if (d.kind === 'pass') {
    const pass: Record<string, unknown> = extraFields ? { ...d.avp } : {};
    if (d.userMessage !== undefined) pass.systemMessage = d.userMessage;
    if (hso) pass.hookSpecificOutput = hso;
    return pass;
  }
  if (hso) out.hookSpecificOutput = hso;
  if (d.reason !== undefined) out.reason = d.reason;
  if (d.userMessage !== undefined) out.systemMessage = d.userMessage;
  return extraFields ? { ...out, ...d.avp } : out;
}

export function jsonAnswer(doc: Record<string, unknown>): AgentAnswer {
  return { stdout: `${JSON.stringify(doc)}\n`, exitCode: 0 };
}

/** The reason avp gives when it failed itself: what happened and the kill switch. */
export function internalReason(message: string): string {
  return `avp could not evaluate this event (internal error: ${message}). To turn avp off: AVP_DISABLE=1.`;
}
