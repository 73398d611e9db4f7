/**
 * How each coding agent's headless mode runs as a judge: its argv (read-only, hooks off), the settings file that
 * switches its hooks off where no flag does, and how its output reads back as an answer. What each flag does was
 * checked against the real CLIs (test/integration/judges-agent-cli.test.ts proves read-only and no hooks for each).
 */
import { AvpError } from '../errors.ts';
import type { Answer } from './llm-judge.ts';
import type { TokenUsage } from './types.ts';

export type AgentCliBackend = 'codex' | 'gemini' | 'qwen' | 'droid';

export interface AgentCliRun {
  /** The user's explicit model (`judge.model`), else the CLI's own configured default. */
  model?: string;
  projectRoot: string;
  /** A settings file avp wrote for this CLI (hooks off), when it needs one. */
  settingsFile?: string;
}

export interface AgentCliSpec {
  /** For messages: "the Codex CLI". */
  label: string;
  /** How to get it. */
  install: string;
  /** A settings file to write under `$AVP_HOME/cache/judges/` before the run (hooks off, read-only tools). */
  settings?: unknown;
  /** The arguments after the executable; the prompt always goes on stdin. */
  argv(run: AgentCliRun): string[];
  /** Variables to add for the run (e.g. the settings file's path). */
  env?(run: AgentCliRun): Record<string, string>;
  /** The CLI's printed result → the answer; throws `judge-crash` / `judge-unreadable`. */
  answer(stdout: string): Answer;
}

/** Asked last in the prompt by the CLIs that take a prompt argument beside stdin. */
const ANSWER_NOW = 'Answer now with the JSON verdict described above.';
/** Read and search tools only: the judge may look at the project, never change it. */
const GEMINI_READ_TOOLS = ['read_file', 'read_many_files', 'grep_search', 'glob', 'list_directory'];
const QWEN_WRITE_TOOLS = ['write_file', 'edit', 'run_shell_command', 'agent', 'skill', 'enter_worktree', 'cron_create'];
const DROID_READ_TOOLS = ['Read', 'Grep', 'Glob', 'LS'];

function unreadable(label: string, stdout: string): AvpError {
  return new AvpError(
    'judge-unreadable',
    `${label} did not print its JSON result: ${JSON.stringify(stdout.trim().slice(0, 200))}`,
    { fix: `check that ${label} runs headless in this project (\`avp doctor\` probes it)` },
  );
}

function crashed(label: string, why: string): AvpError {
  return new AvpError('judge-crash', `${label} failed as a judge: ${why.slice(0, 300)}`, {
    fix: `run it by hand in the project to see why (its login, its model), or \`avp doctor\``,
  });
}

/** The last line of `stdout` that parses as a JSON value (CLIs may print warnings before it). */
function lastJson(stdout: string): unknown {
  const t = stdout.trim();
  try {
    return JSON.parse(t);
  } catch {
    for (const line of t.split('\n').reverse()) {
      try {
        return JSON.parse(line);
      } catch {
        // not this line
      }
    }
  }
  return undefined;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Codex's `--json` events: the last agent message and the turn's usage (OpenAI accounting: input includes cached). */
function codexAnswer(stdout: string): Answer {
  let text: string | undefined;
  let usage: TokenUsage | undefined;
  let failure: string | undefined;
  for (const line of stdout.split('\n')) {
    let e: any;
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    if (e?.type === 'item.completed' && e.item?.type === 'agent_message') text = String(e.item.text ?? '');
    if (e?.type === 'turn.completed' && e.usage) {
      usage = { inputTokens: num(e.usage.input_tokens), outputTokens: num(e.usage.output_tokens) };
      if (typeof e.usage.cached_input_tokens === 'number') usage.cacheReadTokens = e.usage.cached_input_tokens;
    }
    if (e?.type === 'turn.failed') failure = String(e.error?.message ?? 'turn failed');
    if (e?.type === 'error') failure = String(e.message ?? 'error');
  }
  if (text === undefined) {
    if (failure) throw crashed('the Codex CLI', failure);
    throw unreadable('the Codex CLI', stdout);
  }
  return { text, ...(usage ? { usage } : {}) };
}

/** Gemini CLI's `-o json`: `{response, stats: {models: {NAME: {tokens}}}, error?}`. */
function geminiAnswer(stdout: string): Answer {
  const j = lastJson(stdout) as any;
  if (!j || typeof j !== 'object') throw unreadable('the Gemini CLI', stdout);
  if (j.error) throw crashed('the Gemini CLI', String(j.error.message ?? JSON.stringify(j.error)));
  if (typeof j.response !== 'string') throw unreadable('the Gemini CLI', stdout);
  const models = Object.entries((j.stats?.models ?? {}) as Record<string, any>);
  let usage: TokenUsage | undefined;
  for (const [, m] of models) {
    const t = m?.tokens ?? {};
    usage ??= { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0 };
    usage.inputTokens += num(t.prompt);
    usage.outputTokens += num(t.candidates) + num(t.thoughts);
    usage.cacheReadTokens! += num(t.cached);
  }
  return { text: j.response, ...(models[0] ? { model: models[0][0] } : {}), ...(usage ? { usage } : {}) };
}

/** Claude-style result objects (Qwen's array of messages, Droid's single result). */
function resultAnswer(label: string, stdout: string): Answer {
  const j = lastJson(stdout) as any;
  const result = Array.isArray(j) ? j.findLast((m: any) => m?.type === 'result') : j;
  if (!result || typeof result !== 'object' || result.type !== 'result') throw unreadable(label, stdout);
  if (result.is_error || (result.subtype && result.subtype !== 'success'))
    throw crashed(label, `${result.subtype ?? 'error'}: ${String(result.result ?? result.error ?? '')}`);
  const u = result.usage ?? {};
  const usage: TokenUsage = { inputTokens: num(u.input_tokens), outputTokens: num(u.output_tokens) };
  if (typeof u.cache_read_input_tokens === 'number') usage.cacheReadTokens = u.cache_read_input_tokens;
  const model = Array.isArray(j) ? j.find((m: any) => m?.type === 'system')?.model : undefined;
  return { text: String(result.result ?? ''), usage, ...(typeof model === 'string' ? { model } : {}) };
}

export const AGENT_CLI_SPECS: Record<AgentCliBackend, AgentCliSpec> = {
  codex: {
    label: 'the Codex CLI',
    install: 'npm i -g @openai/codex, then `codex login`',
    // read-only sandbox: shell commands cannot write; hooks off; no session files; stdin is the prompt (`-`).
    argv: (r) => [
      'exec',
      '--sandbox',
      'read-only',
      '--disable',
      'hooks',
      '--ephemeral',
      '--skip-git-repo-check',
      '--color',
      'never',
      '--json',
      '-C',
      r.projectRoot,
      ...(r.model ? ['-m', r.model] : []),
      '-',
    ],
    answer: codexAnswer,
  },
  gemini: {
    label: 'the Gemini CLI',
    install: 'npm i -g @google/gemini-cli, then `gemini` once to log in',
    // System defaults rank below the user's and the project's settings, yet they are the only file an environment
    // variable can add: hooks off and read tools only hold unless the user set those very keys (plan mode still
    // keeps writes out, and AVP_SUBAGENT=1 still makes avp's own hook pass).
    settings: { hooksConfig: { enabled: false }, tools: { core: GEMINI_READ_TOOLS } },
    argv: (r) => ['-p', ANSWER_NOW, '--approval-mode', 'plan', '-o', 'json', ...(r.model ? ['-m', r.model] : [])],
    env: (r): Record<string, string> => (r.settingsFile ? { GEMINI_CLI_SYSTEM_DEFAULTS_PATH: r.settingsFile } : {}),
    answer: geminiAnswer,
  },
  qwen: {
    label: 'Qwen Code',
    install: 'npm i -g @qwen-code/qwen-code, then `qwen` once to log in',
    // --safe-mode: no hooks, extensions, MCP servers or QWEN.md; plan mode and the excluded tools: no writes.
    argv: (r) => [
      '--safe-mode',
      '--approval-mode',
      'plan',
      ...QWEN_WRITE_TOOLS.map((t) => `--exclude-tools=${t}`),
      '--chat-recording=false',
      '-o',
      'json',
      ...(r.model ? ['-m', r.model] : []),
      ANSWER_NOW,
    ],
    answer: (stdout) => resultAnswer('Qwen Code', stdout),
  },
  droid: {
    label: 'the Factory Droid CLI',
    install: 'npm i -g @factory/cli, then `droid` once to log in',
    // `droid exec` without --auto is read-only; only the read tools are offered; the runtime settings switch hooks off.
    settings: { hooks: { hooksDisabled: true } },
    argv: (r) => [
      'exec',
      ...(r.settingsFile ? ['--settings', r.settingsFile] : []),
      '--only-tools',
      DROID_READ_TOOLS.join(','),
      '--cwd',
      r.projectRoot,
      '-o',
      'json',
      ...(r.model ? ['-m', r.model] : []),
    ],
    answer: (stdout) => resultAnswer('the Factory Droid CLI', stdout),
  },
};
