/**
 * Non-registry sources through `dist/avp add`: a local directory, a git repository (a local bare repo over file://,
 * no network), https-style zip and tarball URLs served on loopback, and the embedded catalog offline.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'fflate';
import { createTar } from 'nanotar';
import { escapedFiles } from '../support/escaped-files.ts';
import { tempDir } from '../support/run-avp.ts';
import { VALIDATOR_MD, validatorZip } from '../unit/registry-client/zip-forge.ts';
import { lock, sandbox, sandboxWithConfiguredRegistry } from './registry-client-helpers.ts';

let server: ReturnType<typeof Bun.serve>;
let base = '';
const served = new Map<string, Uint8Array>();

beforeAll(() => {
  served.set('/pkg.zip', validatorZip('zipped'));
  served.set(
    '/pkg.tar.gz',
    gzipSync(createTar([{ name: 'tarred/' }, { name: 'tarred/VALIDATOR.md', data: VALIDATOR_MD('tarred') }])),
  );
  served.set(
    '/slip.tgz',
    gzipSync(
      createTar([
        { name: 'slip/VALIDATOR.md', data: VALIDATOR_MD('slip') },
        { name: 'slip/../../x.md', data: 'x' },
      ]),
    ),
  );
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const bytes = served.get(new URL(req.url).pathname);
      return bytes ? new Response(bytes) : new Response('missing', { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(() => server.stop(true));

function writeValidator(dir: string, name: string, version = '1.0.0'): void {
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  writeFileSync(join(dir, 'VALIDATOR.md'), VALIDATOR_MD(name, `"${version}"`));
  writeFileSync(join(dir, 'scripts', 'note.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
  writeFileSync(join(dir, '.secret'), 'not packed');
}

describe('other sources', () => {
  test('a local directory: file:<abs> + content hash; dot files left out; exec bits kept', async () => {
    const sb = sandbox();
    const src = join(tempDir('avp-rc-src-'), 'my-dir');
    writeValidator(src, 'local-one');
    const r = await sb.avp(['add', src, '--project', '--json']);
    expect(r.code).toBe(0);
    const installed = join(sb.project, '.avp', 'validators', 'local-one');
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'local-one', source: 'file', resolved: `file:${src}` });
    expect(existsSync(join(installed, '.secret'))).toBe(false);
    expect(statSync(join(installed, 'scripts', 'note.sh')).mode & 0o111).not.toBe(0);
    const entry = lock(sb.projectLock).packages['local-one']!;
    expect(entry.integrity).toMatch(/^sha512-/);
    // Relative paths resolve against the cwd.
    const rel = await sb.avp(['add', './my-dir', '--json'], { cwd: join(src, '..') });
    expect(JSON.parse(rel.stdout).resolved).toBe(`file:${src}`);
  });

  test('git over file:// (shallow): resolved git+<url>#<sha>; a ref selects the branch; install restores the commit', async () => {
    const sb = sandbox();
    const work = tempDir('avp-rc-git-');
    const repo = join(work, 'src');
    writeValidator(repo, 'from-git');
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: repo,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      })
        .toString()
        .trim();
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-qm', 'v1');
    const v1 = git('rev-parse', 'HEAD');
    git('checkout', '-qb', 'next');
    writeFileSync(join(repo, 'VALIDATOR.md'), VALIDATOR_MD('from-git', '"2.0.0"'));
    git('commit', '-qam', 'v2');
    git('checkout', '-q', 'main');
    execFileSync('git', ['clone', '-q', '--bare', repo, join(work, 'bare.git')]);
    const url = `file://${join(work, 'bare.git')}`;

    const r = await sb.avp(['add', url, '--project', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      name: 'from-git',
      version: '1.0.0',
      source: 'git',
      resolved: `git+${url}#${v1}`,
    });
    const next = await sb.avp(['add', `${url}#next`, '--project', '--json']);
    expect(JSON.parse(next.stdout).version).toBe('2.0.0');
    expect(lock(sb.projectLock).packages['from-git']).toMatchObject({ source: 'git', requested: 'next' });

    const nextSha = lock(sb.projectLock).packages['from-git']!.resolved.split('#')[1]!;
    expect(nextSha).not.toBe(v1);
    execFileSync('rm', ['-rf', join(sb.project, '.avp', 'validators')]);
    const restored = await sb.avp(['install', '--frozen', '--json']);
    expect(restored.code).toBe(0);
    expect(readFileSync(join(sb.project, '.avp', 'validators', 'from-git', 'VALIDATOR.md'), 'utf8')).toContain(
      '"2.0.0"',
    );

    const missing = await sb.avp(['add', `${url}#no-such-branch`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('could not fetch');
  });

  test('owner/repo: the registry is asked first; its 404 falls back to GitHub (rewritten to a local repo by git config)', async () => {
    const asked: string[] = [];
    const reg = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (req) => {
        asked.push(new URL(req.url).pathname);
        return Response.json({ error_description: 'no such package' }, { status: 404 });
      },
    });
    try {
      const work = tempDir('avp-rc-gh-');
      const repo = join(work, 'acme', 'rules');
      writeValidator(repo, 'acme-rules');
      const env = {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      };
      for (const args of [
        ['init', '-q', '-b', 'main'],
        ['add', '.'],
        ['commit', '-qm', 'v1'],
      ])
        execFileSync('git', args, { cwd: repo, env });
      execFileSync('git', ['clone', '-q', '--bare', repo, join(work, 'bare', 'acme', 'rules.git')]);
      const sb = sandbox(`http://127.0.0.1:${reg.port}`);
      // No network in tests: git's insteadOf maps https://github.com/ to the local bare repositories.
      const gitEnv = {
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: `url.file://${join(work, 'bare')}/.insteadOf`,
        GIT_CONFIG_VALUE_0: 'https://github.com/',
      };
      const r = await sb.avp(['add', 'acme/rules#main', '--json'], { env: gitEnv });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ name: 'acme-rules', source: 'git' });
      expect(JSON.parse(r.stdout).resolved).toMatch(/^git\+https:\/\/github\.com\/acme\/rules\.git#[0-9a-f]{40}$/);
      expect(asked).toEqual(['/api/packages/acme%2Frules/latest']);
    } finally {
      reg.stop(true);
    }
  });

  test('zip and tar.gz URLs record the URL and the integrity of the bytes; hostile tarballs are refused', async () => {
    const sb = sandbox();
    const z = await sb.avp(['add', `${base}/pkg.zip`, '--json']);
    expect(z.code).toBe(0);
    expect(JSON.parse(z.stdout)).toMatchObject({ name: 'zipped', source: 'url', resolved: `${base}/pkg.zip` });
    const t = await sb.avp(['add', `${base}/pkg.tar.gz`, '--json']);
    expect(t.code).toBe(0);
    expect(readFileSync(join(sb.userValidators, 'tarred', 'VALIDATOR.md'), 'utf8')).toContain('name: tarred');
    const { createHash } = await import('node:crypto');
    expect(lock(sb.userLock).packages.tarred!.integrity).toBe(
      `sha512-${createHash('sha512').update(served.get('/pkg.tar.gz')!).digest('base64')}`,
    );
    const slip = await sb.avp(['add', `${base}/slip.tgz`]);
    expect(slip.code).toBe(1);
    expect(slip.stderr).toContain('unsafe entry "slip/../../x.md": ".." segment');
    expect(existsSync(join(sb.userValidators, 'slip'))).toBe(false);
    // Wherever the entry could have landed (it climbs two folders from the package folder): nothing.
    expect(escapedFiles({ roots: [sb.home, sb.project], marker: 'x.md', payload: 'x' })).toEqual([]);
  });

  test('offline: the embedded catalog, recorded as catalog:<name>@<version>', async () => {
    const sb = sandbox();
    const r = await sb.avp(['add', 'no-secrets', '--offline', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ name: 'no-secrets', source: 'catalog' });
    expect(out.resolved).toBe(`catalog:no-secrets@${out.version}`);
    expect(existsSync(join(sb.userValidators, 'no-secrets', 'VALIDATOR.md'))).toBe(true);
    expect(lock(sb.userLock).packages['no-secrets']!.source).toBe('catalog');
    const unknown = await sb.avp(['add', 'not-in-catalog', '--offline']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("not in avp's embedded catalog");
  });

  test('an unreachable configured registry falls back to the catalog', async () => {
    const sb = sandboxWithConfiguredRegistry('http://127.0.0.1:9');
    const r = await sb.avp(['add', 'no-secrets', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).source).toBe('catalog');
  });
});
