/** Example 4 and every other kind of invalid request, through `dist/avp phase`: the same fail shape, never a crash. */
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandJudge, example, phase, project } from '../fixtures/phase/harness.ts';
import { runAvp, tempDir } from '../support/run-avp.ts';

/** Example 4's shape: everything fail/empty/0, the problems in the formatter's issues. */
function expectExample4Shape(out: any, issues: string[]): void {
  const want = structuredClone(example('example4-response'));
  want.checks.formatter.issues = issues;
  expect(out).toEqual(want);
}

describe.concurrent('avp phase: invalid input', () => {
  test('--help documents the request source and options', async () => {
    const r = await runAvp(['phase', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toContain('--input');
    expect(r.stdout + r.stderr).toContain('--timeout');
  });

  test('a bad --timeout is a usage error on stderr (no stack trace), exit 1, whatever the request', async () => {
    for (const stdin of ['{}', 'not json']) {
      const r = await runAvp(['phase', '--timeout', 'soon'], { stdin });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('--timeout "soon" is not a positive number of seconds');
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }
  });

  test("Example 4: missing working_directory → exactly the seed's response, exit 1", async () => {
    const { out, code, stderr } = await phase(example('example4-request'));
    expect(out).toEqual(example('example4-response'));
    expect(code).toBe(1);
    expect(stderr).toContain("missing required parameter 'working_directory'");
    expect(stderr.split('\n').filter((l) => l.includes('Validation failed'))).toHaveLength(1);
  });

  const dir = tempDir('avp-phase-input-');
  const cases: Array<[string, unknown, string[]]> = [
    [
      'missing changed_files',
      { working_directory: dir },
      ["Validation failed: missing required parameter 'changed_files'"],
    ],
    [
      'relative working_directory',
      { working_directory: 'app', changed_files: [] },
      [`Validation failed: parameter 'working_directory' must be an absolute path (starting with '/') (got "app")`],
    ],
    [
      'empty working_directory',
      { working_directory: '', changed_files: [] },
      [
        "Validation failed: parameter 'working_directory' must not be empty",
        `Validation failed: parameter 'working_directory' must be an absolute path (starting with '/') (got "")`,
      ],
    ],
    [
      'working_directory that does not exist',
      { working_directory: join(dir, 'nope'), changed_files: [] },
      [`Validation failed: working_directory '${join(dir, 'nope')}' does not exist`],
    ],
    [
      'working_directory that is a file',
      { working_directory: join(dir, 'file.txt'), changed_files: [] },
      [`Validation failed: working_directory '${join(dir, 'file.txt')}' is not a directory`],
    ],
    [
      'changed_files not an array',
      { working_directory: dir, changed_files: 'a.ts' },
      [`Validation failed: parameter 'changed_files' must be an array of strings (got "a.ts")`],
    ],
    [
      'a changed file that is not a string',
      { working_directory: dir, changed_files: ['a.ts', 3] },
      ["Validation failed: parameter 'changed_files[1]' must be a string (got 3)"],
    ],
    [
      'an empty changed file',
      { working_directory: dir, changed_files: [''] },
      ["Validation failed: parameter 'changed_files[0]' must not be empty"],
    ],
    [
      'unknown language',
      { working_directory: dir, changed_files: [], language: 'cobol' },
      [
        `Validation failed: parameter 'language' must be one of javascript, js, typescript, ts, python, py, go, golang, rust, rs, ruby, rb, java (got "cobol")`,
      ],
    ],
    [
      'max_retries above 10',
      { working_directory: dir, changed_files: [], max_retries: 11 },
      ["Validation failed: parameter 'max_retries' must be between 0 and 10 (got 11)"],
    ],
    [
      'max_retries negative',
      { working_directory: dir, changed_files: [], max_retries: -1 },
      ["Validation failed: parameter 'max_retries' must be between 0 and 10 (got -1)"],
    ],
    [
      'max_retries not an integer',
      { working_directory: dir, changed_files: [], max_retries: 2.5 },
      ["Validation failed: parameter 'max_retries' must be an integer (got 2.5)"],
    ],
    [
      'max_retries as a string',
      { working_directory: dir, changed_files: [], max_retries: '3' },
      [`Validation failed: parameter 'max_retries' must be an integer (got "3")`],
    ],
    [
      'skip_build not a boolean',
      { working_directory: dir, changed_files: [], skip_build: 'yes' },
      [`Validation failed: parameter 'skip_build' must be a boolean (got "yes")`],
    ],
    [
      'empty override command',
      { working_directory: dir, changed_files: [], test_command: '' },
      ["Validation failed: parameter 'test_command' must not be empty"],
    ],
    [
      'an additional property',
      { working_directory: dir, changed_files: [], verbose: true },
      [
        "Validation failed: unknown parameter 'verbose' (allowed: working_directory, changed_files, language, format_command, lint_command, build_command, test_command, max_retries, skip_build, skip_tests)",
      ],
    ],
    ['not an object', [1, 2], ['Validation failed: input must be a JSON object (got [1,2])']],
  ];
  writeFileSync(join(dir, 'file.txt'), 'x');
  for (const [name, request, issues] of cases) {
    test(name, async () => {
      const { out, code } = await phase(request);
      expectExample4Shape(out, issues);
      expect(code).toBe(1);
    });
  }

  test('stdin that is not JSON, and empty stdin', async () => {
    const bad = await phase('{"working_directory": ');
    expect(bad.out.checks.formatter.issues[0]).toStartWith('Validation failed: stdin is not valid JSON: ');
    expectExample4Shape(bad.out, bad.out.checks.formatter.issues);
    const empty = await phase('');
    expectExample4Shape(empty.out, ['Validation failed: no input on stdin (expected a JSON object)']);
  });

  test('--input FILE: read from the file; a missing file is an input error', async () => {
    const missing = await phase('', {}, ['--input', join(dir, 'missing.json')]);
    expectExample4Shape(missing.out, [
      `Validation failed: cannot read input file '${join(dir, 'missing.json')}': no such file`,
    ]);
    const app = project('js-app');
    const file = join(dir, 'request.json');
    writeFileSync(
      file,
      JSON.stringify({ working_directory: app, changed_files: ['src/sum.js'], language: 'js', skip_tests: true }),
    );
    const ok = await phase('', commandJudge(tempDir('avp-phase-judge-'), []), ['--input', file]);
    expect(ok.out.status).toBe('pass');
    expect(ok.out.checks.tests.status).toBe('skipped');
  }, 60_000);

  test('the alias "js" and "javascript" select the same JavaScript phase', async () => {
    const app = project('js-app');
    for (const language of ['js', 'javascript']) {
      const { out } = await phase(
        {
          working_directory: app,
          changed_files: [],
          language,
          skip_tests: true,
          format_command: 'true',
          lint_command: 'true',
        },
        commandJudge(tempDir('avp-phase-judge-'), []),
      );
      expect(out.status).toBe('pass');
    }
  }, 60_000);
});
