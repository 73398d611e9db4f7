/**
 * Registry server: metadata read throughput of `avp registry serve` (SQLite, and PostgreSQL when installed) beside a
 * static file server serving the
 * `avp registry export` copy of the same data, measured in the same run on the same machine.
 *
 *   node_modules/.bin/bun run build.ts && node_modules/.bin/bun bench/registry-server.ts [--seconds 3] [--concurrency
 * 32] [--packages 60]
 *
 * Both servers run as their own processes; this process only generates load (N concurrent fetch loops over the same
 * URL mix: detail, latest, one version, versions, search), bounded in time. Prints requests/s, latency percentiles
 * and the static/server ratio.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { zipSync } from 'fflate';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 3);
const CONCURRENCY = arg('concurrency', 32);
const PACKAGES = arg('packages', 60);
const AVP = resolve(import.meta.dir, '../dist/avp');
const BUN = process.execPath;

const root = mkdtempSync(join(tmpdir(), 'avp-bench-rs-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, AVP_HOME: join(root, '.avp'), NO_COLOR: '1' };

async function firstLine(proc: ReturnType<typeof Bun.spawn>): Promise<string> {
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { done, value } = await reader.read();
    if (done) throw new Error('process exited before printing its URL');
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text.split('\n')[0]!;
}

function md(name: string, version: string): string {
  return `---\nname: ${name}\ndescription: Bench validator ${name} checks generated code\nseverity: warn\ntrigger: PostToolUse\ntags: [bench, quality]\nmetadata:\n  version: "${version}"\n---\n\nReport problems of kind ${name}.\n`;
}

async function load(
  base: string,
  urls: string[],
): Promise<{ rps: number; p50: number; p99: number; errors: number; count: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + SECONDS * 1000;
  let i = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const url = base + urls[i++ % urls.length]!;
      const t = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status !== 200) errors++;
      latencies.push(performance.now() - t);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? 0;
  return { rps: latencies.length / elapsed, p50: pct(50), p99: pct(99), errors, count: latencies.length };
}

const procs: Array<ReturnType<typeof Bun.spawn>> = [];
let pg: { url: string; stop(): Promise<void> } | undefined;

/** Starts `avp registry serve` on `data` (and `db`), seeds it through the publish endpoint, returns its URL. */
async function seededServer(data: string, names: string[], db?: string): Promise<string> {
  const dbArgs = db ? ['--db', db] : [];
  const tok = Bun.spawnSync(
    [AVP, 'registry', 'token', 'create', '--name', 'bench', '--json', '--data', data, ...dbArgs],
    { env },
  );
  if (tok.exitCode !== 0) throw new Error(`token create failed: ${tok.stderr}`);
  const token = JSON.parse(tok.stdout.toString()).token as string;
  const server = Bun.spawn([AVP, 'registry', 'serve', '--port', '0', '--data', data, ...dbArgs], {
    env,
    stdout: 'pipe',
    stderr: 'ignore',
  });
  procs.push(server);
  const url = JSON.parse(await firstLine(server)).url as string;
  for (const name of names) {
    for (const version of ['1.0.0', '1.1.0', '2.0.0']) {
      const zip = zipSync({
        [`${name}/`]: new Uint8Array(0),
        [`${name}/VALIDATOR.md`]: new TextEncoder().encode(md(name, version)),
      });
      const form = new FormData();
      form.append('package', new File([zip], 'package.zip', { type: 'application/zip' }));
      const res = await fetch(`${url}/api/packages`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.status !== 201) throw new Error(`publish ${name}@${version}: ${res.status} ${await res.text()}`);
    }
  }
  return url;
}

try {
  const data = join(root, 'data');
  const names = Array.from({ length: PACKAGES }, (_, i) => `bench-validator-${i}`);
  const serverUrl = await seededServer(data, names);

  // The same server on PostgreSQL when the distribution's binaries are installed (scripts/test.sh installs them).
  let pgUrl: string | undefined;
  const { findPostgresBin, startPostgres } = await import('../test/support/postgres.ts');
  if (findPostgresBin()) {
    pg = await startPostgres();
    pgUrl = await seededServer(join(root, 'data-pg'), names, pg.url);
  }

  const site = join(root, 'site');
  const staticProc = Bun.spawn(
    [
      BUN,
      '-e',
      `const { serveStaticExport } = await import(${JSON.stringify(resolve(import.meta.dir, '../registry/static-server.ts'))}); console.log(serveStaticExport(${JSON.stringify(site)}).url);`,
    ],
    { env, stdout: 'pipe', stderr: 'inherit' },
  );
  procs.push(staticProc);
  const staticUrl = await firstLine(staticProc);
  const exp = Bun.spawnSync([AVP, 'registry', 'export', site, '--data', data, '--base-url', staticUrl], { env });
  if (exp.exitCode !== 0) throw new Error(`export failed: ${exp.stderr}`);

  const urls = names.flatMap((n) => [
    `/api/packages/${n}`,
    `/api/packages/${n}/latest`,
    `/api/packages/${n}/1.1.0`,
    `/api/packages/${n}/versions`,
  ]);
  urls.push('/api/packages?q=&limit=20');

  // Warm each (JIT, page cache), then measure one after the other with the same client.
  for (const base of [serverUrl, staticUrl, ...(pgUrl ? [pgUrl] : [])]) await load(base, urls.slice(0, 50));
  const live = await load(serverUrl, urls);
  const copy = await load(staticUrl, urls);
  const onPg = pgUrl ? await load(pgUrl, urls) : undefined;

  const row = (label: string, r: Awaited<ReturnType<typeof load>>) =>
    `  ${label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   ${r.count} requests${r.errors ? `, ${r.errors} non-200` : ''}`;
  console.log(
    `\n== registry server: metadata read throughput (${SECONDS}s each, ${CONCURRENCY} concurrent loops, ${PACKAGES} packages × 3 versions) ==`,
  );
  console.log(row('avp registry serve (SQLite)', live));
  if (onPg) console.log(row('avp registry serve (PostgreSQL)', onPg));
  else console.log('  avp registry serve (PostgreSQL)    skipped: no PostgreSQL binaries (apt-get install postgresql)');
  console.log(row('static file server on the export', copy));
  console.log(
    `  ratio static/server (SQLite): ${(copy.rps / live.rps).toFixed(2)}×${onPg ? `   static/server (PostgreSQL): ${(copy.rps / onPg.rps).toFixed(2)}×` : ''}`,
  );
  console.log(
    '  (URL mix: detail, latest, version, versions, search; load generator, servers and PostgreSQL share the 2 cores)',
  );
  if (live.errors || copy.errors || onPg?.errors) process.exitCode = 1;
} finally {
  for (const p of procs) p.kill('SIGTERM');
  await Promise.all(procs.map((p) => p.exited));
  await pg?.stop();
  rmSync(root, { recursive: true, force: true });
}
