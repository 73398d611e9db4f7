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

/**
 * `opencode run PROMPT` headless (one-shot); it exits at its session's first idle. With `attach` (a running
 * `opencode serve`'s URL) the turn runs on that server, which stays up after `run` exits.
 */
export function runOpenCode(
  project: AgentProject,
  prompt: string,
  timeoutMs?: number,
  attach?: string,
): Promise<AgentRun> {
  const server = attach ? ['--attach', attach] : [];
  return runAgent([OPENCODE_BIN, 'run', '--print-logs', ...server, '-m', OPENCODE_MODEL, prompt], {
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

/** A long-lived OpenCode (`opencode serve`), as the TUI keeps one running: its plugins stay loaded between turns. */
export interface OpenCodeServer {
  url: string;
  /** The server's process id, which is also its process group's (it runs detached). */
  pid: number;
  /** What it printed so far (stdout and, with `--print-logs`, its logs on stderr). */
  output(): string;
  /** GET `path` on the server's HTTP API, as JSON. */
  get(path: string): Promise<any>;
  /** SIGTERM to the whole group, SIGKILL after a grace period; resolves with the server's exit code or signal. */
  stop(): Promise<string>;
}

const SERVE_START_MS = 30_000;
const SERVE_STOP_GRACE_MS = 5_000;

/** Starts `opencode serve` in the project, in its own process group, and waits until it says where it listens. */
export async function startOpenCodeServer(project: AgentProject): Promise<OpenCodeServer> {
  // --port 0: OpenCode's 4096 when free, else a random port; the URL is read from what it prints.
  const proc = Bun.spawn([OPENCODE_BIN, 'serve', '--print-logs', '--hostname', '127.0.0.1', '--port', '0'], {
    cwd: project.root,
    env: project.env,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    detached: true,
  });
  let text = '';
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  };
  const drained = Promise.all([drain(proc.stdout), drain(proc.stderr)]);
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-proc.pid, signal);
    } catch {
      // the group is already gone
    }
  };
  const deadline = Date.now() + SERVE_START_MS;
  let url = '';
  while (!url) {
    url = /listening on (http:\/\/[^\s]+)/.exec(text)?.[1] ?? '';
    if (url) break;
    if (proc.exitCode !== null || Date.now() > deadline) {
      killGroup('SIGKILL');
      throw new Error(`opencode serve did not start (exit ${proc.exitCode}):\n${text.slice(-3000)}`);
    }
    await Bun.sleep(100);
  }
  return {
    url,
    pid: proc.pid,
    output: () => text,
    get: async (path) => (await fetch(new URL(path, url))).json(),
    stop: async () => {
      killGroup('SIGTERM');
      const grace = setTimeout(() => killGroup('SIGKILL'), SERVE_STOP_GRACE_MS);
      const code = await proc.exited;
      clearTimeout(grace);
      await drained;
      return String(proc.signalCode ?? code);
    },
  };
}
