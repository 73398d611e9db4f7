import { describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';

/**
 * How the reference's RuleSet formats load in avp (docs/format.md): what is unambiguous loads, with a warning that
 * says what avp chose; what is not is an error naming the difference and the fix.
 */

const FIXTURES = join(import.meta.dir, '../fixtures/registry-dialect');

async function lint(path: string) {
  const r = await runAvp(['lint', path, '--json']);
  return { code: r.code, ...(JSON.parse(r.stdout) as { errors: number; warnings: number; messages: any[] }) };
}

/** A project holding the given validator folders, and `avp list --json` of it. */
async function listed(dirs: Record<string, string>) {
  const project = tempDir('avp-dialect-');
  mkdirSync(join(project, '.git'));
  for (const [name, from] of Object.entries(dirs))
    cpSync(from, join(project, '.avp/validators', name), { recursive: true });
  const r = await runAvp(['list', '--json'], { cwd: project });
  return JSON.parse(r.stdout).validators as any[];
}

describe("the reference's RuleSet formats", () => {
  test('current format: severity and trigger left out load as warn / PostToolUse, with a warning each', async () => {
    const r = await lint(join(FIXTURES, 'current/code-quality'));
    expect(r.errors).toBe(0);
    const texts = r.messages.map((m) => m.message).join('\n');
    expect(texts).toContain('sets no `severity`');
    expect(texts).toContain('sets no `trigger`');
    const rules = await listed({ 'code-quality': join(FIXTURES, 'current/code-quality') });
    expect(rules.map((v) => [v.rule, v.severity, v.trigger])).toEqual([
      ['function-length', 'warn', 'PostToolUse'],
      ['missing-docs', 'error', 'PostToolUse'],
      ['no-commented-code', 'warn', 'PostToolUse'],
    ]);
  });

  test('legacy format: its own severity and overrides stand; case-only tool patterns are warned about', async () => {
    const r = await lint(join(FIXTURES, 'legacy/code-quality'));
    expect(r.errors).toBe(0);
    const tools = r.messages.filter((m) => m.message.includes('matches no tool name as written'));
    expect(tools.map((m) => m.line)).toEqual([8, 9]);
    const rules = await listed({ 'code-quality': join(FIXTURES, 'legacy/code-quality') });
    expect(rules.map((v) => [v.rule, v.severity, v.timeout])).toEqual([
      ['function-length', 'error', 30],
      ['no-magic-numbers', 'warn', 30],
    ]);
  });

  test('an unknown file group, a rule name used twice, a plain validator without severity: errors', async () => {
    const dir = join(tempDir('avp-dialect-bad-'), 'bad-set');
    mkdirSync(join(dir, 'rules/a'), { recursive: true });
    mkdirSync(join(dir, 'rules/b'), { recursive: true });
    writeFileSync(
      join(dir, 'VALIDATOR.md'),
      '---\nname: bad-set\ndescription: d\nmatch:\n  files:\n    - "@file_groups/docs"\n---\nbody\n',
    );
    writeFileSync(join(dir, 'rules/a/same.md'), 'one\n');
    writeFileSync(join(dir, 'rules/b/same.md'), 'two\n');
    const r = await lint(dir);
    expect(r.code).toBe(1);
    const errors = r.messages.filter((m) => m.level === 'error');
    expect(errors.find((m) => m.message.includes('@file_groups/docs'))).toMatchObject({ line: 6 });
    expect(errors.find((m) => m.message.includes('used twice'))?.path).toContain('rules/b/same.md');
    // Outside a RuleSet, AVP 1.0 requires severity and trigger: the reference's defaults do not apply.
    const single = join(tempDir('avp-dialect-single-'), 'plain.md');
    writeFileSync(single, '---\nname: plain\ndescription: d\n---\nbody\n');
    const s = await lint(single);
    expect(s.code).toBe(1);
    expect(s.messages.map((m) => m.message)).toContain('missing required key `severity`');
  });
});
