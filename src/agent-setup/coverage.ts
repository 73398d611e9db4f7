/**
 * Which validators can never fire on an agent (`avp list --agent X`): a trigger the agent has no event for, or a
 * `match.tools` list no tool of the agent can match (canonical names, the agent's own names). A warning, not an
 * error: the same validators stay portable, and the agents that have the event run them.
 */
import type { Validator } from '../validator/types.ts';
import type { AgentAdapter } from '../agents/types.ts';

export interface NeverFires {
  id: string;
  reason: string;
  /** `instead`: the validator runs, but the agent cannot refuse there; `reason` says what happens instead. */
  kind?: 'never' | 'instead';
}

function compiles(source: string): RegExp | undefined {
  try {
    return new RegExp(`^(?:${source})$`);
  } catch {
    return undefined;
  }
}

/** The validators that never fire on `agent`, each with why. */
export function neverFires(validators: Validator[], agent: AgentAdapter): NeverFires[] {
  const triggers = new Set(Object.values(agent.events));
  const tools = new Set<string>();
  for (const [own, m] of Object.entries(agent.tools)) tools.add(own).add(m.tool);
  // A patch tool also counts as a Write; every agent's MCP tools are named `mcp__…` (or Gemini's `mcp_…`).
  if (Object.values(agent.tools).some((m) => m.patchField)) tools.add('Write');
  const out: NeverFires[] = [];
  for (const v of validators) {
    const trigger = v.spec.trigger;
    if (!triggers.has(trigger)) {
      out.push({ id: v.id, reason: `${agent.displayName} has no ${trigger} event` });
      continue;
    }
    const listed = v.spec.match.tools;
    if (!listed?.length) continue;
    const res = listed.map(compiles).filter((r): r is RegExp => !!r);
    const mcp = res.some((r) => r.test('mcp__server__tool') || r.test('mcp_server_tool'));
    if (!mcp && !res.some((r) => [...tools].some((t) => r.test(t))))
      out.push({ id: v.id, reason: `no ${agent.displayName} tool is named ${listed.join(' or ')}` });
  }
  // Triggers the agent has but cannot refuse on: what happens to those validators' findings instead.
  for (const v of validators) {
    const instead = agent.instead?.[v.spec.trigger];
    if (instead && v.spec.severity === 'error' && !out.some((o) => o.id === v.id))
      out.push({ id: v.id, reason: instead, kind: 'instead' });
  }
  return out;
}
