import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AVP_BIN, runAvp, tempDir } from '../support/run-avp.ts';

const EVENTS = 13;

function project(): { root: string; home: string; env: Record<string, string> } {
  const root = tempDir('avp-init-');
  const home = tempDir('avp-init-home-');
  Bun.spawnSync(['git', 'init', '-q'], { cwd: root });
  // avp on PATH, as the README's Install step says: init shares the portable `avp hook` command.
  const bin = join(home, 'bin');
  mkdirSync(bin);
  symlinkSync(AVP_BIN, join(bin, 'avp'));
  return { root, home, env: { HOME: home, AVP_HOME: join(home, '.avp'), PATH: `${bin}:${process.env.PATH}` } };
}

describe('avp init / deinit (compiled binary)', () => {
  test('init writes the hook for every AVP trigger, creates .avp/, installs the recommended offline validators; idempotent', async () => {
    const p = project();
    const r = await runAvp(['init'], { cwd: p.root, env: p.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const settings = JSON.parse(readFileSync(join(p.root, '.claude', 'settings.json'), 'utf8'));
    expect(Object.keys(settings.hooks)).toHaveLength(EVENTS);
    for (const groups of Object.values(settings.hooks) as any[]) {
      expect(groups).toEqual([{ hooks: [{ type: 'command', command: 'avp hook --agent claude', timeout: 120 }] }]);
    }
    expect(readFileSync(join(p.root, '.avp', '.gitignore'), 'utf8')).toContain('logs/');
    const installed = readdirSync(join(p.root, '.avp', 'validators'));
    expect(installed.length).toBeGreaterThan(0);
    for (const name of installed)
      expect(existsSync(join(p.root, '.avp', 'validators', name, 'VALIDATOR.md'))).toBe(true);
    expect(r.stdout).toContain('LLM-judged validators');
    // Second run: nothing changes, byte for byte.
    const before = readFileSync(join(p.root, '.claude', 'settings.json'), 'utf8');
    const again = await runAvp(['init'], { cwd: p.root, env: p.env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already installed');
    expect(readFileSync(join(p.root, '.claude', 'settings.json'), 'utf8')).toBe(before);
    // The installed hook answers through the real settings' command line.
    const hook = Bun.spawnSync(['sh', '-c', settings.hooks.Notification[0].hooks[0].command], {
      cwd: p.root,
      env: { ...p.env, CLAUDE_PROJECT_DIR: p.root },
      stdin: Buffer.from(
        JSON.stringify({
          session_id: 's',
          transcript_path: '/dev/null',
          cwd: p.root,
          hook_event_name: 'Notification',
          message: 'hi',
          notification_type: 'idle_prompt',
        }),
      ),
    });
    expect(hook.exitCode).toBe(0);
  });

  test('--local, --user, --no-validators, --dry-run, --json', async () => {
    const p = project();
    const dry = await runAvp(['init', '--dry-run', '--no-validators'], { cwd: p.root, env: p.env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('dry run');
    expect(existsSync(join(p.root, '.claude'))).toBe(false);
    expect(existsSync(join(p.root, '.avp'))).toBe(false);
    const local = await runAvp(['init', '--local', '--no-validators', '--json'], { cwd: p.root, env: p.env });
    expect(local.code).toBe(0);
    const out = JSON.parse(local.stdout);
    expect(out.settings.path).toBe(join(p.root, '.claude', 'settings.local.json'));
    expect(out.installed).toEqual([]);
    expect(existsSync(join(p.root, '.claude', 'settings.json'))).toBe(false);
    const user = await runAvp(['init', '--user', '--no-validators'], { cwd: p.root, env: p.env });
    expect(user.code).toBe(0);
    expect(JSON.parse(readFileSync(join(p.home, '.claude', 'settings.json'), 'utf8')).hooks.Stop).toHaveLength(1);
    const both = await runAvp(['init', '--user', '--local'], { cwd: p.root, env: p.env });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('only one of');
    const agent = await runAvp(['init', '--agent', 'vim'], { cwd: p.root, env: p.env });
    expect(agent.code).toBe(1);
    expect(agent.stderr).toContain('unsupported agent');
  });

  test('a settings file that does not parse is refused with file:line and left untouched; nothing else is created', async () => {
    const p = project();
    mkdirSync(join(p.root, '.claude'));
    const broken = '{\n  "model": "opus",\n  "hooks": { "Stop": [ }\n}\n';
    writeFileSync(join(p.root, '.claude', 'settings.json'), broken);
    const r = await runAvp(['init'], { cwd: p.root, env: p.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(p.root, '.claude', 'settings.json')}:3:`);
    expect(r.stderr).toContain('fix:');
    expect(r.stderr).not.toContain('    at ');
    expect(readFileSync(join(p.root, '.claude', 'settings.json'), 'utf8')).toBe(broken);
    expect(existsSync(join(p.root, '.avp'))).toBe(false);
  });

  test("a broken Claude Code settings file does not refuse another agent's init", async () => {
    const p = project();
    mkdirSync(join(p.home, '.claude'), { recursive: true });
    const broken = '{ "hooks": [ }\n';
    writeFileSync(join(p.home, '.claude', 'settings.json'), broken);
    const gemini = await runAvp(['init', '--agent', 'gemini', '--no-validators'], { cwd: p.root, env: p.env });
    expect(gemini.code).toBe(0);
    expect(existsSync(join(p.root, '.gemini', 'settings.json'))).toBe(true);
    // Claude Code itself still refuses it, naming the file.
    const claude = await runAvp(['init', '--agent', 'claude', '--user'], { cwd: p.root, env: p.env });
    expect(claude.code).toBe(1);
    expect(claude.stderr).toContain(join(p.home, '.claude', 'settings.json'));
    expect(readFileSync(join(p.home, '.claude', 'settings.json'), 'utf8')).toBe(broken);
  });

  test("deinit removes only avp's entries and restores the file init started from", async () => {
    const p = project();
    mkdirSync(join(p.root, '.claude'));
    const original = `{
  // shared team settings
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "PostToolUse": [{ "matcher": "Write", "hooks": [{ "type": "command", "command": "prettier --write" }] }]
  },
}
`;
    writeFileSync(join(p.root, '.claude', 'settings.json'), original);
    expect((await runAvp(['init', '--no-validators'], { cwd: p.root, env: p.env })).code).toBe(0);
    const installed = readFileSync(join(p.root, '.claude', 'settings.json'), 'utf8');
    expect(installed).toContain('// shared team settings');
    expect(installed).toContain('prettier --write');
    const dry = await runAvp(['deinit', '--dry-run'], { cwd: p.root, env: p.env });
    expect(dry.stdout).toContain('would remove');
    expect(readFileSync(join(p.root, '.claude', 'settings.json'), 'utf8')).toBe(installed);
    const r = await runAvp(['deinit'], { cwd: p.root, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("removed avp's hook from 13 events");
    expect(readFileSync(join(p.root, '.claude', 'settings.json'), 'utf8')).toBe(original);
    const twice = await runAvp(['deinit', '--all'], { cwd: p.root, env: p.env });
    expect(twice.code).toBe(0);
    expect(twice.stdout).toContain('no avp hook found');
  });
});
