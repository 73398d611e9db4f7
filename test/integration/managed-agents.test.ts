/**
 * `avp init --managed` beyond Claude Code: avp's hooks in Gemini CLI's and Qwen Code's system settings
 * (`/etc/gemini-cli/settings.json`, `/etc/qwen-code/settings.json`), where the agent's user cannot write, with the
 * switch that outvotes the user's own settings (Gemini merges the system file last, so `hooksConfig.enabled: true`
 * wins over a user's false and its hook lists concatenate; Qwen's system file "overrides all other settings files",
 * so `disableAllHooks: false` wins). The managed hook, run as the user with the agent's input, still refuses a key.
 * `avp deinit --managed` gives back the admin's file byte for byte, and removes a file (and folder) it created.
 *
 * As in managed-install.test.ts: root, a private mount namespace over a copy of /etc, a user created for the test.
 * Before: `init --managed` wrote only Claude Code's managed settings.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { canUnshare, inNamespace, managedSandbox, withSandbox, type Sandbox } from '../support/managed-sandbox.ts';

const USER = 'avpmanagedagents';

/** A key written through the agent's write tool, before it runs, in the agent's own event names. */
function keyWrite(e: Sandbox, event: string): string {
  const file = join(e.root, 'src/k.ts');
  return JSON.stringify({
    session_id: 'ma1',
    transcript_path: join(e.home, 't.jsonl'),
    cwd: e.root,
    hook_event_name: event,
    tool_name: 'write_file',
    tool_input: { file_path: file, content: 'const AWS_KEY = "AKIAQ3EGUIRXZ7PLMN4V";\n' },
  });
}

const GEMINI_ADMIN =
  '{\n  // the admin\'s own\n  "general": { "vimMode": true },\n  "hooksConfig": { "notifications": false }\n}\n';
const QWEN_ADMIN = '{\n    "disableAllHooks": true,\n    "model": { "name": "qwen3-coder" }\n}\n';

describe('avp init --managed for Gemini CLI and Qwen Code', () => {
  test.skipIf(!canUnshare)(
    'system settings hold avp, the user cannot change them, deinit gives them back (needs root: skipped otherwise)',
    () =>
      withSandbox(
        managedSandbox('avp-managed-agents-', { dropFromEtc: ['gemini-cli', 'qwen-code'], projectDirs: ['src'] }),
        scenario,
      ),
    180_000,
  );
});

function systemFile(e: Sandbox, path: string): string {
  return readFileSync(join(e.etc, path.replace(/^\/etc\//, '')), 'utf8');
}

function scenario(e: Sandbox) {
  expect(inNamespace(e, `useradd -M -d ${e.home} ${USER} && chown -R ${USER}: ${e.root} ${e.home}`).code).toBe(0);
  const user = (script: string, stdin?: string) =>
    inNamespace(e, `cd ${e.root} && ${script}`, {
      user: USER,
      env: { AVP_HOME: `${e.home}/.avp` },
      ...(stdin ? { stdin } : {}),
    });

  // Gemini: an admin's settings file with comments; avp adds its hooks and hooksConfig.enabled inside it.
  mkdirSync(join(e.etc, 'gemini-cli'), { mode: 0o755 });
  writeFileSync(join(e.etc, 'gemini-cli/settings.json'), GEMINI_ADMIN, { mode: 0o644 });
  const gemini = inNamespace(e, '"$AVP" init --managed --agent gemini');
  expect(gemini.stderr).toBe('');
  expect(gemini.code).toBe(0);
  expect(gemini.stdout).toContain('/etc/gemini-cli/settings.json');
  expect(gemini.stdout).toMatch(/not covered\s+opencode: no system-level config/);
  expect(gemini.stdout).not.toContain('/etc/claude-code');
  // What Gemini CLI still lets its user do is said, exactly.
  expect(gemini.stdout).toMatch(/user can still\s+gemini: a hooksConfig\.disabled entry naming/);
  const g = parse(systemFile(e, '/etc/gemini-cli/settings.json')) as any;
  expect(g.general).toEqual({ vimMode: true });
  expect(g.hooksConfig).toEqual({ notifications: false, enabled: true });
  for (const event of ['BeforeTool', 'AfterTool', 'AfterAgent'])
    expect({ event, command: g.hooks[event]?.[0]?.hooks?.[0]?.command }).toEqual({
      event,
      command: '/etc/avp/bin/avp hook --agent gemini',
    });

  // Qwen: the admin had turned hooks off; avp turns them on and remembers the admin's value.
  mkdirSync(join(e.etc, 'qwen-code'), { mode: 0o755 });
  writeFileSync(join(e.etc, 'qwen-code/settings.json'), QWEN_ADMIN, { mode: 0o644 });
  const qwen = inNamespace(e, '"$AVP" init --managed --agent qwen --no-validators');
  expect(qwen.code).toBe(0);
  expect(qwen.stdout).toMatch(/user can still\s+qwen: --safe-mode or --bare/);
  const q = parse(systemFile(e, '/etc/qwen-code/settings.json')) as any;
  expect(q.disableAllHooks).toBe(false);
  // Qwen's defaults kept, and the names that switch its hooks off kept out of a project's .env.
  expect(q.advanced.excludedEnvVars).toEqual([
    'DEBUG',
    'DEBUG_MODE',
    'QWEN_CODE_SAFE_MODE',
    'QWEN_CODE_SIMPLE',
    'QWEN_CODE_SYSTEM_SETTINGS_PATH',
    'QWEN_CODE_SYSTEM_DEFAULTS_PATH',
  ]);
  expect(q.model).toEqual({ name: 'qwen3-coder' });
  expect(q.hooks.PreToolUse[0].hooks[0].command).toBe('/etc/avp/bin/avp hook --agent qwen');
  // A second run changes nothing (and must not take avp's own `false` for the admin's value).
  const before = systemFile(e, '/etc/qwen-code/settings.json');
  expect(inNamespace(e, '"$AVP" init --managed --agent qwen --no-validators').code).toBe(0);
  expect(systemFile(e, '/etc/qwen-code/settings.json')).toBe(before);

  // An agent with no system-level config is refused by name, with the reason.
  const none = inNamespace(e, '"$AVP" init --managed --agent opencode');
  expect(none.code).not.toBe(0);
  expect(none.stderr).toContain('no system-level config');

  // The user's side: the files are not theirs to change or remove, and their own settings turning hooks off are
  // outvoted by the system file (the agents' documented precedence: see the header).
  for (const path of ['/etc/gemini-cli/settings.json', '/etc/qwen-code/settings.json']) {
    expect({ path, write: user(`: > ${path}`).code }).not.toEqual({ path, write: 0 });
    expect({ path, rm: user(`rm -f ${path}`).code }).not.toEqual({ path, rm: 0 });
    expect({ path, mv: user(`mv ${path} ${path}.old`).code }).not.toEqual({ path, mv: 0 });
  }
  expect(user('/etc/avp/bin/avp deinit --managed --agent gemini').code).toBe(1);
  expect(parse(systemFile(e, '/etc/gemini-cli/settings.json')).hooksConfig.enabled).toBe(true);

  // The managed hook as each agent runs it, as the user, with the switches a user has: the key is refused.
  for (const [agent, event] of [
    ['gemini', 'BeforeTool'],
    ['qwen', 'PreToolUse'],
  ] as const) {
    const r = user(
      `AVP_DISABLE=1 AVP_DISABLED_VALIDATORS=no-secrets /etc/avp/bin/avp hook --agent ${agent}`,
      keyWrite(e, event),
    );
    expect({ agent, denied: /"deny"/.test(r.stdout) || r.code === 2 }).toEqual({ agent, denied: true });
  }

  // The administrator undoes it: each file byte for byte as it was.
  const undo = inNamespace(e, '"$AVP" deinit --managed --agent gemini,qwen');
  expect(undo.code).toBe(0);
  expect(systemFile(e, '/etc/gemini-cli/settings.json')).toBe(GEMINI_ADMIN);
  expect(systemFile(e, '/etc/qwen-code/settings.json')).toBe(QWEN_ADMIN);

  // Where no file was: init creates it (root's, 0644), deinit removes it and the folder it made.
  rmSync(join(e.etc, 'gemini-cli'), { recursive: true });
  rmSync(join(e.etc, 'qwen-code'), { recursive: true });
  expect(inNamespace(e, '"$AVP" init --managed --no-validators').code).toBe(0);
  expect(inNamespace(e, 'stat -c "%U %a" /etc/gemini-cli/settings.json /etc/qwen-code/settings.json').stdout).toBe(
    'root 644\nroot 644\n',
  );
  // `avp doctor`, as the user, sees the managed hooks (not "no hook installed").
  const doctor = user('/etc/avp/bin/avp doctor');
  for (const file of [
    '/etc/claude-code/managed-settings.d/avp.json',
    '/etc/codex/requirements.toml',
    '/etc/gemini-cli/settings.json',
    '/etc/qwen-code/settings.json',
    '/etc/github-copilot/policy.d/avp.json',
  ])
    expect({ file, listed: doctor.stdout.includes(file) }).toEqual({ file, listed: true });
  expect(doctor.stdout).not.toContain('no hook installed');
  expect(doctor.stdout).not.toContain('may not run it');
  expect(inNamespace(e, '"$AVP" deinit --managed').code).toBe(0);
  expect(
    inNamespace(e, 'ls -d /etc/gemini-cli /etc/qwen-code /etc/claude-code/managed-settings.d/avp.json').code,
  ).not.toBe(0);
}
