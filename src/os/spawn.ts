/**
 * Runs a judge process (a script validator, a `command` backend, the claude CLI) with its input on stdin and bounded
 * output. The child gets its own process group, and on a timeout its whole process tree is killed (a shell, a model
 * CLI and its children, even those that left the group): a judge that outlives the hook call would keep the agent
 * waiting or burn tokens for nothing. Running judges are registered with `signals.ts`, so Ctrl-C / SIGTERM / SIGHUP
 * on avp kill them too.
 */
import { killTree } from './process-tree.ts';
import { trackJudge } from './signals.ts';

export interface ProcessResult {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The last part of stderr, for error messages. */
  stderrTail: string;
  /** True when the signal aborted the run (timeout or budget). */
  aborted: boolean;
  /** True when stdout exceeded `maxStdout` (the process was killed). */
  overflow: boolean;
  /** The process could not be started (ENOENT, EACCES …). */
  spawnError?: NodeJS.ErrnoException;
}

const STDERR_TAIL = 2000;
/** How long the pipes may stay open after the judge exited (output still in flight) before they are closed. */
const PIPE_GRACE_MS = 1000;

/** What is left of a judge's group once the judge itself has exited (its tree can no longer be read from it). */
function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Spawns `argv`, writes `stdin`, collects stdout (capped) and the tail of stderr; kills the process group on abort.
 * `node:child_process` is loaded here, at the first spawn, not with the module: a hook call whose only matched
 * validator is an in-process catalog script never spawns, and the import alone costs ~1 ms of CPU.
 */
export async function runProcess(opts: {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: string;
  signal: AbortSignal;
  maxStdout?: number;
}): Promise<ProcessResult> {
  const maxStdout = opts.maxStdout ?? 4 * 1024 * 1024;
  const { spawn } = await import('node:child_process');
  return new Promise((resolvePromise) => {
    const [cmd, ...args] = opts.argv;
    const child = spawn(cmd!, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const untrack = child.pid ? trackJudge(child.pid) : () => {};
    let exited = false;
    // While the judge runs its tree can be read from it; after it exited, only its group is left to kill.
    const kill = () => (exited || !child.pid ? killGroup(child.pid) : killTree(child.pid));
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let aborted = false;
    let overflow = false;
    let spawnError: NodeJS.ErrnoException | undefined;
    let settled = false;
    const onAbort = () => {
      aborted = true;
      kill();
    };
    if (opts.signal.aborted) onAbort();
    else opts.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxStdout) {
        if (!overflow) {
          overflow = true;
          kill();
        }
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    // A judge that exits without reading its stdin must not crash avp with EPIPE.
    child.stdin.on('error', () => {});
    child.on('error', (e: NodeJS.ErrnoException) => {
      spawnError = e;
      finish(null, null);
    });
    // A judge that leaves a background child holding its stdout open would keep 'close' from firing until the
    // timeout: once the judge itself has exited, whatever remains of its group goes.
    child.on('exit', (code, signal) => {
      exited = true;
      untrack();
      killGroup(child.pid);
      // Something that left the group (setsid) may still hold the pipes: the judge has answered, stop reading.
      setTimeout(() => {
        if (settled) return;
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code, signal);
      }, PIPE_GRACE_MS).unref();
    });
    child.on('close', (code, signal) => finish(code, signal));

    function finish(code: number | null, signal: NodeJS.Signals | null) {
      if (settled) return;
      settled = true;
      opts.signal.removeEventListener('abort', onAbort);
      // Children the judge left behind in its group go with it.
      if (child.pid && !spawnError) killGroup(child.pid);
      untrack();
      resolvePromise({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderrTail: err.trim(),
        aborted,
        overflow,
        ...(spawnError ? { spawnError } : {}),
      });
    }
    child.stdin.end(opts.stdin);
  });
}

/** `…last lines of stderr` for an error message, or '' when the process said nothing. */
export function stderrNote(tail: string): string {
  if (!tail) return '';
  const lines = tail.split('\n').slice(-6).join('\n');
  return `\nstderr:\n${lines}`;
}
