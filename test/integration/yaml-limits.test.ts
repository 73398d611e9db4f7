/**
 * A YAML alias bomb in a validator's frontmatter, through the real binary: the hook answers at once with a validator
 * error naming it, and `avp lint` fails at the alias line. (The registry's 422 is in registry-server-hostile.)
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { runAvp } from '../support/run-avp.ts';
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
