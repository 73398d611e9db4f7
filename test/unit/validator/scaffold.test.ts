/** `avp new`'s library: every trigger × form produces a validator that loads without errors or warnings. */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { scaffoldValidator } from '../../../src/validator/scaffold.ts';
import { loadValidatorsAt } from '../../../src/validator/load.ts';
import { TRIGGERS } from '../../../src/validator/types.ts';
import { tree } from './helpers.ts';

describe('scaffoldValidator', () => {
  for (const form of ['file', 'directory', 'ruleset'] as const) {
    test(`${form}: all 13 triggers load cleanly with the requested severity`, async () => {
      const root = tree();
      for (const [i, trigger] of TRIGGERS.entries()) {
        const name = `v-${i}`;
        const made = await scaffoldValidator({ name, root, source: 'project', form, trigger, severity: 'info' });
        const r = await loadValidatorsAt(made.path, 'project');
        expect({ trigger, errors: r.errors, warnings: r.warnings }).toEqual({ trigger, errors: [], warnings: [] });
        expect(r.validators).toHaveLength(1);
        expect(r.validators[0]!.spec).toMatchObject({ name, trigger, severity: 'info' });
        expect(r.validators[0]!.form).toBe(form);
      }
      // No staging folder is left behind.
      expect(readdirSync(root).filter((n) => n.startsWith('.'))).toEqual([]);
    });
  }

  test('defaults: PostToolUse, warn, Write/Edit/MultiEdit', async () => {
    const root = tree();
    const made = await scaffoldValidator({ name: 'x', root, source: 'user', form: 'file' });
    const v = (await loadValidatorsAt(made.path, 'user')).validators[0]!;
    expect(v.spec).toMatchObject({
      trigger: 'PostToolUse',
      severity: 'warn',
      match: { tools: ['Write', 'Edit', 'MultiEdit'], files: ['**/*'] },
    });
    expect(made).toEqual({
      name: 'x',
      form: 'file',
      source: 'user',
      path: join(root, 'x.md'),
      files: [join(root, 'x.md')],
    });
  });

  test('bad inputs throw AvpErrors with codes and write nothing', async () => {
    const root = tree();
    const codes: string[] = [];
    for (const o of [{ name: 'a--b' }, { name: 'ok', trigger: 'Later' }, { name: 'ok', severity: 'fatal' }]) {
      try {
        await scaffoldValidator({ root, source: 'project', form: 'file', ...o });
      } catch (e) {
        codes.push((e as { code: string }).code);
      }
    }
    expect(codes).toEqual(['new-bad-name', 'new-bad-trigger', 'new-bad-severity']);
    expect(existsSync(join(root, 'ok.md'))).toBe(false);
  });
});
