/**
 * The verdict forms one JSON value at a time (`readVerdict`): what each accepted form reads as, what every
 * contradiction and ambiguity reads as (never a pass), which fields of a violation are kept, and the JSON Schema
 * given to LLM APIs. parseVerdict's own tests go through whole replies, where a second path often hides a first.
 */
import { describe, expect, test } from 'bun:test';
import { readVerdict, toVerdict, VERDICT_JSON_SCHEMA } from '../../../src/judges/verdict-schema.ts';

const read = (value: unknown) => readVerdict(value, 'no-secrets');
const fails = (message: string) => ({
  verdict: { passed: false, violations: [{ rule: 'no-secrets', message }], summary: message },
});
const PASS = { verdict: { passed: true, violations: [], summary: 'passed' } };

describe('values that are no verdict', () => {
  const values = [null, undefined, 'x', '{"passed": true}', 3, true, [], [{ passed: false }], {}, { summary: 'fine' }];
  test.each(values.map((v) => [v]))('%j: nothing', (value) => expect(read(value)).toBeUndefined());
  test('an approval alone (Claude Code\'s {"decision": "approve"}) says nothing about the rules', () => {
    expect(read({ decision: 'approve', reason: 'fine' })).toBeUndefined();
  });
});

describe('the AVP form', () => {
  test('a pass with nothing else: summary "passed"; with a reason or summary: that', () => {
    expect(read({ passed: true })).toEqual(PASS);
    expect(read({ passed: true, violations: [], summary: 'clean' })!.verdict!.summary).toBe('clean');
    expect(read({ passed: true, reason: 'why', summary: 'clean' })!.verdict!.summary).toBe('why');
  });

  test('a failure without violations: the reason, the summary, or a default as its one violation', () => {
    expect(read({ passed: false })).toEqual(fails('the judge reported a failure'));
    expect(read({ passed: false, summary: 's' })).toEqual(fails('s'));
    expect(read({ passed: false, reason: 'r', summary: 's' })).toEqual(fails('r'));
  });

  test("a failure with violations: the summary, the reason, or a count as the verdict's summary", () => {
    const summary = (extra: object) => read({ passed: false, violations: [{}, {}], ...extra })!.verdict!.summary;
    expect(summary({ summary: 's', reason: 'r' })).toBe('s');
    expect(summary({ reason: 'r' })).toBe('r');
    expect(summary({})).toBe('2 violation(s)');
  });

  test('a violation keeps the fields the judge filled, drops empty ones, names the rule when the judge did not', () => {
    const full = { rule: 'aws-key', file: 'a.ts', line: 3, snippet: 'k', suggestion: 'env', message: 'm' };
    expect(read({ passed: false, violations: [{ ...full, severity: 'high' }] })!.verdict!.violations).toStrictEqual([
      { ...full, severity: 'high' },
    ]);
    const empty = {
      rule: null,
      file: null,
      line: null,
      snippet: null,
      suggestion: null,
      message: null,
      severity: null,
    };
    expect(
      read({ passed: false, violations: [empty, { rule: '', file: '', snippet: '', message: '' }] })!.verdict!
        .violations,
    ).toStrictEqual([{ rule: 'no-secrets' }, { rule: 'no-secrets' }]);
  });

  test.each([
    [0, undefined],
    [-2, undefined],
    [1, 1],
    ['7', 7],
  ])('a violation on line %j keeps line %j (lines start at 1)', (line, kept) => {
    expect(read({ passed: false, violations: [{ line }] })!.verdict!.violations[0]!.line).toBe(kept);
  });

  test.each(['low', 'medium', 'high', 'critical'])('severity "%s" is accepted and kept', (severity) => {
    expect(read({ passed: false, violations: [{ severity }] })!.verdict!.violations[0]!.severity).toBe(severity);
  });

  test('a severity outside the four makes the value no verdict: ambiguous, never a pass, the field named', () => {
    expect(read({ passed: true, violations: [{ severity: 'urgent' }] })!.ambiguous).toBe(
      '"violations[0].severity" is "urgent", which a verdict cannot hold',
    );
  });

  test('beside a readable passed, the message names the field the schema refused, not passed', () => {
    expect(read({ passed: true, decision: [] })).toEqual({
      ambiguous: '"decision" is [], which a verdict cannot hold',
    });
    expect(read({ passed: ' false ', summary: 3 })).toEqual({
      ambiguous: '"summary" is 3, which a verdict cannot hold',
    });
    expect(read({ passed: 'yes', summary: 3 })).toEqual({ ambiguous: '"passed" is "yes", not true or false' });
    expect(read({ passed: ['false'] })).toEqual({ ambiguous: '"passed" is ["false"], not true or false' });
  });
});

describe('a pass that contradicts itself is a failure', () => {
  test('with violations listed', () => {
    const r = read({ passed: true, violations: [{ rule: 'r', line: 2 }] })!;
    expect(r.verdict).toEqual({
      passed: false,
      violations: [{ rule: 'r', line: 2 }],
      summary: 'the judge said passed but listed 1 violation(s)',
    });
  });

  test('with a denying decision, quoting the reason when there is one', () => {
    expect(read({ passed: true, decision: 'block' })).toEqual(fails('the judge said passed with decision "block"'));
    expect(read({ passed: true, decision: ' Denied ', summary: 'key' })).toEqual(
      fails('the judge said passed with decision " Denied ": key'),
    );
  });

  test('with a failing status; a passing or non-string status leaves the pass', () => {
    expect(read({ passed: true, status: 'FAILED', reason: 'tests' })).toEqual(
      fails('the judge said passed with status "FAILED": tests'),
    );
    expect(read({ passed: true, status: 'passed' })).toEqual(PASS);
    expect(read({ passed: true, status: 'ok' })).toEqual(PASS);
    expect(read({ passed: true, status: 0 })).toEqual(PASS);
  });
});

describe('a pass next to something that says no in another vocabulary is ambiguous', () => {
  test('an unknown decision; an allowing one (or none) leaves the pass', () => {
    expect(read({ passed: true, decision: 'maybe' })).toEqual({ ambiguous: '"passed": true with decision "maybe"' });
    for (const decision of ['approve', 'allow', 'ok', '', 'continue'])
      expect(read({ passed: true, decision })).toEqual(PASS);
  });

  test('"continue": false', () => {
    expect(read({ passed: true, continue: false })).toEqual({ ambiguous: '"passed": true with "continue": false' });
    expect(read({ passed: true, continue: true })).toEqual(PASS);
  });

  test('hookSpecificOutput that denies, by permissionDecision or decision.behavior', () => {
    expect(read({ passed: true, hookSpecificOutput: { permissionDecision: 'deny' } })).toEqual({
      ambiguous: '"passed": true with hookSpecificOutput.permissionDecision "deny"',
    });
    expect(read({ passed: true, hookSpecificOutput: { decision: { behavior: 'deny' } } })).toEqual({
      ambiguous: '"passed": true with hookSpecificOutput.decision.behavior "deny"',
    });
  });

  test('hookSpecificOutput that allows, is empty, null or not an object leaves the pass', () => {
    for (const hookSpecificOutput of [
      { permissionDecision: 'allow' },
      { decision: { behavior: 'allow' } },
      {},
      null,
      'deny',
      ['deny'],
    ])
      expect({ hookSpecificOutput, r: read({ passed: true, hookSpecificOutput }) }).toEqual({
        hookSpecificOutput,
        r: PASS,
      });
  });

  test('hookSpecificOutput that holds a denial in the Claude Code hook shape', () => {
    expect(read({ passed: true, hookSpecificOutput: { decision: 'block' } })).toEqual({
      ambiguous: '"passed": true with a nested "hookSpecificOutput" that fails',
    });
  });

  test('a nested verdict that fails or is ambiguous; a nested pass or a plain object leaves the pass', () => {
    expect(read({ passed: true, verdict: { passed: false } })).toEqual({
      ambiguous: '"passed": true with a nested "verdict" that fails',
    });
    expect(read({ passed: true, verdict: { passed: 'yes' } })).toEqual({
      ambiguous: '"passed": true with a nested "verdict" that is ambiguous',
    });
    expect(read({ passed: true, verdict: { passed: true }, meta: { model: 'm' }, tags: ['a'] })).toEqual(PASS);
  });

  test('a passed that is not a boolean or "false", quoted in the reason', () => {
    expect(read({ passed: 'yes' })).toEqual({ ambiguous: '"passed" is "yes", not true or false' });
    expect(read({ passed: 1 })).toEqual({ ambiguous: '"passed" is 1, not true or false' });
    expect(read({ passed: undefined })).toEqual({ ambiguous: '"passed" is undefined, not true or false' });
  });
});

describe('the status form', () => {
  test.each(['passed', 'pass', 'PASSED', 'PASS'])(
    '"%s" with a message passes; without one, summary "passed"',
    (status) => {
      expect(read({ status, message: 'fine' })).toEqual({ verdict: { passed: true, violations: [], summary: 'fine' } });
      expect(read({ status })).toEqual(PASS);
    },
  );

  test.each(['failed', 'fail', 'FAILED', 'FAIL'])('"%s" fails with its message or a default', (status) => {
    expect(read({ status, message: 'eval' })).toEqual(fails('eval'));
    expect(read({ status, message: '' })).toEqual(fails('the judge reported a failure'));
  });

  test('a pass that lists violations or carries a denying decision is a failure', () => {
    expect(read({ status: 'passed', violations: [{}] })).toEqual(
      fails('the judge said passed but listed 1 violation(s)'),
    );
    expect(read({ status: 'pass', decision: 'reject' })).toEqual(fails('the judge said passed with decision "reject"'));
  });
});

describe("Claude Code's hook shape", () => {
  test('a denying decision fails with the first non-empty reason or message, or says the decision', () => {
    expect(read({ decision: 'block', reason: 'key', message: 'm' })).toEqual(fails('key'));
    expect(read({ decision: 'block', reason: '', message: 'm' })).toEqual(fails('m'));
    expect(read({ decision: 'deny', reason: 3, message: 'm' })).toEqual(fails('m'));
    expect(read({ decision: 'deny' })).toEqual(fails('the judge\'s decision was "deny"'));
  });
});

test('toVerdict: the verdict, or undefined for an ambiguous value or none (never a pass)', () => {
  expect(toVerdict({ passed: true }, 'r')).toEqual(PASS.verdict);
  expect(toVerdict({ passed: false }, 'r')!.passed).toBe(false);
  expect(toVerdict({ passed: 'true' }, 'r')).toBeUndefined();
  expect(toVerdict('x', 'r')).toBeUndefined();
});

describe('the JSON Schema given to LLM APIs (tool input, strict response format)', () => {
  const items = VERDICT_JSON_SCHEMA.properties.violations.items;
  test('strict: objects list every property as required and allow no other', () => {
    for (const o of [VERDICT_JSON_SCHEMA, items]) {
      expect(o.type).toBe('object');
      expect(o.additionalProperties).toBe(false);
      expect<string[]>([...o.required].sort()).toEqual(Object.keys(o.properties).sort());
    }
    expect([...VERDICT_JSON_SCHEMA.required].sort()).toEqual(['passed', 'summary', 'violations']);
    expect([...items.required].sort()).toEqual(['file', 'line', 'rule', 'snippet', 'suggestion']);
  });

  test('each field has the type readVerdict reads and a description for the model', () => {
    const types = (props: Record<string, { type: string }>) =>
      Object.fromEntries(Object.entries(props).map(([k, p]) => [k, p.type]));
    expect(types(VERDICT_JSON_SCHEMA.properties)).toEqual({
      passed: 'boolean',
      violations: 'array',
      summary: 'string',
    });
    expect(types(items.properties)).toEqual({
      rule: 'string',
      file: 'string',
      line: 'integer',
      snippet: 'string',
      suggestion: 'string',
    });
    const described = [
      VERDICT_JSON_SCHEMA.properties.passed,
      VERDICT_JSON_SCHEMA.properties.summary,
      ...Object.values(items.properties),
    ];
    for (const p of described) expect(p.description).toMatch(/\w{3}/);
  });

  test('a verdict filled as the schema says reads as that verdict', () => {
    const filled = {
      passed: false,
      violations: [{ rule: 'r', file: 'a.ts', line: 2, snippet: 's', suggestion: 'x' }],
      summary: 'one',
    };
    expect(read(filled)).toEqual({ verdict: filled });
  });
});
