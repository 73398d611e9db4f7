/**
 * Driving the real Gemini CLI (npm `@google/gemini-cli`) offline: `GOOGLE_GEMINI_BASE_URL` at the loopback Gemini
 * server with any `GEMINI_API_KEY`, hooks in the project's `.gemini/settings.json`, `GEMINI_CLI_TRUST_WORKSPACE=true`
 * so the temp folder is trusted, and `gemini -p PROMPT --approval-mode yolo -o json`.
 */
import { join } from 'node:path';
import type { GeminiReply } from '../../support/gemini-server.ts';
import type { ScriptFn } from '../../support/scripted-server.ts';
import {
  type AgentProject,
  type AgentRun,
  BIN,
  commandOf,
  type HookSetup,
  hooksOn,
  writesHooks,
  makeAgentProject,
  reasonOf,
  runAgent,
  writeJson,
} from './agent-support.ts';
import { stepAt } from './turn-support.ts';

export const GEMINI_BIN = join(BIN, 'gemini');
export const GEMINI_MODEL = 'gemini-2.5-flash';

const TOOL_EVENTS = ['BeforeTool', 'AfterTool'];
const OTHER_EVENTS = ['SessionStart', 'BeforeAgent', 'AfterAgent', 'SessionEnd'];

/** A project whose Gemini CLI talks to `baseUrl` and runs `project.hookCommand` on the main events. */
export function makeGeminiProject(baseUrl: string, hook: HookSetup, parent?: string): AgentProject {
  const project = makeAgentProject('gemini', { decision: 'deny', reason: reasonOf(hook) }, commandOf(hook), parent);
  const entry = { type: 'command', command: project.hookCommand, name: 'record', timeout: 60_000 };
  const hooks = hooksOn(TOOL_EVENTS, OTHER_EVENTS, entry);
  if (writesHooks(hook)) writeJson(join(project.root, '.gemini', 'settings.json'), { hooks });
  writeJson(join(project.home, '.gemini', 'settings.json'), {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  });
  Object.assign(project.env, {
    GEMINI_API_KEY: 'e2e-fake-key',
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  });
  return project;
}

/** `gemini -p PROMPT` headless, every tool approved. */
export function runGemini(project: AgentProject, prompt: string, timeoutMs?: number): Promise<AgentRun> {
  return runAgent([GEMINI_BIN, '-p', prompt, '-m', GEMINI_MODEL, '--approval-mode', 'yolo', '-o', 'json'], {
    cwd: project.root,
    env: project.env,
    timeoutMs,
  });
}

/** Tool results (`functionResponse` parts) in a Gemini request: which step of the turn the model is at. */
export const geminiToolResults = (body: any): number =>
  (body?.contents ?? []).flatMap((c: any) => c?.parts ?? []).filter((p: any) => p?.functionResponse).length;

/** A conversation request (streamed, tools offered), as opposed to the CLI's utility calls. */
export const isGeminiTurn = (req: { path: string; body: any }): boolean =>
  req.path.includes(':streamGenerateContent') && Array.isArray(req.body?.tools) && req.body.tools.length > 0;

/**
 * The scripted turn for the Gemini CLI. Its utility calls (model router, next-speaker check) ask `generateContent`
 * for JSON; they get an answer that fits both.
 */
export function geminiModel(root: string, script: typeof stepAt = stepAt): ScriptFn<GeminiReply> {
  return (req) => {
    if (!isGeminiTurn(req)) return { text: '{"reasoning":"e2e","model_choice":"flash","next_speaker":"user"}' };
    const step = script(root, geminiToolResults(req.body));
    if (step.kind === 'done') return { text: step.text };
    if (step.kind === 'write')
      return { calls: [{ name: 'write_file', args: { file_path: step.path, content: step.content } }] };
    return { calls: [{ name: 'run_shell_command', args: { command: step.command, description: 'e2e step' } }] };
  };
}
