/**
 * bench/hook.ts — the latency of `avp hook` (wall time: what the agent waits for), side by side with the floor in the
 * same run. The floor is bench/hook-cost.ts' own: a compiled Bun program that reads stdin, parses the JSON and prints
 * `{}`, built with avp's compile options (scripts/build-options.ts); avp is copied next to it when the bench starts,
 * so both run as just-written files (hook-cost.ts says why that matters). The CPU targets are hook-cost.ts'; this
 * bench shows the latency beside them and holds two targets of its own:
 *   1. an event that matches nothing, with 50 validators installed (PostToolUse Write of a .ts file, which takes the
 *      full path, and a Notification, which the hook shortcut answers); their peak memory (max RSS);
 *   2. the same no-match file write in every other agent's protocol (`--agent codex|gemini|…|amp`; the agents that
 *      judge writes before the tool runs get their pre-tool write); target within 1.2× Claude Code's in the same run;
 *   3. the overhead of one script validator (shell script, TypeScript script on avp's runtime), on the full path
 *      (`AVP_SHORTCUT=0`) so the baseline and the script rows differ by the script judge alone; every call's run log
 *      line is checked, so a row whose validator did not run stops the bench instead of printing a number.
 * Usage: node_modules/.bin/bun bench/hook.ts [runs]   (AVP_BENCH_BIN=path to bench another binary than dist/avp)
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compileOptions } from '../scripts/build-options.ts';
import { runCounts } from './_run-log.ts';

const RUNS = Number(process.argv[2] ?? 40);
const BUILT = resolve(process.env.AVP_BENCH_BIN || resolve(import.meta.dir, '../dist/avp'));
const work = mkdtempSync(join(tmpdir(), 'avp-bench-hook-'));
// A fresh copy, written now like the floor beside it: both start in the same page-cache state (bench/hook-cost.ts).
const BIN = join(work, 'avp');
copyFileSync(BUILT, BIN);
chmodSync(BIN, 0o755);
const root = join(work, 'project');
const home = join(work, 'home');

function validator(name: string, fm: string, script?: [string, string]) {
  const dir = join(root, '.avp/validators', name);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  writeFileSync(
    join(dir, 'VALIDATOR.md'),
    `---\nname: ${name}\ndescription: Bench validator ${name}.\nseverity: error\n${fm}${script ? `script: scripts/${script[0]}\n` : ''}---\nCheck ${name}.\n`,
  );
  if (script) {
    writeFileSync(join(dir, 'scripts', script[0]), script[1]);
    chmodSync(join(dir, 'scripts', script[0]), 0o755);
  }
}

/** 50 validators of every common shape, none of which matches the bench events. */
function install50() {
  const langs = ['py', 'go', 'rs', 'java', 'rb', 'php', 'cs', 'kt', 'swift', 'scala'];
  for (let i = 0; i < 50; i++) {
    const lang = langs[i % langs.length];
    const kind = i % 5;
    if (kind === 0)
      validator(
        `v${i}-post-${lang}`,
        `trigger: PostToolUse\nmatch:\n  tools: [Write, Edit]\n  files: ["**/*.${lang}"]\n`,
      );
    else if (kind === 1) validator(`v${i}-pre-bash`, `trigger: PreToolUse\nmatch:\n  tools: [Bash]\n`);
    else if (kind === 2) validator(`v${i}-stop-${lang}`, `trigger: Stop\nmatch:\n  files: ["src/**/*.${lang}"]\n`);
    else if (kind === 3) validator(`v${i}-session`, `trigger: SessionStart\ntriggerMatcher: startup\n`);
    else validator(`v${i}-prompt`, `trigger: UserPromptSubmit\n`);
  }
}

function spawnTimed(
  argv: string[],
  stdin: string,
  env: Record<string, string>,
): { ms: number; stdout: string; stderr: string } {
  const t0 = performance.now();
  const p = Bun.spawnSync(argv, {
    stdin: new TextEncoder().encode(stdin),
    env,
    cwd: root,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const ms = performance.now() - t0;
  if (p.exitCode !== 0) throw new Error(`${argv.join(' ')} exited ${p.exitCode}: ${p.stderr.toString()}`);
  return { ms, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

/**
 * Peak RSS (KB), the median of five runs from GNU time (one run's figure moves by ~0.5 MB, as much as a change being
 * judged); undefined when the machine does not have it.
 */
function peakRssKb(argv: string[], stdin: string, env: Record<string, string>): number | undefined {
  if (!existsSync('/usr/bin/time')) return undefined;
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const p = Bun.spawnSync(['/usr/bin/time', '-f', '%M', ...argv], {
      stdin: new TextEncoder().encode(stdin),
      env,
      cwd: root,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const kb = Number(p.stderr.toString().trim().split('\n').pop());
    if (!Number.isFinite(kb)) return undefined;
    runs.push(kb);
  }
  return median(runs);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (n: number) => n.toFixed(1).padStart(7);

try {
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(home, { recursive: true });
  install50();
  const floorBin = join(work, 'floor');
  writeFileSync(`${floorBin}.ts`, 'JSON.parse(await Bun.file(0).text());\nconsole.log("{}");\n');
  const built = await Bun.build(await compileOptions(`${floorBin}.ts`, floorBin));
  if (!built.success) throw new Error(`could not build the floor: ${built.logs.join('\n')}`);

  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    AVP_HOME: join(home, '.avp'),
    CLAUDE_PROJECT_DIR: root,
  };
  const write = JSON.stringify({
    session_id: 'bench-session',
    transcript_path: '/dev/null',
    cwd: root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(root, 'src/config.ts'), content: 'export const a = 1;\n' },
    tool_response: {
      type: 'create',
      filePath: join(root, 'src/config.ts'),
      content: 'export const a = 1;\n',
      structuredPatch: [],
      originalFile: null,
    },
    tool_use_id: 't1',
  });
  const notification = JSON.stringify({
    session_id: 'bench-session',
    cwd: root,
    hook_event_name: 'Notification',
    message: 'idle',
    notification_type: 'idle_prompt',
  });
  // The same write of src/config.ts in each agent's own protocol (Codex: its apply_patch tool).
  const file = join(root, 'src/config.ts');
  const common = { session_id: 'bench-session', transcript_path: '/dev/null', cwd: root };
  const agentWrites: Record<string, string> = {
    codex: JSON.stringify({
      ...common,
      turn_id: 't',
      hook_event_name: 'PostToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: '*** Begin Patch\n*** Add File: src/config.ts\n+export const a = 1;\n*** End Patch\n' },
      tool_response: 'Success.',
      tool_use_id: 't1',
    }),
    gemini: JSON.stringify({
      ...common,
      hook_event_name: 'AfterTool',
      tool_name: 'write_file',
      tool_input: { file_path: file, content: 'export const a = 1;\n' },
      tool_response: { llmContent: 'ok', returnDisplay: { isNewFile: true, newContent: 'export const a = 1;\n' } },
    }),
    qwen: JSON.stringify({
      ...common,
      hook_event_name: 'PostToolUse',
      tool_name: 'write_file',
      tool_input: { file_path: file, content: 'export const a = 1;\n' },
      tool_response: { llmContent: 'ok', returnDisplay: { originalContent: '', newContent: 'export const a = 1;\n' } },
      tool_use_id: 't1',
    }),
    droid: JSON.stringify({
      ...common,
      hook_event_name: 'PostToolUse',
      tool_name: 'Create',
      tool_input: { file_path: file, content: 'export const a = 1;\n' },
      tool_response: '{"success":true}',
    }),
  };
  // The agents whose file writes are judged before the tool runs: their own captured or documented write, moved here.
  const fixtures = resolve(import.meta.dir, '../test/fixtures/hook');
  const preWrites: Record<string, string> = {
    copilot: 'copilot/hook-input-preToolUse-create.json',
    cursor: 'cursor/hook-input-preToolUse-Write.json',
    windsurf: 'windsurf/hook-input-pre_write_code.json',
    cline: 'cline/hook-input-PreToolUse-write_to_file.json',
    kiro: 'kiro/hook-input-preToolUse-fs_write-create.json',
    opencode: 'opencode/hook-input-tool.execute.before-write.json',
    amp: 'amp/hook-input-tool.call-create_file.json',
  };
  for (const [agent, fixture] of Object.entries(preWrites))
    agentWrites[agent] = readFileSync(join(fixtures, fixture), 'utf8')
      .replaceAll('/home/dev/project', root)
      .replaceAll('src/pay.ts', 'src/config.ts');
  // Copilot's input names no event: its hook entry does (`--event`).
  const agentArgs: Record<string, string[]> = { copilot: ['--event', 'preToolUse'] };
  const agentVars: Record<string, Record<string, string>> = {
    codex: {},
    gemini: { GEMINI_PROJECT_DIR: root },
    qwen: { QWEN_PROJECT_DIR: root },
    droid: { FACTORY_PROJECT_DIR: root },
  };
  const agentArgv = (agent: string) => [BIN, 'hook', '--agent', agent, ...(agentArgs[agent] ?? [])];
  const envOf = (agent: string) => ({
    PATH: env.PATH,
    HOME: home,
    AVP_HOME: join(home, '.avp'),
    ...agentVars[agent],
  });
  // The discovery cache does not trust files changed in the last 2 s (mtime granularity): let them age first.
  await Bun.sleep(2100);
  // Hook mode runs on the accepted state: accept the 50 validators as the user would (`avp init` does it too).
  const accepted = Bun.spawnSync([BIN, 'accept'], { cwd: root, env, stdout: 'pipe', stderr: 'pipe' });
  if (accepted.exitCode !== 0) throw new Error(`avp accept failed: ${accepted.stderr.toString()}`);
  // Warm-up: builds the discovery cache and the session directory, and pages the binaries in.
  // The hook memo and the shortcut's record are written only once what they stand on is 2 s old, and `avp accept`
  // has just written the acceptance logs: a second pause reaches a session's steady state (bench/hook-cost.ts).
  for (let i = 0; i < 3; i++) {
    if (i === 2) await Bun.sleep(2100);
    spawnTimed([floorBin], write, env);
    const out = spawnTimed([BIN, 'hook'], write, env).stdout;
    if (out !== '{}\n') throw new Error(`the bench event matched something: ${out}`);
    spawnTimed([BIN, 'hook'], notification, env);
    for (const [agent, input] of Object.entries(agentWrites)) {
      const agentOut = spawnTimed(agentArgv(agent), input, envOf(agent)).stdout;
      // Each agent words a pass its own way ({} , an allow, nothing); a refusal would name it.
      if (/deny|block|reject|"cancel":\s*true/.test(agentOut))
        throw new Error(`the ${agent} bench event matched something: ${agentOut}`);
    }
  }

  // Which path the Notification takes, said in its row (the shortcut answers it once its record holds).
  const traced = spawnTimed([BIN, 'hook'], notification, { ...env, AVP_SHORTCUT_TRACE: '1' });
  const notePath = traced.stderr.includes('avp shortcut: answered') ? 'the hook shortcut' : 'the full path';
  const series: Record<string, { ms: number[]; rss?: number }> = {
    floor: { ms: [] },
    write: { ms: [] },
    notification: { ms: [] },
    subagent: { ms: [] },
    ...Object.fromEntries(Object.keys(agentWrites).map((a) => [a, { ms: [] }])),
  };
  const add = (k: string, r: { ms: number }) => series[k]!.ms.push(r.ms);
  series.floor!.rss = peakRssKb([floorBin], write, env);
  series.write!.rss = peakRssKb([BIN, 'hook'], write, env);
  series.notification!.rss = peakRssKb([BIN, 'hook'], notification, env);
  series.subagent!.rss = peakRssKb([BIN, 'hook'], write, { ...env, AVP_SUBAGENT: '1' });
  // Interleaved so that machine noise hits every series alike.
  for (let i = 0; i < RUNS; i++) {
    add('floor', spawnTimed([floorBin], write, env));
    add('write', spawnTimed([BIN, 'hook'], write, env));
    add('notification', spawnTimed([BIN, 'hook'], notification, env));
    add('subagent', spawnTimed([BIN, 'hook'], write, { ...env, AVP_SUBAGENT: '1' }));
    for (const [agent, input] of Object.entries(agentWrites))
      add(agent, spawnTimed(agentArgv(agent), input, envOf(agent)));
  }
  const floor = median(series.floor!.ms);
  console.log(`avp hook, no validator matches, 50 installed — ${RUNS} runs each, interleaved (${BIN})`);
  console.log('                                          median ms   ratio to floor   max RSS MB');
  const row = (label: string, k: string) =>
    console.log(
      `${label.padEnd(42)}${fmt(median(series[k]!.ms))}   ${(median(series[k]!.ms) / floor).toFixed(2).padStart(8)}×   ${series[k]!.rss === undefined ? '    n/a' : fmt(series[k]!.rss! / 1024)}`,
    );
  row('floor: reads stdin, parses it, prints {}', 'floor');
  row('PostToolUse Write src/config.ts (no match)', 'write');
  row(`Notification (no match; ${notePath})`, 'notification');
  row('AVP_SUBAGENT=1 pass-through', 'subagent');
  console.log('(latency; the CPU targets, side by side with the same floor: bench/hook-cost.ts)');

  console.log('\nthe same no-match file write per agent               median ms   ratio to Claude Code');
  const claudeMs = median(series.write!.ms);
  for (const agent of Object.keys(agentWrites)) {
    const ms = median(series[agent]!.ms);
    const r = ms / claudeMs;
    console.log(
      `${`--agent ${agent}`.padEnd(52)}${fmt(ms)}   ${r.toFixed(2).padStart(8)}×  ${r <= 1.2 ? 'met' : 'NOT met'}`,
    );
  }
  console.log('target: each agent within 1.2× Claude Code in the same run');

  // Where a no-match call spends its time, from inside the process (AVP_PROFILE=1 prints per-phase ms on stderr).
  const phases: Record<string, number[]> = {};
  for (let i = 0; i < 15; i++) {
    const text = spawnTimed([BIN, 'hook'], write, { ...env, AVP_PROFILE: '1' }).stderr;
    for (const m of text.matchAll(/([A-Za-z ]+?) (\d+\.\d+) \(cpu/g)) (phases[m[1]!.trim()] ??= []).push(Number(m[2]));
  }
  console.log(
    `\nno-match call from inside (AVP_PROFILE=1, median of 15): ${Object.entries(phases)
      .map(([k, v]) => `${k} ${median(v).toFixed(2)}`)
      .join(', ')} ms`,
  );

  // Script validator overhead: one matching validator, shell and TypeScript, accepted as a user would.
  const pass = '{"passed":true,"violations":[],"summary":"ok"}';
  validator('bench-sh', 'trigger: Notification\ntriggerMatcher: sh\n', [
    'check.sh',
    `#!/bin/sh\ncat >/dev/null\necho '${pass}'\n`,
  ]);
  validator('bench-ts', 'trigger: Notification\ntriggerMatcher: ts\n', [
    'check.ts',
    `await Bun.stdin.text();\nconsole.log(JSON.stringify(${pass}));\n`,
  ]);
  validator('bench-worker', 'trigger: Notification\ntriggerMatcher: worker\n', [
    'check.ts',
    `export function validate() { return ${pass}; }\nif (import.meta.main) { await Bun.stdin.text(); console.log(JSON.stringify(validate())); }\n`,
  ]);
  await Bun.sleep(2100);
  const reaccepted = Bun.spawnSync([BIN, 'accept'], { cwd: root, env, stdout: 'pipe', stderr: 'pipe' });
  if (reaccepted.exitCode !== 0) throw new Error(`avp accept failed: ${reaccepted.stderr.toString()}`);
  const note = (type: string) =>
    JSON.stringify({
      session_id: 'bench-session',
      cwd: root,
      hook_event_name: 'Notification',
      message: 'm',
      notification_type: type,
    });
  const kinds = ['none', 'sh', 'ts', 'worker', 'worker-off'] as const;
  // The full path for every row: the shortcut would answer the baseline alone and make the difference its saving.
  const full = { ...env, AVP_SHORTCUT: '0' };
  const call = (t: (typeof kinds)[number]) =>
    t === 'worker'
      ? spawnTimed([BIN, 'hook'], note('worker'), { ...full, AVP_SCRIPT_WORKER: '1' })
      : spawnTimed([BIN, 'hook'], note(t === 'worker-off' ? 'worker' : t), full);
  const ran = runCounts(root);
  for (let i = 0; i < 2; i++) for (const t of kinds) call(t);
  const scripts: Record<string, number[]> = { none: [], sh: [], ts: [], worker: [], 'worker-off': [] };
  const timed = Math.max(10, RUNS / 2);
  for (let i = 0; i < timed; i++) for (const t of kinds) scripts[t]!.push(call(t).ms);
  // Each script row's validator must have run and passed on every call (the worker's twice: two rows), the baseline's
  // none: a row whose validator was skipped (not accepted, not matched) would otherwise print a plausible number.
  const calls = 2 + timed;
  const expected: Record<string, number> = { 'bench-sh': calls, 'bench-ts': calls, 'bench-worker': 2 * calls };
  const counted = runCounts(root, ran);
  for (const [name, n] of Object.entries(expected))
    if (counted.get(`${name}:passed`) !== n)
      throw new Error(`${name} ran ${JSON.stringify([...counted])} times, not ${n} passes: the row measures nothing`);
  if (counted.size !== Object.keys(expected).length)
    throw new Error(`unexpected runs in the script rows: ${JSON.stringify([...counted])}`);
  const base = median(scripts.none!);
  console.log(
    '\nscript validator overhead, full path (one matching validator; the call includes run, aggregate, render, log)',
  );
  const over = (label: string, k: string) =>
    console.log(`${label.padEnd(42)}${fmt(median(scripts[k]!))} ms   (+${(median(scripts[k]!) - base).toFixed(1)} ms)`);
  console.log(`${'no match'.padEnd(42)}${fmt(base)} ms`);
  over('shell script judge', 'sh');
  over("TypeScript script judge (avp's runtime)", 'ts');
  over('TS exporting validate(), as a process', 'worker-off');
  over('  same, in a Worker (AVP_SCRIPT_WORKER=1)', 'worker');
  console.log(`(every script row's validator ran and passed on each of its ${calls} calls: checked in the run log)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
