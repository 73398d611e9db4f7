import { describe, expect, test } from 'bun:test';
import { failsOnOutput, formatterFix, linterFix } from '../../../src/phase/fix-mode.ts';

describe('formatterFix', () => {
  test('known check modes map to their fix modes', () => {
    expect(formatterFix('npx prettier --check .')).toBe('npx prettier --write .');
    expect(formatterFix('prettier -c src')).toBe('prettier --write src');
    expect(formatterFix('black . --check')).toBe('black .');
    expect(formatterFix('black --check .')).toBe('black .');
    expect(formatterFix('ruff format --check .')).toBe('ruff format .');
    expect(formatterFix('cargo fmt --check')).toBe('cargo fmt');
    expect(formatterFix('cargo fmt --all -- --check')).toBe('cargo fmt --all');
    expect(formatterFix('gofmt -l .')).toBe('gofmt -w .');
    expect(formatterFix('mvn -q spotless:check')).toBe('mvn -q spotless:apply');
    expect(formatterFix('./gradlew spotlessCheck')).toBe('./gradlew spotlessApply');
    expect(formatterFix('isort --check-only .')).toBe('isort .');
    expect(formatterFix('bundle exec rubocop --only Layout')).toBe('bundle exec rubocop --only Layout -a');
  });

  test('commands that already fix are their own counterpart; unknown commands have none', () => {
    expect(formatterFix('npx prettier --write .')).toBe('npx prettier --write .');
    expect(formatterFix('cargo fmt')).toBe('cargo fmt');
    expect(formatterFix('make format')).toBeUndefined();
    expect(formatterFix('black .')).toBeUndefined();
  });

  test('package.json scripts: format:check → format; a prettier --check script gets -- --write', () => {
    expect(
      formatterFix('npm run format:check', { format: 'prettier --write .', 'format:check': 'prettier --check .' }),
    ).toBe('npm run format');
    expect(formatterFix('pnpm run format', { format: 'prettier --check .' })).toBe('pnpm run format -- --write');
    expect(formatterFix('npm run format', { format: 'prettier --write .' })).toBeUndefined();
  });

  test('gofmt -l reports through its output', () => {
    expect(failsOnOutput('gofmt -l .')).toBe(true);
    expect(failsOnOutput('gofmt -w .')).toBe(false);
  });
});

describe('linterFix', () => {
  test('known linters get their fix flag', () => {
    expect(linterFix('npx eslint .')).toBe('npx eslint . --fix');
    expect(linterFix('ruff check .')).toBe('ruff check . --fix');
    expect(linterFix('golangci-lint run')).toBe('golangci-lint run --fix');
    expect(linterFix('cargo clippy --all-targets -- -D warnings')).toBe(
      'cargo clippy --fix --allow-dirty --allow-staged --allow-no-vcs --all-targets -- -D warnings',
    );
    expect(linterFix('rubocop')).toBe('rubocop -a');
    expect(linterFix('npx biome lint .')).toBe('npx biome lint . --write');
  });

  test('a command that already fixes is re-run as is (Example 2: ruff check . --fix)', () => {
    expect(linterFix('ruff check . --fix')).toBe('ruff check . --fix');
    expect(linterFix('rubocop -a')).toBe('rubocop -a');
  });

  test('npm scripts: lint:fix when declared, else `-- --fix` for a plain eslint script, else nothing', () => {
    expect(linterFix('npm run lint', { lint: 'eslint .', 'lint:fix': 'eslint . --fix' })).toBe('npm run lint:fix');
    expect(linterFix('npm run lint', { lint: 'eslint .' })).toBe('npm run lint -- --fix');
    expect(linterFix('npm run lint', { lint: 'tsc --noEmit' })).toBeUndefined();
    expect(linterFix('npm run lint', { lint: 'eslint . && tsc' })).toBeUndefined();
    expect(linterFix('go vet ./...')).toBeUndefined();
  });
});
