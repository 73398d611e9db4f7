/**
 * The verdict parser at its edges: an empty or whitespace reply fails closed, an oversized reply is read from its
 * end, a text decision's reason and summary, wrappers one level down only, and which file a claimed line is checked
 * against (verifyLines) when the judge names it in another form.
 */
import { describe, expect, test } from 'bun:test';
import type { AvpError } from '../../../src/errors.ts';
import type { FileChange, HookEvent } from '../../../src/protocol/event.ts';
import { hunkRanges, nested, parseVerdict, verifyLines } from '../../../src/judges/verdict.ts';
import type { Verdict } from '../../../src/judges/types.ts';

function unreadable(text: string): AvpError {
  try {
    parseVerdict(text);
  } catch (e) {
    return e as AvpError;
  }
  throw new Error(`parsed without an error: ${JSON.stringify(text)}`);
}

describe('replies that are no verdict fail closed', () => {
  test.each(['', '   \n\t ', '\n\n'])('an empty reply (%j): judge-unreadable with the doctor fix', (text) => {
    const e = unreadable(text);
    expect(e.code).toBe('judge-unreadable');
    expect(e.message).toBe('the judge returned an empty reply');
    expect(e.fix).toBe('check the judge backend (`avp doctor`); the validator fails closed until it answers');
  });

  test('prose without a verdict: judge-unreadable quoting the start of the reply, trimmed', () => {
    const e = unreadable('  I looked at the change and it seems fine.  ');
    expect(e.code).toBe('judge-unreadable');
    expect(e.message).toBe(`the judge's reply is not a verdict: "I looked at the change and it seems fine."`);
    expect(e.fix).toContain('the judge must answer with the JSON verdict');
  });

  test('an ambiguous passed: judge-unreadable saying what the judge must answer', () => {
    const e = unreadable('{"passed": "yes", "violations": [], "summary": "fine"}');
    expect(e.code).toBe('judge-unreadable');
    expect(e.fix).toBe(
      'the judge must answer "passed": true or false (a JSON boolean); the validator fails closed until it does',
    );
  });

  test('a reply past 200,000 characters is read from its end (the verdict comes last)', () => {
    const pass = '{"passed": true, "violations": [], "summary": "clean"}';
    const fail = '{"passed": false, "violations": [{"rule": "r", "message": "bad"}], "summary": "bad"}';
    // The failing verdict at the very start is cut off; what remains is the passing one at the end.
    expect(parseVerdict(`${fail}${' '.repeat(200_000)}${pass}`).passed).toBe(true);
    expect(parseVerdict(`${' '.repeat(200_000 - fail.length)}${fail}`).passed).toBe(false);
  });
});

describe('text decisions', () => {
  test('ALLOW with a reason: passed, the first line of the reason as summary; bare: "passed"', () => {
    expect(parseVerdict('ALLOW: nothing risky here\nmore words')).toEqual({
      passed: true,
      violations: [],
      summary: 'nothing risky here',
    });
    expect(parseVerdict('ALLOW')).toEqual({ passed: true, violations: [], summary: 'passed' });
  });

  test('DENY with a reason keeps all of it; bare DENY says the judge denied the change', () => {
    const v = parseVerdict('DENY: a key in src/a.ts\nline two', { rule: 'no-secrets' });
    expect(v).toEqual({
      passed: false,
      violations: [{ rule: 'no-secrets', message: 'a key in src/a.ts\nline two' }],
      summary: 'a key in src/a.ts',
    });
    expect(parseVerdict('DENY').violations).toEqual([{ rule: 'judge', message: 'the judge denied the change' }]);
  });
});

test('nested: object values one level down only, never arrays, null or scalars', () => {
  expect(nested({ a: { x: 1 }, b: [1], c: null, d: 'x', e: 2 })).toEqual([{ x: 1 }]);
  for (const v of [null, 'x', 3, [{ a: 1 }]]) expect(nested(v)).toEqual([]);
});

describe('verifyLines: which file a claimed line is checked against', () => {
  const change = (relPath: string, after: string): FileChange => ({
    path: `/p/${relPath}`,
    relPath,
    inProject: true,
    kind: 'update',
    before: '',
    after,
  });
  const event = (files: FileChange[]) =>
    ({ agent: 'claude', event: 'PostToolUse', cwd: '/p', projectRoot: '/p', files, raw: {} }) as HookEvent;
  const claim = (file: string | undefined, line: number): Verdict => ({
    passed: false,
    violations: [{ rule: 'r', ...(file === undefined ? {} : { file }), line }],
    summary: 's',
  });
  const unverified = (v: Verdict) => v.violations.map((x) => !!x.lineUnverified);
  const two = [change('src/a.ts', 'one\ntwo\n'), change('lib/b.ts', 'one\ntwo\nthree\nfour\n')];

  test('by relative path, absolute path, ./ or backslash form, or a path that ends the same', () => {
    for (const file of ['src/a.ts', '/p/src/a.ts', './src/a.ts', 'src\\a.ts', 'a.ts', '/elsewhere/src/a.ts'])
      expect({ file, flags: unverified(verifyLines(claim(file, 4), event(two))) }).toEqual({ file, flags: [true] });
    // Line 4 exists in lib/b.ts: the same claim against it stands.
    expect(unverified(verifyLines(claim('lib/b.ts', 4), event(two)))).toEqual([false]);
  });

  test('without a file: the only changed file, or nothing to check against when there are several', () => {
    expect(unverified(verifyLines(claim(undefined, 3), event([two[0]!])))).toEqual([true]);
    expect(unverified(verifyLines(claim(undefined, 3), event(two)))).toEqual([false]);
  });

  test('line bounds: 0 and past the end are unverified, the last line (with or without final newline) is not', () => {
    const one = (after: string) => event([change('src/a.ts', after)]);
    expect(unverified(verifyLines(claim('src/a.ts', 0), one('a\nb\n')))).toEqual([true]);
    expect(unverified(verifyLines(claim('src/a.ts', 2), one('a\nb\n')))).toEqual([false]);
    expect(unverified(verifyLines(claim('src/a.ts', 3), one('a\nb\n')))).toEqual([true]);
    expect(unverified(verifyLines(claim('src/a.ts', 2), one('a\nb')))).toEqual([false]);
    expect(unverified(verifyLines(claim('src/a.ts', 1), one('')))).toEqual([true]);
  });

  test('a verdict with no line, or an event with no files, is returned as it is', () => {
    const v: Verdict = { passed: false, violations: [{ rule: 'r', file: 'src/a.ts' }], summary: 's' };
    expect(verifyLines(v, event(two))).toBe(v);
    const lined = claim('src/a.ts', 99);
    expect(verifyLines(lined, event([]))).toBe(lined);
  });

  test('hunkRanges: a hunk without a length is one line; an empty hunk (pure deletion) has none', () => {
    expect(hunkRanges('@@ -1 +7 @@\n+x\n@@ -3,2 +9,0 @@\n-a\n-b\n@@ -20,1 +30,3 @@\n')).toEqual([
      [7, 7],
      [30, 32],
    ]);
  });
});
