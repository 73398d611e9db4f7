import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { registryServerSuite } from './registry-server-suite.ts';
import { api, createToken, packageZip, publishZip, startServerProcess } from './registry-server-support.ts';

// Real processes (server, client, PostgreSQL) on a shared 2-core machine: generous per-test budget.
setDefaultTimeout(60_000);

// The same suite with metadata in PostgreSQL (same schema and migrations). The PostgreSQL server is started from the
// distribution's binaries by the suite itself; when they are missing, beforeAll fails with the install command.
let pg: TestPostgres | undefined;
beforeAll(async () => {
  pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
});

registryServerSuite('postgres', () => {
  if (!pg) throw new Error('PostgreSQL did not start (see the beforeAll error above)');
  return pg.url;
});

describe('registry server on PostgreSQL: scale-out and export', () => {
  test("two servers on one database (started together: the migration race is harmless) serve each other's writes", async () => {
    const db = await pg!.database('scaleout');
    const data = tempDir('avp-rs-pg-shared-');
    const [a, b] = await Promise.all([startServerProcess({ data, db }), startServerProcess({ data, db })]);
    try {
      const { token } = await createToken(data, 'alice', { db });
      expect((await publishZip(a.url, packageZip('shared', '1.0.0'), token)).status).toBe(201);
      const v = await api(b.url, '/api/packages/shared/latest');
      expect(v.status).toBe(200);
      expect((await fetch(`${b.url}/api/packages/shared/1.0.0/download`)).status).toBe(200);
      expect((await publishZip(b.url, packageZip('shared', '1.0.0'), token)).status).toBe(409);
      // the metadata is in PostgreSQL, not in a SQLite file beside the blobs
      expect(existsSync(join(data, 'registry.db'))).toBe(false);
      const out = join(tempDir('avp-rs-pg-export-'), 'site');
      const r = await runAvp([
        'registry',
        'export',
        out,
        '--data',
        data,
        '--db',
        db,
        '--base-url',
        'https://cdn.example.test',
        '--json',
      ]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ packages: 1, versions: 1 });
      expect(existsSync(join(out, 'api', 'packages', 'shared', '1.0.0', 'download'))).toBe(true);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  test("an instance's kept metadata answers follow the other instance's publish, yank and downloads at once", async () => {
    const db = await pg!.database('cachecoherence');
    const data = tempDir('avp-rs-pg-cache-');
    const [a, b] = await Promise.all([startServerProcess({ data, db }), startServerProcess({ data, db })]);
    try {
      const { token } = await createToken(data, 'alice', { db });
      expect((await publishZip(a.url, packageZip('kept', '1.0.0'), token)).status).toBe(201);
      // Read twice on B: the second answer is the kept one.
      for (let i = 0; i < 2; i++) expect((await api(b.url, '/api/packages/kept/latest')).body.version).toBe('1.0.0');
      const before = (await api(b.url, '/api/packages/kept')).body;
      expect((await publishZip(a.url, packageZip('kept', '1.1.0'), token)).status).toBe(201);
      expect((await api(b.url, '/api/packages/kept/latest')).body.version).toBe('1.1.0');
      expect((await api(b.url, '/api/packages/kept/^1.0')).body.version).toBe('1.1.0');
      expect((await api(b.url, '/api/packages/kept')).body.versions).toEqual(['1.1.0', '1.0.0']);
      expect((await fetch(`${a.url}/api/packages/kept/1.1.0/download`)).status).toBe(200);
      expect((await api(b.url, '/api/packages/kept')).body.downloads).toBe(before.downloads + 1);
      expect((await api(a.url, '/api/packages/kept/1.1.0', { method: 'DELETE', token })).status).toBe(200);
      expect((await api(b.url, '/api/packages/kept/latest')).body.version).toBe('1.0.0');
      expect((await api(b.url, '/api/packages/kept/^1.0')).body.version).toBe('1.0.0');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
