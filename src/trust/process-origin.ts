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
 * Why a process looks detached, judged on itself and its two nearest ancestors only — where an escape leaves its
 * trace: it leads its own session (`setsid avp accept`); one of them left its session without being its leader (it
 * was started in the background and its parent exited: `( avp accept & )`, adopted by init or a sub-reaper); or the
 * session leader among them was itself handed to init (`setsid -f sh -c 'avp accept'`). A terminal gives the command
 * a shell as session leader with a live parent (the terminal, sshd, tmux). Links further up are not judged: a test
 * runner or a CI service may itself have been started in the background long ago (or outside this process namespace,
 * with no session at all), which says nothing about who typed `avp accept`.
 */
function detachedReason(self: ChainLink, chain: ChainLink[]): string | undefined {
  if (self.sid === self.pid) return 'it leads its own session (started with setsid)';
  const byPid = new Map(chain.map((c) => [c.pid, c]));
  for (const c of chain.slice(0, 3)) {
    if (c.ppid === 0) return undefined; // its parent is outside this process namespace (`docker exec`): no evidence
    const parent = byPid.get(c.ppid) ?? link(c.ppid);
    if (c.pid === c.sid) {
      if (isReaper(c.ppid, byPid)) return `its shell, process ${c.pid} (${c.name}), was detached and handed to init`;
      return undefined; // the session's leader, with a live parent: a shell in a terminal
    }
    if (isReaper(c.ppid, byPid)) return `process ${c.pid} (${c.name}) was detached and handed to init`;
    if (parent && parent.sid !== c.sid)
      return `process ${c.pid} (${c.name}) left its session without leading it: it was detached from its shell`;
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
