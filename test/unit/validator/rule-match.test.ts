/**
 * The reference's rule keys: a rule's `match` narrows its RuleSet's (tools intersect, files intersect, an empty
 * intersection never runs), a `tool` rule is loaded and never run, `supersedes` is read and leaves the prompt rules
 * running. Loaded from the code-hygiene and manifests fixtures (written in the reference's published shapes).
 */
import { describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileChange, HookEvent } from '../../../src/protocol/event.ts';
import { loadValidatorsAt } from '../../../src/validator/load.ts';
import { matchedFiles, matchValidators } from '../../../src/validator/match.ts';
import type { Validator } from '../../../src/validator/types.ts';
import { tempDir } from '../../support/run-avp.ts';

const ROOT = '/home/dev/project';
const FIXTURES = join(import.meta.dir, '../../fixtures/registry-dialect/current');

const file = (rel: string): FileChange => ({ path: `${ROOT}/${rel}`, relPath: rel, inProject: true, kind: 'update' });
const ev = (tool: string, ...paths: string[]): HookEvent => ({
  agent: 'claude',
  event: 'PostToolUse',
  tool,
  cwd: ROOT,
  projectRoot: ROOT,
  files: paths.map(file),
  raw: {},
});
const rulesOf = (vs: Validator[]) => vs.map((v) => v.rule).sort();

/** A filled copy of a fixture RuleSet (its `{{version}}` is the reference's release template). */
function load(name: string): ReturnType<typeof loadValidatorsAt> {
  const dir = join(tempDir('avp-rule-match-'), name);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return loadValidatorsAt(dir, 'project');
}

describe("a rule's match narrows its RuleSet's", () => {
  const hygiene = load('code-hygiene');

  test('the reference shapes load without errors: tool rules listed as not run, supersedes read', () => {
    expect(hygiene.errors).toEqual([]);
    const byRule = Object.fromEntries(hygiene.validators.map((v) => [v.rule, v]));
    expect(byRule['long-functions-python']!.notRun).toBe('tool rule: avp runs no tool programs (pylint)');
    expect(byRule['long-functions-python']!.supersedes).toEqual(['long-functions', 'tangled-logic']);
    expect(byRule['undocumented-api-rust']!.supersedes).toEqual(['undocumented-api']);
    expect(byRule['undocumented-api']!.notRun).toBeUndefined();
    expect(load('manifests').errors).toEqual([]);
  });

  test('files intersect: the test-files rule runs on a test file, not on other source files', () => {
    expect(rulesOf(matchValidators(hygiene.validators, ev('Write', 'src/a.ts')))).toEqual([
      'long-functions',
      'tangled-logic',
      'undocumented-api',
    ]);
    expect(rulesOf(matchValidators(hygiene.validators, ev('Write', 'src/a.test.ts')))).toContain('test-names');
    // Its judge sees only the files both lists accept.
    const testNames = hygiene.validators.find((v) => v.rule === 'test-names')!;
    expect(
      matchedFiles(testNames, ev('Write', 'src/a.ts', 'src/a.test.ts', 'README.md')).map((f) => f.relPath),
    ).toEqual(['src/a.test.ts']);
  });

  test('tool rules never run, so the prompt rules they supersede do (the reference without its tool)', () => {
    const onPython = rulesOf(matchValidators(hygiene.validators, ev('Edit', 'app/main.py')));
    expect(onPython).toEqual(['long-functions', 'tangled-logic', 'undocumented-api']);
    expect(rulesOf(matchValidators(load('manifests').validators, ev('Edit', 'Cargo.toml')))).toEqual([
      'floating-versions',
    ]);
  });

  test('tools intersect, one file must pass both lists, and a disjoint match never runs and is warned about', () => {
    const dir = join(tempDir('avp-rule-narrow-'), 'narrow');
    mkdirSync(join(dir, 'rules'), { recursive: true });
    writeFileSync(
      join(dir, 'VALIDATOR.md'),
      '---\nname: narrow\ndescription: d\nseverity: error\ntrigger: PostToolUse\nmatch:\n  tools: [Write, Edit]\n' +
        '  files: ["*.ts", "*.md"]\n---\nbody\n',
    );
    writeFileSync(join(dir, 'rules/edits.md'), '---\nmatch:\n  tools: [Edit, Bash]\n---\nOnly edits.\n');
    writeFileSync(join(dir, 'rules/docs.md'), '---\nmatch:\n  files: ["docs/**"]\n---\nDocs only.\n');
    writeFileSync(join(dir, 'rules/shell.md'), '---\nmatch:\n  tools: Bash\n---\nNever.\n');
    writeFileSync(join(dir, 'rules/python.md'), '---\nmatch:\n  files: ["*.py"]\n---\nNever either.\n');
    const r = loadValidatorsAt(dir, 'project');
    expect(r.errors).toEqual([]);
    expect(rulesOf(matchValidators(r.validators, ev('Edit', 'src/a.ts')))).toEqual(['edits']);
    expect(rulesOf(matchValidators(r.validators, ev('Write', 'src/a.ts')))).toEqual([]);
    expect(rulesOf(matchValidators(r.validators, ev('Bash', 'src/a.ts')))).toEqual([]);
    // docs/x.md passes both lists; src/a.ts (RuleSet only) with docs/x.py (rule only) passes neither as one file.
    expect(rulesOf(matchValidators(r.validators, ev('Edit', 'docs/x.md')))).toEqual(['docs', 'edits']);
    expect(rulesOf(matchValidators(r.validators, ev('Edit', 'src/a.ts', 'docs/x.py')))).toEqual(['edits']);
    const never = r.warnings.filter((w) => w.message.startsWith('this rule never runs'));
    expect(never.map((w) => [w.path.split('/').pop(), w.line])).toEqual([
      ['python.md', 3],
      ['shell.md', 3],
    ]);
  });

  test('supersedes naming no rule, or set on a prompt rule, is a warning; trigger in a rule stays an error', () => {
    const dir = join(tempDir('avp-rule-sup-'), 'sup');
    mkdirSync(join(dir, 'rules'), { recursive: true });
    writeFileSync(
      join(dir, 'VALIDATOR.md'),
      '---\nname: sup\ndescription: d\nseverity: warn\ntrigger: PostToolUse\n---\nb\n',
    );
    writeFileSync(join(dir, 'rules/a.md'), 'A.\n');
    writeFileSync(join(dir, 'rules/b.md'), '---\nsupersedes: [a, ghost]\ntool:\n  run: mytool "$@"\n---\nB.\n');
    writeFileSync(join(dir, 'rules/c.md'), '---\nsupersedes: a\n---\nC.\n');
    const r = loadValidatorsAt(dir, 'project');
    expect(r.errors).toEqual([]);
    const texts = r.warnings.map((w) => `${w.path.split('/').pop()}: ${w.message}`);
    expect(texts).toContain('b.md: `supersedes` names ghost, which is no rule of this RuleSet');
    expect(texts).toContain(
      'c.md: `supersedes` has no effect on a prompt rule (only a tool rule replaces prompt rules); ignored',
    );
    writeFileSync(join(dir, 'rules/d.md'), '---\ntrigger: Stop\n---\nD.\n');
    const bad = loadValidatorsAt(dir, 'project');
    expect(bad.errors.map((e) => e.message)).toContain(
      "a rule cannot set `trigger`: rules inherit it from the RuleSet's VALIDATOR.md",
    );
  });
});
