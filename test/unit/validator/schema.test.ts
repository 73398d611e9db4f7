/** Every frontmatter rule of AVP 1.0 (+ avp's script/model), with the line and column each problem is reported at. */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { loadValidatorsAt } from '../../../src/validator/load.ts';
import { lintPaths } from '../../../src/validator/lint.ts';
import { md, tree, valid } from './helpers.ts';

async function loadOne(text: string, file = 'check.md') {
  const root = tree({ [file]: text });
  return { root, path: join(root, file), ...(await loadValidatorsAt(join(root, file), 'project')) };
}

/** Exactly one error; returns it. */
async function oneError(text: string, file = 'check.md') {
  const r = await loadOne(text, file);
  expect(r.validators).toEqual([]);
  expect(r.errors.map((e) => e.message)).toHaveLength(1);
  return r.errors[0]!;
}

const base = { name: 'check', description: 'Checks things.', severity: 'error', trigger: 'PostToolUse' };

describe('required fields and defaults', () => {
  test('a minimal validator loads with defaults: once false, timeout 60, no tags, no matchers', async () => {
    const r = await loadOne(valid('check'));
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    const v = r.validators[0]!;
    expect(v).toMatchObject({
      id: 'check',
      name: 'check',
      form: 'file',
      source: 'project',
      path: r.path,
      references: [],
    });
    expect(v.spec).toEqual({
      name: 'check',
      description: 'Checks check.',
      severity: 'error',
      trigger: 'PostToolUse',
      match: {},
      tags: [],
      once: false,
      timeout: 60,
    });
    expect(v.body).toBe('# Check\n\nLook at the change.');
    expect(v.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  for (const key of ['name', 'description', 'severity', 'trigger']) {
    test(`missing ${key} is an error naming the key`, async () => {
      const e = await oneError(md({ ...base, [key]: undefined }));
      expect(e.message).toBe(`missing required key \`${key}\``);
      expect(e.line).toBe(1);
      expect(e.fix).toBeTruthy();
      expect(e.path).toEndWith('check.md');
    });
  }
});

describe('name', () => {
  const bad = ['Check', 'check_x', '-check', 'check-', 'ch--eck', 'a'.repeat(65), 'ché'];
  for (const name of bad) {
    test(`rejects ${JSON.stringify(name.length > 20 ? `${name.slice(0, 8)}…(${name.length})` : name)} at the name line`, async () => {
      const e = await oneError(md({ ...base, name }));
      expect(e.line).toBe(2);
      expect(e.column).toBe(7);
      expect(e.message).toMatch(/name/);
      expect(e.fix).toContain('a-z, 0-9 and single hyphens');
    });
  }
  test('accepts 64 characters and digits', async () => {
    const name = `a1-${'b'.repeat(61)}`;
    const r = await loadOne(valid(name), `${name}.md`);
    expect(r.errors).toEqual([]);
    expect(r.validators[0]!.name).toBe(name);
  });
  test('a number is not a name', async () => {
    const e = await oneError(md({ ...base, name: '42' }));
    expect(e.message).toBe('`name` must be a string, got 42');
  });
  test('a single file whose name differs from its file name loads with a warning', async () => {
    const r = await loadOne(valid('other'), 'check.md');
    expect(r.validators.map((v) => v.id)).toEqual(['other']);
    expect(r.warnings).toMatchObject([
      { line: 2, level: 'warning', message: 'name `other` differs from the file name check.md' },
    ]);
  });
});

describe('description', () => {
  test('empty is an error', async () => {
    const e = await oneError(md({ ...base, description: '""' }));
    expect(e).toMatchObject({ line: 3, message: '`description` is empty' });
  });
  test('1025 characters is an error, 1024 is fine', async () => {
    const e = await oneError(md({ ...base, description: 'x'.repeat(1025) }));
    expect(e).toMatchObject({ line: 3, message: '`description` is 1025 characters long, at most 1024 allowed' });
    expect((await loadOne(md({ ...base, description: 'x'.repeat(1024) }))).errors).toEqual([]);
  });
});

describe('severity and trigger', () => {
  test('severity: critical → "expected info, warn or error" at the severity value', async () => {
    const e = await oneError(md({ ...base, severity: 'critical' }));
    expect(e).toMatchObject({
      line: 4,
      column: 11,
      message: '`severity` expected info, warn or error, got "critical"',
      fix: 'use `severity: info`, `warn` or `error`',
    });
    expect(e.name).toBe('check');
    expect(e.trigger).toBe('PostToolUse');
  });
  for (const s of ['info', 'warn', 'error']) {
    test(`severity ${s} loads`, async () => {
      expect((await loadOne(md({ ...base, severity: s }))).validators[0]!.spec.severity).toBe(s as 'info');
    });
  }
  const triggers = [
    'PreToolUse',
    'PostToolUse',
    'PostToolUseFailure',
    'PermissionRequest',
    'UserPromptSubmit',
    'Stop',
    'SubagentStart',
    'SubagentStop',
    'SessionStart',
    'SessionEnd',
    'Setup',
    'PreCompact',
    'Notification',
  ];
  test('all 13 triggers load', async () => {
    for (const t of triggers)
      expect((await loadOne(md({ ...base, trigger: t }))).validators[0]!.spec.trigger).toBe(t as 'Stop');
  });
  test('an unknown trigger is an error with a suggestion for a case slip; the load error has no trigger', async () => {
    const e = await oneError(md({ ...base, trigger: 'postToolUse' }));
    expect(e).toMatchObject({
      line: 5,
      column: 10,
      message: '`trigger` "postToolUse" is not an AVP trigger (did you mean PostToolUse?)',
    });
    expect(e.trigger).toBeUndefined();
    expect(e.name).toBe('check');
  });
});

describe('match', () => {
  test('tools and files accept a string or a list and become lists', async () => {
    const r = await loadOne(md({ ...base, match: '\n  tools: Write|Edit\n  files:\n    - "*.ts"\n    - src/**/*.js' }));
    expect(r.validators[0]!.spec.match).toEqual({ tools: ['Write|Edit'], files: ['*.ts', 'src/**/*.js'] });
  });
  test('an invalid tool regex is an error at the entry', async () => {
    const e = await oneError(md({ ...base, match: '\n  tools:\n    - Write\n    - "mcp__(x"' }));
    expect(e).toMatchObject({
      line: 9,
      column: 7,
      message: '`match.tools` entry "mcp__(x" is not a valid regular expression',
    });
  });
  test('a number in files is an error at the entry', async () => {
    const e = await oneError(md({ ...base, match: '\n  files: ["*.ts", 3]' }));
    expect(e.line).toBe(7);
    expect(e.message).toMatch(/match\.files/);
  });
  test('match as a string is an error at its line', async () => {
    const e = await oneError(md({ ...base, match: 'Write' }));
    expect(e).toMatchObject({ line: 6, message: '`match` must be a mapping with `tools` and/or `files`' });
  });
  test('unknown keys under match are warnings', async () => {
    const r = await loadOne(md({ ...base, match: '\n  tool: Write' }));
    expect(r.validators).toHaveLength(1);
    expect(r.warnings).toMatchObject([
      { line: 7, column: 9, message: 'unknown key `match.tool` (ignored) (did you mean tools?)' },
    ]);
  });
  test('tools on a trigger without tools, files on one without files: warnings', async () => {
    const r = await loadOne(
      md({ ...base, trigger: 'UserPromptSubmit', match: '\n  tools: [Write]\n  files: ["*.ts"]' }),
    );
    expect(r.validators).toHaveLength(1);
    expect(r.warnings.map((w) => [w.line, w.message])).toEqual([
      [7, '`match.tools` has no effect on UserPromptSubmit (its events carry no tool)'],
      [8, '`match.files` has no effect on UserPromptSubmit (its events carry no files)'],
    ]);
  });
});

describe('optional fields', () => {
  test('all optional fields load', async () => {
    const r = await loadOne(
      md({
        ...base,
        trigger: 'SessionStart',
        triggerMatcher: 'startup|resume',
        tags: '[security, code-quality]',
        once: 'true',
        timeout: '30',
        license: 'MIT',
        compatibility: 'needs git',
        metadata: '\n  author: me\n  version: "1.0.0"',
        model: 'claude-haiku-4-5',
      }),
    );
    expect(r.errors).toEqual([]);
    expect(r.validators[0]!.spec).toMatchObject({
      triggerMatcher: 'startup|resume',
      tags: ['security', 'code-quality'],
      once: true,
      timeout: 30,
      license: 'MIT',
      compatibility: 'needs git',
      metadata: { author: 'me', version: '1.0.0' },
      model: 'claude-haiku-4-5',
    });
  });
  const cases: Array<[string, Record<string, string>, number, RegExp]> = [
    ['tags not lowercase-hyphenated', { tags: '[Security]' }, 6, /tag "Security" is not lowercase-hyphenated/],
    ['once not a boolean', { once: 'yes please' }, 6, /`once` must be true or false/],
    ['timeout zero', { timeout: '0' }, 6, /`timeout` must be between 0 and 3600 seconds, got 0/],
    ['timeout negative', { timeout: '-5' }, 6, /`timeout` must be between/],
    ['timeout a string', { timeout: '30s' }, 6, /`timeout` must be a number of seconds/],
    ['license a list', { license: '[MIT]' }, 6, /`license` must be a string/],
    ['metadata a string', { metadata: 'me' }, 6, /`metadata` must be a mapping/],
    [
      'triggerMatcher invalid regex',
      { trigger: 'SessionStart', triggerMatcher: '"(startup"' },
      6,
      /`triggerMatcher` is not a valid regular expression/,
    ],
    ['model empty', { model: '""' }, 6, /`model` is empty/],
    ['model a number', { model: '4' }, 6, /`model` must be a string/],
    [
      'compatibility over 500 characters',
      { compatibility: 'c'.repeat(501) },
      6,
      /`compatibility` is over 500 characters/,
    ],
    ['tags a mapping', { tags: '{a: 1}' }, 6, /`tags` must be a list of strings/],
    ['script not a string', { script: '[a]' }, 6, /`script` must be a path/],
  ];
  for (const [title, extra, line, re] of cases) {
    test(`${title} → error at line ${line}`, async () => {
      const e = await oneError(md({ ...base, ...extra }));
      expect(e.line).toBe(line);
      expect(e.message).toMatch(re);
      expect(e.fix).toBeTruthy();
    });
  }
  test('a single tag string becomes a list', async () => {
    expect((await loadOne(md({ ...base, tags: 'security' }))).validators[0]!.spec.tags).toEqual(['security']);
  });
  test('a fractional timeout is allowed (seconds)', async () => {
    expect((await loadOne(md({ ...base, timeout: '2.5' }))).validators[0]!.spec.timeout).toBe(2.5);
  });
  test('triggerMatcher on a tool trigger is a warning (no effect)', async () => {
    const r = await loadOne(md({ ...base, triggerMatcher: 'startup' }));
    expect(r.validators).toHaveLength(1);
    expect(r.warnings).toMatchObject([{ line: 6, message: '`triggerMatcher` has no effect on PostToolUse' }]);
  });
  test('script in a single-file validator is an error', async () => {
    const e = await oneError(md({ ...base, script: 'scripts/x.ts' }));
    expect(e).toMatchObject({
      line: 6,
      message: '`script` needs a directory validator (the script lives in its scripts/ folder)',
    });
  });
});

describe('unknown keys and several problems', () => {
  test('an unknown key is a warning, not an error', async () => {
    const r = await loadOne(md({ ...base, colour: 'red' }));
    expect(r.validators).toHaveLength(1);
    expect(r.warnings).toMatchObject([
      { line: 6, column: 1, level: 'warning', message: 'unknown key `colour` (ignored)' },
    ]);
  });
  test('every problem is reported, each at its own line, sorted by lint', async () => {
    const root = tree({
      'check.md': md({ name: 'Bad', description: 'x', severity: 'critical', trigger: 'Nope', colour: 'red' }),
    });
    const msgs = await lintPaths([root]);
    expect(msgs.map((m) => [m.line, m.level])).toEqual([
      [2, 'error'],
      [4, 'error'],
      [5, 'error'],
      [6, 'warning'],
    ]);
  });
});

describe('YAML and frontmatter errors', () => {
  test('YAML syntax error at its line', async () => {
    const e = await oneError(
      '---\nname: check\ndescription: Checks.\nseverity: error\ntrigger: PostToolUse\nmatch: : [Write\n---\nbody\n',
    );
    expect(e.line).toBe(6);
    expect(e.message).toStartWith('invalid YAML:');
    expect(e.fix).toContain('YAML');
    expect(e.trigger).toBeUndefined();
  });
  test('bad indentation is reported at the offending line', async () => {
    const e = await oneError(
      '---\nname: check\ndescription: Checks.\n  severity: error\ntrigger: PostToolUse\n---\nbody\n',
    );
    expect(e.line).toBe(4);
  });
  test('a file without frontmatter that has validator keys is a load error with a fix', async () => {
    const e = await oneError('# Just markdown\nname: check\ntrigger: Stop\n');
    expect(e).toMatchObject({
      line: 1,
      column: 1,
      message: 'no YAML frontmatter: a validator starts with a `---` line',
    });
    expect(e.fix).toContain('`---`');
  });
  test('an unclosed frontmatter is a load error', async () => {
    const e = await oneError('---\nname: check\n');
    expect(e.message).toBe('frontmatter is not closed');
  });
  test('frontmatter that is a list is a load error', async () => {
    const e = await oneError('---\n- a\n- b\n---\nbody\n');
    expect(e.message).toBe('frontmatter must be a YAML mapping of keys to values');
  });
  test('CRLF line endings and a BOM are accepted', async () => {
    const r = await loadOne(`\uFEFF${valid('check').replaceAll('\n', '\r\n')}`);
    expect(r.errors).toEqual([]);
    expect(r.validators[0]!.spec.name).toBe('check');
  });
});

describe('empty optional keys and unclosed quotes', () => {
  test('an empty optional key (YAML null) is ignored with a warning', async () => {
    const r = await loadOne(md({ ...base, tags: '', match: '\n  files:\n  tools: [Write]' }));
    expect(r.errors).toEqual([]);
    expect(r.validators[0]!.spec.tags).toEqual([]);
    expect(r.validators[0]!.spec.match).toEqual({ tools: ['Write'] });
    expect(r.warnings.map((w) => [w.line, w.message])).toEqual([
      [6, '`tags` is empty (ignored)'],
      [8, '`match.files` is empty (ignored)'],
    ]);
  });
  test('an empty match list is ignored with a warning (it would otherwise mean everything silently)', async () => {
    const r = await loadOne(md({ ...base, match: '\n  tools: []' }));
    expect(r.validators[0]!.spec.match).toEqual({});
    expect(r.warnings).toMatchObject([{ line: 7, message: '`match.tools` is empty (ignored)' }]);
  });
  test('an empty required key is still an error', async () => {
    const e = await oneError(md({ ...base, severity: '' }));
    expect(e.line).toBe(4);
  });
  test('an unclosed quote is reported where it opens, not at the end of the frontmatter', async () => {
    const e = await oneError(
      '---\nname: check\ndescription: "Checks things\nseverity: error\ntrigger: PostToolUse\n---\nbody\n',
    );
    expect(e).toMatchObject({ line: 3, column: 14 });
    expect(e.message).toContain('quoted scalar');
  });
});
