/**
 * `avp init --managed` for agents other than Claude Code: avp's hook entries in the agent's system-level settings
 * (root-owned, read by every user), plus the setting that keeps the user's own settings from switching hooks off
 * (Codex's requirements TOML: managed-codex.ts; Copilot CLI's policy hook file beside its managed settings).
 * Each path and key was read in the agent's own code (the versions are named beside each entry).
 *
 * Removal gives back the file byte for byte: the hook entries go the way `avp deinit` removes them, and each switch
 * goes back to what it was before, as recorded in `/etc/avp/managed-agents.json` when `init --managed` set it.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { AGENT_NAMES, isAgentName, loadAgent } from '../agents/index.ts';
import type { AgentName } from '../protocol/event.ts';
import { AvpError } from '../errors.ts';
import {
  CODEX_REQUIREMENTS,
  checkCodexRequirements,
  codexBlocks,
  installCodexRequirements,
  removeCodexRequirements,
} from './managed-codex.ts';
import type { CodexInsert } from './managed-codex.ts';
import { installFor, removeFor } from './hook-layouts.ts';
import { installHooks, readSettings, removeHooks, writeSettings } from './hook-settings.ts';
import { restoreSwitches, setSwitches } from './managed-switches.ts';
import type { Switch, SwitchRecord } from './managed-switches.ts';

/** An agent whose system-level settings avp writes. */
export interface ManagedAgent {
  name: AgentName;
  displayName: string;
  /** The system settings file on Linux (for a policy hook file: that file). */
  path: string;
  /**
   * A JSON settings file avp edits in place, Codex's requirements TOML (managed-codex.ts), or a hook file in the
   * agent's own `avp init` layout (Copilot CLI's policy hooks).
   */
  format: 'settings-json' | 'requirements-toml' | 'hook-file';
  /** Keys avp sets, each to the value that keeps hooks on (in `switchesPath` when set, else in `path`). */
  switches: Switch[];
  switchesPath?: string;
  /** The hook timeout in the file's unit. */
  timeout: number;
  /** What the agent still lets its user do to run without avp's managed hooks (shown by `init --managed`). */
  userKeeps: string[];
}

/** The names that switch Qwen Code's hooks off or move its system settings (checked with the real CLI). */
const QWEN_ENV_SWITCHES = [
  'QWEN_CODE_SAFE_MODE',
  'QWEN_CODE_SIMPLE',
  'QWEN_CODE_SYSTEM_SETTINGS_PATH',
  'QWEN_CODE_SYSTEM_DEFAULTS_PATH',
];

/**
 * Gemini CLI 0.61 (`getSystemSettingsPath`): `/etc/gemini-cli/settings.json`, merged last over the user's and the
 * project's settings; its hook lists concatenate, so no other file removes an entry. `hooksConfig.enabled` true
 * outvotes a user's false. Qwen Code 0.24 (`getSystemSettingsPath`): `/etc/qwen-code/settings.json`, "overrides all
 * other settings files"; its hooks load regardless of folder trust, and `disableAllHooks` false outvotes a user's true.
 */
export const MANAGED_AGENTS: readonly ManagedAgent[] = [
  {
    // Copilot CLI 1.0.102 (its settings schema and hooks loader): JSON hook files in `/etc/github-copilot/policy.d`
    // load before all others, in every folder (trusted or not), and neither `disableAllHooks` nor `disabledHooks`
    // suppresses them; `allowManagedHooksOnly` in `/etc/github-copilot/managed-settings.json` drops the user's, the
    // repository's and user-enabled plugins' hooks, and no lower source can turn it back off.
    name: 'copilot',
    displayName: 'Copilot CLI',
    path: '/etc/github-copilot/policy.d/avp.json',
    format: 'hook-file',
    switches: [{ key: ['allowManagedHooksOnly'], value: true }],
    switchesPath: '/etc/github-copilot/managed-settings.json',
    timeout: 60,
    userKeeps: [],
  },
  {
    name: 'gemini',
    displayName: 'Gemini CLI',
    path: '/etc/gemini-cli/settings.json',
    format: 'settings-json',
    switches: [{ key: ['hooksConfig', 'enabled'], value: true }],
    timeout: 60_000,
    userKeeps: [
      // checked with the real CLI: its `disabled` lists are a union, matched against a hook's name or command; a
      // non-string name (which no list matches) is invalid configuration at every start and its /hooks panel
      // renders names as text, so avp's entries keep the command
      'a hooksConfig.disabled entry naming "/etc/avp/bin/avp hook --agent gemini" in the user\'s or a trusted ' +
        "project's settings (avp's guard refuses the edit; one made anyway is announced, and the next session " +
        'runs without avp)',
      'a folder the user does not trust (~/.gemini/trustedFolders.json, GEMINI_CLI_TRUST_WORKSPACE=false or ' +
        'GEMINI_RESTRICTED_MODE=true where Gemini starts): no settings hook runs there, but each file change and ' +
        'shell command asks first and a headless run refuses to start',
      'GEMINI_CLI_SYSTEM_SETTINGS_PATH in the environment Gemini starts from (not from its .env files)',
    ],
  },
  {
    name: 'qwen',
    displayName: 'Qwen Code',
    path: '/etc/qwen-code/settings.json',
    format: 'settings-json',
    switches: [
      { key: ['disableAllHooks'], value: false },
      // A project's `.env` may not switch hooks off or move this file (Qwen applies this list to `.env` files
      // outside `.qwen/`; checked with the real CLI: the project's `.env` no longer turned hooks off, `~/.env` did).
      { key: ['advanced', 'excludedEnvVars'], value: QWEN_ENV_SWITCHES, addTo: ['DEBUG', 'DEBUG_MODE'] },
    ],
    timeout: 60_000,
    userKeeps: [
      // checked with the real CLI; no system setting forbids safe mode, and .env files are read after the settings
      '--safe-mode or --bare, or QWEN_CODE_SAFE_MODE=1 / QWEN_CODE_SIMPLE=1 in the environment Qwen starts from, a ' +
        "project's .qwen/.env, ~/.qwen/.env or ~/.env: no hook runs, the system settings' too (avp's guard refuses " +
        "them in its settings' env, and the system settings keep them out of a project's .env)",
      'QWEN_CODE_SYSTEM_SETTINGS_PATH in that environment, ~/.qwen/.env or ~/.env: another system settings file',
    ],
  },
  {
    name: 'codex',
    displayName: 'Codex',
    path: CODEX_REQUIREMENTS,
    format: 'requirements-toml',
    switches: [],
    timeout: 60,
    userKeeps: [],
  },
];

/** Why `init --managed` writes nothing for an agent (shown in its summary and in docs/hook-mode.md). */
export const NOT_COVERED: Readonly<Partial<Record<AgentName, string>>> = {
  cursor: 'not verified: its system-level hooks.json is documented, not checked in an installed CLI',
  droid: 'not verified: its organisation-managed hooks are set on the Factory server, not in a local file',
  windsurf: 'not verified: a system-level hooks.json is documented, not checked in an installed CLI',
  opencode: 'no system-level config known',
  amp: 'no system-level config known',
  kiro: 'no system-level config known',
  cline: 'no system-level config known',
};

/** What `init --managed` recorded per agent, so `deinit --managed` restores each file exactly. */
interface Record1 {
  path: string;
  /** The file did not exist (avp removes it again), and the folders avp created for it. */
  created: boolean;
  createdDirs: string[];
  /** Per switch: the path avp added (absent before), or the value it replaced. */
  switches: SwitchRecord[];
  /** Codex: the exact text avp put before and after the admin's requirements. */
  inserted?: CodexInsert;
  /** Where the switches went when not in `path` (Copilot CLI's managed settings), as `path` is recorded. */
  switchFile?: { path: string; created: boolean; createdDirs: string[] };
}

type State = Partial<Record<AgentName, Record1>>;

function readState(file: string): State {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as State;
  } catch {
    return {};
  }
}

function writeState(file: string, state: State): void {
  if (!Object.keys(state).length) return rmSync(file, { force: true });
  mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o644 });
}

/** The agents `--agent` names for `--managed` (default: Claude Code and every agent above). */
export function pickManaged(list: string | undefined): { claude: boolean; agents: ManagedAgent[] } {
  if (list === undefined) return { claude: true, agents: [...MANAGED_AGENTS] };
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names) {
    if (!isAgentName(n))
      throw new AvpError('usage', `unknown agent "${n}"`, { fix: `use one of ${AGENT_NAMES.join(', ')}` });
    if (n !== 'claude' && !MANAGED_AGENTS.some((a) => a.name === n))
      throw new AvpError('managed-agent', `avp init --managed cannot cover ${n}: ${NOT_COVERED[n]}`, {
        fix: `leave it out of --agent; for ${n}, a sandbox where the home folder is read-only gives the same guarantee`,
      });
  }
  return { claude: names.includes('claude'), agents: MANAGED_AGENTS.filter((a) => names.includes(a.name)) };
}

/** The folders `mkdir -p` of `dir` would create. */
function missingDirs(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; !existsSync(d) && d !== dirname(d); d = dirname(d)) out.push(d);
  return out;
}

/** Refuses, before anything is written for any agent, a file avp could not install into (it stays as it was). */
export function checkManagedAgent(agent: ManagedAgent, stateFile: string): void {
  if (agent.switchesPath) readSettings(agent.switchesPath);
  if (agent.format !== 'requirements-toml') return void readSettings(agent.path);
  if (readState(stateFile)[agent.name]?.inserted || !existsSync(agent.path)) return;
  checkCodexRequirements(readFileSync(agent.path, 'utf8'), agent.path);
}

/** Writes avp's hook entries and switches into `agent`'s system settings; records how to undo it in `stateFile`. */
export async function installManagedAgent(agent: ManagedAgent, command: string, stateFile: string): Promise<void> {
  if (agent.format !== 'requirements-toml') readSettings(agent.path); // one that does not parse is refused, unchanged
  if (agent.switchesPath) readSettings(agent.switchesPath);
  const state = readState(stateFile);
  const fresh = !state[agent.name];
  const record: Record1 = state[agent.name] ?? {
    path: agent.path,
    created: !existsSync(agent.path),
    createdDirs: missingDirs(dirname(agent.path)),
    switches: [],
    ...(agent.switchesPath
      ? {
          switchFile: {
            path: agent.switchesPath,
            created: !existsSync(agent.switchesPath),
            createdDirs: missingDirs(dirname(agent.switchesPath)),
          },
        }
      : {}),
  };
  mkdirSync(dirname(agent.path), { recursive: true, mode: 0o755 });
  const adapter = await loadAgent(agent.name);
  if (agent.format === 'requirements-toml') {
    // A second run takes out what the first put in, then writes the current blocks.
    if (record.inserted) removeCodexRequirements(record.inserted, agent.path);
    const blocks = codexBlocks(command, agent.timeout, adapter.install.events);
    record.inserted = installCodexRequirements(blocks, agent.path);
    return writeState(stateFile, { ...state, [agent.name]: record });
  }
  if (agent.format === 'hook-file') installFor(adapter, agent.path, command, agent.timeout, false);
  else installHooks(agent.path, command, agent.timeout, adapter.install.events);
  chmodSync(agent.path, 0o644);
  const target = agent.switchesPath ?? agent.path;
  mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
  const before = readSettings(target);
  const text = setSwitches(before.text, agent.switches, fresh ? record.switches : undefined);
  if (text !== before.text || !before.exists) writeSettings(target, text);
  chmodSync(target, 0o644);
  writeState(stateFile, { ...state, [agent.name]: record });
}

/** Removes each folder avp created (deepest first) that is empty now. */
function removeCreatedDirs(dirs: readonly string[]): void {
  for (const d of [...new Set(dirs)].sort((a, b) => b.length - a.length))
    if (existsSync(d) && !readdirSync(d).length) rmdirSync(d);
}

/** `text` written back to `path`, or the file removed when avp created it and it holds nothing else now. */
function giveBack(path: string, text: string, created: boolean | undefined): void {
  if (created && /^\s*(\{\s*\})?\s*$/.test(text)) rmSync(path, { force: true });
  else if (text !== readFileSync(path, 'utf8')) writeSettings(path, text);
}

/** Takes avp's entries and switches out of `agent`'s system settings, giving back the file it found. */
export async function removeManagedAgent(agent: ManagedAgent, stateFile: string): Promise<boolean> {
  const state = readState(stateFile);
  const record = state[agent.name];
  const switchFile = record?.switchFile;
  if (!existsSync(agent.path) && !(switchFile && existsSync(switchFile.path))) {
    delete state[agent.name];
    writeState(stateFile, state);
    return false;
  }
  if (agent.format === 'hook-file') {
    // The hook file avp wrote goes (an admin's file keeps everything but avp's entries); the switches are elsewhere.
    if (existsSync(agent.path)) removeFor(await loadAgent(agent.name), agent.path, false);
    if (switchFile && existsSync(switchFile.path))
      giveBack(
        switchFile.path,
        restoreSwitches(readSettings(switchFile.path).text, record?.switches ?? []),
        switchFile.created,
      );
  } else {
    let text: string;
    if (agent.format === 'requirements-toml') {
      text = record?.inserted ? removeCodexRequirements(record.inserted, agent.path) : readFileSync(agent.path, 'utf8');
    } else {
      removeHooks(agent.path);
      text = readFileSync(agent.path, 'utf8');
    }
    giveBack(agent.path, restoreSwitches(text, record?.switches ?? []), record?.created);
  }
  removeCreatedDirs([...(record?.created ? record.createdDirs : []), ...(switchFile?.createdDirs ?? [])]);
  delete state[agent.name];
  writeState(stateFile, state);
  return true;
}

/** `agent: route` for each way a user keeps to run a picked agent without avp's managed hooks. */
export function userKeepsLines(picked: readonly ManagedAgent[]): string[] {
  return picked.flatMap((a) => a.userKeeps.map((k) => `${a.name}: ${k}`));
}

/** Every agent `init --managed` did not cover this run, with the reason. */
export function notCoveredLines(picked: readonly ManagedAgent[], claude: boolean): string[] {
  const done = new Set<string>([...picked.map((a) => a.name), ...(claude ? ['claude'] : [])]);
  return AGENT_NAMES.filter((n) => !done.has(n)).map((n) => `${n}: ${NOT_COVERED[n] ?? 'not selected (--agent)'}`);
}
