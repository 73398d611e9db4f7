import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** What one command did. `output` is stdout and stderr interleaved as they arrived, bounded (head + tail). */
export interface ExecResult {
  command: string;
  code: number | null;
  signal: string | null;
  output: string;
  timedOut: boolean;
  ms: number;
  /**
   * Set when the program could not be found (exit 127, ENOENT, "command not found", a missing npm script): what is
   * missing, as a clause ("black is not installed", "package.json has no \"lint\" script").
   */
  notInstalled?: string;
}

const HEAD_BYTES = 64 * 1024;
const TAIL_BYTES = 448 * 1024;

/**
 * Runs `command` through `/bin/sh -c` in `cwd`, in its own process group so a timeout kills the whole tree (npm →
 * node → workers), not just the shell. Output is kept bounded: a chatty build cannot exhaust memory.
 */
export function runCommand(
  command: string,
  cwd: string,
  opts: { timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<ExecResult> {
  const started = performance.now();
  return new Promise((resolveRun) => {
    let head = '';
    let tail = '';
    let dropped = 0;
    const take = (chunk: Buffer) => {
      const s = chunk.toString('utf8');
      if (head.length < HEAD_BYTES) {
        const room = HEAD_BYTES - head.length;
        head += s.slice(0, room);
        if (s.length <= room) return;
        tail += s.slice(room);
      } else tail += s;
      if (tail.length > TAIL_BYTES) {
        dropped += tail.length - TAIL_BYTES;
        tail = tail.slice(tail.length - TAIL_BYTES);
      }
    };
    const env = { ...(opts.env ?? process.env), CI: '1', NO_COLOR: '1', FORCE_COLOR: '0', npm_config_yes: 'false' };
    let child;
    try {
      // One pipe for both streams (`exec 2>&1`) so the log shows them in the order they were written.
      child = spawn('/bin/sh', ['-c', `exec 2>&1\n${command}`], {
        cwd,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (e) {
      resolveRun({
        command,
        code: null,
        signal: null,
        output: String(e),
        timedOut: false,
        ms: elapsed(started),
        notInstalled: '/bin/sh could not be started',
      });
      return;
    }
    let timedOut = false;
    const killGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 2000).unref();
    }, opts.timeoutMs);
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.on('error', (e) => take(Buffer.from(String(e))));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Anything the group left behind (a server started by a test script) dies with the check.
      killGroup('SIGKILL');
      const output = dropped ? `${head}\n… [${dropped} bytes of output omitted] …\n${tail}` : head + tail;
      const result: ExecResult = { command, code, signal, output, timedOut, ms: elapsed(started) };
      const missing =
        code === 127 || /\bnot found\b|command not found|could not determine executable|Missing script/i.test(output)
          ? missingProgram(output, command, code)
          : undefined;
      if (missing) result.notInstalled = missing;
      resolveRun(result);
    });
  });
}

function elapsed(started: number): number {
  return Math.max(0, Math.round(performance.now() - started));
}

/** What a shell or npm said is missing (`sh: 1: black: not found`, `Missing script: "lint"`), as a clause. */
export function missingProgram(output: string, command: string, code: number | null): string | undefined {
  const script = /npm error Missing script: "?([^"\s]+)"?/.exec(output);
  if (script) return `package.json has no "${script[1]}" script`;
  const patterns = [
    /(?:^|\n)(?:\/bin\/)?(?:sh|bash|zsh|dash)(?::\s*\d+)?:\s*(?:line \d+:\s*)?([^\s:]+):\s*(?:command )?not found/,
    /(?:^|\n)([^\s:]+): command not found/,
  ];
  for (const re of patterns) {
    const m = re.exec(output);
    if (m) return `${m[1]} is not installed`;
  }
  if (/could not determine executable to run/.test(output))
    return `${npxPackage(command) ?? 'the npx package'} is not installed`;
  if (code === 127) return `${firstProgram(command) ?? command} is not installed`;
  return undefined;
}

function npxPackage(command: string): string | undefined {
  const words = command.trim().split(/\s+/);
  const i = words.indexOf('npx');
  return i < 0 ? undefined : words.slice(i + 1).find((w) => !w.startsWith('-'));
}

/** The program a command line starts with, skipping `VAR=value` assignments. */
function firstProgram(command: string): string | undefined {
  const words = command.trim().split(/\s+/);
  return words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
}

/**
 * Checks before running that the program of `command` exists, so "not installed" is reported plainly and npx never
 * falls back to downloading a package. Returns what is missing (a clause) or undefined when it resolves
 * (or when the command is too complex to judge: the shell's exit 127 catches those).
 */
export function findMissingProgram(command: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  if (/[|;&`$()<>]/.test(command)) return undefined;
  const words = command
    .trim()
    .split(/\s+/)
    .filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  const prog = words[0];
  if (!prog) return undefined;
  if (prog.includes('/')) {
    const p = isAbsolute(prog) ? prog : resolve(cwd, prog);
    return existsSync(p) ? undefined : `${prog} does not exist`;
  }
  if (!which(prog, cwd, env)) return `${prog} is not installed`;
  if (prog === 'npx') {
    const pkg = words.slice(1).find((w) => !w.startsWith('-'));
    if (pkg && !localBin(pkg, cwd) && !which(pkg, cwd, env))
      return `${pkg} is not installed (not in node_modules/.bin, and npx is not allowed to download it)`;
  }
  if (
    ['npm', 'pnpm', 'yarn', 'bun'].includes(prog) &&
    (words[1] === 'run' || words[1] === 'test' || words[1] === 't')
  ) {
    const script = words[1] === 'run' ? words[2] : 'test';
    const scripts = packageScripts(cwd);
    if (script && scripts && !(script in scripts)) return `package.json has no "${script}" script`;
  }
  return undefined;
}

function which(prog: string, cwd: string, env: NodeJS.ProcessEnv): boolean {
  return Bun.which(prog, { PATH: env.PATH ?? process.env.PATH ?? '', cwd }) !== null;
}

/** `node_modules/.bin/<name>` in `cwd` or an ancestor, as npx resolves it. */
export function localBin(name: string, cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const p = join(dir, 'node_modules', '.bin', name);
    if (existsSync(p)) return p;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The `scripts` of `<cwd>/package.json`, or undefined when there is none (or it is unreadable). */
export function packageScripts(cwd: string): Record<string, string> | undefined {
  try {
    const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
    return pkg && typeof pkg.scripts === 'object' && pkg.scripts ? pkg.scripts : {};
  } catch {
    return undefined;
  }
}
