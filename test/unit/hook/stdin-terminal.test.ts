/**
 * What the hook's stdin reader takes for a terminal when no input came at once: a character device other than
 * /dev/null. Asked in a child process, each with another stdin: a pipe and /dev/null are no terminal; /dev/zero is a
 * character device like a terminal (and no event comes from it either); a pseudo-terminal is one.
 */
import { describe, expect, test } from 'bun:test';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';

const READER = join(import.meta.dir, '../../../src/hook/stdin.ts');
const PROBE = `import { stdinIsTerminal } from ${JSON.stringify(READER)}; console.log(String(await stdinIsTerminal()));`;

function askWith(stdin: 'pipe' | string): string {
  const fd = stdin === 'pipe' ? undefined : openSync(stdin, 'r');
  try {
    const p = Bun.spawnSync([process.execPath, '-e', PROBE], { stdin: fd ?? 'pipe', stdout: 'pipe', stderr: 'pipe' });
    if (p.exitCode !== 0) throw new Error(p.stderr.toString());
    return p.stdout.toString().trim();
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

describe('stdinIsTerminal', () => {
  test('a pipe and /dev/null are no terminal; another character device is taken for one', () => {
    expect(askWith('pipe')).toBe('false');
    expect(askWith('/dev/null')).toBe('false');
    expect(askWith('/dev/zero')).toBe('true');
  });

  test.skipIf(!Bun.which('script'))('a pseudo-terminal is one', () => {
    const p = Bun.spawnSync(['script', '-qec', `${process.execPath} -e '${PROBE}'`, '/dev/null'], {
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect(p.stdout.toString().trim()).toEndWith('true');
  });
});
