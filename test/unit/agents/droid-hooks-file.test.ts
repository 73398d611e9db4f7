/**
 * Factory Droid's `hooks.json` is keyed by event name at the top level (its own `/hooks` writes it so, and entries
 * under a `"hooks"` key there are never run): avp's install, removal, doctor and accepted state all read it so.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import droid from '../../../src/agents/droid/index.ts';
import { checkHookFile, installedEvents, installFor, removeFor } from '../../../src/agent-setup/hook-layouts.ts';
import { avpHookEntries } from '../../../src/trust/hook-entries.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function hooksFile(text?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'avp-droid-hooks-'));
  dirs.push(dir);
  mkdirSync(join(dir, '.factory'));
  const path = join(dir, '.factory', 'hooks.json');
  if (text !== undefined) writeFileSync(path, text);
  return path;
}
const CMD = 'avp hook --agent droid';
const read = (p: string) => JSON.parse(readFileSync(p, 'utf8'));

describe("avp's entries in Droid's hooks.json", () => {
  test('are written at the top level, one matcher group per event, never under "hooks"', () => {
    const path = hooksFile();
    const change = installFor(droid, path, CMD, 150, false);
    expect(change.added.sort()).toEqual([...droid.install.events].sort());
    const file = read(path);
    expect(file.hooks).toBeUndefined();
    expect(Object.keys(file).sort()).toEqual([...droid.install.events].sort());
    expect(file.PreToolUse).toEqual([{ hooks: [{ type: 'command', command: CMD, timeout: 150 }] }]);
    expect(installedEvents(droid, path)!.sort()).toEqual([...droid.install.events].sort());
  });

  test("keep the user's own hooks and bytes; a second install changes nothing; removal gives the file back", () => {
    const mine =
      '{\n  // mine\n  "PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": "mine"}]}]\n}\n';
    const path = hooksFile(mine);
    installFor(droid, path, CMD, 150, false);
    const once = readFileSync(path, 'utf8');
    expect(once).toContain('// mine');
    expect(JSON.parse(once.replace(/\/\/.*\n/, '')).PreToolUse).toHaveLength(2);
    expect(installFor(droid, path, CMD, 150, false).changed).toBe(false);
    const gone = removeFor(droid, path, false);
    expect(gone.removed.sort()).toEqual([...droid.install.events].sort());
    expect(readFileSync(path, 'utf8')).toBe(mine);
  });

  test('an emptied file goes (while it exists Droid ignores the hooks in settings.json)', () => {
    const path = hooksFile();
    installFor(droid, path, CMD, 150, false);
    removeFor(droid, path, false);
    expect(existsSync(path)).toBe(false);
  });

  test("an older avp's nested entries move to the top level, and removal finds them either way", () => {
    const nested = { hooks: { Stop: [{ hooks: [{ type: 'command', command: CMD, timeout: 150 }] }] } };
    const path = hooksFile(JSON.stringify(nested, null, 2));
    const change = installFor(droid, path, CMD, 150, false);
    expect(change.updated).toContain('Stop');
    const file = read(path);
    expect(file.hooks).toBeUndefined();
    expect(file.Stop).toEqual(nested.hooks.Stop);
    const only = hooksFile(JSON.stringify(nested));
    expect(removeFor(droid, only, false).removed).toEqual(['Stop']);
    expect(existsSync(only)).toBe(false);
  });

  test('creating hooks.json beside a settings.json that holds hooks is refused before anything changes', () => {
    const path = hooksFile();
    const settings = join(path, '..', 'settings.json');
    writeFileSync(settings, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'mine' }] }] } }));
    expect(() => checkHookFile(droid, path)).toThrow(/reads only while hooks\.json does not exist/);
    expect(existsSync(path)).toBe(false);
    writeFileSync(settings, JSON.stringify({ model: 'x' }));
    expect(() => checkHookFile(droid, path)).not.toThrow();
  });

  test('the accepted state sees top-level entries, so a changed avp entry there is announced', () => {
    const top = (command: string) => JSON.stringify({ Stop: [{ hooks: [{ type: 'command', command, timeout: 1 }] }] });
    expect(avpHookEntries(top(CMD))).toContain(CMD);
    expect(avpHookEntries(top('/tmp/evil/avp hook --agent droid'))).not.toBe(avpHookEntries(top(CMD)));
    expect(avpHookEntries(top('mine'))).toBe('');
  });
});
