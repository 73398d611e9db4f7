/**
 * The aggregated report's rows and summary line, beyond the outcome: what each validator's row says (passed, shown
 * violations, summary), runs not made (cheap-first, budget) and how each status ranks (`runLevel`).
 */
import { describe, expect, test } from 'bun:test';
import { aggregate, runLevel } from '../../../src/runner/aggregate.ts';
import type { ValidatorRun } from '../../../src/runner/types.ts';

const base = (id: string, severity: ValidatorRun['severity']) => ({
  id,
  name: id,
  severity,
  path: `/p/${id}.md`,
  durationMs: 1,
});
const passed = (id: string, severity: ValidatorRun['severity'] = 'error'): ValidatorRun => ({
  ...base(id, severity),
  status: 'passed',
  verdict: { passed: true, violations: [], summary: `${id} is clean` },
});
const failed = (id: string, severity: ValidatorRun['severity'], n = 1): ValidatorRun => ({
  ...base(id, severity),
  status: 'failed',
  verdict: {
    passed: false,
    violations: Array.from({ length: n }, (_, i) => ({ rule: id, file: 'a.ts', line: i + 1 })),
    summary: `${id} found ${n}`,
  },
});
const errored = (id: string, severity: ValidatorRun['severity'], cause?: string): ValidatorRun => ({
  ...base(id, severity),
  status: 'error',
  error: { cause: cause as string, fix: 'fix it' },
});
const skipped = (id: string, code: string, reason?: string): ValidatorRun =>
  ({ ...base(id, 'error'), status: 'skipped', skipped: { code, reason } }) as unknown as ValidatorRun;

describe("each validator's row", () => {
  test('passed: passed, no violations, the verdict summary', () => {
    expect(aggregate([passed('a')]).validators).toEqual([
      { name: 'a', severity: 'error', passed: true, violations: [], summary: 'a is clean' },
    ]);
  });

  test('failed: not passed, its violations shown, its summary; info: passed, nothing shown', () => {
    const r = aggregate([failed('w', 'warn', 2), failed('i', 'info', 3)]);
    expect(r.validators[0]).toMatchObject({ name: 'w', passed: false, summary: 'w found 2' });
    expect(r.validators[0]!.violations).toHaveLength(2);
    expect(r.validators[1]).toMatchObject({ name: 'i', passed: true, violations: [], summary: 'i found 3' });
    expect(r.summary).toBe('1 validator failed with 2 violations; 1 info note logged');
  });

  test('error: not passed, "validator error: <cause>" (or unknown), the error kept on the row', () => {
    const r = aggregate([errored('e', 'warn', 'timed out'), errored('u', 'info')]);
    expect(r.validators[0]).toMatchObject({ passed: false, summary: 'validator error: timed out' });
    expect(r.validators[0]!.error).toEqual({ cause: 'timed out', fix: 'fix it' });
    expect(r.validators[1]).toMatchObject({ passed: false, summary: 'validator error: unknown' });
    expect(r.summary).toBe('2 validators could not be evaluated');
    expect('error' in aggregate([passed('a')]).validators[0]!).toBe(false);
  });

  test('a verdict without a summary reads as an empty one', () => {
    const run = { ...passed('a'), verdict: { passed: true, violations: [] } } as unknown as ValidatorRun;
    expect(aggregate([run]).validators[0]!.summary).toBe('');
  });
});

describe('runs not made', () => {
  test('cheap-first and budget skips: WARNED, never passed, each reason counted in the summary', () => {
    const r = aggregate([
      skipped('a', 'cheap-first', 'a script validator blocks already'),
      skipped('b', 'budget-spent'),
      skipped('c', 'budget-spent'),
    ]);
    expect(r.outcome).toBe('WARNED');
    expect(r.validators.map((v) => v.passed)).toEqual([false, false, false]);
    expect(r.validators.map((v) => v.summary)).toEqual(['a script validator blocks already', 'not run', 'not run']);
    expect(r.summary).toBe(
      '1 validator not run (a script validator already blocks); 2 validators not run (the LLM budget is spent)',
    );
    expect(r.totalViolations).toBe(0);
  });

  test('a skip beside a blocking failure: still ERROR', () => {
    expect(aggregate([skipped('a', 'budget-spent'), failed('b', 'error')]).outcome).toBe('ERROR');
  });
});

describe('runLevel', () => {
  test('passed → pass; skipped → warn; failed → its severity; error → error (warn only when soft, never for error)', () => {
    expect(runLevel(passed('a'))).toBe('pass');
    expect(runLevel(skipped('a', 'budget-spent'))).toBe('warn');
    for (const s of ['error', 'warn', 'info'] as const) expect(runLevel(failed('a', s))).toBe(s);
    for (const s of ['error', 'warn', 'info'] as const) expect(runLevel(errored('a', s))).toBe('error');
    expect(runLevel(errored('a', 'warn'), { softValidatorErrors: true })).toBe('warn');
    expect(runLevel(errored('a', 'info'), { softValidatorErrors: true })).toBe('warn');
    expect(runLevel(errored('a', 'error'), { softValidatorErrors: true })).toBe('error');
  });
});
