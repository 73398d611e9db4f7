import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import {
  installHooks,
  isAvpHookCommand,
  planInstall,
  planRemove,
  readSettings,
  removeHooks,
} from '../../../src/agent-setup/hook-settings.ts';
import { isAvpError } from '../../../src/errors.ts';
import { tempProject } from './helpers.ts';

const CMD = '/opt/avp/bin/avp hook --agent claude';
const EVENTS = ['PreToolUse', 'PostToolUse', 'Stop'];

function file(root: string, text?: string): string {
  const p = join(root, '.claude', 'settings.json');
  if (text !== undefined) {
    mkdirSync(join(root, '.claude'), { recursive: true });
    writeFileSync(p, text);
  }
  return p;
}

const USER_SETTINGS = `{
    // the team's model
    "model": "opus",
    "permissions": { "allow": ["Bash(npm test)"], },
    "hooks": {
        "PostToolUse": [
            { "matcher": "Write|Edit", "hooks": [{ "type": "command", "command": "prettier --write \\"$FILE\\"" }] }
        ]
    }
}
`;

describe('settings merge', () => {
  test('creates the file with one matcher-less group per event', () => {
    const p = file(tempProject());
    const r = installHooks(p, CMD, 120, EVENTS);
    expect(r).toMatchObject({ created: true, changed: true, added: EVENTS });
    const v = JSON.parse(readFileSync(p, 'utf8'));
    for (const e of EVENTS) expect(v.hooks[e]).toEqual([{ hooks: [{ type: 'command', command: CMD, timeout: 120 }] }]);
  });

  test('keeps comments, other keys and other hooks; idempotent; deinit gives back the original bytes', () => {
    const p = file(tempProject(), USER_SETTINGS);
    installHooks(p, CMD, 120, EVENTS);
    const once = readFileSync(p, 'utf8');
    expect(once).toContain("// the team's model");
    const v = parse(once, [], { allowTrailingComma: true });
    expect(v.model).toBe('opus');
    expect(v.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(v.hooks.PostToolUse).toHaveLength(2);
    expect(v.hooks.PostToolUse[0].matcher).toBe('Write|Edit');
    expect(v.hooks.PostToolUse[1].hooks[0].command).toBe(CMD);
    expect(once).toContain('\n        "PreToolUse": [\n'); // the file's 4-space indent is kept
    // second run: nothing to do, byte-identical
    expect(installHooks(p, CMD, 120, EVENTS).changed).toBe(false);
    expect(readFileSync(p, 'utf8')).toBe(once);
    // deinit: only avp's entries go
    const r = removeHooks(p);
    expect(r.removed.sort()).toEqual([...EVENTS].sort());
    expect(readFileSync(p, 'utf8')).toBe(USER_SETTINGS);
  });

  test("a moved binary or a new timeout updates avp's entry in place instead of adding a second one", () => {
    const p = file(tempProject());
    installHooks(p, '/old/place/avp hook --agent claude', 60, EVENTS);
    const r = installHooks(p, CMD, 120, EVENTS);
    expect(r.updated).toEqual(EVENTS);
    expect(r.added).toEqual([]);
    const v = JSON.parse(readFileSync(p, 'utf8'));
    expect(v.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: CMD, timeout: 120 }] }]);
  });

  test("avp sharing a group with another hook: deinit removes only avp's hook", () => {
    const text = JSON.stringify(
      {
        hooks: {
          Stop: [
            {
              hooks: [
                { type: 'command', command: 'notify-send done' },
                { type: 'command', command: `${CMD}`, timeout: 120 },
              ],
            },
          ],
        },
      },
      null,
      2,
    );
    const p = file(tempProject(), text);
    removeHooks(p);
    expect(JSON.parse(readFileSync(p, 'utf8'))).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] },
    });
  });

  test('a file that does not parse is refused with file:line:column and left untouched', () => {
    const bad = '{\n  "model": "opus"\n  "hooks": {}\n}\n';
    const p = file(tempProject(), bad);
    try {
      installHooks(p, CMD, 120, EVENTS);
      throw new Error('expected a refusal');
    } catch (e) {
      expect(isAvpError(e)).toBe(true);
      const err = e as import('../../../src/errors.ts').AvpError;
      expect(err.code).toBe('settings-invalid');
      expect(err.file).toBe(p);
      expect(err.line).toBe(3);
      expect(err.describe()).toContain(`${p}:3:3`);
    }
    expect(readFileSync(p, 'utf8')).toBe(bad);
    for (const notObject of ['[]', '"x"', '{"hooks": []}']) {
      expect(() => readSettings(file(tempProject(), notObject))).toThrow(/avp did not change it/);
    }
  });

  test("recognizes avp's commands, not others that mention avp", () => {
    expect(isAvpHookCommand(CMD)).toBe(true);
    expect(isAvpHookCommand("'/home/me/my tools/avp' hook --agent claude")).toBe(true);
    expect(isAvpHookCommand('avp hook')).toBe(true);
    expect(isAvpHookCommand('/usr/bin/bun /src/avp/src/cli.ts hook --agent claude')).toBe(true);
    expect(isAvpHookCommand('C:\\tools\\avp.exe hook --agent claude')).toBe(true);
    expect(isAvpHookCommand('echo avp is great')).toBe(false);
    expect(isAvpHookCommand('./scripts/avp-report.sh')).toBe(false);
    expect(isAvpHookCommand('git hook avp')).toBe(false);
    expect(isAvpHookCommand(42)).toBe(false);
  });

  test('plans are pure: an empty file, trailing commas, CRLF', () => {
    const crlf = '{\r\n  "a": 1,\r\n}\r\n';
    const plan = planInstall({ path: 'x', text: crlf, exists: true, value: { a: 1 } }, CMD, 120, ['Stop']);
    expect(plan.text).toContain('\r\n    "Stop": [');
    expect(planRemove({ path: 'x', text: plan.text, exists: true, value: {} }).text).toBe(crlf);
  });
});
