/** The three forms (single file, directory, RuleSet), references, scripts and the content hash. */
import { describe, expect, test } from 'bun:test';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadValidatorsAt } from '../../../src/validator/load.ts';
import { md, tree, valid, write } from './helpers.ts';

const load = (p: string) => loadValidatorsAt(p, 'user');

describe('directory validators', () => {
  test('name/VALIDATOR.md with references/, scripts/ and assets/', async () => {
    const root = tree({
      'sql-injection/VALIDATOR.md':
        valid('sql-injection', { script: 'scripts/check.ts' }) + 'Use `references/patterns.md`.\n',
      'sql-injection/references/patterns.md': 'SELECT … + input',
      'sql-injection/references/deep/more.md': 'more',
      'sql-injection/scripts/check.ts': 'export {}',
      'sql-injection/assets/logo.txt': 'logo',
      'sql-injection/NOTES.md': 'not a validator',
    });
    const dir = join(root, 'sql-injection');
    for (const at of [dir, join(dir, 'VALIDATOR.md'), root]) {
      const r = await load(at);
      expect(r.errors).toEqual([]);
      expect(r.validators).toHaveLength(1);
      const v = r.validators[0]!;
      expect(v).toMatchObject({
        id: 'sql-injection',
        form: 'directory',
        source: 'user',
        dir,
        path: join(dir, 'VALIDATOR.md'),
      });
      expect(v.spec.script).toBe('scripts/check.ts');
      expect(v.references).toEqual([join(dir, 'references/deep/more.md'), join(dir, 'references/patterns.md')]);
    }
  });

  test('name must equal the directory name (error at the name line)', async () => {
    const root = tree({ 'sql/VALIDATOR.md': valid('sql-injection') });
    const r = await load(join(root, 'sql'));
    expect(r.validators).toEqual([]);
    expect(r.errors).toMatchObject([
      { line: 2, column: 7, message: 'name `sql-injection` does not match its directory sql/', name: 'sql-injection' },
    ]);
    expect(r.errors[0]!.fix).toContain('rename the directory to sql-injection/');
  });

  test('script must be inside scripts/ and exist', async () => {
    const root = tree({
      'a/VALIDATOR.md': valid('a', { script: 'check.ts' }),
      'a/check.ts': '',
      'b/VALIDATOR.md': valid('b', { script: 'scripts/missing.ts' }),
      'c/VALIDATOR.md': valid('c', { script: 'scripts/../../c.ts' }),
    });
    const r = await load(root);
    expect(r.validators).toEqual([]);
    expect(r.errors.map((e) => [e.name, e.line, e.message])).toEqual([
      ['a', 6, "`script` check.ts is not inside the validator's scripts/ folder"],
      ['b', 6, '`script` scripts/missing.ts does not exist'],
      ['c', 6, "`script` scripts/../../c.ts is not inside the validator's scripts/ folder"],
    ]);
  });
});

describe('references named in the body', () => {
  test('a missing references/ file is a load error at the line that names it', async () => {
    const root = tree({
      'v/VALIDATOR.md': valid('v', {}) + '\nIntro.\n\nSee `references/patterns.md` and references/other.md.\n',
      'v/references/other.md': 'x',
    });
    const r = await load(join(root, 'v'));
    expect(r.validators).toEqual([]);
    expect(r.errors).toMatchObject([
      {
        line: 13,
        column: 6,
        message: 'references/patterns.md is named in the prompt but does not exist',
        name: 'v',
        trigger: 'PostToolUse',
      },
    ]);
    expect(r.errors[0]!.fix).toBe(`create ${join(root, 'v/references/patterns.md')}, or remove the mention`);
  });

  test('relative markdown links must exist; external links, anchors and fenced code are ignored', async () => {
    const body = [
      '[guide](docs/guide.md) [web](https://example.com/x.md) [top](#rules) [mail](mailto:a@b.c)',
      '```',
      'import x from "./references/not-checked.md"',
      '[code](missing-in-code.md)',
      '```',
      '![img](assets/missing.png)',
    ].join('\n');
    const root = tree({ 'v/VALIDATOR.md': valid('v') + body, 'v/docs/guide.md': 'g' });
    const r = await load(join(root, 'v'));
    expect(r.errors.map((e) => [e.line, e.column, e.message])).toEqual([
      [15, 8, 'assets/missing.png is named in the prompt but does not exist'],
    ]);
  });

  test('a single-file validator may link files next to it; they become its references', async () => {
    const root = tree({ 'v.md': valid('v') + 'Read [policy](shared/policy.md).\n', 'shared/policy.md': 'p' });
    const r = await load(join(root, 'v.md'));
    expect(r.errors).toEqual([]);
    expect(r.validators[0]!.references).toEqual([join(root, 'shared/policy.md')]);
  });
});

describe('RuleSets', () => {
  const ruleset = () =>
    tree({
      'style/VALIDATOR.md': md(
        {
          name: 'style',
          description: 'Style rules.',
          severity: 'error',
          trigger: 'PostToolUse',
          timeout: '30',
          match: '\n  tools: [Write]',
        },
        'Shared context. See `references/guide.md`.\n',
      ),
      'style/references/guide.md': 'guide',
      'style/rules/no-console.md':
        '---\nseverity: warn\ntimeout: 10\ndescription: No console.log.\n---\nNo console.log calls.\n',
      'style/rules/naming.md': 'Names are camelCase.\n',
    });

  test('each rule is its own validator with id name/rule, the RuleSet body + its body, and overrides', async () => {
    const root = ruleset();
    const dir = join(root, 'style');
    const r = await load(dir);
    expect(r.errors).toEqual([]);
    expect(
      r.validators.map((v) => [v.id, v.rule, v.form, v.spec.severity, v.spec.timeout, v.spec.description]),
    ).toEqual([
      ['style/naming', 'naming', 'ruleset', 'error', 30, 'Style rules.'],
      ['style/no-console', 'no-console', 'ruleset', 'warn', 10, 'No console.log.'],
    ]);
    const [naming, noConsole] = r.validators;
    expect(naming!.body).toBe('Shared context. See `references/guide.md`.\n\nNames are camelCase.');
    expect(noConsole!.body).toBe('Shared context. See `references/guide.md`.\n\nNo console.log calls.');
    expect(naming!.path).toBe(join(dir, 'rules/naming.md'));
    expect(naming!.dir).toBe(dir);
    expect(naming!.spec.match).toEqual({ tools: ['Write'] });
    expect(naming!.references).toEqual([join(dir, 'references/guide.md')]);
    expect(naming!.hash).not.toBe(noConsole!.hash);
  });

  test('a rule file loaded directly loads its RuleSet', async () => {
    const root = ruleset();
    const r = await load(join(root, 'style/rules/naming.md'));
    expect(r.validators).toHaveLength(2);
  });

  test('a rule may not change what it matches: trigger/match are errors, unknown keys warnings; other rules still load', async () => {
    const root = ruleset();
    write(root, { 'style/rules/bad.md': '---\ntrigger: Stop\ncolour: red\n---\nBody.\n' });
    const r = await load(join(root, 'style'));
    expect(r.validators.map((v) => v.id)).toEqual(['style/naming', 'style/no-console']);
    expect(r.errors).toMatchObject([
      {
        path: join(root, 'style/rules/bad.md'),
        line: 2,
        message: "a rule cannot set `trigger`: rules inherit it from the RuleSet's VALIDATOR.md",
        name: 'style',
      },
    ]);
    expect(r.warnings).toMatchObject([{ line: 3, message: 'unknown key `colour` in a rule (ignored)' }]);
  });

  test('a bad override severity is an error at its line in the rule file', async () => {
    const root = ruleset();
    write(root, { 'style/rules/bad.md': '---\nseverity: critical\n---\nBody.\n' });
    const r = await load(join(root, 'style'));
    expect(r.errors).toMatchObject([
      { line: 2, column: 11, message: '`severity` expected info, warn or error, got "critical"' },
    ]);
  });

  test('a RuleSet without rules is an error; an empty rule is an error; a bad rule file name is an error', async () => {
    const root = tree({
      'a/VALIDATOR.md': valid('a'),
      'b/VALIDATOR.md': valid('b'),
      'b/rules/empty.md': '\n',
      'b/rules/Bad_Name.md': 'x',
    });
    mkdirSync(join(root, 'a/rules'));
    const r = await load(root);
    expect(r.validators).toEqual([]);
    expect(r.errors.map((e) => [e.path.slice(root.length + 1), e.message])).toEqual([
      ['a/VALIDATOR.md', 'RuleSet has a rules/ folder without any rule'],
      ['b/rules/Bad_Name.md', 'rule file name Bad_Name.md is not a valid rule name'],
      ['b/rules/empty.md', 'the rule has no prompt text'],
    ]);
  });

  test('an error in the RuleSet VALIDATOR.md loads no rule', async () => {
    const root = ruleset();
    write(root, {
      'style/VALIDATOR.md': md({ name: 'style', description: 'x', severity: 'high', trigger: 'PostToolUse' }),
    });
    const r = await load(join(root, 'style'));
    expect(r.validators).toEqual([]);
    expect(r.errors).toMatchObject([{ line: 4, name: 'style', trigger: 'PostToolUse' }]);
  });
});

describe('hash', () => {
  test('changes with the prompt, a reference or a script, not with assets', async () => {
    const root = tree({
      'v/VALIDATOR.md': valid('v', { script: 'scripts/s.ts' }),
      'v/references/r.md': 'r',
      'v/scripts/s.ts': 's',
      'v/assets/a.txt': 'a',
    });
    const dir = join(root, 'v');
    const hash = async () => (await load(dir)).validators[0]!.hash;
    const h0 = await hash();
    expect(await hash()).toBe(h0);
    appendFileSync(join(dir, 'assets/a.txt'), 'x');
    expect(await hash()).toBe(h0);
    appendFileSync(join(dir, 'references/r.md'), 'x');
    const h1 = await hash();
    expect(h1).not.toBe(h0);
    appendFileSync(join(dir, 'scripts/s.ts'), '//x');
    const h2 = await hash();
    expect(h2).not.toBe(h1);
    appendFileSync(join(dir, 'VALIDATOR.md'), 'more');
    expect(await hash()).not.toBe(h2);
  });
});

describe('paths', () => {
  test('a missing path is an error', async () => {
    const r = await load('/nonexistent/avp/validator.md');
    expect(r.errors).toMatchObject([{ message: 'no such file or directory', path: '/nonexistent/avp/validator.md' }]);
  });
});
