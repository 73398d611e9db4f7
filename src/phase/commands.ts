import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localBin, packageScripts } from './exec.ts';
import { failsOnOutput, formatterFix, linterFix } from './fix-mode.ts';
import type { Language, PhaseInput } from './types.ts';

/** How one tool check will run. */
export interface ToolPlan {
  /** The command whose exit status decides the check; "" when skipped. */
  command: string;
  /** Fix-mode counterpart (formatter/linter), when known. Equal to `command` for commands that already fix. */
  fix?: string;
  /** The check is skipped (build/tests only), with the reason. */
  skip?: string;
  /** The command exits 0 even when it finds problems; any output means failure (`gofmt -l`). */
  failOnOutput?: boolean;
  origin: 'input' | 'project' | 'default';
}

export interface PhasePlan {
  language: Language | undefined;
  formatter: ToolPlan;
  linter: ToolPlan;
  build: ToolPlan;
  tests: ToolPlan;
}

/** npm's placeholder `test` script, which always fails: not a test suite. */
const NPM_PLACEHOLDER_TEST = /no test specified/;

/**
 * The four tool commands for a project: input overrides verbatim, else what the project declares (package.json
 * scripts, tool sections in pyproject, spotless in the build file…), else the language's conventional tool.
 */
export function planCommands(input: PhaseInput, language: Language | undefined): PhasePlan {
  const wd = input.working_directory;
  const scripts = packageScripts(wd);
  const base = language ? defaults(language, wd, scripts) : undefined;
  const none: ToolPlan = { command: '', origin: 'default' };
  const pick = (kind: 'formatter' | 'linter' | 'build' | 'tests', override: string | undefined): ToolPlan => {
    if (override !== undefined) {
      const plan: ToolPlan = { command: override, origin: 'input' };
      const fix =
        kind === 'formatter'
          ? formatterFix(override, scripts)
          : kind === 'linter'
            ? linterFix(override, scripts)
            : undefined;
      if (fix) plan.fix = fix;
      if (kind === 'formatter' && failsOnOutput(override)) plan.failOnOutput = true;
      return plan;
    }
    return base?.[kind] ?? none;
  };
  const plan: PhasePlan = {
    language,
    formatter: pick('formatter', input.format_command),
    linter: pick('linter', input.lint_command),
    build: pick('build', input.build_command),
    tests: pick('tests', input.test_command),
  };
  if (input.skip_build) plan.build = { command: '', skip: 'skip_build is true', origin: 'input' };
  if (input.skip_tests) plan.tests = { command: '', skip: 'skip_tests is true', origin: 'input' };
  return plan;
}

function tool(command: string, origin: ToolPlan['origin'], fix?: string): ToolPlan {
  const plan: ToolPlan = { command, origin };
  if (fix) plan.fix = fix;
  if (failsOnOutput(command)) plan.failOnOutput = true;
  return plan;
}

const skipped = (why: string): ToolPlan => ({ command: '', skip: why, origin: 'default' });

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The package manager a lockfile names (npm when none). */
function packageManager(wd: string): string {
  if (existsSync(join(wd, 'pnpm-lock.yaml'))) return 'pnpm';
  if (existsSync(join(wd, 'yarn.lock'))) return 'yarn';
  if (existsSync(join(wd, 'bun.lock')) || existsSync(join(wd, 'bun.lockb'))) return 'bun';
  return 'npm';
}

function defaults(
  language: Language,
  wd: string,
  scripts: Record<string, string> | undefined,
): Omit<PhasePlan, 'language'> {
  switch (language) {
    case 'javascript':
    case 'typescript':
      return node(language, wd, scripts ?? {});
    case 'python':
      return python(wd);
    case 'rust':
      return {
        formatter: tool('cargo fmt --check', 'default', 'cargo fmt'),
        linter: tool(
          'cargo clippy --all-targets -- -D warnings',
          'default',
          'cargo clippy --fix --allow-dirty --allow-staged --allow-no-vcs --all-targets -- -D warnings',
        ),
        build: tool('cargo build', 'default'),
        tests: tool('cargo test', 'default'),
      };
    case 'go': {
      const golangci = ['.golangci.yml', '.golangci.yaml', '.golangci.toml', '.golangci.json'].some((f) =>
        existsSync(join(wd, f)),
      );
      return {
        formatter: tool('gofmt -l .', 'default', 'gofmt -w .'),
        linter: golangci
          ? tool('golangci-lint run', 'project', 'golangci-lint run --fix')
          : tool('go vet ./...', 'default'),
        build: tool('go build ./...', 'default'),
        tests: tool('go test ./...', 'default'),
      };
    }
    case 'ruby': {
      const bundle = existsSync(join(wd, 'Gemfile')) ? 'bundle exec ' : '';
      return {
        formatter: tool(`${bundle}rubocop --only Layout`, 'default', `${bundle}rubocop --only Layout -a`),
        linter: tool(`${bundle}rubocop`, 'default', `${bundle}rubocop -a`),
        build: skipped('ruby has no build step'),
        tests: existsSync(join(wd, 'spec')) ? tool(`${bundle}rspec`, 'default') : tool(`${bundle}rake test`, 'default'),
      };
    }
    case 'java':
      return java(wd);
  }
}

function node(language: Language, wd: string, s: Record<string, string>): Omit<PhasePlan, 'language'> {
  const pm = packageManager(wd);
  const run = (name: string) => `${pm} run ${name}`;
  let formatter: ToolPlan;
  if (s['format:check']) formatter = tool(run('format:check'), 'project', s.format ? run('format') : undefined);
  else if (s.format) formatter = tool(run('format'), 'project', formatterFix(run('format'), s) ?? run('format'));
  else formatter = tool('npx prettier --check .', 'default', 'npx prettier --write .');
  let linter: ToolPlan;
  if (s.lint) linter = tool(run('lint'), 'project', linterFix(run('lint'), s));
  else if (localBin('eslint', wd)) linter = tool('npx eslint .', 'default', 'npx eslint . --fix');
  else if (language === 'typescript' && existsSync(join(wd, 'tsconfig.json')))
    linter = tool('npx tsc --noEmit --noUnusedLocals --noUnusedParameters', 'default');
  else linter = tool('npx eslint .', 'default', 'npx eslint . --fix');
  let build: ToolPlan;
  if (s.build) build = tool(run('build'), 'project');
  else if (language === 'typescript' && existsSync(join(wd, 'tsconfig.json')))
    build = tool('npx tsc --noEmit', 'default');
  else build = skipped('no build script in package.json (plain JavaScript has no build step)');
  const tests = tool(`${pm} test`, s.test && !NPM_PLACEHOLDER_TEST.test(s.test) ? 'project' : 'default');
  return { formatter, linter, build, tests };
}

function python(wd: string): Omit<PhasePlan, 'language'> {
  const pyproject = read(join(wd, 'pyproject.toml'));
  const cfg = read(join(wd, 'setup.cfg')) + read(join(wd, 'tox.ini'));
  const ruff =
    /\[tool\.ruff/.test(pyproject) || existsSync(join(wd, 'ruff.toml')) || existsSync(join(wd, '.ruff.toml'));
  const black = /\[tool\.black\]/.test(pyproject);
  const formatter =
    ruff && !black
      ? tool('ruff format --check .', 'project', 'ruff format .')
      : tool('black --check .', black ? 'project' : 'default', 'black .');
  const flake8 = /\[flake8\]/.test(cfg) || existsSync(join(wd, '.flake8'));
  const linter =
    flake8 && !ruff
      ? tool('flake8 .', 'project')
      : tool('ruff check .', ruff ? 'project' : 'default', 'ruff check --fix .');
  const tests = tool(
    'pytest',
    /\[tool\.pytest/.test(pyproject) || existsSync(join(wd, 'pytest.ini')) ? 'project' : 'default',
  );
  return { formatter, linter, build: skipped('python has no build step'), tests };
}

function java(wd: string): Omit<PhasePlan, 'language'> {
  const gradleFile = read(join(wd, 'build.gradle')) + read(join(wd, 'build.gradle.kts'));
  if (gradleFile) {
    const g = existsSync(join(wd, 'gradlew')) ? './gradlew' : 'gradle';
    const spotless = /spotless/.test(gradleFile);
    return {
      formatter: tool(`${g} spotlessCheck`, spotless ? 'project' : 'default', `${g} spotlessApply`),
      linter: tool(`${g} check -x test`, 'default'),
      build: tool(`${g} assemble`, 'default'),
      tests: tool(`${g} test`, 'default'),
    };
  }
  const mvn = existsSync(join(wd, 'mvnw')) ? './mvnw' : 'mvn';
  const pom = read(join(wd, 'pom.xml'));
  return {
    formatter: tool(
      `${mvn} -q spotless:check`,
      /spotless/.test(pom) ? 'project' : 'default',
      `${mvn} -q spotless:apply`,
    ),
    linter: tool(`${mvn} -q checkstyle:check`, 'default'),
    build: tool(`${mvn} -q compile`, 'default'),
    tests: tool(`${mvn} -q test`, 'default'),
  };
}
