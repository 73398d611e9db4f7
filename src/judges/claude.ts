/**
 * The `claude` backend: the Claude Code CLI in headless mode, which users of Claude Code already have installed and
 * authenticated. One `claude -p --output-format json` process per verdict, prompt on stdin, with:
 * - read-only tools only (`--tools Read,Grep,Glob`), so it can read references and other files but change nothing;
 * - no session files (`--no-session-persistence`), avp's instructions as the system prompt, a small fast model;
 * - the recursion guard: `AVP_SUBAGENT=1` in its environment (avp's hook passes through instantly on it) and
 *   `--settings {"disableAllHooks":true}` so the sub-agent's tool calls fire no hook at all;
 * - its own process group; on timeout, Ctrl-C, SIGTERM or SIGHUP its whole process tree is killed (os/spawn.ts),
 *   so a sub-agent never keeps spending tokens after avp has answered or been stopped.
 */
import { runProcess, stderrNote } from '../os/spawn.ts';
import { AvpError } from '../errors.ts';
import type { Validator } from '../validator/types.ts';
import { judgeEnv } from './script.ts';
import { anthropicUsage } from './sse.ts';
import type { Answer, AskOptions, Transport } from './llm-judge.ts';
import { REPAIR_INSTRUCTION } from './llm-judge.ts';
import type { Prompt } from './prompt.ts';

export const CLAUDE_READ_ONLY_TOOLS = ['Read', 'Grep', 'Glob'];
const DENIED_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'WebFetch', 'WebSearch', 'Task'];
/** Host-session variables a hook inherits from Claude Code; the sub-agent must look like a fresh top-level session. */
const HOST_VARS = [
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_CODE_CHILD_SESSION',
  'CLAUDE_PROJECT_DIR',
  'CLAUDE_EFFORT',
];

export interface ClaudeOptions {
  /** The `claude` executable (found on PATH by auto-detection, or `AVP_CLAUDE_BIN`). */
  bin: string;
  model: string;
  /** Tool-use turns the sub-agent may take (reading files) before it must answer. */
  maxTurns?: number;
  /** The environment the sub-agent inherits (default: avp's own). */
  env?: NodeJS.ProcessEnv;
}

/**
 * A copy of `env` without the markers of the Claude Code session avp runs in (the sub-agent is a session of its own).
 */
export function withoutHostSession(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const k of HOST_VARS) delete out[k];
  return out;
}

/**
 * The sub-agent's environment: avp's, minus the host session's markers, plus the validator's identity and the
 * recursion guard (`AVP_SUBAGENT=1`: an `avp hook` started by the sub-agent's own tool calls passes through).
 */
export function subagentEnv(base: NodeJS.ProcessEnv, validator: Validator, projectRoot: string): NodeJS.ProcessEnv {
  return judgeEnv(validator, projectRoot, {}, withoutHostSession(base));
}

/** The argv of one sub-agent run (exported for tests and docs). */
export function claudeArgv(opts: ClaudeOptions, system: string, addDirs: string[]): string[] {
  const argv = [
    opts.bin,
    '-p',
    '--output-format',
    'json',
    '--model',
    opts.model,
    '--system-prompt',
    system,
    '--tools',
    CLAUDE_READ_ONLY_TOOLS.join(','),
    '--allowedTools',
    CLAUDE_READ_ONLY_TOOLS.join(','),
    '--disallowedTools',
    DENIED_TOOLS.join(','),
    '--no-session-persistence',
    '--strict-mcp-config',
    '--settings',
    JSON.stringify({ disableAllHooks: true }),
    '--max-turns',
    String(opts.maxTurns ?? 8),
  ];
  for (const dir of addDirs) argv.push('--add-dir', dir);
  return argv;
}

/** Reads the CLI's `--output-format json` result (`{type:"result", subtype, is_error, result, usage, modelUsage}`). */
export function claudeAnswer(stdout: string, model: string): Answer {
  const line = stdout
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.trim().startsWith('{'));
  let j: any;
  try {
    j = JSON.parse(line ?? '');
  } catch {
    throw new AvpError(
      'judge-unreadable',
      `the claude CLI did not print its JSON result: ${JSON.stringify(stdout.trim().slice(0, 200))}`,
      {
        fix: 'check that `claude -p --output-format json` works in this project (`avp doctor`)',
      },
    );
  }
  if (j.is_error || (j.subtype && j.subtype !== 'success')) {
    const status = j.api_error_status ? ` (API status ${j.api_error_status})` : '';
    const kind = j.subtype && j.subtype !== 'success' ? `${j.subtype}${status}: ` : status ? `${status.trim()}: ` : '';
    throw new AvpError('judge-crash', `the claude sub-agent failed: ${kind}${String(j.result ?? '').slice(0, 300)}`, {
      fix:
        j.subtype === 'error_max_turns'
          ? 'the sub-agent used all its turns; simplify the validator'
          : 'run `claude -p hello` to check the CLI login, or `avp doctor`',
    });
  }
  // The CLI's result carries the Messages API's usage object.
  const usage = j.usage && typeof j.usage === 'object' ? anthropicUsage(j.usage) : undefined;
  const models = j.modelUsage && typeof j.modelUsage === 'object' ? Object.keys(j.modelUsage) : [];
  return { text: typeof j.result === 'string' ? j.result : '', model: models[0] ?? model, ...(usage ? { usage } : {}) };
}

/** A Claude CLI transport. `validator` gives the sub-agent's identity in its environment. */
export function claudeTransport(opts: ClaudeOptions, validator: Validator): Transport {
  return {
    name: 'claude',
    model: opts.model,
    promptOptions: { locations: true },
    async ask(prompt: Prompt, ask: AskOptions): Promise<Answer> {
      const env = subagentEnv(opts.env ?? process.env, validator, ask.projectRoot);
      const input = ask.repair
        ? `${prompt.user}\n\n# Your previous reply\n${ask.repair.previous.trim() || '(empty)'}\n\n${ask.repair.problem}\n${REPAIR_INSTRUCTION}`
        : prompt.user;
      const result = await runProcess({
        argv: claudeArgv(opts, prompt.system, ask.validatorDir ? [ask.validatorDir] : []),
        cwd: ask.projectRoot,
        env,
        stdin: input,
        signal: ask.signal,
      });
      if (result.spawnError) {
        throw new AvpError(
          'judge-unconfigured',
          `cannot start the claude CLI (${opts.bin}): ${result.spawnError.message}`,
          {
            fix: 'install Claude Code (npm i -g @anthropic-ai/claude-code) or choose another backend: judge.backend = "anthropic" | "openai"',
          },
        );
      }
      if (result.aborted) {
        const why =
          ask.signal.reason instanceof Error ? ask.signal.reason.message : String(ask.signal.reason ?? 'timeout');
        throw new AvpError('judge-timeout', `the claude sub-agent did not answer in time and was killed (${why})`, {
          fix: "raise the validator's `timeout`, or use a faster model (`judge.model`)",
        });
      }
      if (result.code !== 0 && !result.stdout.trim()) {
        throw new AvpError(
          'judge-crash',
          `the claude CLI exited with code ${result.code ?? result.signal}${stderrNote(result.stderrTail)}`,
          {
            fix: 'run `claude -p hello` in the project to see why; `avp doctor` checks the backend',
          },
        );
      }
      return claudeAnswer(result.stdout, opts.model);
    },
  };
}
