import { describe, expect, test } from 'bun:test';
import { failingCount, relevantLines, unformattedFiles } from '../../../src/phase/issues.ts';

const wd = '/home/dev/app';

describe('relevantLines', () => {
  test('eslint stylish output is rejoined with its file', () => {
    const out = `\n> lint\n> eslint .\n\n/home/dev/app/src/api.js\n  3:7  error  'x' is assigned a value but never used  no-unused-vars\n  9:1  warning  Unexpected console statement  no-console\n\n✖ 2 problems (1 error, 1 warning)\n`;
    expect(relevantLines(out, wd)).toEqual([
      "src/api.js:3:7 error 'x' is assigned a value but never used (no-unused-vars)",
      'src/api.js:9:1 warning Unexpected console statement (no-console)',
    ]);
  });

  test('tsc, ruff, go and javac locations', () => {
    expect(
      relevantLines("src/api.ts(42,5): error TS2322: Type 'number' is not assignable to type 'string'.", wd),
    ).toEqual(["src/api.ts:42:5 error TS2322: Type 'number' is not assignable to type 'string'."]);
    expect(relevantLines('main.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.', wd)).toEqual([
      'main.py:1:8 F401 [*] `os` imported but unused',
    ]);
    expect(relevantLines('# example.com/app\n./main.go:7:2: undefined: foo', wd)).toEqual([
      'main.go:7:2 undefined: foo',
    ]);
    expect(relevantLines('src/Main.java:3: error: cannot find symbol', wd)).toEqual([
      'src/Main.java:3 error: cannot find symbol',
    ]);
  });

  test('rustc errors are joined with their --> location; summary lines dropped', () => {
    const out =
      'error[E0308]: mismatched types\n --> src/lib.rs:3:5\n  |\n3 |     values.len()\n  |     ^^^^^^^^^^^^ expected `i64`, found `usize`\n\nerror: could not compile `app` (lib) due to 1 previous error\n';
    expect(relevantLines(out, wd)).toEqual(['src/lib.rs:3:5: error[E0308]: mismatched types']);
  });

  test('no location: lines that say error/fail; else the last lines; never npm noise; bounded', () => {
    expect(relevantLines('npm warn config x\nbuilding…\nError: webpack failed to compile\n', wd)).toEqual([
      'Error: webpack failed to compile',
    ]);
    expect(relevantLines('one\ntwo\nthree\n', wd)).toEqual(['one', 'two', 'three']);
    const many = Array.from({ length: 100 }, (_, i) => `src/a${i}.ts(1,1): error TS1: x`).join('\n');
    expect(relevantLines(many, wd)).toHaveLength(20);
    expect(relevantLines(`error: ${'x'.repeat(1000)}`, wd)[0]!.length).toBeLessThanOrEqual(300);
  });
});

describe('unformattedFiles', () => {
  test('prettier, black, cargo fmt, gofmt -l', () => {
    expect(
      unformattedFiles(
        'Checking formatting...\n[warn] src/api.ts\n[warn] src/b.ts\n[warn] Code style issues found in 2 files. Run Prettier with --write to fix.',
        wd,
      ),
    ).toEqual(['src/api.ts', 'src/b.ts']);
    expect(unformattedFiles('would reformat /home/dev/app/main.py\n\nOh no! 1 file would be reformatted.', wd)).toEqual(
      ['main.py'],
    );
    expect(
      unformattedFiles('Diff in /home/dev/app/src/lib.rs at line 1:\n-pub fn sum( x )\n+pub fn sum(x)\n', wd),
    ).toEqual(['src/lib.rs:1']);
    expect(unformattedFiles('main.go\npkg/util.go\n', wd)).toEqual(['main.go', 'pkg/util.go']);
  });
});

describe('failingCount', () => {
  const cases: Array<[string, string, number | undefined]> = [
    ['node --test (TAP)', '# tests 3\n# pass 1\n# fail 2\n', 2],
    ['node --test (spec)', 'ℹ tests 3\nℹ pass 3\nℹ fail 0\n', 0],
    ['bun test', ' 5 pass\n 1 fail\n', 1],
    ['jest', 'Tests:       2 failed, 5 passed, 7 total', 2],
    ['vitest', ' Test Files  1 failed (1)\n      Tests  3 failed | 4 passed (7)', 3],
    ['mocha', '  4 passing (20ms)\n  2 failing\n', 2],
    ['pytest', '==== 1 failed, 3 passed in 0.12s ====', 1],
    ['pytest with errors', '==== 1 failed, 2 errors in 0.12s ====', 3],
    ['pytest all passed', '==== 4 passed in 0.12s ====', 0],
    [
      'cargo (two binaries)',
      'test result: FAILED. 3 passed; 1 failed; 0 ignored\ntest result: FAILED. 0 passed; 2 failed; 0 ignored',
      3,
    ],
    ['go test', '--- FAIL: TestA (0.00s)\n--- FAIL: TestB (0.00s)\nFAIL\nFAIL\texample.com/app\t0.01s', 2],
    ['rspec', '10 examples, 3 failures', 3],
    ['minitest', '5 runs, 9 assertions, 1 failures, 1 errors, 0 skips', 2],
    ['maven', 'Tests run: 6, Failures: 1, Errors: 2, Skipped: 0', 3],
    ['unknown', 'Segmentation fault', undefined],
  ];
  for (const [name, out, want] of cases) test(name, () => expect(failingCount(out)).toBe(want));
});
