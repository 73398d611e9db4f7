import { describe, expect, test } from 'bun:test';
import { git, gitSync } from '../../../src/os/git.ts';

// A git alias starting with `!` runs in a shell with git's environment: it shows what a run was given.
const showEnv = ['-c', 'alias.show-env=!printenv GIT_OPTIONAL_LOCKS GIT_TERMINAL_PROMPT; true', 'show-env'];

describe('the git runner', () => {
  test('a hook run never takes index.lock; a fetch never prompts', async () => {
    expect(gitSync(showEnv, { noOptionalLocks: true })!.stdout.toString()).toBe('0\n');
    expect((await git(showEnv, { noPrompt: true }))!.stdout.toString()).toBe('0\n');
  });

  test.skipIf(process.env.GIT_OPTIONAL_LOCKS !== undefined || process.env.GIT_TERMINAL_PROMPT !== undefined)(
    'without options neither is set (skipped when this environment sets them itself)',
    () => {
      expect(gitSync(showEnv)!.stdout.toString()).toBe('');
    },
  );

  test('stdin reaches git, sync and async; the exit code and (when asked) stderr come back', async () => {
    // The blob id of "x" is fixed by git's object format.
    const id = 'c1b0730e0133447badcfd47fd144e254807b06e1';
    expect(gitSync(['hash-object', '--stdin'], { stdin: 'x' })!.stdout.toString().trim()).toBe(id);
    expect((await git(['hash-object', '--stdin'], { stdin: 'x' }))!.stdout.toString().trim()).toBe(id);
    const bad = gitSync(['no-such-command'], { stderr: true })!;
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('no-such-command');
    expect((await git(['no-such-command']))!.stderr).toBe('');
  });
});
