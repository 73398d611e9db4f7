/**
 * Ctrl-C, SIGTERM and SIGHUP on `avp check` and `avp hook` leave no judge process behind, with real signals sent to
 * the compiled binary: the judges (a script validator, a fake `claude` CLI) start grandchildren — one in the judge's
 * process group, one that left it with `setsid` — and write their pids; every one must be gone after the signal.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, project, sh, type Project } from './hook-support.ts';
import { tempDir } from '../support/run-avp.ts';

/** A judge that records its pid and two grandchildren's (one escaping the process group), then waits forever. */
const SPAWNER = (pids: string) =>
  sh(
    `cat >/dev/null
echo $$ >> ${pids}
sleep 300 &
echo $! >> ${pids}
setsid sleep 300 &
echo $! >> ${pids}
wait`,
  );

/** Alive and not a zombie (the container's init may never reap what is orphaned). */
function alive(pid: number): boolean {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor<T>(what: string, fn: () => T | undefined, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** The pids written to `file` once `count` of them are there. */
const pidsIn = (file: string, count: number) => () => {
  if (!existsSync(file)) return undefined;
  const pids = readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  return pids.length >= count ? pids : undefined;
};

/** Starts the binary, waits for the judges' pids, sends `signal`, returns exit code, stderr and survivors. */
async function interrupt(
  p: Project,
  args: string[],
  signal: NodeJS.Signals,
  opts: { pids: string; count: number; stdin?: string; env?: Record<string, string> },
) {
  const env = { PATH: '/usr/bin:/bin', HOME: p.home, AVP_HOME: join(p.home, '.avp'), NO_COLOR: '1', ...opts.env };
  const proc = Bun.spawn([BIN, ...args], {
    cwd: p.root,
    env,
    stdin: opts.stdin === undefined ? 'ignore' : new Blob([opts.stdin]),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const pids = await waitFor('the judges to start', pidsIn(opts.pids, opts.count)).catch((e) => {
    proc.kill('SIGKILL');
    throw e;
  });
  expect(pids.every(alive)).toBe(true);
  proc.kill(signal);
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  // Generous: the kill is immediate, the machine may be slow.
  const survivors = await waitFor(
    'the processes to go',
    () => {
      const left = pids.filter(alive);
      return left.length ? undefined : left;
    },
    5000,
  ).catch(() => pids.filter(alive));
  for (const pid of survivors) process.kill(pid, 'SIGKILL');
  return { code, stderr, survivors };
}

/** `avp check notes.txt`, killed (and failing the test) if it has not answered in 60 s. */
async function checkBounded(p: Project) {
  const proc = Bun.spawn([BIN, 'check', 'notes.txt', '--event', 'PostToolUse'], {
    cwd: p.root,
    env: { PATH: '/usr/bin:/bin', HOME: p.home, AVP_HOME: join(p.home, '.avp') },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let hung = false;
  const guard = setTimeout(() => {
    hung = true;
    proc.kill('SIGKILL');
  }, 60_000);
  const [code, stdout] = await Promise.all([proc.exited, new Response(proc.stdout).text()]);
  clearTimeout(guard);
  expect(hung).toBe(false);
  return { code, stdout };
}

/** A project with two script validators that spawn and wait, and a changed file for `avp check`. */
function spawning(): { p: Project; pids: string } {
  const p = project();
  const pids = join(tempDir('avp-signal-pids-'), 'pids');
  for (const name of ['spawn-a', 'spawn-b'])
    p.validator(name, { match: { files: ['**/*.txt'] }, timeout: 600 }, SPAWNER(pids));
  p.write('notes.txt', 'hello\n');
  return { p, pids };
}

describe('signals: no judge outlives avp', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    test(`avp check on ${signal}: every judge and grandchild (setsid too) is killed, exit ${code}`, async () => {
      const { p, pids } = spawning();
      const r = await interrupt(p, ['check', 'notes.txt', '--event', 'PostToolUse'], signal, { pids, count: 6 });
      expect(r.survivors).toEqual([]);
      expect(r.code).toBe(code);
      expect(r.stderr).toContain(`${signal}: stopped 2 running validator processes`);
    });
  }

  test('avp hook on SIGTERM (the agent cancelling it): the claude sub-agent and its children are killed', async () => {
    const p = project();
    const dir = tempDir('avp-signal-pids-');
    const pids = join(dir, 'pids');
    p.validator('llm-review', { trigger: 'PostToolUse', match: { tools: ['Write'] }, timeout: 600 });
    writeFileSync(join(dir, 'claude'), SPAWNER(pids), { mode: 0o755 });
    await p.accept();
    const r = await interrupt(p, ['hook'], 'SIGTERM', {
      pids,
      count: 3,
      stdin: JSON.stringify(p.fixture('hook-input-PostToolUse-Write.json')),
      env: { CLAUDE_PROJECT_DIR: p.root, AVP_CLAUDE_BIN: join(dir, 'claude') },
    });
    expect(r.survivors).toEqual([]);
    expect(r.code).toBe(143);
  });

  test("a validator's timeout kills the grandchild that left the judge's process group", async () => {
    const p = project();
    const pids = join(tempDir('avp-signal-pids-'), 'pids');
    p.validator('slow', { match: { files: ['**/*.txt'] }, timeout: 2 }, SPAWNER(pids));
    p.write('notes.txt', 'hello\n');
    const { code, stdout: out } = await checkBounded(p);
    expect(code).toBe(1);
    expect(out).toContain('timed out after 2 s');
    const started = pidsIn(pids, 3)()!;
    const survivors = await waitFor(
      'the processes to go',
      () => {
        const left = started.filter(alive);
        return left.length ? undefined : left;
      },
      5000,
    ).catch(() => started.filter(alive));
    for (const pid of survivors) process.kill(pid, 'SIGKILL');
    expect(survivors).toEqual([]);
  });

  test('a judge that answered but left a setsid child holding its stdout does not hold avp', async () => {
    const p = project();
    const pids = join(tempDir('avp-signal-pids-'), 'pids');
    const answer = `cat >/dev/null; setsid sleep 300 & echo $! >> ${pids}; echo '{"passed":true,"violations":[],"summary":"ok"}'`;
    p.validator('leaves-daemon', { match: { files: ['**/*.txt'] } }, sh(answer));
    p.write('notes.txt', 'hello\n');
    const r = await checkBounded(p);
    for (const pid of pidsIn(pids, 1)() ?? []) if (alive(pid)) process.kill(pid, 'SIGKILL');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 validator run');
    expect(r.stdout).toContain('PASSED');
  });
});
