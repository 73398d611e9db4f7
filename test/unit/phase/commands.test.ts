import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planCommands } from '../../../src/phase/commands.ts';
import type { Language, PhaseInput } from '../../../src/phase/types.ts';

const root = mkdtempSync(join(tmpdir(), 'avp-phase-commands-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));
let n = 0;
function repo(files: Record<string, string>): string {
  const dir = join(root, String(n++));
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}
const input = (dir: string, extra: Partial<PhaseInput> = {}): PhaseInput => ({
  working_directory: dir,
  changed_files: [],
  max_retries: 3,
  skip_build: false,
  skip_tests: false,
  ...extra,
});
const plan = (dir: string, lang: Language, extra: Partial<PhaseInput> = {}) => planCommands(input(dir, extra), lang);

describe('planCommands', () => {
  test('JavaScript prefers package.json scripts', () => {
    const dir = repo({
      'package.json': JSON.stringify({
        scripts: {
          format: 'prettier --write .',
          'format:check': 'prettier --check .',
          lint: 'eslint .',
          build: 'vite build',
          test: 'vitest run',
        },
      }),
    });
    const p = plan(dir, 'javascript');
    expect(p.formatter).toMatchObject({ command: 'npm run format:check', fix: 'npm run format', origin: 'project' });
    expect(p.linter).toMatchObject({ command: 'npm run lint', fix: 'npm run lint -- --fix' });
    expect(p.build).toMatchObject({ command: 'npm run build' });
    expect(p.tests).toMatchObject({ command: 'npm test', origin: 'project' });
  });

  test('JavaScript without scripts: prettier/eslint defaults, no build step; lockfiles pick the package manager', () => {
    const dir = repo({ 'package.json': '{}', 'pnpm-lock.yaml': '' });
    const p = plan(dir, 'javascript');
    expect(p.formatter).toMatchObject({ command: 'npx prettier --check .', fix: 'npx prettier --write .' });
    expect(p.build.skip).toMatch(/no build step/);
    expect(p.build.command).toBe('');
    expect(p.tests.command).toBe('pnpm test');
    const ts = plan(repo({ 'package.json': '{}', 'tsconfig.json': '{}' }), 'typescript');
    expect(ts.build.command).toBe('npx tsc --noEmit');
  });

  test('Python: black/ruff/pytest by default, ruff format when the project configures ruff; no build step', () => {
    const p = plan(repo({ 'pyproject.toml': '[project]\nname="x"\n' }), 'python');
    expect(p.formatter).toMatchObject({ command: 'black --check .', fix: 'black .' });
    expect(p.linter).toMatchObject({ command: 'ruff check .', fix: 'ruff check --fix .' });
    expect(p.build.skip).toBe('python has no build step');
    expect(p.tests.command).toBe('pytest');
    const r = plan(repo({ 'pyproject.toml': '[tool.ruff]\nline-length = 100\n' }), 'python');
    expect(r.formatter).toMatchObject({ command: 'ruff format --check .', fix: 'ruff format .', origin: 'project' });
    const f = plan(repo({ 'setup.cfg': '[flake8]\nmax-line-length = 100\n' }), 'python');
    expect(f.linter.command).toBe('flake8 .');
  });

  test('Rust, Go, Ruby, Java defaults', () => {
    expect(plan(repo({ 'Cargo.toml': '' }), 'rust').formatter).toMatchObject({
      command: 'cargo fmt --check',
      fix: 'cargo fmt',
    });
    const go = plan(repo({ 'go.mod': '' }), 'go');
    expect(go.formatter).toMatchObject({ command: 'gofmt -l .', fix: 'gofmt -w .', failOnOutput: true });
    expect(go.linter.command).toBe('go vet ./...');
    expect(plan(repo({ 'go.mod': '', '.golangci.yml': '' }), 'go').linter).toMatchObject({
      command: 'golangci-lint run',
      fix: 'golangci-lint run --fix',
    });
    const rb = plan(repo({ Gemfile: '', 'spec/a_spec.rb': '' }), 'ruby');
    expect(rb.linter).toMatchObject({ command: 'bundle exec rubocop', fix: 'bundle exec rubocop -a' });
    expect(rb.tests.command).toBe('bundle exec rspec');
    expect(rb.build.skip).toBeDefined();
    const mvn = plan(repo({ 'pom.xml': '<project/>' }), 'java');
    expect(mvn.build.command).toBe('mvn -q compile');
    expect(mvn.tests.command).toBe('mvn -q test');
    expect(
      plan(repo({ 'build.gradle': 'plugins { id "com.diffplug.spotless" }', gradlew: '' }), 'java').formatter,
    ).toMatchObject({ command: './gradlew spotlessCheck', origin: 'project' });
  });

  test('overrides are verbatim, with derived fix modes; skip flags win', () => {
    const dir = repo({ 'pyproject.toml': '' });
    const p = plan(dir, 'python', {
      format_command: 'black . --check',
      lint_command: 'ruff check . --fix',
      test_command: 'pytest -v',
      build_command: 'make',
      skip_build: true,
    });
    expect(p.formatter).toMatchObject({ command: 'black . --check', fix: 'black .', origin: 'input' });
    expect(p.linter).toMatchObject({ command: 'ruff check . --fix', fix: 'ruff check . --fix' });
    expect(p.tests.command).toBe('pytest -v');
    expect(p.build).toMatchObject({ command: '', skip: 'skip_build is true' });
  });

  test('unknown language: no commands unless given', () => {
    const p = planCommands(input(repo({}), { test_command: 'make test' }), undefined);
    expect(p.formatter.command).toBe('');
    expect(p.tests.command).toBe('make test');
  });
});
