/**
 * `scripts/release/stamp-installers.sh`, the release workflow's step that gives the uploaded install.sh and
 * install.ps1 their default release URL, run here on copies. A stamped install.sh installs from that URL with no
 * AVP_RELEASE_URL (`sh < install.sh`, as `curl … | sh` runs it, against a loopback release); every input the stamp
 * cannot stamp safely (a second stamp, plain http, a quote that would end the string, a missing marker) fails and
 * leaves the file byte for byte as it was.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serveStaticExport } from '../../registry/static-server.ts';
import { AVP_BIN, outputOf, tempDir } from '../support/run-avp.ts';

const ROOT = resolve(import.meta.dir, '../..');
const STAMP = join(ROOT, 'scripts/release/stamp-installers.sh');
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
const ASSET = `avp-${process.platform === 'darwin' ? 'darwin' : 'linux'}-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

const releases = tempDir('avp-stamp-releases-');
let server: { url: string; stop(): Promise<void> };
let base: string;

beforeAll(() => {
  server = serveStaticExport(releases);
  base = `${server.url}/acme/avp/releases/download`;
  const folder = join(releases, `acme/avp/releases/download/v${VERSION}`);
  mkdirSync(folder, { recursive: true });
  const real = readFileSync(AVP_BIN);
  writeFileSync(join(folder, ASSET), real);
  writeFileSync(join(folder, 'sha256sums.txt'), `${sha256(real)}  ${ASSET}\n`);
  mkdirSync(join(releases, 'acme/avp/releases/latest/download'), { recursive: true });
  writeFileSync(join(releases, 'acme/avp/releases/latest/download/version.txt'), `${VERSION}\n`);
});
afterAll(() => server.stop());

/** Copies of both installers in a scratch `release/` folder, as the workflow stages them. */
function copies(): { sh: string; ps1: string } {
  const dir = join(tempDir('avp-stamp-'), 'release');
  mkdirSync(dir);
  for (const f of ['install.sh', 'install.ps1']) copyFileSync(join(ROOT, f), join(dir, f));
  return { sh: join(dir, 'install.sh'), ps1: join(dir, 'install.ps1') };
}

function stamp(url: string, ...files: string[]) {
  const r = Bun.spawnSync(['sh', STAMP, url, ...files], { stdout: 'pipe', stderr: 'pipe' });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

describe('stamp-installers.sh', () => {
  test('stamps exactly the one default line of each installer and nothing else', () => {
    const { sh, ps1 } = copies();
    const r = stamp(`${base}/`, sh, ps1);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`stamped ${sh}: ${base}\nstamped ${ps1}: ${base}\n`);
    const diff = (file: string, original: string) => {
      const [a, b] = [readFileSync(original, 'utf8').split('\n'), readFileSync(file, 'utf8').split('\n')];
      expect(b.length).toBe(a.length);
      return b.filter((line, i) => line !== a[i]);
    };
    expect(diff(sh, join(ROOT, 'install.sh'))).toEqual([`release_url='${base}'`]);
    expect(diff(ps1, join(ROOT, 'install.ps1'))).toEqual([`  $StampedReleaseUrl = '${base}'`]);
    expect(statSync(sh).mode & 0o777).toBe(statSync(join(ROOT, 'install.sh')).mode & 0o777);
  });

  test('a stamped install.sh installs from its release with no AVP_RELEASE_URL', async () => {
    const { sh } = copies();
    expect(stamp(base, sh).code).toBe(0);
    const home = tempDir('avp-stamp-home-');
    const p = Bun.spawn(['sh', '-s'], {
      stdin: Bun.file(sh),
      cwd: home,
      env: { PATH: process.env.PATH!, HOME: home, SHELL: '/bin/sh' },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const { stdout, stderr, code } = await outputOf(p);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`avp ${VERSION} (${ASSET}, sha256 `);
    expect(readdirSync(join(home, '.avp', 'bin'))).toEqual(['avp']);
  });

  test('refuses what it cannot stamp safely, leaving every file as it was', () => {
    const { sh, ps1 } = copies();
    const before = [readFileSync(sh, 'utf8'), readFileSync(ps1, 'utf8')];
    const cases: Array<[string, string[], string]> = [
      ['http://example.com/avp/releases/download', [sh, ps1], 'must be https://'],
      ["https://example.com/a'; echo pwned; '", [sh, ps1], 'cannot quote safely'],
      ['https://user:secret@example.com/avp', [sh], 'cannot quote safely'],
      ['https://example.com/a|b&c', [ps1], 'cannot quote safely'],
      [base, [join(sh, '..', 'missing.sh')], 'does not exist'],
      [base, [join(ROOT, 'package.json')], 'neither install.sh nor install.ps1'],
      [base, [sh], 'usage'],
    ];
    for (const [url, files, message] of cases) {
      const r = message === 'usage' ? stamp(url) : stamp(url, ...files);
      expect({ url, code: r.code, has: r.stderr.includes(message) }).toEqual({ url, code: 1, has: true });
    }
    expect([readFileSync(sh, 'utf8'), readFileSync(ps1, 'utf8')]).toEqual(before);
    // Stamped once, a second stamp (another URL) is refused: the first one stays.
    expect(stamp('https://example.com/one', sh, ps1).code).toBe(0);
    const once = [readFileSync(sh, 'utf8'), readFileSync(ps1, 'utf8')];
    const again = stamp('https://example.com/two', sh);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already stamped?');
    expect([readFileSync(sh, 'utf8'), readFileSync(ps1, 'utf8')]).toEqual(once);
    // An installer whose line was edited away (or doubled) is not guessed at.
    const twice = join(sh, '..', 'twice.sh');
    writeFileSync(twice, "release_url=''\nrelease_url=''\n");
    expect(stamp(base, twice).stderr).toContain('exactly once (found 2)');
  });

  test('a Windows checkout (CRLF) is stamped with its line ending kept', () => {
    const { ps1 } = copies();
    writeFileSync(ps1, readFileSync(ps1, 'utf8').replaceAll('\n', '\r\n'));
    expect(stamp(base, ps1).code).toBe(0);
    expect(readFileSync(ps1, 'utf8')).toContain(`  $StampedReleaseUrl = '${base}'\r\n`);
  });
});
