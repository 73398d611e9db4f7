import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The compiled binary under test (`bun run build.ts` builds it, as `npm test` does; Bun adds `.exe` on Windows). */
export const AVP_BIN = resolve(import.meta.dir, '../../dist', process.platform === 'win32' ? 'avp.exe' : 'avp');

export interface AvpRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs `dist/avp` as a real process. `env` is added to a minimal environment (PATH, plus HOME/AVP_HOME pointing at
 * a throwaway directory unless given) so no real user configuration leaks into a test.
 */
export async function runAvp(
  args: string[],
  opts: { stdin?: string; cwd?: string; env?: Record<string, string>; timeoutMs?: number; bin?: string } = {},
): Promise<AvpRun> {
  const home = opts.env?.HOME ?? tempDir('avp-home-');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    AVP_HOME: join(home, '.avp'),
    NO_COLOR: '1',
    ...opts.env,
  };
  const started = performance.now();
  const proc = Bun.spawn([opts.bin ?? AVP_BIN, ...args], {
    cwd: opts.cwd,
    env,
    stdin: opts.stdin === undefined ? 'ignore' : new Blob([opts.stdin]),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
  const { stdout, stderr, code } = await outputOf(proc);
  clearTimeout(timer);
  return { code, stdout, stderr, ms: performance.now() - started };
}

/** A spawned process's whole stdout and stderr (as text) and its exit code, read together so neither pipe fills. */
export async function outputOf(proc: {
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  exited: Promise<number>;
}): Promise<{ stdout: string; stderr: string; code: number }> {
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, code };
}

const made: string[] = [];

/** A fresh temporary directory, removed when the test process exits. */
export function tempDir(prefix = 'avp-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
