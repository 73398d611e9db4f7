/**
 * Publishing and authentication through `dist/avp`: login (pasted token and the browser loopback flow), whoami,
 * logout, publish (dry run, upload shape, 409), and that tokens never reach stdout or stderr.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectArchive } from '../../src/registry-client/archive.ts';
import { AVP_BIN, tempDir } from '../support/run-avp.ts';
import { GOOD_TOKEN, startHostileRegistry, type HostileRegistry } from '../support/hostile-registry.ts';
import { VALIDATOR_MD } from '../unit/registry-client/zip-forge.ts';
import { sandbox, type Sandbox } from './registry-client-helpers.ts';

let reg: HostileRegistry;
beforeAll(async () => {
  reg = await startHostileRegistry();
});
afterAll(() => reg.close());

function validatorDir(name: string, version: string): string {
  const dir = join(tempDir('avp-rc-pub-'), name);
  mkdirSync(join(dir, 'rules'), { recursive: true });
  writeFileSync(join(dir, 'VALIDATOR.md'), VALIDATOR_MD(name, `"${version}"`));
  writeFileSync(join(dir, 'rules', 'first.md'), '---\nname: first\n---\nCheck the first thing.\n');
  return dir;
}

describe('login, whoami, logout', () => {
  test('a pasted token is verified, stored 0600, never printed; logout revokes and deletes it', async () => {
    const sb = sandbox(reg.url);
    const bad = await sb.avp(['login', '--token', 'tok_wrong_987654321']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('does not accept this token');
    expect(bad.stderr + bad.stdout).not.toContain('tok_wrong_987654321');
    const creds = join(sb.avpHome, 'credentials');
    expect(existsSync(creds)).toBe(false);

    const r = await sb.avp(['login', '--token', GOOD_TOKEN, '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(GOOD_TOKEN);
    expect(JSON.parse(r.stdout)).toMatchObject({ registry: reg.url, email: 'dev@example.com', name: 'Dev' });
    expect(statSync(creds).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(creds, 'utf8'))).toEqual({
      registry: reg.url,
      token: GOOD_TOKEN,
      email: 'dev@example.com',
      name: 'Dev',
    });

    const who = await sb.avp(['whoami']);
    expect(who.stdout).toBe(`Dev <dev@example.com> on ${reg.url} (token from credentials file)\n`);

    const refused = await sb.avp(['logout'], { env: { AVP_TOKEN: GOOD_TOKEN } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('AVP_TOKEN');

    const out = await sb.avp(['logout', '--json']);
    expect(JSON.parse(out.stdout)).toEqual({ registry: reg.url, revoked: true, removed: true });
    expect(
      reg.requests.some(
        (q) => q.method === 'DELETE' && q.path === '/api/auth/cli/token' && q.auth === `Bearer ${GOOD_TOKEN}`,
      ),
    ).toBe(true);
    expect(existsSync(creds)).toBe(false);
    const nobody = await sb.avp(['whoami']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('not logged in');
  });

  test('AVP_TOKEN wins; a token echoed back by the server is masked', async () => {
    const sb = sandbox(reg.url);
    const who = await sb.avp(['whoami', '--json'], { env: { AVP_TOKEN: GOOD_TOKEN } });
    expect(JSON.parse(who.stdout)).toMatchObject({ name: 'Dev', tokenSource: 'AVP_TOKEN' });
    const leaked = 'tok_secret_should_not_print';
    const bad = await sb.avp(['whoami'], { env: { AVP_TOKEN: leaked } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('token *** is invalid');
    expect(bad.stderr).not.toContain(leaked);
  });

  test('browser loopback flow: start URL with redirect_uri + 32-char state, code exchange, credentials saved', async () => {
    const sb = sandbox(reg.url);
    const { proc, start } = await startBrowserLogin(sb, ['--json']);
    expect(start.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(start.searchParams.get('redirect_uri')).toMatch(/^http:\/\/localhost:\d+\/callback$/);
    // The "browser": follow the registry's redirect to the CLI's callback, then the CLI's 303 to /cli/success.
    const page = await fetch(start.toString().replace('localhost', '127.0.0.1'));
    expect(page.url).toStartWith(`${reg.url}/cli/success`);
    expect(await proc.exited).toBe(0);
    const out = JSON.parse(await new Response(proc.stdout).text());
    expect(out).toMatchObject({ registry: reg.url, name: 'Dev' });
    expect(JSON.parse(readFileSync(join(sb.avpHome, 'credentials'), 'utf8')).token).toBe(GOOD_TOKEN);
  });

  test('browser flow: a callback with the wrong state fails the login', async () => {
    const sb = sandbox(reg.url);
    const { proc, start, stderr } = await startBrowserLogin(sb, []);
    const redirect = start.searchParams.get('redirect_uri')!.replace('localhost', '127.0.0.1');
    const res = await fetch(`${redirect}?code=x&state=forged`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toStartWith(`${reg.url}/cli/error?message=`);
    expect(await proc.exited).toBe(1);
    expect(await stderr()).toContain('state parameter does not match');
    expect(existsSync(join(sb.avpHome, 'credentials'))).toBe(false);
  });
});

/**
 * Runs `dist/avp login` (browser flow: no PATH, so no browser opens) and reads its stderr until the start URL shows.
 * `stderr()` reads the rest and gives all of it.
 */
async function startBrowserLogin(sb: Sandbox, args: string[]) {
  const proc = Bun.spawn([AVP_BIN, 'login', ...args], {
    cwd: sb.project,
    env: { PATH: '/nonexistent', HOME: sb.home, AVP_HOME: sb.avpHome, AVP_REGISTRY_URL: reg.url, NO_COLOR: '1' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  let err = '';
  let start: URL | undefined;
  while (!start) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`avp login ended before printing its start URL:\n${err}`);
    err += decoder.decode(value);
    const m = /(http:\/\/127\.0\.0\.1:\d+\/cli\/auth\/start\?\S+)/.exec(err);
    if (m) start = new URL(m[1]!);
  }
  const stderr = async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return err;
      err += decoder.decode(value);
    }
  };
  return { proc, start, stderr };
}

describe('publish and yank', () => {
  test('dry run shows files, size and integrity and uploads nothing', async () => {
    const sb = sandbox(reg.url);
    const dir = validatorDir('pub-dry', '1.0.0');
    const before = reg.uploads.length;
    const r = await sb.avp(['publish', dir, '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      name: 'pub-dry',
      version: '1.0.0',
      files: ['VALIDATOR.md', 'rules/first.md'],
      dryRun: true,
    });
    expect(out.integrity).toMatch(/^sha512-/);
    expect(reg.uploads.length).toBe(before);
  });

  test('upload: multipart package / package.zip / application/zip; then add works; re-publish is a clear 409', async () => {
    const sb = sandbox(reg.url);
    const dir = validatorDir('pub-real', '1.0.0');
    const anonymous = await sb.avp(['publish', dir]);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toContain('not logged in');
    const r = await sb.avp(['publish', dir, '--json'], { env: { AVP_TOKEN: GOOD_TOKEN } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'pub-real', version: '1.0.0', published: true });
    const upload = reg.uploads.at(-1)!;
    expect(upload.filename).toBe('package.zip');
    expect(upload.type).toBe('application/zip');
    expect((await inspectArchive(upload.bytes)).files.map((f) => f.path).sort()).toEqual([
      'VALIDATOR.md',
      'rules/first.md',
    ]);
    expect((await sb.avp(['add', 'pub-real'])).code).toBe(0);
    const again = await sb.avp(['publish', dir], { env: { AVP_TOKEN: GOOD_TOKEN } });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('pub-real@1.0.0 is already published');
    expect(again.stderr).toContain('bump metadata.version');
  });

  test('publish refuses what lint refuses, with file and line', async () => {
    const sb = sandbox(reg.url);
    const dir = validatorDir('pub-bad', '1.0.0');
    writeFileSync(
      join(dir, 'VALIDATOR.md'),
      '---\nname: pub-bad\ntrigger: Nope\nmetadata:\n  version: "1.0.0"\n---\nbody\n',
    );
    const r = await sb.avp(['publish', dir, '--dry-run']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('does not pass `avp lint`');
    expect(r.stderr).toContain('VALIDATOR.md:');
  });

  test('yank needs a token and a name@version', async () => {
    const sb = sandbox(reg.url);
    expect((await sb.avp(['yank', 'pub-real'], { env: { AVP_TOKEN: GOOD_TOKEN } })).stderr).toContain(
      'is not name@version',
    );
    expect((await sb.avp(['yank', 'pub-real@1.0.0'])).stderr).toContain('not logged in');
  });
});

describe('search and info', () => {
  test('table and JSON', async () => {
    const sb = sandbox(reg.url);
    const dir = validatorDir('searchable', '1.0.0');
    expect((await sb.avp(['publish', dir], { env: { AVP_TOKEN: GOOD_TOKEN } })).code).toBe(0);
    const t = await sb.avp(['search', 'searchable']);
    expect(t.stdout).toMatch(
      /^NAME\s+VERSION\s+DOWNLOADS\s+DESCRIPTION\nsearchable\s+1\.0\.0\s+3\s+searchable validator\n$/,
    );
    const j = JSON.parse((await sb.avp(['search', 'searchable', '--json', '--limit', '5'])).stdout);
    expect(j.packages[0].name).toBe('searchable');
    expect(reg.requests.some((q) => q.path === '/api/packages?q=searchable&type=validator&limit=5')).toBe(true);
    const info = await sb.avp(['info', 'searchable']);
    expect(info.stdout).toContain('searchable@1.0.0');
    expect(info.stdout).toContain('integrity: sha512-');
    expect(JSON.parse((await sb.avp(['info', 'searchable', '--json'])).stdout).latest.version).toBe('1.0.0');
    const missing = await sb.avp(['info', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404');
  });
});
