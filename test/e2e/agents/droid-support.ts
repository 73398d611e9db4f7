/**
 * Driving the real Factory Droid CLI (npm `@factory/cli`, its binary from `@factory/cli-linux-x64`) offline: a
 * bring-your-own-key custom model in `~/.factory/settings.json` (`provider: "generic-chat-completion-api"`, `baseUrl`
 * at the loopback chat completions server) needs no Factory login; hooks in the project's `.factory/hooks.json`;
 * `droid exec --skip-permissions-unsafe -m custom:… -o json PROMPT`.
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

export const DROID_BIN = join(BIN, 'droid');
export const DROID_MODEL = 'test-model';

const TOOL_EVENTS = ['PreToolUse', 'PostToolUse'];
const OTHER_EVENTS = ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd'];

/** A project whose Droid talks to `baseUrl` (with `/v1`) and runs `project.hookCommand` on the main events. */
export function makeDroidProject(baseUrl: string, hook: HookSetup): AgentProject {
  const project = makeAgentProject('droid', preToolUseDeny(reasonOf(hook)), commandOf(hook));
  const entry = { type: 'command', command: project.hookCommand, timeout: 60 };
  const hooks = hooksOn(TOOL_EVENTS, OTHER_EVENTS, entry);
  if (writesHooks(hook)) writeJson(join(project.root, '.factory', 'hooks.json'), hooks);
  writeJson(join(project.home, '.factory', 'settings.json'), {
    customModels: [
      {
        model: DROID_MODEL,
        displayName: 'e2e loopback',
        baseUrl,
        apiKey: 'sk-e2e-test',
        provider: 'generic-chat-completion-api',
        maxOutputTokens: 4096,
      },
    ],
  });
  return project;
}

/** `droid exec PROMPT` headless with every permission granted. */
export function runDroid(project: AgentProject, prompt: string, timeoutMs?: number): Promise<AgentRun> {
  return runAgent(
    [DROID_BIN, 'exec', '--skip-permissions-unsafe', '-m', `custom:${DROID_MODEL}`, '-o', 'json', prompt],
    { cwd: project.root, env: project.env, timeoutMs },
  );
}

/** A conversation request (the agent's own system prompt), as opposed to side requests (memory, titles). */
export const isDroidTurn = (body: any): boolean =>
  String(body?.messages?.[0]?.content ?? '').startsWith('You are Droid');

/** The scripted turn for Droid: `Create`, then `Execute` twice. */
export function droidModel(root: string, script: typeof stepAt = stepAt): ScriptFn<OpenAIReply> {
  return ({ body }) => {
    if (!isDroidTurn(body)) return { text: 'ok' };
    const step = script(root, chatToolResults(body));
    if (step.kind === 'done') return { text: step.text };
    if (step.kind === 'write')
      return { toolCalls: [{ name: 'Create', arguments: { file_path: step.path, content: step.content } }] };
    return {
      toolCalls: [{ name: 'Execute', arguments: { command: step.command, summary: 'Run the e2e step command' } }],
    };
  };
}
