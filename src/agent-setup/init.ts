/**
 * `avp init` / `avp deinit` for every agent: the steps behind the commands (each agent's hook settings, `.avp/`
 * layout, recommended offline validators), returning what was done so the commands only print. Which agents: the
 * ones named (`--agent a,b`), all (`--all`), else the ones the project or the user has (their folders: `.claude/`,
 * `.codex/`, `.gemini/`, `.qwen/`, `.factory/`, `.github/hooks/`, `.cursor/`, `.windsurf/`, `.clinerules/`, `.kiro/`,
 * `.opencode/`, `.amp/`), else Claude Code. Order matters for "lose nothing": every settings
 * file is parsed first (a broken file stops everything before any change), validators are installed (each install
 * is atomic), and the settings files are written last.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadConfig, defaultConfig } from '../config/config.ts';
import { ensureProjectLayout } from '../session/layout.ts';
import { AvpError, errorMessage } from '../errors.ts';
import { installGitHook } from '../git-hook.ts';
import { findProjectRoot, projectValidatorsDir, userValidatorsDir } from '../paths.ts';
import {
  assertWritable,
  avpHookCommand,
  hookTimeoutFor,
  portableHookCommand,
  readSettings,
  removeHooks,
  type HookChange,
  type SettingsScope,
} from './hook-settings.ts';
import { checkHookFile, installFor, removeFor } from './hook-layouts.ts';
import { AGENT_NAMES, isAgentName, loadAgent, loadAllAgents } from '../agents/index.ts';
import type { AgentAdapter } from '../agents/types.ts';
import { planClaude, settingsPath, twiceNote } from './claude-init-plan.ts';

export { formatDeinit, formatInit } from './init-format.ts';

export interface InitOptions {
  scope: SettingsScope;
  /** The scope came from a flag (`--project` given on purpose is never redirected to the local file). */
  scopeGiven?: boolean;
  /** How many scope flags were given (more than one is an error). */
  scopes?: number;
  /** Agent names, comma-separated (`claude,codex`); absent: the detected agents. */
  agent?: string;
  /** Every agent avp supports, detected or not. */
  all?: boolean;
  validators: boolean;
  command?: string;
  dryRun: boolean;
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

export interface InitResult {
  dryRun: boolean;
  projectRoot: string;
  /** The first agent's settings change (Claude Code's when it is among them). */
  settings: AgentSettingsChange;
  /** Every agent's settings change, with what the user must still do in that agent. */
  agents: Array<{ agent: string; name: string; settings: AgentSettingsChange; timeoutUnit: string; notes: string[] }>;
  /** How the agents were chosen. */
  chosenBy: 'flag' | 'all' | 'detected' | 'default';
  layout: string[];
  installed: Array<{ name: string; version: string; dir: string }>;
  skipped: string[];
  /** Catalog validators judged by an LLM: not installed by init (they need a backend), listed with how to add them. */
  llm: Array<{ name: string; description: string }>;
  /** avp's older entries removed from Claude Code's other project settings file, so that avp runs once per event. */
  cleaned?: HookChange;
  /** What the user should know about where the hook went (PATH, a second entry). */
  notes: string[];
  /** Files to commit so teammates get the same setup (project-relative). */
  commit: string[];
  /**
   * The git pre-commit hook (`avp init --git-hook`), which stops a commit made from a shell or an editor:
   * `missing` in a git work tree without avp's hook (init offers it), `installed`, or `none` (no repository, or a
   * pre-commit hook of another tool that avp leaves alone).
   */
  gitHook: 'missing' | 'installed' | 'none';
}

export type AgentSettingsChange = HookChange & { command: string; timeout: number };

/** Agent names from `--agent` (comma-separated), checked against the adapter table. */
export async function namedAgents(list: string): Promise<AgentAdapter[]> {
  const names = list
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const { didYouMean } = await import('../did-you-mean.ts');
  for (const n of names) {
    if (!isAgentName(n))
      throw new AvpError('init-agent', `unsupported agent "${n}"${didYouMean(n, AGENT_NAMES)}`, {
        fix: `use --agent with one or more of ${AGENT_NAMES.join(', ')} (comma-separated), or --all`,
      });
  }
  if (!names.length) throw new AvpError('init-agent', '--agent names no agent', { fix: `e.g. --agent claude,codex` });
  return Promise.all([...new Set(names)].map((n) => loadAgent(n as (typeof AGENT_NAMES)[number])));
}

/** The agents whose folders exist in the project or the user's home. */
export async function detectAgents(projectRoot: string, env: NodeJS.ProcessEnv): Promise<AgentAdapter[]> {
  const all = await loadAllAgents();
  return all.filter((a) => {
    const m = a.install.markers(projectRoot, env);
    return [...m.project, ...m.user].some((p) => existsSync(p));
  });
}

const NOTES: Partial<Record<string, string[]>> = {
  copilot: [
    "Copilot CLI runs a repository's hooks only in a folder you trust: accept its trust prompt (or run `copilot --trust-folder` for one prompt-mode session).",
    'The Copilot coding agent reads .github/hooks/ from the default branch: commit it there for cloud runs too.',
  ],
  // Copilot loads user hooks in every folder, trusted or not; the coding agent in the cloud never sees them.
  'copilot:user': [
    'The Copilot coding agent (cloud runs) does not read your user hooks: use `avp init --agent copilot` in a repository for those.',
  ],
  windsurf: ['Cascade hooks are in beta: check the hook output in Cascade the first time a tool is refused.'],
  cline: [
    "In VS Code, turn hooks on in Cline's settings (Hooks); the Cline CLI runs them as they are. Cline runs the scripts " +
      'in .clinerules/hooks/ by file name.',
    'The Cline CLI has an end of turn avp can block only in yolo mode (`cline --yolo --retries 20`: its submit_and_exit ' +
      "is the Stop, and avp's refusals count toward Cline's mistake limit); in act mode Stop validators do not run.",
  ],
  kiro: [
    'Kiro runs the hooks of the agent in use: make avp\'s the default (`kiro-cli agent set-default avp`) or copy its "hooks" into your own agents.',
  ],
  opencode: ['OpenCode loads plugins at startup: restart it.'],
  amp: ['Amp runs plugins only when started with PLUGINS=all (its plugin API is experimental).'],
};

/** What the user still has to do in an agent for avp's hook to run there. */
function agentNotes(agent: AgentAdapter, scope: SettingsScope): string[] {
  if (agent.name === 'codex')
    return [
      'Codex runs hooks only once you trust them: review them with `/hooks` in Codex (Codex versions that gate hooks also need `[features] hooks = true` in ~/.codex/config.toml).',
    ];
  if (agent.name === 'gemini')
    return [
      "Gemini CLI asks you to trust a project's hooks before they run (and again whenever their command changes).",
    ];
  return NOTES[`${agent.name}:${scope}`] ?? NOTES[agent.name] ?? [];
}

/** The command for `agent`: avp's own, or the one given, pointed at the agent (`… hook --agent NAME`). */
function commandFor(agent: AgentAdapter, given: string | undefined, onPath: boolean): string {
  const text = given?.trim();
  if (!text) return onPath ? portableHookCommand(agent.name) : avpHookCommand(agent.name);
  if (!/(?:^|\s)hook(?:\s|$)/.test(text)) return `${text} hook --agent ${agent.name}`;
  return /--agent[=\s]+\S+/.test(text)
    ? text.replace(/--agent[=\s]+\S+/, `--agent ${agent.name}`)
    : `${text} --agent ${agent.name}`;
}

function checkScopes(scopes = 1): void {
  if (scopes > 1)
    throw new AvpError('init-scope', 'give only one of --project, --local, --user', {
      fix: 'run the command once per settings file',
    });
}

/** The agents an init or deinit works on, and how they were chosen. */
async function chooseAgents(
  opts: { agent?: string; all?: boolean },
  projectRoot: string,
  env: NodeJS.ProcessEnv,
): Promise<{ agents: AgentAdapter[]; chosenBy: InitResult['chosenBy'] }> {
  if (opts.agent !== undefined && opts.all)
    throw new AvpError('init-agent', 'give either --agent or --all', { fix: 'drop one of them' });
  if (opts.agent !== undefined) return { agents: await namedAgents(opts.agent), chosenBy: 'flag' };
  if (opts.all) return { agents: await loadAllAgents(), chosenBy: 'all' };
  const found = await detectAgents(projectRoot, env);
  return found.length
    ? { agents: found, chosenBy: 'detected' }
    : { agents: [await loadAgent('claude')], chosenBy: 'default' };
}

/** Only the agents that have a settings file for `scope` (`--local` is Claude Code's); named ones must have it. */
function withScope(agents: AgentAdapter[], scope: SettingsScope, chosenBy: InitResult['chosenBy']): AgentAdapter[] {
  const fit = agents.filter((a) => a.install.scopes.includes(scope));
  const misfit = agents.filter((a) => !a.install.scopes.includes(scope));
  if (misfit.length && (chosenBy === 'flag' || !fit.length))
    throw new AvpError('init-scope', `${misfit.map((a) => a.displayName).join(', ')} has no ${scope} settings file`, {
      fix: `use --project or --user for ${misfit.map((a) => a.name).join(', ')}`,
    });
  return fit;
}

export async function installRecommended(
  scope: 'user' | 'project',
  projectRoot: string,
  env: NodeJS.ProcessEnv,
  dryRun: boolean,
) {
  const [{ listCatalog }, { addValidator }] = await Promise.all([
    import('../catalog/index.ts'),
    import('../registry-client/install.ts'),
  ]);
  const catalog = await listCatalog();
  const dir = scope === 'user' ? userValidatorsDir(env) : projectValidatorsDir(projectRoot);
  const installed: InitResult['installed'] = [];
  const skipped: string[] = [];
  for (const entry of catalog.filter((c) => c.recommended && c.judge === 'script')) {
    // Already there (a second init, or the user's own validator of that name): leave it alone.
    if (existsSync(join(dir, entry.name)) || existsSync(join(dir, `${entry.name}.md`))) {
      skipped.push(entry.name);
      continue;
    }
    if (dryRun) {
      installed.push({ name: entry.name, version: entry.version, dir: join(dir, entry.name) });
      continue;
    }
    try {
      const r = await addValidator(entry.name, { scope, projectRoot, offline: true, env });
      installed.push({ name: r.name, version: r.version, dir: r.dir });
    } catch (e) {
      throw new AvpError(
        'init-validator',
        `installing the catalog validator "${entry.name}" failed: ${errorMessage(e)}`,
        {
          fix: 'run `avp init --no-validators` to set up the hook without it, then `avp add` validators one by one',
        },
      );
    }
  }
  const llm = catalog.filter((c) => c.judge === 'llm').map((c) => ({ name: c.name, description: c.description }));
  return { installed, skipped, llm };
}

/** Installs avp's hook into each chosen agent. */
export async function runInit(opts: InitOptions): Promise<InitResult> {
  const env = opts.env ?? process.env;
  checkScopes(opts.scopes);
  const projectRoot = findProjectRoot(opts.cwd, env);
  const chosen = await chooseAgents(opts, projectRoot, env);
  const agents = withScope(chosen.agents, opts.scope, chosen.chosenBy);
  // Everything that can refuse is checked before anything changes: broken or read-only settings, a double hook.
  // Claude Code's three settings files matter only when Claude Code is chosen (a broken ~/.claude/settings.json must
  // not refuse a Gemini-only init).
  if (agents.some((a) => a.name === 'claude'))
    for (const s of ['project', 'local', 'user'] as const) readSettings(settingsPath(s, projectRoot, env));
  const notes: string[] = [];
  const onPath = opts.command?.trim() ? undefined : (Bun.which('avp', { PATH: env.PATH ?? '' }) ?? undefined);
  const claude = agents.some((a) => a.name === 'claude')
    ? planClaude(opts, projectRoot, env, onPath, notes)
    : undefined;
  const scopeOf = (a: AgentAdapter) => (a.name === 'claude' && claude ? claude.scope : opts.scope);
  const paths = agents.map((a) => a.install.path(scopeOf(a), projectRoot, env));
  agents.forEach((a, i) => checkHookFile(a, paths[i]!)); // refuse a broken or foreign file before anything changes
  for (const path of paths) assertWritable(path);
  if (claude?.cleanup) assertWritable(claude.cleanup);
  const twice = claude && twiceNote(claude, projectRoot, env);
  if (twice) notes.push(twice);
  if (!onPath && !opts.command?.trim() && agents.some((a) => a.name !== 'claude') && opts.scope === 'project') {
    notes.push(
      "avp is not on PATH, so the other agents' project files hold this machine's path: put avp on PATH and run " +
        '`avp init` again before you commit them.',
    );
  }
  let budgetMs = defaultConfig().budgetMs;
  try {
    budgetMs = (await loadConfig({ cwd: opts.cwd, projectRoot, env })).budgetMs;
  } catch {
    /* a broken config is reported by the hook itself; the default budget is a safe timeout base */
  }
  const seconds = hookTimeoutFor(budgetMs);
  const layout = opts.scope === 'user' ? [] : ensureProjectLayout(projectRoot, opts.dryRun);
  const catalog = opts.validators
    ? await installRecommended(opts.scope === 'user' ? 'user' : 'project', projectRoot, env, opts.dryRun)
    : { installed: [], skipped: [], llm: [] };
  // Codex and Copilot CLI ignore a project's hooks in a folder the user has not trusted: say so, and how.
  const trustNotes = new Map<string, string>();
  if (opts.scope !== 'user') {
    const { projectTrustProblem } = await import('./agent-trust.ts');
    for (const a of agents) {
      const problem = await projectTrustProblem(a.name, projectRoot, env);
      if (problem) trustNotes.set(a.name, `Not yet in effect: ${problem}`);
    }
  }
  const changes = agents.map((agent, i) => {
    const command =
      agent.name === 'claude' && claude?.command ? claude.command : commandFor(agent, opts.command, !!onPath);
    // Above avp's whole-call budget in the agent's own unit, so avp always answers before the agent gives up.
    const timeout = agent.install.timeoutUnit === 'milliseconds' ? seconds * 1000 : seconds;
    const settings = installFor(agent, paths[i]!, command, timeout, opts.dryRun);
    return {
      agent: agent.name,
      name: agent.displayName,
      settings: { ...settings, command, timeout },
      timeoutUnit: agent.install.timeoutUnit === 'milliseconds' ? 'ms' : 's',
      notes: [...(trustNotes.has(agent.name) ? [trustNotes.get(agent.name)!] : []), ...agentNotes(agent, opts.scope)],
    };
  });
  const result: InitResult = {
    dryRun: opts.dryRun,
    projectRoot,
    settings: changes[0]!.settings,
    agents: changes,
    chosenBy: chosen.chosenBy,
    layout,
    ...catalog,
    notes,
    commit: [],
    gitHook: opts.scope === 'user' ? 'none' : gitHookState(projectRoot),
  };
  if (claude?.cleanup) result.cleaned = removeHooks(claude.cleanup, opts.dryRun);
  if (opts.scope !== 'user') {
    for (const c of changes) {
      const rel = relative(projectRoot, c.settings.path);
      if (!rel.startsWith('..') && !rel.endsWith('settings.local.json')) result.commit.push(rel);
    }
    result.commit.push('.avp/');
  }
  return result;
}

/** Whether the project's git pre-commit hook runs avp (a dry run of `avp init --git-hook`: nothing is written). */
function gitHookState(projectRoot: string): InitResult['gitHook'] {
  try {
    return installGitHook({ projectRoot, dryRun: true }).action === 'unchanged' ? 'installed' : 'missing';
  } catch {
    return 'none'; // not a git work tree, or another tool's pre-commit hook avp never replaces
  }
}

export interface DeinitResult {
  dryRun: boolean;
  files: HookChange[];
  /** Hook files of scopes not asked for that still run avp (e.g. the user's, after `avp init --user`). */
  elsewhere: Array<{ path: string; scope: SettingsScope }>;
}

/**
 * Removes avp's hook entries from the given scopes' settings files of the chosen agents (only avp's; everything
 * else stays). Without `--agent`, every agent's files: removing is safe where nothing was installed.
 */
export async function runDeinit(opts: {
  scopes: SettingsScope[];
  agent?: string;
  cwd: string;
  dryRun: boolean;
  env?: NodeJS.ProcessEnv;
}): Promise<DeinitResult> {
  const env = opts.env ?? process.env;
  const projectRoot = findProjectRoot(opts.cwd, env);
  const agents = opts.agent !== undefined ? await namedAgents(opts.agent) : await loadAllAgents();
  const targets = agents.flatMap((a) =>
    opts.scopes
      .filter((s) => a.install.scopes.includes(s))
      .map((s) => ({ agent: a, path: a.install.path(s, projectRoot, env) })),
  );
  // Every JSON file parses, or nothing changes (a foreign hook script is simply not avp's to remove).
  for (const t of targets)
    if (existsSync(t.path) && t.agent.install.layout?.kind !== 'owned') checkHookFile(t.agent, t.path);
  const files = targets.map((t) => removeFor(t.agent, t.path, opts.dryRun));
  // Only files that exist are worth a line; with none, the first one says that there was no avp hook.
  const shown = files.filter((f) => f.removed.length || existsSync(f.path));
  // Scopes not asked for that still run avp (a dry run there: read, never written), so the user hears of them.
  const elsewhere = agents.flatMap((a) =>
    (['project', 'local', 'user'] as const)
      .filter((s) => !opts.scopes.includes(s) && a.install.scopes.includes(s))
      .map((s) => ({ agent: a, scope: s, path: a.install.path(s, projectRoot, env) }))
      .filter((t) => existsSync(t.path) && hasAvpHook(t.agent, t.path))
      .map((t) => ({ path: t.path, scope: t.scope })),
  );
  return { dryRun: opts.dryRun, files: shown.length ? shown : files.slice(0, 1), elsewhere };
}

/** Whether avp's entries are in this hook file (a dry-run removal; a file that cannot be read holds none avp knows). */
function hasAvpHook(agent: AgentAdapter, path: string): boolean {
  try {
    return removeFor(agent, path, true).removed.length > 0;
  } catch {
    return false;
  }
}
