/**
 * Phase validation: wall time of a full `avp phase` run against the sum of its checks run one after another,
 * measured in the same run. The checks' own times (execution_time_ms of each) add up to what a sequential runner
 * would take; the phase overlaps the two reviews with build and tests, so the LLM's latency mostly disappears.
 * Real tools (prettier, tsc, node --test) on the ts-app fixture; the judge is a loopback OpenAI-compatible server
 * answering after a fixed delay standing in for model latency.
 *
 *   node_modules/.bin/bun bench/phase.ts [--runs N]
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startOpenAIServer } from '../test/support/openai-server.ts';

const REPO = resolve(import.meta.dir, '..');
const AVP = join(REPO, 'dist/avp');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;

const work = mkdtempSync(join(tmpdir(), 'avp-bench-phase-'));
const home = join(work, 'home');
const app = join(work, 'ts-app');
cpSync(join(REPO, 'test/fixtures/phase/projects/ts-app'), app, { recursive: true });
symlinkSync(join(REPO, 'node_modules'), join(app, 'node_modules'));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cleanPath = (process.env.PATH ?? '')
  .split(':')
  .filter((p) => !p.includes('node_modules'))
  .join(':');

async function phaseOnce(env: Record<string, string>): Promise<{ wall: number; out: any }> {
  const request = JSON.stringify({ working_directory: app, changed_files: ['src/api.ts', 'tests/api.test.ts'] });
  const t0 = performance.now();
  const proc = Bun.spawn([AVP, 'phase', '--quiet'], {
    stdin: new Blob([request]),
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PATH: cleanPath, HOME: home, AVP_HOME: join(home, '.avp'), AVP_NO_CACHE: '1', ...env },
  });
  const stdout = await new Response(proc.stdout).text();
  await proc.exited;
  const wall = performance.now() - t0;
  const out = JSON.parse(stdout);
  if (out.status !== 'pass') throw new Error(`phase failed: ${stdout}`);
  return { wall, out };
}

console.log('## avp phase: concurrent run vs its checks one after another (same run)');
console.log(`fixture: ts-app (prettier --check, tsc lint, tsc build, node --test), ${RUNS} runs each, medians\n`);
console.log('judge latency | phase wall (process) | phase execution_time_ms | sum of check times | sum / phase');
for (const delayMs of [0, 1500, 4000]) {
  const server = await startOpenAIServer(() => ({
    text: JSON.stringify({ passed: true, violations: [], summary: 'ok' }),
    delayMs,
  }));
  const env = { AVP_JUDGE: 'openai', OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'bench', AVP_MODEL: 'bench-model' };
  await phaseOnce(env); // warm the file cache and tsc
  const walls: number[] = [];
  const totals: number[] = [];
  const sums: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const asked = server.requests.length;
    const { wall, out } = await phaseOnce(env);
    // Both reviews asked the delayed judge: a phase that skipped them would show no latency to hide.
    if (server.requests.length - asked < 2)
      throw new Error(`the reviews sent ${server.requests.length - asked} request(s) to the judge, not 2`);
    walls.push(wall);
    totals.push(out.execution_time_ms);
    sums.push(Object.values(out.checks).reduce((s: number, c: any) => s + c.execution_time_ms, 0));
  }
  await server.close();
  const [w, t, s] = [median(walls), median(totals), median(sums)];
  console.log(
    `${String(delayMs).padStart(10)} ms | ${w.toFixed(0).padStart(17)} ms | ${String(t).padStart(20)} ms | ${String(s).padStart(15)} ms | ${(s / t).toFixed(2)}x`,
  );
}

// What invalid input costs: process start + schema validation only (Example 4).
const inv: number[] = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  const p = Bun.spawn([AVP, 'phase', '--quiet'], {
    stdin: new Blob(['{"changed_files":[]}']),
    stdout: 'pipe',
    stderr: 'ignore',
    env: { PATH: cleanPath, HOME: home },
  });
  const [stdout, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  inv.push(performance.now() - t0);
  // Refused by the validation the row names (exit 1, the missing parameter said), not failed some other way.
  if (code !== 1 || !stdout.includes("missing required parameter 'working_directory'"))
    throw new Error(`invalid input was not refused by validation (${code}): ${stdout.slice(0, 300)}`);
}
console.log(`\ninvalid input (Example 4, start + validation only): ${median(inv).toFixed(0)} ms median of 5`);
rmSync(work, { recursive: true, force: true });
