/**
 * The README's Quickstart and "Your first script validator" blocks, run verbatim in a scratch project through the
 * compiled binary, offline: each `$ ` line runs in `sh` (heredocs included), must exit 0 (or the code its
 * `# exit N` comment names) and print the lines the README shows under it, in order (`…` stands for anything).
 * A README edit that breaks a command or changes what it prints fails here.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { consoleBlock, runSteps } from '../support/readme-blocks.ts';
import { AVP_BIN, runAvp, tempDir } from '../support/run-avp.ts';

describe("the README's Quickstart, verbatim (compiled binary, offline)", () => {
  test('every command succeeds with the output shown; init, the git hook and the first script validator are accepted', async () => {
    const base = tempDir('avp-quickstart-');
    const home = join(base, 'home');
    const bin = join(base, 'bin');
    mkdirSync(bin, { recursive: true });
    mkdirSync(join(base, 'your-project'));
    symlinkSync(AVP_BIN, join(bin, 'avp'));
    // Offline: nothing listens on port 9, no judge on PATH or in the environment, no user configuration.
    const env = {
      PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`,
      HOME: home,
      AVP_HOME: join(home, '.avp'),
      AVP_REGISTRY_URL: 'http://127.0.0.1:9',
      NO_COLOR: '1',
      // A user's git has an identity; this HOME has no ~/.gitconfig.
      GIT_AUTHOR_NAME: 'you',
      GIT_AUTHOR_EMAIL: 'you@example.com',
      GIT_COMMITTER_NAME: 'you',
      GIT_COMMITTER_EMAIL: 'you@example.com',
    };
    Bun.spawnSync(['git', 'init', '-q'], { cwd: join(base, 'your-project'), env });

    const quickstart = consoleBlock('## Quickstart');
    expect(quickstart.map((s) => s.command.split(' ').slice(0, 2).join(' '))).toContain('avp init');
    // The pre-commit hook is part of the journey; nothing `avp init` already installed is added again.
    expect(quickstart.some((s) => s.command === 'avp init --git-hook')).toBe(true);
    expect(quickstart.some((s) => s.command.startsWith('avp add '))).toBe(false);
    const project = await runSteps(quickstart, base, env);

    // init and add were the user's own changes: nothing waits for `avp accept`.
    const pending = await runAvp(['accept', '--dry-run', '--json'], { cwd: project, env });
    expect(JSON.parse(pending.stdout).changes).toEqual([]);

    await runSteps(consoleBlock('### Your first script validator'), project, env);

    // Accepted: the agent's hook now blocks a TODO written through Write.
    const file = join(project, 'later.ts');
    await Bun.write(file, 'const x = 1; // TODO: later\n');
    const hook = await runAvp(['hook', '--agent', 'claude'], {
      cwd: project,
      env: { ...env, CLAUDE_PROJECT_DIR: project },
      stdin: JSON.stringify({
        session_id: 'quickstart',
        transcript_path: '/dev/null',
        cwd: project,
        hook_event_name: 'PostToolUse',
        tool_name: 'Write',
        tool_input: { file_path: file, content: 'const x = 1; // TODO: later\n' },
        tool_response: { filePath: file, success: true },
      }),
    });
    expect(hook.code).toBe(0);
    const answer = JSON.parse(hook.stdout);
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('[no-todo] later.ts:1');
  });
});
