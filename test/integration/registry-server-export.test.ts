import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStaticExport } from '../../registry/static-server.ts';
import { runAvp, tempDir } from '../support/run-avp.ts';
import {
  api,
  createToken,
  packageZip,
  publishZip,
  startServerProcess,
  type ServerProcess,
} from './registry-server-support.ts';

// Real processes (server, client, PostgreSQL) on a shared 2-core machine: generous per-test budget.
setDefaultTimeout(60_000);

/**
 * `avp registry export`: the read path as static files, served by a plain static file server (path → file or
 * path/index.json, nothing else), answers the clients' read calls like the live server — with downloadUrls on the
 * export's base URL.
 */
describe('registry export', () => {
  let srv: ServerProcess;
  let stat: { url: string; stop(): Promise<void> };
  const data = tempDir('avp-rs-export-data-');
  const out = join(tempDir('avp-rs-export-'), 'site');

  beforeAll(async () => {
    const { token } = await createToken(data, 'alice');
    srv = await startServerProcess({ data });
    for (const [name, version] of [
      ['alpha', '1.0.0'],
      ['alpha', '1.1.0'],
      ['beta', '0.1.0'],
      ['gamma', '1.0.0'],
      ['alpha', '1.2.0'],
    ] as const) {
      expect((await publishZip(srv.url, packageZip(name, version, { tags: ['security'] }), token)).status).toBe(201);
    }
    expect((await api(srv.url, '/api/packages/alpha/1.2.0', { method: 'DELETE', token })).status).toBe(200);
    expect((await api(srv.url, '/api/packages/gamma/1.0.0', { method: 'DELETE', token })).status).toBe(200);
    stat = serveStaticExport(out);
    // exported while the server runs: the SQLite store is in WAL mode
    const r = await runAvp(['registry', 'export', out, '--data', data, '--base-url', stat.url, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ packages: 3, versions: 5 });
  });
  afterAll(async () => {
    await srv?.stop();
    await stat?.stop();
  });

  const rebase = (body: unknown) =>
    JSON.parse(JSON.stringify(body).replaceAll(srv.url, 'BASE').replaceAll(stat.url, 'BASE'));

  test('every read path answers the same JSON as the live server', async () => {
    const paths = [
      '/api/packages/alpha',
      '/api/packages/alpha/latest',
      '/api/packages/alpha/versions',
      '/api/packages/alpha/1.0.0',
      '/api/packages/alpha/1.2.0',
      '/api/packages/beta',
      '/api/packages/gamma/versions',
      '/api/packages/gamma/1.0.0',
    ];
    for (const path of paths) {
      const live = await api(srv.url, path);
      const copy = await api(stat.url, path);
      expect(live.status).toBe(200);
      expect(copy.status).toBe(200);
      expect(copy.headers.get('content-type')).toContain('application/json');
      expect(rebase(copy.body)).toEqual(rebase(live.body));
    }
    expect((await api(stat.url, '/api/packages/alpha/latest')).body.downloadUrl).toBe(
      `${stat.url}/api/packages/alpha/1.1.0/download`,
    );
    // a fully yanked package is not resolvable here either, and unknown names are 404
    expect((await api(stat.url, '/api/packages/gamma')).status).toBe(404);
    expect((await api(stat.url, '/api/packages/nope')).status).toBe(404);
    expect((await api(stat.url, '/api/health')).status).toBe(200);
  });

  test('the search index lists every resolvable package and ignores the query', async () => {
    const live = await api(srv.url, '/api/packages?q=&limit=100');
    const copy = await api(stat.url, '/api/packages?q=whatever&limit=1');
    expect(copy.body.total).toBe(2);
    expect(rebase(copy.body.packages)).toEqual(
      rebase(live.body.packages).sort((a: any, b: any) => a.name.localeCompare(b.name)),
    );
  });

  test('archives download byte-identical, with the integrity the metadata states', async () => {
    for (const path of ['/api/packages/alpha/1.0.0', '/api/packages/alpha/1.2.0', '/api/packages/gamma/1.0.0']) {
      const meta = (await api(stat.url, path)).body;
      const res = await fetch(meta.downloadUrl);
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const live = new Uint8Array(await (await fetch(`${srv.url}${path}/download`)).arrayBuffer());
      expect(Buffer.from(bytes).equals(Buffer.from(live))).toBe(true);
      const sri = `sha512-${new Bun.CryptoHasher('sha512').update(bytes).digest('base64')}`;
      expect(sri).toBe(meta.integrity);
      expect(bytes.length).toBe(meta.size);
    }
  });

  test("avp's own client reads from the static copy: search, info, add with integrity check", async () => {
    const project = tempDir('avp-rs-export-project-');
    mkdirSync(join(project, '.git'));
    const home = tempDir('avp-rs-export-home-');
    const env = { HOME: home, AVP_HOME: join(home, '.avp'), AVP_REGISTRY_URL: stat.url };
    const info = await runAvp(['info', 'alpha', '--json'], { env, cwd: project });
    expect(info.code).toBe(0);
    expect(info.stdout).toContain('1.1.0');
    const search = await runAvp(['search', 'alpha', '--json'], { env, cwd: project });
    expect(search.code).toBe(0);
    expect(search.stdout).toContain('"alpha"');
    // alpha is an LLM validator: a judge avp can see (never asked here) lets `avp add` install it.
    const add = await runAvp(['add', 'alpha@^1.0.0', '--project'], {
      env: { ...env, ANTHROPIC_API_KEY: 'sk-ant-test-never-sent' },
      cwd: project,
    });
    if (add.code !== 0) throw new Error(add.stderr);
    const lock = JSON.parse(readFileSync(join(project, '.avp', 'avp-lock.json'), 'utf8')).packages.alpha;
    expect(lock).toMatchObject({ version: '1.1.0', resolved: `${stat.url}/api/packages/alpha/1.1.0/download` });
    expect(readFileSync(join(project, '.avp', 'validators', 'alpha', 'VALIDATOR.md'), 'utf8')).toContain('name: alpha');
  });

  test('refuses a non-empty target and a bad base URL, leaving the target untouched', async () => {
    const busy = tempDir('avp-rs-export-busy-');
    mkdirSync(join(busy, 'keep'));
    writeFileSync(join(busy, 'keep', 'file.txt'), 'mine');
    const r = await runAvp(['registry', 'export', busy, '--data', data, '--base-url', stat.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is not an empty directory');
    expect(r.stderr).toContain('fix:');
    expect(readdirSync(busy)).toEqual(['keep']);
    const fresh = join(tempDir('avp-rs-export-bad-'), 'site');
    const bad = await runAvp(['registry', 'export', fresh, '--data', data, '--base-url', 'cdn.example.com']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not an http(s) URL');
  });
});
