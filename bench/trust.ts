/**
 * The accepted-state check on every hook call: `hookTrustView` (walk + stat of every control file, read of the two
 * records) beside warm discovery of the same validators, for 10, 100 and 500 validators; and the cost when one
 * file is pending (it is hashed once, then remembered as announced).
 *
 *   view (clean)   = nothing pending: live files are read where they are
 *   view (pending) = one validator edited since acceptance: the scope runs on its accepted copy
 *   discover       = warm discovery (parse cache valid), the step the view sits before
 *
 * Medians over repeated runs, measured side by side in this process.
 * Run: node_modules/.bin/bun bench/trust.ts
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discover } from '../src/format/discover.ts';
import { acceptPending, trustStates } from '../src/trust/accept.ts';
import { hookTrustView } from '../src/trust/hook-view.ts';

const SIZES = [10, 100, 500];
const ROUNDS = 200;
const root = mkdtempSync(join(tmpdir(), 'avp-bench-trust-'));

function makeProject(n: number): { project: string; env: NodeJS.ProcessEnv } {
  const project = join(root, `p${n}`);
  const env = { AVP_HOME: join(root, `home${n}`), HOME: join(root, `home${n}`) };
  for (let i = 0; i < n; i++) {
    const dir = join(project, '.avp/validators', `v${i}`);
    mkdirSync(join(dir, 'references'), { recursive: true });
    const fm = `---\nname: v${i}\ndescription: Bench validator ${i}.\nseverity: error\ntrigger: PostToolUse\n---\n`;
    writeFileSync(join(dir, 'VALIDATOR.md'), `${fm}Check rule ${i}.\n`);
    writeFileSync(join(dir, 'references/notes.md'), `notes ${i}\n`);
  }
  writeFileSync(join(project, 'avp.config.json'), '{"concurrency": 4}\n');
  // Old stats, so acceptance records them as settled (files younger than 2 s are hashed on every look).
  const old = new Date(Date.now() - 60_000);
  for (let i = 0; i < n; i++) utimesSync(join(project, '.avp/validators', `v${i}`, 'VALIDATOR.md'), old, old);
  return { project, env };
}

function median(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

async function medianAsync(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

console.log('validators | view clean (ms) | view pending (ms) | warm discover (ms) | clean view / discover');
for (const n of SIZES) {
  const { project, env } = makeProject(n);
  await new Promise((r) => setTimeout(r, 2100));
  acceptPending(trustStates(project, env), env);
  await discover({ projectRoot: project, env });
  const clean = median(() => hookTrustView(project, env, 'PostToolUse'));
  const disc = await medianAsync(() => discover({ projectRoot: project, env }));
  appendFileSync(join(project, '.avp/validators/v0/VALIDATOR.md'), 'Edited.\n');
  const pending = median(() => hookTrustView(project, env, 'PostToolUse'));
  console.log(
    `${String(n).padStart(10)} | ${clean.toFixed(3).padStart(14)} | ${pending.toFixed(3).padStart(17)} | ` +
      `${disc.toFixed(3).padStart(18)} | ${(clean / disc).toFixed(2)}×`,
  );
}
rmSync(root, { recursive: true, force: true });
