/**
 * Driving the real Qwen Code CLI (npm `@qwen-code/qwen-code`) offline: its OpenAI-compatible auth (`OPENAI_BASE_URL`
 * at the loopback chat completions server, any `OPENAI_API_KEY`), hooks in the project's `.qwen/settings.json`
 * (project hooks load while folder trust is off, its default), and `qwen PROMPT --approval-mode yolo -o json`.
 */
import { join } from 'node:path';
import type { OpenAIReply } from '../../support/openai-server.ts';
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
  preToolUseDeny,
  reasonOf,
  runAgent,
  writeJson,
} from './agent-support.ts';
import { chatToolResults, stepAt } from './turn-support.ts';

export const QWEN_BIN = join(BIN, 'qwen');

const TOOL_EVENTS = ['PreToolUse', 'PostToolUse'];
const OTHER_EVENTS = ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd'];

/** A project whose Qwen Code talks to `baseUrl` (with `/v1`) and runs `project.hookCommand` on the main events. */
export function makeQwenProject(baseUrl: string, hook: HookSetup): AgentProject {
  const project = makeAgentProject('qwen', preToolUseDeny(reasonOf(hook)), commandOf(hook));
  const entry = { type: 'command', command: project.hookCommand, name: 'record', timeout: 60 };
  const hooks = hooksOn(TOOL_EVENTS, OTHER_EVENTS, entry);
  if (writesHooks(hook)) writeJson(join(project.root, '.qwen', 'settings.json'), { hooks });
  writeJson(join(project.home, '.qwen', 'settings.json'), {
    security: { auth: { selectedType: 'openai' } },
    model: { name: 'test-model' },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  });
  Object.assign(project.env, { OPENAI_API_KEY: 'sk-e2e-test', OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: 'test-model' });
  return project;
}

/** `qwen PROMPT` headless (one-shot), every tool approved. */
export function runQwen(project: AgentProject, prompt: string, timeoutMs?: number): Promise<AgentRun> {
  return runAgent([QWEN_BIN, '--approval-mode', 'yolo', '-o', 'json', prompt], {
    cwd: project.root,
    env: project.env,
    timeoutMs,
  });
}

/** A conversation request (the agent's own system prompt), as opposed to side requests (memory, titles). */
export const isQwenTurn = (body: any): boolean =>
  String(body?.messages?.[0]?.content ?? '').startsWith('You are Qwen Code');

/** The scripted turn for Qwen Code: `write_file`, then `run_shell_command` twice. */
export function qwenModel(root: string, script: typeof stepAt = stepAt): ScriptFn<OpenAIReply> {
  return ({ body }) => {
    if (!isQwenTurn(body)) return { text: 'ok' };
    const step = script(root, chatToolResults(body));
    if (step.kind === 'done') return { text: step.text };
    if (step.kind === 'write')
      return { toolCalls: [{ name: 'write_file', arguments: { file_path: step.path, content: step.content } }] };
    return {
      toolCalls: [{ name: 'run_shell_command', arguments: { command: step.command, description: 'e2e step' } }],
    };
  };
}
