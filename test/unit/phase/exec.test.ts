import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findMissingProgram, missingProgram, runCommand } from '../../../src/phase/exec.ts';

const dir = mkdtempSync(join(tmpdir(), 'avp-phase-exec-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const opts = { timeoutMs: 20_000 };

/** Running (a zombie waiting for its reaper counts as dead). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
};

describe('runCommand', () => {
  test('exit code, interleaved output, cwd', async () => {
    const r = await runCommand('echo out; echo err >&2; pwd; exit 3', dir, opts);
    expect(r.code).toBe(3);
    expect(r.output).toContain('out\nerr\n');
    expect(r.output).toContain(dir);
    expect(r.timedOut).toBe(false);
    expect(r.notInstalled).toBeUndefined();
  });

  test('a timeout kills the whole process group, grandchildren included', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const r = await runCommand(`sh -c 'sleep 30 & echo $! > ${pidFile}; wait'`, dir, { timeoutMs: 500 });
    expect(r.timedOut).toBe(true);
    const pid = Number(await Bun.file(pidFile).text());
    await Bun.sleep(300);
    expect(alive(pid)).toBe(false);
  });

  test('output is bounded: head and tail kept, the middle omitted', async () => {
    const r = await runCommand(
      `node -e "process.stdout.write('A'.repeat(2000000)); process.stdout.write('END')"`,
      dir,
      opts,
    );
    expect(r.output.length).toBeLessThan(600_000);
    expect(r.output.startsWith('AAAA')).toBe(true);
    expect(r.output.endsWith('END')).toBe(true);
    expect(r.output).toMatch(/bytes of output omitted/);
  });

  test('exit 127 names the missing program', async () => {
    const r = await runCommand('avp-surely-missing-tool --check .', dir, opts);
    expect(r.code).toBe(127);
    expect(r.notInstalled).toBe('avp-surely-missing-tool is not installed');
  });
});

describe('missing programs', () => {
  test('shell and npm messages', () => {
    expect(missingProgram('sh: 1: black: not found\n', 'black .', 127)).toBe('black is not installed');
    expect(missingProgram('bash: ruff: command not found\n', 'ruff check .', 127)).toBe('ruff is not installed');
    expect(missingProgram('npm error Missing script: "lint"\n', 'npm run lint', 1)).toBe(
      'package.json has no "lint" script',
    );
    expect(missingProgram('npm error could not determine executable to run\n', 'npx prettier --check .', 1)).toBe(
      'prettier is not installed',
    );
    expect(missingProgram('all good', 'x', 0)).toBeUndefined();
  });

  test('checked before running: PATH, relative paths, npx packages, npm scripts', () => {
    const env = { PATH: process.env.PATH };
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { lint: 'eslint .' } }));
    expect(findMissingProgram('sh -c true', dir, env)).toBeUndefined();
    expect(findMissingProgram('avp-nope --x', dir, env)).toBe('avp-nope is not installed');
    expect(findMissingProgram('./tools/fmt --check', dir, env)).toBe('./tools/fmt does not exist');
    expect(findMissingProgram('npx avp-no-such-pkg --check .', dir, env)).toBe(
      'avp-no-such-pkg is not installed (not in node_modules/.bin, and npx is not allowed to download it)',
    );
    expect(findMissingProgram('npm run lint', dir, env)).toBeUndefined();
    expect(findMissingProgram('npm run format', dir, env)).toBe('package.json has no "format" script');
    expect(findMissingProgram('FOO=1 avp-nope', dir, env)).toBe('avp-nope is not installed');
    expect(findMissingProgram('cd x && avp-nope', dir, env)).toBeUndefined(); // left to the shell's exit 127
  });
});
