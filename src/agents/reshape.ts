/**
 * Shared pieces of the adapters whose agents speak protocols of their own (Copilot, Cursor, Windsurf, Cline, Kiro,
 * OpenCode, Amp): their input is first reshaped into the Claude-shaped fields the normalizer reads (the agent's own
 * input stays the event's `raw`). Every adapter, Claude-shaped ones included, fails closed through `failClosedFor`:
 * avp's own failure is answered with the agent's refusal for that event.
 */
import type { HookEvent } from '../protocol/event.ts';
import { internalReason } from './claude-shape.ts';
import { normalizeWith, obj, type NormalizeSpec } from './normalize.ts';
import type { AgentAdapter, AgentAnswer, Decision } from './types.ts';

export type Raw = Record<string, unknown>;

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The first of `keys` that `raw` has as a string. */
export function pick(raw: Raw | undefined, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = raw?.[k];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

/** Drops undefined values (the normalizer treats a present key as given). */
export function defined(o: Raw): Raw {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * Normalizes an input after reshaping it into Claude-shaped fields. Input that is not an object goes to the
 * normalizer as it is (its error says what it is); `agentTool` restores the agent's own tool name where the reshape
 * chose a mapping by the call's arguments (a write tool's `create` subcommand).
 */
export function normalizeReshaped(
  spec: NormalizeSpec,
  reshape: (raw: Raw) => Raw,
  input: unknown,
  env: NodeJS.ProcessEnv,
): HookEvent {
  const given = obj(input);
  if (!given) return normalizeWith(spec, input, env);
  const shaped = reshape(given);
  const event = normalizeWith(spec, shaped, env);
  event.raw = given;
  const own = str(shaped.agent_tool);
  if (own !== undefined && event.agentTool !== undefined) {
    if (own === event.tool) delete event.agentTool;
    else event.agentTool = own;
  }
  return event;
}

/**
 * On agents whose after-the-fact event cannot refuse, a file change is also judged by the PostToolUse validators at
 * its PreToolUse: a secret is refused before it is written instead of being reported after.
 */
export function judgePostAtPre(event: HookEvent): HookEvent {
  if (event.event === 'PreToolUse' && (event.toolKind === 'write' || event.toolKind === 'edit') && event.files.length)
    event.alsoTrigger = 'PostToolUse';
  return event;
}

/** avp's own failure as the agent's refusal of `agentEvent` (its `render` of a deny/block naming the kill switch). */
export function internalRefusal(
  adapter: Pick<AgentAdapter, 'name' | 'events' | 'abilities' | 'render'>,
  agentEvent: string,
  message: string,
): AgentAnswer {
  const trigger = adapter.events[agentEvent] ?? agentEvent;
  const reason = internalReason(message);
  const event: HookEvent = { agent: adapter.name, event: trigger, cwd: '', projectRoot: '', files: [], raw: {} };
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
  const out = adapter.render(event, decision);
  // Where stderr is the refusal's text (exit-code agents) it stays; elsewhere it is the note for the agent's log.
  return { ...out, stderr: out.stderr ?? `avp hook: internal error: ${message}\n` };
}

/**
 * An adapter's fail-closed answer: avp's failure is the agent's refusal of the event named by the first of
 * `eventFields` the input has; input that is not an event is exit 2 with the message — every agent here treats exit 2
 * as a refusal whose stderr reaches the model or the user (a JSON answer would need an event to answer).
 */
export function failClosedFor(
  adapter: () => Pick<AgentAdapter, 'name' | 'events' | 'abilities' | 'render'>,
  ...eventFields: string[]
): AgentAdapter['failClosed'] {
  return (input, problem) =>
    problem.kind === 'internal'
      ? internalRefusal(adapter(), pick(obj(input), ...eventFields) ?? '', problem.message)
      : exitTwo(`avp hook: ${problem.message}`);
}

/** Exit 2 with the reason on stderr: the refusal of the agents that read a hook's exit code (Windsurf, Kiro). */
export function exitTwo(reason: string): AgentAnswer {
  return { stdout: '', stderr: `${reason}\n`, exitCode: 2 };
}

/** The reason, the context and the user message of a decision as one text (agents with one channel). */
export function oneText(d: Decision): string | undefined {
  const parts = [d.reason, d.context !== d.reason ? d.context : undefined].filter((p): p is string => !!p);
  if (!parts.length && d.userMessage) parts.push(d.userMessage);
  return parts.length ? parts.join('\n\n') : undefined;
}
