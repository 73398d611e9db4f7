/**
 * Which LLM backend a validator gets, and why. Explicit configuration wins (`judge.validators[id|name]`, then
 * `judge.backend` / `AVP_JUDGE`); `auto` takes the first available of: the `claude` CLI on PATH (Claude Code users
 * have it installed and logged in), then the other agents' CLIs (`codex`, `gemini`, `qwen`, `droid`: a user of one of
 * them has it logged in too), `ANTHROPIC_API_KEY`, `OPENAI_BASE_URL` / `OPENAI_API_KEY`. Nothing found →
 * AvpError `judge-unconfigured` saying how to configure one (every LLM validator then fails closed).
 */
import { statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { AvpConfig, BackendName } from '../config/types.ts';
import { AvpError } from '../errors.ts';
import type { AgentCliBackend } from './agent-cli-specs.ts';

export type LlmBackend = 'claude' | AgentCliBackend | 'anthropic' | 'openai' | 'command';

/** The agents whose headless mode can judge, in auto-detection's order (after `claude`). */
export const AGENT_CLI_BACKENDS: readonly AgentCliBackend[] = ['codex', 'gemini', 'qwen', 'droid'];

/** Each agent CLI's variable naming its executable (like AVP_CLAUDE_BIN). */
export const agentBinVar = (backend: AgentCliBackend): string => `AVP_${backend.toUpperCase()}_BIN`;

export const isAgentCliBackend = (b: string): b is AgentCliBackend =>
  (AGENT_CLI_BACKENDS as readonly string[]).includes(b);

/** Each backend's model when neither config nor the validator names one: small and fast, a judge answers often. */
export const DEFAULT_MODELS = {
  claude: 'claude-haiku-4-5',
  anthropic: 'claude-haiku-4-5',
  openai: 'gpt-4o-mini',
} as const;

export interface Detection {
  backend: LlmBackend;
  /** Human-readable: why this backend (shown by `avp doctor`). */
  reason: string;
  /** For `claude` and the agent CLIs: the executable. */
  bin?: string;
}

export const HOW_TO_CONFIGURE =
  'configure a judge: install Claude Code and log in (`npm i -g @anthropic-ai/claude-code`, then `claude`), ' +
  'or have one of codex, gemini, qwen or droid on PATH and logged in, or export ANTHROPIC_API_KEY=…, or export OPENAI_BASE_URL=http://localhost:11434/v1 (Ollama, vLLM, LM Studio…) ' +
  'with AVP_MODEL=<model> (plus OPENAI_API_KEY for hosted services), or set "judge": {"backend": …} / "judge.command" ' +
  'in avp.config.json; `avp doctor` shows what avp sees';

/** An executable named `name` on `PATH` (no shell, no Bun-specific API: works in tests and the binary alike). */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  if (isAbsolute(name)) return isExecutableFile(name) ? name : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    if (isExecutableFile(p)) return p;
  }
  return undefined;
}

function isExecutableFile(p: string): boolean {
  try {
    // Missing in most PATH folders, for each agent CLI, for every LLM validator that matched: asked without a thrown
    // ENOENT (~10× the stat; ~1,100 of them for ten validators and no CLI installed).
    const st = statSync(p, { throwIfNoEntry: false });
    return !!st && st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** The claude executable: `AVP_CLAUDE_BIN` when set, else `claude` on PATH. */
export function claudeBin(env: NodeJS.ProcessEnv): string | undefined {
  if (env.AVP_CLAUDE_BIN) return findOnPath(env.AVP_CLAUDE_BIN, env);
  return findOnPath('claude', env);
}

/** An agent CLI's executable: `AVP_<AGENT>_BIN` when set, else the program on PATH. */
export function agentCliBin(backend: AgentCliBackend, env: NodeJS.ProcessEnv): string | undefined {
  const named = env[agentBinVar(backend)];
  return findOnPath(named || backend, env);
}

function explicit(
  backend: Exclude<BackendName, 'auto'>,
  why: string,
  env: NodeJS.ProcessEnv,
  config: AvpConfig,
): Detection {
  switch (backend) {
    case 'claude': {
      const bin = claudeBin(env);
      if (!bin) {
        throw new AvpError(
          'judge-unconfigured',
          `judge backend "claude" is selected (${why}) but the claude CLI is not on PATH`,
          {
            fix: 'install Claude Code (`npm i -g @anthropic-ai/claude-code`), set AVP_CLAUDE_BIN to its path, or choose another judge.backend',
          },
        );
      }
      return { backend, reason: `${why}; claude CLI at ${bin}`, bin };
    }
    case 'codex':
    case 'gemini':
    case 'qwen':
    case 'droid': {
      const bin = agentCliBin(backend, env);
      if (!bin) {
        const named = env[agentBinVar(backend)];
        throw new AvpError(
          'judge-unconfigured',
          `judge backend "${backend}" is selected (${why}) but ${named ? `${agentBinVar(backend)}=${named} is not an executable` : `the ${backend} CLI is not on PATH`}`,
          {
            fix: `install ${backend} and log in, set ${agentBinVar(backend)} to its path, or choose another judge.backend`,
          },
        );
      }
      return { backend, reason: `${why}; ${backend} CLI at ${bin}`, bin };
    }
    case 'anthropic':
      if (!env.ANTHROPIC_API_KEY && !env.ANTHROPIC_BASE_URL) {
        throw new AvpError(
          'judge-unconfigured',
          `judge backend "anthropic" is selected (${why}) but ANTHROPIC_API_KEY is not set`,
          {
            fix: 'export ANTHROPIC_API_KEY=sk-ant-… (and ANTHROPIC_BASE_URL for a proxy), or choose another judge.backend',
          },
        );
      }
      return {
        backend,
        reason: `${why}; ${env.ANTHROPIC_BASE_URL ? `ANTHROPIC_BASE_URL=${env.ANTHROPIC_BASE_URL}` : 'api.anthropic.com'}`,
      };
    case 'openai':
      return {
        backend,
        reason: `${why}; ${env.OPENAI_BASE_URL ? `OPENAI_BASE_URL=${env.OPENAI_BASE_URL}` : 'api.openai.com'}`,
      };
    case 'command':
      if (!config.judge.command) {
        throw new AvpError(
          'judge-unconfigured',
          `judge backend "command" is selected (${why}) but judge.command is empty`,
          {
            fix: 'set judge.command in avp.config.json or AVP_JUDGE_COMMAND (e.g. "codex exec -")',
          },
        );
      }
      return { backend, reason: `${why}; command: ${config.judge.command}` };
  }
}

/**
 * The backend for one validator (or, without one, the default). Throws `judge-unconfigured` when nothing is usable.
 */
export function detectBackend(
  config: AvpConfig,
  env: NodeJS.ProcessEnv = process.env,
  validator?: { id: string; name: string },
): Detection {
  const routed = validator
    ? (config.judge.validators[validator.id] ?? config.judge.validators[validator.name])
    : undefined;
  if (routed && routed !== 'auto')
    return explicit(routed, `judge.validators routes "${validator!.id}" to ${routed}`, env, config);
  const backend = config.judge.backend;
  if (backend !== 'auto') {
    const why = env.AVP_JUDGE === backend ? `AVP_JUDGE=${backend}` : `judge.backend = "${backend}"`;
    return explicit(backend, why, env, config);
  }
  if (config.judge.command) return explicit('command', 'judge.command is set', env, config);
  const bin = claudeBin(env);
  if (bin) return { backend: 'claude', reason: `auto: the claude CLI is on PATH (${bin})`, bin };
  for (const agent of AGENT_CLI_BACKENDS) {
    const found = agentCliBin(agent, env);
    if (found)
      return { backend: agent, reason: `auto: the ${agent} CLI is on PATH (${found}); claude is not`, bin: found };
  }
  if (env.ANTHROPIC_API_KEY) return { backend: 'anthropic', reason: 'auto: ANTHROPIC_API_KEY is set' };
  if (env.OPENAI_BASE_URL || env.OPENAI_API_KEY) {
    return {
      backend: 'openai',
      reason: `auto: ${env.OPENAI_BASE_URL ? `OPENAI_BASE_URL=${env.OPENAI_BASE_URL}` : 'OPENAI_API_KEY is set'}`,
    };
  }
  throw new AvpError(
    'judge-unconfigured',
    'no LLM judge is available: none of claude, codex, gemini, qwen, droid is on PATH and ANTHROPIC_API_KEY, OPENAI_BASE_URL and OPENAI_API_KEY are unset',
    { fix: HOW_TO_CONFIGURE },
  );
}
