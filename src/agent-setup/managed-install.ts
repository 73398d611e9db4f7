/**
 * `avp init --managed` / `avp deinit --managed`: the hard guarantee. Run as root, it puts everything that decides
 * whether avp checks the agent where the agent's user cannot write:
 *
 * - a copy of this avp binary in `/etc/avp/bin/avp` (a hook that runs a binary the user owns can be replaced);
 * - the validators in `/etc/avp/validators/` (the recommended catalog ones, plus the project's own when run in one);
 * - the managed policy `/etc/avp/managed.json`: `validatorsDir` (hook mode reads it first, above project and user
 *   validators), every validator there required, the kill switch forbidden (the admin's other keys are kept);
 * - Claude Code's managed settings drop-in `/etc/claude-code/managed-settings.d/avp.json`: avp's hooks and
 *   `allowManagedHooksOnly`, which project and user settings cannot override (checked in Claude Code 2.1.330).
 *
 * - the system settings of the other agents that have them (managed-agents.ts: Codex, Copilot CLI, Gemini CLI,
 *   Qwen Code); the rest are named in the summary with the reason.
 */
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { systemManagedConfigPath } from '../config/managed.ts';
import { AvpError } from '../errors.ts';
import { findProjectRoot, projectValidatorsDir } from '../paths.ts';
import { TRIGGERS } from '../protocol/trigger.ts';
import {
  checkManagedAgent,
  installManagedAgent,
  notCoveredLines,
  userKeepsLines,
  pickManaged,
  removeManagedAgent,
} from './managed-agents.ts';

export const MANAGED_DIR = dirname(systemManagedConfigPath('linux'));
export const MANAGED_BIN = join(MANAGED_DIR, 'bin', 'avp');
export const MANAGED_VALIDATORS = join(MANAGED_DIR, 'validators');
export const CLAUDE_MANAGED_DROP_IN = '/etc/claude-code/managed-settings.d/avp.json';
/** How to give back each agent's system settings file (managed-agents.ts). */
const AGENTS_STATE = join(MANAGED_DIR, 'managed-agents.json');

export interface ManagedResult {
  written: string[];
  removed: string[];
  validators: string[];
  /** The agents whose system-level settings now hold (or no longer hold) avp's hooks. */
  agents: string[];
  /** `agent: reason` for every agent left out. */
  notCovered: string[];
  /** `agent: route` for every way the agent still lets its user run without avp's managed hooks. */
  userKeeps: string[];
}

function requireRoot(what: string): void {
  if (process.platform !== 'linux')
    throw new AvpError('managed-platform', `${what} is supported on Linux only for now`, {
      fix: 'install the managed files by hand as docs/hook-mode.md describes',
    });
  if (process.getuid?.() !== 0)
    throw new AvpError('managed-root', `${what} writes where only an administrator can (${MANAGED_DIR})`, {
      fix: `run it as root: sudo avp ${what.replace(/^avp /, '')}`,
    });
}

function writeRootFile(path: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  writeFileSync(path, text, { mode });
  chmodSync(path, mode);
}

function readJson(path: string): Record<string, unknown> {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function validatorNames(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => !n.startsWith('.'))
      .map((n) => n.replace(/\.md$/, ''))
      .sort();
  } catch {
    return [];
  }
}

/** Claude Code's managed settings drop-in: avp on every event, and only managed hooks admitted. */
function claudeManagedSettings(timeoutSeconds: number): string {
  const command = `${MANAGED_BIN} hook --agent claude`;
  const hooks = Object.fromEntries(
    TRIGGERS.map((event) => [
      event,
      [{ matcher: '*', hooks: [{ type: 'command', command, timeout: timeoutSeconds }] }],
    ]),
  );
  return `${JSON.stringify({ allowManagedHooksOnly: true, hooks }, null, 2)}\n`;
}

/** `avp init --managed`. */
export async function initManaged(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  validators: boolean;
  agent?: string;
}): Promise<ManagedResult> {
  requireRoot('avp init --managed');
  const pick = pickManaged(opts.agent);
  for (const agent of pick.agents) checkManagedAgent(agent, AGENTS_STATE);
  const written: string[] = [];
  // The binary: this one, copied where the user cannot replace it.
  mkdirSync(dirname(MANAGED_BIN), { recursive: true, mode: 0o755 });
  const tmp = `${MANAGED_BIN}.${process.pid}.tmp`;
  copyFileSync(process.execPath, tmp);
  chmodSync(tmp, 0o755);
  const { renameSync } = await import('node:fs');
  renameSync(tmp, MANAGED_BIN);
  written.push(MANAGED_BIN);
  // The validators: the recommended catalog set (installed as if /etc/avp were the user's avp folder), then the
  // project's own when this runs in one.
  mkdirSync(MANAGED_VALIDATORS, { recursive: true, mode: 0o755 });
  if (opts.validators) {
    const { installRecommended } = await import('./init.ts');
    await installRecommended('user', opts.cwd, { ...opts.env, AVP_HOME: MANAGED_DIR }, false);
  }
  const project = projectValidatorsDir(findProjectRoot(opts.cwd, opts.env));
  if (existsSync(project)) {
    for (const name of readdirSync(project)) {
      if (name.startsWith('.')) continue;
      cpSync(join(project, name), join(MANAGED_VALIDATORS, name), { recursive: true, force: true });
    }
  }
  const validators = validatorNames(MANAGED_VALIDATORS);
  written.push(MANAGED_VALIDATORS);
  // The policy: the admin's keys kept, ours set.
  const policyPath = systemManagedConfigPath('linux');
  const policy = readJson(policyPath);
  const required = Array.isArray(policy.requiredValidators) ? (policy.requiredValidators as string[]) : [];
  writeRootFile(
    policyPath,
    `${JSON.stringify(
      {
        ...policy,
        validatorsDir: MANAGED_VALIDATORS,
        requiredValidators: [...new Set([...required, ...validators])],
        forbidDisabling: true,
      },
      null,
      2,
    )}\n`,
  );
  written.push(policyPath);
  const agents: string[] = [];
  if (pick.claude) {
    writeRootFile(CLAUDE_MANAGED_DROP_IN, claudeManagedSettings(60));
    written.push(CLAUDE_MANAGED_DROP_IN);
    agents.push('claude');
  }
  for (const agent of pick.agents) {
    await installManagedAgent(agent, `${MANAGED_BIN} hook --agent ${agent.name}`, AGENTS_STATE);
    written.push(agent.path, ...(agent.switchesPath ? [agent.switchesPath] : []));
    agents.push(agent.name);
  }
  return {
    written,
    removed: [],
    validators,
    agents,
    notCovered: notCoveredLines(pick.agents, pick.claude),
    userKeeps: userKeepsLines(pick.agents),
  };
}

/**
 * `avp deinit --managed`: removes what `init --managed` wrote (the admin's own policy keys stay). With `agent`, only
 * those agents' entries go, and /etc/avp stays for the others.
 */
export async function deinitManaged(agent?: string): Promise<ManagedResult> {
  requireRoot('avp deinit --managed');
  const pick = pickManaged(agent);
  const removed: string[] = [];
  const agents: string[] = [];
  for (const a of pick.agents) {
    if (!(await removeManagedAgent(a, AGENTS_STATE))) continue;
    removed.push(a.path, ...(a.switchesPath ? [a.switchesPath] : []));
    agents.push(a.name);
  }
  if (pick.claude && existsSync(CLAUDE_MANAGED_DROP_IN)) {
    rmSync(CLAUDE_MANAGED_DROP_IN, { force: true });
    removed.push(CLAUDE_MANAGED_DROP_IN);
    agents.push('claude');
  }
  if (agent !== undefined) return { written: [], removed, validators: [], agents, notCovered: [], userKeeps: [] };
  for (const path of [dirname(MANAGED_BIN), MANAGED_VALIDATORS, join(MANAGED_DIR, 'avp-lock.json')]) {
    if (!existsSync(path)) continue;
    rmSync(path, { recursive: true, force: true });
    removed.push(path);
  }
  const policyPath = systemManagedConfigPath('linux');
  if (existsSync(policyPath)) {
    const policy = readJson(policyPath);
    delete policy.validatorsDir;
    delete policy.requiredValidators;
    delete policy.forbidDisabling;
    if (Object.keys(policy).filter((k) => k !== '$schema').length)
      writeRootFile(policyPath, `${JSON.stringify(policy, null, 2)}\n`);
    else rmSync(policyPath, { force: true });
    removed.push(policyPath);
  }
  return { written: [], removed, validators: [], agents, notCovered: [], userKeeps: [] };
}

export function formatManaged(r: ManagedResult): string {
  const lines = [...r.written.map((p) => `wrote   ${p}`), ...r.removed.map((p) => `removed ${p}`)];
  if (r.validators.length) lines.push(`managed validators: ${r.validators.join(', ')}`);
  if (r.agents.length)
    lines.push(`${r.written.length ? 'managed hooks for' : 'managed hooks removed for'}: ${r.agents.join(', ')}`);
  for (const n of r.notCovered) lines.push(`not covered  ${n}`);
  for (const k of r.userKeeps) lines.push(`user can still  ${k}`);
  return `${lines.join('\n')}\n`;
}
