/**
 * Catalog validators are installed alone, so code two of them share is carried as identical copies: the shell lexer
 * (dangerous-commands, protected-files), the added-lines reader (no-secrets, no-debug-leftovers) and the whole of
 * no-secrets' scripts/ and references/ (no-secrets-before: one set of rules, two triggers). Kept apart from the
 * behaviour tests so a mutation run, which changes one copy, is judged by behaviour and never by this comparison.
 */
import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dir, '../../validators');
const text = (validator: string, file: string) => readFileSync(join(root, validator, file), 'utf8');

test('the shell lexer is the same file in both validators that carry a copy', () => {
  expect(text('protected-files', 'scripts/shell.ts')).toBe(text('dangerous-commands', 'scripts/shell.ts'));
});

test('the shared added-lines.ts is the same file in every validator that carries a copy', () => {
  for (const v of ['no-debug-leftovers', 'no-secrets-before'])
    expect({ v, same: text(v, 'scripts/added-lines.ts') === text('no-secrets', 'scripts/added-lines.ts') }).toEqual({
      v,
      same: true,
    });
});

test('no-secrets-before carries the same scripts/ and references/ as no-secrets (one set of rules, two triggers)', () => {
  for (const sub of ['scripts', 'references']) {
    const names = readdirSync(join(root, 'no-secrets', sub)).sort();
    expect(readdirSync(join(root, 'no-secrets-before', sub)).sort()).toEqual(names);
    for (const n of names) {
      const same = text('no-secrets-before', `${sub}/${n}`) === text('no-secrets', `${sub}/${n}`);
      expect({ n, same }).toEqual({ n, same: true });
    }
  }
});
