/**
 * Replacing the running avp binary: the new one is written next to it, checked (it runs and says the expected
 * version), then renamed over it, which is atomic on one file system. Until that rename the old binary is untouched,
 * so any failure keeps it. Windows cannot overwrite a running executable but can rename it: the old one is moved to
 * `avp.old.exe` first and moved back if the new one cannot take its place.
 */
import { chmodSync, existsSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { AvpError } from '../errors.ts';

/**
 * The binary `avp upgrade` replaces: the running executable. Refuses avp run from source, and an avp that a package
 * manager installed (npm's platform package): that manager must upgrade it, or its records go stale.
 */
export function runningBinary(execPath = process.execPath, main = typeof Bun !== 'undefined' ? Bun.main : ''): string {
  if (/\.[cm]?[jt]s$/.test(main) && !main.startsWith('/$bunfs/') && !/^[A-Z]:\\~BUN\\/i.test(main)) {
    throw new AvpError('upgrade-source', 'this avp runs from source, not from an installed binary', {
      fix: 'update the checkout (git pull) instead, or install a release with install.sh',
    });
  }
  let path = execPath;
  try {
    path = realpathSync(execPath);
  } catch {
    // Keep the path as given; writing next to it says what is wrong.
  }
  if (path.split(sep).includes('node_modules')) {
    throw new AvpError('upgrade-npm', `this avp was installed by npm (${path})`, {
      fix: 'upgrade it the way it was installed: npm install -g @avp-cli/avp@latest (or npx @avp-cli/avp@latest)',
    });
  }
  return path;
}

/** Runs `bin version` and returns what it printed (trimmed), or throws saying why it could not run. */
function versionOf(bin: string): string {
  const run = Bun.spawnSync([bin, 'version'], {
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, AVP_SUBAGENT: '' },
    timeout: 60_000,
  });
  if (run.exitCode !== 0) {
    const why = run.stderr.toString().trim().split('\n')[0] || `exit code ${run.exitCode ?? run.signalCode}`;
    throw new AvpError('upgrade-broken', `the downloaded avp does not run on this machine (${why})`, {
      fix: 'nothing was changed; report it with the output of avp version --json',
    });
  }
  return run.stdout.toString().trim();
}

export interface Replaced {
  path: string;
  /** Where the previous binary was kept (Windows only; removed on the next upgrade). */
  kept?: string;
}

/**
 * Puts `bytes` at `target` once they run and say `version`. Throws `AvpError` with the old binary in place on any
 * failure (a folder that is not writable, a binary that does not start or says another version).
 */
export function replaceBinary(
  target: string,
  bytes: Uint8Array,
  version: string,
  platform = process.platform,
): Replaced {
  const dir = dirname(target);
  const exe = platform === 'win32' ? '.exe' : '';
  const staged = join(dir, `.avp-upgrade-${process.pid}${exe}`);
  try {
    writeFileSync(staged, bytes, { mode: 0o755 });
    chmodSync(staged, 0o755);
  } catch (e) {
    rmSync(staged, { force: true });
    const code = (e as NodeJS.ErrnoException).code;
    throw new AvpError('upgrade-write', `cannot write next to ${target} (${code ?? (e as Error).message})`, {
      fix:
        code === 'EACCES' || code === 'EPERM'
          ? `run it as the user who owns ${dir} (e.g. sudo avp upgrade), or reinstall into ~/.avp/bin with install.sh`
          : 'free some disk space and run avp upgrade again; nothing was changed',
    });
  }
  try {
    const says = versionOf(staged);
    if (says !== version) {
      throw new AvpError('upgrade-version', `the downloaded avp says "${says.slice(0, 40)}", not version ${version}`, {
        fix: 'the release is inconsistent: nothing was changed; report it',
      });
    }
    if (platform !== 'win32') {
      renameSync(staged, target);
      return { path: target };
    }
    const kept = join(dir, `${basename(target, '.exe')}.old.exe`);
    rmSync(kept, { force: true });
    renameSync(target, kept);
    try {
      renameSync(staged, target);
    } catch (e) {
      renameSync(kept, target);
      throw e;
    }
    return { path: target, kept };
  } catch (e) {
    if (existsSync(staged)) rmSync(staged, { force: true });
    if (e instanceof AvpError) throw e;
    throw new AvpError('upgrade-write', `could not replace ${target}: ${(e as Error).message}`, {
      fix: 'the old avp is still in place; close other running avp processes and try again',
    });
  }
}
