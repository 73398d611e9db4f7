/**
 * The plain-pass reader (src/judges/verdict-pass.ts) against the full one (readVerdict): on every value it accepts
 * both give the same verdict, and it accepts nothing the full reader would not read as that pass — no failure, no
 * decision or status beside the pass, no ambiguous `passed`, no unknown key. Values come from a table of near misses
 * and from 3,000 generated objects built of the fields a verdict may carry.
 */
import { describe, expect, test } from 'bun:test';
import { plainPass } from '../../../src/judges/verdict-pass.ts';
import { readVerdict } from '../../../src/judges/verdict-schema.ts';

/** Whatever plainPass says must be what readVerdict says. */
function agrees(value: unknown): boolean {
  const fast = plainPass(value);
  if (fast === undefined) return false;
  expect(readVerdict(value, 'rule')).toEqual({ verdict: fast });
  return true;
}

describe('a plain pass is read as readVerdict reads it', () => {
  test.each([
    [{ passed: true }, 'passed'],
    [{ passed: true, violations: [], summary: 'no secrets' }, 'no secrets'],
    [{ passed: true, summary: 'the summary', reason: 'the reason' }, 'the reason'],
    [{ passed: true, summary: '', reason: '' }, 'passed'],
    [{ passed: true, summary: null, reason: null, violations: null }, 'passed'],
    [{ passed: true, summary: undefined }, 'passed'],
  ])('%j → summary %j', (value, summary) => {
    expect(agrees(value)).toBe(true);
    expect(plainPass(value)).toEqual({ passed: true, violations: [], summary });
  });
});

describe('anything else is left to readVerdict', () => {
  const NOT_PLAIN: unknown[] = [
    null,
    undefined,
    true,
    'passed',
    [{ passed: true }],
    {},
    { passed: false },
    { passed: 'true' },
    { passed: 1 },
    { passed: true, violations: [{ rule: 'r', message: 'm' }] },
    { passed: true, violations: {} },
    { passed: true, violations: 'none' },
    // Empty, but no list: readVerdict finds `passed` beside a malformed verdict, which is ambiguous.
    { passed: true, violations: '' },
    { passed: true, violations: { length: 0 } },
    // An array is never a verdict, whatever property it carries (a script's validate() may return anything).
    Object.assign([], { passed: true }),
    { passed: true, summary: 3 },
    { passed: true, reason: { text: 'x' } },
    { passed: true, decision: 'approve' },
    { passed: true, decision: 'block' },
    // Not a string, so not a verdict readVerdict accepts (a list where a decision goes): ambiguous, never a pass.
    { passed: true, decision: [] },
    { passed: true, status: 'failed' },
    { passed: true, continue: false },
    { passed: true, hookSpecificOutput: { permissionDecision: 'deny' } },
    { passed: true, verdict: { passed: false } },
    { passed: true, extra: 'an unknown key' },
  ];
  // Each value wrapped: test.each spreads an array given as a row.
  test.each(NOT_PLAIN.map((value) => [value]))('%j', (value) => {
    expect(plainPass(value)).toBeUndefined();
  });
});

describe('generated verdict-shaped values', () => {
  // A fixed-seed generator (mulberry32): the same 3,000 values on every run.
  let seed = 0x5eed;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const FIELDS = {
    passed: [true, true, true, false, 'true', 'false', 1, null],
    summary: ['', 'ok', null, undefined, 7, ['x']],
    reason: ['', 'fine', null, undefined, false],
    violations: [[], null, undefined, [{ rule: 'r' }], {}, 'none'],
    decision: ['approve', 'block', '', 'maybe'],
    status: ['passed', 'failed'],
    continue: [true, false],
    other: ['x', { passed: false }, { passed: true }],
  } as const;

  test('both readers agree wherever the plain one answers, and it answers for every plain pass', () => {
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const value: Record<string, unknown> = {};
      for (const [key, choices] of Object.entries(FIELDS))
        if (random() < (key === 'passed' ? 0.95 : 0.35)) value[key] = pick(choices as readonly unknown[]);
      const plain =
        value.passed === true &&
        Object.entries(value).every(([k, v]) =>
          k === 'passed'
            ? true
            : k === 'summary' || k === 'reason'
              ? v === undefined || v === null || typeof v === 'string'
              : k === 'violations'
                ? v === undefined || v === null || (Array.isArray(v) && v.length === 0)
                : false,
        );
      expect(agrees(value)).toBe(plain);
      if (plain) accepted++;
    }
    // Enough of each kind to mean something.
    expect(accepted).toBeGreaterThan(100);
    expect(accepted).toBeLessThan(2900);
  });
});
