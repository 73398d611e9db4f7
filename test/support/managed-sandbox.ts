/**
 * The sandbox of the `avp init --managed` tests: they must run as root and write to /etc, so each one works on a
 * private copy of /etc bound over the real one inside a private mount namespace — the machine's own /etc (and other
 * tests' agents) never see the managed files — and runs the agent's side as an ordinary user created for the test.
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../integration/hook-support.ts';

/** Root (for useradd, mount and /etc) on Linux, where `unshare -m` works: the managed tests skip otherwise. */
export const canUnshare =
  process.getuid?.() === 0 && process.platform === 'linux' && Bun.spawnSync(['unshare', '-m', 'true']).exitCode === 0;

export interface SandboxOptions {
  /** Folders removed from the /etc copy, so the test starts from "no admin file" whatever the machine has. */
  dropFromEtc: string[];
  /** Folders made in the project besides `.git` (which makes it a project root for avp). */
  projectDirs?: string[];
  /** A world-writable `marks` folder, where hooks run as the test's user leave a file to show they ran. */
  marks?: boolean;
}

export interface Sandbox {
  /** The temporary folder holding everything below; `withSandbox` removes it. */
  base: string;
  /** The copy of /etc that is /etc inside the namespace. */
  etc: string;
  root: string;
  home: string;
  marks?: string;
}

export type MarkedSandbox = Sandbox & { marks: string };

export interface NamespaceOptions {
  /** Run as this user (through setpriv) with a bare environment, as an agent run by that user would; else as root. */
  user?: string;
  /** Variables added to that user's environment (besides PATH and HOME). */
  env?: Record<string, string>;
  stdin?: string;
}

export interface NamespaceRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function managedSandbox(prefix: string, opts: SandboxOptions & { marks: true }): MarkedSandbox;
export function managedSandbox(prefix: string, opts: SandboxOptions): Sandbox;
/** A copy of /etc, a project and a home under a new folder in /tmp, all readable by the test's user. */
export function managedSandbox(prefix: string, opts: SandboxOptions): Sandbox {
  const base = mkdtempSync(join(tmpdir(), prefix));
  // mkdtemp makes it 0700: the test's user must reach the project and home below it.
  chmodSync(base, 0o755);
  const etc = join(base, 'etc');
  cpSync('/etc', etc, { recursive: true, dereference: false, verbatimSymlinks: true });
  for (const dir of opts.dropFromEtc) rmSync(join(etc, dir), { recursive: true, force: true });
  const root = join(base, 'project');
  const home = join(base, 'home');
  for (const dir of ['.git', ...(opts.projectDirs ?? [])]) mkdirSync(join(root, dir), { recursive: true });
  mkdirSync(home, { recursive: true });
  if (!opts.marks) return { base, etc, root, home };
  const marks = join(base, 'marks');
  mkdirSync(marks, { mode: 0o777 });
  // The umask narrows mkdir's mode; any user's hook must be able to write here.
  chmodSync(marks, 0o777);
  return { base, etc, root, home, marks };
}

/** A value as one sh word (the user's variables are written into the command line: `env -i` drops inherited ones). */
const shellWord = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** The argv and spawn options of `script` (sh, with $AVP the binary under test) run in the namespace. */
function namespaceCommand(s: Sandbox, script: string, opts: NamespaceOptions) {
  let body = 'exec sh -c "$SCRIPT"';
  if (opts.user !== undefined) {
    const vars = Object.entries({ PATH: '/usr/bin:/bin', HOME: s.home, ...opts.env })
      .map(([name, value]) => `${name}=${shellWord(value)}`)
      .join(' ');
    body = `exec setpriv --reuid=${opts.user} --regid=${opts.user} --init-groups env -i ${vars} sh -c "$SCRIPT"`;
  }
  const argv = ['unshare', '-m', '--propagation', 'private', 'sh', '-c', `mount --bind "$ETC_COPY" /etc && ${body}`];
  return {
    argv,
    options: {
      cwd: s.root,
      // The script travels in the environment, not the command line, so it needs no second quoting.
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', ETC_COPY: s.etc, SCRIPT: script, AVP: BIN },
      stdin: opts.stdin === undefined ? ('ignore' as const) : new Blob([opts.stdin]),
    },
  };
}

/** `script` in the namespace, waiting for it (the test process does nothing else meanwhile). */
export function inNamespace(s: Sandbox, script: string, opts: NamespaceOptions = {}): NamespaceRun {
  const { argv, options } = namespaceCommand(s, script, opts);
  const r = Bun.spawnSync(argv, options);
  return { code: r.exitCode ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/** `script` in the namespace without blocking the test process: a loopback server in it must answer meanwhile. */
export async function inNamespaceAsync(s: Sandbox, script: string, opts: NamespaceOptions = {}): Promise<NamespaceRun> {
  const { argv, options } = namespaceCommand(s, script, opts);
  const p = Bun.spawn(argv, { ...options, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { code, stdout, stderr };
}

/** `fn(sandbox)`, then the sandbox removed — after the promise settles when `fn` is async. */
export function withSandbox<S extends Sandbox, T>(sandbox: S, fn: (sandbox: S) => T): T {
  const remove = () => rmSync(sandbox.base, { recursive: true, force: true });
  let result: T;
  try {
    result = fn(sandbox);
  } catch (error) {
    remove();
    throw error;
  }
  if (result instanceof Promise) return result.finally(remove) as T;
  remove();
  return result;
}
