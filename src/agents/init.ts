/**
 * `avp init` / `avp deinit` for Claude Code: the steps behind the commands (settings, `.avp/` layout, recommended
 * offline validators), returning what was done so the commands only print. Order matters for "lose nothing": the
 * settings file is parsed first (a broken file stops everything before any change), validators are installed
 * (each install is atomic), and the settings file is written last.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, defaultConfig } from '../config.ts';
import { ensureProjectLayout } from '../engine/session/layout.ts';
import { AvpError, errorMessage } from '../errors.ts';
import { TRIGGERS } from '../format/types.ts';
import { findProjectRoot, projectValidatorsDir, userValidatorsDir } from '../paths.ts';
import {
  avpHookCommand,
  hookTimeoutFor,
  installHooks,
  readSettings,
  removeHooks,
  settingsPath,
  type HookChange,
  type SettingsScope,
} from './hook-settings.ts';

export interface InitOptions {
  scope: SettingsScope;
  /** How many scope flags were given (more than one is an error). */
  scopes?: number;
  agent?: string;
  validators: boolean;
  command?: string;
  dryRun: boolean;
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

export interface InitResult {
  dryRun: boolean;
  projectRoot: string;
  settings: HookChange & { command: string; timeout: number };
  layout: string[];
  installed: Array<{ name: string; version: string; dir: string }>;
  skipped: string[];
  /** Catalog validators judged by an LLM: not installed by init (they need a backend), listed with how to add them. */
  llm: Array<{ name: string; description: string }>;
}

function checkAgent(agent: string | undefined, scopes = 1): void {
  if (agent && agent !== 'claude') {
    throw new AvpError('init-agent', `unsupported agent "${agent}"`, {
      fix: 'use --agent claude (other agents are not supported yet)',
    });
  }
  if (scopes > 1)
    throw new AvpError('init-scope', 'give only one of --project, --local, --user', {
      fix: 'run the command once per settings file',
    });
}

async function installRecommended(
  scope: 'user' | 'project',
  projectRoot: string,
  env: NodeJS.ProcessEnv,
  dryRun: boolean,
) {
  const [{ listCatalog }, { addValidator }] = await Promise.all([
    import('../catalog/index.ts'),
    import('../registry/install.ts'),
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

/** Installs avp for Claude Code. */
export async function runInit(opts: InitOptions): Promise<InitResult> {
  const env = opts.env ?? process.env;
  checkAgent(opts.agent, opts.scopes);
  const projectRoot = findProjectRoot(opts.cwd, env);
  const path = settingsPath(opts.scope, projectRoot, env);
  readSettings(path); // refuse a broken file before anything changes
  let budgetMs = defaultConfig().budgetMs;
  try {
    budgetMs = (await loadConfig({ cwd: opts.cwd, projectRoot, env })).budgetMs;
  } catch {
    /* a broken config is reported by the hook itself; the default budget is a safe timeout base */
  }
  const command = opts.command?.trim() || avpHookCommand(opts.agent ?? 'claude');
  const timeout = hookTimeoutFor(budgetMs);
  const layout = opts.scope === 'user' ? [] : ensureProjectLayout(projectRoot, opts.dryRun);
  const catalog = opts.validators
    ? await installRecommended(opts.scope === 'user' ? 'user' : 'project', projectRoot, env, opts.dryRun)
    : { installed: [], skipped: [], llm: [] };
  const settings = installHooks(path, command, timeout, TRIGGERS, opts.dryRun);
  return { dryRun: opts.dryRun, projectRoot, settings: { ...settings, command, timeout }, layout, ...catalog };
}

/** Human summary of an init, for stdout. */
export function formatInit(r: InitResult): string {
  const lines: string[] = [];
  const would = r.dryRun ? 'would ' : '';
  const s = r.settings;
  if (!s.changed) lines.push(`${s.path}: avp's hook is already installed (nothing to change)`);
  else {
    lines.push(
      `${s.path}: ${would}${s.created ? 'create the file and ' : ''}add avp's hook for ${s.added.length} event${s.added.length === 1 ? '' : 's'}${s.updated.length ? `, update it for ${s.updated.length}` : ''}`,
    );
    lines.push(`  command: ${s.command}   timeout: ${s.timeout}s`);
  }
  for (const m of r.layout) lines.push(`${would}create ${m}`);
  for (const v of r.installed) lines.push(`${would}install validator ${v.name}@${v.version} → ${v.dir}`);
  if (r.skipped.length) lines.push(`already installed: ${r.skipped.join(', ')}`);
  if (r.llm.length) {
    lines.push('', 'LLM-judged validators in the catalog (not installed: they need a model):');
    for (const v of r.llm) {
      const first = v.description.split(/(?<=\.)\s| - /)[0]!.replace(/\.$/, '');
      lines.push(`  ${v.name} — ${first.length > 100 ? `${first.slice(0, 99)}…` : first}`);
    }
    lines.push(
      '  add one with `avp add <name>`; avp judges with `claude` on PATH, ANTHROPIC_API_KEY, or OPENAI_BASE_URL/OPENAI_API_KEY.',
    );
  }
  if (r.dryRun) lines.push('', 'dry run: nothing was written.');
  return `${lines.join('\n')}\n`;
}

export interface DeinitResult {
  dryRun: boolean;
  files: HookChange[];
}

/** Removes avp's hook entries from the given scopes' settings files (only avp's; everything else stays). */
export function runDeinit(opts: {
  scopes: SettingsScope[];
  cwd: string;
  dryRun: boolean;
  env?: NodeJS.ProcessEnv;
}): DeinitResult {
  const env = opts.env ?? process.env;
  const projectRoot = findProjectRoot(opts.cwd, env);
  const paths = opts.scopes.map((s) => settingsPath(s, projectRoot, env));
  for (const p of paths) readSettings(p); // all parse, or nothing changes
  return { dryRun: opts.dryRun, files: paths.map((p) => removeHooks(p, opts.dryRun)) };
}

export function formatDeinit(r: DeinitResult): string {
  const lines = r.files.map((f) =>
    f.removed.length
      ? `${f.path}: ${r.dryRun ? 'would remove' : 'removed'} avp's hook from ${f.removed.length} event${f.removed.length === 1 ? '' : 's'}`
      : `${f.path}: no avp hook found`,
  );
  lines.push('.avp/ (validators, state) is left in place; delete it yourself if you no longer want it.');
  return `${lines.join('\n')}\n`;
}
