/** `avp new`, `avp lint` and `avp list` through the compiled binary, in throwaway projects and AVP_HOMEs. */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';

/** A project (with `.git/` so it is its own root) and a HOME whose AVP_HOME is `<home>/.avp`. */
function workspace() {
  const project = tempDir('avp-authoring-');
  mkdirSync(join(project, '.git'));
  const home = tempDir('avp-authoring-home-');
  const avpHome = join(home, '.avp');
  // A judge avp can see (never asked here): `avp new` refuses an LLM validator no judge could evaluate.
  const env = { HOME: home, AVP_HOME: avpHome, ANTHROPIC_API_KEY: 'sk-ant-test-never-sent' };
  const run = (args: string[], cwd = project) => runAvp(args, { cwd, env });
  return {
    project,
    home,
    avpHome,
    run,
    pv: (rel: string) => join(project, '.avp/validators', rel),
    uv: (rel: string) => join(avpHome, 'validators', rel),
  };
}

const validator = (name: string, extra = '') =>
  `---\nname: ${name}\ndescription: Checks ${name}.\nseverity: error\ntrigger: PostToolUse\n${extra}---\nCheck it.\n`;

function put(path: string, text: string) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('avp new', () => {
  test('scaffolds the three forms in the project, each passing avp lint', async () => {
    const w = workspace();
    const file = await w.run(['new', 'no-console']);
    expect(file.code).toBe(0);
    expect(file.stdout.trim()).toBe(w.pv('no-console.md'));
    expect(file.stderr).toContain('Created file validator');

    const dir = await w.run(['new', 'sql-injection', '--dir', '--severity', 'error']);
    expect(dir.code).toBe(0);
    expect(dir.stdout.trim()).toBe(w.pv('sql-injection/VALIDATOR.md'));
    expect(existsSync(w.pv('sql-injection/references/checklist.md'))).toBe(true);
    expect(readFileSync(w.pv('sql-injection/VALIDATOR.md'), 'utf8')).toContain('severity: error');

    const rules = await w.run(['new', 'style', '--rules', '--trigger', 'Stop', '--json']);
    expect(rules.code).toBe(0);
    const made = JSON.parse(rules.stdout);
    expect(made).toMatchObject({ name: 'style', form: 'ruleset', source: 'project', path: w.pv('style/VALIDATOR.md') });
    expect(made.files).toEqual([w.pv('style/VALIDATOR.md'), w.pv('style/rules/first-rule.md')]);

    // No errors; the placeholders `avp new` leaves are pointed out until the author replaces them.
    const lint = await w.run(['lint']);
    const lines = lint.stdout.trim().split('\n');
    expect(
      lines.every((l) => /: warning: (the description is still the placeholder|placeholder rule left)/.test(l)),
    ).toBe(true);
    expect(lines.filter((l) => l.includes('description is still'))).toHaveLength(3);
    expect(lint.stderr).toContain('0 errors, 6 warnings');
    expect(lint.code).toBe(0);

    const list = JSON.parse((await w.run(['list', '--json'])).stdout);
    expect(list.validators.map((v: { id: string; trigger: string }) => [v.id, v.trigger])).toEqual([
      ['no-console', 'PostToolUse'],
      ['sql-injection', 'PostToolUse'],
      ['style/first-rule', 'Stop'],
    ]);
    expect(list.errors).toEqual([]);
  });

  test('--user writes under AVP_HOME; nothing is written into the project', async () => {
    const w = workspace();
    const r = await w.run(['new', 'mine', '--user']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(w.uv('mine.md'));
    expect(existsSync(join(w.project, '.avp'))).toBe(false);
  });

  test('refuses to overwrite, refuses a name used elsewhere in the source, refuses bad names and triggers', async () => {
    const w = workspace();
    put(w.pv('team/taken.md'), validator('taken'));
    put(w.pv('exists.md'), 'my own text');
    const again = await w.run(['new', 'exists']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${w.pv('exists.md')} already exists`);
    expect(readFileSync(w.pv('exists.md'), 'utf8')).toBe('my own text');

    const clash = await w.run(['new', 'taken', '--dir']);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain(`a validator named \`taken\` already exists at ${w.pv('team/taken.md')}`);
    expect(existsSync(w.pv('taken'))).toBe(false);

    const bad = await w.run(['new', 'No_Good']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('`No_Good` is not a valid validator name');
    expect(bad.stderr).toContain('fix:');

    const trig = await w.run(['new', 'ok-name', '--trigger', 'AfterWrite']);
    expect(trig.code).toBe(1);
    expect(trig.stderr).toContain('`AfterWrite` is not an AVP trigger');
    expect(existsSync(w.pv('ok-name.md'))).toBe(false);
  });
});

describe('avp lint', () => {
  test('file:line:col lines on stdout, exit 1 on an error, exit 0 with only warnings', async () => {
    const w = workspace();
    put(w.pv('bad.md'), validator('bad').replace('severity: error', 'severity: critical'));
    put(w.pv('warn.md'), validator('warn', 'colour: red\n'));
    const r = await w.run(['lint']);
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual([
      `.avp/validators/bad.md:4:11: error: \`severity\` expected info, warn or error, got "critical" (fix: use \`severity: info\`, \`warn\` or \`error\`)`,
      expect.stringMatching(/^\.avp\/validators\/warn\.md:6:1: warning: unknown key `colour` \(ignored\)/),
    ]);
    expect(r.stderr).toContain('1 error, 1 warning');

    const warnOnly = await w.run(['lint', w.pv('warn.md')]);
    expect(warnOnly.code).toBe(0);
    expect(warnOnly.stdout).toContain(':6:1: warning:');
  });

  test('--json, relative paths, YAML errors at their line, a missing path', async () => {
    const w = workspace();
    put(join(w.project, 'drafts/broken.md'), '---\nname: broken\ndescription: "unclosed\nseverity: error\n---\nx\n');
    const r = await w.run(['lint', 'drafts/broken.md', '--json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.errors).toBe(1);
    expect(out.messages[0]).toMatchObject({ path: join(w.project, 'drafts/broken.md'), level: 'error' });
    expect(out.messages[0].line).toBeGreaterThanOrEqual(3);
    expect(out.messages[0].message).toStartWith('invalid YAML');

    const missing = await w.run(['lint', 'nope.md']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toStartWith('nope.md:1:1: error: no such file or directory');

    // Outside the working directory the path stays absolute.
    const outside = tempDir('avp-lint-outside-');
    put(join(outside, 'x.md'), validator('x').replace('severity: error', 'severity: nope'));
    const abs = await w.run(['lint', join(outside, 'x.md')]);
    expect(abs.stdout).toStartWith(`${join(outside, 'x.md')}:4:11: error:`);
  });

  test('a folder without validators is a warning, not a silent pass', async () => {
    const w = workspace();
    put(join(w.project, 'docs/README.md'), '# docs');
    const r = await w.run(['lint', 'docs']);
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith('docs:1:1: warning: no validators found here');
  });

  test('with nothing to lint it says so and fails', async () => {
    const w = workspace();
    const r = await w.run(['lint']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no validators to lint');
    expect(r.stderr).toContain('fix:');
  });
});

describe('avp list', () => {
  test('table with sources, matchers, shadowing and load errors; --json carries the same', async () => {
    const w = workspace();
    put(w.pv('no-secrets.md'), validator('no-secrets', 'match:\n  tools: [Write, Edit]\n  files: ["*.ts"]\n'));
    put(w.pv('team/broken.md'), validator('broken').replace('trigger: PostToolUse', 'trigger: AfterEdit'));
    put(w.uv('no-secrets.md'), validator('no-secrets', 'colour: red\n'));
    put(
      w.uv('session/VALIDATOR.md'),
      validator('session').replace(
        'trigger: PostToolUse',
        'trigger: SessionStart\ntriggerMatcher: startup|resume\nonce: true',
      ),
    );
    put(w.uv('session/rules/greet.md'), 'Greet.');

    const r = await w.run(['list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+VERSION\s+SCOPE\s+SOURCE\s+STATUS\s+TRIGGER\s+SEVERITY\s+JUDGE\s+MATCH$/);
    expect(lines[1]).toMatch(
      /^no-secrets\s+-\s+project\s+local\s+on\s+PostToolUse\s+error\s+llm\s+tools=Write,Edit files=\*\.ts$/,
    );
    expect(lines[2]).toMatch(
      /^session\/greet\s+-\s+user\s+local\s+on\s+SessionStart\s+error\s+llm\s+when=startup\|resume once$/,
    );
    expect(r.stdout).toContain(`no-secrets: ${w.uv('no-secrets.md')} is shadowed by ${w.pv('no-secrets.md')}`);
    expect(r.stdout).toContain(`${w.pv('team/broken.md')}:5:10: \`trigger\` "AfterEdit" is not an AVP trigger`);
    expect(r.stderr).toContain('1 warning in validator files: run avp lint to see them');

    const j = JSON.parse((await w.run(['list', '--json'])).stdout);
    expect(j.validators.map((v: { id: string; scope: string; source: string }) => [v.id, v.scope, v.source])).toEqual([
      ['no-secrets', 'project', 'local'],
      ['session/greet', 'user', 'local'],
    ]);
    expect(j.validators[0]).toMatchObject({
      tools: ['Write', 'Edit'],
      files: ['*.ts'],
      severity: 'error',
      form: 'file',
      judge: 'llm',
      timeout: 60,
    });
    expect(j.shadowed).toEqual([
      { name: 'no-secrets', winner: w.pv('no-secrets.md'), shadowed: w.uv('no-secrets.md') },
    ]);
    expect(j.errors).toMatchObject([
      { path: w.pv('team/broken.md'), line: 5, column: 10, name: 'broken', source: 'project' },
    ]);
  });

  test('the project root is found from a subfolder', async () => {
    const w = workspace();
    put(w.pv('a.md'), validator('a'));
    mkdirSync(join(w.project, 'src/deep'), { recursive: true });
    const j = JSON.parse((await w.run(['list', '--json'], join(w.project, 'src/deep'))).stdout);
    expect(j.validators.map((v: { id: string }) => v.id)).toEqual(['a']);
  });

  test('--available lists the embedded catalog, which is not a source (nothing becomes active)', async () => {
    const w = workspace();
    const j = await w.run(['list', '--available', '--json']);
    expect(j.code).toBe(0);
    const items = JSON.parse(j.stdout) as Array<Record<string, unknown>>;
    expect(items.length).toBeGreaterThan(0);
    for (const i of items) {
      expect(Object.keys(i).sort()).toEqual([
        'description',
        'judge',
        'name',
        'recommended',
        'severity',
        'trigger',
        'version',
      ]);
      expect(String(i.name)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    const table = await w.run(['list', '--available']);
    expect(table.stdout.split('\n')[0]).toMatch(
      /^NAME\s+VERSION\s+TRIGGER\s+SEVERITY\s+JUDGE\s+RECOMMENDED\s+DESCRIPTION$/,
    );
    expect(table.stdout).toContain(String(items[0]!.name));
    expect(JSON.parse((await w.run(['list', '--json'])).stdout).validators).toEqual([]);
  });

  test('no validators: empty stdout, a hint on stderr', async () => {
    const w = workspace();
    const r = await w.run(['list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('avp new <name>');
  });
});
