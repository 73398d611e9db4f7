/**
 * Verdicts that cannot be talked into a pass, and honest reports at volume, through the real `dist/avp hook`:
 * a contradictory script verdict blocks, a warn validator whose judge crashes blocks (unless config leaves the spec),
 * an errored once-validator runs again, 30 failing validators are all named, events that cannot be blocked never say
 * "avp blocked", and a missing judge is said once as the user's setup problem.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PASSES, project, sh } from './hook-support.ts';

const WRITE = 'hook-input-PostToolUse-Write.json';
const start = (root: string, session: string) => ({
  hook_event_name: 'SessionStart',
  session_id: session,
  cwd: root,
  source: 'startup',
});

describe('verdicts cannot be talked into a pass', () => {
  test('a script that answers passed: true with violations, or passed: "true", blocks', async () => {
    const p = project();
    p.validator(
      'liar',
      {},
      sh(
        `cat >/dev/null; echo '{"passed":true,"violations":[{"rule":"k","file":"src/config.ts","line":1}],"summary":"ok"}'`,
      ),
    );
    p.validator('quoted', {}, sh(`cat >/dev/null; echo '{"passed":"true","violations":[],"summary":"ok"}'`));
    const r = await p.hook(p.fixture(WRITE));
    expect(r.json.decision).toBe('block');
    expect(r.json.violations.map((v: any) => v.validator)).toEqual(['liar']);
    expect(r.json.errors.map((e: any) => e.validator)).toEqual(['quoted']);
    expect(r.json.errors[0].cause).toMatch(/not an AVP response.*passed.*true/);
  });

  test('a script pass contradicted by another field (nested verdict, permissionDecision, continue) is an error', async () => {
    const p = project();
    const shapes: Record<string, unknown> = {
      nested: { passed: true, violations: [], summary: 'ok', verdict: { passed: false, summary: 'key on line 1' } },
      'hook-deny': {
        passed: true,
        summary: 'ok',
        hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' },
      },
      stops: { passed: true, violations: [], summary: 'ok', continue: false },
    };
    for (const [name, out] of Object.entries(shapes))
      p.validator(name, {}, sh(`cat >/dev/null; echo '${JSON.stringify(out)}'`));
    p.validator('honest', {}, PASSES);
    const r = await p.hook(p.fixture(WRITE));
    expect(r.json.decision).toBe('block');
    expect(r.json.errors.map((e: any) => e.validator).sort()).toEqual(['hook-deny', 'nested', 'stops']);
    expect(r.json.errors.map((e: any) => e.cause).join('\n')).toContain('"passed": true with');
  });

  test('a warn-severity validator whose judge crashes blocks', async () => {
    const p = project();
    p.validator('soft', { severity: 'warn' }, sh('kill -SEGV $$'));
    const r = await p.hook(p.fixture(WRITE));
    expect(r.json.decision).toBe('block');
    expect(r.json.errors[0]).toMatchObject({ validator: 'soft', severity: 'warn' });
    expect(r.json.reason).toContain('[soft, warn]');
    // The opt-out leaves the spec: the same crash only warns.
    p.write('avp.config.json', '{"softValidatorErrors": true}');
    await p.accept();
    const soft = await p.hook(p.fixture(WRITE));
    expect(soft.json.decision).toBeUndefined();
    expect(soft.json.hookSpecificOutput.additionalContext).toContain('[soft, warn]');
    p.write('avp.config.json', '{"softValidatorErrors": "yes"}');
    await p.accept();
    expect((await p.hook(p.fixture(WRITE))).json.errors[0].cause).toContain('softValidatorErrors');
  });

  test('an info-severity validator that times out blocks too', async () => {
    const p = project();
    p.validator('notes', { severity: 'info', timeout: 1 }, sh('sleep 20'));
    const r = await p.hook(p.fixture(WRITE));
    expect(r.json.decision).toBe('block');
    expect(r.json.errors[0]).toMatchObject({ validator: 'notes', code: 'judge-timeout' });
  });
});

describe('once: only an evaluated run counts as done', () => {
  test('a once-validator whose script errors runs again on the next call; once it answers, it is done', async () => {
    const p = project();
    const flag = join(p.root, 'healthy');
    p.validator(
      'setup-check',
      { trigger: 'SessionStart', once: true },
      sh(
        `cat >/dev/null; echo run >> "${join(p.root, 'runs.log')}"; [ -f "${flag}" ] || exit 3; echo '{"passed":true,"violations":[],"summary":"ok"}'`,
      ),
    );
    const runs = () => readFileSync(join(p.root, 'runs.log'), 'utf8').trim().split('\n').length;
    const first = await p.hook(start(p.root, 's-1'));
    expect(first.json.errors[0]).toMatchObject({ validator: 'setup-check' });
    const second = await p.hook(start(p.root, 's-1'));
    expect(second.json.errors[0]).toMatchObject({ validator: 'setup-check' });
    expect(runs()).toBe(2);
    writeFileSync(flag, '');
    expect((await p.hook(start(p.root, 's-1'))).json.passed).toBe(true);
    expect((await p.hook(start(p.root, 's-1'))).stdout).toBe('{}\n');
    expect(runs()).toBe(3);
  });

  test('a once-validator that times out runs again; racing processes still run it exactly once', async () => {
    const p = project();
    p.validator(
      'slow-once',
      { trigger: 'SessionStart', once: true, timeout: 1 },
      sh(`cat >/dev/null; echo run >> "${join(p.root, 'runs.log')}"; sleep 5`),
    );
    const racing = await Promise.all(Array.from({ length: 4 }, () => p.hook(start(p.root, 's-race'))));
    // Exactly one process won the claim and ran it (and timed out); the others saw it in progress.
    expect(racing.filter((r) => r.stdout !== '{}\n')).toHaveLength(1);
    expect(readFileSync(join(p.root, 'runs.log'), 'utf8').trim().split('\n')).toHaveLength(1);
    const again = await p.hook(start(p.root, 's-race'));
    expect(again.json.errors[0]).toMatchObject({ validator: 'slow-once', code: 'judge-timeout' });
    expect(readFileSync(join(p.root, 'runs.log'), 'utf8').trim().split('\n')).toHaveLength(2);
  });
});

describe('honest reports at volume', () => {
  test('30 failing validators and 5 broken ones: every name in the reason, the full report in .avp/logs/', async () => {
    const p = project();
    const noisy = sh(
      `cat >/dev/null; i=0; printf '{"passed":false,"summary":"many","violations":['; while [ $i -lt 40 ]; do [ $i -gt 0 ] && printf ','; printf '{"rule":"r","file":"src/config.ts","line":1,"message":"%0500d","suggestion":"%0800d"}' $i $i; i=$((i+1)); done; echo ']}'`,
    );
    for (let i = 0; i < 30; i++) p.validator(`rule-${String(i).padStart(2, '0')}`, {}, noisy);
    for (let i = 0; i < 5; i++)
      p.validator(`broken-${i}`, {}, sh(`cat >/dev/null; echo "${'e'.repeat(3000)}" >&2; exit 1`));
    const r = await p.hook(p.fixture(WRITE));
    expect(r.code).toBe(0);
    expect(r.json.decision).toBe('block');
    for (let i = 0; i < 30; i++) expect(r.json.reason).toContain(`rule-${String(i).padStart(2, '0')} (40 violations)`);
    for (let i = 0; i < 5; i++) expect(r.json.reason).toContain(`broken-${i}`);
    expect(r.json.reason).toContain('Fix every violation listed above');
    expect(r.json.reason.length).toBeLessThanOrEqual(24_000);
    expect(r.json.summary).toBe('30 validators failed with 1200 violations; 5 validators could not be evaluated');
    expect(r.json.errors).toHaveLength(5);
    const report = r.json.fullReport as string;
    expect(report).toMatch(/^\.avp\/logs\/reports\/.+\.md$/);
    expect(r.json.reason).toContain(report);
    const full = readFileSync(join(p.root, report), 'utf8');
    expect(full.split('\n- [rule-').length - 1).toBe(1200);
    expect(full).toContain('e'.repeat(1500)); // the stderr tail, clipped in the answer
    expect(r.json.reason).not.toContain('e'.repeat(1500));
  });

  test('a small report writes no full report', async () => {
    const p = project();
    p.validator('one', {}, sh(`cat >/dev/null; echo '{"passed":false,"violations":[],"summary":"nope"}'`));
    const r = await p.hook(p.fixture(WRITE));
    expect(r.json.decision).toBe('block');
    expect(r.json.fullReport).toBeUndefined();
    expect(existsSync(join(p.root, '.avp/logs/reports'))).toBe(false);
  });
});

describe('events that cannot be blocked, and a missing judge', () => {
  test('a SessionStart error does not say "blocked"', async () => {
    const p = project();
    p.validator('boot', { trigger: 'SessionStart' }, sh('exit 1'));
    const r = await p.hook(start(p.root, 's-9'));
    expect(r.json.decision).toBeUndefined();
    expect(r.stdout).not.toMatch(/avp blocked/);
    expect(r.json.systemMessage).toContain('this event cannot be blocked');
    expect(r.json.hookSpecificOutput.additionalContext).toBe(r.json.reason);
  });

  test('no judge configured: one line per validator, the fix once, the one real finding still on top', async () => {
    const p = project();
    p.validator(
      'no-keys',
      {},
      sh(
        `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"k","file":"src/config.ts","line":1,"message":"hardcoded key"}],"summary":"key"}'`,
      ),
    );
    for (let i = 0; i < 7; i++) p.validator(`review-${i}`, {});
    const r = await p.hook(p.fixture(WRITE), { PATH: '/usr/bin:/bin' });
    expect(r.json.decision).toBe('block');
    expect(r.stdout.split('install Claude Code and log in').length - 1).toBe(1);
    for (let i = 0; i < 7; i++) expect(r.json.reason.split(`[review-${i}]`).length - 1).toBe(1);
    expect(r.json.reason).toContain('[no-keys] src/config.ts:1: hardcoded key');
    expect(r.json.reason).toContain('configuration problem for the user, not something to fix in the code');
    expect(r.json.reason).toContain('avp doctor');
    expect(r.json.systemMessage).toContain('avp doctor');
    expect(r.stdout.length).toBeLessThan(5000);
    // A healthy run: only the finding, no setup text.
    const ok = await p.hook(p.fixture(WRITE), {
      PATH: '/usr/bin:/bin',
      AVP_DISABLED_VALIDATORS: 'review-0,review-1,review-2,review-3,review-4,review-5,review-6',
    });
    expect(ok.json.reason).not.toContain('avp doctor');
    expect(readdirSync(join(p.root, '.avp/logs')).some((n) => n.startsWith('hook-'))).toBe(true);
  });
});

test('a passing validator next to the broken ones is unaffected', async () => {
  const p = project();
  p.validator('fine', {}, PASSES);
  const r = await p.hook(p.fixture(WRITE));
  expect(r.json).toEqual({ passed: true, violations: [], summary: '1 validator passed' });
});
