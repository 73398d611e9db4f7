import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AVP_BIN, runAvp, tempDir } from '../support/run-avp.ts';
import { api, createToken, startServerProcess, validatorMd, type ServerProcess } from './registry-server-support.ts';
import { INSTALL_ONLY_JUDGE } from './registry-client-helpers.ts';

// Real processes (server, client, PostgreSQL) on a shared 2-core machine: generous per-test budget.
setDefaultTimeout(60_000);

/**
 * The whole registry flow with real processes only: `dist/avp registry serve` (SQLite) and avp's own client commands
 * through `dist/avp`: login → publish → search → info → add (user and project) → lockfiles → publish a new version →
 * outdated → update → yank → install --frozen from the lockfile pin, plus conflicts and auth failures as the client
 * reports them.
 */
describe('registry end to end: avp client against avp registry serve', () => {
  let srv: ServerProcess;
  let token: string;
  const data = tempDir('avp-e2e-data-');
  const home = tempDir('avp-e2e-home-');
  const avpHome = join(home, '.avp');
  const project = tempDir('avp-e2e-project-');
  const author = tempDir('avp-e2e-author-');
  const pkgDir = join(author, 'team-rules');

  const avp = (args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) =>
    runAvp(args, {
      cwd: opts.cwd ?? project,
      env: { HOME: home, AVP_HOME: avpHome, AVP_REGISTRY_URL: srv.url, ...INSTALL_ONLY_JUDGE, ...opts.env },
    });
  const ok = async (args: string[], opts: Parameters<typeof avp>[1] = {}) => {
    const r = await avp(args, opts);
    if (r.code !== 0)
      throw new Error(`avp ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return r;
  };
  const writeVersion = (version: string) => {
    mkdirSync(join(pkgDir, 'references'), { recursive: true });
    writeFileSync(
      join(pkgDir, 'VALIDATOR.md'),
      validatorMd('team-rules', version, { tags: ['team', 'style'], description: 'Checks the team rules' }),
    );
    writeFileSync(join(pkgDir, 'references', 'rules.md'), `# Team rules ${version}\n`);
  };
  const lock = (path: string) => JSON.parse(readFileSync(path, 'utf8')).packages as Record<string, any>;

  beforeAll(async () => {
    mkdirSync(join(project, '.git'));
    token = (await createToken(data, 'alice', { email: 'alice@example.test' })).token;
    srv = await startServerProcess({ data });
  });
  afterAll(async () => {
    await srv?.stop();
  });

  test('login with a pasted token, whoami, publish 1.0.0', async () => {
    const login = await ok(['login', '--token', token, '--registry', srv.url]);
    expect(login.stdout + login.stderr).not.toContain(token);
    expect((await ok(['whoami', '--registry', srv.url])).stdout).toContain('alice');
    writeVersion('1.0.0');
    const pub = await ok(['publish', pkgDir, '--registry', srv.url, '--json']);
    expect(JSON.parse(pub.stdout)).toMatchObject({ name: 'team-rules', version: '1.0.0' });
    expect((await api(srv.url, '/api/packages/team-rules')).body.latest).toBe('1.0.0');
  });

  test("browser login: the CLI's loopback flow through the server's login page, acted out by a browser-like client", async () => {
    const loginHome = tempDir('avp-e2e-login-');
    const proc = Bun.spawn([AVP_BIN, 'login', '--registry', srv.url], {
      env: { PATH: '/nonexistent', HOME: loginHome, AVP_HOME: join(loginHome, '.avp'), NO_COLOR: '1' },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    let err = '';
    const reader = proc.stderr.getReader();
    const deadline = Date.now() + 15_000;
    while (!/\/cli\/auth\/start\?\S+/.test(err) && Date.now() < deadline) {
      const { done, value } = await reader.read();
      if (done) break;
      err += new TextDecoder().decode(value);
    }
    const start = /(http\S+\/cli\/auth\/start\?\S+)/.exec(err)?.[1];
    if (!start) {
      proc.kill();
      throw new Error(`avp login printed no login URL: ${err}`);
    }
    const params = new URL(start).searchParams;
    const page = await fetch(start);
    expect(await page.text()).toContain('name="token"');
    const submit = await fetch(`${srv.url}/cli/auth/start`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        redirect_uri: params.get('redirect_uri')!,
        state: params.get('state')!,
        token,
      }).toString(),
    });
    expect(submit.status).toBe(303);
    const callback = await fetch(submit.headers.get('location')!, { redirect: 'manual' });
    expect(callback.headers.get('location')).toBe(`${srv.url}/cli/success`);
    expect(await proc.exited).toBe(0);
    const who = await runAvp(['whoami', '--registry', srv.url], {
      env: { HOME: loginHome, AVP_HOME: join(loginHome, '.avp') },
    });
    expect(who.stdout).toContain('alice');
    // the CLI got its own token, not the pasted one
    expect(readFileSync(join(loginHome, '.avp', 'credentials'), 'utf8')).not.toContain(token);
  });

  test('search and info see it', async () => {
    const s = await ok(['search', 'team', '--json']);
    expect(JSON.stringify(JSON.parse(s.stdout))).toContain('"team-rules"');
    const table = await ok(['search', 'team']);
    expect(table.stdout).toContain('team-rules');
    const info = await ok(['info', 'team-rules', '--json']);
    expect(JSON.stringify(JSON.parse(info.stdout))).toContain('Checks the team rules');
  });

  test('add to the user scope and to the project, each with its own lockfile', async () => {
    const meta = (await api(srv.url, '/api/packages/team-rules/1.0.0')).body;
    await ok(['add', 'team-rules']);
    expect(readFileSync(join(avpHome, 'validators', 'team-rules', 'references', 'rules.md'), 'utf8')).toBe(
      '# Team rules 1.0.0\n',
    );
    const user = lock(join(avpHome, 'avp-lock.json'))['team-rules'];
    expect(user).toMatchObject({ version: '1.0.0', resolved: meta.downloadUrl, integrity: meta.integrity });
    expect(Date.parse(user.installedAt)).toBeGreaterThan(0);
    await ok(['add', 'team-rules@^1.0.0', '--project']);
    expect(existsSync(join(project, '.avp', 'validators', 'team-rules', 'VALIDATOR.md'))).toBe(true);
    expect(lock(join(project, '.avp', 'avp-lock.json'))['team-rules']).toMatchObject({
      version: '1.0.0',
      integrity: meta.integrity,
    });
    expect(existsSync(join(project, 'avp-lock.json'))).toBe(false);
  });

  test("re-publishing 1.0.0 is refused with the server's conflict message", async () => {
    const r = await avp(['publish', pkgDir, '--registry', srv.url]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('already published');
  });

  test('a new version: outdated sees it, update installs it and rewrites the lockfile', async () => {
    writeVersion('1.1.0');
    await ok(['publish', pkgDir, '--registry', srv.url]);
    const outdated = await avp(['outdated', '--project', '--json']);
    expect(outdated.stdout).toContain('1.1.0');
    await ok(['update', 'team-rules', '--project']);
    expect(readFileSync(join(project, '.avp', 'validators', 'team-rules', 'references', 'rules.md'), 'utf8')).toBe(
      '# Team rules 1.1.0\n',
    );
    const entry = lock(join(project, '.avp', 'avp-lock.json'))['team-rules'];
    expect(entry.version).toBe('1.1.0');
    expect(entry.integrity).toBe((await api(srv.url, '/api/packages/team-rules/1.1.0')).body.integrity);
  });

  test('yank hides 1.1.0 from new installs; install --frozen still restores the pinned 1.1.0', async () => {
    await ok(['yank', 'team-rules@1.1.0', '--registry', srv.url]);
    expect((await api(srv.url, '/api/packages/team-rules/latest')).body.version).toBe('1.0.0');
    // a fresh resolution gets 1.0.0 …
    const other = tempDir('avp-e2e-other-');
    mkdirSync(join(other, '.git'));
    await ok(['add', 'team-rules@^1.0.0', '--project'], { cwd: other });
    expect(lock(join(other, '.avp', 'avp-lock.json'))['team-rules'].version).toBe('1.0.0');
    // … while a teammate with the lockfile gets exactly what it pins
    rmSync(join(project, '.avp', 'validators'), { recursive: true, force: true });
    const lockBefore = readFileSync(join(project, '.avp', 'avp-lock.json'), 'utf8');
    await ok(['install', '--frozen']);
    expect(readFileSync(join(project, '.avp', 'validators', 'team-rules', 'references', 'rules.md'), 'utf8')).toBe(
      '# Team rules 1.1.0\n',
    );
    expect(readFileSync(join(project, '.avp', 'avp-lock.json'), 'utf8')).toBe(lockBefore);
  });

  test('auth failures reach the user as clear errors: bad token, not an owner', async () => {
    writeVersion('1.2.0');
    const bad = await avp(['publish', pkgDir, '--registry', srv.url], { env: { AVP_TOKEN: 'avp_not-a-token' } });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/401|unknown or revoked/);
    expect(bad.stderr).not.toContain('avp_not-a-token');
    const bob = (await createToken(data, 'bob')).token;
    const forbidden = await avp(['publish', pkgDir, '--registry', srv.url], { env: { AVP_TOKEN: bob } });
    expect(forbidden.code).not.toBe(0);
    expect(forbidden.stderr).toContain('owned by alice');
    expect((await api(srv.url, '/api/packages/team-rules/1.2.0')).status).toBe(404);
  });

  test('the first-party catalog is published with one command, file for file', async () => {
    const seed = await ok(['registry', 'seed-catalog', '--registry', srv.url, '--token', token, '--json']);
    const results = JSON.parse(seed.stdout).results as Array<{ name: string; status: string }>;
    expect(results.length).toBeGreaterThan(3);
    expect(results.every((r) => r.status === 'published')).toBe(true);
    const again = await ok(['registry', 'seed-catalog', '--registry', srv.url, '--token', token, '--json']);
    expect((JSON.parse(again.stdout).results as Array<{ status: string }>).every((r) => r.status === 'exists')).toBe(
      true,
    );
    // what the server holds is the catalog validator, file for file
    const { inspectArchive } = await import('../../src/registry-client/archive.ts');
    const { readCatalogValidator } = await import('../../src/catalog/index.ts');
    for (const { name } of results) {
      const meta = (await api(srv.url, `/api/packages/${name}/latest`)).body;
      const zip = new Uint8Array(await (await fetch(meta.downloadUrl)).arrayBuffer());
      const info = await inspectArchive(zip);
      const catalog = (await readCatalogValidator(name))!;
      expect(meta.version).toBe(catalog.version);
      const got = Object.fromEntries(info.files.map((f) => [f.path, Buffer.from(f.data).toString('base64')]));
      const want = Object.fromEntries(catalog.files.map((f) => [f.path, Buffer.from(f.data).toString('base64')]));
      expect(got).toEqual(want);
    }
  });
});
