/** Frontmatter YAML is bounded: size, alias count and alias expansion, each refused at a line with a fix. */
import { describe, expect, test } from 'bun:test';
import { YAML_LIMITS, isProblem, parseFrontmatter, type Problem } from '../../../src/validator/frontmatter.ts';
import { parseFrontmatter as parseManifestFrontmatter } from '../../../src/registry-client/manifest.ts';
import { BOMB_ALIAS_LINE, bombValidatorMd } from '../../support/yaml-bomb.ts';

const asProblem = (text: string): Problem => {
  const r = parseFrontmatter(text);
  if (!isProblem(r)) throw new Error(`expected a problem, parsed ${JSON.stringify(r.data).slice(0, 100)}`);
  return r;
};

describe('YAML limits', () => {
  test('a billion-laughs bomb (< 500 bytes) is refused at its first alias, without expanding it', () => {
    const text = bombValidatorMd('bomb');
    expect(text.length).toBeLessThan(500);
    const p = asProblem(text);
    expect(p).toMatchObject({ line: BOMB_ALIAS_LINE, column: 8, level: 'error' });
    expect(p.message).toMatch(/expands to more than 10000 values .*alias bomb/);
  });

  test('a wide bomb made of many aliases is refused at the alias past the limit', () => {
    const items = Array.from({ length: 150 }, () => '  - *x').join('\n');
    const p = asProblem(`---\nname: n\nx: &x [1, 2]\nlist:\n${items}\n---\n`);
    expect(p.message).toMatch(/more than 100 YAML aliases/);
    expect(p.line).toBe(5 + YAML_LIMITS.aliases);
    expect(p.column).toBe(5);
  });

  test('frontmatter past 64 KiB is refused at its first line, before parsing', () => {
    const p = asProblem(`---\nname: n\ndescription: "${'x'.repeat(70 * 1024)}"\n---\nbody\n`);
    expect(p).toMatchObject({ line: 2, column: 1 });
    expect(p.message).toMatch(/frontmatter is 71 KiB; the limit is 64 KiB/);
  });

  test('nesting past 64 levels is refused', () => {
    const p = asProblem(`---\nname: n\ndeep: ${'['.repeat(70)}1${']'.repeat(70)}\n---\n`);
    expect(p.message).toMatch(/nests deeper than 64 levels/);
  });

  test('past 4 KiB, the token pass counts values, not keys: 6,000 keys with their values parse', () => {
    const keys = Array.from({ length: 6000 }, (_, i) => `  k${i}: v`).join('\n');
    const r = parseFrontmatter(`---\nname: n\nmetadata:\n${keys}\n---\n`);
    if (isProblem(r)) throw new Error(r.message);
    expect(Object.keys(r.data.metadata as object)).toHaveLength(6000);
    const p = asProblem(`---\nname: n\ntags: [${'a, '.repeat(10_000)}a]\n---\n`);
    expect(p).toMatchObject({ line: 3, column: 8 + 3 * (10_000 - 1) });
    expect(p.message).toBe('frontmatter YAML expands to more than 10000 values');
  });

  test('ordinary anchors, and stars that are not aliases, still parse', () => {
    const r = parseFrontmatter(
      '---\nname: x\ntags: &t [a, b]\nother: *t\nq: "*not"\ns: \'*no\'\nglob: src/**/*.ts\nr: |\n  *text\n# *c\n---\n',
    );
    if (isProblem(r)) throw new Error(r.message);
    expect(r.data).toEqual({
      name: 'x',
      tags: ['a', 'b'],
      other: ['a', 'b'],
      q: '*not',
      s: '*no',
      glob: 'src/**/*.ts',
      r: '*text\n',
    });
  });

  test('the registry manifest reader (publish, install, uploads) applies the same limits', async () => {
    const err = await parseManifestFrontmatter(bombValidatorMd('bomb'), 'bomb/VALIDATOR.md').catch((e) => e);
    expect(err).toMatchObject({ code: 'frontmatter-invalid', line: BOMB_ALIAS_LINE });
    expect(String(err.message)).toMatch(/bomb\/VALIDATOR\.md:5: .*alias bomb/);
  });
});
