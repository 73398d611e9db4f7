/**
 * protected-files compiles a pattern's expression only when a path contains the glob's required text
 * (validators/protected-files/scripts/globs.ts). That shortcut must never change an answer: here it is held to the
 * compiled expression over the catalog's own list and tricky globs, against paths that match, nearly match and fold
 * case, in both case modes — a required text cut too long (the slash of `**\/`, a set's contents) or a fold that
 * differs from the `i` flag's would show as a difference.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { globSource, lazyGlobTest, requiredText } from '../../validators/protected-files/scripts/globs.ts';

const LIST = resolve(import.meta.dir, '../../validators/protected-files/references/protected.txt');
const catalogGlobs = readFileSync(LIST, 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'))
  .map((l) =>
    l
      .replace(/^!/, '')
      .replace(/\s+\[credentials\]$/, '')
      .replace(/^~\//, '')
      .replace(/^\//, ''),
  )
  .map((g) => g.replace(/\/$/, ''));
const tricky = [
  '**/.env',
  '**',
  '*',
  'a**b',
  '.ssh/id_*',
  '*.{pem,key}',
  '{a,b}x{',
  'conf{a,b',
  'keys[1',
  '[ab]x',
  'x[a-',
  'σ.txt',
  'straße/*.cfg',
  'K.pem',
  'a+b.(x)',
  'v]1 w}2',
  'dir/**/deep',
];
const paths = [
  '.env',
  'src/.env',
  'a/b/.env.local',
  '.ENV',
  'SRC/.Env',
  '.ssh/id_rsa',
  '.SSH/ID_RSA',
  'home/.ssh/id_ed25519',
  'x.pem',
  'deep/x.KEY',
  'ax{',
  'conf{a,b',
  'CONF{A,B',
  'keys[1',
  'ax',
  'bx',
  'x[a-',
  'ς.TXT',
  'Σ.txt',
  'STRASSE/x.cfg',
  'straße/x.cfg',
  'K.pem',
  'k.PEM',
  'a+b.(x)',
  'v]1 w}2',
  'dir/a/b/deep',
  'dir/deep',
  'İ/.env',
  '',
  'a\nb/.env',
];
const sources = (glob: string) => [`(?:^|/)${globSource(glob)}$`, `^${globSource(glob)}$`, `^${globSource(glob)}/`];

describe('a pattern compiled only when a path could match it', () => {
  test("the required text: runs of literal characters, ended by wildcards, closed sets and braces, and **/'s slash", () => {
    expect(requiredText('**/.env')).toBe('.env');
    expect(requiredText('.ssh/id_*')).toBe('.ssh/id_');
    expect(requiredText('secrets/**')).toBe('secrets/');
    expect(requiredText('*.{pem,key}')).toBe('.');
    expect(requiredText('[ab]x')).toBe('x');
    expect(requiredText('*')).toBe('');
    expect(requiredText('conf{a,b')).toBe('conf{a,b');
  });

  test('a path without the required text is answered without making the expression, in both case modes', () => {
    let made = 0;
    const source = () => (made++, `(?:^|/)${globSource('.ssh/id_*')}$`);
    const test = lazyGlobTest('.ssh/id_*', source);
    expect([test('src/app.ts'), test('SRC/APP.TS', true), test('.ssh/known_hosts', true)]).toEqual([
      false,
      false,
      false,
    ]);
    expect(made).toBe(0);
    expect([test('.ssh/id_rsa'), test('.SSH/ID_RSA', true)]).toEqual([true, true]);
    expect(made).toBe(2);
    // A run of other than ASCII characters is not used to rule out a case-folded path: the expression decides.
    const sigma = lazyGlobTest('σ.txt', () => (made++, `^${globSource('σ.txt')}$`));
    expect([sigma('ς.TXT', true), sigma('x.txt')]).toEqual([true, false]);
    expect(made).toBe(3);
  });

  test('answers exactly as the compiled expression, for every glob, path and case mode', () => {
    const globs = [...new Set([...catalogGlobs, ...tricky])];
    expect(globs.length).toBeGreaterThan(100);
    let compared = 0;
    let hits = 0;
    const differ: string[] = [];
    for (const glob of globs)
      for (const source of sources(glob)) {
        let exact: RegExp;
        try {
          exact = new RegExp(source);
        } catch {
          continue; // refused when the list is parsed
        }
        const caseless = new RegExp(source, 'i');
        const lazy = lazyGlobTest(glob, () => source);
        for (const path of [...paths, ...paths.map((p) => `nested/${p}`)])
          for (const nocase of [false, true]) {
            const want = (nocase ? caseless : exact).test(path);
            if (lazy(path, nocase) !== want) differ.push(`${glob} ${source} ${JSON.stringify(path)} nocase=${nocase}`);
            compared++;
            if (want) hits++;
          }
      }
    expect(differ).toEqual([]);
    // The comparison is not vacuous: many pairs match, in both case modes.
    expect(compared).toBeGreaterThan(10_000);
    expect(hits).toBeGreaterThan(200);
  });
});
