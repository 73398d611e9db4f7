import { describe, expect, test, setDefaultTimeout } from 'bun:test';
import { SQL } from 'bun';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { api, createToken, packageZip, publishZip, startServerProcess } from './registry-server-support.ts';

// Real processes (server, client, PostgreSQL) on a shared 2-core machine: generous per-test budget.
setDefaultTimeout(60_000);

/** The `avp registry` commands' own behaviour: first stdout line, clean stop, data layout, and errors with fixes. */
describe('avp registry commands', () => {
  test('serve prints {url,data,engine} first, creates the SQLite file and blob dir, and stops cleanly on SIGTERM', async () => {
    const data = join(tempDir('avp-rs-cli-'), 'fresh', 'data');
    const srv = await startServerProcess({ data });
    expect(srv.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await api(srv.url, '/api/health')).body.status).toBe('ok');
    expect(existsSync(join(data, 'registry.db'))).toBe(true);
    expect(existsSync(join(data, 'blobs', 'sha512'))).toBe(true);
    await srv.stop();
    expect(srv.stderr()).toContain('registry stopped');
  });

  test('a restart keeps everything; migrations are recorded once in schema_migrations', async () => {
    const data = tempDir();
    const { token } = await createToken(data, 'erin');
    const first = await startServerProcess({ data });
    expect((await publishZip(first.url, packageZip('epsilon', '1.0.0'), token)).status).toBe(201);
    await first.stop();
    const second = await startServerProcess({ data });
    const v = await api(second.url, '/api/packages/epsilon/1.0.0');
    expect(v.status).toBe(200);
    expect((await fetch(v.body.downloadUrl)).status).toBe(200);
    expect((await publishZip(second.url, packageZip('epsilon', '1.0.0'), token)).status).toBe(409);
    await second.stop();
    const db = new SQL(`sqlite://${join(data, 'registry.db')}`);
    const rows = await db`SELECT version, name FROM schema_migrations`;
    await db.close();
    const applied = rows.map((r: { version: number }) => Number(r.version));
    // each migration once (two starts ran them), the first schema and the scale-out one among them
    expect(applied).toEqual([...new Set(applied)]);
    expect(applied).toEqual(expect.arrayContaining([1, 10]));
  });

  test('--base-url sets the downloadUrl origin', async () => {
    const data = tempDir();
    const { token } = await createToken(data, 'dave');
    const srv = await startServerProcess({ data, baseUrl: 'https://avp.example.test/' });
    const pub = await publishZip(srv.url, packageZip('delta', '1.0.0'), token);
    expect(pub.body.downloadUrl).toBe('https://avp.example.test/api/packages/delta/1.0.0/download');
    expect((await api(srv.url, '/api/packages/delta/latest')).body.downloadUrl).toBe(pub.body.downloadUrl);
    await srv.stop();
    const bad = await runAvp([
      'registry',
      'serve',
      '--port',
      '0',
      '--data',
      tempDir(),
      '--base-url',
      'avp.example.test',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not an http(s) URL');
  });

  test('bad arguments and unreachable databases fail with a message and a fix', async () => {
    const port = await runAvp(['registry', 'serve', '--port', 'eighty', '--data', tempDir()]);
    expect(port.code).toBe(1);
    expect(port.stderr).toContain('--port eighty is not a port number');
    expect(port.stderr).toContain('fix:');
    const pg = await runAvp(
      ['registry', 'serve', '--port', '0', '--data', tempDir(), '--db', 'postgres://nobody@127.0.0.1:1/none'],
      { timeoutMs: 60_000 },
    );
    expect(pg.code).toBe(1);
    expect(pg.stderr).toContain('the registry could not start');
    const revoke = await runAvp(['registry', 'token', 'revoke', 'tok_nope', '--data', tempDir()]);
    expect(revoke.code).toBe(1);
    expect(revoke.stderr).toContain('no active token with id tok_nope');
    const account = await runAvp(['registry', 'token', 'create', '--name', 'bad name!', '--data', tempDir()]);
    expect(account.code).toBe(1);
    expect(account.stderr).toContain('invalid account name');
  });

  test('token create prints only the secret on stdout; list shows it without the secret', async () => {
    const data = tempDir();
    const c = await runAvp(['registry', 'token', 'create', '--name', 'carol', '--label', 'ci', '--data', data]);
    expect(c.code).toBe(0);
    expect(c.stdout.trim()).toMatch(/^avp_[A-Za-z0-9_-]{43}$/);
    expect(c.stderr).toContain('for account carol');
    const l = await runAvp(['registry', 'token', 'list', '--data', data]);
    expect(l.stdout).toMatch(/^tok_\w+\tcarol\tpublish\tci\tcreated .*\tnever used\n$/);
    expect(l.stdout).not.toContain(c.stdout.trim());
  });
});
