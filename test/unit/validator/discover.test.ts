/** Discovery: the two sources, nesting, what is skipped, name uniqueness and every precedence case. */
import { describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { discover } from '../../../src/validator/discover.ts';
import { md, tree, valid, write } from './helpers.ts';

/** A project root and an AVP_HOME, each with its validators folder filled from `project` / `user`. */
function sources(project: Record<string, string>, user: Record<string, string> = {}) {
  const root = tree();
  const projectRoot = join(root, 'repo');
  const home = join(root, 'home');
  mkdirSync(join(projectRoot, '.avp/validators'), { recursive: true });
  mkdirSync(join(home, 'validators'), { recursive: true });
  write(join(projectRoot, '.avp/validators'), project);
  write(join(home, 'validators'), user);
  const p = (rel: string) => join(projectRoot, '.avp/validators', rel);
  const u = (rel: string) => join(home, 'validators', rel);
  return { projectRoot, home, p, u, run: () => discover({ projectRoot, env: { AVP_HOME: home }, noCache: true }) };
}

describe('layout', () => {
  test('single files, directories and RuleSets at any depth; dotfiles, node_modules, README.md and non-.md files skipped', async () => {
    const s = sources({
      'no-secrets.md': valid('no-secrets'),
      'team/backend/api-standards.md': valid('api-standards'),
      'team/sql-injection/VALIDATOR.md': valid('sql-injection') + 'See `references/patterns.md`.\n',
      'team/sql-injection/references/patterns.md': 'p',
      'team/sql-injection/extra.md': '# not a validator (inside a directory validator)',
      'a/b/c/d/deep.md': valid('deep'),
      'style/VALIDATOR.md': valid('style'),
      'style/rules/one.md': 'One.',
      'README.md': '# Our validators\n',
      'team/README.md': 'docs',
      '.hidden.md': valid('hidden'),
      '.drafts/draft.md': valid('draft'),
      'node_modules/pkg/x.md': valid('x'),
      'notes.txt': 'not markdown',
    });
    const d = await s.run();
    expect(d.errors).toEqual([]);
    expect(d.validators.map((v) => [v.id, v.source, v.form]).sort()).toEqual([
      ['api-standards', 'project', 'file'],
      ['deep', 'project', 'file'],
      ['no-secrets', 'project', 'file'],
      ['sql-injection', 'project', 'directory'],
      ['style/one', 'project', 'ruleset'],
    ]);
    expect(d.shadowed).toEqual([]);
  });

  test('missing source folders are empty sources', async () => {
    const root = tree();
    const d = await discover({ projectRoot: join(root, 'nowhere'), env: { AVP_HOME: join(root, 'nohome') } });
    expect(d).toEqual({ validators: [], errors: [], warnings: [], shadowed: [] });
  });

  test('a folder with rules/ or scripts/ but no VALIDATOR.md is an error, and its rules are not loaded as validators', async () => {
    const s = sources({ 'broken/rules/one.md': valid('one'), 'broken/scripts/x.ts': '' });
    const d = await s.run();
    expect(d.validators).toEqual([]);
    expect(d.errors).toMatchObject([
      {
        path: s.p('broken/VALIDATOR.md'),
        message: 'folder broken has rules/, scripts/ but no VALIDATOR.md',
        source: 'project',
      },
    ]);
    expect(d.errors[0]!.trigger).toBeUndefined(); // concerns every event
  });

  test('VALIDATOR.md directly in the validators folder is an error', async () => {
    const s = sources({ 'VALIDATOR.md': valid('validators') });
    const d = await s.run();
    expect(d.errors).toMatchObject([
      { path: s.p('VALIDATOR.md'), message: 'VALIDATOR.md directly in the validators folder is not a validator' },
    ]);
  });

  test('warnings are collected from both sources', async () => {
    const s = sources({ 'a.md': valid('a', { colour: 'red' }) }, { 'b.md': valid('b', { flavour: 'x' }) });
    const d = await s.run();
    expect(d.warnings.map((w) => w.message)).toEqual([
      'unknown key `colour` (ignored)',
      'unknown key `flavour` (ignored)',
    ]);
  });
});

describe('name uniqueness within a source', () => {
  test('the same name twice is an error naming both paths, and neither runs', async () => {
    const s = sources({ 'x.md': valid('dup', {}), 'team/dup.md': valid('dup'), 'ok.md': valid('ok') });
    const d = await s.run();
    expect(d.validators.map((v) => v.id)).toEqual(['ok']);
    expect(d.errors).toHaveLength(2);
    for (const e of d.errors) {
      expect(e.message).toContain(s.p('x.md'));
      expect(e.message).toContain(s.p('team/dup.md'));
      expect(e).toMatchObject({ line: 2, name: 'dup', trigger: 'PostToolUse', source: 'project' });
    }
  });

  test('a RuleSet and a file with the same name clash once (not once per rule)', async () => {
    const s = sources(
      {},
      {
        'style.md': valid('style'),
        'lint/style/VALIDATOR.md': valid('style'),
        'lint/style/rules/a.md': 'A',
        'lint/style/rules/b.md': 'B',
      },
    );
    const d = await s.run();
    expect(d.validators).toEqual([]);
    expect(d.errors.map((e) => e.path).sort()).toEqual([s.u('lint/style/VALIDATOR.md'), s.u('style.md')]);
  });
});

describe('RuleSets and folders named rules', () => {
  test('a broken rule next to good ones is one error, not a name clash with its siblings', async () => {
    const s = sources({
      'style/VALIDATOR.md': valid('style'),
      'style/rules/good.md': 'Good.',
      'style/rules/bad.md': '---\ntrigger: Stop\n---\nBad.\n',
    });
    const d = await s.run();
    expect(d.validators.map((v) => v.id)).toEqual(['style/good']);
    expect(d.errors.map((e) => e.path)).toEqual([s.p('style/rules/bad.md')]);
  });

  test('an organisation folder called rules/ at the top holds ordinary validators', async () => {
    const s = sources(
      { 'rules/a.md': valid('a'), 'rules/b.md': valid('b', { severity: 'loud' }) },
      { 'b.md': valid('b') },
    );
    const d = await s.run();
    expect(d.validators.map((v) => v.id)).toEqual(['a']);
    expect(d.errors.map((e) => e.path)).toEqual([s.p('rules/b.md')]);
    expect(d.shadowed).toEqual([{ name: 'b', winner: s.p('rules/b.md'), shadowed: s.u('b.md') }]);
  });
});

describe('precedence: project > user', () => {
  test('only in the project, only in the user source: both active', async () => {
    const s = sources({ 'a.md': valid('a') }, { 'b.md': valid('b') });
    const d = await s.run();
    expect(d.validators.map((v) => [v.id, v.source])).toEqual([
      ['a', 'project'],
      ['b', 'user'],
    ]);
    expect(d.shadowed).toEqual([]);
  });

  test('the same name in both: the project one runs, the user one is reported as shadowed', async () => {
    const s = sources({ 'a.md': valid('a') }, { 'team/a.md': valid('a', { severity: 'info' }) });
    const d = await s.run();
    expect(d.validators.map((v) => [v.id, v.source, v.spec.severity])).toEqual([['a', 'project', 'error']]);
    expect(d.shadowed).toEqual([{ name: 'a', winner: s.p('a.md'), shadowed: s.u('team/a.md') }]);
  });

  test('a user RuleSet shadowed by a project file: one shadowed record, no rule runs', async () => {
    const s = sources(
      { 'style.md': valid('style') },
      { 'style/VALIDATOR.md': valid('style'), 'style/rules/a.md': 'A', 'style/rules/b.md': 'B' },
    );
    const d = await s.run();
    expect(d.validators.map((v) => v.id)).toEqual(['style']);
    expect(d.shadowed).toEqual([{ name: 'style', winner: s.p('style.md'), shadowed: s.u('style/VALIDATOR.md') }]);
  });

  test('a project RuleSet shadows a user file; the winner is its VALIDATOR.md', async () => {
    const s = sources(
      { 'style/VALIDATOR.md': valid('style'), 'style/rules/a.md': 'A' },
      { 'style.md': valid('style') },
    );
    const d = await s.run();
    expect(d.validators.map((v) => [v.id, v.source])).toEqual([['style/a', 'project']]);
    expect(d.shadowed).toEqual([{ name: 'style', winner: s.p('style/VALIDATOR.md'), shadowed: s.u('style.md') }]);
  });

  test('a broken project validator whose name is readable still wins: its error blocks, the user copy does not run', async () => {
    const s = sources({ 'a.md': valid('a', { severity: 'critical' }) }, { 'a.md': valid('a') });
    const d = await s.run();
    expect(d.validators).toEqual([]);
    expect(d.errors).toMatchObject([{ source: 'project', name: 'a', line: 4 }]);
    expect(d.shadowed).toEqual([{ name: 'a', winner: s.p('a.md'), shadowed: s.u('a.md') }]);
  });

  test('a project validator whose YAML is unreadable cannot claim a name: the user one runs and the error stays', async () => {
    const s = sources({ 'a.md': '---\nname: a\nseverity: [\n---\n' }, { 'a.md': valid('a') });
    const d = await s.run();
    expect(d.validators.map((v) => [v.id, v.source])).toEqual([['a', 'user']]);
    expect(d.errors).toMatchObject([{ source: 'project', path: s.p('a.md') }]);
    expect(d.errors[0]!.name).toBeUndefined();
    expect(d.shadowed).toEqual([]);
  });

  test('a broken user validator shadowed by a valid project one is set aside (reported, not an error)', async () => {
    const s = sources(
      { 'a.md': valid('a') },
      { 'a.md': md({ name: 'a', description: 'x', severity: 'loud', trigger: 'Stop' }) },
    );
    const d = await s.run();
    expect(d.errors).toEqual([]);
    expect(d.validators.map((v) => v.source)).toEqual(['project']);
    expect(d.shadowed).toEqual([{ name: 'a', winner: s.p('a.md'), shadowed: s.u('a.md') }]);
  });

  test('a name duplicated in the project shadows the user copy; the project duplicates stay errors', async () => {
    const s = sources({ 'a.md': valid('a'), 'x/a.md': valid('a') }, { 'a.md': valid('a') });
    const d = await s.run();
    expect(d.validators).toEqual([]);
    expect(d.errors.map((e) => e.source)).toEqual(['project', 'project']);
    expect(d.shadowed.map((x) => x.shadowed)).toEqual([s.u('a.md')]);
  });

  test('when the project root is the home directory, the shared folder counts once (as the project)', async () => {
    const root = tree({ '.avp/validators/a.md': valid('a') });
    const d = await discover({ projectRoot: root, env: { AVP_HOME: join(root, '.avp') }, noCache: true });
    expect(d.validators.map((v) => [v.id, v.source])).toEqual([['a', 'project']]);
    expect(d.shadowed).toEqual([]);
  });
});

describe('symlinks', () => {
  test('linked validators and folders are followed; a link back to an ancestor is not a loop', async () => {
    const { symlinkSync } = await import('node:fs');
    const shared = tree({ 'linked.md': valid('linked'), 'pack/VALIDATOR.md': valid('pack') });
    const s = sources({ 'a.md': valid('a'), 'team/b.md': valid('b') });
    symlinkSync(join(shared, 'linked.md'), s.p('linked.md'));
    symlinkSync(join(shared, 'pack'), s.p('pack'));
    symlinkSync(s.p(''), s.p('team/loop'));
    symlinkSync(join(s.projectRoot, '.avp'), s.p('team/up'));
    const d = await s.run();
    expect(d.errors).toEqual([]);
    expect(d.validators.map((v) => v.id).sort()).toEqual(['a', 'b', 'linked', 'pack']);
  });
});
