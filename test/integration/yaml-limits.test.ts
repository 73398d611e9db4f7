/**
 * Hostile frontmatter in a validator, through the real binary: a YAML alias bomb, 10 MB, deep nesting, too many
 * values, code-running tags, duplicate keys, JavaScript frontmatter. The hook answers with a validator error naming
 * each, and `avp lint` fails at its line. (The registry's 422 for a bomb is in registry-server-hostile.)
 */
import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp } from '../support/run-avp.ts';
import { hostileCases, PWNED } from '../support/hostile-frontmatter.ts';
import { BOMB_ALIAS_LINE, bombValidatorMd } from '../support/yaml-bomb.ts';
import { PASSES, project } from './hook-support.ts';

describe('YAML alias bomb in frontmatter', () => {
  test('a hook call answers with a validator error naming the bomb, without expanding it', async () => {
    const p = project();
    p.validator('healthy', {}, PASSES);
    p.write('.avp/validators/bomb/VALIDATOR.md', bombValidatorMd('bomb'));
    // Twice: the cold call parses, the warm one reads the parse cache; both must refuse.
    for (let i = 0; i < 2; i++) {
      const r = await p.hook(p.fixture('hook-input-PostToolUse-Write.json'));
      expect(r.code).toBe(0);
      expect(r.json.decision).toBe('block');
      const err = r.json.errors.find((e: any) => e.validator === 'bomb');
      expect(err?.cause).toMatch(/VALIDATOR\.md.*alias bomb/);
      // Generous: the unbounded expansion took many seconds and gigabytes; a bounded parse takes milliseconds.
      expect(r.ms).toBeLessThan(15_000);
    }
  });

  test('avp lint fails at the alias line with a fix', async () => {
    const p = project();
    p.write('.avp/validators/bomb/VALIDATOR.md', bombValidatorMd('bomb'));
    const r = await runAvp(['lint', join(p.root, '.avp/validators/bomb')], { cwd: p.root });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(
      new RegExp(`VALIDATOR\\.md:${BOMB_ALIAS_LINE}:8: error: frontmatter YAML expands to more than 10000 values`),
    );
    expect(r.stdout + r.stderr).toMatch(/fix: write the values out/);
  });
});

describe('hostile frontmatter', () => {
  test('avp lint refuses each at its line, with a fix, and runs nothing', async () => {
    const p = project();
    const cases = hostileCases(join(p.root, PWNED));
    for (const c of cases) p.write(`.avp/validators/${c.name}/VALIDATOR.md`, c.text);
    for (const c of cases) {
      const r = await runAvp(['lint', join(p.root, '.avp/validators', c.name)], { cwd: p.root });
      expect(r.code).toBe(1);
      const first = r.stdout.split('\n')[0]!;
      expect(first).toStartWith(`.avp/validators/${c.name}/VALIDATOR.md:${c.line}:${c.column}: error: `);
      expect(first).toMatch(c.message);
      expect(first).toContain('(fix: ');
    }
    expect(existsSync(join(p.root, PWNED))).toBe(false);
  });

  test('a hook call answers with one validator error per hostile validator; the healthy one still runs', async () => {
    const p = project();
    p.validator('healthy', {}, PASSES);
    const cases = hostileCases(join(p.root, PWNED));
    for (const c of cases) p.write(`.avp/validators/${c.name}/VALIDATOR.md`, c.text);
    // Twice: the cold call parses, the warm one reads the parse cache; both must refuse.
    for (let i = 0; i < 2; i++) {
      const r = await p.hook(p.fixture('hook-input-PostToolUse-Write.json'));
      expect(r.code).toBe(0);
      expect(r.json.decision).toBe('block');
      for (const c of cases) {
        const err = r.json.errors.find((e: any) => e.validator === c.name);
        expect(err?.cause).toMatch(new RegExp(`VALIDATOR\\.md:${c.line}\\b`));
        expect(err?.cause).toMatch(c.message);
      }
      expect(r.json.errors.map((e: any) => e.validator)).not.toContain('healthy');
    }
    expect(existsSync(join(p.root, PWNED))).toBe(false);
  });
});
