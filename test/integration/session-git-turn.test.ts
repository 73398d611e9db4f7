/**
 * Every change of a turn is seen, whatever the shell did — through the compiled hook, in real git repositories:
 * a Bash command that commits, stages or hides (new ignore rule) what it wrote; files changed behind avp's back
 * (written by the test between events, as an editor or a background job would); and a turn that changed nothing runs
 * no Stop validator with `match.files`.
 */
import { describe, expect, test } from 'bun:test';
import { appendFileSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';

const FIXTURES = resolve(import.meta.dir, '../fixtures/session');

function sh(cwd: string, command: string): void {
  const p = Bun.spawnSync(['bash', '-c', command], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`${command}: ${p.stderr.toString()}`);
}

/** A git repository with one commit (config.ts, notes.txt) and the given validators installed. */
/** One avp home per project, as on a real machine (its accepted state and caches persist between calls). */
const homes = new Map<string, string>();

function project(validators: string[], opts: { git?: boolean } = {}): string {
  const root = tempDir('avp-git-turn-');
  homes.set(root, tempDir('avp-git-turn-home-'));
  writeFileSync(join(root, 'config.ts'), 'export const url = "x";\n');
  writeFileSync(join(root, 'notes.txt'), 'first\n');
  if (opts.git !== false) {
    sh(
      root,
      'git init -q && git config user.email t@example.com && git config user.name t && git config commit.gpgsign false' +
        ' && git add . && git commit -qm init',
    );
  }
  mkdirSync(join(root, '.avp', 'validators'), { recursive: true });
  for (const v of validators) cpSync(join(FIXTURES, v), join(root, '.avp', 'validators', v), { recursive: true });
  return root;
}

async function hook(root: string, input: Record<string, unknown>, env: Record<string, string> = {}) {
  const r = await runAvp(['hook', '--agent', 'claude'], {
    cwd: root,
    stdin: JSON.stringify({ transcript_path: join(root, 't.jsonl'), cwd: root, ...input }),
    env: { CLAUDE_PROJECT_DIR: root, HOME: homes.get(root)!, AVP_HOME: join(homes.get(root)!, '.avp'), ...env },
  });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { decision?: string; reason?: string; systemMessage?: string };
}

/** A Bash call as Claude Code runs it: PreToolUse, the command, PostToolUse. Returns the PostToolUse answer. */
async function bash(root: string, session: string, command: string, id: string) {
  const input = { session_id: session, tool_name: 'Bash', tool_input: { command }, tool_use_id: id };
  await hook(root, { ...input, hook_event_name: 'PreToolUse' });
  sh(root, command);
  return hook(root, { ...input, hook_event_name: 'PostToolUse', tool_response: { stdout: '', stderr: '' } });
}

const prompt = (root: string, session: string) =>
  hook(root, { session_id: session, hook_event_name: 'UserPromptSubmit', prompt: 'go' });
const stop = (root: string, session: string, env: Record<string, string> = {}) =>
  hook(root, { session_id: session, hook_event_name: 'Stop', stop_hook_active: false }, env);

describe('a turn sees every change, whatever the shell did', () => {
  test('a key written and committed by the same Bash command reaches PostToolUse and Stop validators', async () => {
    const root = project(['no-hardcoded-keys', 'stop-turn-files']);
    await prompt(root, 's-commit');
    const post = await bash(
      root,
      's-commit',
      'echo sk-live-committed1 > f.txt && git add f.txt && git commit -qm x',
      't1',
    );
    expect(post.decision).toBe('block');
    expect(post.reason).toContain('f.txt:1');
    // `git commit -am` of a tracked file, too.
    const am = await bash(root, 's-commit', 'echo "sk-live-amended2" >> config.ts && git commit -qam y', 't2');
    expect(am.reason).toContain('config.ts:2');
    const end = await stop(root, 's-commit');
    expect(end.decision).toBe('block');
    expect(end.reason).toContain('turn files: config.ts, f.txt; keys in: config.ts, f.txt');
  });

  test('a change staged by the same command (git add) is seen', async () => {
    const root = project(['no-hardcoded-keys']);
    const post = await bash(root, 's-add', 'echo sk-live-staged3 >> notes.txt && git add notes.txt', 't1');
    expect(post.reason).toContain('notes.txt:2');
  });

  test('a file hidden by a new .gitignore or .git/info/exclude entry in the same command is seen', async () => {
    const root = project(['no-hardcoded-keys', 'stop-turn-files']);
    await prompt(root, 's-ignore');
    const viaIgnore = await bash(
      root,
      's-ignore',
      'echo hidden.txt >> .gitignore && echo sk-live-hid4 > hidden.txt',
      't1',
    );
    expect(viaIgnore.reason).toContain('hidden.txt:1');
    const viaExclude = await bash(
      root,
      's-ignore',
      'echo x.txt >> .git/info/exclude && echo sk-live-ex5 > x.txt',
      't2',
    );
    expect(viaExclude.reason).toContain('x.txt:1');
    const end = await stop(root, 's-ignore');
    expect(end.reason).toContain('turn files: .gitignore, hidden.txt, x.txt; keys in: hidden.txt, x.txt');
  });

  test('`echo f >> .gitignore`, then writing f in a later command: Stop sees f by the turn-start rules', async () => {
    const root = project(['stop-turn-files']);
    await prompt(root, 's-later');
    await bash(root, 's-later', 'echo later.txt >> .gitignore', 't1');
    await bash(root, 's-later', 'echo sk-live-later6 > later.txt', 't2');
    const end = await stop(root, 's-later');
    expect(end.reason).toContain('turn files: .gitignore, later.txt; keys in: later.txt');
  });

  test('an ignore rule added in one Bash call hides nothing written in the next: Stop judges by the turn-start rules', async () => {
    // .git/info/exclude, and a .gitignore already dirty at the turn's start (git cannot give back its content then).
    const root = project(['stop-turn-files']);
    sh(root, 'printf "*.log\\n" > .gitignore');
    await prompt(root, 's-rules');
    await bash(root, 's-rules', 'echo ex.txt >> .git/info/exclude', 't1');
    await bash(root, 's-rules', 'echo sk-live-ex10 > ex.txt', 't2');
    await bash(root, 's-rules', 'echo gi.txt >> .gitignore', 't3');
    await bash(root, 's-rules', 'echo sk-live-gi11 > gi.txt', 't4');
    const end = await stop(root, 's-rules');
    expect(end.decision).toBe('block');
    expect(end.reason).toContain('turn files: .gitignore, ex.txt, gi.txt; keys in: ex.txt, gi.txt');
  });

  test("the agent's shell cannot wipe the turn: session state is not in the project (rm -rf .avp/state)", async () => {
    const root = project(['stop-turn-files']);
    await prompt(root, 's-wipe');
    await bash(root, 's-wipe', 'echo sk-live-wiped9 > wiped.txt', 't1');
    await bash(root, 's-wipe', 'rm -rf .avp/state .avp/cache .avp/logs', 't2');
    const end = await stop(root, 's-wipe');
    expect(end.decision).toBe('block');
    expect(end.reason).toContain('turn files: wiped.txt; keys in: wiped.txt');
    expect(existsSync(join(root, '.avp', 'state'))).toBe(false);
  });

  test('files changed behind avp`s back (no hook saw them) are seen at Stop, committed ones too', async () => {
    const root = project(['stop-turn-files']);
    await prompt(root, 's-back');
    writeFileSync(join(root, 'background.txt'), 'sk-live-bg7\n');
    appendFileSync(join(root, 'notes.txt'), 'edited in an editor\n');
    writeFileSync(join(root, 'committed.ts'), 'export const k = "sk-live-c8";\n');
    sh(root, 'git add committed.ts && git commit -qm "by a background job"');
    const end = await stop(root, 's-back');
    expect(end.decision).toBe('block');
    expect(end.reason).toContain('turn files: background.txt, committed.ts, notes.txt');
  });

  test('a turn with no change runs no Stop validator with files, nor one whose change was reset', async () => {
    const root = project(['stop-turn-files']);
    await prompt(root, 's-none');
    await bash(root, 's-none', 'ls && git status --short', 't1');
    expect(await stop(root, 's-none')).toEqual({});
    await prompt(root, 's-none');
    // Edited and reset to HEAD within the turn: the content equals the baseline, so nothing changed.
    await bash(root, 's-none', 'echo temp >> notes.txt && git add notes.txt && git reset -q --hard', 't2');
    expect(await stop(root, 's-none')).toEqual({});
  });

  test('after an unblocked Stop the next event begins a new turn (no UserPromptSubmit needed)', async () => {
    const root = project(['stop-turn-files']);
    const env = { AVP_MAX_STOP_BLOCKS: '0' };
    await prompt(root, 's-next');
    writeFileSync(join(root, 'one.txt'), '1\n');
    expect((await stop(root, 's-next', env)).systemMessage).toContain('turn files: one.txt');
    // The next turn, started by a tool event rather than a prompt: only its own change.
    await bash(root, 's-next', 'echo 2 > two.txt', 't1');
    writeFileSync(join(root, 'three.txt'), '3\n');
    expect((await stop(root, 's-next', env)).systemMessage).toContain('turn files: three.txt, two.txt;');
  });

  test('outside git, a file changed behind avp`s back is seen at Stop (fingerprints of every file)', async () => {
    const root = project(['stop-turn-files'], { git: false });
    await prompt(root, 's-plain');
    writeFileSync(join(root, 'notes.txt'), 'changed\n');
    const end = await stop(root, 's-plain');
    expect(end.reason).toContain('turn files: notes.txt');
  });
});
