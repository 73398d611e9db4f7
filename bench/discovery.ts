/**
 * Discovery + matching cost for 10, 100 and 500 validators (it runs on every hook call).
 *
 *   cold  = parse everything (parse cache deleted before each run; the loader module is already imported, so this is
 *           the per-file parse cost, not the module-load cost — the process rows below include that)
 *   warm  = parse cache valid: walk + stat + JSON.parse of the cache
 *   match = matchValidators over the discovered set for one PostToolUse Write event
 *   process rows = a whole `dist/avp list --json` (fresh process: startup + discovery + JSON output), cold and warm,
 *           measured in interleaved rounds with `dist/avp --version` (the process floor)
 *
 * Medians over repeated runs; ratios are computed from numbers measured side by side in this run.
 * Run: node_modules/.bin/bun bench/discovery.ts   (builds nothing: run `bun run build.ts` first for the process rows)
 *   AVP_BENCH_BIN=path   the binary of the process rows (default dist/avp)
 *   AVP_BENCH_BASE=path  another build (e.g. the previous release) measured in the same interleaved rounds, in CPU time
 *                        (user + system: steadier than wall time on a busy machine), with the ratio of the two
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { discover, discoveryCachePath } from '../src/validator/discover.ts';
import { RACY_MS } from '../src/validator/cache.ts';
import { matchValidators } from '../src/validator/match.ts';
import type { HookEvent } from '../src/protocol/event.ts';

const SIZES = [10, 100, 500];
const BIN = resolve(process.env.AVP_BENCH_BIN || resolve(import.meta.dir, '../dist/avp'));
const BASE = process.env.AVP_BENCH_BASE ? resolve(process.env.AVP_BENCH_BASE) : undefined;
const root = mkdtempSync(join(tmpdir(), 'avp-bench-discovery-'));

const TRIGGERS = ['PostToolUse', 'PostToolUse', 'PostToolUse', 'PreToolUse', 'Stop'];
const FILES = ['"*.ts"', '"src/**/*.js"', '"*.py"', '"**/*"', '"*.md"'];

function frontmatter(name: string, i: number): string {
  const trigger = TRIGGERS[i % TRIGGERS.length];
  const tools = trigger === 'Stop' ? '' : `  tools: [Write, Edit${i % 3 ? '' : ', MultiEdit'}]\n`;
  return `---\nname: ${name}\ndescription: Bench validator number ${i} checks one made-up rule.\nseverity: ${['error', 'warn', 'info'][i % 3]}\ntrigger: ${trigger}\nmatch:\n${tools}  files: [${FILES[i % FILES.length]}]\ntags: [bench]\n---\n`;
}

const PROMPT = `# Rule\n\nCheck the change for the problem this validator is about. ${'Explain what counts as a violation. '.repeat(20)}\n`;

/** A project with `n` validators: 70% single files, 20% directories with a reference, 10% RuleSets of 3 rules. */
function makeProject(n: number): string {
  const project = join(root, `p${n}`);
  const vdir = join(project, '.avp/validators');
  for (let i = 0; i < n; i++) {
    const name = `v${i}-check`;
    const group = join(vdir, `team-${i % 7}`);
    mkdirSync(group, { recursive: true });
    if (i % 10 < 7) {
      writeFileSync(join(group, `${name}.md`), frontmatter(name, i) + PROMPT);
    } else if (i % 10 < 9) {
      mkdirSync(join(group, name, 'references'), { recursive: true });
      writeFileSync(
        join(group, name, 'VALIDATOR.md'),
        `${frontmatter(name, i)}${PROMPT}See \`references/patterns.md\`.\n`,
      );
      writeFileSync(join(group, name, 'references/patterns.md'), 'patterns\n'.repeat(50));
    } else {
      mkdirSync(join(group, name, 'rules'), { recursive: true });
      writeFileSync(join(group, name, 'VALIDATOR.md'), frontmatter(name, i) + PROMPT);
      for (const r of ['one', 'two', 'three']) writeFileSync(join(group, name, 'rules', `${r}.md`), `Rule ${r}.\n`);
    }
  }
  return project;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median wall time (ms); `cpu` receives the median CPU time (user + system, ms), steadier on a busy machine. */
async function time(
  runs: number,
  before: () => void,
  body: () => Promise<unknown> | unknown,
  cpu?: (ms: number) => void,
): Promise<number> {
  const out: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    before();
    const c = process.cpuUsage();
    const t = performance.now();
    await body();
    out.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpus.push((d.user + d.system) / 1000);
  }
  cpu?.(median(cpus));
  return median(out);
}

const emptyHome = join(root, 'home');
mkdirSync(emptyHome);
const projects = SIZES.map(makeProject);
// Files changed in the last RACY_MS are never cached: let them age once, for all sizes.
await Bun.sleep(RACY_MS + 200);

const ms = (x: number) => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(2)} ms`);
const rows: string[][] = [];
const proc: string[][] = [];
const base: string[][] = [];
const runBin = (args: string[], cwd: string, bin = BIN) => {
  const r = Bun.spawnSync([bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: emptyHome, AVP_HOME: join(emptyHome, '.avp') },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (r.exitCode !== 0) throw new Error(`dist/avp ${args.join(' ')} failed: ${r.stderr.toString()}`);
  return r;
};
const hasBin = existsSync(BIN);

for (const [i, n] of SIZES.entries()) {
  const projectRoot = projects[i]!;
  const env = { AVP_HOME: join(emptyHome, '.avp') };
  // The parse cache lives under AVP_HOME (outside the project): deleting it makes the next call cold.
  const cache = discoveryCachePath(resolve(projectRoot, '.avp/validators'), env);
  const run = () => discover({ projectRoot, env });
  const first = await run(); // imports the loader once, writes the cache
  const units = first.validators.length;
  if (first.errors.length) throw new Error(`bench validators do not load: ${first.errors[0]!.message}`);
  let coldCpu = 0;
  let warmCpu = 0;
  const cold = await time(
    n >= 500 ? 5 : 9,
    () => rmSync(cache, { force: true }),
    run,
    (c) => (coldCpu = c),
  );
  // The cold rows parsed and the warm ones did not (the parse cache answered): checked once each, outside the timing.
  const usage = { parsed: false };
  rmSync(cache, { force: true });
  await discover({ projectRoot, env, usage }); // re-creates the cache
  if (!usage.parsed) throw new Error(`${n} validators: discovery without its cache did not parse`);
  await discover({ projectRoot, env, usage });
  if (usage.parsed) throw new Error(`${n} validators: the parse cache did not answer the warm discovery`);
  const warm = await time(
    21,
    () => {},
    run,
    (c) => (warmCpu = c),
  );
  const event: HookEvent = {
    agent: 'claude',
    event: 'PostToolUse',
    tool: 'Write',
    cwd: projectRoot,
    projectRoot,
    files: [
      {
        path: join(projectRoot, 'src/utils/helper.ts'),
        relPath: 'src/utils/helper.ts',
        inProject: true,
        kind: 'update',
      },
    ],
    raw: {},
  };
  const validators = (await run()).validators;
  let matched = 0;
  matchValidators(validators, event); // compile once, as a hook process does on its first event
  const match = await time(
    201,
    () => {},
    () => (matched = matchValidators(validators, event).length),
  );
  rows.push([
    String(n),
    String(units),
    ms(cold),
    ms(warm),
    `${(cold / warm).toFixed(1)}×`,
    ms(coldCpu),
    ms(warmCpu),
    `${(coldCpu / warmCpu).toFixed(1)}×`,
    ms(match),
    String(matched),
    ms(warm + match),
  ]);
  if (hasBin) {
    // Interleaved rounds (floor, cold, warm, and the base build's cold and warm) so that machine load hits all alike.
    const floor: number[] = [];
    const pCold: number[] = [];
    const pWarm: number[] = [];
    const cpu = { cold: [] as number[], warm: [] as number[], baseCold: [] as number[], baseWarm: [] as number[] };
    const clock = (f: () => unknown) => {
      const t = performance.now();
      f();
      return performance.now() - t;
    };
    const cpuMs = (r: ReturnType<typeof runBin>) => Number(r.resourceUsage.cpuTime.total) / 1000;
    for (let r = 0; r < 7; r++) {
      floor.push(clock(() => runBin(['--version'], projectRoot)));
      rmSync(cache, { force: true });
      pCold.push(clock(() => cpu.cold.push(cpuMs(runBin(['list', '--json'], projectRoot)))));
      pWarm.push(clock(() => cpu.warm.push(cpuMs(runBin(['list', '--json'], projectRoot)))));
      if (BASE) {
        rmSync(cache, { force: true });
        cpu.baseCold.push(cpuMs(runBin(['list', '--json'], projectRoot, BASE)));
        cpu.baseWarm.push(cpuMs(runBin(['list', '--json'], projectRoot, BASE)));
      }
    }
    const [f, c, w] = [median(floor), median(pCold), median(pWarm)];
    proc.push([String(n), ms(f), ms(c), ms(w), `${(c / w).toFixed(1)}×`, ms(Math.max(0, w - f))]);
    if (BASE) {
      const [cc, cw, bc, bw] = [cpu.cold, cpu.warm, cpu.baseCold, cpu.baseWarm].map(median) as [
        number,
        number,
        number,
        number,
      ];
      base.push([String(n), ms(bc), ms(cc), `${(cc / bc).toFixed(2)}×`, ms(bw), ms(cw), `${(cw / bw).toFixed(2)}×`]);
    }
  }
}

function table(header: string[], body: string[][]): string {
  const w = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  return [header, ...body].map((r) => r.map((c, i) => c.padStart(w[i]!)).join('  ')).join('\n');
}

console.log(
  `Discovery + matching (in-process, median; load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)} on ${navigator.hardwareConcurrency} cores)`,
);
console.log(
  table(
    [
      'validators',
      'runnable',
      'cold',
      'warm',
      'cold/warm',
      'cold cpu',
      'warm cpu',
      'cpu ratio',
      'match',
      'matched',
      'warm+match',
    ],
    rows,
  ),
);
console.log('  (runnable counts RuleSet rules separately; a hook call pays warm+match once the cache is valid)');
if (hasBin) {
  console.log(
    '\nWhole process: dist/avp list --json vs the process floor dist/avp --version (median of interleaved rounds)',
  );
  console.log(table(['validators', 'floor', 'cold', 'warm', 'cold/warm', 'warm - floor'], proc));
  if (BASE) {
    console.log(`\nCPU time of dist/avp list --json (median), this build vs ${BASE}, same interleaved rounds`);
    console.log(table(['validators', 'base cold', 'cold', 'cold ratio', 'base warm', 'warm', 'warm ratio'], base));
  }
} else {
  console.log('\n(dist/avp not built: process rows skipped; run `node_modules/.bin/bun run build.ts`)');
}
rmSync(root, { recursive: true, force: true });
