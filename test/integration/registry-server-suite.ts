import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import {
  api,
  createToken,
  filesUnder,
  bombZip,
  packageZip,
  publishZip,
  rawZip,
  startServerProcess,
  zipOf,
  validatorMd,
  type ServerProcess,
} from './registry-server-support.ts';

/**
 * The registry server's behaviour through HTTP against a real `dist/avp registry serve` process. Run once on the
 * default SQLite store (registry-server.test.ts) and once on PostgreSQL (registry-server-postgres.test.ts).
 */
export function registryServerSuite(engine: string, db: () => string | undefined): void {
  describe(`registry server (${engine})`, () => {
    let srv: ServerProcess;
    let alice: string;
    let bob: string;
    let admin: string;
    let bobId: string;
    const data = tempDir('avp-rs-suite-');

    beforeAll(async () => {
      alice = (await createToken(data, 'alice', { db: db(), email: 'alice@example.test' })).token;
      const b = await createToken(data, 'bob', { db: db() });
      bob = b.token;
      bobId = b.id;
      admin = (await createToken(data, 'root', { db: db(), admin: true })).token;
      srv = await startServerProcess({ data, db: db() });
    }, 60_000);
    afterAll(async () => {
      await srv?.stop();
    });

    test('health, HEAD, 405 with Allow, unknown paths', async () => {
      const r = await api(srv.url, '/api/health');
      expect(r.status).toBe(200);
      expect(r.body.engine).toBe(engine);
      const head = await fetch(`${srv.url}/api/health`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      const put = await api(srv.url, '/api/packages', { method: 'PUT', token: alice });
      expect(put.status).toBe(405);
      expect(put.headers.get('allow')).toBe('GET, POST');
      expect(put.body.error).toBe('method_not_allowed');
      const nowhere = await api(srv.url, '/nowhere');
      expect(nowhere.status).toBe(404);
      expect(nowhere.body.error_description).toContain('/api/');
    });

    test('publish: 201 with downloadUrl, integrity computed by the server, size', async () => {
      const zip = packageZip('alpha', '1.0.0', { tags: ['security', 'style'], description: 'Finds alpha secrets' });
      const r = await publishZip(srv.url, zip, alice);
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ name: 'alpha', version: '1.0.0', published: true });
      expect(r.body.downloadUrl).toBe(`${srv.url}/api/packages/alpha/1.0.0/download`);
      const sri = `sha512-${createHash('sha512').update(zip).digest('base64')}`;
      const v = await api(srv.url, '/api/packages/alpha/1.0.0');
      expect(v.status).toBe(200);
      expect(v.body).toMatchObject({
        name: 'alpha',
        version: '1.0.0',
        integrity: sri,
        size: zip.length,
        type: 'validator',
        author: 'alice',
      });
      expect(Date.parse(v.body.publishedAt)).toBeGreaterThan(0);
      const dl = await fetch(v.body.downloadUrl);
      expect(dl.status).toBe(200);
      expect(dl.headers.get('content-type')).toBe('application/zip');
      expect(Buffer.from(await dl.arrayBuffer()).equals(Buffer.from(zip))).toBe(true);
    });

    test('re-publishing name@version is 409 and changes nothing', async () => {
      const blobs = filesUnder(join(data, 'blobs')).length;
      const again = packageZip('alpha', '1.0.0', { description: 'different bytes' });
      const r = await publishZip(srv.url, again, alice);
      expect(r.status).toBe(409);
      expect(r.body.error_description).toContain('alpha@1.0.0 is already published');
      const v = await api(srv.url, '/api/packages/alpha/1.0.0');
      expect(v.body.description).toBe('Finds alpha secrets');
      expect(filesUnder(join(data, 'blobs')).length).toBe(blobs);
    });

    test('detail, latest, versions and search (q, type, tag, limit, offset, total)', async () => {
      expect(
        (
          await publishZip(
            srv.url,
            packageZip('alpha', '1.1.0', { tags: ['security'], description: 'Finds alpha secrets, better' }),
            alice,
          )
        ).status,
      ).toBe(201);
      expect(
        (
          await publishZip(
            srv.url,
            packageZip('beta', '0.1.0', { tags: ['style'], description: 'Beta style rules' }),
            bob,
          )
        ).status,
      ).toBe(201);
      const d = await api(srv.url, '/api/packages/alpha');
      expect(d.status).toBe(200);
      expect(d.body).toMatchObject({
        name: 'alpha',
        latest: '1.1.0',
        versions: ['1.1.0', '1.0.0'],
        tags: ['security'],
        type: 'validator',
        author: 'alice',
      });
      expect(d.body.readme).toContain('Report any alpha problem');
      expect(typeof d.body.downloads).toBe('number');
      const l = await api(srv.url, '/api/packages/alpha/latest');
      expect(l.body.version).toBe('1.1.0');
      const vs = await api(srv.url, '/api/packages/alpha/versions');
      expect(vs.body.name).toBe('alpha');
      expect(vs.body.versions.map((v: any) => v.version)).toEqual(['1.1.0', '1.0.0']);
      const all = await api(srv.url, '/api/packages?q=&type=validator');
      expect(all.body.total).toBe(2);
      expect(all.body.packages.map((p: any) => p.name).sort()).toEqual(['alpha', 'beta']);
      const q = await api(srv.url, '/api/packages?q=STYLE');
      expect(q.body.packages.map((p: any) => p.name)).toEqual(['beta']);
      const tag = await api(srv.url, '/api/packages?q=&tag=security');
      expect(tag.body.packages.map((p: any) => p.name)).toEqual(['alpha']);
      const page = await api(srv.url, '/api/packages?q=&limit=1&offset=1');
      expect(page.body).toMatchObject({ total: 2, limit: 1, offset: 1 });
      expect(page.body.packages).toHaveLength(1);
      const skills = await api(srv.url, '/api/packages?q=&type=skill');
      expect(skills.body).toMatchObject({ packages: [], total: 0 });
      const pct = await api(srv.url, '/api/packages?q=%25');
      expect(pct.body.total).toBe(0);
      expect((await api(srv.url, '/api/packages?limit=-1')).status).toBe(400);
      const summary = all.body.packages.find((p: any) => p.name === 'alpha');
      expect(Object.keys(summary).sort()).toEqual([
        'author',
        'createdAt',
        'description',
        'downloads',
        'latest',
        'name',
        'tags',
        'type',
        'updatedAt',
      ]);
    });

    test('unknown names are 404 JSON, percent-encoded names are decoded', async () => {
      for (const path of [
        '/api/packages/nope',
        '/api/packages/owner%2Frepo',
        '/api/packages/nope/latest',
        '/api/packages/alpha/9.9.9',
        '/api/packages/alpha/9.9.9/download',
      ]) {
        const r = await api(srv.url, path);
        expect(r.status).toBe(404);
        expect(r.body.error).toBe('not_found');
        expect(typeof r.body.error_description).toBe('string');
      }
      expect((await api(srv.url, '/api/packages/%61lpha')).body.name).toBe('alpha');
    });

    test('auth: no token and bad token are 401, another account is 403, revoked token is 401', async () => {
      const zip = packageZip('alpha', '2.0.0');
      expect((await publishZip(srv.url, zip)).status).toBe(401);
      const bad = await publishZip(srv.url, zip, 'avp_not-a-real-token');
      expect(bad.status).toBe(401);
      expect(bad.body.error).toBe('unauthorized');
      const notOwner = await publishZip(srv.url, zip, bob);
      expect(notOwner.status).toBe(403);
      expect(notOwner.body.error_description).toContain('alice');
      expect((await api(srv.url, '/api/packages/alpha/1.0.0', { method: 'DELETE', token: bob })).status).toBe(403);
      expect((await api(srv.url, '/api/packages/alpha/1.0.0', { method: 'DELETE' })).status).toBe(401);
      expect((await api(srv.url, '/api/packages/alpha/owners/bob', { method: 'PUT', token: bob })).status).toBe(403);
      // the public registry's clients send a token with downloads; a stale one must not break a public download
      expect((await api(srv.url, '/api/packages/alpha/1.0.0/download', { token: 'avp_stale' })).status).toBe(200);
      const bobTok = await createToken(data, 'bob', { db: db() });
      const args = ['registry', 'token', 'revoke', bobTok.id, '--data', data, ...(db() ? ['--db', db()!] : [])];
      expect((await runAvp(args)).code).toBe(0);
      expect((await api(srv.url, '/api/auth/cli/verify', { token: bobTok.token })).status).toBe(401);
      const listed = await runAvp([
        'registry',
        'token',
        'list',
        '--json',
        '--data',
        data,
        ...(db() ? ['--db', db()!] : []),
      ]);
      expect(listed.code).toBe(0);
      const tokens = JSON.parse(listed.stdout).tokens as Array<Record<string, unknown>>;
      expect(tokens.find((t) => t.id === bobTok.id)?.revokedAt).toBeString();
      expect(tokens.find((t) => t.account === 'root')?.scope).toBe('admin');
      expect(listed.stdout).not.toContain(bobTok.token);
      expect(listed.stdout).not.toContain(alice);
      expect(bobId).toStartWith('tok_');
    });

    test('owners: an owner adds an owner, who may then publish; the last owner cannot be removed', async () => {
      expect((await api(srv.url, '/api/packages/alpha/owners')).body.owners).toEqual(['alice']);
      const add = await api(srv.url, '/api/packages/alpha/owners/bob', { method: 'PUT', token: alice });
      expect(add.status).toBe(200);
      expect(add.body.owners).toEqual(['alice', 'bob']);
      expect((await publishZip(srv.url, packageZip('alpha', '1.2.0'), bob)).status).toBe(201);
      expect(
        (await api(srv.url, '/api/packages/alpha/owners/alice', { method: 'DELETE', token: bob })).body.owners,
      ).toEqual(['bob']);
      expect((await api(srv.url, '/api/packages/alpha/owners/bob', { method: 'DELETE', token: bob })).status).toBe(409);
      // an admin may act on any package
      expect(
        (await api(srv.url, '/api/packages/alpha/owners/alice', { method: 'PUT', token: admin })).body.owners,
      ).toEqual(['bob', 'alice']);
    });

    test('yank: hidden from latest, versions and updates; exact version still served and downloadable', async () => {
      const y = await api(srv.url, '/api/packages/alpha/1.2.0', { method: 'DELETE', token: alice });
      expect(y.status).toBe(200);
      expect(y.body).toMatchObject({ yanked: true, latest: '1.1.0' });
      expect((await api(srv.url, '/api/packages/alpha/latest')).body.version).toBe('1.1.0');
      const d = await api(srv.url, '/api/packages/alpha');
      expect(d.body.versions).toEqual(['1.1.0', '1.0.0']);
      expect(d.body.yanked).toEqual(['1.2.0']);
      expect((await api(srv.url, '/api/packages/alpha/versions')).body.versions.map((v: any) => v.version)).toEqual([
        '1.1.0',
        '1.0.0',
      ]);
      const pinned = await api(srv.url, '/api/packages/alpha/1.2.0');
      expect(pinned.status).toBe(200);
      expect(pinned.body.yanked).toBe(true);
      expect((await fetch(pinned.body.downloadUrl)).status).toBe(200);
      const up = await api(srv.url, '/api/packages/updates', {
        method: 'POST',
        body: {
          installed: [
            { name: 'alpha', version: '1.0.0' },
            { name: 'nope', version: '1.0.0' },
          ],
        },
      });
      expect(up.status).toBe(200);
      expect(up.body.updates).toEqual([
        { name: 'alpha', currentVersion: '1.0.0', latestVersion: '1.1.0', updateType: 'minor' },
      ]);
      // a yanked version stays taken: re-publishing it is still a conflict
      expect((await publishZip(srv.url, packageZip('alpha', '1.2.0'), alice)).status).toBe(409);
    });

    test('a package whose every version is yanked leaves search and resolution', async () => {
      expect((await publishZip(srv.url, packageZip('gamma', '1.0.0'), alice)).status).toBe(201);
      expect((await api(srv.url, '/api/packages/gamma/1.0.0', { method: 'DELETE', token: alice })).status).toBe(200);
      expect((await api(srv.url, '/api/packages/gamma')).status).toBe(404);
      expect((await api(srv.url, '/api/packages/gamma/latest')).status).toBe(404);
      expect((await api(srv.url, '/api/packages?q=gamma')).body.total).toBe(0);
      expect((await api(srv.url, '/api/packages/gamma/1.0.0/download')).status).toBe(200);
    });

    test('downloads are counted', async () => {
      const before = (await api(srv.url, '/api/packages/beta')).body.downloads;
      await fetch(`${srv.url}/api/packages/beta/0.1.0/download`).then((r) => r.arrayBuffer());
      expect((await api(srv.url, '/api/packages/beta')).body.downloads).toBe(before + 1);
    });

    test('verify, browser login code exchange, logout', async () => {
      const v = await api(srv.url, '/api/auth/cli/verify', { token: alice });
      expect(v.body).toMatchObject({ valid: true, name: 'alice', email: 'alice@example.test' });
      expect((await api(srv.url, '/api/auth/cli/verify')).body.valid).toBe(false);
      const redirect = 'http://localhost:5599/callback';
      const page = await api(srv.url, `/cli/auth/start?redirect_uri=${encodeURIComponent(redirect)}&state=abc_DEF-123`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(
        (await api(srv.url, `/cli/auth/start?redirect_uri=${encodeURIComponent('https://evil.example/cb')}&state=abc`))
          .status,
      ).toBe(400);
      const post = (token: string) =>
        fetch(`${srv.url}/cli/auth/start`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ redirect_uri: redirect, state: 'abc_DEF-123', token }).toString(),
        });
      expect((await post('avp_wrong')).status).toBe(401);
      const ok = await post(alice);
      expect(ok.status).toBe(303);
      const loc = new URL(ok.headers.get('location')!);
      expect(loc.origin + loc.pathname).toBe(redirect);
      expect(loc.searchParams.get('state')).toBe('abc_DEF-123');
      const code = loc.searchParams.get('code')!;
      const ex = await api(srv.url, '/api/auth/cli/token', { method: 'POST', body: { code } });
      expect(ex.status).toBe(200);
      expect(ex.body).toMatchObject({ name: 'alice', email: 'alice@example.test' });
      expect(ex.body.access_token).toStartWith('avp_');
      expect((await api(srv.url, '/api/auth/cli/token', { method: 'POST', body: { code } })).status).toBe(400);
      const fresh = ex.body.access_token as string;
      expect((await api(srv.url, '/api/auth/cli/verify', { token: fresh })).body.valid).toBe(true);
      expect((await api(srv.url, '/api/auth/cli/token', { method: 'DELETE', token: fresh })).status).toBe(204);
      expect((await api(srv.url, '/api/auth/cli/verify', { token: fresh })).status).toBe(401);
      expect((await api(srv.url, '/api/auth/cli/verify', { token: alice })).body.valid).toBe(true);
    });

    test('concurrent publishes: one version wins once, a contested new name gets one owner', async () => {
      const same = await Promise.all(
        Array.from({ length: 8 }, () => publishZip(srv.url, packageZip('racer', '1.0.0'), alice)),
      );
      expect(same.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
      const contested = await Promise.all([
        publishZip(srv.url, packageZip('contested', '1.0.0'), alice),
        publishZip(srv.url, packageZip('contested', '1.0.1'), bob),
      ]);
      expect(contested.map((r) => r.status).sort()).toEqual([201, 403]);
      const owners = (await api(srv.url, '/api/packages/contested/owners')).body.owners;
      expect(owners).toHaveLength(1);
      const versions = (await api(srv.url, '/api/packages/contested')).body.versions;
      expect(versions).toHaveLength(1);
      // different names in parallel all land
      const many = await Promise.all(
        ['p1', 'p2', 'p3', 'p4', 'p5'].map((n) => publishZip(srv.url, packageZip(`par-${n}`, '1.0.0'), alice)),
      );
      expect(many.every((r) => r.status === 201)).toBe(true);
    });

    test('hostile and invalid uploads are refused with clear JSON errors and nothing is stored', async () => {
      const blobsBefore = filesUnder(join(data, 'blobs')).length;
      const S_IFLNK = 0o120777 << 16;
      const md = validatorMd('evil', '1.0.0');
      const cases: Array<[string, Uint8Array, number, RegExp]> = [
        [
          'zip-slip',
          rawZip({ 'evil/VALIDATOR.md': md, 'evil/../../etc/cron.d/x': 'boom' }),
          400,
          /unsafe entry.*zip-slip/,
        ],
        [
          'absolute path',
          rawZip({ 'evil/VALIDATOR.md': md, '/etc/passwd': 'x' }),
          400,
          /unsafe entry "\/etc\/passwd": absolute path/,
        ],
        [
          'symlink',
          rawZip({ 'evil/VALIDATOR.md': md, 'evil/link': { data: '/etc/passwd', attrs: S_IFLNK } }),
          400,
          /symlink entry "evil\/link"/,
        ],
        ['zip bomb', bombZip('evil', md, 'zeros.txt', 60 * 1024 * 1024), 400, /expands past/],
        [
          'zip bomb with lying sizes',
          bombZip('evil', md, 'zeros.txt', 60 * 1024 * 1024, 1024),
          400,
          /inflates past its declared size of 1024 bytes/,
        ],
        ['wrong top folder', rawZip({ 'evil/VALIDATOR.md': md, 'other/x.md': 'x' }), 400, /one top folder/],
        ['skill', zipOf('evil', { 'SKILL.md': '---\nname: evil\ndescription: a skill\n---\nbody\n' }), 422, /skill/],
        [
          'number version',
          zipOf('evil', { 'VALIDATOR.md': validatorMd('evil', '1.0', { versionYaml: '1.0' }) }),
          422,
          /YAML number/,
        ],
        ['not semver', zipOf('evil', { 'VALIDATOR.md': validatorMd('evil', 'latest') }), 422, /not a semantic version/],
        ['bad name', zipOf('evil', { 'VALIDATOR.md': validatorMd('Evil--Name', '1.0.0') }), 422, /name/],
        [
          'lint error',
          zipOf('evil', { 'VALIDATOR.md': md.replace('trigger: PostToolUse', 'trigger: OnSave') }),
          422,
          /avp lint.*OnSave/s,
        ],
        ['not a zip', new TextEncoder().encode('just text, not an archive'), 400, /not a ZIP/],
      ];
      for (const [label, bytes, status, message] of cases) {
        const r = await publishZip(srv.url, bytes, alice);
        if (r.status !== status || !message.test(r.body?.error_description ?? '')) {
          throw new Error(`${label}: expected ${status} ${message}, got ${r.status} ${JSON.stringify(r.body)}`);
        }
        expect(typeof r.body.error).toBe('string');
      }
      const big = new Uint8Array(10 * 1024 * 1024 + 1024);
      crypto.getRandomValues(big.subarray(0, 65536));
      const tooBig = await publishZip(srv.url, big, alice);
      expect(tooBig.status).toBe(413);
      expect(tooBig.body.error).toBe('payload_too_large');
      // a chunked body (no Content-Length) is counted as it streams
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent++ < 11) c.enqueue(new Uint8Array(1024 * 1024));
          else c.close();
        },
      });
      const chunked = await fetch(`${srv.url}/api/packages`, {
        method: 'POST',
        body: stream,
        headers: { authorization: `Bearer ${alice}`, 'content-type': 'multipart/form-data; boundary=xyz' },
      });
      expect(chunked.status).toBe(413);
      expect(((await chunked.json()) as { error: string }).error).toBe('payload_too_large');
      expect((await api(srv.url, '/api/packages/evil')).status).toBe(404);
      expect(filesUnder(join(data, 'blobs')).length).toBe(blobsBefore);
      const notMultipart = await api(srv.url, '/api/packages', {
        method: 'POST',
        token: alice,
        body: { package: 'x' },
      });
      expect(notMultipart.status).toBe(415);
      const wrongPart = new FormData();
      wrongPart.append('archive', new File([packageZip('evil', '1.0.0')], 'package.zip', { type: 'application/zip' }));
      const noPackage = await fetch(`${srv.url}/api/packages`, {
        method: 'POST',
        body: wrongPart,
        headers: { authorization: `Bearer ${alice}` },
      });
      expect(noPackage.status).toBe(400);
      expect(((await noPackage.json()) as { error_description: string }).error_description).toContain(
        'no file part named `package`',
      );
      const badJson = await fetch(`${srv.url}/api/packages/updates`, { method: 'POST', body: '{not json' });
      expect(badJson.status).toBe(400);
    }, 60_000);
  });
}
