/**
 * One hook call, from the parsed stdin JSON to the agent's answer, for any agent: its adapter normalizes the input
 * and words the engine's neutral decision; everything between speaks only `HookEvent`, as the stages of
 * hook/pipeline.ts: normalize → accepted state → guard → config → discover → session → match → prepare → run →
 * log → decide → render.
 */
import type { AgentAdapter } from '../agents/types.ts';
import { HookContext, profiler, type HookAnswer } from './context.ts';
import { stagesFor } from './pipeline.ts';
import { recordable } from './shortcut/shortcut-file.ts';
import { render, renderDecided } from './stages/render.ts';

export type { HookAnswer } from './context.ts';

/** Answers one Claude Code hook input (Claude Code's adapter; kept for callers that speak only Claude Code). */
export async function answerClaudeHook(
  input: unknown,
  env: NodeJS.ProcessEnv,
  startedAt = Date.now(),
): Promise<HookAnswer> {
  const { default: claude } = await import('../agents/claude/index.ts');
  return answerHook(claude, input, env, startedAt);
}

/**
 * Answers one hook input of the agent `adapter` speaks for. Throws AvpError('hook-input') only for input that is not
 * an event (the caller answers with the adapter's `failClosed`).
 */
export async function answerHook(
  adapter: AgentAdapter,
  input: unknown,
  env: NodeJS.ProcessEnv,
  startedAt = Date.now(),
): Promise<HookAnswer> {
  // AVP_PROFILE=1: per-stage milliseconds on stderr (where the no-match path spends its time).
  const profile = env.AVP_PROFILE === '1' ? profiler() : undefined;
  const ctx = new HookContext(adapter, env, startedAt, profile, adapter.normalize(input, env));
  profile?.mark('normalize');
  let answer: HookAnswer | undefined;
  for (const [name, stage] of stagesFor(adapter, ctx.normalized)) {
    const decision = await stage(ctx);
    profile?.mark(name);
    // An early answer carries no notes: those are of stages that ran to the end.
    if (decision) {
      answer = render(ctx, decision);
      break;
    }
  }
  answer ??= renderDecided(ctx);
  // A call the hook shortcut may answer alone next time (hook/shortcut/): recorded once its answer is known.
  if (mayRecord(ctx)) (await import('./shortcut/record.ts')).recordShortcut(ctx, answer);
  return answer;
}

/** The record's cheap first test (hook/shortcut/record.ts decides), so most calls never load the recorder. */
function mayRecord(ctx: HookContext): boolean {
  return (
    ctx.adapter.name === 'claude' &&
    process.platform !== 'win32' &&
    !!ctx.view?.memo &&
    ctx.installed !== undefined &&
    !!ctx.env.CLAUDE_PROJECT_DIR &&
    recordable(ctx.normalized.event, ctx.normalized.toolKind, ctx.installed)
  );
}
