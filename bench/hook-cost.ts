/**
 * bench/hook-cost.ts — the hook's cost targets, side by side with the floor in one run. The floor is a compiled Bun
 * program that reads stdin, parses the JSON and prints `{}`, built here with avp's own compile options
 * (scripts/build-options.ts), written the cheapest way measured (`await Bun.file(0).text()`, `console.log`: ~5 ms
 * of CPU; `readFileSync(0)` ~7 ms; `await Bun.stdin.text()` and `process.stdout.write` ~13 ms, shown beside it,
 * untargeted). Every figure is CPU time (user + system of the process, from the kernel) and peak RSS (GNU time's %M;
 * Bun's own rusage counts the forking parent's pages), medians of runs interleaved round by round so machine load hits
 * floor and avp alike. All projects are accepted as `avp accept` leaves them.
 *
 *   no-match Write, no validators            ≤ 1.3× the floor's CPU
 *   no-match Write, 50 validators            ≤ 1.5× the floor's CPU, ≤ 40 MB
 *   10 / 50 / 200 validators                 ≤ 0.05 ms CPU per installed validator (least-squares slope)
 *   50 catalog copies, no-match call         ≤ 40 MB
 *   1 MB Write matched only by a path rule   (protected-files, whose rule is a list of paths) ≤ the same 1 MB Write
 *                                            unmatched (1.1× allowed for noise), in CPU and peak memory
 *   PreToolUse Bash `ls -la`, `npm test`     the built-in shell guard in: ≤ 1.5× the floor, like any no-match call
 *                                            (the projects' empty `.git` is no repository: no git runs; the same
 *                                            call in a git repository runs one `git status`, shown beside them)
 *
 * Shown beside them, untargeted: a Read with 50 validators, after the tool ran and before (the guard never refuses a
 * Read), the calls the hook shortcut answers (docs/hook-mode.md); the Write rows with validators installed take the
 * full path (session tracking records a written file), the Write row with none installed and the catalog's Read row
 * are the shortcut's. And what a user of `avp init` pays: a Bash call and a Write with the catalog's recommended
 * validators installed unmodified (their scripts run in avp's own process; each call's report is checked to pass).
 *
 * Peak RSS is mostly the executable's own pages mapped from its file, and a binary just written (a build, an install)
 * sits in the page cache in large folios: each run maps ~6 MB more of it than once its pages were read back from
 * disk (and faults them in with less CPU). So avp is copied next to the floor when the bench starts, and both are
 * measured as just written — what a user has right after an install, the worse case for memory; the "disk" column is
 * the same calls after `dd iflag=nocache` dropped both binaries' cached pages.
 *
 * Usage: node_modules/.bin/bun bench/hook-cost.ts [rounds]   (AVP_BENCH_BIN=path to bench another binary;
 * AVP_BENCH_KEEP=1 keeps the projects, home and binaries and prints where, to run one series by hand)
 */
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compileOptions } from '../scripts/build-options.ts';

const ROUNDS = Number(process.argv[2] ?? 25);
const BUILT = resolve(process.env.AVP_BENCH_BIN || resolve(import.meta.dir, '../dist/avp'));
const CATALOG = resolve(import.meta.dir, '../validators');
const work = mkdtempSync(join(tmpdir(), 'avp-bench-cost-'));
const home = join(work, 'home');
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, AVP_HOME: join(home, '.avp') };
// A fresh copy, written now like the floor beside it: both binaries start in the same page-cache state (see above).
const BIN = join(work, 'avp');
copyFileSync(BUILT, BIN);
chmodSync(BIN, 0o755);

function writeValidator(root: string, name: string, fm: string) {
  const dir = join(root, '.avp/validators', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'VALIDATOR.md'),
    `---\nname: ${name}\ndescription: Bench validator ${name}.\nseverity: error\n${fm}---\nCheck ${name}.\n`,
  );
}

/** `n` one-file validators of every common shape; none matches a Write of a .ts file or a Bash call. */
function oneFileValidators(root: string, n: number) {
  const langs = ['py', 'go', 'rs', 'java', 'rb', 'php', 'cs', 'kt', 'swift', 'scala'];
  for (let i = 0; i < n; i++) {
    const lang = langs[i % langs.length];
    const shapes = [
      [`post-${lang}`, `trigger: PostToolUse\nmatch:\n  tools: [Write, Edit]\n  files: ["**/*.${lang}"]\n`],
      ['pre-fetch', 'trigger: PreToolUse\nmatch:\n  tools: [WebFetch, WebSearch]\n'],
      [`stop-${lang}`, `trigger: Stop\nmatch:\n  files: ["src/**/*.${lang}"]\n`],
      ['session', 'trigger: SessionStart\ntriggerMatcher: startup\n'],
      ['prompt', 'trigger: UserPromptSubmit\n'],
    ] as const;
    const [suffix, fm] = shapes[i % shapes.length]!;
    writeValidator(root, `v${i}-${suffix}`, fm);
  }
}

/** 50 copies of the catalog's validators (references, scripts and test cases included), each under its own name. */
function catalogCopies(root: string, n: number) {
  const names = readdirSync(CATALOG).filter((d) => existsSync(join(CATALOG, d, 'VALIDATOR.md')));
  for (let i = 0; i < n; i++) {
    const name = names[i % names.length]!;
    const copy = `${name}-${Math.floor(i / names.length)}`;
    const dir = join(root, '.avp/validators', copy);
    cpSync(join(CATALOG, name), dir, { recursive: true });
    const md = readFileSync(join(dir, 'VALIDATOR.md'), 'utf8');
    writeFileSync(join(dir, 'VALIDATOR.md'), md.replace(/^name: .*$/m, `name: ${copy}`));
  }
}

function project(name: string, fill: (root: string) => void): string {
  const root = join(work, name);
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(join(root, 'src'), { recursive: true });
  fill(root);
  return root;
}

interface Sample {
  cpu: number;
  stdout: string;
}
/** One call: CPU ms (user + system) of the process, from the kernel's accounting of the child. */
function call(argv: string[], stdin: Uint8Array, cwd: string): Sample {
  const p = Bun.spawnSync(argv, {
    stdin,
    env: { ...env, CLAUDE_PROJECT_DIR: cwd },
    cwd,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (p.exitCode !== 0) throw new Error(`${argv.join(' ')} exited ${p.exitCode}: ${p.stderr.toString()}`);
  const cpu = Number(p.resourceUsage!.cpuTime.total) / 1000;
  return { cpu, stdout: p.stdout.toString() };
}
/** Drops a file's pages from the page cache (GNU dd; no root needed): the next run reads it back from disk. */
function evict(path: string) {
  // Written back first: the kernel keeps pages not yet on disk whatever dd asks.
  Bun.spawnSync(['sync', path]);
  const p = Bun.spawnSync(['dd', `if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
  if (p.exitCode !== 0) throw new Error(`dd could not drop ${path} from the page cache: ${p.stderr.toString()}`);
}
/** Peak RSS (MB) of one call, from GNU time. */
function peakMb(argv: string[], stdin: Uint8Array, cwd: string): number {
  const p = Bun.spawnSync(['/usr/bin/time', '-f', '%M', ...argv], {
    stdin,
    env: { ...env, CLAUDE_PROJECT_DIR: cwd },
    cwd,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return Number(p.stderr.toString().trim().split('\n').pop()) / 1024;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const enc = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));
const base = (root: string) => ({ session_id: 'bench-cost', transcript_path: '/dev/null', cwd: root });
const writeEvent = (root: string) => {
  const file = join(root, 'src/config.ts');
  const content = 'export const a = 1;\n';
  return enc({
    ...base(root),
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: file, content },
    tool_response: { type: 'create', filePath: file, content, structuredPatch: [], originalFile: null },
    tool_use_id: 'toolu_w',
  });
};
/** A Read of src/config.ts, after the tool ran (with its response) or before. */
const readOf = (root: string, when: 'PostToolUse' | 'PreToolUse') => {
  const file = join(root, 'src/config.ts');
  const response =
    when === 'PostToolUse' ? { tool_response: { type: 'text', file: { filePath: file, content: 'x\n' } } } : {};
  const id = when === 'PostToolUse' ? 'toolu_r' : 'toolu_pr';
  return enc({
    ...base(root),
    hook_event_name: when,
    tool_name: 'Read',
    tool_input: { file_path: file },
    ...response,
    tool_use_id: id,
  });
};
const readEvent = (root: string) => readOf(root, 'PostToolUse');
const preReadEvent = (root: string) => readOf(root, 'PreToolUse');
const bashEvent = (root: string, command: string) =>
  enc({
    ...base(root),
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'bench' },
    tool_use_id: 'toolu_b',
  });
const BIG = `${'export const line = "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghij";\n'.repeat(16_384)}`;
const bigWrite = (root: string) =>
  enc({
    ...base(root),
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(root, 'src/generated.ts'), content: BIG },
    tool_use_id: 'toolu_big',
  });

try {
  mkdirSync(home, { recursive: true });
  const floorBin = join(work, 'floor');
  const streamsBin = join(work, 'floor-streams');
  writeFileSync(`${floorBin}.ts`, 'JSON.parse(await Bun.file(0).text());\nconsole.log("{}");\n');
  writeFileSync(`${streamsBin}.ts`, 'JSON.parse(await Bun.stdin.text());\nprocess.stdout.write("{}\\n");\n');
  for (const bin of [floorBin, streamsBin]) {
    const built = await Bun.build(await compileOptions(`${bin}.ts`, bin));
    if (!built.success) throw new Error(`could not build ${bin}: ${built.logs.join('\n')}`);
  }

  const p0 = project('none', () => {});
  const p10 = project('v10', (r) => oneFileValidators(r, 10));
  const p50 = project('v50', (r) => oneFileValidators(r, 50));
  const p200 = project('v200', (r) => oneFileValidators(r, 200));
  const pCat = project('catalog50', (r) => catalogCopies(r, 50));
  const pGit = project('v50-git', (r) => {
    rmSync(join(r, '.git'), { recursive: true });
    oneFileValidators(r, 50);
    for (let i = 0; i < 300; i++) writeFileSync(join(r, 'src', `f${i}.ts`), `export const f${i} = ${i};\n`);
    const git = (args: string[]) => {
      const p = Bun.spawnSync(['git', '-c', 'user.email=b@example.com', '-c', 'user.name=b', ...args], { cwd: r, env });
      if (p.exitCode !== 0) throw new Error(`git ${args[0]} in the bench's repository exited ${p.exitCode}`);
    };
    git(['init', '-q']);
    git(['add', '.']);
    git(['commit', '-qm', 'bench']);
  });
  // What `avp init` installs: the catalog's recommended validators, unmodified (their scripts run in-process).
  const pRecommended = project('recommended', (r) => {
    for (const name of readdirSync(CATALOG)) {
      const md = join(CATALOG, name, 'VALIDATOR.md');
      if (existsSync(md) && /^\s*recommended: true$/m.test(readFileSync(md, 'utf8')))
        cpSync(join(CATALOG, name), join(r, '.avp/validators', name), { recursive: true });
    }
  });
  const pPath = project('v50-path-rule', (r) => {
    oneFileValidators(r, 50);
    cpSync(join(CATALOG, 'protected-files'), join(r, '.avp/validators/protected-files'), { recursive: true });
  });
  // Acceptance does not trust stats younger than 2 s: let the files age, then accept each project as a user would.
  await Bun.sleep(2100);
  // A working copy's index is newer than its files (any `git status` refreshes it): no racily clean entries.
  Bun.spawnSync(['git', 'update-index', '-q', '--refresh'], { cwd: pGit, env });
  for (const root of [p0, p10, p50, p200, pCat, pPath, pGit, pRecommended]) {
    const r = Bun.spawnSync([BIN, 'accept'], { cwd: root, env, stdout: 'pipe', stderr: 'pipe' });
    if (r.exitCode !== 0) throw new Error(`avp accept in ${root}: ${r.stderr.toString()}`);
  }

  const FLOOR = [floorBin];
  const HOOK = [BIN, 'hook'];
  // Each series: the program, its input, its project; the floor runs on the same input as what it is compared to.
  const series: Record<string, { argv: string[]; input: Uint8Array; cwd: string }> = {
    floor: { argv: FLOOR, input: writeEvent(p0), cwd: p0 },
    streams: { argv: [streamsBin], input: writeEvent(p0), cwd: p0 },
    none: { argv: HOOK, input: writeEvent(p0), cwd: p0 },
    v10: { argv: HOOK, input: writeEvent(p10), cwd: p10 },
    v50: { argv: HOOK, input: writeEvent(p50), cwd: p50 },
    v200: { argv: HOOK, input: writeEvent(p200), cwd: p200 },
    v50read: { argv: HOOK, input: readEvent(p50), cwd: p50 },
    v50preRead: { argv: HOOK, input: preReadEvent(p50), cwd: p50 },
    catalog: { argv: HOOK, input: readEvent(pCat), cwd: pCat },
    ls: { argv: HOOK, input: bashEvent(p50, 'ls -la'), cwd: p50 },
    npmTest: { argv: HOOK, input: bashEvent(p50, 'npm test'), cwd: p50 },
    lsGit: { argv: HOOK, input: bashEvent(pGit, 'ls -la'), cwd: pGit },
    recBash: { argv: HOOK, input: bashEvent(pRecommended, 'ls -la'), cwd: pRecommended },
    recWrite: { argv: HOOK, input: writeEvent(pRecommended), cwd: pRecommended },
    floorBig: { argv: FLOOR, input: bigWrite(p50), cwd: p50 },
    bigNone: { argv: HOOK, input: bigWrite(p50), cwd: p50 },
    bigPath: { argv: HOOK, input: bigWrite(pPath), cwd: pPath },
  };
  const RUNS_VALIDATORS = new Set(['bigPath', 'recBash', 'recWrite']);
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(series).map((k) => [k, []]));
  const rss: Record<string, number[]> = Object.fromEntries(Object.keys(series).map((k) => [k, []]));
  // Warm-up (caches built, session folders made, binaries paged in); every avp call must pass with `{}` or no output.
  // The hook memo and the hook shortcut's record are written only once what they stand on is 2 s old (the racy
  // rule), and `avp accept` has just written the acceptance logs: a second warm-up after that reaches the steady
  // state of a session, where nothing changed since the last call.
  for (let i = 0; i < 3; i++) {
    if (i === 2) await Bun.sleep(2100);
    for (const [k, s] of Object.entries(series)) {
      const out = call(s.argv, s.input, s.cwd).stdout.trim();
      // The calls whose validators run (and pass) answer with their report; every other call matches nothing.
      if (!RUNS_VALIDATORS.has(k) && out !== '{}') throw new Error(`bench series ${k} did not pass silently: ${out}`);
      if (RUNS_VALIDATORS.has(k) && !/"passed":true/.test(out)) throw new Error(`bench series ${k} ran none: ${out}`);
      if (/deny|block/.test(out)) throw new Error(`bench series ${k} was refused: ${out}`);
    }
  }
  for (let i = 0; i < ROUNDS; i++)
    for (const [k, s] of Object.entries(series)) cpu[k]!.push(call(s.argv, s.input, s.cwd).cpu);
  for (let i = 0; i < 5; i++) for (const [k, s] of Object.entries(series)) rss[k]!.push(peakMb(s.argv, s.input, s.cwd));
  const rssDisk: Record<string, number[]> = Object.fromEntries(Object.keys(series).map((k) => [k, []]));
  for (const bin of [BIN, floorBin, streamsBin]) evict(bin);
  for (let i = 0; i < 5; i++)
    for (const [k, s] of Object.entries(series)) rssDisk[k]!.push(peakMb(s.argv, s.input, s.cwd));

  const c = (k: string) => median(cpu[k]!);
  const m = (k: string) => median(rss[k]!);
  const md = (k: string) => median(rssDisk[k]!);
  const floor = c('floor');
  console.log(`avp hook against the floor, ${ROUNDS} interleaved rounds (CPU) and 5 (peak RSS), medians — ${BUILT}`);
  console.log(
    `load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)}, ${navigator.hardwareConcurrency} cores`,
  );
  const head = `${'call'.padEnd(56)}${'CPU ms'.padStart(8)}${'ratio'.padStart(8)}${'target'.padStart(9)}`;
  console.log(`${head}${'RSS MB'.padStart(8)}${'target'.padStart(8)}${'disk'.padStart(6)}  verdict`);
  let missed = 0;
  const row = (label: string, k: string, ratio: number, target?: number, rssTarget?: number, ref = 'floor') => {
    const ok = (target === undefined || ratio <= target) && (rssTarget === undefined || m(k) <= rssTarget);
    const judged = target !== undefined || rssTarget !== undefined;
    if (judged && !ok) missed++;
    console.log(
      `${label.padEnd(56)}${c(k).toFixed(2).padStart(8)}${`${ratio.toFixed(2)}×`.padStart(8)}` +
        (target === undefined ? '' : `≤${target}×${ref === 'floor' ? '' : ` ${ref}`}`).padStart(
          ref === 'floor' ? 9 : 14,
        ) +
        m(k).toFixed(1).padStart(8) +
        (rssTarget === undefined ? '' : `≤${rssTarget.toFixed(0)}`).padStart(8) +
        md(k).toFixed(1).padStart(6) +
        `  ${judged ? (ok ? 'PASS' : 'MISS') : ''}`,
    );
  };
  row('floor: Bun.file(0).text(), JSON.parse, console.log {}', 'floor', 1);
  row('the same through Bun.stdin.text(), process.stdout', 'streams', c('streams') / floor);
  row('PostToolUse Write .ts, no validators', 'none', c('none') / floor, 1.3);
  row('PostToolUse Write .ts, 10 validators, none matching', 'v10', c('v10') / floor);
  row('PostToolUse Write .ts, 50 validators, none matching', 'v50', c('v50') / floor, 1.5, 40);
  row('PostToolUse Write .ts, 200 validators, none matching', 'v200', c('v200') / floor);
  row('PostToolUse Read, 50 validators, none matching', 'v50read', c('v50read') / floor);
  row('PreToolUse Read, 50 validators, none matching', 'v50preRead', c('v50preRead') / floor);
  row('PostToolUse Read, 50 catalog copies, none matching', 'catalog', c('catalog') / floor, undefined, 40);
  row('PreToolUse Bash `ls -la` (shell guard), 50 validators', 'ls', c('ls') / floor, 1.5);
  row('PreToolUse Bash `npm test` (shell guard), 50 validators', 'npmTest', c('npmTest') / floor, 1.5);
  row('  the `ls -la` call in a git repository (300 files)', 'lsGit', c('lsGit') / floor);
  row('PreToolUse Bash `ls -la`, recommended set (3 scripts run)', 'recBash', c('recBash') / floor);
  row('PostToolUse Write .ts, recommended set (2 scripts run)', 'recWrite', c('recWrite') / floor);
  // Least-squares slope of CPU over installed validators.
  const pts = [
    [10, c('v10')],
    [50, c('v50')],
    [200, c('v200')],
  ] as const;
  const mx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
  const my = pts.reduce((a, p) => a + p[1], 0) / pts.length;
  const slope = pts.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0) / pts.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
  const slopeOk = slope <= 0.05;
  if (!slopeOk) missed++;
  console.log(
    `${'growth per installed validator (10 / 50 / 200, slope)'.padEnd(56)}${slope.toFixed(4).padStart(8)} ms` +
      `${'≤0.05 ms'.padStart(14)}${''.padStart(16)}  ${slopeOk ? 'PASS' : 'MISS'}`,
  );
  const floorBig = c('floorBig');
  row('floor, 1 MB PreToolUse Write input', 'floorBig', floorBig / floor);
  row('1 MB PreToolUse Write .ts, 50 validators, none matching', 'bigNone', c('bigNone') / floorBig);
  const bigOk = m('bigPath') <= m('bigNone') * 1.1;
  row(
    '1 MB Write matched only by a path rule (protected-files)',
    'bigPath',
    c('bigPath') / c('bigNone'),
    1.1,
    undefined,
    'unm.',
  );
  if (!bigOk) missed++;
  console.log(
    `${'  its peak RSS against the unmatched 1 MB Write'.padEnd(56)}${''.padStart(25)}` +
      `${(m('bigPath') / m('bigNone')).toFixed(2).padStart(8)}×${'≤1.1×'.padStart(7)}` +
      `${`${(md('bigPath') / md('bigNone')).toFixed(2)}×`.padStart(7)}  ${bigOk ? 'PASS' : 'MISS'}`,
  );
  console.log(`(1 MB rows: ratio of the unmatched call to the floor on the same input; path rule to unmatched)`);
  console.log(`${missed ? `${missed} target(s) missed` : 'every target met'}`);
} finally {
  if (process.env.AVP_BENCH_KEEP === '1') console.log(`kept: ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
