/**
 * Where an acceptance comes from: this process's chain of ancestors, its session and terminal, and the agent markers
 * in its ancestors' start-up environments. Used twice: to refuse an `avp accept` that detached itself from the shell
 * that started it (the ways an agent escapes the ancestry check), and to record who accepted in the acceptance log.
 *
 * Linux only (`/proc`); elsewhere the origin is the pid, the parent pid and whether stdin is a terminal.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';

/** One process of the chain, from this one up. */
export interface ChainLink {
  pid: number;
  name: string;
  /** The first words of its command line (bounded). */
  args: string[];
  ppid: number;
  sid: number;
}

export interface ProcessOrigin {
  pid: number;
  ppid: number;
  /** This process's session id (Linux). */
  sid?: number;
  /** The controlling terminal (`/dev/pts/3`), null when there is none; undefined when unknown. */
  tty?: string | null;
  stdinTty: boolean;
  chain: ChainLink[];
  /** Why this process looks detached from the shell that started it (refused for acceptance), if it does. */
  detached?: string;
  /** An agent's marker in the start-up environment of this process or an ancestor (`CLAUDECODE in process 812`). */
  marker?: string;
}

function link(pid: number): (ChainLink & { ttyNr: number }) | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 4);
    return {
      pid,
      name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      args: args.map((a) => (a.length > 200 ? `${a.slice(0, 200)}…` : a)),
      ppid: Number(rest[1]),
      sid: Number(rest[3]),
      ttyNr: Number(rest[4]),
    };
  } catch {
    return undefined;
  }
}

/**
 * A process orphans are handed to: init, or a user's service manager acting as sub-reaper. (A parent 0 is outside
 * the process namespace — `docker exec`'s shell — and no sign of detaching.)
 */
function isReaper(pid: number, chain: Map<number, ChainLink>): boolean {
  if (pid === 1) return true;
  if (pid === 0) return false;
  const p = chain.get(pid) ?? link(pid);
  return !!p && p.name === 'systemd' && p.args.includes('--user');
}

/**
 * Why a process looks detached: it leads its own session (`setsid`), its session's leader is not its ancestor (it
 * was started in the background and its parent exited), or a process between it and its session leader was handed
 * to init (a detached shell that runs it). A terminal always gives the command a shell as session leader, alive and
 * with a live parent (the terminal, sshd, tmux).
 */
function detachedReason(self: ChainLink, chain: ChainLink[]): string | undefined {
  if (self.sid === self.pid) return 'it leads its own session (started with setsid)';
  if (self.ppid === 0 || self.sid === 0) return 'its parent is outside its process namespace';
  const byPid = new Map(chain.map((c) => [c.pid, c]));
  const leader = chain.findIndex((c) => c.pid === self.sid);
  if (leader < 0) return `its session leader (process ${self.sid}) is not its ancestor: it was detached from its shell`;
  for (const c of chain.slice(0, leader + 1)) {
    if (isReaper(c.ppid, byPid)) return `process ${c.pid} (${c.name}) of its shell was detached and handed to init`;
  }
  return undefined;
}

function markerIn(pid: number, names: string[]): string | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return undefined; // another user's process (root's sshd): not readable, and not the agent's
  }
  for (const entry of text.split('\0')) {
    const eq = entry.indexOf('=');
    const name = entry.slice(0, eq);
    if (eq > 0 && entry.length > eq + 1 && names.includes(name)) return name;
  }
  return undefined;
}

function ttyName(): string | null | undefined {
  try {
    const fd0 = readlinkSync('/proc/self/fd/0');
    if (/^\/dev\/(pts\/|tty)/.test(fd0)) return fd0;
  } catch {
    // below
  }
  return undefined;
}

/**
 * The origin of this process. `markerNames`: the environment variables that mark an agent (looked up in every
 * ancestor's start-up environment: an agent can drop them from its own command, not from the processes above it).
 */
export function processOrigin(markerNames: string[] = []): ProcessOrigin {
  const stdinTty = !!process.stdin.isTTY;
  const self = process.platform === 'linux' ? link(process.pid) : undefined;
  if (!self) return { pid: process.pid, ppid: process.ppid, stdinTty, chain: [] };
  const chain: ChainLink[] = [];
  for (let current = self.ppid, depth = 0; current > 1 && depth < 64; depth++) {
    const c = link(current);
    if (!c) break;
    chain.push({ pid: c.pid, name: c.name, args: c.args, ppid: c.ppid, sid: c.sid });
    current = c.ppid;
  }
  let marker: string | undefined;
  for (const c of [self, ...chain]) {
    const hit = markerIn(c.pid, markerNames);
    if (hit) {
      marker = `${hit} in the environment of process ${c.pid} (${basename(c.args[0] ?? c.name)})`;
      break;
    }
  }
  const origin: ProcessOrigin = {
    pid: self.pid,
    ppid: self.ppid,
    sid: self.sid,
    tty: self.ttyNr === 0 ? null : (ttyName() ?? `tty ${self.ttyNr}`),
    stdinTty,
    chain,
  };
  const detached = detachedReason(self, [self, ...chain]);
  if (detached) origin.detached = detached;
  if (marker) origin.marker = marker;
  return origin;
}
