import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { SQL } from 'bun';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { runAvp, tempDir } from '../support/run-avp.ts';
import {
  api,
  createToken,
  filesUnder,
  packageZip,
  publishZip,
  startServerProcess,
  type ServerProcess,
} from './registry-server-support.ts';

// Several real server processes, PostgreSQL and the client on a shared 2-core machine: generous budgets.
setDefaultTimeout(120_000);

/**
 * Many stateless servers on one PostgreSQL database: each instance has its own empty --data folder (scratch only),
 * so whatever one instance serves from another's write came through the database.
 */
let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
});

const sri = (bytes: Uint8Array) => `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
const keyOf = (bytes: Uint8Array) => createHash('sha512').update(bytes).digest('hex');

async function pair(db: string, extra: Parameters<typeof startServerProcess>[0] = {}) {
  return Promise.all([
    startServerProcess({ ...extra, data: tempDir('avp-scale-a-'), db }),
    startServerProcess({ ...extra, data: tempDir('avp-scale-b-'), db }),
  ]);
}

describe('two stateless instances on one PostgreSQL (archives in the database)', () => {
  let db: string;
  let sql: SQL;
  let a: ServerProcess;
  let b: ServerProcess;
  let token: string;

  beforeAll(async () => {
    db = await pg.database('scale_db');
    [a, b] = await pair(db);
    token = (await createToken(tempDir('avp-scale-admin-'), 'alice', { db })).token;
    sql = new SQL(db);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await sql?.close();
  });

  test('the archives live in the database: nothing under either --data folder but scratch', async () => {
    expect(a.info.archives).toBe('db');
    expect((await api(a.url, '/api/health')).body).toMatchObject({
      status: 'ok',
      engine: 'postgres',
      database: { status: 'ok' },
      storage: { kind: 'db', status: 'ok' },
    });
    expect((await publishZip(a.url, packageZip('shared-rules', '1.0.0'), token)).status).toBe(201);
    expect(filesUnder(join(a.data, 'blobs'))).toEqual([]);
    expect(filesUnder(join(b.data, 'blobs'))).toEqual([]);
  });

  test('publish through one instance, install through the other with avp add (integrity checked)', async () => {
    const zip = packageZip('team-style', '1.2.0', { description: 'Team style rules' });
    expect((await publishZip(a.url, zip, token)).status).toBe(201);
    const home = tempDir('avp-scale-client-');
    // --force: an LLM validator with no judge on this machine (this test is about the registry, not judging).
    const r = await runAvp(['add', 'team-style', '--registry', b.url, '--force'], {
      env: { HOME: home, AVP_HOME: join(home, '.avp') },
    });
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(join(home, '.avp', 'validators', 'team-style', 'VALIDATOR.md'), 'utf8');
    expect(md).toContain('Team style rules');
    const download = await fetch(`${b.url}/api/packages/team-style/1.2.0/download`);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(zip))).toBe(true);
    // and the pages of the other instance know it too
    expect(await (await fetch(`${b.url}/packages/team-style/`)).text()).toContain('Team style rules');
  });

  test('20 concurrent publishes of one new version through both: one 201, nineteen 409, one archive', async () => {
    const zip = packageZip('contested', '3.0.0');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => publishZip(i % 2 ? a.url : b.url, zip, token)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const [versions] = await sql`SELECT count(*) AS n FROM versions WHERE name = ${'contested'}`;
    expect(Number(versions.n)).toBe(1);
    const [archives] = await sql`SELECT count(*) AS n FROM archives WHERE key = ${keyOf(zip)}`;
    expect(Number(archives.n)).toBe(1);
    const audit = await sql`SELECT count(*) AS n FROM audit_log WHERE action = 'publish' AND package = 'contested'`;
    expect(Number(audit[0].n)).toBe(1);
  });

  test('SIGKILL of an instance in the middle of publishes: no version without its archive, no orphan archive', async () => {
    const victim = await startServerProcess({ data: tempDir('avp-scale-victim-'), db });
    const zips = Array.from({ length: 24 }, (_, i) => packageZip('crash-test', `1.0.${i}`));
    let killed: Promise<unknown> | undefined;
    const inflight = zips.map((zip) =>
      publishZip(victim.url, zip, token)
        .then((r) => {
          // Killed the moment the first publish is acknowledged, while the others are being checked or committed
          // (polling for it let all 24 finish first on a fast run, and the test then proved nothing).
          if (r.status === 201) killed ??= victim.kill('SIGKILL');
          return r.status;
        })
        .catch(() => 0),
    );
    const statuses = await Promise.all(inflight);
    await (killed ?? victim.kill('SIGKILL'));
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(0);
    // the kill landed in the middle: some publishes never got an answer
    expect(statuses.filter((s) => s === 0).length).toBeGreaterThan(0);
    // every archive row belongs to a committed version (compared here: PostgreSQL's base64 wraps long lines)
    const integrities = new Set(
      ((await sql`SELECT integrity FROM versions`) as Array<{ integrity: string }>).map((r) => r.integrity),
    );
    const keys = ((await sql`SELECT key FROM archives`) as Array<{ key: string }>).map((r) => r.key);
    const orphans = keys.filter((k) => !integrities.has(`sha512-${Buffer.from(k, 'hex').toString('base64')}`));
    expect(orphans).toEqual([]);
    const rows = (await sql`SELECT v.version, v.integrity FROM versions v WHERE v.name = ${'crash-test'}`) as Array<{
      version: string;
      integrity: string;
    }>;
    for (const row of rows) {
      const zip = zips[Number(row.version.split('.')[2])]!;
      expect(row.integrity).toBe(sri(zip));
      const [arch] = await sql`SELECT size FROM archives WHERE key = ${keyOf(zip)}`;
      expect([row.version, Number(arch?.size)]).toEqual([row.version, zip.length]);
      // the survivor serves every committed version, byte for byte
      const res = await fetch(`${a.url}/api/packages/crash-test/${row.version}/download`);
      expect([row.version, res.status]).toEqual([row.version, 200]);
    }
    // every 201 the clients saw is a committed row (acknowledged means durable)
    expect(rows.length).toBeGreaterThanOrEqual(statuses.filter((s) => s === 201).length);
    // whatever was not committed can be published again through the survivor
    const missing = zips.map((_, i) => `1.0.${i}`).filter((v) => !rows.some((r) => r.version === v));
    for (const v of missing.slice(0, 3)) {
      const zip = zips[Number(v.split('.')[2])]!;
      expect((await publishZip(a.url, zip, token)).status).toBe(201);
    }
  });
});

describe('two instances with archives in S3-compatible object storage', () => {
  test('publish through one, download through the other; a refused upload and a killed one leave no object', async () => {
    const { startS3 } = await import('../support/s3-server.ts');
    const s3 = startS3('avp-archives');
    const db = await pg.database('scale_s3');
    const env = {
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'test',
      S3_SECRET_ACCESS_KEY: 'test-secret',
      S3_REGION: 'us-east-1',
    };
    const args = ['--archives', 's3://avp-archives/registry'];
    const [a, first] = await pair(db, { args, env });
    let b = first;
    const sql = new SQL(db);
    try {
      const token = (await createToken(tempDir('avp-s3-admin-'), 'alice', { db })).token;
      expect(a.info.archives).toBe('s3');
      expect((await api(b.url, '/api/health')).body.storage).toEqual({ kind: 's3', status: 'ok' });
      const zip = packageZip('bucketed', '1.0.0');
      expect((await publishZip(a.url, zip, token)).status).toBe(201);
      expect(s3.keys()).toHaveLength(1);
      expect(s3.keys()[0]).toStartWith(`registry/${keyOf(zip)}/`);
      const res = await fetch(`${b.url}/api/packages/bucketed/1.0.0/download`);
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(zip))).toBe(true);
      // the same version again, through both, concurrently: refused, and each refusal deletes its own object
      const again = await Promise.all([publishZip(a.url, zip, token), publishZip(b.url, zip, token)]);
      expect(again.map((r) => r.status)).toEqual([409, 409]);
      expect(s3.keys()).toHaveLength(1);
      // no archive in the database, none on either disk
      const [n] = await sql`SELECT count(*) AS n FROM archives`;
      expect(Number(n.n)).toBe(0);
      expect([...filesUnder(join(a.data, 'blobs')), ...filesUnder(join(b.data, 'blobs'))]).toEqual([]);

      // A server killed between writing the object and committing the row left a pending object behind: the next
      // start of any instance removes it once it is old enough; a live object is never touched.
      const stale = `registry/${'ab'.repeat(64)}/00000000-dead.zip`;
      s3.put(stale, new Uint8Array([80, 75, 3, 4]));
      await sql`INSERT INTO archive_objects (id, key, object, live, started_at)
        VALUES (${'dead-upload'}, ${'ab'.repeat(64)}, ${stale}, ${0}, ${'2000-01-01T00:00:00.000Z'})`;
      await b.stop();
      b = await startServerProcess({ data: tempDir('avp-scale-b2-'), db, args, env });
      expect(s3.keys()).toEqual([expect.stringMatching(new RegExp(`^registry/${keyOf(zip)}/`))]);
      const [pending] = await sql`SELECT count(*) AS n FROM archive_objects WHERE live = 0`;
      expect(Number(pending.n)).toBe(0);
      expect((await fetch(`${b.url}/api/packages/bucketed/1.0.0/download`)).status).toBe(200);

      // storage down: health says so (503, the database still ok) and a publish fails without a version row
      await s3.stop();
      const health = await api(a.url, '/api/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'degraded', database: { status: 'ok' }, storage: { kind: 's3' } });
      expect(health.body.storage.status).toBe('error');
      const down = await publishZip(a.url, packageZip('bucketed', '1.1.0'), token);
      expect(down.status).toBe(503);
      expect((await sql`SELECT version FROM versions WHERE name = 'bucketed' AND version = '1.1.0'`).length).toBe(0);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await sql.close();
      await s3.stop();
    }
  });
});

describe('moving a PostgreSQL registry from archive files to the database', () => {
  test('archives written as files before the move still download; new ones go into the database', async () => {
    const db = await pg.database('scale_move');
    const data = tempDir('avp-move-');
    const { token } = await createToken(data, 'alice', { db });
    const before = await startServerProcess({ data, db, args: ['--archives', 'file'] });
    expect((await publishZip(before.url, packageZip('moved', '1.0.0'), token)).status).toBe(201);
    await before.stop();
    expect(filesUnder(join(data, 'blobs'))).toHaveLength(1);
    const after = await startServerProcess({ data, db });
    try {
      expect(after.info.archives).toBe('db');
      expect((await fetch(`${after.url}/api/packages/moved/1.0.0/download`)).status).toBe(200);
      expect((await publishZip(after.url, packageZip('moved', '1.1.0'), token)).status).toBe(201);
      expect(filesUnder(join(data, 'blobs'))).toHaveLength(1);
      expect((await fetch(`${after.url}/api/packages/moved/1.1.0/download`)).status).toBe(200);
    } finally {
      await after.stop();
    }
  });
});

describe('operating several instances', () => {
  test('the per-token write limit is shared by the instances: spreading writes over them does not get around it', async () => {
    const db = await pg.database('scale_rate');
    const [a, b] = await pair(db, { args: ['--write-limit', '3'] });
    try {
      const admin = tempDir('avp-rate-admin-');
      const alice = (await createToken(admin, 'alice', { db })).token;
      const bob = (await createToken(admin, 'bob', { db })).token;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await publishZip(i % 2 ? b.url : a.url, packageZip('limited', `1.0.${i}`), alice)).status);
      // (the limit is per minute: a run that crosses a minute boundary may let the 4th through; retry once then)
      if (statuses[3] !== 429) statuses[3] = (await publishZip(a.url, packageZip('limited', '1.0.9'), alice)).status;
      expect(statuses.slice(0, 3)).toEqual([201, 201, 201]);
      const refused = await publishZip(b.url, packageZip('limited', '2.0.0'), alice);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('rate_limited');
      expect(refused.body.error_description).toContain('--write-limit');
      const yank = await fetch(`${a.url}/api/packages/limited/1.0.0`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${alice}` },
      });
      expect(yank.status).toBe(429);
      expect(Number(yank.headers.get('retry-after'))).toBeGreaterThan(0);
      // another token is not affected; reads are never limited
      expect((await publishZip(a.url, packageZip('bobs', '1.0.0'), bob)).status).toBe(201);
      expect((await api(b.url, '/api/packages/limited')).status).toBe(200);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  test('the audit log records who did what, when and from where; avp registry audit reads it', async () => {
    const db = await pg.database('scale_audit');
    const admin = tempDir('avp-audit-admin-');
    const [a, b] = await pair(db);
    try {
      const alice = await createToken(admin, 'alice', { db });
      const bob = await createToken(admin, 'bob', { db });
      const headers = { authorization: `Bearer ${alice.token}`, 'x-forwarded-for': '203.0.113.7' };
      const form = new FormData();
      form.append('package', new File([packageZip('audited', '1.0.0')], 'package.zip'));
      expect((await fetch(`${a.url}/api/packages`, { method: 'POST', body: form, headers })).status).toBe(201);
      expect((await publishZip(b.url, packageZip('audited', '1.0.1'), alice.token)).status).toBe(201);
      expect((await api(b.url, '/api/packages/audited/owners/bob', { method: 'PUT', token: alice.token })).status).toBe(
        200,
      );
      expect((await api(a.url, '/api/packages/audited/1.0.0', { method: 'DELETE', token: bob.token })).status).toBe(
        200,
      );
      // a refused write is not an event: nothing happened
      expect((await publishZip(a.url, packageZip('audited', '1.0.1'), alice.token)).status).toBe(409);
      expect((await runAvp(['registry', 'token', 'revoke', bob.id, '--data', admin, '--db', db])).code).toBe(0);

      const r = await runAvp(['registry', 'audit', '--json', '--data', admin, '--db', db]);
      expect(r.code, r.stderr).toBe(0);
      const entries = JSON.parse(r.stdout).entries as Array<Record<string, string | null>>;
      const brief = entries.map((e) => [e.action, e.account, e.package, e.version ?? e.target]);
      expect(brief).toEqual([
        ['token-create', expect.stringMatching(/^cli:/), null, alice.id],
        ['token-create', expect.stringMatching(/^cli:/), null, bob.id],
        ['publish', 'alice', 'audited', '1.0.0'],
        ['publish', 'alice', 'audited', '1.0.1'],
        ['owner-add', 'alice', 'audited', 'bob'],
        ['yank', 'bob', 'audited', '1.0.0'],
        ['token-revoke', expect.stringMatching(/^cli:/), null, bob.id],
      ]);
      const first = entries.find((e) => e.action === 'publish')!;
      expect(first).toMatchObject({ ip: '127.0.0.1', forwardedFor: '203.0.113.7', tokenId: alice.id });
      expect(first.detail).toMatch(/^sha512-/);
      expect(entries.find((e) => e.action === 'yank')).toMatchObject({ ip: '127.0.0.1', forwardedFor: null });
      expect(JSON.stringify(entries)).not.toContain(alice.token);

      const yanks = await runAvp(['registry', 'audit', '--action', 'yank', '--data', admin, '--db', db]);
      expect(yanks.stdout.trim().split('\n')).toHaveLength(1);
      expect(yanks.stdout).toMatch(/\tyank\tbob\taudited@1\.0\.0\t127\.0\.0\.1/);
      const recent = await runAvp([
        'registry',
        'audit',
        '--since',
        '1h',
        '--package',
        'audited',
        '--json',
        '--data',
        admin,
        '--db',
        db,
      ]);
      expect(JSON.parse(recent.stdout).entries).toHaveLength(4);
      const future = await runAvp(['registry', 'audit', '--since', '2999-01-01', '--data', admin, '--db', db]);
      expect([future.code, future.stdout, future.stderr]).toEqual([0, '', 'no audit entries match\n']);
      const typo = await runAvp(['registry', 'audit', '--action', 'publsh', '--data', admin, '--db', db]);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain('did you mean publish');
      const badSince = await runAvp(['registry', 'audit', '--since', 'yesterday', '--data', admin, '--db', db]);
      expect([badSince.code, badSince.stderr]).toEqual([2, expect.stringContaining('30m, 24h, 7d')]);
      expect(existsSync(join(admin, 'registry.db'))).toBe(false);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
