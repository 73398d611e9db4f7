/**
 * The adapter table: agent name → lazy loader, like the command table. `avp hook --agent X`, `avp init --agent X`,
 * `avp list --agent X` and the shared adapter test suite all check names against this one table, so adding an
 * agent is one line here plus its folder — and the suite then runs over it.
 */
import type { AgentName } from '../protocol/event.ts';
import type { AgentAdapter } from './types.ts';

export const AGENTS: Readonly<Record<AgentName, () => Promise<AgentAdapter>>> = {
  claude: () => import('./claude/index.ts').then((m) => m.default),
  codex: () => import('./codex/index.ts').then((m) => m.default),
  gemini: () => import('./gemini/index.ts').then((m) => m.default),
  qwen: () => import('./qwen/index.ts').then((m) => m.default),
  droid: () => import('./droid/index.ts').then((m) => m.default),
  copilot: () => import('./copilot/index.ts').then((m) => m.default),
  cursor: () => import('./cursor/index.ts').then((m) => m.default),
  windsurf: () => import('./windsurf/index.ts').then((m) => m.default),
  cline: () => import('./cline/index.ts').then((m) => m.default),
  kiro: () => import('./kiro/index.ts').then((m) => m.default),
  opencode: () => import('./opencode/index.ts').then((m) => m.default),
  amp: () => import('./amp/index.ts').then((m) => m.default),
};

export const AGENT_NAMES = Object.keys(AGENTS) as AgentName[];

export function isAgentName(name: string): name is AgentName {
  return Object.hasOwn(AGENTS, name);
}

/** The adapter of `name` (checked with `isAgentName` first). */
export function loadAgent(name: AgentName): Promise<AgentAdapter> {
  return AGENTS[name]();
}

/** Every adapter, in table order. */
export function loadAllAgents(): Promise<AgentAdapter[]> {
  return Promise.all(AGENT_NAMES.map((n) => AGENTS[n]()));
}
