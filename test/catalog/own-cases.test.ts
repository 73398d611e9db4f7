/**
 * The catalog's validators carry their own cases (validators/<name>/tests/): `avp test validators/` from the clone
 * runs every one through the binary, and every rule a script validator names in its cases is caught at least once.
 * The embedded catalog leaves tests/ out (an installed no-secrets would otherwise bring sample keys into projects).
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runAvp } from '../support/run-avp.ts';

const ROOT = resolve(import.meta.dir, '../..');
const withTests = readdirSync(join(ROOT, 'validators'))
  .filter((n) => existsSync(join(ROOT, 'validators', n, 'tests')))
  .sort();

describe('the catalog carries its cases', () => {
  test('every script validator of the catalog has cases, and avp test validators/ passes them all', async () => {
    expect(withTests).toEqual([
      'dangerous-commands',
      'no-debug-leftovers',
      'no-secrets',
      'no-secrets-before',
      'protected-files',
    ]);
    const r = await runAvp(['test', 'validators/', '--json'], { cwd: ROOT, timeoutMs: 120_000 });
    const json = JSON.parse(r.stdout);
    expect(r.code).toBe(0);
    expect(json.ok).toBe(true);
    for (const v of json.validators.filter((x: { noTests?: boolean }) => !x.noTests)) {
      // Positives and negatives, and no rule only ever expected and never caught.
      const rules = v.rules as Array<{ rule: string; cases: number; passed: number }>;
      expect(rules.some((x) => x.rule === '(must pass)' && x.cases >= 3)).toBe(true);
      expect(rules.filter((x) => x.rule !== '(must pass)').length).toBeGreaterThan(0);
      expect(v.cases.length).toBeGreaterThanOrEqual(20);
    }
  });

  test('avp add catalog:no-secrets installs no tests/ folder', async () => {
    const project = mkdtempSync(join(tmpdir(), 'avp-own-cases-'));
    mkdirSync(join(project, '.git'));
    const r = await runAvp(['add', 'catalog:no-secrets'], { cwd: project, env: { CLAUDE_PROJECT_DIR: project } });
    expect(r.code).toBe(0);
    const installed = /→ (\S+)/.exec(r.stderr)![1]!;
    expect(existsSync(join(installed, 'scripts/check.ts'))).toBe(true);
    expect(existsSync(join(installed, 'tests'))).toBe(false);
  });
});
