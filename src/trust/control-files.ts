/**
 * avp's control plane: the files that decide what avp checks. An agent that could change them could switch its own
 * checks off, so hook mode runs on the state the user last accepted (see state.ts) and this module lists what there
 * is to compare: per scope, every file under the validators folder, the config files, the lockfile, and avp's own
 * entries in each agent's hook settings (only those entries: the agents rewrite the rest of their settings themselves)
 * and the hook files avp writes whole (plugins, Cline's scripts).
 *
 * Cheap on purpose (it runs on every hook call): `readdir` + `stat` only, through the call's `Listing` (hook mode
 * shares it with discovery, which walks the same validators folders); contents are read when a stat differs.
 */
import { readdirSync } from 'node:fs';
import { homedir } from '../os/home.ts';
import { join } from 'node:path';
import { liveListing, type Listing } from '../validator/listing.ts';
import { filesUnder } from '../validator/walk.ts';
import { avpHome } from '../paths.ts';

export type TrustScope = 'project' | 'user';

/**
 * One control file. `key` is stable and shown to people (`.avp/validators/x.md`, `~/.avp/config.json`); `copy`
 * says whether hook mode may need its accepted contents (validators and configs) or only its digest.
 */
export interface ControlFile {
  key: string;
  path: string;
  /** `env`: a `.env` file the agents read, judged only by its lines that switch hooks off (env-switches.ts). */
  kind: 'file' | 'hooks' | 'env';
  copy: boolean;
}

/** Config file names in a project root and its `.config/` folder (every name avp's config loader reads). */
export const CONFIG_NAME = /^avp\.config\.(?:[cm]?[jt]s|jsonc?|json5|ya?ml|toml)$/;
export const DOT_CONFIG_NAME = /^avp(?:\.config)?\.(?:[cm]?[jt]s|jsonc?|json5|ya?ml|toml)$/;
/** Config files that are programs: loading one runs it. */
export const CODE_CONFIG = /\.[cm]?[jt]s$/;

function listDir(dir: string, fs?: Listing): string[] {
  if (fs) return fs.entries(dir).map((e) => e.name);
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The project's config files, relative to `root`: `avp.config.*`, `.avprc`, `.config/avp[.config].*`. `fs`: the hook
 * call's listing (its record of the folders read is what the hook memo is checked against); else the disk.
 */
export function projectConfigNames(root: string, fs?: Listing): string[] {
  const out: string[] = [];
  const names = listDir(root, fs);
  for (const n of names) if (CONFIG_NAME.test(n) || n === '.avprc') out.push(n);
  if (names.includes('.config')) {
    for (const n of listDir(join(root, '.config'), fs)) if (DOT_CONFIG_NAME.test(n)) out.push(`.config/${n}`);
  }
  return out.sort();
}

/** The user's rc file: `$XDG_CONFIG_HOME/.avprc`, else `~/.avprc`. */
export function userRcPath(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CONFIG_HOME || env.HOME || homedir(), '.avprc');
}

/** Claude Code's user settings (`$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`). */
export function claudeUserSettings(env: NodeJS.ProcessEnv): string {
  return join(env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude'), 'settings.json');
}

/**
 * Every agent's hook settings files avp may write (`avp init`), as keys shown to people and paths: each one can
 * carry avp's hook entries, and an agent that removed or rewrote them would switch avp off for itself.
 */
export function projectHookFiles(root: string): Array<{ key: string; path: string }> {
  return [
    '.claude/settings.json',
    '.claude/settings.local.json',
    '.codex/hooks.json',
    '.gemini/settings.json',
    '.qwen/settings.json',
    '.factory/hooks.json',
    '.github/hooks/avp.json',
    '.cursor/hooks.json',
    '.windsurf/hooks.json',
    '.kiro/agents/avp.json',
  ].map((key) => ({ key, path: join(root, ...key.split('/')) }));
}

/** The line in every hook file avp writes whole (plugins, scripts): how deinit and the guard know it is avp's. */
export const OWNED_MARKER = 'written by `avp init`; `avp deinit` removes it';

/** Cline's events avp writes a script for (the Cline adapter's install events; kept here off the adapters' path). */
export const CLINE_HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'TaskStart', 'TaskResume'];

/**
 * The hook files avp writes whole — OpenCode's and Amp's plugin, Cline's script per event: all of their bytes are
 * avp's, so the whole file is the control file.
 */
export function projectOwnedHookFiles(root: string): Array<{ key: string; path: string }> {
  return [
    '.opencode/plugins/avp.ts',
    '.amp/plugins/avp.ts',
    ...CLINE_HOOK_EVENTS.map((e) => `.clinerules/hooks/${e}`),
  ].map((key) => ({ key, path: join(root, ...key.split('/')) }));
}

/** The user's hook files avp writes whole (`$XDG_CONFIG_HOME` respected). */
export function userOwnedHookFiles(env: NodeJS.ProcessEnv): Array<{ key: string; path: string }> {
  const home = env.HOME || homedir();
  const config = env.XDG_CONFIG_HOME || join(home, '.config');
  return [
    { key: '~/.config/opencode/plugins/avp.ts', path: join(config, 'opencode', 'plugins', 'avp.ts') },
    { key: '~/.config/amp/plugins/avp.ts', path: join(config, 'amp', 'plugins', 'avp.ts') },
    ...CLINE_HOOK_EVENTS.map((e) => ({
      key: `~/Documents/Cline/Hooks/${e}`,
      path: join(home, 'Documents', 'Cline', 'Hooks', e),
    })),
  ];
}

/** The user's hook settings files of every agent (`$CLAUDE_CONFIG_DIR` and `$CODEX_HOME` respected). */
export function userHookFiles(env: NodeJS.ProcessEnv): Array<{ key: string; path: string }> {
  const home = env.HOME || homedir();
  return [
    { key: '~/.claude/settings.json', path: claudeUserSettings(env) },
    { key: '~/.codex/hooks.json', path: join(env.CODEX_HOME || join(home, '.codex'), 'hooks.json') },
    { key: '~/.gemini/settings.json', path: join(home, '.gemini', 'settings.json') },
    { key: '~/.qwen/settings.json', path: join(home, '.qwen', 'settings.json') },
    { key: '~/.factory/hooks.json', path: join(home, '.factory', 'hooks.json') },
    {
      key: '~/.copilot/hooks/avp.json',
      path: join(env.COPILOT_HOME || join(home, '.copilot'), 'hooks', 'avp.json'),
    },
    { key: '~/.cursor/hooks.json', path: join(home, '.cursor', 'hooks.json') },
    { key: '~/.codeium/windsurf/hooks.json', path: join(home, '.codeium', 'windsurf', 'hooks.json') },
    { key: '~/.kiro/agents/avp.json', path: join(home, '.kiro', 'agents', 'avp.json') },
  ];
}

/**
 * The `.env` files Qwen Code and Gemini CLI read into their own and their hooks' environment, where a line can switch
 * every hook off for the next session (env-switches.ts): the project's and the user's. Only their switching lines are
 * the control part (an ordinary edit is not a change to accept).
 */
export function projectEnvFiles(root: string): Array<{ key: string; path: string }> {
  return ['.env', '.qwen/.env', '.gemini/.env'].map((key) => ({ key, path: join(root, ...key.split('/')) }));
}

export function userEnvFiles(env: NodeJS.ProcessEnv): Array<{ key: string; path: string }> {
  const home = env.HOME || homedir();
  return ['.env', '.qwen/.env', '.gemini/.env'].map((f) => ({ key: `~/${f}`, path: join(home, ...f.split('/')) }));
}

function isFile(path: string, fs: Listing): boolean {
  const s = fs.stat(path);
  return !!s && s !== 'error' && s.isFile();
}

/** Every file under a validators folder, as control files keyed under `prefix`. */
function validatorFiles(dir: string, prefix: string, fs: Listing): ControlFile[] {
  if (!fs.stat(dir)) return [];
  return filesUnder(dir, undefined, false, fs).map((path) => ({
    key: `${prefix}/${path
      .slice(dir.length + 1)
      .split('\\')
      .join('/')}`,
    path,
    kind: 'file' as const,
    copy: true,
  }));
}

/** The control files of the project at `root` that exist now. */
export function projectControlFiles(root: string, fs: Listing = liveListing): ControlFile[] {
  const out = validatorFiles(join(root, '.avp', 'validators'), '.avp/validators', fs);
  for (const name of projectConfigNames(root, fs))
    out.push({ key: name, path: join(root, name), kind: 'file', copy: true });
  const lock = join(root, '.avp', 'avp-lock.json');
  if (isFile(lock, fs)) out.push({ key: '.avp/avp-lock.json', path: lock, kind: 'file', copy: false });
  for (const { key, path } of projectHookFiles(root)) {
    if (isFile(path, fs)) out.push({ key, path, kind: 'hooks', copy: false });
  }
  for (const { key, path } of projectOwnedHookFiles(root)) {
    if (isFile(path, fs)) out.push({ key, path, kind: 'file', copy: false });
  }
  for (const { key, path } of projectEnvFiles(root))
    if (isFile(path, fs)) out.push({ key, path, kind: 'env', copy: false });
  return out;
}

/** The user's control files that exist now (`$AVP_HOME` is shown as `~/.avp`). */
export function userControlFiles(env: NodeJS.ProcessEnv, fs: Listing = liveListing): ControlFile[] {
  const home = avpHome(env);
  const out = validatorFiles(join(home, 'validators'), '~/.avp/validators', fs);
  const json = join(home, 'config.json');
  if (isFile(json, fs)) out.push({ key: '~/.avp/config.json', path: json, kind: 'file', copy: true });
  const rc = userRcPath(env);
  if (isFile(rc, fs)) out.push({ key: '~/.avprc', path: rc, kind: 'file', copy: true });
  const lock = join(home, 'avp-lock.json');
  if (isFile(lock, fs)) out.push({ key: '~/.avp/avp-lock.json', path: lock, kind: 'file', copy: false });
  for (const { key, path } of userHookFiles(env)) {
    if (isFile(path, fs)) out.push({ key, path, kind: 'hooks', copy: false });
  }
  for (const { key, path } of userOwnedHookFiles(env)) {
    if (isFile(path, fs)) out.push({ key, path, kind: 'file', copy: false });
  }
  for (const { key, path } of userEnvFiles(env))
    if (isFile(path, fs)) out.push({ key, path, kind: 'env', copy: false });
  return out;
}

/** Where a key's accepted copy lives inside a scope's accepted tree (the tree mirrors what hook mode reads). */
export function treePath(tree: string, key: string): string {
  return join(tree, ...key.replace(/^~\//, '').split('/'));
}
