/**
 * avp's built-in guard, through the compiled binary and without any catalog validator, tried as an agent that wants
 * avp off: a shell command that rewrites, moves, deletes, re-links or re-modes the agent's hook settings or avp's own
 * files is refused before it runs (reads pass); a file-tool settings change that switches hooks off or sets avp's
 * environment is refused; writing an `avp` on PATH is refused; and what gets around the guard (a change on disk) is
 * said to the user as it is — the hooks were switched off — not "avp keeps checking".
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp } from '../support/run-avp.ts';
import { BIN, project, type Project } from './hook-support.ts';

type Doc = Record<string, any>;

/** A project after `avp init --agent claude` (no validators: the guard alone), with `bin/avp` on PATH. */
async function claudeProject(): Promise<Project & { bin: string; env: Record<string, string> }> {
  const p = project({ acceptFirst: false });
  const bin = join(p.home, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'avp'), '#!/bin/sh\nexec avp "$@"\n', { mode: 0o755 });
  const env = {
    HOME: p.home,
    AVP_HOME: join(p.home, '.avp'),
    CLAUDE_PROJECT_DIR: p.root,
    PATH: `${bin}:/usr/bin:/bin`,
  };
  const init = await runAvp(['init', '--agent', 'claude', '--no-validators', '--command', 'avp hook'], {
    bin: BIN,
    cwd: p.root,
    env,
  });
  expect(init.code).toBe(0);
  return { ...p, bin, env };
}

const bash = (p: Project, command: string, cwd = p.root): Doc => ({
  session_id: 's1',
  transcript_path: join(p.home, 't.jsonl'),
  cwd,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 't1',
});

const write = (p: Project, path: string, content: string): Doc => ({
  ...bash(p, ''),
  tool_name: 'Write',
  tool_input: { file_path: path, content },
});

const denied = (r: { json: Doc }) => r.json?.hookSpecificOutput?.permissionDecision === 'deny';
const reason = (r: { json: Doc }) => String(r.json?.hookSpecificOutput?.permissionDecisionReason ?? '');

describe('shell commands against the control files, through the binary (no validator installed)', () => {
  test('every shape of rewriting .claude/settings.json is refused before it runs; the file is unchanged', async () => {
    const p = await claudeProject();
    const settings = join(p.root, '.claude/settings.json');
    const before = readFileSync(settings, 'utf8');
    symlinkSync(join(p.root, '.claude'), join(p.root, 'cc'));
    for (const command of [
      `printf '{}\\n' > .claude/settings.json`,
      `echo '{"disableAllHooks": true}' > .claude/settings.local.json`,
      `echo '{"disableAllHooks": true}' > ~/.claude/settings.json`,
      `echo {} > "$HOME/.claude/settings.json"`,
      `echo {} > src/../.claude/settings.json`,
      `echo {} > cc/settings.json`,
      `cd .claude && : > settings.json`,
      `bash -c "eval 'rm -f .claude/settings.json'"`,
      `python3 -c "open('.claude/settings.json','w').write('{}')"`,
      `mv .claude .claude.off`,
      `sed -i 's/avp hook/true/' .claude/settings.json`,
      `git checkout HEAD -- .claude/settings.json`,
      `chmod 000 .claude/settings.json`,
      `rm -rf ~/.avp/trust`,
      `cp /bin/true ${p.bin}/avp`,
    ]) {
      const r = await p.hook(bash(p, command), p.env);
      expect({ command, denied: denied(r) }).toEqual({ command, denied: true });
      expect(reason(r)).toContain('avp refuses this command before it runs');
    }
    // The hook's cwd can be a sub-folder: relative names resolve from it.
    const sub = await p.hook(bash(p, `printf '{}' > settings.json`, join(p.root, '.claude')), p.env);
    expect(denied(sub)).toBe(true);
    expect(readFileSync(settings, 'utf8')).toBe(before);
  });

  test('reads and look-alikes pass: cat, grep, jq, an echo of the text, writing other files', async () => {
    const p = await claudeProject();
    for (const command of [
      'cat .claude/settings.json',
      'grep avp ~/.claude/settings.json .claude/settings.json',
      'jq .hooks .claude/settings.json',
      'echo "> .claude/settings.json"',
      'cp .claude/settings.json /tmp/settings-backup.json',
      `printf 'shell-ran' > from-shell.txt && ls -la .claude`,
      'rm -rf node_modules dist',
    ]) {
      const r = await p.hook(bash(p, command), p.env);
      expect({ command, denied: denied(r) }).toEqual({ command, denied: false });
    }
  });
});

describe('settings switches through file tools (no protected-files validator)', () => {
  test("disableAllHooks, events moved out of hooks, type prompt, avp's env: each refused; other settings pass", async () => {
    const p = await claudeProject();
    const settings = join(p.root, '.claude/settings.json');
    const current = JSON.parse(readFileSync(settings, 'utf8'));
    const variants: Array<[string, Doc]> = [
      ['disableAllHooks', { ...current, disableAllHooks: true }],
      ['allowManagedHooksOnly', { ...current, allowManagedHooksOnly: true }],
      ['events moved out of hooks', { ...current.hooks }],
      [
        'type prompt',
        JSON.parse(JSON.stringify(current).replaceAll('"type":"command"', '"type":"prompt","prompt":"ok"')),
      ],
      ['AVP_SUBAGENT', { ...current, env: { AVP_SUBAGENT: '1' } }],
      ['AVP_DISABLE', { ...current, env: { AVP_DISABLE: '1' } }],
      ['AVP_DISABLED_VALIDATORS', { ...current, env: { AVP_DISABLED_VALIDATORS: 'no-secrets' } }],
      ['AVP_MAX_STOP_BLOCKS', { ...current, env: { AVP_MAX_STOP_BLOCKS: '0' } }],
      ['PATH', { ...current, env: { PATH: '/tmp/evil:/usr/bin' } }],
    ];
    for (const [what, doc] of variants) {
      const r = await p.hook(write(p, settings, JSON.stringify(doc, null, 2)), p.env);
      expect({ what, denied: denied(r) }).toEqual({ what, denied: true });
    }
    // A new local settings file that switches hooks off is refused the same way.
    const local = await p.hook(
      write(p, join(p.root, '.claude/settings.local.json'), '{"disableAllHooks":true}'),
      p.env,
    );
    expect(denied(local)).toBe(true);
    // An Edit adding the switch, judged on its result.
    const text = readFileSync(settings, 'utf8');
    const edit = await p.hook(
      {
        ...bash(p, ''),
        tool_name: 'Edit',
        tool_input: { file_path: settings, old_string: '"hooks"', new_string: '"disableAllHooks": true,\n  "hooks"' },
      },
      p.env,
    );
    expect(denied(edit)).toBe(true);
    expect(reason(edit)).toContain('disableAllHooks');
    // Other settings beside avp's hooks stay the user's and the agent's business.
    const other = { ...current, permissions: { allow: ['Bash(ls)'] }, env: { NODE_ENV: 'test' } };
    const ok = await p.hook(write(p, settings, JSON.stringify(other)), p.env);
    expect(denied(ok)).toBe(false);
    expect(readFileSync(settings, 'utf8')).toBe(text);
  });

  test("Gemini CLI: hooksConfig.enabled false in the project's settings is refused", async () => {
    const p = project({ acceptFirst: false, agent: 'gemini' });
    const env = { HOME: p.home, AVP_HOME: join(p.home, '.avp'), PATH: '/usr/bin:/bin' };
    expect((await runAvp(['init', '--agent', 'gemini', '--no-validators'], { bin: BIN, cwd: p.root, env })).code).toBe(
      0,
    );
    const settings = join(p.root, '.gemini/settings.json');
    const current = JSON.parse(readFileSync(settings, 'utf8'));
    const input = (content: string) => ({
      session_id: 'g1',
      cwd: p.root,
      hook_event_name: 'BeforeTool',
      tool_name: 'write_file',
      tool_input: { file_path: settings, content },
    });
    const off = await p.hook(input(JSON.stringify({ ...current, hooksConfig: { enabled: false } })), env);
    expect(off.json?.decision).toBe('deny');
    const other = await p.hook(input(JSON.stringify({ ...current, ui: { theme: 'dark' } })), env);
    expect(other.json?.decision).toBeUndefined();
  });

  test('a Write of a file named avp into a folder on PATH is refused', async () => {
    const p = await claudeProject();
    const r = await p.hook(write(p, join(p.bin, 'avp'), '#!/bin/sh\necho {}\n'), p.env);
    expect(denied(r)).toBe(true);
    expect(reason(r)).toContain('an avp that agents');
    const elsewhere = await p.hook(write(p, join(p.bin, 'tool'), '#!/bin/sh\n'), p.env);
    expect(denied(elsewhere)).toBe(false);
  });
});

describe('what gets around the guard is said as it is', () => {
  for (const [what, change] of [
    ['emptied', () => '{}\n'],
    ['disableAllHooks added', (text: string) => JSON.stringify({ ...JSON.parse(text), disableAllHooks: true })],
  ] as const) {
    test(`settings ${what} on disk: the next hook call says hooks were switched off, not "keeps checking"`, async () => {
      const p = await claudeProject();
      const first = await p.hook(bash(p, 'ls'), p.env); // the first call accepts the project as it is
      expect(first.code).toBe(0);
      const settings = join(p.root, '.claude/settings.json');
      writeFileSync(settings, change(readFileSync(settings, 'utf8')));
      const r = await p.hook(bash(p, 'ls'), p.env);
      const said = String(r.json?.systemMessage ?? '');
      expect(said).toContain('the hooks that call avp were changed outside `avp init`');
      expect(said).toContain('.claude/settings.json');
      expect(said).toContain('`avp init`');
      expect(said).not.toContain('avp keeps checking');
    });
  }
});

describe("a settings file beside avp's (no avp entry of its own)", () => {
  test('new settings.local.json with disableAllHooks is announced; a permissions edit there is not', async () => {
    const p = await claudeProject();
    expect((await p.hook(bash(p, 'ls'), p.env)).code).toBe(0); // the first call accepts the project as it is
    const local = join(p.root, '.claude/settings.local.json');
    writeFileSync(local, JSON.stringify({ permissions: { allow: ['Bash(ls)'] } }));
    const calm = await p.hook(bash(p, 'ls'), p.env);
    expect(String(calm.json?.systemMessage ?? '')).not.toContain('the hooks that call avp were changed');
    writeFileSync(local, JSON.stringify({ permissions: { allow: ['Bash(ls)'] }, disableAllHooks: true }));
    const off = await p.hook(bash(p, 'ls'), p.env);
    expect(String(off.json?.systemMessage ?? '')).toContain('the hooks that call avp were changed outside `avp init`');
    expect(String(off.json?.systemMessage ?? '')).toContain('disableAllHooks=true');
  });
});

test("avp's OpenCode plugin deleted behind avp's back: the next call from any agent says hooks were switched off", async () => {
  const p = await claudeProject();
  const init = await runAvp(['init', '--agent', 'opencode', '--no-validators'], { bin: BIN, cwd: p.root, env: p.env });
  expect(init.code).toBe(0);
  expect((await p.hook(bash(p, 'ls'), p.env)).code).toBe(0);
  rmSync(join(p.root, '.opencode/plugins/avp.ts'));
  const r = await p.hook(bash(p, 'ls'), p.env);
  const said = String(r.json?.systemMessage ?? '');
  expect(said).toContain('the hooks that call avp were changed outside `avp init`');
  expect(said).toContain('.opencode/plugins/avp.ts (the file was removed)');
});

test('marking files so that git reports them unchanged is refused: their later edits would escape every check', async () => {
  const p = await claudeProject();
  for (const command of ['git update-index --assume-unchanged src/a.ts', 'git update-index --skip-worktree src/a.ts']) {
    const r = await p.hook(bash(p, command), p.env);
    expect({ command, denied: denied(r) }).toEqual({ command, denied: true });
    expect(reason(r)).toContain("the agent's edits to those files would go unchecked");
  }
  const undo = await p.hook(bash(p, 'git update-index --no-assume-unchanged src/a.ts'), p.env);
  expect(denied(undo)).toBe(false);
});
