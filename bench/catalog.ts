/**
 * bench/catalog.ts — the first-party catalog's deterministic validators:
 *   1. precision and recall of each on the labelled corpus (test/fixtures/catalog/*.cases.ts); targets: no false
 *      positive on the near misses, recall ≥ 95 %;
 *   2. their cost on a hook call: `dist/avp hook` on the same matching event with no validator installed, with one
 *      script validator (no-secrets on a PostToolUse Write; dangerous-commands on a PreToolUse Bash), and with all
 *      four recommended ones — runs interleaved, medians and differences side by side, every row on the full path
 *      (`AVP_SHORTCUT=0`) and every call's validator runs checked in the run log;
 *   3. the in-process cost of each script's `validate` (what an in-process fast path would pay);
 *   4. a field check: the validators on every file and script of the installed npm packages (expected: no finding).
 * Usage: node_modules/.bin/bun bench/catalog.ts [runs]   (AVP_BENCH_BIN=path to bench another binary than dist/avp)
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { CATALOG, corpus, loadValidate, score } from '../test/catalog/corpus.ts';
import { inProcess as scoreInProcess, printSummary, summarize, throughBinary } from './_catalog-scores.ts';
import { runCounts } from './_run-log.ts';

const RUNS = Number(process.argv[2] ?? 25);
const BIN = process.env.AVP_BENCH_BIN || resolve(import.meta.dir, '../dist/avp');
// Where the hook-cost section copies validators from: the catalog the benched binary embeds (an unedited copy runs
// in-process), e.g. AVP_BENCH_BIN=/work/main/dist/avp AVP_BENCH_CATALOG=/work/main/validators for the old build.
const SOURCE = process.env.AVP_BENCH_CATALOG || CATALOG;
const work = mkdtempSync(join(tmpdir(), 'avp-bench-catalog-'));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const pad = (s: string, n: number) => s.padEnd(n);

// ---- 1. recall and false positives, per validator and per category ----------------------------------------------
console.log('## Catalog: recall and false positives on the labelled corpus, per category (in-process validate())');
const labelled = await corpus();
const total = Object.values(labelled).reduce((n, cs) => n + cs.length, 0);
const mine = await scoreInProcess(labelled);
const inProcess: Array<[string, number]> = [];
for (const [name, events] of Object.entries(labelled)) inProcess.push([name, (await score(name, events)).meanMicros]);
console.log(`\n${total} labelled cases.`);
printSummary(
  "## Summary, in-process (claimed formats: no-secrets' provider rules and private keys; other validators: all)",
  [...mine].map(([v, os]) => summarize(v, os)),
);
// AVP_BENCH_ONLY=cost skips the slow parts (the corpus through the binary, the field check) to compare hook costs.
const ONLY_COST = process.env.AVP_BENCH_ONLY === 'cost';
if (!ONLY_COST) {
  console.log(`\n## The same corpus through the binary (${BIN} hook, Claude Code inputs, two at a time)\n`);
  const binary = await throughBinary(labelled, BIN, SOURCE);
  printSummary(
    '## Summary, through the binary',
    [...binary].map(([v, os]) => summarize(v, os)),
  );
  const held = binary.get('no-secrets')!.filter((o) => o.c.heldOut);
  if (held.length)
    printSummary('## no-secrets, held-out set only, through the binary', [summarize('no-secrets', held)]);
}

// ---- 2. hook-call overhead ---------------------------------------------------------------------------------
function makeProject(name: string, validators: string[]): string {
  const root = join(work, name);
  mkdirSync(join(root, '.avp/validators'), { recursive: true });
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src/config.ts'), 'export const API_KEY = process.env.API_KEY;\n');
  for (const v of validators) cpSync(join(SOURCE, v), join(root, '.avp/validators', v), { recursive: true });
  return root;
}

const home = join(work, 'home');
mkdirSync(home, { recursive: true });
const write = (root: string, content = 'export const API_KEY = process.env.API_KEY;\n') => ({
  session_id: 'bench',
  transcript_path: join(home, 't.jsonl'),
  cwd: root,
  hook_event_name: 'PostToolUse',
  tool_name: 'Write',
  tool_input: { file_path: join(root, 'src/config.ts'), content },
  tool_response: {
    type: 'create',
    filePath: join(root, 'src/config.ts'),
    content: '',
    structuredPatch: [],
    originalFile: null,
    userModified: false,
  },
  tool_use_id: 'toolu_bench',
});
const bash = (root: string) => ({
  session_id: 'bench',
  transcript_path: join(home, 't.jsonl'),
  cwd: root,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'npm run build && rm -rf ./dist/tmp' },
  tool_use_id: 'toolu_bench',
});

/** Wall time and CPU time (user + system, the hook and the script children it waited for) of one hook call, ms. */
function hookMs(root: string, input: unknown, extra: Record<string, string> = {}): { wall: number; cpu: number } {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    AVP_HOME: join(home, '.avp'),
    CLAUDE_PROJECT_DIR: root,
    // The full path on every row: the shortcut answers a Write with nothing installed once its record is 2 s old,
    // so the baseline would be the shortcut on some calls and the full path on others (more of them the fewer runs).
    AVP_SHORTCUT: '0',
    ...extra,
  };
  const t0 = performance.now();
  const p = Bun.spawnSync([BIN, 'hook'], {
    stdin: new TextEncoder().encode(`${JSON.stringify(input)}\n`),
    env,
    cwd: root,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const ms = performance.now() - t0;
  const out = p.stdout.toString();
  if (p.exitCode !== 0 || out.includes('"block"') || out.includes('"deny"'))
    throw new Error(`unexpected hook result (${p.exitCode}): ${out}${p.stderr.toString()}`);
  return { wall: ms, cpu: Number(p.resourceUsage.cpuTime.total) / 1000 };
}

const setups: Array<{
  label: string;
  root: string;
  input: (root: string) => unknown;
  baseline: string;
  /** The validators each call of the row must run (and pass): checked in the run log after the timed runs. */
  runs: string[];
  env?: Record<string, string>;
}> = [];
const none = makeProject('none', []);
setups.push({ label: 'no validator (PostToolUse Write)', root: none, input: write, baseline: '', runs: [] });
setups.push({
  label: 'no-secrets (PostToolUse Write)',
  root: makeProject('secrets', ['no-secrets']),
  input: write,
  baseline: 'no validator (PostToolUse Write)',
  runs: ['no-secrets'],
});
// A realistic source file (this bench's own text, ~300 lines): what the rules cost per line shows here.
const bigFile = readFileSync(join(import.meta.dir, 'hook.ts'), 'utf8');
setups.push({
  label: 'no-secrets, 300-line Write (Post)',
  root: join(work, 'secrets'),
  input: (root) => write(root, bigFile),
  baseline: 'no validator (PostToolUse Write)',
  runs: ['no-secrets'],
});
if (existsSync(join(SOURCE, 'no-secrets-before'))) {
  const before = makeProject('secrets-before', ['no-secrets-before']);
  const pre = (root: string, content?: string) => {
    const { tool_response: _, ...rest } = write(root, content);
    return { ...rest, hook_event_name: 'PreToolUse' };
  };
  setups.push({
    label: 'no-secrets-before (PreToolUse Write)',
    root: before,
    input: pre,
    baseline: 'no validator (PostToolUse Write)',
    runs: ['no-secrets-before'],
  });
  setups.push({
    label: 'no-secrets-before, 300-line Write',
    root: before,
    input: (root) => pre(root, bigFile),
    baseline: 'no validator (PostToolUse Write)',
    runs: ['no-secrets-before'],
  });
  setups.push({
    label: 'no-secrets-before (PreToolUse Bash)',
    root: before,
    input: bash,
    baseline: 'no validator (PreToolUse Bash)',
    runs: ['no-secrets-before'],
  });
}
setups.push({
  label: 'no-secrets as a process',
  root: join(work, 'secrets'),
  input: write,
  baseline: 'no validator (PostToolUse Write)',
  runs: ['no-secrets'],
  env: { AVP_SCRIPT_PROCESS: '1' },
});
setups.push({
  label: 'no-secrets, engine Worker path',
  root: join(work, 'secrets'),
  input: write,
  baseline: 'no validator (PostToolUse Write)',
  runs: ['no-secrets'],
  env: { AVP_SCRIPT_PROCESS: '1', AVP_SCRIPT_WORKER: '1' },
});
setups.push({
  label: 'all four installed (two match a Write)',
  root: makeProject('all', ['no-secrets', 'dangerous-commands', 'protected-files', 'no-debug-leftovers']),
  input: write,
  baseline: 'no validator (PostToolUse Write)',
  runs: ['no-secrets', 'no-debug-leftovers'],
});
setups.push({ label: 'no validator (PreToolUse Bash)', root: none, input: bash, baseline: '', runs: [] });
setups.push({
  label: 'dangerous-commands (PreToolUse Bash)',
  root: makeProject('dangerous', ['dangerous-commands']),
  input: bash,
  baseline: 'no validator (PreToolUse Bash)',
  runs: ['dangerous-commands'],
});

// The discovery cache skips files younger than 2 s (coarse-timestamp filesystems): let the fresh copies age, then warm
// up each setup (parse caches, page cache) and interleave the runs so drift hits every setup alike. The first call
// accepts each project (trust on first use), and the hook memo is written only once the acceptance logs are 2 s old:
// a second pause reaches a session's steady state, else the first seconds of runs are slower calls without it.
await Bun.sleep(2100);
for (let i = 0; i < 3; i++) {
  if (i === 2) await Bun.sleep(2100);
  for (const s of setups) hookMs(s.root, s.input(s.root), s.env);
}
const times = new Map<string, Array<{ wall: number; cpu: number }>>(setups.map((s) => [s.label, []]));
for (let i = 0; i < RUNS; i++) for (const s of setups) times.get(s.label)!.push(hookMs(s.root, s.input(s.root), s.env));
// Every row's validators ran and passed on each of its calls, and nothing else ran: a row whose validator was skipped
// (not accepted, not matched, an error) would otherwise print a plausible number. Projects are shared between rows.
const expected = new Map<string, Map<string, number>>();
for (const s of setups) {
  const counts = expected.get(s.root) ?? new Map<string, number>();
  for (const v of s.runs) counts.set(`${v}:passed`, (counts.get(`${v}:passed`) ?? 0) + 3 + RUNS);
  expected.set(s.root, counts);
}
for (const [root, counts] of expected) {
  const ran = runCounts(root);
  if (JSON.stringify([...ran].sort()) !== JSON.stringify([...counts].sort()))
    throw new Error(`${root}: runs ${JSON.stringify([...ran])}, expected ${JSON.stringify([...counts])}`);
}

const load = loadavg()[0]!.toFixed(1);
console.log(
  `\n## Catalog: cost of script validators on one \`avp hook\` call (${RUNS} interleaved runs each, medians; load average ${load})\n`,
);
console.log('CPU time (user + system of avp and its script children) is the steadier number on a busy machine.');
console.log(
  "Every row takes the full path (AVP_SHORTCUT=0); each call's validators ran and passed (checked in the run log).\n",
);
console.log(
  `${pad('setup', 40)} ${pad('wall', 10)} ${pad('wall p90', 10)} ${pad('wall added', 20)} ${pad('CPU', 10)} CPU added`,
);
for (const s of setups) {
  const wall = median(times.get(s.label)!.map((t) => t.wall));
  const cpu = median(times.get(s.label)!.map((t) => t.cpu));
  const p90 = times
    .get(s.label)!
    .map((t) => t.wall)
    .sort((a, b) => a - b)[Math.floor(RUNS * 0.9)]!;
  const b = s.baseline ? times.get(s.baseline)! : undefined;
  const bWall = b ? median(b.map((t) => t.wall)) : 0;
  const bCpu = b ? median(b.map((t) => t.cpu)) : 0;
  const wallAdded = b ? `${(wall - bWall).toFixed(1)} ms (×${(wall / bWall).toFixed(2)})` : '—';
  const cpuAdded = b ? `${(cpu - bCpu).toFixed(1)} ms (×${(cpu / bCpu).toFixed(2)})` : '—';
  console.log(
    `${pad(s.label, 40)} ${pad(`${wall.toFixed(1)} ms`, 10)} ${pad(`${p90.toFixed(1)} ms`, 10)} ${pad(wallAdded, 20)} ${pad(`${cpu.toFixed(1)} ms`, 10)} ${cpuAdded}`,
  );
}
// Where the added time goes: the script's own child process, run alone on the same event as the engine sends it.
const writeEvent = JSON.stringify({
  agent: 'claude',
  event: 'PostToolUse',
  tool: 'Write',
  cwd: none,
  projectRoot: none,
  files: [
    {
      path: join(none, 'src/config.ts'),
      relPath: 'src/config.ts',
      inProject: true,
      kind: 'create',
      before: null,
      after: 'export const API_KEY = process.env.API_KEY;\n',
    },
  ],
  raw: {},
});
const bashEvent = JSON.stringify({
  agent: 'claude',
  event: 'PreToolUse',
  tool: 'Bash',
  toolInput: { command: 'npm run build && rm -rf ./dist/tmp' },
  cwd: none,
  projectRoot: none,
  files: [],
  raw: {},
});
const child = (script: string) => {
  const event = script.includes('dangerous-commands') ? bashEvent : writeEvent;
  const p = Bun.spawnSync([BIN, 'run', '--no-env-file', script], {
    stdin: new TextEncoder().encode(event),
    env: { PATH: process.env.PATH ?? '', BUN_BE_BUN: '1', HOME: home },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (p.exitCode !== 0) throw new Error(p.stderr.toString());
  // The script judged the event: a child that printed no verdict would be a cheaper process than the row names.
  if ((JSON.parse(p.stdout.toString()) as { passed?: unknown }).passed !== true)
    throw new Error(`${script}: ${p.stdout.toString()}`);
  return Number(p.resourceUsage.cpuTime.total) / 1000;
};
writeFileSync(
  join(work, 'noop.ts'),
  'console.log(JSON.stringify({ passed: true, violations: [], summary: "noop" }));\n',
);
const children = [
  ['no-op script', join(work, 'noop.ts')],
  ['no-secrets', join(CATALOG, 'no-secrets/scripts/check.ts')],
  ['dangerous-commands', join(CATALOG, 'dangerous-commands/scripts/check.ts')],
] as const;
// Interleaved, as the hook rows: one script's runs after another's let drift and the first child's cold start fall
// on one row alone (the no-op child once measured more than no-secrets).
const childTimes = children.map(() => [] as number[]);
for (let i = 0; i < RUNS; i++) for (const [k, [, script]] of children.entries()) childTimes[k]!.push(child(script));
const childCpu = children.map(([label], k): [string, number] => [label, median(childTimes[k]!)]);
console.log(
  '\nAn unmodified catalog copy runs in-process from avp\'s bundle (the default rows); "as a process" starts a child of',
);
console.log('the avp binary (BUN_BE_BUN=1 avp run script), which is what any other script validator costs.');
console.log('CPU of that child alone (median), and of the in-process validate() from section 1:');
for (const [label, ms] of childCpu) console.log(`  child ${pad(label, 20)} ${ms.toFixed(1)} ms CPU`);
for (const [name, us] of inProcess) console.log(`  in-process ${pad(name, 20)} ${us.toFixed(0)} µs per event`);

// ---- 4. field check: real third-party code that holds no secrets ------------------------------------------------
// Every source file of the installed npm packages, judged as if an agent had just written it. Anything flagged is a
// false positive (or a documented example that slipped through), so this estimates precision outside the corpus.
if (!ONLY_COST) {
  const modules = resolve(import.meta.dir, '../node_modules');
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      const st = statSync(p, { throwIfNoEntry: false });
      if (st?.isDirectory()) walk(p);
      else if (st && st.size < 400_000 && /\.(?:[cm]?[jt]sx?|json|ya?ml|py|rb|md|sh|toml)$/.test(n)) files.push(p);
    }
  };
  walk(modules);
  let lines = 0;
  const texts = files.map((f) => {
    const text = readFileSync(f, 'utf8');
    lines += text.split('\n').length;
    return { rel: relative(modules, f), text };
  });
  console.log(
    `\n## Catalog: field check on node_modules (${files.length} files, ${lines} lines of third-party code, judged as new files)\n`,
  );
  for (const name of ['no-secrets', 'no-debug-leftovers']) {
    const validate = await loadValidate(name);
    const t0 = performance.now();
    const found: string[] = [];
    for (const { rel, text } of texts) {
      const v = await validate({
        agent: 'claude',
        event: 'PostToolUse',
        tool: 'Write',
        cwd: modules,
        projectRoot: modules,
        files: [{ path: join(modules, rel), relPath: rel, inProject: true, kind: 'create', before: null, after: text }],
        raw: {},
      });
      for (const x of v.violations) found.push(`${rel}:${x.line} ${x.rule}: ${(x.snippet ?? '').slice(0, 100)}`);
    }
    console.log(`${pad(name, 20)} ${found.length} finding(s), ${(performance.now() - t0).toFixed(0)} ms`);
    for (const f of found.slice(0, 10)) console.log(`    ${f}`);
  }
  // Real commands: every package.json "scripts" entry and shell script of those packages, as a Bash tool call.
  const commands: string[] = [];
  for (const f of files.filter((p) => p.endsWith('/package.json'))) {
    try {
      for (const v of Object.values(
        (JSON.parse(readFileSync(f, 'utf8')) as { scripts?: Record<string, unknown> }).scripts ?? {},
      ))
        if (typeof v === 'string') commands.push(v);
    } catch {
      // not every package.json in node_modules is valid JSON (fixtures)
    }
  }
  for (const f of files.filter((p) => p.endsWith('.sh'))) commands.push(readFileSync(f, 'utf8'));
  const dangerous = await loadValidate('dangerous-commands');
  const denied: string[] = [];
  for (const command of commands) {
    const v = await dangerous({
      agent: 'claude',
      event: 'PreToolUse',
      tool: 'Bash',
      toolInput: { command },
      cwd: '/',
      projectRoot: modules,
      files: [],
      raw: {},
    });
    if (!v.passed) denied.push(`${command.slice(0, 100)} → ${v.summary}`);
  }
  console.log(
    `${pad('dangerous-commands', 20)} ${denied.length} of ${commands.length} package scripts and shell scripts denied`,
  );
  for (const d of denied.slice(0, 10)) console.log(`    ${d}`);
}

rmSync(work, { recursive: true, force: true });
