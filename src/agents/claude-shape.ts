/**
 * The answer shape Claude Code defined and Codex, Qwen Code and Factory Droid adopted: exit 0 with one JSON document
 * whose `hookSpecificOutput` refuses a tool before it runs (`permissionDecision: "deny"`, or for PermissionRequest
 * `decision.behavior: "deny"`), whose `decision: "block"` + `reason` acts after the fact and at a stop, with
 * `additionalContext` for the model and `systemMessage` for the user. Each adapter says which fields its agent
 * accepts; this module only builds the document.
 */
import type { HookEvent } from '../event.ts';
import { obj } from './normalize.ts';
import type { AgentAdapter, AgentAnswer, Decision } from './types.ts';

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

/**
 * Fail closed in the adapter's own terms. Input that is not an event: exit 2 with the message on stderr — every
 * agent here treats exit 2 as a refusal whose stderr reaches the model or the user (a JSON answer would need an
 * event to answer). avp's own failure: the adapter's refusal for the event (deny before a tool, block elsewhere).
 */
export function failClosedWith(
  adapter: Pick<AgentAdapter, 'name' | 'events' | 'abilities' | 'render'>,
  input: unknown,
  problem: { kind: 'bad-input' | 'internal'; message: string },
): AgentAnswer {
  if (problem.kind === 'bad-input') return { stdout: '', stderr: `avp hook: ${problem.message}\n`, exitCode: 2 };
  const raw = obj(input) ?? {};
  const agentEvent = typeof raw.hook_event_name === 'string' ? raw.hook_event_name : '';
  const trigger = adapter.events[agentEvent] ?? agentEvent;
  const reason = internalReason(problem.message);
  const event: HookEvent = { agent: adapter.name, event: trigger, cwd: '', projectRoot: '', files: [], raw };
  if (agentEvent && agentEvent !== trigger) event.agentEvent = agentEvent;
  const ability = adapter.abilities[trigger];
  const decision: Decision = {
    kind: ability?.stop || 'block',
    reason,
    userMessage: reason,
    avp: { passed: false, violations: [], summary: 'avp internal error' },
  };
  // Where the refusal alone does not reach the model, the context carries it (as for any block, see decision.ts).
  if (ability?.contextOnBlock) decision.context = reason;
  return { ...adapter.render(event, decision), stderr: `avp hook: internal error: ${problem.message}\n` };
}
