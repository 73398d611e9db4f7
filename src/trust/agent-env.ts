/**
 * Is this command running inside a coding agent's shell? Acceptance must come from the user, so `avp accept` (and
 * the acceptance the installing commands make) refuses where an agent marks its environment or is found among this
 * process's ancestors. Both signals: an agent can drop a variable (`env -u CLAUDECODE`) but not its parentage.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { processOrigin } from './process-origin.ts';

/** Variables coding agents set for the commands they run (value → the agent's name). */
const MARKERS: Array<[string, string]> = [
  ['CLAUDECODE', 'Claude Code'],
  ['CLAUDE_CODE_ENTRYPOINT', 'Claude Code'],
  ['GEMINI_CLI', 'Gemini CLI'],
  ['QWEN_CODE', 'Qwen Code'],
  // Qwen runs as `node …/cli.js`, which the ancestry check cannot name; its launcher's variables are inherited.
  ['QWEN_CODE_CLI', 'Qwen Code'],
  ['QWEN_CODE_LAUNCHER_PID', 'Qwen Code'],
  ['CODEX_SANDBOX', 'Codex'],
  ['CODEX_CI', 'Codex'],
  ['CODEX_THREAD_ID', 'Codex'],
  ['CODEX_SHELL', 'Codex'],
  ['CURSOR_AGENT', 'Cursor'],
  ['OPENCODE', 'OpenCode'],
  ['AUGMENT_AGENT', 'Augment'],
  ['AVP_SUBAGENT', 'an avp judge'],
];

/** Program names of coding agents, as they appear in a process list. */
const PROGRAMS = new Set([
  'claude',
  'codex',
  'gemini',
  'qwen',
  'droid',
  'copilot',
  'cursor-agent',
  'opencode',
  'amp',
  'kiro-cli',
  'cline',
  'windsurf',
]);

/** The agent named by the environment, if any. `AGENT` / `AI_AGENT` are the generic conventions some agents use. */
export function agentFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  for (const [name, agent] of MARKERS) if (env[name]) return `${agent} (${name} is set)`;
  for (const name of ['AGENT', 'AI_AGENT']) if (env[name]) return `${env[name]} (${name} is set)`;
  return undefined;
}

/** The program of a process and its parent's pid, from /proc (Linux); undefined elsewhere. */
function procInfo(pid: number): { name: string; args: string[]; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), args, ppid };
  } catch {
    return undefined;
  }
}

/** A coding agent among this process's ancestors (Linux: /proc; elsewhere `ps`). */
export function agentAncestor(pid = process.ppid): string | undefined {
  for (let depth = 0, current = pid; depth < 64 && current > 1; depth++) {
    const info = procInfo(current) ?? psInfo(current);
    if (!info) return undefined;
    // Node-based agents run as `node …/bin/claude`: look at the first two words of the command line too.
    const names = [info.name, ...info.args.slice(0, 2).map((a) => basename(a))].map((n) =>
      n.replace(/\.(c?js|exe)$/, ''),
    );
    const hit = names.find((n) => PROGRAMS.has(n));
    if (hit) return `${hit} (process ${current} is an ancestor of this command)`;
    current = info.ppid;
  }
  return undefined;
}

function psInfo(pid: number): { name: string; args: string[]; ppid: number } | undefined {
  if (process.platform === 'linux' || process.platform === 'win32') return undefined;
  try {
    const out = Bun.spawnSync(['ps', '-o', 'ppid=,args=', '-p', String(pid)])
      .stdout.toString()
      .trim();
    const m = /^(\d+)\s+(.*)$/.exec(out);
    if (!m) return undefined;
    const args = m[2]!.split(/\s+/);
    return { name: basename(args[0] ?? ''), args, ppid: Number(m[1]) };
  } catch {
    return undefined;
  }
}

/**
 * The agent this command runs under, if any: environment first, then ancestry, then the ways around both (Linux):
 * an agent's marker in an ancestor's start-up environment, or a process detached from the shell that started it
 * (`( … & )`, `setsid -f`, `nohup … &` from a shell that exited) — a person runs `avp accept` from their shell.
 */
export function runningUnderAgent(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const direct = agentFromEnv(env) ?? agentAncestor();
  if (direct) return direct;
  const origin = processOrigin(MARKERS.map(([name]) => name));
  if (origin.marker) return `an agent's marker: ${origin.marker}`;
  if (origin.detached) return `a process detached from the shell that started it: ${origin.detached}`;
  return undefined;
}

/** The names of the variables that mark an agent's environment. */
export const MARKER_NAMES = MARKERS.map(([name]) => name);
