/** The program a `judge.command` starts, as `avp doctor` and `avp add` look for it. */
import { describe, expect, test } from 'bun:test';
import { commandProgram } from '../../../src/judges/judge-check.ts';

describe('commandProgram', () => {
  test('the first word, after assignments and exec/env', () => {
    expect(commandProgram('codex exec -')).toBe('codex');
    expect(commandProgram('  OLLAMA_HOST=x MODEL=y llm -m local')).toBe('llm');
    expect(commandProgram('exec ./judge.sh --json')).toBe('./judge.sh');
    expect(commandProgram('env -i PATH=/bin FOO=1 /opt/j/judge')).toBe('/opt/j/judge');
    expect(commandProgram('"/opt/my judge/run" -p')).toBe('/opt/my judge/run');
  });

  test('what only the shell can decide is not looked for', () => {
    for (const c of ['$HOME/bin/judge', '`which judge`', 'cd sub && judge', '(judge)', '{ judge; }', 'echo ALLOW', ''])
      expect(commandProgram(c)).toBeUndefined();
  });
});
