/**
 * Killing a judge's whole process tree. A judge runs in its own process group, but what it starts may leave the group
 * (`setsid`, a daemonizing CLI, a `claude` sub-agent's own children): killing the group alone would leave those
 * running — spending tokens, holding files — after avp has answered or been interrupted. So the tree is read from
 * the process table too: on Linux from `/proc`, elsewhere from `ps`.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** pid → parent pid of every process visible to this user. */
function parentTable(): Map<number, number> {
  const table = new Map<number, number>();
  if (process.platform === 'linux') {
    let names: string[] = [];
    try {
      names = readdirSync('/proc');
    } catch {
      return table;
    }
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue;
      try {
        // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        table.set(Number(name), ppid);
      } catch {
        // exited while the table was read
      }
    }
    return table;
  }
  try {
    // Bun.spawnSync, not node:child_process: this module loads with every judge run, and that import costs ~1 ms.
    const ps = Bun.spawnSync(['ps', '-A', '-o', 'pid=,ppid='], { stdout: 'pipe', stderr: 'ignore', timeout: 5000 });
    if (ps.exitCode !== 0) throw new Error('ps failed');
    for (const line of ps.stdout.toString().split('\n')) {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number);
      if (pid && ppid !== undefined && !Number.isNaN(ppid)) table.set(pid, ppid);
    }
  } catch {
    // no ps: the process group kill still applies
  }
  return table;
}

/** Every process below `pid` (children, grandchildren, …), whatever their process group or session. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const [child, parent] of parentTable()) {
    const list = children.get(parent);
    if (list) list.push(child);
    else children.set(parent, [child]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (found.includes(child) || child === pid) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function send(target: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(target, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGKILLs the process group led by `pid` and every descendant of `pid`. The tree is frozen first (SIGSTOP), re-read
 * until no new process appears, so nothing forks its way out between reading the table and killing.
 */
export function killTree(pid: number): void {
  // Windows has no process groups and no SIGSTOP: taskkill /T ends the process and every process it started.
  if (process.platform === 'win32') return killTreeWindows(pid);
  const stopped = new Set<number>();
  send(-pid, 'SIGSTOP') || send(pid, 'SIGSTOP');
  for (let round = 0; round < 4; round++) {
    const fresh = descendants(pid).filter((p) => !stopped.has(p));
    if (!fresh.length) break;
    for (const p of fresh) {
      stopped.add(p);
      send(p, 'SIGSTOP');
    }
  }
  if (!send(-pid, 'SIGKILL')) send(pid, 'SIGKILL');
  for (const p of stopped) send(p, 'SIGKILL');
}

/** The command that ends `pid` and its descendants on Windows (exported for the tests of its arguments). */
export function windowsKillCommand(pid: number): [string, string[]] {
  return ['taskkill', ['/PID', String(pid), '/T', '/F']];
}

function killTreeWindows(pid: number): void {
  const [cmd, args] = windowsKillCommand(pid);
  try {
    const r = Bun.spawnSync([cmd, ...args], { stdout: 'ignore', stderr: 'ignore', timeout: 5000, windowsHide: true });
    if (r.exitCode !== 0) throw new Error('taskkill failed');
  } catch {
    send(pid, 'SIGKILL'); // taskkill missing or the process already gone: at least the judge itself
  }
}
