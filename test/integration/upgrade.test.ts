/**
 * `avp upgrade` through the real binary against a loopback static server serving fake releases. The binary under
 * test is a copy of `dist/avp` in a scratch folder (the running executable is what gets replaced). Every way a
 * release can be bad — a tampered binary, checksums for other assets, a binary that does not run or says another
 * version, plain http to another host — must leave the old binary byte for byte in place, with no stray file.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStaticExport } from '../../registry/static-server.ts';
import { AVP_BIN, runAvp, tempDir } from '../support/run-avp.ts';

const VERSION = JSON.parse(readFileSync(join(import.meta.dir, '../../package.json'), 'utf8')).version as string;
const ASSET = `avp-${process.platform === 'darwin' ? 'darwin' : 'linux'}-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

const releases = tempDir('avp-upgrade-releases-');
let server: { url: string; stop(): Promise<void> };

/** A fake release: `binary` as this platform's asset, with its true checksum unless `sums` is given. */
function release(version: string, binary: string, sums?: string): void {
  const dir = join(releases, `v${version}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, ASSET), binary);
  writeFileSync(join(dir, 'sha256sums.txt'), sums ?? `${sha256(binary)}  ${ASSET}\n`);
  writeFileSync(join(dir, 'version.txt'), `${version}\n`);
}

/** A stand-in release binary: a script that answers `version` like avp does. */
const fake = (says: string, code = 0) => `#!/bin/sh\n[ "$1" = version ] && echo ${says}\nexit ${code}\n`;

function latest(version: string): void {
  mkdirSync(join(releases, 'latest'), { recursive: true });
  writeFileSync(join(releases, 'latest', 'version.txt'), `${version}\n`);
}

beforeAll(() => {
  server = serveStaticExport(releases);
  release('9.9.0', fake('9.9.0'));
  release('9.9.1', `${fake('9.9.1')}# tampered\n`, `${sha256(fake('9.9.1'))}  ${ASSET}\n`);
  release('9.9.2', fake('9.9.2'), `${sha256(fake('9.9.2'))}  avp-plan9-mips\n`);
  release('9.9.3', fake('9.9.3', 1));
  release('9.9.4', fake('1.0.0'));
});
afterAll(() => server.stop());

/** A copy of the real binary in a scratch bin folder. */
function installed(): { bin: string; dir: string; sum: string } {
  const dir = tempDir('avp-upgrade-bin-');
  const bin = join(dir, 'avp');
  copyFileSync(AVP_BIN, bin);
  return { bin, dir, sum: sha256(readFileSync(bin)) };
}

const upgrade = (bin: string, args: string[], url = server.url) =>
  runAvp(['upgrade', ...args], { bin, env: { AVP_RELEASE_URL: url }, timeoutMs: 120_000 });

describe('avp upgrade', () => {
  test('every bad release is refused and the old binary stays, byte for byte, with nothing left beside it', async () => {
    const { bin, dir, sum } = installed();
    const cases: Array<[string[], string]> = [
      [['--version', '9.9.1'], 'checksum mismatch for'],
      [['--version', '9.9.2'], `sha256sums.txt lists no checksum for ${ASSET}`],
      [['--version', '9.9.3'], 'the downloaded avp does not run on this machine'],
      [['--version', '9.9.4'], 'the downloaded avp says "1.0.0", not version 9.9.4'],
      [['--version', '9.9.9'], 'HTTP 404'],
      [['--version', 'latest-and-greatest'], 'not a version'],
    ];
    for (const [args, message] of cases) {
      const r = await upgrade(bin, args);
      expect({ args, code: r.code, has: r.stderr.includes(message) }).toEqual({ args, code: 1, has: true });
      expect(r.stderr).toContain('fix:');
      expect(sha256(readFileSync(bin))).toBe(sum);
      expect(readdirSync(dir)).toEqual(['avp']);
    }
    const http = await upgrade(bin, ['--version', '9.9.0'], 'http://example.com/releases');
    expect(http.code).toBe(1);
    expect(http.stderr).toContain('must be https://');
    expect(sha256(readFileSync(bin))).toBe(sum);
  });

  test('--check says a newer release exists and changes nothing; the same version is "the newest"', async () => {
    const { bin, sum } = installed();
    latest('9.9.0');
    const check = await upgrade(bin, ['--check']);
    expect(check.code).toBe(0);
    expect(check.stderr).toContain(`avp 9.9.0 is available (this is ${VERSION})`);
    expect(sha256(readFileSync(bin))).toBe(sum);
    latest(VERSION);
    const same = await upgrade(bin, ['--json']);
    expect(JSON.parse(same.stdout)).toMatchObject({ status: 'up-to-date', from: VERSION, to: VERSION });
    expect(sha256(readFileSync(bin))).toBe(sum);
  });

  test('the newest release replaces the running binary, verified, in place', async () => {
    const { bin, dir } = installed();
    latest('9.9.0');
    const r = await upgrade(bin, ['--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'upgraded',
      from: VERSION,
      to: '9.9.0',
      asset: ASSET,
      path: bin,
      sha256: sha256(fake('9.9.0')),
    });
    expect(readFileSync(bin, 'utf8')).toBe(fake('9.9.0'));
    expect(Bun.spawnSync([bin, 'version']).stdout.toString().trim()).toBe('9.9.0');
    expect(readdirSync(dir)).toEqual(['avp']);
  });

  test('an avp that npm installed is not replaced behind npm’s back', async () => {
    const dir = join(tempDir('avp-upgrade-npm-'), 'node_modules', '@avp-cli', 'avp-linux-x64', 'bin');
    mkdirSync(dir, { recursive: true });
    copyFileSync(AVP_BIN, join(dir, 'avp'));
    const r = await upgrade(join(dir, 'avp'), ['--version', '9.9.0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('this avp was installed by npm');
    expect(r.stderr).toContain('npm install -g');
  });
});
