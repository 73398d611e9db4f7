/**
 * The registry server under hostile input, through a real `dist/avp registry serve` process on SQLite and on
 * PostgreSQL: YAML alias bombs, NUL bytes, forged Host headers, framing of the login page, file permissions, stray
 * temp files, owners that do not exist.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { BOMB_ALIAS_LINE, bombValidatorMd } from '../support/yaml-bomb.ts';
import {
  api,
  createToken,
  packageZip,
  publishZip,
  startServerProcess,
  zipOf,
  type ServerProcess,
} from './registry-server-support.ts';

setDefaultTimeout(60_000);

let pg: TestPostgres | undefined;
beforeAll(async () => {
  pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
});

/** A raw HTTP/1.1 GET with a chosen Host header (fetch will not forge one). */
async function rawGet(url: string, path: string, host: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(port), hostname);
    let out = '';
    sock.on('data', (d) => (out += d.toString()));
    sock.on('end', () => resolve(out));
    sock.on('error', reject);
    sock.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

const mode = (p: string) => statSync(p).mode & 0o777;

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`registry server under hostile input (${engine})`, () => {
    let srv: ServerProcess;
    let alice: string;
    let db: string | undefined;
    const data = join(tempDir('avp-rs-hostile-'), 'data');

    beforeAll(async () => {
      db = engine === 'postgres' ? await pg!.database('hostile') : undefined;
      alice = (await createToken(data, 'alice', { db })).token;
      await createToken(data, 'bob', { db });
      // What a killed server left behind: a half-written blob and an unpacked upload, by a process now gone.
      mkdirSync(join(data, 'blobs/sha512/ab'), { recursive: true });
      writeFileSync(join(data, 'blobs/sha512/ab/.tmp-999999999-0123'), 'half a zip');
      mkdirSync(join(data, 'tmp/999999999-x/pkg'), { recursive: true });
      writeFileSync(join(data, 'tmp/999999999-x/pkg/VALIDATOR.md'), 'x');
      // ...and one by a process that is alive (another server on the same folder): left alone.
      writeFileSync(join(data, `blobs/sha512/ab/.tmp-${process.pid}-4567`), 'in progress');
      srv = await startServerProcess({ data, db });
      expect((await publishZip(srv.url, packageZip('alpha', '1.0.0'), alice)).status).toBe(201);
    }, 60_000);
    afterAll(async () => {
      await srv?.stop();
    });

    test('a YAML alias bomb upload answers 422 at once, naming the problem and the line; the server stays up', async () => {
      const r = await publishZip(srv.url, zipOf('bomb', { 'VALIDATOR.md': bombValidatorMd('bomb') }), alice);
      expect(r.status).toBe(422);
      expect(r.body.error_description).toMatch(new RegExp(`VALIDATOR\\.md:${BOMB_ALIAS_LINE}: .*alias bomb`));
      expect((await api(srv.url, '/api/health')).status).toBe(200);
      expect((await api(srv.url, '/api/packages/bomb')).status).toBe(404);
    });

    test('NUL bytes in names, versions, owners and queries are 400, never 500 or a match-everything search', async () => {
      for (const path of [
        '/api/packages/al%00pha',
        '/api/packages/alpha/1.0.0%00',
        '/api/packages/alpha/%00/download',
        '/api/packages?q=%00',
        '/api/packages?q=alpha%00zzz',
        '/api/packages?tag=%00',
        '/api/packages?type=validator%00',
      ]) {
        const r = await api(srv.url, path);
        expect({ path, status: r.status, error: r.body.error }).toEqual({ path, status: 400, error: 'nul_byte' });
      }
      const own = await api(srv.url, '/api/packages/alpha/owners/bo%00b', { method: 'PUT', token: alice });
      expect(own.status).toBe(400);
    });

    test('a forged Host header never reaches a downloadUrl', async () => {
      const res = await rawGet(srv.url, '/api/packages/alpha/latest', 'attacker.example');
      expect(res).toMatch(/^HTTP\/1\.1 200/);
      expect(res).not.toContain('attacker.example');
      expect(res).toContain(`"downloadUrl":"${srv.url}/api/packages/alpha/1.0.0/download"`);
      // A loopback name the client used is kept (it is this machine either way).
      const local = await rawGet(srv.url, '/api/packages/alpha/latest', `localhost:${new URL(srv.url).port}`);
      expect(local).toContain(`"downloadUrl":"http://localhost:${new URL(srv.url).port}/api/packages/alpha/`);
    });

    test('HTML answers cannot be framed and carry the usual headers', async () => {
      const start = await fetch(`${srv.url}/cli/auth/start?redirect_uri=http://127.0.0.1:9/cb&state=abc`);
      expect(start.status).toBe(200);
      for (const res of [start, await fetch(`${srv.url}/cli/success`), await fetch(`${srv.url}/cli/error?message=x`)]) {
        expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect(res.headers.get('x-frame-options')).toBe('DENY');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('referrer-policy')).toBe('no-referrer');
        await res.body?.cancel();
      }
    });

    test('the data folder is 0700 and registry.db 0600; strays of dead processes are gone at start', async () => {
      expect(mode(data)).toBe(0o700);
      if (engine === 'sqlite') expect(mode(join(data, 'registry.db'))).toBe(0o600);
      expect(existsSync(join(data, 'blobs/sha512/ab/.tmp-999999999-0123'))).toBe(false);
      expect(existsSync(join(data, 'tmp/999999999-x'))).toBe(false);
      expect(existsSync(join(data, `blobs/sha512/ab/.tmp-${process.pid}-4567`))).toBe(true);
    });

    test('an owner must be an account this registry knows', async () => {
      const ghost = await api(srv.url, '/api/packages/alpha/owners/nobody-here', { method: 'PUT', token: alice });
      expect(ghost.status).toBe(404);
      expect(ghost.body.error).toBe('unknown_account');
      expect(ghost.body.error_description).toContain('avp registry token create --name nobody-here');
      expect((await api(srv.url, '/api/packages/alpha/owners')).body.owners).toEqual(['alice']);
      const bob = await api(srv.url, '/api/packages/alpha/owners/bob', { method: 'PUT', token: alice });
      expect(bob.body.owners).toEqual(['alice', 'bob']);
    });
  });
}

describe('registry server: public addresses need --base-url', () => {
  test('--host 0.0.0.0 without --base-url refuses to start and says why', async () => {
    const r = await runAvp(['registry', 'serve', '--port', '0', '--host', '0.0.0.0', '--data', tempDir('avp-rs-h-')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--host 0\.0\.0\.0 serves beyond this machine/);
    expect(r.stderr).toMatch(/--base-url https:\/\/registry\.example\.com/);
  });

  test('with --base-url it starts and every downloadUrl uses it, whatever the Host', async () => {
    const data = join(tempDir('avp-rs-fresh-'), 'data');
    const srv = await startServerProcess({ data, baseUrl: 'https://reg.example.test' });
    try {
      // A fresh data folder is created private, all the way down.
      for (const p of ['.', 'blobs', 'blobs/sha512', 'tmp']) expect([p, mode(join(data, p))]).toEqual([p, 0o700]);
      expect(mode(join(data, 'registry.db'))).toBe(0o600);
      const res = await rawGet(srv.url, '/api/packages/none/latest', 'attacker.example');
      expect(res).toMatch(/^HTTP\/1\.1 404/);
      const { token } = await createToken(data, 'alice');
      expect((await publishZip(srv.url, packageZip('beta', '1.0.0'), token)).body.downloadUrl).toBe(
        'https://reg.example.test/api/packages/beta/1.0.0/download',
      );
      const latest = await rawGet(srv.url, '/api/packages/beta/latest', 'attacker.example');
      expect(latest).toContain('"downloadUrl":"https://reg.example.test/api/packages/beta/1.0.0/download"');
    } finally {
      await srv.stop();
    }
  });
});
