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
 * the claim says (a recycled pid is not it), the same executable as this process, and a child of the same parent (the
 * agent starts both hooks itself; a process the agent's shell started is a child of that shell). Where the process
 * table cannot say, the claim is not honoured: both answer, which costs a second judgement, never a silenced one.
 */
import { execFileSync } from 'node:child_process';
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

/** What the process table says of `pid`: its parent, its start time (clock ticks since boot) and its executable. */
interface ProcessFacts {
  ppid: number;
  start: string;
  exe: string;
}

function factsOf(pid: number | 'self'): ProcessFacts | undefined {
  try {
    if (process.platform === 'linux') {
      // "pid (comm) state ppid … starttime(22nd) …": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return { ppid: Number(fields[1]), start: fields[19] ?? '', exe: readlinkSync(`/proc/${pid}/exe`) };
    }
    const id = String(pid === 'self' ? process.pid : pid);
    const out = execFileSync('ps', ['-o', 'ppid=,lstart=,comm=', '-p', id], { encoding: 'utf8', timeout: 2000 });
    const m = /^\s*(\d+)\s+(\S+\s+\S+\s+\d+\s+[\d:]+\s+\d+)\s+(.+?)\s*$/.exec(out);
    return m ? { ppid: Number(m[1]), start: m[2]!, exe: m[3]! } : undefined;
  } catch {
    return undefined;
  }
}

/** The claim this process writes: its pid and start time. */
function claimText(): string {
  return `${process.pid} ${factsOf('self')?.start ?? ''}`;
}

/** True when the claim at `file` is held by this call's twin: another live avp, same parent, as started (not stale). */
function heldElsewhere(file: string): boolean {
  try {
    if (Date.now() - statSync(file).mtimeMs > STALE_MS) return false;
    const [pidText, start] = readFileSync(file, 'utf8').trim().split(' ');
    const pid = Number(pidText);
    if (!alive(pid) || !start) return false;
    const [them, me] = [factsOf(pid), factsOf('self')];
    return !!them && !!me && them.start === start && them.ppid === process.ppid && them.exe === me.exe;
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
