/**
 * The switches Gemini CLI and Qwen Code have beside their hook entries, as an agent that wants avp off would use
 * them (checked with the real CLIs: Gemini 0.61 skips a hook whose command is listed in `hooksConfig.disabled`, the
 * system settings' too; Qwen 0.24 runs no hook at all, the system settings' too, with `QWEN_CODE_SAFE_MODE` or
 * `QWEN_CODE_SIMPLE` in its settings' `env`). Through the compiled binary, no validator installed:
 *
 * - a file-tool write of Qwen's settings setting those names in `env` is refused (other `env` entries pass);
 * - a `hooksConfig.disabled` naming avp's hook, written on disk behind avp's back, is said by the next hook call as
 *   hooks switched off, not as a harmless change.
 *
 * Before: the `env` write passed, and the disabled list was not announced at all.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp } from '../support/run-avp.ts';
import { BIN, project } from './hook-support.ts';

async function initProject(agent: 'gemini' | 'qwen') {
  const p = project({ acceptFirst: false, agent });
  const env = { HOME: p.home, AVP_HOME: join(p.home, '.avp'), PATH: '/usr/bin:/bin' };
  expect((await runAvp(['init', '--agent', agent, '--no-validators'], { bin: BIN, cwd: p.root, env })).code).toBe(0);
  return { p, env };
}

describe("Qwen Code's settings env", () => {
  test('QWEN_CODE_SAFE_MODE / QWEN_CODE_SIMPLE in env are refused; other env entries pass', async () => {
    const { p, env } = await initProject('qwen');
    const settings = join(p.root, '.qwen/settings.json');
    const current = JSON.parse(readFileSync(settings, 'utf8'));
    const write = (doc: unknown) =>
      p.hook(
        {
          session_id: 'q1',
          cwd: p.root,
          hook_event_name: 'PreToolUse',
          tool_name: 'write_file',
          tool_input: { file_path: settings, content: JSON.stringify(doc, null, 2) },
        },
        env,
      );
    const denied = (r: { json: any }) =>
      r.json?.hookSpecificOutput?.permissionDecision === 'deny' || r.json?.decision === 'deny';
    for (const name of ['QWEN_CODE_SAFE_MODE', 'QWEN_CODE_SIMPLE', 'QWEN_CODE_SYSTEM_SETTINGS_PATH']) {
      const r = await write({ ...current, env: { [name]: name.endsWith('PATH') ? '/tmp/s.json' : '1' } });
      expect({ name, denied: denied(r) }).toEqual({ name, denied: true });
      expect(JSON.stringify(r.json)).toContain(name);
    }
    expect(denied(await write({ ...current, env: { NODE_ENV: 'test' } }))).toBe(false);
  });
});

describe('a disabled list naming avp, written behind avp back', () => {
  test("Gemini CLI: the user's hooksConfig.disabled listing avp's hook is said as hooks switched off", async () => {
    const { p, env } = await initProject('gemini');
    const project = JSON.parse(readFileSync(join(p.root, '.gemini/settings.json'), 'utf8'));
    const command = project.hooks.BeforeTool[0].hooks[0].command as string;
    const call = () =>
      p.hook(
        { session_id: 'g1', cwd: p.root, hook_event_name: 'BeforeTool', tool_name: 'read_file', tool_input: {} },
        env,
      );
    expect((await call()).code).toBe(0); // the first call accepts the project as it is
    mkdirSync(join(p.home, '.gemini'), { recursive: true });
    writeFileSync(join(p.home, '.gemini/settings.json'), JSON.stringify({ ui: { theme: 'dark' } }));
    const calm = await call();
    expect(JSON.stringify(calm.json ?? {})).not.toContain('the hooks that call avp were changed');
    writeFileSync(
      join(p.home, '.gemini/settings.json'),
      JSON.stringify({ ui: { theme: 'dark' }, hooksConfig: { disabled: [command] } }),
    );
    const said = JSON.stringify((await call()).json ?? {});
    expect(said).toContain('the hooks that call avp were changed outside `avp init`');
    expect(said).toContain('hooksConfig.disabled');
  });
});
