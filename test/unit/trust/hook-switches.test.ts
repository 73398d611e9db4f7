/**
 * The parts of an agent's settings that decide whether avp's hooks run (hook-switches.ts): the rows the guard and
 * the accepted state compare, the reason a user is told when a file switches avp off, and what counts as no change.
 * Each way of switching avp off beside its harmless twin.
 */
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSwitchChange, hookSwitches, hooksOff, hooksOffReason } from '../../../src/trust/hook-switches.ts';

const dir = mkdtempSync(join(tmpdir(), 'avp-switches-'));
const AVP = { type: 'command', command: 'avp hook' };
const settings = (value: unknown) => JSON.stringify(value);
const claude = (extra: Record<string, unknown> = {}) =>
  settings({ hooks: { PreToolUse: [{ matcher: '*', hooks: [AVP] }] }, ...extra });

function file(name: string, text: string): { path: string } {
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path };
}

describe('hookSwitches: the rows that decide whether hooks run', () => {
  test("avp's entries with where they sit and their type; other agents' commands are not rows", () => {
    const text = settings({
      hooks: {
        PreToolUse: [{ matcher: '*', hooks: [AVP, { type: 'command', command: 'prettier --write' }] }],
        Stop: [{ hooks: [{ type: 'prompt', command: 'avp hook' }] }],
      },
    });
    expect(hookSwitches('settings.json', text).split('\n')).toEqual([
      'entry hooks.PreToolUse type=command',
      'entry hooks.Stop type=prompt',
    ]);
  });

  test('a flat entry list (no groups), and the bash/powershell fields Copilot uses', () => {
    const text = settings({ hooks: { preToolUse: [{ bash: 'avp hook --agent copilot' }, { powershell: 'x' }] } });
    expect(hookSwitches('hooks.json', text)).toBe('entry hooks.preToolUse type=undefined');
  });

  test('hook-named keys and everything under them, enabledPlugins at the top only, env names that reroute avp', () => {
    const text = settings({
      disableAllHooks: false,
      hooksConfig: { enabled: true, disabled: ['x'] },
      enabledPlugins: { 'avp@avp': true },
      nested: { enabledPlugins: { 'avp@avp': false } },
      env: { AVP_DISABLE: '1', PATH: '/x', EDITOR: 'vi' },
      other: { env: { HOME: '/h' } },
      theme: 'dark',
    });
    expect(hookSwitches('settings.json', text).split('\n')).toEqual([
      'disableAllHooks=false',
      'enabledPlugins.avp@avp=true',
      'env env.AVP_DISABLE=1',
      'env env.PATH=/x',
      'env other.env.HOME=/h',
      'hooksConfig.disabled=["x"]',
      'hooksConfig.enabled=true',
    ]);
  });

  test('null and nested lists are values, lists mixing groups and values are groups, env under a hook key is a row', () => {
    expect(hookSwitches('settings.json', settings({ disableAllHooks: null, hooks: null }))).toBe(
      'disableAllHooks=null\nhooks=null',
    );
    expect(hookSwitches('settings.json', settings({ hooks: { Stop: [[AVP]] } }))).toBe(
      'hooks.Stop=[[{"type":"command","command":"avp hook"}]]',
    );
    expect(hookSwitches('settings.json', settings({ hooks: { Stop: [{ hooks: [AVP] }, 'x'] } }))).toBe(
      'entry hooks.Stop type=command',
    );
    expect(hookSwitches('settings.json', settings({ permissions: { allow: ['Bash'] }, env: 'x' }))).toBe('');
    expect(hookSwitches('settings.json', settings({ hooksConfig: { env: 'AVP' } }))).toBe('hooksConfig.env="AVP"');
  });

  test('six levels deep are read, the seventh is not', () => {
    expect(hookSwitches('settings.json', settings({ hooks: { a: { b: { c: { d: { e: 1 } } } } } }))).toBe(
      'hooks.a.b.c.d.e=1',
    );
  });

  test('a value nested past six levels is not read; comments in JSON are; empty text has no rows', () => {
    const deep = { hooks: { a: { b: { c: { d: { e: { f: { g: 1 } } } } } } } };
    expect(hookSwitches('settings.json', settings(deep))).toBe('');
    expect(hookSwitches('settings.json', '// c\n{"disableAllHooks": true}')).toBe('disableAllHooks=true');
    expect(hookSwitches('settings.json', '')).toBe('');
    expect(hookSwitches('settings.json', null)).toBe('');
  });

  test("Codex's config.toml: hook lines, tables, env and AVP_ lines, comments dropped", () => {
    const toml =
      '# hooks off?\n[features]\ncodex_hooks = true # on\nmodel = "x"\nenv = { A = "1" }\nX = "AVP_DISABLE"\n';
    expect(hookSwitches('config.toml', toml).split('\n')).toEqual([
      '[features]',
      'codex_hooks = true',
      'env = { A = "1" }',
      'X = "AVP_DISABLE"',
    ]);
  });
});

describe('describeSwitchChange', () => {
  test('the first row added, else the first removed, else a change in how they run', () => {
    expect(describeSwitchChange('a=1', 'a=1\nb=2')).toBe('sets b=2');
    expect(describeSwitchChange('a=1\nb=2', 'a=1')).toBe('removes b=2');
    expect(describeSwitchChange('a=1', 'a=1')).toBe('changes how its hooks run');
    expect(describeSwitchChange('', 'a=1')).toBe('sets a=1');
  });
});

describe('hooksOffReason: what switches avp off, beside what does not', () => {
  const off: [string, string][] = [
    [claude({ disableAllHooks: true }), 'disableAllHooks=true'],
    [claude({ allowManagedHooksOnly: true }), 'allowManagedHooksOnly=true'],
    [settings({ hooksConfig: { enabled: false } }), 'hooksConfig.enabled=false'],
    [claude({ env: { AVP_DISABLE: '1' } }), 'env env.AVP_DISABLE=1'],
    [claude({ env: { AVP_SUBAGENT: 'yes' } }), 'env env.AVP_SUBAGENT=yes'],
    [claude({ env: { QWEN_CODE_SAFE_MODE: 'true' } }), 'env env.QWEN_CODE_SAFE_MODE=true'],
    [
      settings({ hooks: { Stop: [{ hooks: [{ type: 'prompt', command: 'avp hook' }] }] } }),
      'entry hooks.Stop type=prompt',
    ],
    [claude({ enabledPlugins: { 'avp@avp': false } }), 'enabledPlugins.avp@avp=false'],
    [
      settings({ hooksConfig: { disabled: ['avp hook --agent gemini'] } }),
      'hooksConfig.disabled=["avp hook --agent gemini"]',
    ],
    [settings({ hooksConfig: { disabled: ['prettier', 'avp hook'] } }), 'hooksConfig.disabled=["prettier","avp hook"]'],
  ];
  for (const [text, row] of off) test(`off: ${row}`, () => expect(hooksOffReason('settings.json', text)).toBe(row));

  const on = [
    claude({ disableAllHooks: false }),
    claude({ env: { AVP_DISABLE: '0' } }),
    claude({ env: { AVP_DISABLE: 'false' } }),
    claude({ env: { AVP_DISABLE: '' } }),
    claude({ env: { AVP_JUDGE: 'claude' } }),
    claude({ enabledPlugins: { 'avp@avp': true, 'other@x': false } }),
    settings({ hooksConfig: { disabled: ['prettier --write'] } }),
    settings({ hooksConfig: { disabled: 'avp hook' } }),
    claude(),
  ];
  for (const text of on) test(`on: ${text}`, () => expect(hooksOffReason('settings.json', text)).toBeUndefined());

  test("Codex's TOML switch", () => {
    expect(hooksOffReason('config.toml', '[features]\ncodex_hooks = false\n')).toBe('codex_hooks = false');
    expect(hooksOffReason('config.toml', '[features]\nhooks = false\n')).toBe('hooks = false');
    expect(hooksOffReason('config.toml', '[features]\ncodex_hooks = true\n')).toBeUndefined();
    expect(hooksOffReason('config.toml', '[features]\n   hooks = false   # indented\n')).toBe('hooks = false');
  });
});

describe('hooksOff: why the agent no longer runs avp, from the file as it is', () => {
  test('entries removed (news only when the file had them), moved out of "hooks", or switched off', () => {
    expect(hooksOff(file('removed.json', settings({ hooks: {} })), true)).toBe("avp's hook entries were removed");
    expect(hooksOff(file('never.json', settings({ hooks: {} })), false)).toBeUndefined();
    expect(hooksOff(file('never-off.json', settings({ disableAllHooks: true })))).toBe(
      'it now has disableAllHooks=true',
    );
    const moved = settings({ hooks: {}, PreToolUse: [{ hooks: [AVP] }] });
    expect(hooksOff(file('moved.json', moved), true)).toBe(
      'avp\'s hook entries were moved out of "hooks" (PreToolUse type=command)',
    );
    const buried = settings({ hooks: {}, disabled: { PreToolUse: [{ hooks: [AVP] }] } });
    expect(hooksOff(file('buried.json', buried), true)).toBe("avp's hook entries were removed");
    expect(hooksOff(file('env.json', claude({ env: { AVP_DISABLE: '1' } })), true)).toBe(
      'it now has env.AVP_DISABLE=1',
    );
    expect(hooksOff(file('fine.json', claude()), true)).toBeUndefined();
  });

  test("Factory Droid's hooks.json is keyed by event: its entries are where Droid runs them", () => {
    const droid = join(dir, 'proj', '.factory');
    Bun.spawnSync(['mkdir', '-p', droid]);
    const path = join(droid, 'hooks.json');
    writeFileSync(path, settings({ PreToolUse: [{ hooks: [AVP] }] }));
    expect(hooksOff({ path }, true)).toBeUndefined();
    const elsewhere = file('keyed.json', settings({ PreToolUse: [{ hooks: [AVP] }] }));
    expect(hooksOff(elsewhere, true)).toBe('avp\'s hook entries were moved out of "hooks" (PreToolUse type=command)');
  });

  test('a TOML file is never "entries removed"; an unreadable file or a pipe is reported, never waited on', () => {
    expect(hooksOff(file('config.toml', '[features]\ncodex_hooks = true\n'), true)).toBeUndefined();
    expect(hooksOff({ path: join(dir, 'missing.json') }, true)).toBe('the file cannot be read');
    const fifo = join(dir, 'fifo.json');
    expect(Bun.spawnSync(['mkfifo', fifo]).exitCode).toBe(0);
    expect(hooksOff({ path: fifo }, true)).toBe('the file cannot be read');
  });
});
