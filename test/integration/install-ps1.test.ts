/**
 * `install.ps1` run by PowerShell (`pwsh`) against the same kind of loopback fake release as install.sh's test: a
 * good release installs into the target folder; a tampered binary is refused with nothing installed and an earlier
 * install untouched; a CPU with no release is a clear error; the repository's unstamped copy asks for
 * AVP_RELEASE_URL and a stamped copy needs none. It runs the way the README does (`irm … | iex`, here the file's
 * text piped to Invoke-Expression) and the scriptblock form with parameters. The GitHub runners (Windows, Linux,
 * macOS) have pwsh; a machine without it skips, saying so in the test names.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serveStaticExport } from '../../registry/static-server.ts';
import { AVP_BIN, outputOf, tempDir } from '../support/run-avp.ts';

const ROOT = resolve(import.meta.dir, '../..');
const PWSH = Bun.which('pwsh');
const SH = Bun.which('sh');
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
const WINDOWS = process.platform === 'win32';
// What install.ps1 picks: Windows always gets the x64 binary (Arm runs it under emulation).
const ASSET = WINDOWS
  ? 'avp-windows-x64.exe'
  : `avp-${process.platform === 'darwin' ? 'darwin' : 'linux'}-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
const NAME = WINDOWS ? 'avp.exe' : 'avp';
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const NO_PWSH = PWSH ? '' : ' [skipped: pwsh is not on PATH]';

const releases = tempDir('avp-ps1-releases-');
let server: { url: string; stop(): Promise<void> };
let base: string;
const real = () => readFileSync(AVP_BIN);

beforeAll(() => {
  server = serveStaticExport(releases);
  base = `${server.url}/acme/avp/releases/download`;
  const release = (version: string, binary: Buffer, sums = `${sha256(binary)}  ${ASSET}\n`) => {
    const dir = join(releases, `acme/avp/releases/download/v${version}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, ASSET), binary);
    writeFileSync(join(dir, 'sha256sums.txt'), sums);
  };
  release(VERSION, real());
  // 9.9.1: the listed checksum is the real binary's, the file served is another one.
  release('9.9.1', Buffer.concat([real(), Buffer.from('tampered')]), `${sha256(real())}  ${ASSET}\n`);
  mkdirSync(join(releases, 'acme/avp/releases/latest/download'), { recursive: true });
  writeFileSync(join(releases, 'acme/avp/releases/latest/download/version.txt'), `${VERSION}\n`);
});
afterAll(() => server.stop());

/** The environment pwsh gets: this process's, minus what would steer the installer, plus `env`. */
function environment(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(AVP_|PROCESSOR_ARCHITEW6432$)/i.test(k)) out[k] = v;
  }
  return { ...out, AVP_NO_PATH_UPDATE: '1', ...env };
}

/**
 * Runs `script` (a path) in pwsh: `iex` pipes its text to Invoke-Expression (the README's `irm … | iex`); otherwise
 * `& ([scriptblock]::Create(…)) <params>`. A thrown error's message goes to stderr whole, exit code 1.
 */
async function ps1(script: string, env: Record<string, string>, how: 'iex' | string = 'iex') {
  const run =
    how === 'iex'
      ? 'Get-Content -Raw -LiteralPath $env:AVP_TEST_PS1 | Invoke-Expression'
      : `& ([scriptblock]::Create((Get-Content -Raw -LiteralPath $env:AVP_TEST_PS1))) ${how}`;
  const command = `try { ${run} } catch { [Console]::Error.WriteLine($_.Exception.Message); exit 1 }`;
  const p = Bun.spawn([PWSH!, '-NoProfile', '-NonInteractive', '-Command', command], {
    env: environment({ AVP_TEST_PS1: script, ...env }),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const { stdout, stderr, code } = await outputOf(p);
  return { stdout, stderr, code };
}

const SCRIPT = join(ROOT, 'install.ps1');

describe(`install.ps1${NO_PWSH}`, () => {
  // CI sets AVP_REQUIRE_PWSH=1 on the runners that have pwsh, so these tests cannot pass there by skipping.
  test.if(process.env.AVP_REQUIRE_PWSH === '1')('pwsh is on PATH (AVP_REQUIRE_PWSH=1)', () => {
    expect(PWSH).toBeTruthy();
  });

  test.skipIf(!PWSH)(`a verified release is installed into the target folder (irm | iex)${NO_PWSH}`, async () => {
    const dir = join(tempDir('avp-ps1-home-'), 'bin');
    const r = await ps1(SCRIPT, { AVP_RELEASE_URL: base, AVP_INSTALL_DIR: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`avp ${VERSION} (${ASSET}, sha256 ${sha256(real())}) installed as ${join(dir, NAME)}`);
    expect(readdirSync(dir)).toEqual([NAME]);
    expect(sha256(readFileSync(join(dir, NAME)))).toBe(sha256(real()));
    const says = Bun.spawnSync([join(dir, NAME), 'version'])
      .stdout.toString()
      .trim();
    expect(says).toBe(VERSION);
  });

  test.skipIf(!PWSH)(`-Version and -Dir as parameters; an earlier install is replaced${NO_PWSH}`, async () => {
    const dir = join(tempDir('avp-ps1-home-'), 'tools');
    mkdirSync(dir);
    writeFileSync(join(dir, NAME), 'an older avp');
    const r = await ps1(SCRIPT, { AVP_RELEASE_URL: base }, `-Version v${VERSION} -Dir '${dir}' -NoPathUpdate`);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(sha256(readFileSync(join(dir, NAME)))).toBe(sha256(real()));
    // Windows keeps the replaced binary aside (a running avp.exe can only be renamed), until the next install.
    expect(readdirSync(dir).sort()).toEqual(WINDOWS ? ['avp.exe', 'avp.old.exe'] : ['avp']);
  });

  test.skipIf(!PWSH)(`a checksum mismatch installs nothing and keeps the earlier avp${NO_PWSH}`, async () => {
    const dir = join(tempDir('avp-ps1-home-'), 'bin');
    expect((await ps1(SCRIPT, { AVP_RELEASE_URL: base, AVP_INSTALL_DIR: dir })).code).toBe(0);
    const before = sha256(readFileSync(join(dir, NAME)));
    const r = await ps1(SCRIPT, { AVP_RELEASE_URL: base, AVP_INSTALL_DIR: dir, AVP_VERSION: '9.9.1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`avp install: checksum mismatch for ${ASSET} v9.9.1`);
    expect(r.stderr).toContain('nothing was installed');
    expect(sha256(readFileSync(join(dir, NAME)))).toBe(before);
    expect(readdirSync(dir)).toEqual([NAME]);
    const fresh = join(tempDir('avp-ps1-home-'), 'bin');
    const none = await ps1(SCRIPT, { AVP_RELEASE_URL: base, AVP_INSTALL_DIR: fresh, AVP_VERSION: '9.9.1' });
    expect(none.code).toBe(1);
    expect(existsSync(join(fresh, NAME))).toBe(false);
  });

  test.skipIf(!PWSH)(
    `a CPU with no release, a bad URL or version: a clear error, nothing installed${NO_PWSH}`,
    async () => {
      const dir = join(tempDir('avp-ps1-home-'), 'bin');
      const cases: Array<[Record<string, string>, string]> = [
        [
          { PROCESSOR_ARCHITECTURE: 'MIPS64' },
          'avp install: no avp release for this CPU (MIPS64); build avp from source',
        ],
        [{ AVP_TARGET: 'plan9-mips' }, 'avp install: unknown target plan9-mips'],
        [{ AVP_RELEASE_URL: 'http://example.com/releases' }, 'the release URL must be https://'],
        [{ AVP_VERSION: 'nightly' }, '"nightly" is not a release version'],
        [{ AVP_VERSION: '9.9.9' }, `could not download ${base}/v9.9.9/sha256sums.txt`],
      ];
      for (const [env, message] of cases) {
        const r = await ps1(SCRIPT, { AVP_RELEASE_URL: base, AVP_INSTALL_DIR: dir, ...env });
        expect({ env, code: r.code, has: r.stderr.includes(message) }).toEqual({ env, code: 1, has: true });
        expect(existsSync(dir)).toBe(false);
      }
    },
  );

  test.skipIf(!PWSH)(`the repository's copy asks for AVP_RELEASE_URL${NO_PWSH}`, async () => {
    const dir = join(tempDir('avp-ps1-home-'), 'bin');
    const unstamped = await ps1(SCRIPT, { AVP_INSTALL_DIR: dir });
    expect(unstamped.code).toBe(1);
    expect(unstamped.stderr).toContain('this copy of install.ps1 names no release URL');
    expect(unstamped.stderr).toContain('AVP_RELEASE_URL');
    expect(existsSync(dir)).toBe(false);
  });

  // The stamp is a sh script (Git Bash's sh on the Windows runner).
  test.skipIf(!PWSH || !SH)(
    `a stamped copy needs no AVP_RELEASE_URL${NO_PWSH || (SH ? '' : ' [skipped: sh is not on PATH]')}`,
    async () => {
      const dir = join(tempDir('avp-ps1-home-'), 'bin');
      const copy = join(tempDir('avp-ps1-stamp-'), 'install.ps1');
      copyFileSync(SCRIPT, copy);
      const stamp = Bun.spawnSync([SH ?? 'sh', join(ROOT, 'scripts/release/stamp-installers.sh'), base, copy]);
      expect(stamp.exitCode).toBe(0);
      const stamped = await ps1(copy, { AVP_INSTALL_DIR: dir });
      expect(stamped.stderr).toBe('');
      expect(stamped.code).toBe(0);
      expect(readdirSync(dir)).toEqual([NAME]);
    },
  );
});
