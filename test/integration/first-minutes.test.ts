/**
 * The next commands a new user tries after the Quickstart, through the compiled binary: `avp deinit` undoes what
 * `avp init` did wherever it put the hook; `avp init` offers the git pre-commit hook that stops a commit from a shell.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AVP_BIN, runAvp, tempDir } from '../support/run-avp.ts';

/** A git project and a HOME of its own; avp on PATH or not (init then writes this machine's path, locally). */
function project(onPath: boolean): { root: string; home: string; env: Record<string, string> } {
  const root = tempDir('avp-first-');
  const home = tempDir('avp-first-home-');
  Bun.spawnSync(['git', 'init', '-q'], { cwd: root });
  const bin = join(home, 'bin');
  mkdirSync(bin);
  if (onPath) symlinkSync(AVP_BIN, join(bin, 'avp'));
  return { root, home, env: { HOME: home, AVP_HOME: join(home, '.avp'), PATH: `${bin}:/usr/bin:/bin` } };
}

const hooksIn = (path: string) =>
  existsSync(path) ? Object.keys(JSON.parse(readFileSync(path, 'utf8')).hooks ?? {}) : [];

describe('avp deinit undoes avp init wherever init put the hook', () => {
  test('avp not on PATH: init writes .claude/settings.local.json; a plain deinit removes it', async () => {
    const p = project(false);
    const init = await runAvp(['init', '--agent', 'claude', '--no-validators'], { cwd: p.root, env: p.env });
    expect(init.code).toBe(0);
    const local = join(p.root, '.claude', 'settings.local.json');
    expect(hooksIn(local).length).toBe(13);
    const r = await runAvp(['deinit'], { cwd: p.root, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${local}: removed avp's hook from 13 events`);
    expect(hooksIn(local)).toEqual([]);
  });

  test('init --user: a plain deinit in a project leaves the user file alone and says how to remove it', async () => {
    const p = project(true);
    expect((await runAvp(['init', '--user', '--agent', 'claude'], { cwd: p.root, env: p.env })).code).toBe(0);
    const user = join(p.home, '.claude', 'settings.json');
    expect(hooksIn(user).length).toBe(13);
    const r = await runAvp(['deinit'], { cwd: p.root, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${user}: still runs avp (your user settings: every project); \`avp deinit --user\``);
    expect(hooksIn(user).length).toBe(13);
    const user2 = await runAvp(['deinit', '--user'], { cwd: p.root, env: p.env });
    expect(user2.code).toBe(0);
    expect(hooksIn(user)).toEqual([]);
    expect((await runAvp(['deinit'], { cwd: p.root, env: p.env })).stdout).not.toContain('still runs avp');
  });
});

describe('avp init offers the git pre-commit hook', () => {
  test('in a git repository without it: a "next" step names `avp init --git-hook`; once installed, no more', async () => {
    const p = project(true);
    const r = await runAvp(['init', '--agent', 'claude', '--no-validators'], { cwd: p.root, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}\d\. stop commits made from a shell or an editor too: `avp init --git-hook`/m);
    const steps = r.stdout.split('next:\n')[1]!.trimEnd().split('\n');
    expect(steps.map((s) => Number(s.trim().split('.')[0]))).toEqual(steps.map((_, i) => i + 1));
    expect((await runAvp(['init', '--git-hook'], { cwd: p.root, env: p.env })).code).toBe(0);
    const again = await runAvp(['init', '--agent', 'claude', '--no-validators'], { cwd: p.root, env: p.env });
    expect(again.stdout).not.toContain('--git-hook');
  });

  test('outside a git repository: no such step (there is nothing to commit to)', async () => {
    const p = project(true);
    Bun.spawnSync(['rm', '-rf', join(p.root, '.git')]);
    const r = await runAvp(['init', '--agent', 'claude', '--no-validators'], { cwd: p.root, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('--git-hook');
  });
});

describe('avp new with no judge configured', () => {
  test('an LLM validator is refused (nothing written) with the script form and --force named', async () => {
    const p = project(false);
    const r = await runAvp(['new', 'team-rules'], { cwd: p.root, env: p.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('would be an LLM validator, and no judge can evaluate it');
    expect(r.stderr).toContain('`avp new team-rules --script`');
    expect(r.stderr).toContain('`avp new team-rules --force`');
    expect(existsSync(join(p.root, '.avp', 'validators'))).toBe(false);
    const forced = await runAvp(['new', 'team-rules', '--force'], { cwd: p.root, env: p.env });
    expect(forced.code).toBe(0);
    expect(existsSync(join(p.root, '.avp', 'validators', 'team-rules.md'))).toBe(true);
  });

  test('--script writes a script validator that lints clean, is accepted, and blocks its marker through the hook', async () => {
    const p = project(true);
    const made = await runAvp(['new', 'no-marker', '--script', '--severity', 'error'], { cwd: p.root, env: p.env });
    expect(made.code).toBe(0);
    const dir = join(p.root, '.avp', 'validators', 'no-marker');
    expect(readFileSync(join(dir, 'VALIDATOR.md'), 'utf8')).toContain('script: scripts/check.ts');
    const lint = await runAvp(['lint', dir], { cwd: p.root, env: p.env });
    expect(lint.stdout + lint.stderr).toContain('0 errors');
    writeFileSync(join(p.root, 'ok.py'), 'x = 1\n');
    writeFileSync(join(p.root, 'bad.py'), 'x = 1  # DO NOT COMMIT\n');
    expect((await runAvp(['check', 'ok.py'], { cwd: p.root, env: p.env })).code).toBe(0);
    expect((await runAvp(['check', 'bad.py'], { cwd: p.root, env: p.env })).code).toBe(1);
    // Accepted with its script: the hook (which runs on the accepted state) blocks the marker.
    const write = {
      session_id: 's1',
      transcript_path: '/dev/null',
      cwd: p.root,
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(p.root, 'bad.py'), content: 'x = 1  # DO NOT COMMIT\n' },
      tool_response: { filePath: join(p.root, 'bad.py'), success: true },
    };
    const hook = await runAvp(['hook'], { cwd: p.root, env: p.env, stdin: JSON.stringify(write) });
    expect(hook.code).toBe(0);
    expect(JSON.parse(hook.stdout).decision).toBe('block');
    expect(hook.stdout).not.toContain('not in effect');
  });
});

describe('avp check with no judge says how to configure one once per run', () => {
  test('7 changed files and an LLM validator: the paragraph once, every file still named, the real finding shown', async () => {
    const p = project(true);
    const add = (spec: string, force = false) =>
      runAvp(['add', spec, '--offline', ...(force ? ['--force'] : [])], { cwd: p.root, env: p.env });
    expect((await add('catalog:sql-injection', true)).code).toBe(0);
    expect((await add('catalog:no-secrets')).code).toBe(0);
    for (let i = 1; i <= 7; i++) writeFileSync(join(p.root, `f${i}.py`), `x${i} = 1\n`);
    writeFileSync(join(p.root, 'k.js'), 'const API_KEY = "sk-live-1234567890abcdef1234";\n');
    const r = await runAvp(['check'], { cwd: p.root, env: p.env });
    expect(r.code).toBe(1);
    expect(r.stdout.split('configure a judge').length - 1).toBe(1);
    for (let i = 1; i <= 7; i++) expect(r.stdout).toContain(`could not be evaluated on Write f${i}.py`);
    expect(r.stdout).toContain('no-secrets (error) on Write k.js');
    expect(r.stdout.length).toBeLessThan(3000);
  });
});

describe('avp doctor and validators switched off by config', () => {
  test('a disabled LLM validator with no judge is no problem; enabled again, it is', async () => {
    const p = project(true);
    expect((await runAvp(['init', '--agent', 'claude'], { cwd: p.root, env: p.env })).code).toBe(0);
    const add = await runAvp(['add', 'catalog:sql-injection', '--offline', '--force'], { cwd: p.root, env: p.env });
    expect(add.code).toBe(0);
    const doctor = () => runAvp(['doctor', '--no-probe'], { cwd: p.root, env: p.env });
    const on = await doctor();
    expect(on.code).not.toBe(0);
    expect(on.stdout + on.stderr).toContain('have no judge that works (sql-injection)');
    writeFileSync(join(p.root, 'avp.config.json'), '{ "disabledValidators": ["sql-injection"] }\n');
    expect((await runAvp(['accept'], { cwd: p.root, env: p.env })).code).toBe(0);
    const off = await doctor();
    expect(off.stdout + off.stderr).not.toContain('problem:');
    expect(off.stdout).toContain('1 disabled by config');
    expect(off.code).toBe(0);
  });
});

describe('avp lint: one message per mistake, the key that was meant, tabs refused', () => {
  const put = (root: string, name: string, text: string) => {
    mkdirSync(join(root, '.avp', 'validators'), { recursive: true });
    writeFileSync(join(root, '.avp', 'validators', name), text);
  };
  const head = (extra: string) =>
    `---\nname: v\ndescription: Checks things.\nseverity: error\n${extra}---\nCheck it.\n`;

  test('a tab-indented key is a load error (the validator does not load and match every tool)', async () => {
    const p = project(true);
    put(p.root, 'v.md', head('trigger: PostToolUse\nmatch:\n\ttools: [Bash]\n'));
    const lint = await runAvp(['lint'], { cwd: p.root, env: p.env });
    expect(lint.code).toBe(1);
    expect(lint.stdout).toMatch(/v\.md:7:1: error: indented with a tab/);
    expect(lint.stdout.match(/indented with a tab/g)).toHaveLength(1);
    const list = await runAvp(['list', '--json'], { cwd: p.root, env: p.env });
    const listed = JSON.parse(list.stdout);
    expect(JSON.stringify(listed.validators ?? listed)).not.toContain('"name":"v"');
    expect(list.stdout).toContain('indented with a tab');
  });

  test('a misspelt key: did-you-mean, and the missing key names it — one message', async () => {
    const p = project(true);
    put(p.root, 'v.md', head('triger: PostToolUse\nmatch:\n  tool: [Write]\n'));
    const r = await runAvp(['lint'], { cwd: p.root, env: p.env });
    expect(r.stdout).toContain('v.md:5:1: error: missing required key `trigger` (`triger` on this line looks like it)');
    expect(r.stdout).toContain('rename `triger` to `trigger`');
    expect(r.stdout).not.toContain('unknown key `triger`');
    expect(r.stdout).toContain('unknown key `match.tool` (ignored) (did you mean tools?)');
  });

  test('a wrong-case tool name is said once', async () => {
    const p = project(true);
    put(p.root, 'v.md', head('trigger: PostToolUse\nmatch:\n  tools: [write]\n'));
    const r = await runAvp(['lint'], { cwd: p.root, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout.match(/never matches/g)).toHaveLength(1);
    expect(r.stdout).toContain('`write` never matches: tool names are case-sensitive (Claude Code calls it `Write`)');
  });
});

describe('a refusal names the tool the same way in every field', () => {
  test("Codex's apply_patch through Bash: the model's reason and the user's message both say Bash (judged as Write)", async () => {
    const p = project(true);
    expect((await runAvp(['init', '--agent', 'codex'], { cwd: p.root, env: p.env })).code).toBe(0);
    const input = JSON.parse(
      readFileSync(join(import.meta.dir, '../fixtures/hook/codex/hook-input-PreToolUse-Bash-apply_patch.json'), 'utf8'),
    );
    input.cwd = p.root;
    const r = await runAvp(['hook', '--agent', 'codex'], { cwd: p.root, env: p.env, stdin: JSON.stringify(input) });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const reason: string = out.hookSpecificOutput.permissionDecisionReason;
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(reason.split(':')[0]).toBe('avp blocked PreToolUse Bash (judged as Write)');
    expect(out.systemMessage).toContain('avp blocked PreToolUse Bash (judged as Write):');
  });
});
