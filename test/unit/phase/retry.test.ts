import { describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolPlan } from '../../../src/phase/commands.ts';
import { PhaseLog } from '../../../src/phase/logs.ts';
import { runBuild, runFixable, runTests, type CheckContext } from '../../../src/phase/retry.ts';

const made: string[] = [];
process.on('exit', () => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function ctx(maxRetries = 3): CheckContext & { notes: string[] } {
  const wd = mkdtempSync(join(tmpdir(), 'avp-phase-retry-'));
  made.push(wd);
  const notes: string[] = [];
  return {
    wd,
    env: process.env,
    timeoutMs: 20_000,
    maxRetries,
    log: new PhaseLog(wd),
    note: (n) => notes.push(n),
    notes,
  };
}
const plan = (command: string, fix?: string, extra: Partial<ToolPlan> = {}): ToolPlan => ({
  command,
  ...(fix ? { fix } : {}),
  origin: 'input',
  ...extra,
});

describe('runFixable', () => {
  test('check fails, fix repairs, check passes → one retry', async () => {
    const c = ctx();
    const r = await runFixable('formatter', plan('test -f formatted', 'touch formatted'), c);
    expect(r).toMatchObject({ status: 'pass', retry_count: 1, issues: [], command: 'test -f formatted' });
  });

  test('a fix that changes nothing stops after one round', async () => {
    const c = ctx(5);
    const r = await runFixable('linter', plan('echo "src/a.js:3:1 error bad"; exit 1', 'true'), c);
    expect(r).toMatchObject({ status: 'fail', retry_count: 1, issues: ['src/a.js:3:1 error bad'] });
  });

  test('a fix that keeps changing files but never succeeds runs max_retries rounds', async () => {
    const c = ctx(3);
    const r = await runFixable('formatter', plan('echo "would reformat main.py"; exit 1', 'touch "f$(ls | wc -l)"'), c);
    expect(r).toMatchObject({
      status: 'fail',
      retry_count: 3,
      issues: ['File main.py still has formatting issues after 3 retries'],
    });
    expect(readdirSync(c.wd).filter((f) => f.startsWith('f'))).toHaveLength(3);
  });

  test('a command that fixes itself is re-run (fix === command)', async () => {
    const c = ctx();
    const self = 'if [ -f done ]; then exit 0; fi; touch done; echo "fixed 1"; exit 1';
    const r = await runFixable('linter', plan(self, self), c);
    expect(r).toMatchObject({ status: 'pass', retry_count: 1 });
  });

  test('max_retries 0: no fix attempted', async () => {
    const c = ctx(0);
    const r = await runFixable('formatter', plan('test -f x', 'touch x'), c);
    expect(r).toMatchObject({ status: 'fail', retry_count: 0 });
    expect(existsSync(join(c.wd, 'x'))).toBe(false);
  });

  test('no fix mode: one run, the issue says so', async () => {
    const c = ctx();
    const r = await runFixable('formatter', plan('echo "would reformat a.py"; exit 1'), c);
    expect(r.issues).toEqual([
      'File a.py still has formatting issues (no fix mode known for `echo "would reformat a.py"; exit 1`)',
    ]);
    expect(r.retry_count).toBe(0);
  });

  test("a fix mode that is not installed is reported next to the check's issues", async () => {
    const c = ctx();
    const r = await runFixable('formatter', plan('echo "would reformat a.py"; exit 1', 'avp-missing-fixer --write'), c);
    expect(r.issues).toEqual([
      'File a.py still has formatting issues',
      'fix mode could not run: avp-missing-fixer is not installed: `avp-missing-fixer --write` could not run (install it, or pass format_command with a command that exists)',
    ]);
  });

  test('failOnOutput: exit 0 with output is a failure (gofmt -l)', async () => {
    const c = ctx(0);
    const r = await runFixable('formatter', plan('echo main.go', undefined, { failOnOutput: true }), c);
    expect(r).toMatchObject({
      status: 'fail',
      issues: ['File main.go still has formatting issues (no fix mode known for `echo main.go`)'],
    });
  });

  test('no command (language unknown) fails with what to pass', async () => {
    const c = ctx();
    c.noLanguage = 'could not detect the language (no manifest)';
    const r = await runFixable('linter', plan(''), c);
    expect(r.issues).toEqual([
      'No linter command: could not detect the language (no manifest) — pass "language" or "lint_command"',
    ]);
  });
});

describe('runBuild / runTests', () => {
  test('build errors quote the located lines; skipped builds are empty', async () => {
    const c = ctx();
    const r = await runBuild(plan('echo "src/x.ts(2,3): error TS1005: \';\' expected."; exit 2'), c);
    expect(r).toMatchObject({ status: 'fail', errors: ["src/x.ts:2:3 error TS1005: ';' expected."], retry_count: 0 });
    expect(await runBuild({ command: '', skip: 'no build step', origin: 'default' }, c)).toEqual({
      status: 'skipped',
      errors: [],
      retry_count: 0,
      command: '',
      execution_time_ms: 0,
    });
  });

  test('tests: failing count from the summary; the reason goes to the notes', async () => {
    const c = ctx();
    const r = await runTests(plan('printf "# pass 4\\n# fail 2\\n"; exit 1'), c, '/tmp/x.log');
    expect(r).toMatchObject({ status: 'fail', failing_count: 2, retry_count: 0 });
    expect(c.notes.join('\n')).toContain('with 2 failing test(s) (full output: /tmp/x.log)');
  });

  test('the log records every command with its exit status', async () => {
    const c = ctx();
    await runFixable('formatter', plan('test -f ok', 'touch ok'), c);
    const text = await Bun.file(c.log.path!).text();
    expect(text).toContain('=== formatter: $ test -f ok  (exit 1,');
    expect(text).toContain('=== formatter fix: $ touch ok  (exit 0,');
    expect(text).toContain('=== formatter: $ test -f ok  (exit 0,');
  });
});
