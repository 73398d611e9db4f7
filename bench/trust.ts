/**
 * The accepted-state check on every hook call, for 10, 50, 100 and 500 validators, measured side by side in this
 * process. In hook mode the check (`hookTrustView`: walk + stat of every control file, read of the two records)
 * runs just before discovery, which walks the same validators folders; the check hands discovery its listing
 * (`view.listing`), so a call where nothing changed lists each folder and stats each file once.
 *
 *   check+discover     = one no-change hook call's two steps as hook mode runs them (shared listing)
 *   separate walks     = the same two steps with discovery walking the folders again (how it was before)
 *   discover alone     = warm discovery (parse cache valid) without any check: the floor
 *   added by the check = check+discover − discover alone, and the ratio check+discover / discover alone
 *   view pending       = the check alone with one validator edited since acceptance (hashed once, then remembered)
 *
 * Medians over repeated runs, the variants interleaved round by round so machine load hits them alike.
 * Run: node_modules/.bin/bun bench/trust.ts [rounds]
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discover } from '../src/validator/discover.ts';
import { acceptPending, trustStates } from '../src/trust/accept.ts';
import { hookTrustView } from '../src/trust/hook-view.ts';

const SIZES = [10, 50, 100, 500];
const ROUNDS = Number(process.argv[2] ?? 200);
const root = mkdtempSync(join(tmpdir(), 'avp-bench-trust-'));

function makeProject(n: number): { project: string; env: NodeJS.ProcessEnv } {
  const project = join(root, `p${n}`);
  const env = { AVP_HOME: join(root, `home${n}`), HOME: join(root, `home${n}`) };
  // Old stats, so acceptance records them as settled (files younger than 2 s are hashed on every look).
  const old = new Date(Date.now() - 60_000);
  for (let i = 0; i < n; i++) {
    const dir = join(project, '.avp/validators', `v${i}`);
    mkdirSync(join(dir, 'references'), { recursive: true });
    const fm = `---\nname: v${i}\ndescription: Bench validator ${i}.\nseverity: error\ntrigger: PostToolUse\n---\n`;
    writeFileSync(join(dir, 'VALIDATOR.md'), `${fm}Check rule ${i}.\n`);
    writeFileSync(join(dir, 'references/notes.md'), `notes ${i}\n`);
    utimesSync(join(dir, 'VALIDATOR.md'), old, old);
    utimesSync(join(dir, 'references/notes.md'), old, old);
  }
  writeFileSync(join(project, 'avp.config.json'), '{"concurrency": 4}\n');
  return { project, env };
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(run: () => unknown): Promise<number> {
  const t = performance.now();
  await run();
  return performance.now() - t;
}

const ms = (x: number, w: number) => x.toFixed(3).padStart(w);
console.log(
  'validators | check+discover (ms) | separate walks (ms) | discover alone (ms) | added by the check | ' +
    'check+discover / discover alone | view pending (ms)',
);
for (const n of SIZES) {
  const { project, env } = makeProject(n);
  await new Promise((r) => setTimeout(r, 2100));
  acceptPending(trustStates(project, env), env);
  await discover({ projectRoot: project, env });
  const shared: number[] = [];
  const separate: number[] = [];
  const alone: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    shared.push(
      await timed(async () => {
        const view = hookTrustView(project, env, 'PostToolUse');
        if (view.pending.length) throw new Error('bench: something is pending');
        await discover({ projectRoot: project, env, listing: view.listing });
      }),
    );
    separate.push(
      await timed(async () => {
        hookTrustView(project, env, 'PostToolUse');
        await discover({ projectRoot: project, env });
      }),
    );
    alone.push(await timed(() => discover({ projectRoot: project, env })));
  }
  appendFileSync(join(project, '.avp/validators/v0/VALIDATOR.md'), 'Edited.\n');
  const pending: number[] = [];
  for (let i = 0; i < ROUNDS; i++) pending.push(await timed(() => hookTrustView(project, env, 'PostToolUse')));
  const [s, w, a] = [median(shared), median(separate), median(alone)];
  console.log(
    `${String(n).padStart(10)} | ${ms(s, 18)} | ${ms(w, 19)} | ${ms(a, 19)} | ${ms(s - a, 15)} ms | ` +
      `${`${(s / a).toFixed(2)}×`.padStart(31)} | ${ms(median(pending), 17)}`,
  );
}
rmSync(root, { recursive: true, force: true });
