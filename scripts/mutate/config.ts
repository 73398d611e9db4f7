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

const CATALOG_TESTS = ['test/catalog/corpus.test.ts', 'test/catalog/scripts.test.ts'];
/** The hook through the binary: verdicts to decisions, and failing closed. */
const HOOK_TESTS = ['test/integration/hook-fail-closed.test.ts', 'test/integration/hook-verdicts.test.ts'];

export const TARGETS: MutationTarget[] = [
  {
    name: 'verdict parsing',
    files: ['src/judges/verdict.ts', 'src/judges/verdict-schema.ts'],
    tests: [
      'test/unit/judges/verdict.test.ts',
      'test/unit/judges/verdict-edges.test.ts',
      'test/unit/judges/verdict-schema.test.ts',
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
    files: ['src/runner/run.ts'],
    tests: ['test/unit/runner/run-errors.test.ts', 'test/unit/runner/run.test.ts'],
    // Budgets, cheap-first and batching are driven through the binary with a loopback LLM server.
    binaryTests: [...HOOK_TESTS, 'test/integration/budget.test.ts', 'test/integration/judges-batch.test.ts'],
  },
  {
    name: 'no-secrets',
    files: ['validators/no-secrets/scripts/check.ts', 'validators/no-secrets/scripts/rules.ts'],
    tests: CATALOG_TESTS,
  },
  {
    name: 'dangerous-commands',
    files: ['validators/dangerous-commands/scripts/check.ts', 'validators/dangerous-commands/scripts/shell.ts'],
    tests: CATALOG_TESTS,
  },
  { name: 'no-debug-leftovers', files: ['validators/no-debug-leftovers/scripts/check.ts'], tests: CATALOG_TESTS },
  {
    name: 'protected-files',
    files: ['validators/protected-files/scripts/check.ts'],
    tests: [...CATALOG_TESTS, 'test/catalog/protected-globs.test.ts'],
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
    tests: ['test/unit/trust/guard.test.ts'],
    binaryTests: ['test/integration/documented-lists.test.ts', 'test/integration/trust.test.ts'],
  },
  {
    name: 'accept refusal',
    files: ['src/trust/agent-env.ts'],
    tests: ['test/unit/trust/agent-env.test.ts'],
    binaryTests: ['test/integration/documented-lists.test.ts', 'test/integration/trust.test.ts'],
  },
];
