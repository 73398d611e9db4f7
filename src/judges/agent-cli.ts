/**
 * Judges on the coding agents' own headless modes — `codex exec`, `gemini -p`, `qwen`, `droid exec` — so a user of
 * any of them runs LLM validators on the account they already have. One process per verdict, prompt on stdin, and
 * for each agent (agent-cli-specs.ts): read-only (sandbox, plan mode or read tools only), its hooks switched off, no
 * session files where the CLI allows it, and the recursion guard `AVP_SUBAGENT=1` in its environment, so even a hook
 * that still runs finds avp passing at once. The process group is killed on timeout or signal (os/spawn.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess, stderrNote } from '../os/spawn.ts';
import { AvpError } from '../errors.ts';
import type { Validator } from '../validator/types.ts';
import { avpHome } from '../paths.ts';
import { subagentEnv } from './claude.ts';
import { AGENT_CLI_SPECS, type AgentCliBackend } from './agent-cli-specs.ts';
import type { Answer, AskOptions, Transport } from './llm-judge.ts';
import { REPAIR_INSTRUCTION } from './llm-judge.ts';
import type { Prompt } from './prompt.ts';
import { writeFileAtomic } from '../os/atomic-write.ts';

/** Variables an agent sets for its hooks: the judge is a session of its own, not a part of the calling one. */
const AGENT_SESSION_VARS = [
  'GEMINI_PROJECT_DIR',
  'GEMINI_CWD',
  'GEMINI_SESSION_ID',
  'QWEN_PROJECT_DIR',
  'FACTORY_PROJECT_DIR',
  'DROID_PROJECT_DIR',
  'CLAUDE_ENV_FILE',
];

export interface AgentCliOptions {
  backend: AgentCliBackend;
  /** The executable (found on PATH by detection, or `AVP_<AGENT>_BIN`). */
  bin: string;
  /** `judge.model` when the user set one; else the CLI's own default. */
  model?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * The settings file a CLI needs for the judge (hooks off), under `$AVP_HOME/cache/judges/`: written once per content,
 * atomically, never in the project. Returns its path.
 */
export function judgeSettingsFile(backend: AgentCliBackend, env: NodeJS.ProcessEnv): string | undefined {
  const settings = AGENT_CLI_SPECS[backend].settings;
  if (settings === undefined) return undefined;
  const text = `${JSON.stringify(settings, null, 2)}\n`;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
  const dir = join(avpHome(env), 'cache', 'judges');
  const file = join(dir, `${backend}-settings-${hash}.json`);
  try {
    if (readFileSync(file, 'utf8') === text) return file;
  } catch {
    // not written yet
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileAtomic(file, text, { mode: 0o600 });
  return file;
}

/** The judge's environment: avp's, without the calling agent's session markers, plus the recursion guard. */
export function agentJudgeEnv(
  base: NodeJS.ProcessEnv,
  validator: Validator | undefined,
  projectRoot: string,
): NodeJS.ProcessEnv {
  const env = validator ? subagentEnv(base, validator, projectRoot) : { ...base, AVP_SUBAGENT: '1' };
  for (const k of AGENT_SESSION_VARS) delete env[k];
  return env;
}

/** The whole argv and environment of one judge run (exported for tests and `avp doctor`). */
export function agentCliCommand(
  opts: AgentCliOptions,
  projectRoot: string,
  env: NodeJS.ProcessEnv,
): { argv: string[]; env: NodeJS.ProcessEnv } {
  const spec = AGENT_CLI_SPECS[opts.backend];
  const settingsFile = judgeSettingsFile(opts.backend, env);
  const run = { projectRoot, ...(opts.model ? { model: opts.model } : {}), ...(settingsFile ? { settingsFile } : {}) };
  return { argv: [opts.bin, ...spec.argv(run)], env: { ...env, ...spec.env?.(run) } };
}

/** The prompt as one text: these CLIs have no system-prompt flag in common, so avp's instructions come first. */
export function agentCliInput(prompt: Prompt, repair?: AskOptions['repair']): string {
  const user = repair
    ? `${prompt.user}\n\n# Your previous reply\n${repair.previous.trim() || '(empty)'}\n\n${repair.problem}\n${REPAIR_INSTRUCTION}`
    : prompt.user;
  return `${prompt.system}\n\n${user}`;
}

/** A transport on one agent CLI. `validator` gives the judge's identity in its environment. */
export function agentCliTransport(opts: AgentCliOptions, validator: Validator): Transport {
  const spec = AGENT_CLI_SPECS[opts.backend];
  return {
    name: opts.backend,
    model: opts.model ?? '',
    promptOptions: { locations: true },
    async ask(prompt: Prompt, ask: AskOptions): Promise<Answer> {
      const base = agentJudgeEnv(opts.env ?? process.env, validator, ask.projectRoot);
      const { argv, env } = agentCliCommand(opts, ask.projectRoot, base);
      const result = await runProcess({
        argv,
        cwd: ask.projectRoot,
        env,
        stdin: agentCliInput(prompt, ask.repair),
        signal: ask.signal,
      });
      if (result.spawnError)
        throw new AvpError(
          'judge-unconfigured',
          `cannot start ${spec.label} (${opts.bin}): ${result.spawnError.message}`,
          { fix: `install it (${spec.install}) or choose another judge.backend` },
        );
      if (result.aborted) {
        const why =
          ask.signal.reason instanceof Error ? ask.signal.reason.message : String(ask.signal.reason ?? 'timeout');
        throw new AvpError('judge-timeout', `${spec.label} did not answer in time and was killed (${why})`, {
          fix: "raise the validator's `timeout`, or choose a faster model (`judge.model`)",
        });
      }
      if (result.code !== 0 && !result.stdout.trim())
        throw new AvpError(
          'judge-crash',
          `${spec.label} exited with code ${result.code ?? result.signal}${stderrNote(result.stderrTail)}`,
          { fix: `run it by hand in the project to see why (its login, its model); \`avp doctor\` probes it` },
        );
      const answer = spec.answer(result.stdout);
      return { ...answer, model: answer.model ?? (opts.model || `${opts.backend} default`) };
    },
  };
}
