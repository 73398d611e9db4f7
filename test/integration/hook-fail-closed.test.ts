import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { barrierScript } from '../support/barrier.ts';
import { hookWithOpenStdin, PASSES, project, sh } from './hook-support.ts';

const WRITE = 'hook-input-PostToolUse-Write.json';
const noStack = (stderr: string) => expect(stderr).not.toMatch(/^\s+at .+:\d+/m);

/** Runs the Write fixture against one broken validator and returns the answer. */
async function brokenRun(setup: (p: ReturnType<typeof project>) => void, env: Record<string, string> = {}) {
  const p = project();
  p.validator('healthy', {}, PASSES);
  setup(p);
  const r = await p.hook(p.fixture(WRITE), env);
  expect(r.code).toBe(0);
  noStack(r.stderr);
  return r;
}

/** A validator error: blocks, names the validator and the cause, says how to disable it, and is not a violation. */
function expectValidatorError(json: any, id: string, cause: RegExp) {
  expect(json.decision).toBe('block');
  expect(json.passed).toBe(false);
  expect(json.violations).toEqual([]);
  const err = json.errors.find((e: any) => e.validator === id);
  expect(err).toBeDefined();
  expect(err.cause).toMatch(cause);
  // Setup problems (no judge, a broken config) have their own section, said once, for the user.
  expect(json.reason).toMatch(
    err.setup ? /Not evaluated — avp is not set up/ : /Validator errors \(avp could not evaluate these validators/,
  );
  expect(json.reason).toContain(`[${id}${err.severity === 'error' ? ']' : `, ${err.severity}]`}`);
  expect(json.reason).toMatch(/disabledValidators/);
  expect(json.reason).toContain('AVP_DISABLE=1');
}

describe('fail closed: a validator that cannot be evaluated blocks, reported as a validator error', () => {
  test('timeout', async () => {
    const r = await brokenRun((p) => p.validator('slow', { timeout: 1 }, sh('sleep 20')));
    expectValidatorError(r.json, 'slow', /timed out after 1 s/);
    expect(r.ms).toBeLessThan(10_000);
  });

  test('crash (killed by a signal)', async () => {
    const r = await brokenRun((p) => p.validator('crashy', {}, sh('kill -SEGV $$')));
    expectValidatorError(r.json, 'crashy', /killed by SIGSEGV/);
  });

  test('non-zero exit, with the stderr tail', async () => {
    const r = await brokenRun((p) =>
      p.validator('exits', {}, sh('cat >/dev/null; echo "TypeError: x is undefined" >&2; exit 1')),
    );
    expectValidatorError(r.json, 'exits', /exited with code 1[\s\S]*TypeError: x is undefined/);
  });

  test('unreadable verdict', async () => {
    const r = await brokenRun((p) => p.validator('prose', {}, sh('cat >/dev/null; echo "LGTM!"')));
    expectValidatorError(r.json, 'prose', /not JSON/);
  });

  test('malformed YAML (load error); disabling it by the reported name unblocks', async () => {
    const r = await brokenRun((p) =>
      p.write('.avp/validators/bad-yaml/VALIDATOR.md', '---\nname: bad-yaml\ndescription: [unclosed\n---\nbody\n'),
    );
    expectValidatorError(r.json, 'bad-yaml', /cannot load .*VALIDATOR\.md/);
    const off = await brokenRun(
      (p) =>
        p.write('.avp/validators/bad-yaml/VALIDATOR.md', '---\nname: bad-yaml\ndescription: [unclosed\n---\nbody\n'),
      { AVP_DISABLED_VALIDATORS: 'bad-yaml' },
    );
    expect(off.json).toEqual({ passed: true, violations: [], summary: '1 validator passed' });
  });

  test('missing reference (the script does not exist)', async () => {
    const r = await brokenRun((p) => {
      p.validator('no-script', {}, PASSES);
      writeFileSync(
        join(p.root, '.avp/validators/no-script/VALIDATOR.md'),
        '---\nname: no-script\ndescription: d\nseverity: error\ntrigger: PostToolUse\nscript: scripts/gone.sh\n---\nbody\n',
      );
    });
    expectValidatorError(r.json, 'no-script', /gone\.sh/);
  });

  test('no judge configured for an LLM validator (clean environment)', async () => {
    const r = await brokenRun((p) => p.validator('llm-rule', {}), { PATH: '/usr/bin:/bin' });
    expectValidatorError(r.json, 'llm-rule', /judge/i);
  });

  test('invalid config blocks with a config error naming the file; the kill switch still works', async () => {
    const r = await brokenRun((p) => p.write('avp.config.json', '{"concurrency": "many"}'));
    expectValidatorError(r.json, 'avp-config', /avp\.config\.json/);
    const off = await brokenRun((p) => p.write('avp.config.json', '{"concurrency": "many"}'), { AVP_DISABLE: '1' });
    expect(off.stdout).toBe('{}\n');
    const badEnv = await brokenRun(() => {}, { AVP_CONCURRENCY: 'lots' });
    expectValidatorError(badEnv.json, 'avp-config', /AVP_CONCURRENCY/);
    // A malformed AVP_* variable must not break the kill switch either.
    const badEnvOff = await brokenRun(() => {}, { AVP_CONCURRENCY: 'lots', AVP_DISABLE: '1' });
    expect(badEnvOff.stdout).toBe('{}\n');
  });

  test('a warn validator that cannot be evaluated blocks too (fail closed whatever the severity)', async () => {
    const r = await brokenRun((p) => p.validator('soft', { severity: 'warn' }, sh('exit 3')));
    expectValidatorError(r.json, 'soft', /exited with code 3/);
    expect(r.json.errors[0]).toMatchObject({ validator: 'soft', severity: 'warn' });
    expect(r.json.reason).toContain('[soft, warn] script');
  });

  test('every violation and every error in one report', async () => {
    const many = sh(
      `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"a","file":"src/x.ts","line":1},{"rule":"b","file":"src/y.ts","line":2}],"summary":"2"}'`,
    );
    const r = await brokenRun((p) => {
      p.validator('first', {}, many);
      p.validator('second', {}, many);
      p.validator('dead', {}, sh('exit 1'));
    });
    expect(r.json.violations).toHaveLength(4);
    expect(r.json.errors).toHaveLength(1);
    expect(r.json.summary).toBe('2 validators failed with 4 violations; 1 validator could not be evaluated');
    for (const where of ['src/x.ts:1', 'src/y.ts:2', '[first]', '[second]', '[dead]'])
      expect(r.json.reason).toContain(where);
  });
});

describe('bad stdin: a clear message on stderr, exit 2, nothing on stdout', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['empty', '', /stdin was empty/],
    ['not JSON', '{"hook_event_name": ', /not JSON/],
    ['an array', '[1,2]', /an array, not a JSON object/],
    ['no event name', '{"cwd": "/"}', /no "hook_event_name"/],
    ['wrong types', '{"hook_event_name": "PostToolUse", "tool_name": 7}', /"tool_name" must be a string/],
    ['10 MB', `{"hook_event_name":"Stop","x":"${'a'.repeat(10 * 1024 * 1024)}"}`, /larger than 8 MiB/],
  ];
  for (const [what, stdin, message] of cases) {
    test(what, async () => {
      const p = project();
      p.validator('any', {}, PASSES);
      const r = await p.hook(stdin);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('fix:');
      noStack(r.stderr);
    });
  }
});

test('stdin left open (never closed): avp gives up after its stdin timeout instead of hanging', async () => {
  const p = project();
  const { out, err, code } = await hookWithOpenStdin(p.root, {
    PATH: '/usr/bin:/bin',
    HOME: p.home,
    AVP_HOME: join(p.home, '.avp'),
  });
  expect({ code, out }).toEqual({ code: 2, out: '' });
  expect(err).toContain('no complete hook input on stdin after 0.5 s');
});

describe('parallelism and the run log', () => {
  test('5 script validators run at once (each waits until the other 4 have started); one JSONL line per run', async () => {
    const p = project();
    const barrier = join(p.home, 'barrier');
    for (let i = 0; i < 5; i++)
      p.validator(
        `sleepy-${i}`,
        {},
        sh(
          barrierScript(barrier, 5, '{"passed":true,"violations":[],"summary":"together"}', '{"passed":false}') +
            '\nsleep 1',
        ),
      );
    const r = await p.hook(p.fixture(WRITE));
    expect(r.json).toEqual({ passed: true, violations: [], summary: '5 validators passed' });
    const dir = join(p.root, '.avp/logs');
    const lines = readFileSync(
      join(
        dir,
        readdirSync(dir).find((n) => n.startsWith('hook-'))!,
      ),
      'utf8',
    )
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    for (const l of lines) {
      expect(l).toMatchObject({
        event: 'PostToolUse',
        tool: 'Write',
        status: 'passed',
        judge: 'script',
        outcome: 'PASSED',
        files: ['src/config.ts'],
      });
      expect(l.durationMs).toBeGreaterThanOrEqual(900);
      expect(typeof l.ts).toBe('string');
      expect(l.session).toBe('a27d19bd-40c9-40a3-b0ea-6d30f9d09f37');
    }
    expect(new Set(lines.map((l) => l.validator)).size).toBe(5);
  });
});
