/**
 * Driving the real Cline CLI (npm `cline`, its binary from `@cline/cli-linux-x64`) offline: `cline auth -p
 * openai-compatible -b <loopback chat completions server> -k … -m test-model` writes the provider into the temp
 * HOME's `~/.cline/data/settings/providers.json` (no Cline account), then `cline PROMPT` runs one task headless with
 * every tool auto-approved (its default). `CLINE_SESSION_BACKEND_MODE=local` runs the task in the CLI's own process:
 * by default it starts a hub daemon in a process group of its own that outlives the command. Hooks come from `avp
 * init --agent cline` (`.clinerules/hooks/<Event>`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_CLI_MODULES } from '../../support/agent-clis.ts';
import type { OpenAIReply } from '../../support/openai-server.ts';
import type { ScriptFn } from '../../support/scripted-server.ts';
import { type AgentProject, type AgentRun, makeAgentProject, processesWithHome, runAgent } from './agent-support.ts';
import { chatToolResults, stepAt } from './turn-support.ts';

const PLATFORM: Record<string, string> = { linux: 'linux', darwin: 'darwin', win32: 'windows' };
/**
 * The platform build itself: `node_modules/.bin/cline` may be the npm package's Node launcher, which on a platform
 * whose build the registry here does not serve finds only the empty stand-in (package.json's overrides).
 */
export const CLINE_BIN = join(
  AGENT_CLI_MODULES,
  `@cline/cli-${PLATFORM[process.platform] ?? process.platform}-${process.arch}/bin/cline`,
);
export const CLINE_MODEL = 'test-model';

/** A project whose Cline CLI talks to `baseUrl` (with `/v1`); hooks come from `avp init --agent cline`. */
export function makeClineProject(baseUrl: string): AgentProject {
  const project = makeAgentProject('cline', {});
  Object.assign(project.env, { CLINE_SESSION_BACKEND_MODE: 'local', CLINE_NO_AUTO_UPDATE: '1' });
  const argv = [CLINE_BIN, 'auth', '-p', 'openai-compatible', '-b', baseUrl, '-k', 'sk-e2e-test', '-m', CLINE_MODEL];
  const auth = Bun.spawnSync(argv, { cwd: project.root, env: project.env, stdout: 'pipe', stderr: 'pipe' });
  const settings = join(project.home, '.cline', 'data', 'settings', 'providers.json');
  if (auth.exitCode !== 0 || !existsSync(settings))
    throw new Error(`cline auth failed (${auth.exitCode}): ${auth.stderr}${auth.stdout}`);
  return project;
}

/**
 * `cline --yolo PROMPT`: one task, headless, tools auto-approved, in yolo mode (a flag its help does not list), the
 * one mode whose run ends only at the completion tool `submit_and_exit`, whose awaited `tool_call` is avp's Stop (in
 * act mode a run ends at an answer without a tool call, which no awaited hook sees). `--retries 20`: every call avp
 * refuses is a failed tool call, which Cline counts as a mistake, and in yolo mode its mistake limit stops the run
 * ("aborted by another client"): with the default it stopped at the first Stop refusal (the key write and `rm -rf ~`
 * were the first two). Anything still running with the temp HOME afterwards (a hub daemon sits outside the CLI's
 * process group) is killed and fails the run.
 */
export async function runCline(project: AgentProject, prompt: string, timeoutMs?: number): Promise<AgentRun> {
  const run = await runAgent([CLINE_BIN, '--yolo', '--retries', '20', '--auto-approve', 'true', prompt], {
    cwd: project.root,
    env: project.env,
    timeoutMs,
  });
  const left = processesWithHome(project.home);
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  if (left.length) throw new Error(`cline left ${left.length} process(es) running: ${left.join(', ')}`);
  return run;
}

/** A conversation request (Cline's own system prompt, with tools). */
export const isClineTurn = (body: any): boolean =>
  String(body?.messages?.[0]?.content ?? '').startsWith('You are Cline') && (body?.tools?.length ?? 0) > 0;

/**
 * The scripted turn for Cline: `editor {path, new_text}` (creates the file), then `run_commands {commands}`, then
 * `submit_and_exit {summary, verified}` (yolo mode's end of a run; its summary needs 10 characters or more).
 */
export function clineModel(root: string, script: typeof stepAt = stepAt): ScriptFn<OpenAIReply> {
  return ({ body }) => {
    if (!isClineTurn(body)) return { text: 'ok' };
    const step = script(root, chatToolResults(body));
    if (step.kind === 'done')
      return { toolCalls: [{ name: 'submit_and_exit', arguments: { summary: step.text, verified: true } }] };
    if (step.kind === 'write')
      return { toolCalls: [{ name: 'editor', arguments: { path: step.path, new_text: step.content } }] };
    return { toolCalls: [{ name: 'run_commands', arguments: { commands: [step.command] } }] };
  };
}
