/**
 * `avp phase` on real Node/TypeScript projects (prettier, eslint, tsc, node --test from this repo's node_modules),
 * through the compiled binary. Every output is validated against the seed's output schema (harness).
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandJudge, example, phase, project, retries, statuses } from '../fixtures/phase/harness.ts';
import { tempDir } from '../support/run-avp.ts';

const T = 120_000;
const passJudge = () => commandJudge(tempDir('avp-phase-judge-'), []);

describe('avp phase on Node/TypeScript projects', () => {
  test(
    'Example 1: a TypeScript project, language auto-detected, every check passes',
    async () => {
      const dir = project('ts-app');
      const req = { ...example('example1-request'), working_directory: dir };
      const { out, code, stderr } = await phase(req, passJudge());
      const want = example('example1-response');
      expect(statuses(out)).toEqual(statuses(want));
      expect(retries(out)).toEqual(retries(want));
      expect(out.total_retries).toBe(0);
      expect(code).toBe(0);
      expect(out.checks.linter.command).toBe('npm run lint');
      expect(out.checks.build.command).toBe('npm run build');
      expect(out.checks.tests.command).toBe('npm test');
      expect(out.checks.formatter.command).toBe('npx prettier --check .');
      expect(stderr).toContain('language: typescript');
      expect(out.execution_time_ms).toBeGreaterThanOrEqual(
        out.checks.build.execution_time_ms + out.checks.tests.execution_time_ms,
      );
    },
    T,
  );

  test(
    'formatter: prettier --check fails, --write fixes, --check passes → retry_count 1',
    async () => {
      const dir = project('js-app');
      writeFileSync(
        join(dir, 'src/sum.js'),
        'export function sum(values){let total=0\nfor (const v of values) total+=v\nreturn total}\nexport function mean(values) { return values.length===0?0:sum(values)/values.length }\n',
      );
      const { out } = await phase({ working_directory: dir, changed_files: ['src/sum.js'] }, passJudge());
      expect(out.checks.formatter).toMatchObject({ status: 'pass', retry_count: 1, issues: [] });
      expect(out.total_retries).toBe(1);
      expect(readFileSync(join(dir, 'src/sum.js'), 'utf8')).toContain('let total = 0;');
      expect(out.status).toBe('pass');
      // plain JavaScript without a build script: no build step
      expect(out.checks.build).toEqual({
        status: 'skipped',
        errors: [],
        retry_count: 0,
        command: '',
        execution_time_ms: 0,
      });
    },
    T,
  );

  test(
    'formatter with max_retries 0: no fix attempted, the file named in the issue',
    async () => {
      const dir = project('js-app');
      writeFileSync(
        join(dir, 'src/sum.js'),
        'export const sum = (values)=>values.reduce((a,b)=>a+b,0)\nexport const mean = (v) => v.length ? sum(v)/v.length : 0\n',
      );
      const { out } = await phase(
        { working_directory: dir, changed_files: ['src/sum.js'], max_retries: 0 },
        passJudge(),
      );
      expect(out.checks.formatter.status).toBe('fail');
      expect(out.checks.formatter.retry_count).toBe(0);
      expect(out.checks.formatter.issues).toEqual(['File src/sum.js still has formatting issues']);
      expect(readFileSync(join(dir, 'src/sum.js'), 'utf8')).toContain('(a,b)=>a+b'); // untouched
    },
    T,
  );

  test(
    'linter: an unfixable eslint error fails with file:line, after one fix attempt that changed nothing',
    async () => {
      const dir = project('js-app');
      const src = readFileSync(join(dir, 'src/sum.js'), 'utf8').replace(
        '  let total = 0;\n',
        '  let total = 0;\n  const unused = 42;\n',
      );
      writeFileSync(join(dir, 'src/sum.js'), src);
      const { out, stderr } = await phase({ working_directory: dir, changed_files: ['src/sum.js'] }, passJudge());
      expect(out.checks.linter.status).toBe('fail');
      expect(out.checks.linter.command).toBe('npm run lint');
      expect(out.checks.linter.retry_count).toBe(1);
      expect(out.checks.linter.issues).toEqual([
        "src/sum.js:4:9 error 'unused' is assigned a value but never used (no-unused-vars)",
      ]);
      expect(out.status).toBe('fail');
      // the whole eslint output is in the log, the issue strings only quote it
      const logs = readdirSync(join(dir, '.avp/logs')).filter((f) => f.endsWith('.log'));
      expect(logs).toHaveLength(1);
      const log = readFileSync(join(dir, '.avp/logs', logs[0]!), 'utf8');
      expect(log).toContain('=== linter: $ npm run lint');
      expect(log).toContain('=== linter fix: $ npm run lint -- --fix');
      expect(stderr).toContain(join(dir, '.avp/logs'));
    },
    T,
  );

  test(
    'linter: a fixable eslint error (prefer-const) is fixed by `--fix` → pass with retry_count 1',
    async () => {
      const dir = project('js-app');
      const src = readFileSync(join(dir, 'src/sum.js'), 'utf8').replace(
        'return values.length === 0',
        'let n = values.length;\n  return n === 0',
      );
      writeFileSync(join(dir, 'src/sum.js'), src);
      const { out } = await phase({ working_directory: dir, changed_files: ['src/sum.js'] }, passJudge());
      expect(out.checks.linter).toMatchObject({ status: 'pass', retry_count: 1 });
      expect(readFileSync(join(dir, 'src/sum.js'), 'utf8')).toContain('const n = values.length;');
      expect(out.status).toBe('pass');
    },
    T,
  );

  test(
    'tests: two failing node:test tests → failing_count 2',
    async () => {
      const dir = project('js-app');
      const t = readFileSync(join(dir, 'test/sum.test.js'), 'utf8')
        .replace('sum([1, 2, 3]), 6', 'sum([1, 2, 3]), 7')
        .replace('mean([2, 4]), 3', 'mean([2, 4]), 4');
      writeFileSync(join(dir, 'test/sum.test.js'), t);
      const { out, stderr } = await phase({ working_directory: dir, changed_files: ['test/sum.test.js'] }, passJudge());
      expect(out.checks.tests).toMatchObject({ status: 'fail', failing_count: 2, command: 'npm test' });
      expect(out.status).toBe('fail');
      expect(stderr).toContain('2 failing test(s)');
    },
    T,
  );

  test(
    'build: a TypeScript type error fails the build with file:line from tsc',
    async () => {
      const dir = project('ts-app');
      writeFileSync(
        join(dir, 'src/api.ts'),
        readFileSync(join(dir, 'src/api.ts'), 'utf8').replace(
          'return users.map((u) => u.name).sort();',
          'const n: number = users.length;\n  return n;',
        ),
      );
      const { out } = await phase({ working_directory: dir, changed_files: ['src/api.ts'] }, passJudge());
      expect(out.checks.build.status).toBe('fail');
      expect(
        out.checks.build.errors.some((e: string) =>
          /^src\/api\.ts:9:\d+ error TS2322: Type 'number' is not assignable to type 'string\[\]'/.test(e),
        ),
      ).toBe(true);
      // noEmitOnError: no dist/ → the test run fails too
      expect(out.checks.tests.status).toBe('fail');
      expect(out.status).toBe('fail');
    },
    T,
  );

  test(
    'skip_build / skip_tests: skipped with "" command and 0 ms; overrides are run verbatim',
    async () => {
      const dir = project('ts-app');
      const { out } = await phase(
        {
          working_directory: dir,
          changed_files: ['src/api.ts'],
          language: 'ts',
          skip_build: true,
          skip_tests: true,
          lint_command: 'npx tsc -p . --noEmit',
          format_command: 'npx prettier --check src',
        },
        passJudge(),
      );
      expect(out.checks.build).toEqual({
        status: 'skipped',
        errors: [],
        retry_count: 0,
        command: '',
        execution_time_ms: 0,
      });
      expect(out.checks.tests).toEqual({
        status: 'skipped',
        failing_count: 0,
        retry_count: 0,
        command: '',
        execution_time_ms: 0,
      });
      expect(out.checks.linter).toMatchObject({ status: 'pass', command: 'npx tsc -p . --noEmit' });
      expect(out.checks.formatter).toMatchObject({ status: 'pass', command: 'npx prettier --check src' });
      expect(existsSync(join(dir, 'dist'))).toBe(false);
      expect(out.status).toBe('pass');
    },
    T,
  );

  test(
    'a tool that is not installed is reported as such',
    async () => {
      const dir = project('js-app');
      const { out, stderr } = await phase(
        {
          working_directory: dir,
          changed_files: ['src/sum.js'],
          format_command: 'avp-no-such-formatter --check .',
          build_command: 'avp-no-such-compiler build',
        },
        passJudge(),
      );
      expect(out.checks.formatter.status).toBe('fail');
      expect(out.checks.formatter.issues[0]).toStartWith(
        'avp-no-such-formatter is not installed: `avp-no-such-formatter --check .` could not run',
      );
      expect(out.checks.formatter.retry_count).toBe(0);
      expect(out.checks.build.errors[0]).toStartWith('avp-no-such-compiler is not installed');
      expect(stderr).toContain('avp-no-such-formatter is not installed');
    },
    T,
  );

  test(
    'a script the project does not have, and a program missing inside an npm script (exit 127)',
    async () => {
      const dir = project('js-app');
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      pkg.scripts.build = 'avp-missing-bundler src/sum.js';
      writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
      const { out, stderr } = await phase(
        { working_directory: dir, changed_files: ['src/sum.js'], test_command: 'npm run no-such-script' },
        passJudge(),
      );
      expect(stderr).toContain(
        'tests: package.json has no "no-such-script" script: `npm run no-such-script` could not run (add the script, or pass test_command)',
      );
      expect(out.checks.build.status).toBe('fail');
      expect(out.checks.build.command).toBe('npm run build');
      expect(out.checks.build.errors[0]).toStartWith('avp-missing-bundler is not installed');
      expect(out.checks.tests.status).toBe('fail');
      expect(out.checks.tests.failing_count).toBe(0);
    },
    T,
  );

  test(
    'a hanging command is killed at --timeout and reported; the other checks still run',
    async () => {
      const dir = project('js-app');
      const { out } = await phase(
        {
          working_directory: dir,
          changed_files: ['src/sum.js'],
          build_command: 'node -e "setInterval(() => {}, 1000)"',
        },
        passJudge(),
        ['--timeout', '3'],
      );
      expect(out.checks.build).toMatchObject({
        status: 'fail',
        errors: ['`node -e "setInterval(() => {}, 1000)"` timed out after 3 s and was killed'],
      });
      expect(out.checks.build.execution_time_ms).toBeGreaterThanOrEqual(3000);
      expect(out.checks.tests.status).toBe('pass');
    },
    T,
  );
});
