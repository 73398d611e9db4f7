/**
 * `avp init --managed` for agents other than Claude Code: avp's hook entries in the agent's system-level settings
 * (root-owned, read by every user), plus the setting that keeps the user's own settings from switching hooks off
 * (Codex's requirements TOML: managed-codex.ts).
 * Each path and key was read in the agent's own code (the versions are named beside each entry).
 *
 * Removal gives back the file byte for byte: the hook entries go the way `avp deinit` removes them, and each switch
 * goes back to what it was before, as recorded in `/etc/avp/managed-agents.json` when `init --managed` set it.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { applyEdits, modify, parse } from 'jsonc-parser';
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
import {
  appendMember,
  formatting,
  installHooks,
  readSettings,
  removeAt,
  removeHooks,
  writeSettings,
} from './hook-settings.ts';

/** An agent whose system-level settings avp writes. */
export interface ManagedAgent {
  name: AgentName;
  displayName: string;
  /** The system settings file on Linux. */
  path: string;
  /** A JSON settings file avp edits in place, or Codex's requirements TOML (managed-codex.ts). */
  format: 'settings-json' | 'requirements-toml';
  /** Keys avp sets there, each to the value that keeps hooks on. */
  switches: Array<{ key: string[]; value: unknown }>;
  /** The hook timeout in the file's unit. */
  timeout: number;
}

/**
 * Gemini CLI 0.61 (`getSystemSettingsPath`): `/etc/gemini-cli/settings.json`, merged last over the user's and the
 * project's settings; its hook lists concatenate, so no other file removes an entry. `hooksConfig.enabled` true
 * outvotes a user's false. Qwen Code 0.24 (`getSystemSettingsPath`): `/etc/qwen-code/settings.json`, "overrides all
 * other settings files"; its hooks load regardless of folder trust, and `disableAllHooks` false outvotes a user's true.
 */
export const MANAGED_AGENTS: readonly ManagedAgent[] = [
  {
    name: 'gemini',
    displayName: 'Gemini CLI',
    path: '/etc/gemini-cli/settings.json',
    format: 'settings-json',
    switches: [{ key: ['hooksConfig', 'enabled'], value: true }],
    timeout: 60_000,
  },
  {
    name: 'qwen',
    displayName: 'Qwen Code',
    path: '/etc/qwen-code/settings.json',
    format: 'settings-json',
    switches: [{ key: ['disableAllHooks'], value: false }],
    timeout: 60_000,
  },
  {
    name: 'codex',
    displayName: 'Codex',
    path: CODEX_REQUIREMENTS,
    format: 'requirements-toml',
    switches: [],
    timeout: 60,
  },
];

/** Why `init --managed` writes nothing for an agent (shown in its summary and in docs/hook-mode.md). */
export const NOT_COVERED: Readonly<Partial<Record<AgentName, string>>> = {
  copilot: 'not yet: its managed hooks come through managed plugins, which avp does not build',
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
  switches: Array<{ added: string[] } | { key: string[]; before: unknown }>;
  /** Codex: the exact text avp put before and after the admin's requirements. */
  inserted?: CodexInsert;
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
  if (agent.format === 'settings-json') return void readSettings(agent.path);
  if (readState(stateFile)[agent.name]?.inserted || !existsSync(agent.path)) return;
  checkCodexRequirements(readFileSync(agent.path, 'utf8'), agent.path);
}

/** Writes avp's hook entries and switches into `agent`'s system settings; records how to undo it in `stateFile`. */
export async function installManagedAgent(agent: ManagedAgent, command: string, stateFile: string): Promise<void> {
  if (agent.format === 'settings-json') readSettings(agent.path); // one that does not parse is refused, unchanged
  const state = readState(stateFile);
  const fresh = !state[agent.name];
  const record: Record1 = state[agent.name] ?? {
    path: agent.path,
    created: !existsSync(agent.path),
    createdDirs: missingDirs(dirname(agent.path)),
    switches: [],
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
  installHooks(agent.path, command, agent.timeout, adapter.install.events);
  let text = readFileSync(agent.path, 'utf8');
  const fmt = formatting(text);
  for (const s of agent.switches) {
    const value = parse(text, [], { allowTrailingComma: true }) as Record<string, unknown>;
    let at: unknown = value;
    let present = 0;
    for (const k of s.key) {
      if (!at || typeof at !== 'object' || !(k in (at as object))) break;
      at = (at as Record<string, unknown>)[k];
      present++;
    }
    if (present === s.key.length && JSON.stringify(at) === JSON.stringify(s.value)) continue;
    // Recorded only the first time: a second init must not take avp's own value for the one it replaced.
    if (fresh)
      record.switches.push(
        present === s.key.length ? { key: s.key, before: at } : { added: s.key.slice(0, present + 1) },
      );
    if (present === s.key.length) {
      text = applyEdits(text, modify(text, s.key, s.value, { formattingOptions: fmt }));
    } else {
      // A new member the way avp adds hook entries, so removing it later gives back every other byte.
      const nested = s.key.slice(present + 1).reduceRight<unknown>((v, k) => ({ [k]: v }), s.value);
      text = appendMember(text, s.key.slice(0, present), nested, fmt, s.key[present]);
    }
  }
  writeSettings(agent.path, text);
  chmodSync(agent.path, 0o644);
  writeState(stateFile, { ...state, [agent.name]: record });
}

/** Takes avp's entries and switches out of `agent`'s system settings, giving back the file it found. */
export function removeManagedAgent(agent: ManagedAgent, stateFile: string): boolean {
  const state = readState(stateFile);
  const record = state[agent.name];
  if (!existsSync(agent.path)) {
    delete state[agent.name];
    writeState(stateFile, state);
    return false;
  }
  let text: string;
  if (agent.format === 'requirements-toml') {
    text = record?.inserted ? removeCodexRequirements(record.inserted, agent.path) : readFileSync(agent.path, 'utf8');
  } else {
    removeHooks(agent.path);
    text = readFileSync(agent.path, 'utf8');
  }
  for (const s of [...(record?.switches ?? [])].reverse()) {
    if ('added' in s) text = removeAt(text, s.added);
    else text = applyEdits(text, modify(text, s.key, s.before, { formattingOptions: formatting(text) }));
  }
  if (record?.created && /^\s*(\{\s*\})?\s*$/.test(text)) {
    rmSync(agent.path, { force: true });
    for (const d of record.createdDirs) if (existsSync(d) && !readdirSync(d).length) rmdirSync(d);
  } else if (text !== readFileSync(agent.path, 'utf8')) writeSettings(agent.path, text);
  delete state[agent.name];
  writeState(stateFile, state);
  return true;
}

/** Every agent `init --managed` did not cover this run, with the reason. */
export function notCoveredLines(picked: readonly ManagedAgent[], claude: boolean): string[] {
  const done = new Set<string>([...picked.map((a) => a.name), ...(claude ? ['claude'] : [])]);
  return AGENT_NAMES.filter((n) => !done.has(n)).map((n) => `${n}: ${NOT_COVERED[n] ?? 'not selected (--agent)'}`);
}
