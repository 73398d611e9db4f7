/**
 * One hook event delivered twice at once. Claude Code runs a plugin's hooks and the settings' hooks side by side and
 * does not merge identical commands across the two (measured: test/e2e/claude-plugin.test.ts), so with the avp plugin
 * in a project set up by `avp init`, every event would reach avp twice and every judge would be asked twice. Codex
 * does the same with its plugin's hooks and `.codex/hooks.json` (measured: test/e2e/codex-plugin.test.ts).
 *
 * The first process to see an input claims it (a file named by the input's hash, created exclusively); a process
 * that finds the claim held by its twin answers `{}`: both agents combine parallel hooks' answers, so the claimant's
 * block or deny still stands. A claim is released when its process answers, so the same input sent again later is
 * judged again. Cost: a hash of stdin, one exclusive create and one unlink.
 *
 * The claim file is under `$AVP_HOME`, which the agent's shell can write: a claim planted there for an input the agent
 * can predict must not silence avp. So a claim holds only when its process is this call's twin — alive, started when
 * the claim says (a recycled pid is not it), the same executable as this process, and started by the same agent: a
 * child of the same parent, or, where the agent runs each hook through `sh -c` (Claude Code does, measured: the shell
 * stays between agent and avp), a child of a sibling shell, started within a moment of this process. A process the
 * agent's own shell started long before is not a twin. Where the process table cannot say, the claim is not
 * honoured: both answer, which costs a second judgement, never a silenced one.
 */
import { mkdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { avpHome } from '../paths.ts';

/** Past any hook timeout: a claim this old belongs to a process that is gone, whatever its pid now names. */
const STALE_MS = 15 * 60_000;

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What the process table says of a process. */
interface ProcessFacts {
  ppid: number;
  /** As recorded in the claim: clock ticks since boot (Linux) or `ps`' start date. */
  start: string;
  /** Start time in seconds, comparable between two processes of this machine. */
  startSec: number;
  exe: string;
  /** Its command name (`sh`, `dash`, `avp`). */
  comm: string;
}

/** The agents start a hook as `sh -c <command>`; a shell that does not exec leaves itself between agent and avp. */
const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ksh', 'ash']);
/** Two hooks of one event start within milliseconds; a process older than this by far is not the twin. */
const TWIN_WINDOW_SEC = 2;

function factsOf(pid: number | 'self'): ProcessFacts | undefined {
  try {
    if (process.platform === 'linux') {
      // "pid (comm) state ppid … starttime(22nd) …": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      const start = fields[19] ?? '';
      // Clock ticks are 100 a second on every Linux avp runs on (USER_HZ).
      return {
        ppid: Number(fields[1]),
        start,
        startSec: Number(start) / 100,
        exe: readlinkSync(`/proc/${pid}/exe`),
        comm: stat.slice(stat.indexOf('(') + 1, close),
      };
    }
    const id = String(pid === 'self' ? process.pid : pid);
    // Bun.spawnSync, not node:child_process: this module loads on every hook call, and that import alone costs CPU.
    const ps = Bun.spawnSync(['ps', '-o', 'ppid=,lstart=,comm=', '-p', id], { stderr: 'ignore', timeout: 2000 });
    if (ps.exitCode !== 0) return undefined;
    const out = ps.stdout.toString();
    const m = /^\s*(\d+)\s+(\S+\s+\S+\s+\d+\s+[\d:]+\s+\d+)\s+(.+?)\s*$/.exec(out);
    if (!m) return undefined;
    const comm = m[3]!.split('/').pop()!.replace(/^-/, '');
    return {
      ppid: Number(m[1]),
      start: m[2]!.replace(/\s+/g, '_'),
      startSec: Date.parse(m[2]!) / 1000,
      exe: m[3]!,
      comm,
    };
  } catch {
    return undefined;
  }
}

/** The claim this process writes: its pid and start time. */
function claimText(): string {
  return `${process.pid} ${factsOf('self')?.start ?? ''}`;
}

/**
 * True when `them` is this process's twin: the same avp executable, started by the same agent — a child of the same
 * parent, or (the agent ran each hook through its own `sh -c`) a child of a shell whose parent is the same as the
 * parent of this process's shell, started within a moment of this process.
 */
function isTwin(them: ProcessFacts, me: ProcessFacts): boolean {
  if (them.exe !== me.exe) return false;
  if (them.ppid === me.ppid) return true;
  if (Math.abs(them.startSec - me.startSec) > TWIN_WINDOW_SEC) return false;
  const [theirShell, myShell] = [factsOf(them.ppid), factsOf(me.ppid)];
  if (!theirShell || !myShell || !SHELLS.has(theirShell.comm) || !SHELLS.has(myShell.comm)) return false;
  return theirShell.ppid === myShell.ppid && myShell.ppid > 1;
}

/** True when the claim at `file` is held by this call's twin (see `isTwin`), alive and as it started (not stale). */
function heldElsewhere(file: string): boolean {
  try {
    if (Date.now() - statSync(file).mtimeMs > STALE_MS) return false;
    const [pidText, start] = readFileSync(file, 'utf8').trim().split(' ');
    const pid = Number(pidText);
    if (!alive(pid) || !start) return false;
    const [them, me] = [factsOf(pid), factsOf('self')];
    return !!them && !!me && them.start === start && isTwin(them, me);
  } catch {
    return false;
  }
}

/**
 * Claims the hook input `raw`. Returns the release function when this process should answer, or undefined when an
 * identical input is being answered by another avp process right now. Never throws: when the claim cannot be
 * written (a read-only home), this process answers as if there were no claims.
 */
export function claimCall(raw: string, env: NodeJS.ProcessEnv = process.env): (() => void) | undefined {
  const dir = join(avpHome(env), 'cache', 'hook-calls');
  const file = join(dir, `${Bun.hash(raw).toString(36)}-${raw.length}`);
  const release = () => rmSync(file, { force: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, claimText(), { flag: 'wx' });
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return () => {};
      if (heldElsewhere(file)) return undefined;
      rmSync(file, { force: true }); // a claim left by a process that died: take it over
    }
  }
  // Another process took the stale claim over between our two tries: it answers.
  return undefined;
}
