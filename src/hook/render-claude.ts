/** Report → Claude Code's answer in one step (the engine's decision, worded by the Claude Code adapter). */
import { decide, type RenderExtra } from './decision.ts';
import type { Report, ValidatorRun } from '../runner/types.ts';
import type { HookEvent } from '../protocol/event.ts';
import claude from '../agents/claude/index.ts';

export interface Rendered {
  stdout: string;
  exitCode: number;
  /** The full, unclipped report text, set when the answer summarised it. */
  fullReport?: string;
}

/** One JSON document for Claude Code and the exit code (always 0: exit 2 would discard the JSON). */
export function renderClaude(
  event: HookEvent,
  report: Report,
  runs: ValidatorRun[],
  extra: RenderExtra = {},
): Rendered {
  const { decision, fullReport } = decide(event, report, runs, claude.abilities[event.event], extra);
  const answer = claude.render(event, decision);
  return { stdout: answer.stdout, exitCode: answer.exitCode, ...(fullReport !== undefined ? { fullReport } : {}) };
}
