/**
 * `defineAdapter`: an agent adapter from its normalize spec and what differs between agents. The spec's name, event
 * and tool tables are the adapter's; normalize is the spec's (unless the agent reshapes its input first); avp's
 * failure is refused the common way (unless the agent needs its own answer for it).
 */
import type { HookEvent } from '../protocol/event.ts';
import { normalizeWith, type NormalizeSpec } from './normalize.ts';
import { failClosedFor } from './reshape.ts';
import type { AgentAdapter } from './types.ts';

export interface AdapterDefinition extends Pick<AgentAdapter, 'abilities' | 'render' | 'install' | 'instead'> {
  spec: NormalizeSpec;
  /** The agent accepts fields it does not know in its answer (AVP's own fields go there); default false. */
  extraFields?: boolean;
  /** The agent's input → HookEvent, when it is not the spec's alone (reshaped input, PostToolUse judged at Pre). */
  normalize?: AgentAdapter['normalize'];
  /** avp's failure as this agent's refusal, when the common one (`failClosedFor` its event field) does not fit. */
  failClosed?: AgentAdapter['failClosed'];
}

export function defineAdapter(def: AdapterDefinition): AgentAdapter {
  const { spec } = def;
  const adapter: AgentAdapter = {
    name: spec.name,
    displayName: spec.displayName,
    events: spec.events,
    tools: spec.tools,
    abilities: def.abilities,
    projectDirVars: spec.projectDirVars,
    extraFields: def.extraFields ?? false,
    normalize:
      def.normalize ?? ((input: unknown, env: NodeJS.ProcessEnv): HookEvent => normalizeWith(spec, input, env)),
    render: def.render,
    failClosed: def.failClosed ?? failClosedFor(() => adapter, 'hook_event_name'),
    install: def.install,
    ...(def.instead ? { instead: def.instead } : {}),
  };
  return adapter;
}
