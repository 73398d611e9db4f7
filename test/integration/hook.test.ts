import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp } from '../support/run-avp.ts';
import { BIN, KEY_FINDER, PASSES, project, sh, type Project } from './hook-support.ts';

const runHook = (p: Project, args: string[], input: unknown) =>
  runAvp(args, {
    bin: BIN,
    cwd: p.root,
    stdin: JSON.stringify(input),
    env: { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root },
  });

const FIXTURE_NAMES = [
  'hook-input-PostToolUse-Write.json',
  'hook-input-PostToolUse-Edit.json',
  'hook-input-Stop.json',
  'hook-input-Stop-active.json',
];

describe('avp hook: every captured event', () => {
  test('no validators installed: each fixture passes with {} and exit 0', async () => {
    const p = project();
    for (const name of FIXTURE_NAMES) {
      const r = await p.hook(p.fixture(name));
      expect({ name, code: r.code, stdout: r.stdout }).toEqual({ name, code: 0, stdout: '{}\n' });
    }
  });

  test('a script validator blocks the Write of a hardcoded key and passes the Edit that removes it', async () => {
    const p = project();
    p.validator('no-keys', { match: { tools: ['Write', 'Edit'], files: ['src/**/*.ts'] } }, KEY_FINDER, 'check.ts');
    const w = await p.hook(p.fixture('hook-input-PostToolUse-Write.json'));
    expect(w.code).toBe(0);
    expect(w.json).toMatchObject({ decision: 'block', passed: false, summary: '1 validator failed with 1 violation' });
    expect(w.json.violations).toEqual([
      expect.objectContaining({
        rule: 'no-keys',
        file: 'src/config.ts',
        line: 1,
        validator: 'no-keys',
        suggestion: 'read it from process.env',
      }),
    ]);
    expect(w.json.reason).toContain('[no-keys] src/config.ts:1');
    expect(w.json.reason).toContain('AVP_DISABLE=1');
    const e = await p.hook(p.fixture('hook-input-PostToolUse-Edit.json'));
    expect(e.json).toEqual({ passed: true, violations: [], summary: '1 validator passed' });
    // Stop events match no PostToolUse validator.
    for (const name of ['hook-input-Stop.json', 'hook-input-Stop-active.json'])
      expect((await p.hook(p.fixture(name))).stdout).toBe('{}\n');
  });

  test('a Stop validator sees the Stop and blocks it', async () => {
    const p = project();
    p.validator(
      'stop-check',
      { trigger: 'Stop' },
      sh(
        `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"tests","suggestion":"run the tests"}],"summary":"tests not run"}'`,
      ),
    );
    const r = await p.hook(p.fixture('hook-input-Stop.json'));
    expect(r.json.decision).toBe('block');
    expect(r.json.reason).toContain('run the tests');
  });

  test('files not matched by match.files → {} (the no-match path)', async () => {
    const p = project();
    p.validator('py-only', { match: { files: ['**/*.py'] } }, PASSES);
    const r = await p.hook(p.fixture('hook-input-PostToolUse-Write.json'));
    expect(r.stdout).toBe('{}\n');
    // no run log; only the hook-call counter's line (the denominator of `avp stats`)
    const logs = readdirSync(join(p.root, '.avp/logs'));
    expect(logs.filter((n) => n.startsWith('hook-'))).toEqual([]);
    expect(logs.filter((n) => n.startsWith('calls-'))).toHaveLength(1);
  });

  test('an unknown event passes cleanly', async () => {
    const p = project();
    p.validator('any', {}, PASSES);
    const r = await p.hook({ hook_event_name: 'SomeFutureEvent', session_id: 's', cwd: p.root, novel: { x: 1 } });
    expect(r).toMatchObject({ code: 0, stdout: '{}\n' });
  });
});

describe('avp hook: script validators exporting validate() run in-process (AVP_SCRIPT_WORKER=1)', () => {
  test('console.log inside validate() never reaches stdout; the verdict does', async () => {
    const p = project();
    p.validator(
      'chatty',
      {},
      `export function validate(event) {
  console.log('chatty debug line');
  process.stdout.write('more noise');
  return { passed: false, violations: [{ rule: 'chatty', file: event.files[0].relPath, line: 1, suggestion: 'x' }], summary: 'chatty' };
}`,
      'check.mjs',
    );
    const r = await p.hook(p.fixture('hook-input-PostToolUse-Write.json'), { AVP_SCRIPT_WORKER: '1' });
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.json.decision).toBe('block');
    expect(r.json.violations[0]).toMatchObject({ validator: 'chatty', file: 'src/config.ts' });
    expect(r.stderr).toContain('chatty debug line');
  });
});

describe('avp hook: outputs per severity and event', () => {
  const failing = sh(
    `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"r","file":"src/config.ts","line":1,"snippet":"x","suggestion":"y"}],"summary":"found"}'`,
  );

  test('PreToolUse error: the tool is denied through permissionDecision', async () => {
    const p = project();
    p.validator('no-write-keys', { trigger: 'PreToolUse', match: { tools: ['Write'] } }, KEY_FINDER, 'check.ts');
    const input: Record<string, unknown> = {
      ...p.fixture('hook-input-PostToolUse-Write.json'),
      hook_event_name: 'PreToolUse',
    };
    delete input.tool_response;
    const r = await p.hook(input);
    expect(r.json.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: r.json.reason,
    });
    expect(r.json.decision).toBeUndefined();
    expect(r.json.violations[0]).toMatchObject({ file: 'src/config.ts', line: 1 });
  });

  test('PermissionRequest error: the permission is denied with the reason as message', async () => {
    const p = project();
    p.validator(
      'no-force-push',
      { trigger: 'PermissionRequest', match: { tools: ['Bash'] } },
      sh(
        `grep -q 'push --force' && echo '{"passed":false,"violations":[{"rule":"no-force-push","suggestion":"push without --force"}],"summary":"force push"}' || echo '{"passed":true,"violations":[],"summary":"ok"}'`,
      ),
    );
    const input = {
      session_id: 's',
      cwd: p.root,
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: 'git push --force' },
      permission_suggestions: [],
    };
    const r = await p.hook(input);
    expect(r.json.hookSpecificOutput).toEqual({
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'deny', message: r.json.reason },
    });
    expect(r.json.reason).toContain('push without --force');
    const ok = await p.hook({ ...input, tool_input: { command: 'git push' } });
    expect(ok.json).toEqual({ passed: true, violations: [], summary: '1 validator passed' });
  });

  test('warn: systemMessage for the user and additionalContext for the model, never a block', async () => {
    const p = project();
    p.validator('style', { severity: 'warn' }, failing);
    const r = await p.hook(p.fixture('hook-input-PostToolUse-Write.json'));
    expect(r.json.decision).toBeUndefined();
    expect(r.json.passed).toBe(false);
    expect(r.json.hookSpecificOutput).toEqual({ hookEventName: 'PostToolUse', additionalContext: r.json.reason });
    expect(r.json.systemMessage).toContain('[style, warning] src/config.ts:1');
  });

  test('info: passed, nothing shown, the finding is in the JSONL log', async () => {
    const p = project();
    p.validator('docs', { severity: 'info' }, failing);
    const r = await p.hook(p.fixture('hook-input-PostToolUse-Write.json'));
    expect(r.json).toEqual({ passed: true, violations: [], summary: '1 validator passed; 1 info note logged' });
    const logs = readdirSync(join(p.root, '.avp/logs')).filter((n) => n.startsWith('hook-'));
    const line = JSON.parse(readFileSync(join(p.root, '.avp/logs', logs[0]!), 'utf8').trim());
    expect(line).toMatchObject({
      validator: 'docs',
      severity: 'info',
      status: 'failed',
      event: 'PostToolUse',
      tool: 'Write',
      judge: 'script',
      outcome: 'PASSED',
      violations: 1,
    });
    expect(line.details[0]).toMatchObject({ file: 'src/config.ts', line: 1 });
  });

  test('severity override from config turns an error validator into a warning', async () => {
    const p = project();
    p.validator('strict', {}, failing);
    p.write('avp.config.json', JSON.stringify({ severity: { strict: 'warn' } }));
    const r = await p.hook(p.fixture('hook-input-PostToolUse-Write.json'));
    expect(r.json.decision).toBeUndefined();
    expect(r.json.hookSpecificOutput.additionalContext).toContain('strict');
  });
});

describe('avp hook: arguments, once, lifecycle matchers', () => {
  test('--agent claude is accepted; an agent avp does not know or an unknown flag is a usage error (exit 2)', async () => {
    const p = project();
    const input = p.fixture('hook-input-Stop.json');
    const ok = await runHook(p, ['hook', '--agent', 'claude'], input);
    expect(ok).toMatchObject({ code: 0, stdout: '{}\n' });
    const other = await runHook(p, ['hook', '--agent=vim'], input);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('unsupported agent "vim"');
    expect((await runHook(p, ['hook', '--verbose'], input)).stderr).toContain('unknown flag --verbose');
  });

  test('a once validator runs once per session; triggerMatcher selects the SessionStart source', async () => {
    const p = project();
    p.validator(
      'setup-check',
      { trigger: 'SessionStart', triggerMatcher: 'startup', once: true },
      sh(
        `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"setup","suggestion":"run npm ci"}],"summary":"setup incomplete"}'`,
      ),
    );
    const start = (source: string, session: string) => ({
      hook_event_name: 'SessionStart',
      session_id: session,
      cwd: p.root,
      source,
    });
    const first = await p.hook(start('startup', 's-1'));
    expect(first.json.hookSpecificOutput).toEqual({
      hookEventName: 'SessionStart',
      additionalContext: first.json.reason,
    });
    expect(first.json.reason).toContain('run npm ci');
    expect((await p.hook(start('startup', 's-1'))).stdout).toBe('{}\n');
    expect((await p.hook(start('resume', 's-2'))).stdout).toBe('{}\n');
    expect((await p.hook(start('startup', 's-2'))).json.passed).toBe(false);
  });
});

/** An answer that passes and only tells the user of an acceptance made while the session ran. */
function acceptedNoticeOnly(stdout: string): boolean {
  const answer = JSON.parse(stdout);
  return (
    Object.keys(answer).join() === 'systemMessage' && /`avp accept` accepted avp files of /.test(answer.systemMessage)
  );
}

describe('avp hook: kill switch and disabled validators', () => {
  const blocking = sh(`cat >/dev/null; echo '{"passed":false,"violations":[],"summary":"always fails"}'`);

  test('AVP_DISABLE=1 and "disabled": true pass everything', async () => {
    const p = project();
    p.validator('always', {}, blocking);
    expect((await p.hook(p.fixture('hook-input-PostToolUse-Write.json'))).json.decision).toBe('block');
    expect((await p.hook(p.fixture('hook-input-PostToolUse-Write.json'), { AVP_DISABLE: '1' })).stdout).toBe('{}\n');
    p.write('avp.config.json', '{"disabled": true}');
    await p.accept();
    // Passes; the session that was running when the user accepted hears of that acceptance once, nothing else.
    expect(acceptedNoticeOnly((await p.hook(p.fixture('hook-input-PostToolUse-Write.json'))).stdout)).toBe(true);
    expect((await p.hook(p.fixture('hook-input-PostToolUse-Write.json'))).stdout).toBe('{}\n');
  });

  test('disabledValidators (config and env) skip just those validators', async () => {
    const p = project();
    p.validator('always', {}, blocking);
    p.validator('fine', {}, PASSES);
    p.write('avp.config.json', '{"disabledValidators": ["always"]}');
    await p.accept();
    const r = await p.hook(p.fixture('hook-input-PostToolUse-Write.json'));
    expect(r.json).toEqual({ passed: true, violations: [], summary: '1 validator passed' });
    p.write('avp.config.json', '{}');
    await p.accept();
    const viaEnv = await p.hook(p.fixture('hook-input-PostToolUse-Write.json'), {
      AVP_DISABLED_VALIDATORS: 'always,fine',
    });
    expect(acceptedNoticeOnly(viaEnv.stdout)).toBe(true);
  });

  test('recursion guard: AVP_SUBAGENT=1 answers {} before reading anything', async () => {
    const p = project();
    p.validator('always', {}, blocking);
    const r = await p.hook('not json at all', { AVP_SUBAGENT: '1' });
    expect(r).toMatchObject({ code: 0, stdout: '{}\n' });
  });
});
