/**
 * A script validator's `scripts/` key (`Validator.scripts`): taken when it is loaded, equal to the key the build
 * gives the catalog's copy (so an unmodified install finds its built-in `validate`), absent without a script, and
 * different as soon as anything in `scripts/` is.
 */
import { describe, expect, test } from 'bun:test';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadValidatorsAt } from '../../../src/validator/load.ts';
import { scriptsDirHash } from '../../../src/validator/scripts-hash.ts';
import { builtinValidate } from '../../../src/judges/builtin-script.ts';
import { CATALOG } from '../../catalog/corpus.ts';
import { tree } from './helpers.ts';

const loadOne = async (dir: string) => (await loadValidatorsAt(dir, 'project')).validators[0]!;

describe("a script validator's scripts/ key", () => {
  test('an unmodified catalog copy carries the catalog key, which finds its built-in validate', async () => {
    const dir = join(tree(), 'no-secrets');
    cpSync(join(CATALOG, 'no-secrets'), dir, { recursive: true });
    const v = await loadOne(dir);
    expect(v.scripts).toBe(scriptsDirHash(join(CATALOG, 'no-secrets/scripts'))!);
    expect(typeof (await builtinValidate(dir, v.spec.script!, v.scripts))).toBe('function');
  });

  test('one more file in scripts/ is another key, which finds no built-in validate', async () => {
    const dir = join(tree(), 'no-secrets');
    cpSync(join(CATALOG, 'no-secrets'), dir, { recursive: true });
    writeFileSync(join(dir, 'scripts/extra.ts'), 'export {};\n');
    const v = await loadOne(dir);
    expect(v.scripts).toBe(scriptsDirHash(join(dir, 'scripts'))!);
    expect(v.scripts).not.toBe(scriptsDirHash(join(CATALOG, 'no-secrets/scripts'))!);
    expect(await builtinValidate(dir, v.spec.script!, v.scripts)).toBeUndefined();
  });

  test('a validator without a script has none', async () => {
    const v = await loadOne(join(CATALOG, 'code-quality'));
    expect(v.spec.script).toBeUndefined();
    expect(v).not.toHaveProperty('scripts');
  });
});
