/**
 * `install.sh` as the README shows it (`curl … | sh`, here `sh < install.sh`: POSIX sh, dash on this machine)
 * against a loopback static server serving fake releases. The real binary installs into `~/.avp/bin` and runs
 * `avp init`; every bad release (tampered binary, no checksum for this platform, a binary that does not say its
 * version, plain http to another host) installs nothing and leaves an earlier install untouched.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serveStaticExport } from '../../registry/static-server.ts';
import { AVP_BIN, outputOf, tempDir } from '../support/run-avp.ts';

const ROOT = resolve(import.meta.dir, '../..');
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
const TARGET = `${process.platform === 'darwin' ? 'darwin' : 'linux'}-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
const ASSET = `avp-${TARGET}`;
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

const releases = tempDir('avp-install-releases-');
let server: { url: string; stop(): Promise<void> };

function release(version: string, binary: Buffer | string, sums?: string): void {
  const dir = join(releases, `v${version}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, ASSET), binary);
  writeFileSync(join(dir, 'sha256sums.txt'), sums ?? `${sha256(binary)}  ${ASSET}\n`);
}

beforeAll(() => {
  server = serveStaticExport(releases);
  const real = readFileSync(AVP_BIN);
  release(VERSION, real);
  mkdirSync(join(releases, 'latest'), { recursive: true });
  writeFileSync(join(releases, 'latest', 'version.txt'), `${VERSION}\n`);
  const fake = (v: string) => `#!/bin/sh\necho ${v}\n`;
  release('9.9.1', `${fake('9.9.1')}#tampered\n`, `${sha256(fake('9.9.1'))}  ${ASSET}\n`);
  release('9.9.2', fake('9.9.2'), `${sha256(fake('9.9.2'))}  avp-plan9-mips\n`);
  release('9.9.3', fake('1.0.0'));
});
afterAll(() => server.stop());

/** `sh < install.sh` (as `curl … | sh` runs it) with a scratch HOME; asynchronous so the server keeps answering. */
async function install(home: string, env: Record<string, string> = {}, args: string[] = []) {
  const p = Bun.spawn(['sh', '-s', '--', ...args], {
    stdin: Bun.file(join(ROOT, 'install.sh')),
    cwd: home,
    env: { PATH: process.env.PATH!, HOME: home, SHELL: '/bin/bash', AVP_RELEASE_URL: server.url, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const { stdout, stderr, code } = await outputOf(p);
  return { stdout, stderr, code };
}

describe('install.sh', () => {
  test('installs the newest release into ~/.avp/bin, verified, and that avp sets up a project', async () => {
    const home = tempDir('avp-install-home-');
    const r = await install(home);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const bin = join(home, '.avp', 'bin', 'avp');
    expect(r.stdout).toContain(
      `avp ${VERSION} (${ASSET}, sha256 ${sha256(readFileSync(AVP_BIN))}) installed as ${bin}`,
    );
    expect(r.stdout).toContain(`export PATH="${join(home, '.avp', 'bin')}:$PATH"`);
    expect(readdirSync(join(home, '.avp', 'bin'))).toEqual(['avp']);
    const project = join(home, 'project');
    mkdirSync(join(project, '.git'), { recursive: true });
    const init = Bun.spawnSync([bin, 'init', '--no-validators'], {
      cwd: project,
      env: { PATH: `${join(home, '.avp', 'bin')}:${process.env.PATH}`, HOME: home, NO_COLOR: '1' },
    });
    expect(init.exitCode).toBe(0);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toContain('avp hook');
  });

  test('--version and --dir pick the release and the folder; on PATH it says what to run next', async () => {
    const home = tempDir('avp-install-home-');
    const dir = join(home, 'tools');
    const r = await install(home, { PATH: `${dir}:${process.env.PATH}` }, ['--version', `v${VERSION}`, '--dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`installed as ${dir}/avp`);
    expect(r.stdout).toContain('next: cd your-project && avp init');
    expect(
      Bun.spawnSync([join(dir, 'avp'), 'version'])
        .stdout.toString()
        .trim(),
    ).toBe(VERSION);
  });

  test('a bad release installs nothing and keeps the avp already there', async () => {
    const home = tempDir('avp-install-home-');
    expect((await install(home)).code).toBe(0);
    const bin = join(home, '.avp', 'bin', 'avp');
    const before = sha256(readFileSync(bin));
    const cases: Array<[Record<string, string>, string]> = [
      [{ AVP_VERSION: '9.9.1' }, 'checksum mismatch for'],
      [{ AVP_VERSION: '9.9.2' }, `sha256sums.txt of v9.9.2 lists no checksum for ${ASSET}`],
      [{ AVP_VERSION: '9.9.3' }, 'the downloaded avp says "1.0.0", not version 9.9.3'],
      [{ AVP_VERSION: '9.9.9' }, 'could not download'],
      [{ AVP_VERSION: 'nightly' }, '"nightly" is not a release version'],
      [{ AVP_RELEASE_URL: 'http://example.com/releases' }, 'must be https://'],
    ];
    for (const [env, message] of cases) {
      const r = await install(home, env);
      expect({ env, code: r.code, has: r.stderr.includes(message) }).toEqual({ env, code: 1, has: true });
      expect(sha256(readFileSync(bin))).toBe(before);
      expect(readdirSync(join(home, '.avp', 'bin'))).toEqual(['avp']);
    }
    expect(existsSync(join(home, '.avp', 'bin', 'avp'))).toBe(true);
  });

  test("the repository's own install.sh names no release: without AVP_RELEASE_URL it says to set it", async () => {
    const home = tempDir('avp-install-home-');
    const r = await install(home, { AVP_RELEASE_URL: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('this copy of install.sh names no release URL');
    expect(r.stderr).toContain('set AVP_RELEASE_URL to the folder holding v<version>/');
    expect(existsSync(join(home, '.avp'))).toBe(false);
  });

  test('the release workflow publishes what install.sh, install.ps1 and avp upgrade read, from one release URL', () => {
    const workflow = readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8');
    for (const asset of ['version.txt', 'sha256sums.txt', 'install.sh', 'install.ps1', 'build.ts --all', 'codesign'])
      expect({ asset, published: workflow.includes(asset) }).toEqual({ asset, published: true });
    const build = readFileSync(join(ROOT, 'build.ts'), 'utf8');
    for (const target of ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'windows-x64']) {
      expect(build).toContain(`'bun-${target}'`);
      expect(workflow).toContain(target);
    }
    // No shipped default is made up: the URL comes from the build (avp) and from the release workflow's stamp (the
    // installers, run from scripts/release/ on copies); the repository's copies name none.
    for (const f of [
      'install.sh',
      'install.ps1',
      'src/upgrade/release.ts',
      'build.ts',
      'README.md',
      'docs/install.md',
    ]) {
      const text = readFileSync(join(ROOT, f), 'utf8');
      expect({ f, owner: /OWNER\/avp|github\.com\/[\w.-]+\/avp\/releases/.test(text) }).toEqual({ f, owner: false });
    }
    expect(readFileSync(join(ROOT, 'install.sh'), 'utf8')).toMatch(/^release_url=''$/m);
    expect(readFileSync(join(ROOT, 'install.ps1'), 'utf8')).toMatch(/^\s*\$StampedReleaseUrl = ''$/m);
    expect(workflow).toMatch(
      /scripts\/release\/stamp-installers\.sh "[^"\n]*" release\/install\.sh release\/install\.ps1/,
    );
    expect(workflow).toContain('AVP_RELEASE_URL: ${{ github.server_url }}/${{ github.repository }}/releases/download');
  });
});
