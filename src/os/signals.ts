/**
 * Ctrl-C, SIGTERM and SIGHUP never leave a judge behind. Judges run in process groups of their own (so a timeout can
 * kill a whole judge), which also means the terminal's Ctrl-C does not reach them and a SIGTERM to avp alone would
 * orphan them: a `claude` sub-agent would keep running and spending tokens. Every running judge is registered here;
 * on one of these signals avp kills each judge's process tree, says so on stderr and exits 128 + the signal number
 * (130, 143, 129), as a shell reports a process the signal ended.
 */
import { killTree } from './process-tree.ts';

const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

/** Leaders (pid = process group id) of the judge processes running now. */
const running = new Set<number>();
let installed = false;

/** Registers a judge process; the returned function unregisters it once it has ended. */
export function trackJudge(pid: number): () => void {
  exitOnSignals();
  running.add(pid);
  return () => running.delete(pid);
}

/** Kills the process tree of every running judge. Returns how many judges were running. */
export function killAllJudges(): number {
  const pids = [...running];
  running.clear();
  for (const pid of pids) killTree(pid);
  return pids.length;
}

function onSignal(signal: keyof typeof SIGNALS): void {
  const killed = killAllJudges();
  if (killed)
    process.stderr.write(
      `avp: ${signal}: stopped ${killed} running validator process${killed === 1 ? '' : 'es'} and what they started\n`,
    );
  process.exit(128 + SIGNALS[signal]);
}

/**
 * Installs the handlers (once per process). Commands that run judges call it at their start so the exit code is the
 * same whenever the signal comes; `trackJudge` installs it anyway, so no command that spawns a judge can forget.
 */
export function exitOnSignals(): void {
  if (installed) return;
  installed = true;
  for (const signal of Object.keys(SIGNALS) as Array<keyof typeof SIGNALS>) process.on(signal, () => onSignal(signal));
}
