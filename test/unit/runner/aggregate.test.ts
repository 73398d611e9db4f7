import { describe, expect, test } from 'bun:test';
import { aggregate } from '../../../src/runner/aggregate.ts';
import type { ValidatorRun } from '../../../src/runner/types.ts';

const run = (
  id: string,
  severity: ValidatorRun['severity'],
  status: ValidatorRun['status'],
  violations = 0,
): ValidatorRun => ({
  id,
  name: id,
  severity,
  path: `/p/${id}.md`,
  status,
  durationMs: 1,
  ...(status === 'error'
    ? { error: { cause: 'timed out', fix: 'raise timeout' } }
    : {
        verdict: {
          passed: status === 'passed',
          violations: Array.from({ length: violations }, (_, i) => ({ rule: id, file: 'a.ts', line: i + 1 })),
          summary: `${id} summary`,
        },
      }),
});

describe('aggregate (seed 001)', () => {
  test('all pass → PASSED', () => {
    const r = aggregate([run('a', 'error', 'passed'), run('b', 'warn', 'passed')]);
    expect(r.outcome).toBe('PASSED');
    expect(r.totalViolations).toBe(0);
    expect(r.summary).toBe('2 validators passed');
  });

  test('a warn failure → WARNED; an error failure → ERROR; every violation counted', () => {
    expect(aggregate([run('a', 'warn', 'failed', 2), run('b', 'error', 'passed')]).outcome).toBe('WARNED');
    const r = aggregate([
      run('a', 'warn', 'failed', 2),
      run('b', 'error', 'failed', 1),
      run('c', 'error', 'failed', 3),
    ]);
    expect(r.outcome).toBe('ERROR');
    expect(r.totalViolations).toBe(6);
    expect(r.summary).toBe('3 validators failed with 6 violations');
    expect(r.validators.map((v) => [v.name, v.passed, v.violations.length])).toEqual([
      ['a', false, 2],
      ['b', false, 1],
      ['c', false, 3],
    ]);
  });

  test('info findings pass and are not shown', () => {
    const r = aggregate([run('i', 'info', 'failed', 4)]);
    expect(r.outcome).toBe('PASSED');
    expect(r.validators[0]).toMatchObject({ passed: true, violations: [] });
    expect(r.summary).toContain('1 info note logged');
  });

  test('fail closed: an error validator that cannot be evaluated → ERROR, kept apart from violations', () => {
    const r = aggregate([run('x', 'error', 'error'), run('ok', 'error', 'passed')]);
    expect(r.outcome).toBe('ERROR');
    expect(r.totalViolations).toBe(0);
    expect(r.validators[0]).toMatchObject({ passed: false, violations: [], error: { cause: 'timed out' } });
    expect(r.summary).toBe('1 validator could not be evaluated');
  });

  test('fail closed whatever the severity: a warn or info validator that cannot be evaluated → ERROR', () => {
    expect(aggregate([run('w', 'warn', 'error')]).outcome).toBe('ERROR');
    expect(aggregate([run('i', 'info', 'error')]).outcome).toBe('ERROR');
    expect(aggregate([run('i', 'info', 'error')], { softValidatorErrors: false }).outcome).toBe('ERROR');
  });

  test('softValidatorErrors (leaves the spec): warn/info errors only warn; error validators still block', () => {
    const soft = { softValidatorErrors: true };
    expect(aggregate([run('w', 'warn', 'error')], soft).outcome).toBe('WARNED');
    expect(aggregate([run('i', 'info', 'error')], soft).outcome).toBe('WARNED');
    expect(aggregate([run('e', 'error', 'error'), run('w', 'warn', 'error')], soft).outcome).toBe('ERROR');
  });

  test('a failure without listed violations still counts as one', () => {
    const r = aggregate([run('a', 'error', 'failed', 0)]);
    expect(r.outcome).toBe('ERROR');
    expect(r.totalViolations).toBe(1);
  });
});
