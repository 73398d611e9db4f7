/**
 * `avp phase` on a Go module with the real toolchain (Debian's golang-go in CI): gofmt -l (fails on output) →
 * gofmt -w → gofmt -l, go vet, go build, go test. Skipped where Go is not installed.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanPath, commandJudge, phase, project } from '../fixtures/phase/harness.ts';
import { tempDir } from '../support/run-avp.ts';

const T = 180_000;
const hasGo = Bun.which('go', { PATH: cleanPath() }) !== null;
const passJudge = () => commandJudge(tempDir('avp-phase-judge-'), []);

describe.skipIf(!hasGo)('avp phase on a Go module', () => {
  test(
    'misformatted code is fixed by gofmt -w (retry 1); vet, build and tests pass',
    async () => {
      const dir = project('go-app');
      writeFileSync(
        join(dir, 'sum.go'),
        readFileSync(join(dir, 'sum.go'), 'utf8').replace('\ttotal := 0\n', '    total := 0\n'),
      );
      const { out } = await phase({ working_directory: dir, changed_files: ['sum.go'] }, passJudge());
      expect(out.checks.formatter).toMatchObject({ status: 'pass', retry_count: 1, command: 'gofmt -l .' });
      expect(out.checks.linter).toMatchObject({ status: 'pass', command: 'go vet ./...' });
      expect(out.checks.build).toMatchObject({ status: 'pass', command: 'go build ./...' });
      expect(out.checks.tests).toMatchObject({ status: 'pass', command: 'go test ./...' });
      expect(out.status).toBe('pass');
      expect(readFileSync(join(dir, 'sum.go'), 'utf8')).toContain('\ttotal := 0\n');
    },
    T,
  );

  test(
    'a compile error fails build and vet with file:line; failing tests are counted',
    async () => {
      const dir = project('go-app');
      writeFileSync(
        join(dir, 'sum.go'),
        readFileSync(join(dir, 'sum.go'), 'utf8').replace('return total', 'return totl'),
      );
      const { out } = await phase(
        { working_directory: dir, changed_files: ['sum.go'], language: 'golang' },
        passJudge(),
      );
      expect(out.checks.build.status).toBe('fail');
      expect(out.checks.build.errors).toContain('sum.go:10:9 undefined: totl');
      expect(out.checks.linter.status).toBe('fail');

      const dir2 = project('go-app');
      writeFileSync(
        join(dir2, 'sum_test.go'),
        readFileSync(join(dir2, 'sum_test.go'), 'utf8').replace('!= 6', '!= 7').replace('!= 0', '!= 1'),
      );
      const r2 = await phase(
        { working_directory: dir2, changed_files: ['sum_test.go'], skip_build: true },
        passJudge(),
      );
      expect(r2.out.checks.tests).toMatchObject({ status: 'fail', failing_count: 2 });
    },
    T,
  );
});
