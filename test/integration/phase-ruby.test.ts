/**
 * `avp phase` on a Ruby project with the real toolchain (Debian's rubocop, rake, minitest in CI): rubocop's Layout
 * cops as the formatter (→ -a), rubocop as the linter, no build step, `rake test`. Skipped where Ruby is missing.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanPath, commandJudge, phase, project } from '../fixtures/phase/harness.ts';
import { tempDir } from '../support/run-avp.ts';

const T = 180_000;
const hasRuby = ['ruby', 'rubocop', 'rake'].every((p) => Bun.which(p, { PATH: cleanPath() }) !== null);
const passJudge = () => commandJudge(tempDir('avp-phase-judge-'), []);

describe.skipIf(!hasRuby)('avp phase on a Ruby project', () => {
  test(
    'bad indentation fixed by rubocop -a (retry 1); no build step; minitest passes',
    async () => {
      const dir = project('ruby-app');
      writeFileSync(
        join(dir, 'lib/calc.rb'),
        readFileSync(join(dir, 'lib/calc.rb'), 'utf8').replace('    values.sum', '        values.sum'),
      );
      const { out } = await phase({ working_directory: dir, changed_files: ['lib/calc.rb'] }, passJudge());
      expect(out.checks.formatter).toMatchObject({ status: 'pass', retry_count: 1, command: 'rubocop --only Layout' });
      expect(out.checks.linter).toMatchObject({ status: 'pass', command: 'rubocop' });
      expect(out.checks.build).toMatchObject({ status: 'skipped', command: '' });
      expect(out.checks.tests).toMatchObject({ status: 'pass', command: 'rake test' });
      expect(out.status).toBe('pass');
    },
    T,
  );

  test(
    'an unfixable offense fails the linter with file:line; a failing test is counted',
    async () => {
      const dir = project('ruby-app');
      writeFileSync(
        join(dir, 'lib/calc.rb'),
        readFileSync(join(dir, 'lib/calc.rb'), 'utf8').replace('    values.sum\n', '    unused = 1\n    values.sum\n'),
      );
      writeFileSync(
        join(dir, 'test/calc_test.rb'),
        readFileSync(join(dir, 'test/calc_test.rb'), 'utf8').replace('assert_equal 6', 'assert_equal 7'),
      );
      const { out } = await phase(
        { working_directory: dir, changed_files: ['lib/calc.rb', 'test/calc_test.rb'], language: 'rb' },
        passJudge(),
      );
      expect(out.checks.linter.status).toBe('fail');
      expect(
        out.checks.linter.issues.some((i: string) => /^lib\/calc\.rb:6:5 W: Lint\/UselessAssignment/.test(i)),
      ).toBe(true);
      expect(out.checks.tests).toMatchObject({ status: 'fail', failing_count: 1 });
    },
    T,
  );
});
