/**
 * Driving the real Codex CLI (npm `@openai/codex`) offline: a custom model provider in `$CODEX_HOME/config.toml`
 * pointing at the loopback Responses API server, hooks in the project's `.codex/hooks.json`, and
 * `codex exec --dangerously-bypass-hook-trust` (hooks otherwise wait for the user's review).
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptFn } from '../../support/scripted-server.ts';
import type { ResponsesReply } from '../../support/responses-server.ts';
import {
  type AgentProject,
  type AgentRun,
  BIN,
  commandOf,
  type HookSetup,
  writesHooks,
  makeAgentProject,
  preToolUseDeny,
  reasonOf,
  runAgent,
  writeJson,
} from './agent-support.ts';
import { stepAt } from './turn-support.ts';

export const CODEX_BIN = join(BIN, 'codex');

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'];

/** A project whose Codex config talks to `baseUrl` and runs `project.hookCommand` on every event. */
export function makeCodexProject(baseUrl: string, hook: HookSetup): AgentProject {
  // Codex rejects unknown keys in its answer: the refusal holds nothing else.
  const project = makeAgentProject('codex', preToolUseDeny(reasonOf(hook)), commandOf(hook));
  const codexHome = join(project.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "test-model"',
      'model_provider = "loopback"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      'check_for_update_on_startup = false',
      '',
      '[model_providers.loopback]',
      'name = "loopback"',
      `base_url = "${baseUrl}"`,
      'wire_api = "responses"',
      'env_key = "AVP_E2E_MODEL_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      '[features]',
      'hooks = true',
      '',
      `[projects."${project.root}"]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );
  const hooks = Object.fromEntries(
    EVENTS.map((e) => [e, [{ matcher: '*', hooks: [{ type: 'command', command: project.hookCommand, timeout: 60 }] }]]),
  );
  if (writesHooks(hook)) writeJson(join(project.root, '.codex', 'hooks.json'), { hooks });
  project.env.CODEX_HOME = codexHome;
  project.env.AVP_E2E_MODEL_KEY = 'sk-e2e-test';
  return project;
}

/** `codex exec PROMPT` headless in the project. */
export function runCodex(project: AgentProject, prompt: string, timeoutMs?: number): Promise<AgentRun> {
  return runAgent(
    [
      CODEX_BIN,
      'exec',
      '--dangerously-bypass-hook-trust',
      '--dangerously-bypass-approvals-and-sandbox',
      '--skip-git-repo-check',
      '--json',
      '-C',
      project.root,
      prompt,
    ],
    { cwd: project.root, env: project.env, timeoutMs },
  );
}

/** Tool results in a Responses API request: which step of the turn the model is at. */
export const codexToolResults = (body: any): number =>
  (Array.isArray(body?.input) ? body.input : []).filter((i: any) => i?.type === 'function_call_output').length;

/**
 * The scripted turn for Codex. With a model it has no metadata for, Codex offers `exec_command` and no `apply_patch`
 * tool, so the file is written the way such a model does it: an `apply_patch` heredoc run as a shell command.
 */
export function codexModel(root: string, script: typeof stepAt = stepAt): ScriptFn<ResponsesReply> {
  return ({ body }) => {
    const step = script(root, codexToolResults(body));
    if (step.kind === 'done') return { text: step.text };
    const cmd =
      step.kind === 'shell'
        ? step.command
        : `apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: ${step.path.slice(root.length + 1)}\n` +
          `${step.content
            .replace(/\n$/, '')
            .split('\n')
            .map((l) => `+${l}`)
            .join('\n')}\n*** End Patch\nPATCH`;
    return { calls: [{ name: 'exec_command', arguments: { cmd, workdir: root } }] };
  };
}
