/**
 * bench/hostile-input.ts — hostile stdin is refused at about the cost of reading it: a hook input nested 10^5, 10^6
 * and 4·10^6 levels deep (the last is the most the 8 MiB input cap admits), with the catalog's shell validator
 * installed so that anything past the bound would run it. Prints the wall time and peak memory of each refusal, side
 * by side with an ordinary Bash call in the same project. Target: each refusal well under a second.
 * Usage: node_modules/.bin/bun bench/hostile-input.ts [runs]
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const RUNS = Number(process.argv[2] ?? 5);
const BIN = resolve(process.env.AVP_BENCH_BIN || resolve(import.meta.dir, '../dist/avp'));
const work = mkdtempSync(join(tmpdir(), 'avp-bench-hostile-'));
const root = join(work, 'project');
const home = join(work, 'home');
mkdirSync(join(root, '.avp/validators'), { recursive: true });
mkdirSync(home, { recursive: true });
cpSync(resolve(import.meta.dir, '../validators/dangerous-commands'), join(root, '.avp/validators/dangerous-commands'), {
  recursive: true,
});
const env = { ...process.env, HOME: home, AVP_HOME: join(home, '.avp'), CLAUDE_PROJECT_DIR: root };
const accepted = Bun.spawnSync([BIN, 'accept'], { cwd: root, env, stdout: 'pipe', stderr: 'pipe' });
if (accepted.exitCode !== 0) throw new Error(`avp accept failed: ${accepted.stderr.toString()}`);

function input(levels: number): string {
  const head = JSON.stringify({ session_id: 'bench', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Bash' });
  return `${head.slice(0, -1)},"tool_input":{"command":"ls","deep":${'['.repeat(levels)}${']'.repeat(levels)}}}\n`;
}

/**
 * Median wall time (ms) and the largest peak RSS (MB) of `avp hook` over RUNS calls. The peak comes from GNU time:
 * Bun spawns with vfork, which would carry this process's own high-water RSS into the child's figure.
 */
function measure(stdin: string): { ms: number; mb: number; code: number; out: string; err: string } {
  const times: number[] = [];
  let mb = 0;
  let code = 0;
  let out = '';
  let err = '';
  const timed = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', '%M'] : [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const r = Bun.spawnSync([...timed, BIN, 'hook'], { cwd: root, env, stdin: Buffer.from(stdin), stderr: 'pipe' });
    times.push(performance.now() - started);
    const kb = Number(r.stderr.toString().trim().split('\n').pop());
    if (timed.length && Number.isFinite(kb)) mb = Math.max(mb, kb / 1024);
    code = r.exitCode ?? -1;
    out = r.stdout.toString();
    err = r.stderr.toString();
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] ?? 0, mb, code, out, err };
}

const rows: Array<[string, number]> = [
  ['ordinary Bash call', 0],
  ['nested 10^5 deep', 100_000],
  ['nested 10^6 deep', 1_000_000],
  ['nested 4·10^6 deep', 4_000_000],
];
console.log(`${'input'.padEnd(22)} ${'exit'.padStart(4)} ${'wall ms'.padStart(9)} ${'peak MB'.padStart(8)}  target`);
for (const [label, levels] of rows) {
  const r = measure(
    levels
      ? input(levels)
      : `${JSON.stringify({ session_id: 'bench', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } })}\n`,
  );
  // The ordinary call runs the validator; each hostile one is refused for its nesting (exit 2 alone could be any
  // refusal, e.g. the size cap, and would not be the bound this row names).
  if (!levels && (r.code !== 0 || !r.out.includes('"passed":true')))
    throw new Error(`the ordinary Bash call did not run the validator (${r.code}): ${r.out}${r.err}`);
  const deep = r.err.includes('the hook input nests deeper than');
  const verdict = levels ? (r.ms < 1000 && r.code === 2 && deep ? 'PASS (refused < 1 s)' : 'MISS') : '';
  console.log(
    `${label.padEnd(22)} ${String(r.code).padStart(4)} ${r.ms.toFixed(0).padStart(9)} ${r.mb.toFixed(0).padStart(8)}  ${verdict}`,
  );
}
rmSync(work, { recursive: true, force: true });
