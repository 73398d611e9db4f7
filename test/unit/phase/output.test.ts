import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { assembleOutput, invalidInputOutput } from '../../../src/phase/output.ts';
import type { PhaseChecks } from '../../../src/phase/types.ts';

const schema = JSON.parse(readFileSync(join(import.meta.dir, '../../fixtures/phase/output.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

function checks(): PhaseChecks {
  return {
    formatter: { status: 'pass', issues: [], retry_count: 2, command: 'black . --check', execution_time_ms: 10.6 },
    linter: { status: 'pass', issues: [], retry_count: 1, command: 'ruff check . --fix', execution_time_ms: 5 },
    build: { status: 'skipped', errors: [], retry_count: 0, command: '', execution_time_ms: 0 },
    tests: { status: 'pass', failing_count: 0, retry_count: 0, command: 'pytest -v', execution_time_ms: 7 },
    code_review: { status: 'pass', findings: [], severity: 'none', execution_time_ms: 3 },
    security_review: { status: 'pass', vulnerabilities: [], severity: 'none', execution_time_ms: 2 },
  };
}

describe('assembleOutput', () => {
  test('pass, total_retries = sum, integer times, schema-valid, no critical flag', () => {
    const out = assembleOutput(checks(), 1234.4);
    expect(validate(out)).toBe(true);
    expect(out).toMatchObject({ status: 'pass', total_retries: 3, execution_time_ms: 1234 });
    expect(out.checks.formatter.execution_time_ms).toBe(11);
    expect(out).not.toHaveProperty('critical_security_issue');
  });

  test('any fail → fail; critical security → flag placed before checks', () => {
    const c = checks();
    c.security_review = {
      status: 'fail',
      vulnerabilities: ['SQL Injection in a.ts:1'],
      severity: 'critical',
      execution_time_ms: 4,
    };
    const out = assembleOutput(c, 10);
    expect(validate(out)).toBe(true);
    expect(out.status).toBe('fail');
    expect(out.critical_security_issue).toBe(true);
    expect(Object.keys(out)).toEqual([
      'status',
      'execution_time_ms',
      'total_retries',
      'critical_security_issue',
      'checks',
    ]);
  });

  test('guarantees are enforced on whatever the checks returned', () => {
    const c = checks() as any;
    c.build = { status: 'skipped', errors: ['stale'], retry_count: 2, command: 'make', execution_time_ms: 9, extra: 1 };
    c.tests = { status: 'pass', failing_count: 4, retry_count: -1, command: 'pytest', execution_time_ms: -5 };
    c.formatter.issues = ['left over'];
    c.code_review = { status: 'pass', findings: ['x'], severity: 'low', execution_time_ms: NaN };
    const out = assembleOutput(c, -3);
    expect(validate(out)).toBe(true);
    expect(out.checks.build).toEqual({
      status: 'skipped',
      errors: [],
      retry_count: 0,
      command: '',
      execution_time_ms: 0,
    });
    expect(out.checks.tests).toEqual({
      status: 'pass',
      failing_count: 0,
      retry_count: 0,
      command: 'pytest',
      execution_time_ms: 0,
    });
    expect(out.checks.formatter.issues).toEqual([]);
    expect(out.checks.code_review).toEqual({ status: 'pass', findings: [], severity: 'none', execution_time_ms: 0 });
    expect(out.execution_time_ms).toBe(0);
    expect(out.total_retries).toBe(3);
  });
});

describe('invalidInputOutput', () => {
  test('is Example 4 for the missing working_directory', () => {
    const want = JSON.parse(
      readFileSync(join(import.meta.dir, '../../fixtures/phase/examples/example4-response.json'), 'utf8'),
    );
    const out = invalidInputOutput(["Validation failed: missing required parameter 'working_directory'"]);
    expect(out).toEqual(want);
    expect(validate(out)).toBe(true);
  });
});
