/**
 * Registry server: metadata and download throughput of `avp registry serve` — SQLite, PostgreSQL with one instance,
 * and two stateless instances on the same PostgreSQL side by side (requests alternate between them, as a load
 * balancer would) — beside a static file server on the `avp registry export` copy of the same data; and publish
 * latency. All measured in the same run on the same machine, on loopback.
 *
 *   node_modules/.bin/bun run build.ts && node_modules/.bin/bun bench/registry-server.ts [--seconds 3] [--concurrency
 * 32] [--packages 60] [--publishes 30]
 *
 * Servers run as their own processes; this process only generates load (N concurrent fetch loops over the same URL
 * mix), bounded in time. Prints requests/s, latency percentiles and each server's ratio to the static server.
 * Package-metadata answers are kept by the server while their package is unchanged (registry/metadata-cache.ts), so
 * the metadata mix measures a stamp lookup plus the kept bytes; the target is ≥ 0.5× the static server.
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
const PUBLISHES = arg('publishes', 30);
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

type Result = {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  count: number;
  elapsed: number;
  latencies: number[];
};

/** Fetch loops over `urls`, each request sent to the next of `bases` in turn (one base: a single server). */
async function load(bases: string | string[], urls: string[], seconds = SECONDS): Promise<Result> {
  const list = Array.isArray(bases) ? bases : [bases];
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  let i = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const n = i++;
      const url = list[n % list.length]! + urls[n % urls.length]!;
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
  return {
    rps: latencies.length / elapsed,
    p50: pct(50),
    p99: pct(99),
    errors,
    count: latencies.length,
    elapsed,
    latencies,
  };
}

/**
 * Each target measured in ROUNDS slices taken in turn (a, b, c, a, b, c…), so that load from other processes on a
 * shared machine falls on every target alike and the ratios stay meaningful.
 */
const ROUNDS = 3;
async function interleaved(targets: Array<[string, string | string[]]>, urls: string[]): Promise<Result[]> {
  const parts: Result[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, [, base]] of targets.entries()) parts[i]!.push(await load(base, urls, SECONDS / ROUNDS));
  return parts.map((ps) => {
    const latencies = ps.flatMap((p) => p.latencies).sort((a, b) => a - b);
    const elapsed = ps.reduce((t, p) => t + p.elapsed, 0);
    const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * q) / 100))] ?? 0;
    const errors = ps.reduce((t, p) => t + p.errors, 0);
    return {
      rps: latencies.length / elapsed,
      p50: pct(50),
      p99: pct(99),
      errors,
      count: latencies.length,
      elapsed,
      latencies,
    };
  });
}

const procs: Array<ReturnType<typeof Bun.spawn>> = [];
let pg: { url: string; stop(): Promise<void> } | undefined;

/** Starts `avp registry serve` on `data` (and `db`); writes are not rate-limited here (the seeding publishes 180). */
async function server(data: string, db?: string): Promise<string> {
  const dbArgs = db ? ['--db', db] : [];
  const proc = Bun.spawn([AVP, 'registry', 'serve', '--port', '0', '--data', data, '--write-limit', '0', ...dbArgs], {
    env,
    stdout: 'pipe',
    stderr: 'ignore',
  });
  procs.push(proc);
  return JSON.parse(await firstLine(proc)).url as string;
}

function tokenFor(data: string, db?: string): string {
  const dbArgs = db ? ['--db', db] : [];
  const tok = Bun.spawnSync(
    [AVP, 'registry', 'token', 'create', '--name', 'bench', '--json', '--data', data, ...dbArgs],
    { env },
  );
  if (tok.exitCode !== 0) throw new Error(`token create failed: ${tok.stderr}`);
  return JSON.parse(tok.stdout.toString()).token as string;
}

/** One publish; returns its latency in ms. */
async function publish(url: string, token: string, name: string, version: string): Promise<number> {
  const zip = zipSync({
    [`${name}/`]: new Uint8Array(0),
    [`${name}/VALIDATOR.md`]: new TextEncoder().encode(md(name, version)),
  });
  const form = new FormData();
  form.append('package', new File([zip], 'package.zip', { type: 'application/zip' }));
  const t = performance.now();
  const res = await fetch(`${url}/api/packages`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 201) throw new Error(`publish ${name}@${version}: ${res.status} ${await res.text()}`);
  return performance.now() - t;
}

/** A server on `data` (and `db`) seeded through the publish endpoint; returns its URL and token. */
async function seededServer(data: string, names: string[], db?: string): Promise<{ url: string; token: string }> {
  const token = tokenFor(data, db);
  const url = await server(data, db);
  for (const name of names) for (const version of ['1.0.0', '1.1.0', '2.0.0']) await publish(url, token, name, version);
  return { url, token };
}

/** Sequential publishes of new versions: p50/p99 latency (each one checks, lints, stores and commits). */
async function publishLatency(url: string, token: string, name: string): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < PUBLISHES; i++) times.push(await publish(url, token, name, `3.0.${i}`));
  times.sort((a, b) => a - b);
  return {
    p50: times[Math.floor(times.length / 2)]!,
    p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!,
  };
}

try {
  const data = join(root, 'data');
  const names = Array.from({ length: PACKAGES }, (_, i) => `bench-validator-${i}`);
  const lite = await seededServer(data, names);

  // PostgreSQL (archives in the database) when the distribution's binaries are installed (scripts/test.sh does it):
  // one instance, and a second stateless instance with its own empty --data folder on the same database.
  let pgA: { url: string; token: string } | undefined;
  let pgB: string | undefined;
  const { findPostgresBin, startPostgres } = await import('../test/support/postgres.ts');
  if (findPostgresBin()) {
    pg = await startPostgres();
    pgA = await seededServer(join(root, 'data-pg-a'), names, pg.url);
    pgB = await server(join(root, 'data-pg-b'), pg.url);
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

  const metadata = names.flatMap((n) => [
    `/api/packages/${n}`,
    `/api/packages/${n}/latest`,
    `/api/packages/${n}/1.1.0`,
    `/api/packages/${n}/versions`,
  ]);
  metadata.push('/api/packages?q=&limit=20');
  const downloads = names.flatMap((n) => ['1.0.0', '1.1.0', '2.0.0'].map((v) => `/api/packages/${n}/${v}/download`));
  const pages = names.flatMap((n) => [`/packages/${n}/`, `/packages/${n}/1.1.0/`]);

  const targets: Array<[string, string | string[]]> = [
    ['avp registry serve (SQLite)', lite.url],
    ...(pgA ? ([['… PostgreSQL, one instance', pgA.url]] as Array<[string, string]>) : []),
    ...(pgA && pgB ? ([['… PostgreSQL, two instances', [pgA.url, pgB]]] as Array<[string, string[]]>) : []),
    ['static file server on the export', staticUrl],
  ];
  const row = (label: string, r: Result) =>
    `  ${label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   ${r.count} requests${r.errors ? `, ${r.errors} non-200` : ''}`;
  let errors = 0;
  for (const [title, urls] of [
    ['metadata (detail, latest, version, versions, search)', metadata],
    ['downloads (archives of ~300 bytes)', downloads],
    ['package pages (HTML)', pages],
  ] as Array<[string, string[]]>) {
    // Warm each (JIT, page cache, connection pools), then measure one after the other with the same client.
    for (const [, base] of targets) await load(base, urls.slice(0, 50));
    console.log(
      `\n== registry server: ${title}: ${SECONDS}s each in ${ROUNDS} interleaved slices, ${CONCURRENCY} concurrent loops, ${PACKAGES} packages × 3 versions ==`,
    );
    const results = await interleaved(targets, urls);
    for (const [i, [label]] of targets.entries()) {
      errors += results[i]!.errors;
      console.log(row(label, results[i]!));
    }
    // Side by side with the static server answering the same bytes in the same run (the target: ≥ 0.5× for metadata).
    const floor = results[results.length - 1]!;
    console.log(
      `  relative to the static server: ${results
        .slice(0, -1)
        .map(
          (r, i) =>
            `${targets[i]![0].replace('… ', '').replace('avp registry serve (SQLite)', 'SQLite')} ${(r.rps / floor.rps).toFixed(2)}×`,
        )
        .join('   ')}`,
    );
  }

  console.log(
    `\n== publish latency: ${PUBLISHES} sequential publishes of new versions (upload, checks, lint, store, commit) ==`,
  );
  const liteP = await publishLatency(lite.url, lite.token, 'bench-validator-0');
  console.log(
    `  SQLite + files                     p50 ${liteP.p50.toFixed(1).padStart(6)} ms   p99 ${liteP.p99.toFixed(1).padStart(6)} ms`,
  );
  if (pgA) {
    const pgP = await publishLatency(pgA.url, pgA.token, 'bench-validator-1');
    console.log(
      `  PostgreSQL + archives in the db    p50 ${pgP.p50.toFixed(1).padStart(6)} ms   p99 ${pgP.p99.toFixed(1).padStart(6)} ms`,
    );
  } else
    console.log('  PostgreSQL                         skipped: no PostgreSQL binaries (apt-get install postgresql)');
  console.log('  (the load generator, the servers and PostgreSQL share the 2 cores: two instances compete for them)');
  if (errors) process.exitCode = 1;
} finally {
  for (const p of procs) p.kill('SIGTERM');
  await Promise.all(procs.map((p) => p.exited));
  await pg?.stop();
  rmSync(root, { recursive: true, force: true });
}
