/**
 * Where the real agent CLIs live for the tests that drive them: test/agent-clis/node_modules, filled by
 * scripts/agent-clis.sh (run by `npm test`) from its own lockfile — not by the clone's `npm ci`, which stays small.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The agent CLIs' package folder (their platform builds are looked up here). */
export const AGENT_CLI_MODULES = resolve(import.meta.dir, '../agent-clis/node_modules');
/** Their launchers (`claude`, `codex`, `gemini`, `qwen`, `droid`, `copilot`, `opencode`, `cline`). */
export const AGENT_CLI_BIN = join(AGENT_CLI_MODULES, '.bin');

/** The path of one agent CLI, or an error that says how to install them (a missing CLI fails its test, loudly). */
export function agentCli(name: string): string {
  const path = join(AGENT_CLI_BIN, name);
  if (!existsSync(path)) {
    throw new Error(
      `${path} is missing: run 'bash scripts/agent-clis.sh' (npm test runs it) to install the agent CLIs`,
    );
  }
  return path;
}
