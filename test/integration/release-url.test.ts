/**
 * The release URL is decided when avp is built, never made up: `build.ts` bakes in `AVP_RELEASE_URL`, or in GitHub
 * Actions the Releases of the repository the build runs in. Two real builds (one as in GitHub Actions, one with
 * nothing set, as a fresh clone) and `avp upgrade` against a loopback server laid out like GitHub's releases: the
 * first finds its releases with no flag and no variable; the second asks for --release-url / AVP_RELEASE_URL and
 * fetches nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serveStaticExport } from '../../registry/static-server.ts';
import { releaseUrlForBuild } from '../../scripts/release/release-url.ts';
import { runAvp, tempDir } from '../support/run-avp.ts';

const ROOT = resolve(import.meta.dir, '../..');
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
const EXE = process.platform === 'win32' ? '.exe' : '';
const OS = process.platform === 'win32' ? 'windows' : process.platform;
const ASSET = `avp-${OS}-${process.arch === 'arm64' ? 'arm64' : 'x64'}${EXE}`;
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const fake = (says: string) => `#!/bin/sh\n[ "$1" = version ] && echo ${says}\n`;

/** The build's environment without anything that names a release URL (what a fresh clone has). */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && k !== 'AVP_RELEASE_URL' && !k.startsWith('GITHUB_')) env[k] = v;
  }
  return env;
}

/** `bun run build.ts --outdir <tmp>` with `env`; returns the binary, copied into a folder of its own. */
function build(env: Record<string, string>): { bin: string; stderr: string } {
  const out = tempDir('avp-release-url-build-');
  const run = Bun.spawnSync([process.execPath, 'run', 'build.ts', '--outdir', out], {
    cwd: ROOT,
    env: { ...cleanEnv(), ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const stderr = run.stderr.toString();
  if (run.exitCode !== 0) throw new Error(`build.ts failed: ${stderr}`);
  const dir = tempDir('avp-release-url-bin-');
  const bin = join(dir, `avp${EXE}`);
  copyFileSync(join(out, `avp${EXE}`), bin);
  return { bin, stderr };
}

const releases = tempDir('avp-release-url-releases-');
let server: { url: string; stop(): Promise<void> };
let github: { bin: string; stderr: string };
let local: { bin: string; stderr: string };
let githubBase: string;

beforeAll(() => {
  server = serveStaticExport(releases);
  // GitHub's layout: <server>/<owner>/<repo>/releases/download/v<version>/<asset>; the newest at
  // releases/latest/download.
  githubBase = `${server.url}/acme/avp/releases/download`;
  const folder = join(releases, 'acme/avp/releases/download/v9.9.0');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, ASSET), fake('9.9.0'));
  writeFileSync(join(folder, 'sha256sums.txt'), `${sha256(fake('9.9.0'))}  ${ASSET}\n`);
  mkdirSync(join(releases, 'acme/avp/releases/latest/download'), { recursive: true });
  writeFileSync(join(releases, 'acme/avp/releases/latest/download/version.txt'), '9.9.0\n');
  // Built one after the other: both runs regenerate the embedded catalog module.
  github = build({ GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: server.url, GITHUB_REPOSITORY: 'acme/avp' });
  local = build({});
});
afterAll(() => server.stop());

const upgrade = (bin: string, args: string[], env: Record<string, string> = {}) =>
  runAvp(['upgrade', ...args], { bin, env, timeoutMs: 120_000 });

describe('the release URL built into avp', () => {
  test('a build in GitHub Actions finds the releases of its repository with no flag and no variable', async () => {
    expect(github.stderr).toContain(`release URL: ${githubBase} (from GITHUB_REPOSITORY)`);
    // The release workflow checks every binary this way (grep -aF) before it publishes them.
    expect(readFileSync(github.bin).includes(githubBase)).toBe(true);
    const check = await upgrade(github.bin, ['--check', '--json']);
    expect(check.stderr).toBe('');
    expect(JSON.parse(check.stdout)).toMatchObject({
      status: 'available',
      from: VERSION,
      to: '9.9.0',
      releaseUrl: githubBase,
    });
  });

  test.skipIf(process.platform === 'win32')(
    '…and upgrades from there, verified (the stand-in release is a sh script)',
    async () => {
      const bin = join(tempDir('avp-release-url-up-'), 'avp');
      copyFileSync(github.bin, bin);
      const r = await upgrade(bin, ['--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'upgraded', to: '9.9.0', releaseUrl: githubBase });
      expect(readFileSync(bin, 'utf8')).toBe(fake('9.9.0'));
    },
  );

  test('a local build has no release URL: avp upgrade names --release-url and AVP_RELEASE_URL, and changes nothing', async () => {
    expect(local.stderr).toContain('release URL: none');
    const before = sha256(readFileSync(local.bin));
    for (const args of [[], ['--check'], ['--version', '9.9.0', '--json']]) {
      const r = await upgrade(local.bin, args);
      expect({ args, code: r.code }).toEqual({ args, code: 1 });
      expect(r.stderr).toContain('this avp was built without a release URL');
      expect(r.stderr).toContain('avp upgrade --release-url');
      expect(r.stderr).toContain('AVP_RELEASE_URL');
      expect(r.stdout).toBe('');
    }
    expect(sha256(readFileSync(local.bin))).toBe(before);
    expect(readdirSync(join(local.bin, '..'))).toEqual([`avp${EXE}`]);
  });

  test('no binary carries a made-up repository: neither build holds OWNER/ nor a github.com releases URL', () => {
    for (const bin of [github.bin, local.bin]) {
      const bytes = readFileSync(bin).toString('latin1');
      expect(bytes.includes('OWNER/avp')).toBe(false);
      expect(/https:\/\/github\.com\/[\w.-]+\/avp\/releases\/download/.test(bytes)).toBe(false);
    }
  });

  test('the local build works with --release-url or AVP_RELEASE_URL; the flag wins over the variable', async () => {
    const flag = await upgrade(local.bin, ['--check', '--json', '--release-url', `${githubBase}/`]);
    expect(JSON.parse(flag.stdout)).toMatchObject({ status: 'available', to: '9.9.0', releaseUrl: githubBase });
    const env = await upgrade(local.bin, ['--check', '--json'], { AVP_RELEASE_URL: githubBase });
    expect(JSON.parse(env.stdout)).toMatchObject({ status: 'available', releaseUrl: githubBase });
    // The variable names a folder with no releases: only the flag's folder can answer.
    const both = await upgrade(local.bin, ['--check', '--json', '--release-url', githubBase], {
      AVP_RELEASE_URL: `${server.url}/nothing-here`,
    });
    expect(JSON.parse(both.stdout)).toMatchObject({ status: 'available', releaseUrl: githubBase });
    const http = await upgrade(local.bin, ['--check', '--release-url', 'http://example.com/avp/releases/download']);
    expect(http.code).toBe(1);
    expect(http.stderr).toContain('--release-url must be https://');
  });

  test('AVP_RELEASE_URL at build time overrides the repository, and the build refuses one that is not https', () => {
    const gh = { GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/avp' };
    expect(releaseUrlForBuild(gh).url).toBe('https://github.com/acme/avp/releases/download');
    expect(releaseUrlForBuild({ ...gh, AVP_RELEASE_URL: 'https://mirror.example/avp/' }).url).toBe(
      'https://mirror.example/avp',
    );
    // The GitHub variables outside GitHub Actions (a copied shell environment) are not a release URL.
    expect(releaseUrlForBuild({ ...gh, GITHUB_ACTIONS: '' }).url).toBeUndefined();
    expect(() => releaseUrlForBuild({ ...gh, GITHUB_REPOSITORY: 'acme/avp/../x y' })).toThrow('not owner/name');
    expect(() => releaseUrlForBuild({ AVP_RELEASE_URL: 'http://mirror.example/avp' })).toThrow('must be https://');
    const refused = Bun.spawnSync([process.execPath, 'run', 'build.ts', '--outdir', tempDir('avp-release-url-no-')], {
      cwd: ROOT,
      env: { ...cleanEnv(), AVP_RELEASE_URL: 'http://mirror.example/avp' },
      stderr: 'pipe',
    });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr.toString()).toContain('AVP_RELEASE_URL must be https://');
  });
});
