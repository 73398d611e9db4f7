/**
 * `avp doctor`'s view of the agents: per agent, which of its hook settings files (and, for Claude Code and Codex, which
 * installed plugins) call avp and on which events, and
 * when avp last ran validators for it (the newest line of the project's run log with that agent). Calls where
 * nothing matched are not logged (the hook path stays lean), so "last fired" is the last call that ran validators.
 */
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../errors.ts';
import { claudeHome } from '../agents/claude/index.ts';
import { codexHome } from '../agents/codex/index.ts';
import { installedEvents } from './hook-layouts.ts';
import { MANAGED_AGENTS } from './managed-agents.ts';
import { CLAUDE_MANAGED_DROP_IN } from './managed-install.ts';
import { loadAllAgents } from '../agents/index.ts';
import { pluginFormat } from '../agents/plugin-source.ts';
import type { AgentAdapter } from '../agents/types.ts';

export interface AgentStatus {
  agent: string;
  name: string;
  /** Settings files that call avp, with the agent's events they cover (`managed`: written by `init --managed`). */
  files: Array<{ file: string; events: string[]; managed?: boolean }>;
  /** The agent's events avp installs for that no file covers (a partial or outdated install). */
  missing: string[];
  /** The newest run-log line for this agent. */
  lastFired?: { ts: string; event: string };
  problems: string[];
}

/** The newest bytes of the newest daily logs read before giving up (a huge log must not slow doctor down). */
const TAIL_BYTES = 1024 * 1024;
const MAX_DAYS = 14;

function tail(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Per agent, the newest logged call (from `.avp/logs/hook-YYYY-MM-DD.jsonl`, newest day first). */
export function lastFired(projectRoot: string): Map<string, { ts: string; event: string }> {
  const found = new Map<string, { ts: string; event: string }>();
  const dir = join(projectRoot, '.avp', 'logs');
  let days: string[] = [];
  try {
    days = readdirSync(dir).filter((n) => /^hook-\d{4}-\d{2}-\d{2}\.jsonl$/.test(n));
  } catch {
    return found;
  }
  for (const day of days.sort().reverse().slice(0, MAX_DAYS)) {
    const lines = tail(join(dir, day)).split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      try {
        const row = JSON.parse(lines[i]!) as { ts?: unknown; agent?: unknown; event?: unknown };
        if (typeof row.agent !== 'string' || typeof row.ts !== 'string') continue;
        const seen = found.get(row.agent);
        if (!seen || seen.ts < row.ts) found.set(row.agent, { ts: row.ts, event: String(row.event ?? '') });
      } catch {
        // a torn or foreign line: skip it
      }
    }
  }
  return found;
}

/**
 * The `hooks/hooks.json` of plugins installed for Claude Code or Codex (`<config>/plugins/cache/<marketplace>/<plugin>/
 * <version>/hooks/hooks.json`), with the plugin's `name@marketplace` key: avp's plugin is one way its hooks get there.
 */
function pluginHookFiles(agent: string, env: NodeJS.ProcessEnv): Array<{ file: string; key: string }> {
  const config = agent === 'claude' ? claudeHome(env) : agent === 'codex' ? codexHome(env) : undefined;
  if (!config) return [];
  const cache = join(config, 'plugins', 'cache');
  const list = (dir: string) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  const out: Array<{ file: string; key: string }> = [];
  for (const marketplace of list(cache))
    for (const plugin of list(join(cache, marketplace)))
      for (const version of list(join(cache, marketplace, plugin))) {
        const file = join(cache, marketplace, plugin, version, 'hooks', 'hooks.json');
        if (existsSync(file)) out.push({ file, key: `${plugin}@${marketplace}` });
      }
  return out;
}

/** Claude Code's `enabledPlugins` switches from the user's settings (a plugin switched off runs no hooks). */
function claudeEnabledPlugins(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const settings = join(claudeHome(env), 'settings.json');
  try {
    const value = JSON.parse(readFileSync(settings, 'utf8')) as { enabledPlugins?: Record<string, unknown> };
    return value.enabledPlugins && typeof value.enabledPlugins === 'object' ? value.enabledPlugins : {};
  } catch {
    return {};
  }
}

/** A plugin avp wrote whole but an older avp wrote it: what it does differs from what `avp init` writes now. */
function outdatedPlugin(a: AgentAdapter, file: string): string | undefined {
  const layout = a.install.layout;
  if (layout?.kind !== 'owned') return undefined;
  const fresh = layout.files('avp hook', 60, file).find((f) => f.path === file);
  if (!fresh) return undefined; // a folder of scripts, one per event
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const was = pluginFormat(text);
  const now = pluginFormat(fresh.text);
  return was < now
    ? `${file} was written by an older avp (plugin format ${was}, now ${now}): run \`avp init --agent ${a.name}\` ` +
        'to update it'
    : undefined;
}

/** The files `avp init --managed` writes avp's hooks into for `agent` that exist on this machine. */
function managedHookFiles(agent: string): string[] {
  if (process.platform !== 'linux') return [];
  const files =
    agent === 'claude' ? [CLAUDE_MANAGED_DROP_IN] : MANAGED_AGENTS.filter((m) => m.name === agent).map((m) => m.path);
  return files.filter((f) => existsSync(f));
}

/** Codex's requirements: the events of its `[[hooks.<Event>]]` tables when they run avp (avp's blocks hold them). */
function tomlHookEvents(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  if (!/avp hook --agent codex/.test(text)) return [];
  return [...new Set([...text.matchAll(/^\[\[hooks\.(\w+)\]\]/gm)].map((m) => m[1]!))];
}

/** Every agent's install state in this project and for this user. */
export async function agentStatuses(
  projectRoot: string,
  env: NodeJS.ProcessEnv,
  eventsOf: (file: string) => Promise<string[] | { error: string }>,
): Promise<AgentStatus[]> {
  const fired = lastFired(projectRoot);
  const out: AgentStatus[] = [];
  for (const a of await loadAllAgents()) {
    const status: AgentStatus = { agent: a.name, name: a.displayName, files: [], missing: [], problems: [] };
    for (const scope of a.install.scopes) {
      const file = a.install.path(scope, projectRoot, env);
      if (!existsSync(file)) continue;
      // Agents with a hook layout of their own (flat entries, plugins, scripts) are read by their layout.
      const own = a.install.layout
        ? (() => {
            try {
              return installedEvents(a, file);
            } catch (e) {
              return { error: errorMessage(e) };
            }
          })()
        : undefined;
      const events = own ?? (await eventsOf(file).catch((e) => ({ error: errorMessage(e) })));
      if (!Array.isArray(events)) status.problems.push(`${file}: ${events.error}; ${a.displayName} may ignore it`);
      else if (events.length) {
        status.files.push({ file, events });
        const stale = outdatedPlugin(a, file);
        if (stale) status.problems.push(stale);
      }
    }
    // `sudo avp init --managed`: the agent's system-level file, where the user cannot write.
    for (const file of managedHookFiles(a.name)) {
      const events = /\.toml$/.test(file) ? tomlHookEvents(file) : a.install.layout ? installedEvents(a, file) : null;
      const found = events ?? (await eventsOf(file).catch((e) => ({ error: errorMessage(e) })));
      if (!Array.isArray(found)) status.problems.push(`${file}: ${found.error}; ${a.displayName} may ignore it`);
      else if (found.length) status.files.push({ file, events: found, managed: true });
    }
    for (const plugin of pluginHookFiles(a.name, env)) {
      const events = await eventsOf(plugin.file).catch(() => []);
      if (!Array.isArray(events) || !events.length) continue;
      if (a.name === 'claude' && claudeEnabledPlugins(env)[plugin.key] === false)
        status.problems.push(`the plugin ${plugin.key} calls avp but is switched off in Claude Code (enabledPlugins)`);
      else status.files.push({ file: plugin.file, events });
    }
    // Codex and Copilot CLI ignore a project's hook file in a folder the user has not trusted.
    if (status.files.some((f) => f.file.startsWith(`${projectRoot}/`))) {
      const { projectTrustProblem } = await import('./agent-trust.ts');
      const untrusted = await projectTrustProblem(a.name, projectRoot, env);
      if (untrusted) status.problems.push(untrusted);
    }
    if (status.files.length) {
      const covered = new Set(status.files.flatMap((f) => f.events));
      status.missing = a.install.events.filter((e) => !covered.has(e));
    }
    const last = fired.get(a.name);
    if (last) status.lastFired = last;
    out.push(status);
  }
  return out;
}
