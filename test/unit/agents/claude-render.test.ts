import { describe, expect, test } from 'bun:test';
import { aggregate } from '../../../src/runner/aggregate.ts';
import type { ValidatorRun } from '../../../src/runner/types.ts';
import type { HookEvent } from '../../../src/protocol/event.ts';
import { renderClaude } from '../../../src/hook/render-claude.ts';
import { KILL_SWITCH } from '../../../src/hook/decision.ts';
import { HOW_TO_CONFIGURE } from '../../../src/judges/detect.ts';

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
/** A validator that could not run because no judge is configured (the same long fix for every one of them). */
const setupError = (id: string): ValidatorRun => ({
  id,
  name: id,
  severity: 'error',
  path: `/p/.avp/validators/${id}.md`,
  status: 'error',
  durationMs: 1,
  error: {
    cause:
      'no LLM judge is available: `claude` is not on PATH and ANTHROPIC_API_KEY, OPENAI_BASE_URL and OPENAI_API_KEY are unset',
    fix: `${HOW_TO_CONFIGURE}; to skip this validator add "${id}" to disabledValidators in avp.config.json (or AVP_DISABLED_VALIDATORS=${id}); AVP_DISABLE=1 turns avp off`,
    code: 'judge-unconfigured',
    setup: true,
  },
});
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
    expect(doc.systemMessage).not.toContain('avp blocked');
    expect(doc.reason).not.toContain('avp blocked');
    expect(doc.reason).toStartWith('avp found blocking problems on SessionStart (this event cannot be blocked)');
  });

  test('no event that cannot be blocked ever says "avp blocked", whatever went wrong', () => {
    for (const name of ['SessionStart', 'SessionEnd', 'Notification', 'PreCompact', 'Setup', 'SubagentStart', 'X']) {
      const doc = render(event(name), [failed('v', 'error'), broken, setupError('llm-a')]);
      expect(doc.decision).toBeUndefined();
      expect(JSON.stringify(doc)).not.toMatch(/avp blocked/);
      expect(doc.systemMessage).toContain('this event cannot be blocked');
    }
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

  test('no judge configured: one line per validator, the fix once, a configuration problem for the user', () => {
    const runs = Array.from({ length: 13 }, (_, i) => setupError(`llm-${i}`));
    const doc = render(event('PostToolUse', 'Write'), [failed('no-secrets', 'error'), ...runs]);
    const stdout = JSON.stringify(doc);
    expect(stdout.split(HOW_TO_CONFIGURE.slice(0, 60)).length - 1).toBe(1);
    expect(stdout.length).toBeLessThan(8000);
    for (let i = 0; i < 13; i++) expect(doc.reason.split(`[llm-${i}]`).length - 1).toBe(1);
    expect(doc.reason).toContain('avp doctor');
    expect(doc.reason).toContain('configuration problem for the user, not something to fix in the code');
    // The one real finding is still there, with its instruction.
    expect(doc.reason).toContain('[no-secrets] src/config.ts:12: hardcoded key');
    expect(doc.reason).toContain('Fix every violation listed above');
    expect(doc.systemMessage).toContain('avp doctor');
    expect(doc.errors[0]).toMatchObject({ validator: 'llm-0', code: 'judge-unconfigured', setup: true });
    const only = render(event('PostToolUse', 'Write'), runs);
    expect(only.reason).not.toContain('Fix every violation');
  });

  test('at volume every failing and erroring validator is named with its count; the rest is in the full report', () => {
    const runs: ValidatorRun[] = Array.from({ length: 30 }, (_, i) => {
      const r = failed(`check-${String(i).padStart(2, '0')}`, 'error');
      r.verdict!.violations = Array.from({ length: 40 }, (_, j) => ({
        rule: 'r',
        file: `src/f${j}.ts`,
        line: j + 1,
        message: 'm'.repeat(900),
        suggestion: 's'.repeat(2000),
      }));
      return r;
    });
    for (let i = 0; i < 20; i++)
      runs.push({
        ...broken,
        id: `dead-${i}`,
        name: `dead-${i}`,
        error: { cause: 'c'.repeat(3000), fix: 'f'.repeat(3000) },
      });
    const out = renderClaude(event('PostToolUse', 'Write'), aggregate(runs), runs, {
      fullReport: '.avp/logs/reports/x.md',
    });
    const doc = JSON.parse(out.stdout);
    for (const r of runs) expect(doc.reason).toContain(r.id);
    expect(doc.reason).toContain('check-29 (40 violations)');
    expect(doc.reason).toContain('Could not be evaluated (20)');
    expect(doc.reason).toContain('.avp/logs/reports/x.md');
    expect(doc.reason).toContain('Fix every violation listed above');
    expect(doc.reason).toEndWith(KILL_SWITCH);
    expect(doc.reason.length).toBeLessThanOrEqual(24_000);
    // Every failing validator has violations in the bounded array, not just the first ones.
    expect(new Set(doc.violations.map((v: any) => v.validator)).size).toBe(30);
    expect(doc.violations.length + doc.omittedViolations).toBe(1200);
    expect(doc.fullReport).toBe('.avp/logs/reports/x.md');
    // The full report holds everything, unclipped.
    expect(out.fullReport).toContain('s'.repeat(2000));
    expect(out.fullReport).toContain('f'.repeat(3000));
    expect(out.fullReport!.split('\n- [check-').length - 1).toBe(1200);
  });

  test('a small report is not summarised and writes no full report', () => {
    const out = renderClaude(event('PostToolUse', 'Write'), aggregate([failed('a', 'error')]), [failed('a', 'error')], {
      fullReport: '.avp/logs/reports/x.md',
    });
    expect(out.fullReport).toBeUndefined();
    expect(JSON.parse(out.stdout).fullReport).toBeUndefined();
    expect(JSON.parse(out.stdout).reason).not.toContain('full report');
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
    expect(doc.reason).toContain('noisy (5000 violations)');
    expect(doc.reason).toMatch(/… \d+ more violations in the full report/);
  });
});
