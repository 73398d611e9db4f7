/**
 * Driving the real OpenCode CLI (npm `opencode-ai`, binary from `opencode-linux-x64`) offline: a custom provider in
 * the temp HOME's `~/.config/opencode/opencode.json` (npm `@ai-sdk/openai-compatible`, which OpenCode bundles, with
 * `baseURL` at the loopback chat completions server), the models.dev fetch, autoupdate and sharing off, every
 * permission allowed, and `opencode run -m loopback/test-model PROMPT`. OpenCode has no command hooks: avp's plugin
 * (`avp init --agent opencode` writes `.opencode/plugins/avp.ts`) is the only hook this driver supports.
 */
import { join } from 'node:path';
import type { OpenAIReply } from '../../support/openai-server.ts';
import type { ScriptFn } from '../../support/scripted-server.ts';
import { type AgentProject, type AgentRun, BIN, makeAgentProject, runAgent, writeJson } from './agent-support.ts';
import { chatToolResults, stepAt } from './turn-support.ts';

export const OPENCODE_BIN = join(BIN, 'opencode');
export const OPENCODE_MODEL = 'loopback/test-model';

/** A project whose OpenCode talks to `baseUrl` (with `/v1`); hooks come from `avp init --agent opencode`. */
export function makeOpenCodeProject(baseUrl: string): AgentProject {
  const project = makeAgentProject('opencode', {});
  writeJson(join(project.home, '.config', 'opencode', 'opencode.json'), {
    autoupdate: false,
    share: 'disabled',
    model: OPENCODE_MODEL,
    small_model: OPENCODE_MODEL,
    provider: {
      loopback: {
        npm: '@ai-sdk/openai-compatible',
        name: 'e2e loopback',
        options: { baseURL: baseUrl, apiKey: 'sk-e2e-test' },
        models: { 'test-model': { name: 'test-model' } },
      },
    },
    permission: { edit: 'allow', bash: 'allow', external_directory: 'allow' },
  });
  Object.assign(project.env, {
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  });
  return project;
}

/** `opencode run PROMPT` headless (one-shot); it exits once the session goes idle. */
export function runOpenCode(project: AgentProject, prompt: string, timeoutMs?: number): Promise<AgentRun> {
  return runAgent([OPENCODE_BIN, 'run', '--print-logs', '-m', OPENCODE_MODEL, prompt], {
    cwd: project.root,
    env: project.env,
    timeoutMs,
  });
}

/** A conversation request (OpenCode's own system prompt, with tools), as opposed to its title request. */
export const isOpenCodeTurn = (body: any): boolean =>
  String(body?.messages?.[0]?.content ?? '').startsWith('You are opencode') && (body?.tools?.length ?? 0) > 0;

/** The scripted turn for OpenCode: `write {filePath, content}`, then `bash {command, description}`. */
export function openCodeModel(root: string, script: typeof stepAt = stepAt): ScriptFn<OpenAIReply> {
  return ({ body }) => {
    if (!isOpenCodeTurn(body)) return { text: 'e2e title' };
    const step = script(root, chatToolResults(body));
    if (step.kind === 'done') return { text: step.text };
    if (step.kind === 'write')
      return { toolCalls: [{ name: 'write', arguments: { filePath: step.path, content: step.content } }] };
    return { toolCalls: [{ name: 'bash', arguments: { command: step.command, description: 'e2e step' } }] };
  };
}
