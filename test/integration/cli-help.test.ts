/**
 * `avp --help` reads like git's and npm's: one line per command, grouped, at most 100 columns, every command of the
 * command table named exactly once — through the compiled binary, for every way of asking for it.
 */
import { describe, expect, test } from 'bun:test';
import { commands } from '../../src/commands/index.ts';
import { runAvp } from '../support/run-avp.ts';

const ROOT_HELP = [['--help'], ['-h'], ['help'], []];

describe('avp --help', () => {
  for (const args of ROOT_HELP) {
    test(`avp ${args.join(' ') || '(no arguments)'}: ≤ 100 columns, one line per command, every command once`, async () => {
      const r = await runAvp(args);
      expect(r.code).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      const wide = lines.filter((l) => l.length > 100);
      expect(wide).toEqual([]);
      expect(lines.length).toBeLessThanOrEqual(60);
      const commandLines = lines.filter((l) => /^ {2}[a-z]+ {2,}\S/.test(l)).map((l) => l.trim().split(/\s+/)[0]);
      expect(commandLines.sort()).toEqual(Object.keys(commands).sort());
    });
  }

  test("a command's own --help still carries its flags", async () => {
    const r = await runAvp(['check', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--staged');
  });
});
