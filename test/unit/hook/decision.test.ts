/**
 * Report → decision, in-process: where each outcome goes (refused only where the agent can refuse, released or
 * cannot-block otherwise), the user's message, context for the model, and AVP's own fields (`passed`, clipped
 * snippets, `errors` with setup problems pointed at the reason). The control plane's refusal is a deny.
 */
import { describe, expect, test } from 'bun:test';
import { decide, PASS_DECISION, refusal } from '../../../src/hook/decision.ts';
import type { HookEvent } from '../../../src/protocol/event.ts';
import { aggregate } from '../../../src/runner/aggregate.ts';
import type { ValidatorRun } from '../../../src/runner/types.ts';

const event = (name: string, tool?: string, agentTool?: string): HookEvent =>
  ({ agent: 'claude', event: name, tool, agentTool, cwd: '/p', projectRoot: '/p', files: [], raw: {} }) as HookEvent;
const base = (id: string, severity: ValidatorRun['severity']) => ({
  id,
  name: id,
  severity,
  path: `/p/.avp/validators/${id}.md`,
  durationMs: 1,
});
const passed = (id: string): ValidatorRun => ({
  ...base(id, 'error'),
  status: 'passed',
  verdict: { passed: true, violations: [], summary: 'ok' },
});
const failed = (id: string, severity: ValidatorRun['severity'], snippet = 'x'): ValidatorRun => ({
  ...base(id, severity),
  status: 'failed',
  verdict: { passed: false, violations: [{ rule: id, file: 'a.ts', line: 1, snippet }], summary: `${id} found 1` },
});
const errored = (id: string, error: ValidatorRun['error']): ValidatorRun => ({
  ...base(id, 'warn'),
  status: 'error',
  error,
});
const DENY = { stop: 'deny', context: true } as const;
const run = (runs: ValidatorRun[], ability?: Parameters<typeof decide>[3], extra?: Parameters<typeof decide>[4]) =>
  decide(event('PreToolUse', 'Write'), aggregate(runs), runs, ability, extra).decision;

describe('where each outcome goes', () => {
  test('PASSED: a pass with AVP fields only, or the system message for the user', () => {
    expect(run([passed('a')], DENY)).toEqual({
      kind: 'pass',
      avp: { passed: true, violations: [], summary: '1 validator passed' },
    });
    expect(run([passed('a')], DENY, { systemMessage: 'hello' }).userMessage).toBe('hello');
    expect(PASS_DECISION).toEqual({ kind: 'pass', avp: {} });
  });

  test('ERROR where the agent can refuse: refused its way, the user told avp blocked it and how to turn avp off', () => {
    const d = run([failed('gate', 'error')], DENY);
    expect(d.kind).toBe('deny');
    expect(d.userMessage).toBe(
      'avp blocked PreToolUse Write: 1 validator failed with 1 violation. AVP_DISABLE=1 turns avp off.',
    );
    expect(d.reason).toContain('gate');
    expect(d.context).toBeUndefined();
    expect(d.avp.passed).toBe(false);
    const block = run([failed('gate', 'error')], { stop: 'block', context: false });
    expect(block.kind).toBe('block');
    // Where the refusal alone does not reach the model, the reason goes in the context too.
    const both = run([failed('gate', 'error')], { stop: 'block', context: true, contextOnBlock: true });
    expect(both.context).toBe(both.reason);
  });

  test('the tool named is the agent own name for it (and what it was judged as), the same in reason and message', () => {
    const runs = [failed('gate', 'error')];
    const d = decide(event('PreToolUse', 'Write', 'write_file'), aggregate(runs), runs, DENY).decision;
    expect(d.userMessage).toContain('avp blocked PreToolUse write_file (judged as Write): ');
    expect(d.reason).toStartWith('avp blocked PreToolUse write_file (judged as Write): ');
    const same = decide(event('PreToolUse', 'Write', 'Write'), aggregate(runs), runs, DENY).decision;
    expect(same.userMessage).toContain('avp blocked PreToolUse Write: ');
    const stop = decide(event('Stop'), aggregate(runs), runs, { stop: 'block', context: false }).decision;
    expect(stop.userMessage).toContain('avp blocked Stop: ');
  });

  test('ERROR released (noBlock) or where the agent cannot refuse: a warning with the reason, never a refusal', () => {
    for (const [ability, extra] of [
      [DENY, { noBlock: true }],
      [{ stop: false, context: true }, {}],
    ] as const) {
      const d = run([failed('gate', 'error')], ability, extra);
      expect(d.kind).toBe('warn');
      expect(d.userMessage).toBe(d.reason);
      expect(d.context).toBe(d.reason);
    }
    expect(run([failed('gate', 'error')]).kind).toBe('warn'); // an event the adapter says nothing about
    expect(run([failed('gate', 'error')]).context).toBeUndefined();
  });

  test('WARNED: a warning for the user and the model, the system message first; AVP passed is false', () => {
    const d = run([failed('w', 'warn')], DENY, { systemMessage: 'first' });
    expect(d.kind).toBe('warn');
    expect(d.userMessage).toBe(`first\n${d.reason}`);
    expect(d.context).toBe(d.reason);
    expect(d.avp.passed).toBe(false);
    // One failing validator among passing ones is enough.
    expect(run([passed('a'), failed('w', 'warn'), passed('b')], DENY).avp.passed).toBe(false);
  });

  test('a setup problem: said once in the blocked message, and errors[] points there', () => {
    const runs = [errored('judge', { cause: 'no API key', fix: 'a long fix', setup: true, code: 'no-judge' })];
    const d = run(runs, DENY);
    expect(d.userMessage).toContain(' avp is not set up for some validators: run `avp doctor`.');
    expect(d.avp.errors).toEqual([
      {
        validator: 'judge',
        severity: 'warn',
        cause: 'no API key',
        fix: 'avp is not set up for this validator: see the reason, or run `avp doctor`',
        code: 'no-judge',
        setup: true,
      },
    ]);
    const plain = run([errored('s', { cause: 'exit 3', fix: 'see the log' })], DENY);
    expect(plain.userMessage).not.toContain('not set up');
    expect(plain.avp.errors).toEqual([{ validator: 's', severity: 'warn', cause: 'exit 3', fix: 'see the log' }]);
    const bare = run([errored('s', undefined)], DENY);
    expect(bare.avp.errors).toEqual([{ validator: 's', severity: 'warn', cause: 'unknown error', fix: '' }]);
  });
});

describe("AVP's fields", () => {
  test('a snippet longer than 400 characters is clipped; one of 400 is kept whole', () => {
    const long = run([failed('a', 'error', 'y'.repeat(401))], DENY).avp.violations as Array<{ snippet: string }>;
    expect(long[0]!.snippet.length).toBeLessThanOrEqual(400);
    expect(long[0]!.snippet).not.toBe('y'.repeat(401));
    const exact = run([failed('a', 'error', 'y'.repeat(400))], DENY).avp.violations as Array<{ snippet: string }>;
    expect(exact[0]!.snippet).toBe('y'.repeat(400));
  });
});

test("the control plane's refusal is a deny with the reason for both, and AVP fields that do not pass", () => {
  expect(refusal('no', 'guarded')).toEqual({
    kind: 'deny',
    reason: 'no',
    userMessage: 'no',
    avp: { passed: false, violations: [], summary: 'guarded' },
  });
});

describe('the heads, and the fields left out', () => {
  test('each head says what happened: a warning, or blocking problems released this time', () => {
    expect(run([failed('w', 'warn')], DENY).reason).toStartWith('avp warnings on PreToolUse Write: ');
    expect(run([failed('e', 'error')], DENY, { noBlock: true }).reason).toStartWith(
      'avp found blocking problems on PreToolUse Write (not blocking this time): ',
    );
  });

  test('no user message on a pass without a system message; no fullReport field without a place for it', () => {
    expect(Object.keys(run([passed('a')], DENY))).not.toContain('userMessage');
    const long = [failed('e', 'error', 'y'.repeat(500))];
    const runs = (extra?: Parameters<typeof decide>[4]) =>
      decide(event('PreToolUse', 'Write'), aggregate(long), long, DENY, extra);
    const summarised = runs();
    expect(summarised.fullReport).toBeString();
    expect(Object.keys(summarised.decision.avp)).not.toContain('fullReport');
    expect(runs({ fullReport: '.avp/logs/reports/r.txt' }).decision.avp.fullReport).toBe('.avp/logs/reports/r.txt');
  });
});
