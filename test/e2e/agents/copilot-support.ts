/**
 * Driving the real GitHub Copilot CLI (npm `@github/copilot`, binary from `@github/copilot-linux-x64`) offline and
 * with no GitHub login: its bring-your-own-model variables (`COPILOT_PROVIDER_BASE_URL` at the loopback chat
 * completions server, any `COPILOT_PROVIDER_API_KEY`, `COPILOT_MODEL`), a temp HOME, and `copilot -p PROMPT
 * --allow-all-tools`. Hooks come from `avp init --agent copilot` (`.github/hooks/avp.json`).
 */
import { join } from 'node:path';
import type { OpenAIReply } from '../../support/openai-server.ts';
import type { ScriptFn } from '../../support/scripted-server.ts';
import { type AgentProject, type AgentRun, BIN, makeAgentProject, runAgent } from './agent-support.ts';
import { chatToolResults, stepAt } from './turn-support.ts';

export const COPILOT_BIN = join(BIN, 'copilot');

/** A project whose Copilot CLI talks to `baseUrl` (with `/v1`); hooks come from `avp init --agent copilot`. */
export function makeCopilotProject(baseUrl: string): AgentProject {
  const project = makeAgentProject('copilot', {});
  Object.assign(project.env, {
    COPILOT_PROVIDER_BASE_URL: baseUrl,
    COPILOT_PROVIDER_API_KEY: 'sk-e2e-test',
    COPILOT_MODEL: 'test-model',
  });
  return project;
}

/** `copilot -p PROMPT` headless, every tool allowed, the project trusted (unless `trustFolder: false`). */
export function runCopilot(
  project: AgentProject,
  prompt: string,
  timeoutMs?: number,
  opts: { trustFolder?: boolean } = {},
): Promise<AgentRun> {
  const trust = opts.trustFolder === false ? [] : ['--trust-folder'];
  return runAgent([COPILOT_BIN, '-p', prompt, '--allow-all-tools', ...trust], {
    cwd: project.root,
    env: project.env,
    timeoutMs,
  });
}

/** A conversation request (with tools), as opposed to side requests. */
export const isCopilotTurn = (body: any): boolean => (body?.tools?.length ?? 0) > 0;

/** The scripted turn for Copilot: `create {path, file_text}`, then `bash {command, description}`. */
export function copilotModel(root: string, script: typeof stepAt = stepAt): ScriptFn<OpenAIReply> {
  return ({ body }) => {
    if (!isCopilotTurn(body)) return { text: 'ok' };
    const step = script(root, chatToolResults(body));
    if (step.kind === 'done') return { text: step.text };
    if (step.kind === 'write')
      return { toolCalls: [{ name: 'create', arguments: { path: step.path, file_text: step.content } }] };
    return { toolCalls: [{ name: 'bash', arguments: { command: step.command, description: 'e2e step' } }] };
  };
}
