/** `avp phase` on a Rust crate with the real toolchain: cargo fmt (check → fix → check), clippy, build, test. */
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandJudge, phase, project } from '../fixtures/phase/harness.ts';
import { tempDir } from '../support/run-avp.ts';

const T = 180_000;
const hasCargo = Bun.which('cargo') !== null;
const passJudge = () => commandJudge(tempDir('avp-phase-judge-'), []);
/** Rust needs HOME for rustup's toolchain: keep the real one for cargo (the test touches no avp state there). */
const rustEnv = () => ({
  ...passJudge(),
  CARGO_HOME: process.env.CARGO_HOME ?? join(process.env.HOME ?? '/root', '.cargo'),
  RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(process.env.HOME ?? '/root', '.rustup'),
});

describe.skipIf(!hasCargo)('avp phase on a Rust crate', () => {
  test(
    'misformatted code: cargo fmt --check fails, cargo fmt fixes, the check passes; clippy, build and tests pass',
    async () => {
      const dir = project('rust-app');
      writeFileSync(
        join(dir, 'src/lib.rs'),
        readFileSync(join(dir, 'src/lib.rs'), 'utf8').replace(
          'pub fn sum(values: &[i64]) -> i64 {',
          'pub fn sum( values:&[i64] )->i64{',
        ),
      );
      const { out } = await phase({ working_directory: dir, changed_files: ['src/lib.rs'] }, rustEnv());
      expect(out.checks.formatter).toMatchObject({ status: 'pass', retry_count: 1, command: 'cargo fmt --check' });
      expect(out.checks.linter).toMatchObject({ status: 'pass', command: 'cargo clippy --all-targets -- -D warnings' });
      expect(out.checks.build).toMatchObject({ status: 'pass', command: 'cargo build' });
      expect(out.checks.tests).toMatchObject({ status: 'pass', command: 'cargo test', failing_count: 0 });
      expect(out.status).toBe('pass');
      expect(readFileSync(join(dir, 'src/lib.rs'), 'utf8')).toContain('pub fn sum(values: &[i64]) -> i64 {');
    },
    T,
  );

  test(
    "a type error fails the build with rustc's file:line; a failing #[test] is counted",
    async () => {
      const dir = project('rust-app');
      const broken = readFileSync(join(dir, 'src/lib.rs'), 'utf8').replace('values.iter().sum()', 'values.len()');
      writeFileSync(join(dir, 'src/lib.rs'), broken);
      const { out } = await phase({ working_directory: dir, changed_files: ['src/lib.rs'], language: 'rs' }, rustEnv());
      expect(out.checks.build.status).toBe('fail');
      expect(
        out.checks.build.errors.some((e: string) => e.startsWith('src/lib.rs:3:5: error[E0308]: mismatched types')),
      ).toBe(true);

      const dir2 = project('rust-app');
      writeFileSync(
        join(dir2, 'src/lib.rs'),
        readFileSync(join(dir2, 'src/lib.rs'), 'utf8').replace(
          'assert_eq!(sum(&[1, 2, 3]), 6);',
          'assert_eq!(sum(&[1, 2, 3]), 7);',
        ),
      );
      const r2 = await phase(
        { working_directory: dir2, changed_files: ['src/lib.rs'], language: 'rust', skip_build: true },
        rustEnv(),
      );
      expect(r2.out.checks.tests).toMatchObject({ status: 'fail', failing_count: 1 });
      expect(r2.out.checks.build.status).toBe('skipped');
    },
    T,
  );

  test(
    'clippy warning under -D warnings fails the linter with file:line',
    async () => {
      const dir = project('rust-app');
      writeFileSync(
        join(dir, 'src/lib.rs'),
        readFileSync(join(dir, 'src/lib.rs'), 'utf8').replace(
          'values.iter().sum()',
          'let total: i64 = values.iter().sum();\n    return total;',
        ),
      );
      const { out } = await phase(
        { working_directory: dir, changed_files: ['src/lib.rs'], max_retries: 0, skip_tests: true },
        rustEnv(),
      );
      expect(out.checks.linter.status).toBe('fail');
      expect(out.checks.linter.issues.some((i: string) => /^src\/lib\.rs:\d+:\d+: error: /.test(i))).toBe(true);
    },
    T,
  );
});
