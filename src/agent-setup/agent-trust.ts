/**
 * Agents that ignore a project's hooks until the user trusts the folder: avp's project hook file is there, and the
 * agent silently never calls it. Read from each agent's own config, for `avp init` (say what to do) and `avp doctor`
 * (report it as a problem).
 *
 * - Codex: `[projects."<path>"] trust_level = "trusted"` in `$CODEX_HOME/config.toml` (default `~/.codex`); an
 *   untrusted project's `.codex/` layer — hooks included — is not loaded, `--dangerously-bypass-hook-trust` or not.
 * - Copilot CLI: the folder (or a folder above it) in `trustedFolders` of `$COPILOT_HOME/config.json` (default
 *   `~/.copilot`; the older `trusted_folders` is read too — both checked against Copilot CLI 1.0.102's own trust
 *   check); `COPILOT_ALLOW_ALL=true` in its environment trusts every folder.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, isAbsolute } from 'node:path';
import { codexHome } from '../agents/codex/index.ts';

export interface FolderTrust {
  trusted: boolean;
  /** Explicitly untrusted (Codex's `trust_level = "untrusted"`). */
  refused?: boolean;
  /** The agent's config file read. */
  config: string;
  /** What to do, for people. */
  fix: string;
}

function candidates(projectRoot: string): string[] {
  let real = projectRoot;
  try {
    real = realpathSync(projectRoot);
  } catch {
    // a path that does not exist is compared as given
  }
  return [...new Set([projectRoot, real])];
}

/** Codex's trust of the project (its config's `projects` table, keyed by absolute path). */
export async function codexTrust(projectRoot: string, env: NodeJS.ProcessEnv): Promise<FolderTrust> {
  const config = join(codexHome(env), 'config.toml');
  const path = candidates(projectRoot).at(-1)!;
  const fix =
    `trust the project in Codex: answer yes to its trust prompt when you start \`codex\` in ${path}, or add to ` +
    `${config}:\n[projects.${JSON.stringify(path)}]\ntrust_level = "trusted"`;
  let projects: Record<string, { trust_level?: unknown }> = {};
  try {
    const { parseTOML } = await import('confbox/toml');
    const parsed = parseTOML(readFileSync(config, 'utf8')) as { projects?: typeof projects };
    projects = parsed?.projects && typeof parsed.projects === 'object' ? parsed.projects : {};
  } catch {
    // no config (or one Codex cannot read either): nothing is trusted
  }
  const levels = candidates(projectRoot).map((p) => projects[p]?.trust_level);
  if (levels.includes('untrusted')) return { trusted: false, refused: true, config, fix };
  return { trusted: levels.includes('trusted'), config, fix };
}

/** Copilot CLI's folder trust of the project (a listed folder trusts the folders under it). */
export async function copilotTrust(projectRoot: string, env: NodeJS.ProcessEnv): Promise<FolderTrust> {
  const home = env.COPILOT_HOME || join(env.HOME || homedir(), '.copilot');
  const config = join(home, 'config.json');
  const fix =
    `trust the folder in Copilot CLI: accept its trust prompt when you start \`copilot\` in ${projectRoot}, or add ` +
    `the folder to "trustedFolders" in ${config}`;
  if (env.COPILOT_ALLOW_ALL === 'true') return { trusted: true, config, fix };
  let folders: unknown[] = [];
  try {
    // Copilot writes `// …` comment lines at the top of this file (checked with Copilot CLI 1.0.102).
    const { parse } = await import('jsonc-parser');
    const value = (parse(readFileSync(config, 'utf8')) ?? {}) as Record<string, unknown>;
    for (const key of ['trusted_folders', 'trustedFolders'])
      if (Array.isArray(value[key])) folders.push(...(value[key] as unknown[]));
  } catch {
    folders = [];
  }
  const inside = (dir: string, p: string) => {
    const rel = relative(dir, p);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  const trusted = folders.some(
    (f) => typeof f === 'string' && isAbsolute(f) && candidates(projectRoot).some((p) => inside(f, p)),
  );
  return { trusted, config, fix };
}

/** The trust problem of `agent` for a hook file installed in the project, if any (for `avp doctor`). */
export async function projectTrustProblem(
  agent: string,
  projectRoot: string,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  if (agent === 'codex') {
    const t = await codexTrust(projectRoot, env);
    if (t.trusted) return undefined;
    const why = t.refused ? 'marks this project untrusted' : 'does not trust this project';
    return `Codex ${why} (${t.config}), so it ignores .codex/hooks.json and avp never runs there: ${t.fix}`;
  }
  if (agent === 'copilot') {
    const t = await copilotTrust(projectRoot, env);
    if (t.trusted) return undefined;
    return `Copilot CLI does not trust this folder (${t.config}), so it ignores .github/hooks/ and avp never runs there: ${t.fix}`;
  }
  return undefined;
}
