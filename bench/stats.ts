/**
 * bench/stats.ts — what counting calls and reading the logs cost:
 *   1. the hook-call counter (one append per hook call, also when nothing matches) next to a whole no-match
 *      `avp hook` call of the compiled binary, measured side by side in this run;
 *   2. the calls the hook shortcut counted, waiting as files of their own: what a full-path call mid-turn (a Write)
 *      and one at the turn's edge (a Stop) cost with none and with 128 waiting (the Stop folds them, the Write
 *      leaves them);
 *   3. `avp stats` and `avp report` on a run log of 100,000 validator runs over 30 days.
 * Usage: node_modules/.bin/bun bench/stats.ts [calls]   (AVP_BENCH_BIN=path to bench another binary than dist/avp)
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { HookEvent } from '../src/protocol/event.ts';
import { callLine, pendingDirOf, pendingName } from '../src/stats/call-line.ts';
import { countCall } from '../src/stats/calls.ts';

const CALLS = Number(process.argv[2] ?? 2000);
const BIN = resolve(process.env.AVP_BENCH_BIN || resolve(import.meta.dir, '../dist/avp'));
const work = mkdtempSync(join(tmpdir(), 'avp-bench-stats-'));
const root = join(work, 'project');
const home = join(work, 'home');
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, AVP_HOME: join(home, '.avp') };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timed(argv: string[], stdin?: string): number {
  const t0 = performance.now();
  const p = Bun.spawnSync(argv, { cwd: root, env, stdin: stdin ? new TextEncoder().encode(stdin) : 'ignore' });
  if (p.exitCode !== 0) throw new Error(`${argv.join(' ')}: ${p.stderr.toString()}`);
  return performance.now() - t0;
}

/** A project with one validator that never matches the bench's events, accepted as `avp accept` leaves it. */
function project(at: string): void {
  mkdirSync(join(at, '.git'), { recursive: true });
  const dir = join(at, '.avp/validators/only-python');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'VALIDATOR.md'),
    '---\nname: only-python\ndescription: Never matches the bench event.\nseverity: error\ntrigger: PostToolUse\nmatch:\n  files: ["**/*.py"]\n---\nCheck.\n',
  );
  const p = Bun.spawnSync([BIN, 'accept'], { cwd: at, env });
  if (p.exitCode !== 0) throw new Error(`avp accept: ${p.stderr.toString()}`);
}

try {
  project(root);
  // The second project's calls wait before the series and stay (a Write leaves them): only the Write reads there.
  const waiting = join(work, 'waiting');
  project(waiting);

  // 1. the counter alone, in process
  const event = { event: 'PostToolUse', projectRoot: root, raw: {} } as unknown as HookEvent;
  countCall(event, 'warm-up');
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) countCall(event, `toolu_bench_${i}`);
  const perCallUs = ((performance.now() - t0) * 1000) / CALLS;

  // … next to a whole no-match hook call (which includes one counter append)
  const input = JSON.stringify({
    session_id: 's',
    cwd: root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(root, 'a.ts'), content: 'x\n' },
    tool_response: { type: 'create', filePath: join(root, 'a.ts'), content: 'x\n', structuredPatch: [] },
    tool_use_id: 't',
  });
  await Bun.sleep(2100); // the discovery cache does not trust files changed in the last 2 s
  for (let i = 0; i < 3; i++) timed([BIN, 'hook'], input);
  const hookMs = median(Array.from({ length: 30 }, () => timed([BIN, 'hook'], input)));
  console.log(`hook-call counter: ${perCallUs.toFixed(1)} µs per call (mean over ${CALLS} appends)`);
  console.log(
    `no-match avp hook call: ${hookMs.toFixed(1)} ms median of 30 → the counter is ${((perCallUs / 1000 / hookMs) * 100).toFixed(2)}% of it`,
  );

  // 2. pending calls: left by a Write mid-turn, folded by the Stop (each call's CPU, from the kernel; interleaved).
  // The Write's rows run in two projects, one with 128 calls waiting since before the series (files made just before
  // a call cost it more to list than the listing itself: not what an agent's session has); the Stop's refill each time.
  const fill = (at: string, n: number) => {
    const pending = pendingDirOf(at);
    for (const name of readdirSync(pending)) rmSync(join(pending, name));
    for (let i = 0; i < n; i++) writeFileSync(join(pending, pendingName()), callLine('PostToolUse', `toolu_read_${i}`));
  };
  const writeIn = (at: string) => input.replaceAll(JSON.stringify(root).slice(1, -1), at);
  const stopInput = JSON.stringify({ session_id: 's', cwd: root, hook_event_name: 'Stop', stop_hook_active: false });
  const cpuMs = (at: string, stdin: string) => {
    const p = Bun.spawnSync([BIN, 'hook'], { cwd: at, env, stdin: new TextEncoder().encode(stdin) });
    if (p.exitCode !== 0) throw new Error(`avp hook: ${p.stderr.toString()}`);
    return Number(p.resourceUsage!.cpuTime.total) / 1000;
  };
  cpuMs(waiting, writeIn(waiting)); // makes its pending folder, as a first call does
  fill(waiting, 128);
  fill(root, 0);
  await Bun.sleep(2100);
  const rows = {
    'Write, none waiting': { at: root, stdin: writeIn(root), n: 0, left: 0 },
    'Write, 128 waiting': { at: waiting, stdin: writeIn(waiting), n: -1, left: 128 },
    'Stop, none waiting': { at: root, stdin: stopInput, n: 0, left: 0 },
    'Stop, 128 waiting': { at: root, stdin: stopInput, n: 128, left: 0 },
  };
  const cpu: Record<string, number[]> = {};
  for (let round = 0; round < 25; round++) {
    for (const [name, row] of Object.entries(rows)) {
      if (row.n >= 0) fill(row.at, row.n);
      (cpu[name] ??= []).push(cpuMs(row.at, row.stdin));
      // What each call did with them is checked, or the rows measure something else.
      const left = readdirSync(pendingDirOf(row.at)).length;
      if (left !== row.left) throw new Error(`${name}: ${left} pending calls left, not ${row.left}`);
    }
  }
  const row = (name: string, base: string) => {
    const d = median(cpu[name]!) - median(cpu[base]!);
    return `  ${name.padEnd(22)} ${median(cpu[name]!).toFixed(2)} ms CPU (${d < 0 ? '−' : '+'}${Math.abs(d).toFixed(2)})`;
  };
  console.log('pending calls the shortcut counted (median CPU of 25 interleaved calls each):');
  console.log(`${row('Write, 128 waiting', 'Write, none waiting')}  left for the turn's edge`);
  console.log(`${row('Stop, 128 waiting', 'Stop, none waiting')}  folded`);

  // 3. reading a big log: 100,000 runs over 30 days
  const logs = join(root, '.avp/logs');
  const day0 = Date.now() - 30 * 86_400_000;
  const names = ['no-keys', 'style', 'llm-review', 'tests-pass', 'docs'];
  for (let d = 0; d < 30; d++) {
    const lines: string[] = [];
    for (let i = 0; i < 100_000 / 30; i++) {
      const v = names[i % names.length]!;
      const llm = v === 'llm-review';
      lines.push(
        JSON.stringify({
          ts: new Date(day0 + d * 86_400_000 + i * 20_000).toISOString(),
          event: 'PostToolUse',
          tool: 'Edit',
          files: [`src/file${i % 50}.ts`],
          outcome: 'PASSED',
          call: `c${d}-${i}`,
          validator: v,
          severity: 'error',
          status: i % 17 ? 'passed' : 'failed',
          durationMs: llm ? 800 + (i % 900) : 20 + (i % 40),
          judge: llm ? 'anthropic' : 'script',
          model: llm ? 'claude-haiku-4-5' : undefined,
          cache: llm ? (i % 3 ? 'miss' : 'hit') : 'none',
          tokens: llm && i % 3 ? { inputTokens: 900, outputTokens: 40, cacheReadTokens: 1500 } : undefined,
        }),
      );
    }
    writeFileSync(
      join(logs, `hook-${new Date(day0 + d * 86_400_000).toISOString().slice(0, 10)}.jsonl`),
      `${lines.join('\n')}\n`,
    );
  }
  const statsMs = median(Array.from({ length: 3 }, () => timed([BIN, 'stats', '--json'])));
  const reportMs = median(Array.from({ length: 3 }, () => timed([BIN, 'report', '--out', join(work, 'r.html')])));
  const kb = statSync(join(work, 'r.html')).size / 1024;
  console.log(
    `avp stats on 100,000 runs: ${statsMs.toFixed(0)} ms; avp report: ${reportMs.toFixed(0)} ms (${kb.toFixed(0)} KiB)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
