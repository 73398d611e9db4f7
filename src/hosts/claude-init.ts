/**
 * `avp init` / `avp deinit` for Claude Code: the steps behind the commands (settings, `.avp/` layout, recommended
 * offline validators), returning what was done so the commands only print. Order matters for "lose nothing": the
 * settings file is parsed first (a broken file stops everything before any change), validators are installed
 * (each install is atomic), and the settings file is written last.
 */
import { existsSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadConfig, defaultConfig } from '../config.ts';
import { ensureProjectLayout } from '../engine/session/layout.ts';
import { AvpError, errorMessage } from '../errors.ts';
import { TRIGGERS } from '../format/types.ts';
import { findProjectRoot, projectValidatorsDir, userValidatorsDir } from '../paths.ts';
import {
  assertWritable,
  avpCommandsIn,
  avpHookCommand,
  hookTimeoutFor,
  portableHookCommand,
  installHooks,
  readSettings,
  removeHooks,
  settingsPath,
  type HookChange,
  type SettingsScope,
} from './claude-settings.ts';

export interface InitOptions {
  scope: SettingsScope;
  /** The scope came from a flag (`--project` given on purpose is never redirected to the local file). */
  scopeGiven?: boolean;
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
  /** avp's older entries removed from the other project settings file, so that avp runs once per event. */
  cleaned?: HookChange;
  /** What the user should know about where the hook went (PATH, a second entry). */
  notes: string[];
  /** Files to commit so teammates get the same setup (project-relative). */
  commit: string[];
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

interface HookPlan {
  scope: SettingsScope;
  command: string;
  /** The other project settings file, whose older avp entries go (it is this machine's own file). */
  cleanup?: string;
  notes: string[];
}

/**
 * Which file gets which command. The shared `.claude/settings.json` gets the portable `avp hook --agent claude`, and
 * only when avp is on PATH (else it would fail on this machine); then avp's entries in `.claude/settings.local.json`
 * go, so avp runs once per event. avp not on PATH: this machine's absolute path goes into the unshared
 * `.claude/settings.local.json` instead — refused when the shared file already calls avp (twice per event later).
 * `--user` and `--local` get the portable command too when avp is on PATH: Claude Code runs identical commands once.
 */
function planHook(opts: InitOptions, projectRoot: string, env: NodeJS.ProcessEnv): HookPlan {
  const agent = opts.agent ?? 'claude';
  const notes: string[] = [];
  const given = opts.command?.trim();
  const onPath = given ? undefined : Bun.which('avp', { PATH: env.PATH ?? '' });
  let scope = opts.scope;
  let command = given || portableHookCommand(agent);
  if (!given && onPath) {
    const self = realpathOr(process.execPath);
    // `npx` puts its temporary copy on PATH for this run only: afterwards `avp hook` would not be found.
    if (/[\\/]_npx[\\/]/.test(onPath)) {
      notes.push(
        'avp runs through npx here, and npx does not keep it on PATH: install it so the hook finds it ' +
          '(npm install -g @avp-cli/avp, or install.sh — see docs/install.md).',
      );
    } else if (realpathOr(onPath) !== self && !/\.[cm]?[jt]s$/.test(Bun.main)) {
      notes.push(`avp on PATH is ${onPath}, not this avp (${self}): the hook runs that one.`);
    }
  } else if (!given) {
    command = avpHookCommand(agent);
    if (scope === 'project') {
      if (opts.scopeGiven) {
        throw new AvpError('init-not-on-path', 'avp is not on PATH, so a shared hook (`avp hook`) would not run here', {
          fix: `put avp on PATH (e.g. ln -s ${process.execPath} ~/.local/bin/avp) and run \`avp init\` again; or write this machine's path into the unshared file: avp init --local`,
        });
      }
      scope = 'local';
      notes.push(
        "avp is not on PATH, so this machine's path went into .claude/settings.local.json (not shared). Put avp on " +
          'PATH and run `avp init` again to share the hook with your team through .claude/settings.json.',
      );
    }
  }
  const shared = settingsPath('project', projectRoot, env);
  const local = settingsPath('local', projectRoot, env);
  if (scope === 'local') {
    const other = avpCommandsIn(shared).filter((c) => c !== command);
    if (other.length) {
      throw new AvpError(
        'init-twice',
        `${shared} already runs avp (\`${other[0]}\`); a second entry in settings.local.json would run avp twice per event`,
        {
          fix: onPath
            ? 'nothing to do: the shared entry runs avp on this machine'
            : `the shared entry needs avp on PATH: put it there (e.g. ln -s ${process.execPath} ~/.local/bin/avp) and restart the agent`,
        },
      );
    }
  }
  const plan: HookPlan = { scope, command, notes };
  if (scope === 'project' && avpCommandsIn(local).some((c) => c !== command)) plan.cleanup = local;
  return plan;
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** avp's commands per settings file once the plan is applied: more than one distinct command runs avp twice. */
function twiceNote(plan: HookPlan, projectRoot: string, env: NodeJS.ProcessEnv): string | undefined {
  const files = (['project', 'local', 'user'] as const).map((s) => settingsPath(s, projectRoot, env));
  const target = settingsPath(plan.scope, projectRoot, env);
  const rows = files.flatMap((f) =>
    f === target ? [[f, plan.command]] : f === plan.cleanup ? [] : avpCommandsIn(f).map((c) => [f, c]),
  );
  if (new Set(rows.map((r) => r[1])).size < 2) return undefined;
  return (
    `avp runs more than once per event here: ${rows.map(([f, c]) => `${f} runs \`${c}\``).join('; ')}. Claude Code ` +
    'runs identical commands once: with avp on PATH, `avp init` in each of those scopes writes the same command ' +
    '(or `avp deinit --user` removes the user-wide one).'
  );
}

/** Installs avp for Claude Code. */
export async function runInit(opts: InitOptions): Promise<InitResult> {
  const env = opts.env ?? process.env;
  checkAgent(opts.agent, opts.scopes);
  const projectRoot = findProjectRoot(opts.cwd, env);
  // Everything that can refuse is checked before anything changes: broken or read-only settings, a double hook.
  for (const s of ['project', 'local', 'user'] as const) readSettings(settingsPath(s, projectRoot, env));
  const plan = planHook(opts, projectRoot, env);
  const path = settingsPath(plan.scope, projectRoot, env);
  assertWritable(path);
  if (plan.cleanup) assertWritable(plan.cleanup);
  const twice = twiceNote(plan, projectRoot, env);
  if (twice) plan.notes.push(twice);
  let budgetMs = defaultConfig().budgetMs;
  try {
    budgetMs = (await loadConfig({ cwd: opts.cwd, projectRoot, env })).budgetMs;
  } catch {
    /* a broken config is reported by the hook itself; the default budget is a safe timeout base */
  }
  const command = plan.command;
  const timeout = hookTimeoutFor(budgetMs);
  const layout = plan.scope === 'user' ? [] : ensureProjectLayout(projectRoot, opts.dryRun);
  const catalog = opts.validators
    ? await installRecommended(plan.scope === 'user' ? 'user' : 'project', projectRoot, env, opts.dryRun)
    : { installed: [], skipped: [], llm: [] };
  const settings = installHooks(path, command, timeout, TRIGGERS, opts.dryRun);
  const result: InitResult = {
    dryRun: opts.dryRun,
    projectRoot,
    settings: { ...settings, command, timeout },
    layout,
    ...catalog,
    notes: plan.notes,
    commit: [],
  };
  if (plan.cleanup) result.cleaned = removeHooks(plan.cleanup, opts.dryRun);
  if (plan.scope !== 'user') {
    if (plan.scope === 'project') result.commit.push(relative(projectRoot, path));
    result.commit.push('.avp/');
  }
  return result;
}

/** Human summary of an init, for stdout. */
export function formatInit(r: InitResult): string {
  const lines: string[] = [];
  const would = r.dryRun ? 'would ' : '';
  const s = r.settings;
  // Paths in the project are shown from its root (what the user types and commits); others in full.
  const show = (p: string) => {
    const rel = relative(r.projectRoot, p);
    return rel && !rel.startsWith('..') && !rel.startsWith('/') ? rel : p;
  };
  if (!s.changed) lines.push(`${show(s.path)}: avp's hook is already installed (nothing to change)`);
  else {
    lines.push(
      `${show(s.path)}: ${would}${s.created ? 'create the file and ' : ''}add avp's hook for ${s.added.length} event${s.added.length === 1 ? '' : 's'}${s.updated.length ? `, update it for ${s.updated.length}` : ''}`,
    );
    lines.push(`  command: ${s.command}   timeout: ${s.timeout}s`);
  }
  for (const m of r.layout) lines.push(`${would}create ${show(m)}`);
  for (const v of r.installed) lines.push(`${would}install validator ${v.name}@${v.version} → ${show(v.dir)}`);
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
  if (r.cleaned?.changed) {
    lines.push(
      `${show(r.cleaned.path)}: ${would}remove avp's older entry (${r.cleaned.removed.length} event${r.cleaned.removed.length === 1 ? '' : 's'}): the shared one runs avp; both would run it twice per event`,
    );
  }
  for (const n of r.notes) lines.push('', `note: ${n}`);
  if (r.dryRun) lines.push('', 'dry run: nothing was written.');
  else lines.push('', ...whatNext(r));
  return `${lines.join('\n')}\n`;
}

/** The steps after `avp init`: restart the agent, see a block, commit the shared files. */
function whatNext(r: InitResult): string[] {
  const steps = ['restart Claude Code: it reads hooks when it starts (a running session keeps its old hooks)'];
  const secrets = [...r.installed.map((v) => v.name), ...r.skipped].includes('no-secrets');
  steps.push(
    secrets
      ? 'try it: ask the agent to add `const API_KEY = "sk-live-1234567890abcdef1234"` to a file; no-secrets blocks it'
      : 'try it: `avp check` runs the validators on your uncommitted changes, as the hook would',
  );
  if (r.commit.length) {
    steps.push(`commit what your team shares: git add ${r.commit.join(' ')} && git commit -m "Set up avp validators"`);
    if (!r.commit.some((c) => c.startsWith('.claude/')))
      steps.push(
        'teammates: each runs `avp init` (the hook is in .claude/settings.local.json, which stays on this machine)',
      );
  }
  return ['next:', ...steps.map((s, i) => `  ${i + 1}. ${s}`)];
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
