/**
 * The keys `avp init --managed` sets in an agent's system settings, and how they come out again: every other byte
 * stays, a list avp adds to keeps the admin's entries (or the agent's defaults when the key was absent), and a
 * switch the admin already took out by hand leaves the file alone.
 */
import { describe, expect, test } from 'bun:test';
import { parse } from 'jsonc-parser';
import { restoreSwitches, setSwitches } from '../../../src/agent-setup/managed-switches.ts';
import type { Switch, SwitchRecord } from '../../../src/agent-setup/managed-switches.ts';

const LIST: Switch = { key: ['advanced', 'excludedEnvVars'], value: ['SAFE', 'SIMPLE'], addTo: ['DEBUG'] };
const OFF: Switch = { key: ['disableAllHooks'], value: false };

describe('setSwitches / restoreSwitches', () => {
  test("a list is added to the admin's entries, each once; restoring gives the file back byte for byte", () => {
    const admin =
      '{\n  // the admin\'s\n  "advanced": { "excludedEnvVars": ["FOO", "SAFE"] },\n  "disableAllHooks": true\n}\n';
    const record: SwitchRecord[] = [];
    const text = setSwitches(admin, [OFF, LIST], record);
    const value = parse(text) as any;
    expect(value.advanced.excludedEnvVars).toEqual(['FOO', 'SAFE', 'SIMPLE']);
    expect(value.disableAllHooks).toBe(false);
    expect(text).toContain("// the admin's");
    expect(setSwitches(text, [OFF, LIST])).toBe(text); // a second run changes nothing
    expect(restoreSwitches(text, record)).toBe(admin);
  });

  test("an absent list starts from the agent's defaults, and goes again", () => {
    const admin = '{\n  "model": { "name": "m" }\n}\n';
    const record: SwitchRecord[] = [];
    const text = setSwitches(admin, [LIST], record);
    expect((parse(text) as any).advanced.excludedEnvVars).toEqual(['DEBUG', 'SAFE', 'SIMPLE']);
    expect(restoreSwitches(text, record)).toBe(admin);
  });

  test('a switch the admin took out by hand: restoring leaves the rest of the file as it is', () => {
    const admin = '{\n  "model": { "name": "m" }\n}\n';
    const record: SwitchRecord[] = [];
    setSwitches(admin, [OFF], record);
    expect(record).toEqual([{ added: ['disableAllHooks'] }]);
    expect(restoreSwitches(admin, record)).toBe(admin);
  });
});
