/**
 * The modules that carry avp's guarantees, each with the tests that must notice a bug in it. A mutant is run against
 * these files only (the whole suite is far too slow for hundreds of mutants on a small machine): first `tests`
 * (in-process), then, only for a mutant they did not kill, `binaryTests` against a binary built from the mutant.
 */
export interface MutationTarget {
  /** The group's name in the report (one score each). */
  name: string;
  /** Module files, relative to the repository root. */
  files: string[];
  /** Test files run against each mutant. */
  tests: string[];
  /** Tests of the compiled binary, run (after a build) when `tests` did not kill the mutant. */
  binaryTests?: string[];
}

/**
 * A catalog validator's in-process tests, its exact corpus test first (the cheapest killer). The copies' equality
 * test (test/catalog/copies.test.ts) is never mapped: it would kill every mutant of a copied file without judging it.
 */
const catalogTests = (name: string, ...more: string[]) => [
  `test/catalog/corpus-${name}.test.ts`,
  ...more,
  'test/catalog/scripts.test.ts',
];
const scripts = (name: string, ...files: string[]) => files.map((f) => `validators/${name}/scripts/${f}.ts`);
/** The hook through the binary: verdicts to decisions, and failing closed. */
const HOOK_TESTS = ['test/integration/hook-fail-closed.test.ts', 'test/integration/hook-verdicts.test.ts'];

export const TARGETS: MutationTarget[] = [
  {
    name: 'verdict parsing',
    files: ['src/judges/verdict.ts', 'src/judges/verdict-schema.ts', 'src/judges/verdict-pass.ts'],
    tests: [
      'test/unit/judges/verdict.test.ts',
      'test/unit/judges/verdict-edges.test.ts',
      'test/unit/judges/verdict-schema.test.ts',
      'test/unit/judges/verdict-pass.test.ts',
    ],
  },
  {
    name: 'aggregation',
    files: ['src/runner/aggregate.ts'],
    tests: [
      'test/unit/runner/aggregate.test.ts',
      'test/unit/runner/aggregate-report.test.ts',
      'test/unit/agents/claude-render.test.ts',
    ],
    binaryTests: HOOK_TESTS,
  },
  {
    name: 'decision',
    files: ['src/hook/decision.ts'],
    tests: [
      'test/unit/hook/decision.test.ts',
      'test/unit/agents/claude-render.test.ts',
      'test/unit/runner/aggregate.test.ts',
    ],
    binaryTests: HOOK_TESTS,
  },
  {
    name: 'fail-closed run',
    files: ['src/runner/run.ts', 'src/runner/run-one.ts'],
    tests: ['test/unit/runner/run-errors.test.ts', 'test/unit/runner/run-plan.test.ts', 'test/unit/runner/run.test.ts'],
    // Budgets, cheap-first and batching are driven through the binary with a loopback LLM server; catalog scripts
    // run from the bundle (run-one.ts' path without a timer) through it too.
    binaryTests: [
      ...HOOK_TESTS,
      'test/integration/budget.test.ts',
      'test/integration/judges-batch.test.ts',
      'test/integration/catalog-builtin.test.ts',
    ],
  },
  // no-secrets-before carries no-secrets' scripts byte for byte, and no-debug-leftovers its added-lines.ts;
  // protected-files the lexer of dangerous-commands (shell.ts): each is mutated once, where the tests are.
  {
    name: 'no-secrets',
    files: scripts('no-secrets', 'check', 'rules', 'providers', 'scan', 'gitleaks', 'shell', 'added-lines'),
    tests: catalogTests(
      'no-secrets',
      'test/catalog/no-secrets.test.ts',
      'test/catalog/no-secrets-providers.test.ts',
      'test/catalog/no-secrets-scan.test.ts',
      'test/catalog/no-secrets-heuristics.test.ts',
      'test/catalog/no-secrets-shell.test.ts',
      'test/catalog/no-secrets-commit.test.ts',
      'test/catalog/no-secrets-gitleaks.test.ts',
      'test/catalog/no-secrets-added-lines.test.ts',
      'test/catalog/no-secrets-rules.test.ts',
      'test/catalog/no-secrets-check.test.ts',
    ),
  },
  {
    name: 'dangerous-commands',
    files: scripts('dangerous-commands', 'check', 'context', 'files', 'git', 'infra', 'paths', 'remote'),
    tests: catalogTests(
      'dangerous-commands',
      'test/catalog/commands-files.test.ts',
      'test/catalog/commands-nesting.test.ts',
      'test/catalog/commands-deletes.test.ts',
      'test/catalog/commands-git.test.ts',
      'test/catalog/commands-infra.test.ts',
      'test/catalog/commands-remote.test.ts',
      'test/catalog/commands-paths.test.ts',
    ),
  },
  {
    name: 'shell lexer (dangerous-commands, protected-files)',
    files: scripts('dangerous-commands', 'shell'),
    tests: catalogTests(
      'dangerous-commands',
      'test/catalog/shell-lexer.test.ts',
      'test/catalog/commands-files.test.ts',
    ),
  },
  {
    name: 'no-debug-leftovers',
    files: scripts('no-debug-leftovers', 'check'),
    tests: catalogTests('no-debug-leftovers', 'test/catalog/no-debug-leftovers.test.ts'),
  },
  {
    name: 'protected-files',
    files: scripts('protected-files', 'check', 'globs', 'writes'),
    tests: catalogTests(
      'protected-files',
      'test/catalog/protected-lazy-globs.test.ts',
      'test/catalog/protected-writes.test.ts',
      'test/catalog/protected-targets.test.ts',
      'test/catalog/protected-files.test.ts',
      'test/catalog/protected-globs.test.ts',
      'test/catalog/commands-files.test.ts',
    ),
  },
  {
    name: 'archive checks',
    files: ['src/registry-client/archive.ts', 'src/registry-client/archive-rules.ts'],
    tests: [
      'test/unit/registry-client/archive-rules.test.ts',
      'test/unit/registry-client/archive-edges.test.ts',
      'test/unit/registry-client/archive.test.ts',
    ],
  },
  {
    name: 'lockfile',
    files: ['src/registry-client/lockfile.ts'],
    tests: [
      'test/unit/registry-client/lockfile-read.test.ts',
      'test/unit/registry-client/lockfile-source.test.ts',
      'test/unit/registry-client/resolve-lock.test.ts',
    ],
  },
  {
    name: 'guard',
    files: ['src/trust/guard.ts'],
    tests: ['test/unit/trust/guard-calls.test.ts', 'test/unit/trust/guard.test.ts'],
    binaryTests: ['test/integration/documented-lists.test.ts', 'test/integration/trust.test.ts'],
  },
  {
    // A memo that hid a change to a control file would switch a validator off without a word: every mutant meets the
    // changes made after a memo was written, through the binary.
    name: 'hook memo',
    files: ['src/trust/hook-memo.ts', 'src/validator/listing.ts'],
    tests: ['test/unit/validator/listing.test.ts'],
    binaryTests: [
      'test/integration/hook-memo.test.ts',
      'test/integration/hook-memo-validity.test.ts',
      'test/integration/trust-walk.test.ts',
    ],
  },
  {
    name: 'hook shortcut',
    files: ['src/hook/shortcut/answer.ts', 'src/hook/shortcut/record.ts', 'src/hook/shortcut/shortcut-file.ts'],
    tests: [
      'test/unit/hook/shortcut-imports.test.ts',
      'test/unit/hook/shortcut-file.test.ts',
      'test/unit/hook/shortcut-record.test.ts',
      'test/unit/hook/shortcut-record-basis.test.ts',
    ],
    binaryTests: [
      'test/integration/hook-shortcut.test.ts',
      'test/integration/hook-shortcut-attacks.test.ts',
      'test/integration/hook-shortcut-records.test.ts',
      'test/integration/hook-shortcut-input.test.ts',
    ],
  },
  {
    // The calls the shortcut counts wait in a folder the agent can write to: nothing there may lead avp to read, write
    // or remove anything else, and no call may be lost or counted twice.
    name: 'pending calls',
    files: ['src/stats/pending-calls.ts', 'src/stats/call-line.ts'],
    tests: ['test/unit/stats/pending-calls.test.ts'],
    binaryTests: ['test/integration/hook-shortcut.test.ts', 'test/integration/hook-shortcut-attacks.test.ts'],
  },
  {
    // Hostile input is refused at the cost of reading it: the size, time and nesting limits of the one stdin reader
    // the shortcut and the full path share.
    name: 'hook input',
    files: ['src/hook/input.ts', 'src/hook/stdin.ts'],
    tests: [
      'test/unit/hook/input-errors.test.ts',
      'test/unit/hook/stdin-depth.test.ts',
      'test/unit/hook/stdin-terminal.test.ts',
    ],
    binaryTests: ['test/integration/hook-shortcut-input.test.ts', 'test/integration/hook-fail-closed.test.ts'],
  },
  {
    // What a shell command does to avp's control paths, read as sh would read it: a mutant here is a command that
    // switches avp off, or hides an edit from it, and passes the guard.
    name: 'shell guard',
    files: [
      'src/trust/shell-writes.ts',
      'src/trust/shell-words.ts',
      'src/trust/shell-targets.ts',
      'src/trust/shell-programs.ts',
      'src/trust/shell-find.ts',
      'src/trust/shell-commands.ts',
      'src/trust/shell-expand.ts',
      'src/trust/shell-lex.ts',
      'src/trust/hook-switches.ts',
      'src/trust/env-switches.ts',
      'src/trust/control-paths.ts',
    ],
    tests: [
      'test/unit/trust/shell-commands.test.ts',
      'test/unit/trust/shell-constructs.test.ts',
      'test/unit/trust/hook-switches.test.ts',
      'test/unit/trust/control-paths.test.ts',
      'test/unit/trust/shell-writes.test.ts',
      'test/unit/trust/shell-routine.test.ts',
      'test/unit/trust/shell-env.test.ts',
      'test/unit/trust/guard-calls.test.ts',
      'test/unit/trust/guard.test.ts',
    ],
    binaryTests: [
      'test/integration/guard-switches.test.ts',
      'test/integration/guard-env-files.test.ts',
      'test/integration/guard-after.test.ts',
      'test/integration/trust.test.ts',
    ],
  },
  {
    // Where a path really leads (symlinks, dangling ones, case-folding volumes): the guard compares control paths and
    // validators match files through it, so a mutant here is a write that reaches a control file under another name.
    name: 'real paths',
    files: ['src/os/real-paths.ts'],
    tests: [
      'test/unit/paths-real.test.ts',
      'test/unit/win32-paths.test.ts',
      'test/unit/trust/guard.test.ts',
      'test/unit/trust/control-paths.test.ts',
    ],
    binaryTests: ['test/integration/hook-paths.test.ts', 'test/integration/trust.test.ts'],
  },
  {
    name: 'accept refusal',
    files: ['src/trust/agent-env.ts'],
    tests: ['test/unit/trust/agent-env.test.ts'],
    binaryTests: ['test/integration/documented-lists.test.ts', 'test/integration/trust.test.ts'],
  },
];
