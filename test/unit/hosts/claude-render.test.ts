import { describe, expect, test } from 'bun:test';
import { aggregate } from '../../../src/engine/aggregate.ts';
import type { ValidatorRun } from '../../../src/engine/types.ts';
import type { HookEvent } from '../../../src/event.ts';
import { KILL_SWITCH, renderClaude } from '../../../src/hosts/claude-render.ts';

const event = (name: string, tool?: string): HookEvent => ({
  agent: 'claude',
  event: name,
  ...(tool ? { tool } : {}),
  cwd: '/p',
  projectRoot: '/p',
  files: [],
  raw: {},
});

const failed = (id: string, severity: ValidatorRun['severity']): ValidatorRun => ({
  id,
  name: id,
  severity,
  path: `/p/.avp/validators/${id}.md`,
  status: 'failed',
  durationMs: 3,
  verdict: {
    passed: false,
    summary: `${id} found 2`,
    violations: [
      {
        rule: id,
        file: 'src/config.ts',
        line: 12,
        snippet: 'const KEY = "sk-1"',
        suggestion: 'use process.env.KEY',
        message: 'hardcoded key',
      },
      { rule: id, file: 'src/db.ts', line: 8, suggestion: 'use process.env.DB' },
    ],
  },
});
const broken: ValidatorRun = {
  id: 'slow-one',
  name: 'slow-one',
  severity: 'error',
  path: '/p/.avp/validators/slow-one.md',
  status: 'error',
  durationMs: 30000,
  error: { cause: 'timed out after 30 s', fix: 'raise "timeout"' },
};
const passed: ValidatorRun = {
  ...failed('fine', 'error'),
  status: 'passed',
  verdict: { passed: true, violations: [], summary: 'ok' },
};

const render = (e: HookEvent, runs: ValidatorRun[], extra?: Parameters<typeof renderClaude>[3]) => {
  const out = renderClaude(e, aggregate(runs), runs, extra);
  expect(out.exitCode).toBe(0);
  expect(out.stdout.endsWith('\n')).toBe(true);
  expect(out.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(out.stdout);
};

describe('renderClaude', () => {
  test('ERROR on PostToolUse: decision block, reason lists every violation and validator error, kill switch named', () => {
    const doc = render(event('PostToolUse', 'Write'), [failed('no-secrets', 'error'), broken, passed]);
    expect(doc.decision).toBe('block');
    expect(doc.passed).toBe(false);
    expect(doc.violations).toHaveLength(2);
    expect(doc.violations[0]).toMatchObject({
      rule: 'no-secrets',
      file: 'src/config.ts',
      line: 12,
      validator: 'no-secrets',
    });
    expect(doc.reason).toContain('[no-secrets] src/config.ts:12: hardcoded key');
    expect(doc.reason).toContain('fix: use process.env.KEY');
    expect(doc.reason).toContain('src/db.ts:8');
    expect(doc.reason).toContain('Validator errors');
    expect(doc.reason).toContain('[slow-one] timed out after 30 s');
    expect(doc.reason).toContain(KILL_SWITCH);
    expect(doc.errors).toEqual([
      { validator: 'slow-one', severity: 'error', cause: 'timed out after 30 s', fix: 'raise "timeout"' },
    ]);
    expect(doc.summary).toBe('1 validator failed with 2 violations; 1 validator could not be evaluated');
    expect(doc.hookSpecificOutput).toBeUndefined();
    expect(doc.systemMessage).toContain('AVP_DISABLE=1');
  });

  test('ERROR on PreToolUse: the tool is denied through permissionDecision, not decision', () => {
    const doc = render(event('PreToolUse', 'Bash'), [failed('no-rm', 'error')]);
    expect(doc.decision).toBeUndefined();
    expect(doc.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: doc.reason,
    });
    expect(doc.reason).toContain('AVP_DISABLE=1');
  });

  test('ERROR on PermissionRequest: decision.behavior deny', () => {
    const doc = render(event('PermissionRequest', 'Bash'), [failed('no-rm', 'error')]);
    expect(doc.hookSpecificOutput).toEqual({
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'deny', message: doc.reason },
    });
  });

  test('ERROR on Stop and UserPromptSubmit: decision block', () => {
    for (const name of ['Stop', 'SubagentStop', 'UserPromptSubmit'])
      expect(render(event(name), [failed('v', 'error')]).decision).toBe('block');
  });

  test('ERROR on an event Claude cannot block (SessionStart): user and model are told, no decision', () => {
    const doc = render(event('SessionStart'), [failed('v', 'error')]);
    expect(doc.decision).toBeUndefined();
    expect(doc.hookSpecificOutput).toEqual({ hookEventName: 'SessionStart', additionalContext: doc.reason });
    expect(doc.systemMessage).toContain('avp blocked SessionStart');
  });

  test('WARNED: systemMessage for the user, additionalContext for the model with the right hookEventName, no block', () => {
    for (const name of ['PostToolUse', 'PreToolUse', 'UserPromptSubmit', 'SessionStart', 'PostToolUseFailure']) {
      const doc = render(event(name, 'Write'), [failed('style', 'warn')]);
      expect(doc.decision).toBeUndefined();
      expect(doc.passed).toBe(false);
      expect(doc.hookSpecificOutput).toEqual({ hookEventName: name, additionalContext: doc.reason });
      expect(doc.hookSpecificOutput.permissionDecision).toBeUndefined();
      expect(doc.systemMessage).toContain('[style, warning] src/config.ts:12');
    }
  });

  test('WARNED on SessionEnd, and on Stop/SubagentStop/Notification (where additionalContext starts a new turn): systemMessage only', () => {
    for (const name of ['SessionEnd', 'Stop', 'SubagentStop', 'Notification']) {
      const doc = render(event(name), [failed('style', 'warn')]);
      expect(doc.hookSpecificOutput).toBeUndefined();
      expect(doc.decision).toBeUndefined();
      expect(doc.systemMessage).toContain('style');
    }
  });

  test('info findings: passed, nothing shown', () => {
    const doc = render(event('PostToolUse', 'Edit'), [failed('docs', 'info')]);
    expect(doc).toEqual({ passed: true, violations: [], summary: '1 validator passed; 1 info note logged' });
  });

  test('the Stop guard releasing a failing Stop: no block, the guard message reaches the user', () => {
    const doc = render(event('Stop'), [failed('tests', 'error')], {
      noBlock: true,
      systemMessage: 'avp let this Stop through after 3 blocks',
    });
    expect(doc.decision).toBeUndefined();
    expect(doc.passed).toBe(false);
    expect(doc.systemMessage).toStartWith('avp let this Stop through after 3 blocks');
    // additionalContext on Stop would make Claude Code start another turn: the release must really end the loop.
    expect(doc.hookSpecificOutput).toBeUndefined();
  });

  test('a runaway judge is bounded: at most 200 violations, snippets clipped, reason capped', () => {
    const run = failed('noisy', 'error');
    run.verdict!.violations = Array.from({ length: 5000 }, (_, i) => ({
      rule: 'n',
      file: 'a.ts',
      line: i + 1,
      snippet: 'x'.repeat(5000),
    }));
    const doc = render(event('PostToolUse', 'Write'), [run]);
    expect(doc.violations).toHaveLength(200);
    expect(doc.violations[0].snippet.length).toBeLessThanOrEqual(400);
    expect(doc.reason.length).toBeLessThanOrEqual(24_000);
    expect(doc.summary).toBe('1 validator failed with 5000 violations');
  });
});
