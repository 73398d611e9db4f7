/**
 * Session tracking through the compiled hook, with Claude Code's real input shapes: a file changed through Bash
 * (`sed -i`, a redirect) is seen by PostToolUse validators, and Stop validators get the whole turn.
 */
import { describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';

const FIXTURES = resolve(import.meta.dir, '../fixtures/session');
const WRITE = JSON.parse(
  readFileSync(join(import.meta.dir, '../fixtures/hook/claude-code/hook-input-PostToolUse-Write.json'), 'utf8'),
);
const STOP = JSON.parse(
  readFileSync(join(import.meta.dir, '../fixtures/hook/claude-code/hook-input-Stop.json'), 'utf8'),
);

/** One avp home per project, as on a real machine: session state lives there and persists between hook calls. */
const homes = new Map<string, string>();

function project(validators: string[]): string {
  const root = tempDir('avp-session-hook-');
  homes.set(root, tempDir('avp-session-hook-home-'));
  const p = Bun.spawnSync(
    [
      'bash',
      '-c',
      'git init -q && git config user.email t@example.com && git config user.name t && echo "export const url = \\"x\\";" > config.ts && git add . && git commit -qm init',
    ],
    { cwd: root },
  );
  if (p.exitCode !== 0) throw new Error(String(p.stderr));
  mkdirSync(join(root, '.avp', 'validators'), { recursive: true });
  for (const v of validators) cpSync(join(FIXTURES, v), join(root, '.avp', 'validators', v), { recursive: true });
  return root;
}

function hook(root: string, input: Record<string, unknown>) {
  return runAvp(['hook', '--agent', 'claude'], {
    cwd: root,
    stdin: JSON.stringify({ ...input, cwd: root }),
    env: { CLAUDE_PROJECT_DIR: root, HOME: homes.get(root)!, AVP_HOME: join(homes.get(root)!, '.avp') },
  });
}

const bashInput = (root: string, event: string, command: string, id: string) => ({
  session_id: 'sess-bash',
  transcript_path: join(root, 't.jsonl'),
  cwd: root,
  hook_event_name: event,
  tool_name: 'Bash',
  tool_input: { command, description: 'edit' },
  tool_use_id: id,
  ...(event === 'PostToolUse' ? { tool_response: { stdout: '', stderr: '', interrupted: false } } : {}),
});

describe('session tracking through avp hook', () => {
  test('a key written with sed -i through Bash is caught at PostToolUse, at its line', async () => {
    const root = project(['no-hardcoded-keys']);
    const command = `sed -i 's/"x"/"sk-live-viabash1"/' config.ts`;
    const pre = await hook(root, bashInput(root, 'PreToolUse', command, 'toolu_1'));
    expect(pre.code).toBe(0);
    Bun.spawnSync(['bash', '-c', command], { cwd: root });
    const post = await hook(root, bashInput(root, 'PostToolUse', command, 'toolu_1'));
    expect(post.code).toBe(0);
    const out = JSON.parse(post.stdout);
    expect(out.decision).toBe('block');
    expect(out.reason).toContain('config.ts:1');
    // A harmless command afterwards changes nothing and passes.
    await hook(root, bashInput(root, 'PreToolUse', 'ls', 'toolu_2'));
    const ls = await hook(root, bashInput(root, 'PostToolUse', 'ls', 'toolu_2'));
    expect(JSON.parse(ls.stdout).decision).toBeUndefined();
  });

  test('Stop sees the files of the turn (Write and Bash), and the loop guard releases after 3 blocks', async () => {
    const root = project(['always-fail-stop']);
    const session = { session_id: 'sess-stop', transcript_path: join(root, 't.jsonl') };
    await hook(root, { ...session, hook_event_name: 'UserPromptSubmit', prompt: 'go' });
    writeFileSync(join(root, 'src.ts'), 'export {};\n');
    await hook(root, {
      ...WRITE,
      ...session,
      tool_input: { file_path: join(root, 'src.ts'), content: 'export {};\n' },
      tool_response: { ...WRITE.tool_response, filePath: join(root, 'src.ts'), content: 'export {};\n' },
    });
    await hook(root, { ...bashInput(root, 'PreToolUse', 'echo 1 > out.txt', 'toolu_3'), session_id: 'sess-stop' });
    writeFileSync(join(root, 'out.txt'), '1\n');
    await hook(root, { ...bashInput(root, 'PostToolUse', 'echo 1 > out.txt', 'toolu_3'), session_id: 'sess-stop' });
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const r = await hook(root, { ...STOP, ...session, stop_hook_active: i > 0 });
      answers.push(JSON.parse(r.stdout));
    }
    expect(answers.slice(0, 3).map((a) => a.decision)).toEqual(['block', 'block', 'block']);
    expect(answers[0].reason).toContain('turn files: src.ts, out.txt');
    expect(answers[3].decision).toBeUndefined();
    expect(answers[3].systemMessage).toContain('maxStopBlocks: 3');
  });
});
