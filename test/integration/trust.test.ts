/**
 * The agent cannot switch avp off: changes to avp's control plane (config files, validators, hooks) made through
 * the agent are announced and not obeyed until the user runs `avp accept` outside the agent. Tried as the agent
 * would, through the real binary: each case here passed the agent's change straight through before accepted state.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { BIN, project, sh, type Project } from './hook-support.ts';

const FAILS = sh(
  `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"r","file":"src/a.ts","line":1,"snippet":"x","suggestion":"y"}],"summary":"bad"}'`,
);

function writeEvent(p: Project, rel = 'src/a.ts', content = 'const a = 1;\n', event = 'PostToolUse') {
  return {
    session_id: 's1',
    transcript_path: join(p.home, 't.jsonl'),
    cwd: p.root,
    hook_event_name: event,
    tool_name: 'Write',
    tool_input: { file_path: join(p.root, rel), content },
    ...(event === 'PostToolUse' ? { tool_response: { type: 'create', filePath: join(p.root, rel), content } } : {}),
    tool_use_id: 't1',
  };
}

/** A project whose `gate` validator always fails (blocks every Write), already accepted by the user. */
async function gated(): Promise<Project> {
  const p = project({ acceptFirst: false });
  p.validator('gate', { match: { tools: ['Write', 'Edit'] } }, FAILS);
  const first = await p.hook(writeEvent(p));
  expect(first.json.decision).toBe('block');
  expect(first.json.systemMessage).toContain('first run here');
  return p;
}

const accept = (p: Project, args: string[] = [], env: Record<string, string> = {}) =>
  runAvp(['accept', ...args], {
    bin: BIN,
    cwd: p.root,
    env: { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root, ...env },
  });

describe('config written by the agent is not obeyed until accepted', () => {
  const attacks: Array<[string, string, string]> = [
    ['kill switch in .config/avp.json', '.config/avp.json', '{"disabled": true}'],
    ['disabledValidators in avp.config.json', 'avp.config.json', '{"disabledValidators": ["gate"]}'],
    ['severity override in .avprc', '.avprc', 'severity.gate=info'],
    ['a list kill switch in .config/avp.config.yaml', '.config/avp.config.yaml', 'disabled: [gate]\n'],
  ];
  for (const [name, rel, text] of attacks) {
    test(name, async () => {
      const p = await gated();
      p.write(rel, text);
      const r = await p.hook(writeEvent(p));
      expect(r.json.decision).toBe('block');
      expect(r.json.systemMessage).toContain(`added ${rel}`);
      expect(r.json.systemMessage).toContain('avp accept');
      // Announced once per new pending set: the next call is quiet but still blocks.
      const again = await p.hook(writeEvent(p));
      expect(again.json.decision).toBe('block');
      expect(again.json.systemMessage ?? '').not.toContain('not in effect');
      // The user accepts in their own terminal: now the config applies.
      const ok = await accept(p);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain(`added   ${rel}`);
      const after = await p.hook(writeEvent(p));
      expect(after.json?.decision).toBeUndefined();
    });
  }

  test('a code config (.config/avp.ts) written by the agent never runs in hook mode', async () => {
    const p = await gated();
    const marker = join(p.root, 'ran.txt');
    p.write(
      '.config/avp.ts',
      `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x');\nexport default { disabled: true };\n`,
    );
    const r = await p.hook(writeEvent(p));
    expect(r.json.decision).toBe('block');
    expect(existsSync(marker)).toBe(false);
  });

  test('maxStopBlocks: 0 written by the agent does not release the Stop loop guard', async () => {
    const p = project({ acceptFirst: false });
    p.validator('stop-gate', { trigger: 'Stop' }, FAILS);
    const stop = {
      session_id: 's2',
      transcript_path: 't',
      cwd: p.root,
      hook_event_name: 'Stop',
      stop_hook_active: false,
    };
    expect((await p.hook(stop)).json.decision).toBe('block');
    p.write('avp.config.json', '{"maxStopBlocks": 0}');
    expect((await p.hook({ ...stop, session_id: 's3' })).json.decision).toBe('block');
  });
});

describe('validators changed by the agent run as accepted', () => {
  test('an edited validator (severity lowered) and a deleted one still run as accepted', async () => {
    const p = await gated();
    p.validator('gate', { severity: 'info', match: { tools: ['Write', 'Edit'] } }, FAILS);
    const edited = await p.hook(writeEvent(p));
    expect(edited.json.decision).toBe('block');
    expect(edited.json.systemMessage).toContain('changed .avp/validators/gate/VALIDATOR.md');
    rmSync(join(p.root, '.avp/validators/gate'), { recursive: true });
    const deleted = await p.hook(writeEvent(p));
    expect(deleted.json.decision).toBe('block');
    expect(deleted.json.systemMessage).toContain('deleted .avp/validators/gate/VALIDATOR.md');
  });

  test('a project validator shadowing a user validator waits for acceptance', async () => {
    const p = project({ acceptFirst: false });
    const userDir = join(p.home, '.avp/validators/gate');
    mkdirSync(join(userDir, 'scripts'), { recursive: true });
    writeFileSync(
      join(userDir, 'VALIDATOR.md'),
      '---\nname: gate\ndescription: user gate\nseverity: error\ntrigger: PostToolUse\nscript: scripts/check.sh\n---\nx\n',
    );
    writeFileSync(join(userDir, 'scripts/check.sh'), FAILS, { mode: 0o755 });
    expect((await p.hook(writeEvent(p))).json.decision).toBe('block');
    p.validator('gate', { severity: 'info' }, sh(`cat >/dev/null; echo '{"passed":true,"violations":[]}'`));
    const r = await p.hook(writeEvent(p));
    expect(r.json.decision).toBe('block');
    expect(r.json.systemMessage).toContain('added .avp/validators/gate/VALIDATOR.md');
  });

  test('the good workflow: a validator the agent writes is pending, then active once the user accepts', async () => {
    const p = project({ acceptFirst: false });
    p.write('src/keep.ts', 'x\n');
    expect((await p.hook(writeEvent(p))).json?.decision).toBeUndefined();
    p.validator('new-rule', { match: { tools: ['Write'] } }, FAILS);
    const pending = await p.hook(writeEvent(p));
    expect(pending.json.decision).toBeUndefined();
    expect(pending.json.systemMessage).toContain('added .avp/validators/new-rule/VALIDATOR.md');
    expect(pending.json.hookSpecificOutput.additionalContext).toContain('avp accept');
    const dry = await accept(p, ['--dry-run']);
    expect(dry.stdout).toContain('+name: "new-rule"');
    expect((await p.hook(writeEvent(p))).json?.decision).toBeUndefined();
    expect((await accept(p)).code).toBe(0);
    expect((await p.hook(writeEvent(p))).json.decision).toBe('block');
  });
});

describe('acceptance comes from the user, not the agent', () => {
  test('avp accept refuses where the agent marks its environment', async () => {
    const p = await gated();
    p.write('avp.config.json', '{"disabled": true}');
    const markers: Array<Record<string, string>> = [{ CLAUDECODE: '1' }, { GEMINI_CLI: '1' }, { CODEX_SANDBOX: 'x' }];
    for (const env of markers) {
      const r = await accept(p, [], env);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('refuses to run inside a coding agent');
    }
    expect((await p.hook(writeEvent(p))).json.decision).toBe('block');
  });

  test('avp accept refuses under an agent process even with the variables removed', async () => {
    const p = await gated();
    p.write('avp.config.json', '{"disabled": true}');
    const bin = tempDir('avp-agent-bin-');
    symlinkSync('/bin/sh', join(bin, 'claude'));
    const proc = Bun.spawn([join(bin, 'claude'), '-c', `"${BIN}" accept`], {
      cwd: p.root,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: p.home, AVP_HOME: join(p.home, '.avp'), NO_COLOR: '1' },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(1);
    expect(stderr).toContain('claude (process');
    expect((await p.hook(writeEvent(p))).json.decision).toBe('block');
  });

  test('avp add run by the user is accepted at once; run inside the agent it waits', async () => {
    const p = project({ acceptFirst: false });
    const env = { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root };
    const mine = await runAvp(['add', 'no-secrets', '--project', '--offline'], { bin: BIN, cwd: p.root, env });
    expect(mine.code).toBe(0);
    const key = writeEvent(p, 'src/k.ts', 'const API_KEY = "sk-live-q8Xr2mVb7LpZt4Nc9WkHs3Jd";\n');
    const r = await p.hook(key);
    expect(r.json.decision).toBe('block');
    expect(r.json.systemMessage ?? '').not.toContain('first run');
    const agents = await runAvp(['remove', 'no-secrets', '--project'], {
      bin: BIN,
      cwd: p.root,
      env: { ...env, CLAUDECODE: '1' },
    });
    expect(agents.code).toBe(0);
    expect(agents.stderr).toContain('avp accept');
    expect((await p.hook(key)).json.decision).toBe('block');
  });
});

describe("avp's own files are not the agent's to write", () => {
  test('a Write into the accepted state, caches or session state is denied at PreToolUse', async () => {
    const p = await gated();
    for (const target of [
      join(p.home, '.avp/trust/projects/x/accepted.json'),
      join(p.home, '.avp/cache/verdicts/a.json'),
      join(p.home, '.avp/sessions/0123456789abcdef/s1/once/x'),
    ]) {
      const r = await p.hook({
        ...writeEvent(p, 'x', '{}', 'PreToolUse'),
        tool_input: { file_path: target, content: '{}' },
      });
      expect(r.json.hookSpecificOutput.permissionDecision).toBe('deny');
      expect(r.json.hookSpecificOutput.permissionDecisionReason).toContain("avp's own state");
    }
  });

  test("a Write that drops avp's hook from .claude/settings.json is denied; other settings edits are not", async () => {
    const p = project({ acceptFirst: false });
    const init = await runAvp(['init', '--no-validators', '--command', 'avp hook --agent claude'], {
      bin: BIN,
      cwd: p.root,
      env: { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root },
    });
    expect(init.code).toBe(0);
    p.validator('gate', { trigger: 'PreToolUse', match: { tools: ['Bash'] } }, FAILS);
    const settings = join(p.root, '.claude/settings.json');
    const current = JSON.parse(await Bun.file(settings).text());
    const drop = await p.hook({
      ...writeEvent(p, '.claude/settings.json', '{"hooks": {}}', 'PreToolUse'),
      tool_input: { file_path: settings, content: '{"hooks": {}}' },
    });
    expect(drop.json.hookSpecificOutput.permissionDecision).toBe('deny');
    const keep = JSON.stringify({ ...current, permissions: { allow: ['Bash(ls)'] } });
    const ok = await p.hook({
      ...writeEvent(p, '.claude/settings.json', keep, 'PreToolUse'),
      tool_input: { file_path: settings, content: keep },
    });
    expect(ok.json?.hookSpecificOutput?.permissionDecision).toBeUndefined();
  });

  test("an Edit of .claude/settings.json is judged on its result: avp's hook kept passes, dropped is denied", async () => {
    const p = project({ acceptFirst: false });
    const init = await runAvp(['init', '--no-validators', '--command', 'avp hook --agent claude'], {
      bin: BIN,
      cwd: p.root,
      env: { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root },
    });
    expect(init.code).toBe(0);
    p.validator('gate', { trigger: 'PreToolUse', match: { tools: ['Bash'] } }, FAILS);
    const settings = join(p.root, '.claude/settings.json');
    const text = await Bun.file(settings).text();
    const edit = (old_string: string, new_string: string) =>
      p.hook({
        ...writeEvent(p, '.claude/settings.json', '', 'PreToolUse'),
        tool_name: 'Edit',
        tool_input: { file_path: settings, old_string, new_string },
      });
    // Another setting, next to avp's hooks: the Edit's result keeps them, so it is the agent's and the user's business.
    const other = await edit('"hooks"', '"permissions": {"allow": ["Bash(ls)"]},\n  "hooks"');
    expect(other.json?.hookSpecificOutput?.permissionDecision).toBeUndefined();
    // The same kind of Edit that drops avp's hook command is refused.
    const hookLine = text.split('\n').find((l) => l.includes('avp hook'))!;
    const drop = await edit(hookLine, hookLine.replace('avp hook', 'true'));
    expect(drop.json.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(drop.json.hookSpecificOutput.permissionDecisionReason).toContain("avp's hook entries");
  });

  test("avp's installed Claude Code plugin: neither its hooks.json nor its enabledPlugins switch can be changed", async () => {
    const p = await gated();
    const pluginHooks = join(p.home, '.claude/plugins/cache/avp/avp/0.1.0/hooks/hooks.json');
    mkdirSync(dirname(pluginHooks), { recursive: true });
    writeFileSync(pluginHooks, readFileSync(join(import.meta.dir, '../../plugins/avp/hooks/hooks.json'), 'utf8'));
    const userSettings = join(p.home, '.claude/settings.json');
    writeFileSync(userSettings, JSON.stringify({ enabledPlugins: { 'avp@avp': true }, theme: 'dark' }));
    const write = (file: string, content: string) =>
      p.hook({ ...writeEvent(p, 'x', content, 'PreToolUse'), tool_input: { file_path: file, content } });
    const decision = (r: Awaited<ReturnType<typeof write>>) => r.json?.hookSpecificOutput?.permissionDecision;

    expect(decision(await write(pluginHooks, '{"hooks": {}}'))).toBe('deny');
    const off = JSON.stringify({ enabledPlugins: { 'avp@avp': false }, theme: 'dark' });
    expect(decision(await write(userSettings, off))).toBe('deny');
    // The rest stays the user's and the agent's business.
    const theme = JSON.stringify({ enabledPlugins: { 'avp@avp': true }, theme: 'light' });
    expect(decision(await write(userSettings, theme))).toBeUndefined();
    expect(decision(await write(join(dirname(pluginHooks), '..', 'README.md'), 'notes'))).toBeUndefined();
  });

  test('no avp cache lives in the project (a planted one cannot replace what a validator says)', async () => {
    const p = await gated();
    expect(existsSync(join(p.root, '.avp/cache'))).toBe(false);
    p.write('.avp/cache/discovery.json', '{"format":1}');
    expect((await p.hook(writeEvent(p))).json.decision).toBe('block');
  });

  test('AVP_DISABLE=1 in the user environment stays the user kill switch', async () => {
    const p = await gated();
    const r = await p.hook(writeEvent(p), { AVP_DISABLE: '1' });
    expect(r.stdout.trim()).toBe('{}');
  });

  test('avp install refuses a lockfile the agent changed until it is accepted', async () => {
    const p = project({ acceptFirst: false });
    const env = { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root };
    expect((await runAvp(['add', 'no-secrets', '--project', '--offline'], { bin: BIN, cwd: p.root, env })).code).toBe(
      0,
    );
    const lock = join(p.root, '.avp/avp-lock.json');
    writeFileSync(lock, `${await Bun.file(lock).text()} `);
    const r = await runAvp(['install'], { bin: BIN, cwd: p.root, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('avp accept --dry-run');
  });
});
