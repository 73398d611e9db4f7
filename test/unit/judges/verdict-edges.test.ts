/**
 * The verdict parser at its edges: an empty or whitespace reply fails closed, an oversized reply is read from its
 * end, a text decision's reason and summary, wrappers one level down only, and which file a claimed line is checked
 * against (verifyLines) when the judge names it in another form.
 */
import { describe, expect, test } from 'bun:test';
import type { AvpError } from '../../../src/errors.ts';
import type { FileChange, HookEvent } from '../../../src/protocol/event.ts';
import { hunkRanges, nested, parseVerdict, verdictFromValue, verifyLines } from '../../../src/judges/verdict.ts';
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
  for (const v of [null, undefined, 'x', 3, [{ a: 1 }]]) expect(nested(v)).toEqual([]);
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

describe('the reply as a whole', () => {
  test('a missing reply (null or undefined from a backend) is the empty reply', () => {
    for (const text of [null, undefined])
      expect(unreadable(text as unknown as string).message).toBe('the judge returned an empty reply');
  });

  test('a DENY line with the reason on the next, indented line: the reason is the summary', () => {
    expect(parseVerdict('DENY\n   key on line 3', { rule: 'r' }).summary).toBe('key on line 3');
  });

  test('an ALLOW line beside a refusal in prose is a failure, quoting the refusal', () => {
    const v = parseVerdict('ALLOW\nOn reflection I cannot approve this change: it adds a key.', { rule: 'r' });
    expect(v.passed).toBe(false);
    expect(v.violations[0]!.rule).toBe('r');
  });

  test('a refusal in prose without a decision line or JSON is a failure, not an unreadable reply', () => {
    const v = parseVerdict('I cannot approve this change: it adds a key.', { rule: 'r' });
    expect(v.passed).toBe(false);
    expect(v.violations).toHaveLength(1);
  });

  // A scan that restarted at every character instead of the next `{` would take minutes on such a reply.
  test('a long reply with an unclosed brace, then prose, then the verdict: the verdict is read', () => {
    const prose = 'let me think about { this change '.padEnd(190_000, 'x ');
    const reply = `{"note": 1} ${prose} {"passed": false, "violations": [], "summary": "key"}`;
    expect(parseVerdict(reply).summary).toBe('key');
  });
});

describe('verdictFromValue', () => {
  test('names unnamed violations after the rule, by default "judge"', () => {
    expect(verdictFromValue({ passed: false, reason: 'x' }).violations).toEqual([{ rule: 'judge', message: 'x' }]);
    expect(verdictFromValue({ passed: false, reason: 'x' }, { rule: 'v' }).violations[0]!.rule).toBe('v');
  });

  test('a value that is no verdict: judge-unreadable saying which fields to fill', () => {
    let e: AvpError | undefined;
    try {
      verdictFromValue({ verdict: 'fine' });
    } catch (err) {
      e = err as AvpError;
    }
    expect(e?.code).toBe('judge-unreadable');
    expect(e?.message).toBe(`the judge's structured verdict does not match the schema: {"verdict":"fine"}`);
    expect(e?.fix).toContain('the judge must fill `passed` (a JSON boolean), `violations` and `summary`');
  });
});

describe('verifyLines: which lines are checked', () => {
  const change = (relPath: string, over: Partial<FileChange>): FileChange => ({
    path: `/p/${relPath}`,
    relPath,
    inProject: true,
    kind: 'update',
    before: '',
    ...over,
  });
  const event = (files: FileChange[]) =>
    ({ agent: 'claude', event: 'PostToolUse', cwd: '/p', projectRoot: '/p', files, raw: {} }) as HookEvent;
  const flags = (v: Verdict) => v.violations.map((x) => !!x.lineUnverified);
  const lines = (...ns: number[]): Verdict => ({
    passed: false,
    violations: ns.map((line) => ({ rule: 'r', file: 'src/a.ts', line })),
    summary: 's',
  });

  test('the exact path wins over an earlier file that only ends the same', () => {
    const files = [change('lib/src/a.ts', { after: '1\n2\n3\n4\n' }), change('src/a.ts', { after: '1\n2\n' })];
    expect(flags(verifyLines(lines(4), event(files)))).toEqual([true]);
    const abs = [change('a.ts', { after: '1\n2\n3\n4\n' }), change('src/a.ts', { after: '1\n2\n' })];
    const claim: Verdict = { passed: false, violations: [{ rule: 'r', file: '/p/src/a.ts', line: 4 }], summary: 's' };
    expect(flags(verifyLines(claim, event(abs)))).toEqual([true]);
  });

  test('violations without a line are kept as they are beside one that has a line', () => {
    const v: Verdict = {
      passed: false,
      violations: [
        { rule: 'r', file: 'src/a.ts', message: 'm' },
        { rule: 'r', file: 'src/a.ts', line: 9 },
      ],
      summary: 's',
    };
    expect(verifyLines(v, event([change('src/a.ts', { after: 'a\n' })])).violations).toStrictEqual([
      { rule: 'r', file: 'src/a.ts', message: 'm' },
      { rule: 'r', file: 'src/a.ts', line: 9, lineUnverified: true },
    ]);
  });

  test('line 1 of a file exists; no line of a deleted file does', () => {
    expect(flags(verifyLines(lines(1), event([change('src/a.ts', { after: 'a\n' })])))).toEqual([false]);
    expect(flags(verifyLines(lines(1), event([change('src/a.ts', { kind: 'delete', after: null })])))).toEqual([true]);
  });

  test('with neither content nor diff nothing can be checked: the claim stands', () => {
    expect(flags(verifyLines(lines(5), event([change('src/a.ts', {})])))).toEqual([false]);
  });

  test('with a diff: each hunk bound is inside, the lines around it and between hunks are not', () => {
    const diff = '@@ -10,3 +10,4 @@\n a\n+b\n c\n d\n@@ -30,2 +31,2 @@\n-x\n+y\n z\n';
    const v = verifyLines(lines(9, 10, 13, 14, 31, 32, 33), event([change('src/a.ts', { diff })]));
    expect(flags(v)).toEqual([true, false, false, true, false, false, true]);
  });
});
