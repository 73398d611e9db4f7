/**
 * `avp add` end to end from a loopback registry (target ≤ 150 ms per install), measured side by side with:
 *   --version            the process floor of the compiled binary
 *   add --offline        the embedded catalog (no network: resolution + staging + lint + commit only)
 *   add (avp server)     `dist/avp registry serve` (SQLite) as a separate process — the realistic case
 *   add (test registry)  test/support/hostile-registry.ts in this process, honest mode
 * Each add is a fresh AVP_HOME, so every run resolves, downloads, verifies, inspects, lints and commits.
 * Medians (and p90) over RUNS runs. Run: node_modules/.bin/bun run build.ts && node_modules/.bin/bun
 * bench/registry-add.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startHostileRegistry } from '../test/support/hostile-registry.ts';
import { validatorZip } from '../test/unit/registry-client/zip-forge.ts';

const BIN = resolve(import.meta.dir, '../dist/avp');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const root = mkdtempSync(join(tmpdir(), 'avp-bench-add-'));

async function run(args: string[], env: Record<string, string> = {}): Promise<number> {
  const home = mkdtempSync(join(root, 'h-'));
  const started = performance.now();
  const proc = Bun.spawn([BIN, ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      AVP_HOME: join(home, '.avp'),
      NO_COLOR: '1',
      // A judge as far as `avp add` can see (it refuses LLM validators without one), never asked.
      ANTHROPIC_API_KEY: 'unused',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      ...env,
    },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`avp ${args.join(' ')} failed: ${err}`);
  rmSync(home, { recursive: true, force: true });
  return ms;
}

async function measure(args: string[], env?: Record<string, string>): Promise<{ median: number; p90: number }> {
  await run(args, env); // warm the page cache
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await run(args, env));
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, p90: times[Math.floor(times.length * 0.9)]! };
}

/** Starts `dist/avp registry serve` with a published package; returns its URL and a stop function. */
async function startAvpServer(): Promise<{ url: string; stop(): void } | undefined> {
  const data = join(root, 'server-data');
  mkdirSync(data, { recursive: true });
  const proc = Bun.spawn([BIN, 'registry', 'serve', '--port', '0', '--data', data], {
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, NO_COLOR: '1' },
  });
  let text = '';
  const deadline = Date.now() + 10_000;
  for (const stream of [proc.stdout, proc.stderr]) {
    void (async () => {
      for await (const chunk of stream) text += new TextDecoder().decode(chunk);
    })();
  }
  while (!/http:\/\/127\.0\.0\.1:\d+/.test(text) && Date.now() < deadline) await Bun.sleep(50);
  const url = /http:\/\/127\.0\.0\.1:\d+/.exec(text)?.[0];
  if (!url) {
    proc.kill();
    return undefined;
  }
  const token = Bun.spawnSync([BIN, 'registry', 'token', 'create', '--data', data, '--name', 'bench', '--json'], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  const tok = /"token"\s*:\s*"([^"]+)"/.exec(token.stdout.toString())?.[1];
  if (!tok) {
    proc.kill();
    return undefined;
  }
  const pkg = join(root, 'bench-pkg');
  mkdirSync(join(pkg, 'rules'), { recursive: true });
  writeFileSync(
    join(pkg, 'VALIDATOR.md'),
    '---\nname: bench-pkg\ndescription: Bench package.\nseverity: error\ntrigger: PostToolUse\nmetadata:\n  version: "1.0.0"\n---\nCheck.\n',
  );
  writeFileSync(join(pkg, 'rules', 'one.md'), '---\nname: one\n---\nRule one.\n');
  await run(['publish', pkg, '--registry', url], { AVP_TOKEN: tok });
  return { url, stop: () => proc.kill() };
}

const reg = await startHostileRegistry();
reg.serve('demo', { version: '1.0.0', bytes: validatorZip('demo') });
const server = await startAvpServer();

const rows: Array<[string, { median: number; p90: number } | undefined]> = [
  ['avp --version (process floor)', await measure(['--version'])],
  ['avp add no-secrets --offline (catalog)', await measure(['add', 'no-secrets', '--offline'])],
  [
    'avp add bench-pkg (avp registry serve)',
    server ? await measure(['add', 'bench-pkg', '--registry', server.url]) : undefined,
  ],
  ['avp add demo (test registry in-process)', await measure(['add', 'demo', '--registry', reg.url])],
];
server?.stop();
await reg.close();
rmSync(root, { recursive: true, force: true });

const floor = rows[0]![1]!.median;
console.log(`\n## registry client: avp add (median / p90 of ${RUNS} runs, fresh AVP_HOME each; target ≤ 150 ms)\n`);
console.log('| case | median ms | p90 ms | × process floor | vs 150 ms target |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, m] of rows) {
  if (!m) {
    console.log(`| ${name} | n/a (server did not start) | | | |`);
    continue;
  }
  console.log(
    `| ${name} | ${m.median.toFixed(1)} | ${m.p90.toFixed(1)} | ${(m.median / floor).toFixed(1)}× | ${(m.median / 150).toFixed(2)}× |`,
  );
}
