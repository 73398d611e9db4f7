/**
 * `avp phase` on a Python project (Example 2): custom commands for the formatter and linter (the fixture's own
 * small tools, since black and ruff are not installed everywhere), pytest for the tests, no build step.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanPath, commandJudge, example, phase, project, retries, statuses } from '../fixtures/phase/harness.ts';
import { tempDir } from '../support/run-avp.ts';

const T = 120_000;
const passJudge = () => commandJudge(tempDir('avp-phase-judge-'), []);

describe('avp phase on a Python project', () => {
  test(
    'Example 2: custom commands, formatter fixed in two passes, linter fixed in one → pass, total_retries 3',
    async () => {
      const dir = project('py-app');
      // A trailing tab (the fixture formatter needs two passes for it) and an unused import (fixed by lint --fix).
      const main = readFileSync(join(dir, 'main.py'), 'utf8')
        .replace('"""Greeting helpers."""\n', '"""Greeting helpers."""\nimport os\n')
        .replace('return "hello " + name.strip()', 'return "hello " + name.strip()\t');
      writeFileSync(join(dir, 'main.py'), main);
      const want = example('example2-response');
      const req = {
        ...example('example2-request'),
        working_directory: dir,
        format_command: 'python3 tools/fmt.py . --check',
        lint_command: 'python3 tools/lint.py . --fix',
      };
      expect(req.test_command).toBe('pytest -v');
      expect(req.max_retries).toBe(5);
      const { out, code } = await phase(req, passJudge());
      expect(statuses(out)).toEqual(statuses(want));
      expect(retries(out)).toEqual(retries(want));
      expect(out.total_retries).toBe(want.total_retries);
      expect(code).toBe(0);
      expect(out.checks.formatter.command).toBe('python3 tools/fmt.py . --check');
      expect(out.checks.linter.command).toBe('python3 tools/lint.py . --fix');
      expect(out.checks.tests.command).toBe('pytest -v');
      const fixed = readFileSync(join(dir, 'main.py'), 'utf8');
      expect(fixed).not.toContain('import os');
      expect(fixed).not.toMatch(/[ \t]$/m);
    },
    T,
  );

  test(
    'retries stop at max_retries: the formatter needing two passes fails with max_retries 1',
    async () => {
      const dir = project('py-app');
      writeFileSync(
        join(dir, 'main.py'),
        readFileSync(join(dir, 'main.py'), 'utf8').replace('name.strip()', 'name.strip()\t'),
      );
      const { out } = await phase(
        {
          working_directory: dir,
          changed_files: ['main.py'],
          language: 'py',
          format_command: 'python3 tools/fmt.py . --check',
          lint_command: 'python3 tools/lint.py .',
          test_command: 'pytest -q',
          max_retries: 1,
        },
        passJudge(),
      );
      expect(out.checks.formatter).toMatchObject({
        status: 'fail',
        retry_count: 1,
        issues: ['File main.py still has formatting issues after 1 retry'],
      });
      expect(out.status).toBe('fail');
    },
    T,
  );

  test(
    'a failing pytest test is counted; a lint command with no known fix mode fails once, quoting file:line',
    async () => {
      const dir = project('py-app');
      writeFileSync(
        join(dir, 'tests/test_more.py'),
        'from main import greet\n\n\ndef test_one():\n    assert greet("a") == "hi a"\n\n\ndef test_two():\n    assert greet("b") == "hello b"\n',
      );
      writeFileSync(
        join(dir, 'main.py'),
        readFileSync(join(dir, 'main.py'), 'utf8').replace(
          '"""Greeting helpers."""\n',
          '"""Greeting helpers."""\nimport json\n',
        ),
      );
      const { out } = await phase(
        {
          working_directory: dir,
          changed_files: ['main.py', 'tests/test_more.py'],
          format_command: 'python3 tools/fmt.py . --check',
          lint_command: 'python3 tools/lint.py .',
          test_command: 'pytest',
        },
        passJudge(),
      );
      expect(out.checks.tests).toMatchObject({ status: 'fail', failing_count: 1, command: 'pytest' });
      expect(out.checks.build.status).toBe('skipped');
      expect(out.checks.linter).toMatchObject({
        status: 'fail',
        retry_count: 0,
        issues: ["main.py:2:1 F401 'json' imported but unused"],
      });
    },
    T,
  );

  test(
    'defaults for python (black, ruff, pytest): missing tools are reported as not installed',
    async () => {
      const dir = project('py-app');
      const env = { ...passJudge(), PATH: cleanPath() };
      const { out } = await phase({ working_directory: dir, changed_files: ['main.py'] }, env);
      expect(out.checks.formatter.command).toBe('black --check .');
      expect(out.checks.linter.command).toBe('ruff check .');
      expect(out.checks.build).toMatchObject({ status: 'skipped', command: '' });
      expect(out.checks.tests).toMatchObject({ status: 'pass', command: 'pytest' });
      if (!Bun.which('black', { PATH: env.PATH }))
        expect(out.checks.formatter.issues[0]).toStartWith('black is not installed');
      else expect(out.checks.formatter).toMatchObject({ status: 'pass', retry_count: 0 }); // the fixture is black-clean
      if (!Bun.which('ruff', { PATH: env.PATH }))
        expect(out.checks.linter.issues[0]).toStartWith('ruff is not installed');
    },
    T,
  );

  test.skipIf(!Bun.which('black', { PATH: cleanPath() }))(
    'real black, with Example 2\'s format_command verbatim: "black . --check" → "black ." → pass',
    async () => {
      const dir = project('py-app');
      writeFileSync(
        join(dir, 'main.py'),
        readFileSync(join(dir, 'main.py'), 'utf8').replace(
          'return "hello " + name.strip()',
          "return 'hello '+name.strip( )",
        ),
      );
      const { out } = await phase(
        {
          working_directory: dir,
          changed_files: ['main.py'],
          language: 'python',
          format_command: 'black . --check',
          lint_command: 'python3 tools/lint.py .',
          test_command: 'pytest -v',
          max_retries: 5,
        },
        passJudge(),
      );
      expect(out.checks.formatter).toMatchObject({ status: 'pass', retry_count: 1, command: 'black . --check' });
      expect(readFileSync(join(dir, 'main.py'), 'utf8')).toContain('return "hello " + name.strip()');
      expect(out.status).toBe('pass');
    },
    T,
  );
});
