/**
 * bench/stats.ts — what counting calls and reading the logs cost:
 *   1. the hook-call counter (one append per hook call, also when nothing matches) next to a whole no-match
 *      `avp hook` call of the compiled binary, measured side by side in this run;
 *   2. `avp stats` and `avp report` on a run log of 100,000 validator runs over 30 days.
 * Usage: node_modules/.bin/bun bench/stats.ts [calls]   (AVP_BENCH_BIN=path to bench another binary than dist/avp)
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { HookEvent } from '../src/protocol/event.ts';
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

try {
  mkdirSync(join(root, '.git'), { recursive: true });
  const dir = join(root, '.avp/validators/only-python');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'VALIDATOR.md'),
    '---\nname: only-python\ndescription: Never matches the bench event.\nseverity: error\ntrigger: PostToolUse\nmatch:\n  files: ["**/*.py"]\n---\nCheck.\n',
  );
  timed([BIN, 'accept']);

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

  // 2. reading a big log: 100,000 runs over 30 days
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
