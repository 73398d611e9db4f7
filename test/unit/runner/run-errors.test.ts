/**
 * Failing closed in the runner, path by path: every way a judge can fail to give a verdict — it throws an avp error
 * (with or without a fix), a plain error or a bare value, never answers and ignores its stop signal, or is asked after
 * the call's budget ran out — becomes an error run whose cause, fix and code say what happened, never a pass. The
 * judges here are written in the test against avp's Judge interface (runValidators' `judgeFor`), so that each path is
 * reached exactly; run.test.ts drives the same runner with real judge processes.
 */
import { describe, expect, test } from 'bun:test';
import { defaultConfig } from '../../../src/config/config.ts';
import type { AvpConfig } from '../../../src/config/types.ts';
import { AvpError } from '../../../src/errors.ts';
import type { Judge, JudgeRequest, JudgeResult } from '../../../src/judges/types.ts';
import { disableHint } from '../../../src/judges/script.ts';
import type { HookEvent } from '../../../src/protocol/event.ts';
import { loadErrorRun, runValidators } from '../../../src/runner/run.ts';
import { whenAborted } from '../../../src/runner/run-one.ts';
import type { ValidatorRun } from '../../../src/runner/types.ts';
import type { LoadError, Validator } from '../../../src/validator/types.ts';
import { specValidator } from '../validator/helpers.ts';

const config = (over: Partial<AvpConfig> = {}): AvpConfig => ({ ...defaultConfig(), ...over });

function validator(name: string, timeout = 10): Validator {
  return { ...specValidator(name, { timeout }, '/p'), body: 'Rules.', hash: name };
}

const event = (over: Partial<HookEvent['files'][number]> = {}): HookEvent => ({
  agent: 'claude',
  event: 'PostToolUse',
  tool: 'Write',
  cwd: '/p',
  projectRoot: '/p',
  files: [
    { path: '/p/src/a.ts', relPath: 'src/a.ts', inProject: true, kind: 'create', before: null, after: 'x\n', ...over },
  ],
  raw: {},
});

/** Runs one validator whose judge does `evaluate`; returns its run and the wall time the call took. */
async function runWith(
  evaluate: (r: JudgeRequest) => Promise<JudgeResult>,
  opts: { timeout?: number; deadline?: number; budgetMs?: number; event?: HookEvent } = {},
): Promise<{ run: ValidatorRun; ms: number }> {
  const judge: Judge = { name: 'test', evaluate };
  const t0 = performance.now();
  const [run] = await runValidators(
    [validator('v', opts.timeout)],
    [],
    opts.event ?? event(),
    config(opts.budgetMs ? { budgetMs: opts.budgetMs } : {}),
    { judgeFor: async () => judge, ...(opts.deadline ? { deadline: opts.deadline } : {}) },
  );
  return { run: run!, ms: performance.now() - t0 };
}

const HINT = disableHint({ id: 'v' });
const PASS = { passed: true, violations: [], summary: 'ok' };

describe('a judge that throws', () => {
  test('an avp error with a fix: its message, its fix with the disable hint, its code', async () => {
    const { run } = await runWith(async () => {
      throw new AvpError('judge-unreadable', 'the reply is not a verdict', { fix: 'ask another model' });
    });
    expect(run.status).toBe('error');
    expect(run.error).toStrictEqual({
      cause: 'the reply is not a verdict',
      fix: `ask another model; ${HINT}`,
      code: 'judge-unreadable',
    });
  });

  test('a fix that already says how to disable is not told twice', async () => {
    const { run } = await runWith(async () => {
      throw new AvpError('judge-unreadable', 'x', { fix: `retry; ${HINT}` });
    });
    expect(run.error!.fix).toBe(`retry; ${HINT}`);
  });

  test.each(['judge-unconfigured', 'judge-none', 'judge-auth'])("%s is the user's setup: marked so", async (code) => {
    const { run } = await runWith(async () => {
      throw new AvpError(code, 'no judge', { fix: 'configure one' });
    });
    expect(run.error).toStrictEqual({ cause: 'no judge', fix: `configure one; ${HINT}`, code, setup: true });
  });

  test('an avp error without a fix: the timeout advice, with the hint', async () => {
    const { run } = await runWith(async () => {
      throw new AvpError('judge-http', 'HTTP 500');
    });
    expect(run.error).toStrictEqual({
      cause: 'HTTP 500',
      fix: `raise "timeout" in the validator's frontmatter, or make its judge faster; ${HINT}`,
      code: 'judge-http',
    });
  });

  test("a plain error is a crash: its message, and avp's own advice even when the error carries a fix", async () => {
    const { run } = await runWith(async () => {
      throw Object.assign(new TypeError('cannot read x'), { fix: 'their advice' });
    });
    expect(run.error).toStrictEqual({
      cause: 'cannot read x',
      fix: `raise "timeout" in the validator's frontmatter, or make its judge faster; ${HINT}`,
      code: 'judge-crash',
    });
  });

  test('a bare value (not an Error) is a crash quoting it', async () => {
    const { run } = await runWith(async () => {
      throw 'boom';
    });
    expect(run.status).toBe('error');
    expect(run.error).toMatchObject({ cause: 'boom', code: 'judge-crash' });
  });

  test('the run says how long it took, never more than the call', async () => {
    const { run, ms } = await runWith(async () => {
      await Bun.sleep(30);
      throw new Error('late');
    });
    expect(run.durationMs).toBeGreaterThanOrEqual(25);
    expect(run.durationMs).toBeLessThanOrEqual(Math.ceil(ms));
  });
});

describe('a judge that never answers and ignores its stop signal', () => {
  test("is stopped at the validator's own timeout: judge-timeout, and the advice to raise it", async () => {
    const { run, ms } = await runWith(() => new Promise<never>(() => {}), { timeout: 1 });
    expect(ms).toBeLessThan(10_000);
    expect(run.status).toBe('error');
    expect(run.error).toStrictEqual({
      cause: "timed out after 1 s (the validator's timeout)",
      fix: `raise "timeout" in the validator's frontmatter, or make its judge faster; ${HINT}`,
      code: 'judge-timeout',
    });
    expect(run.durationMs).toBeGreaterThanOrEqual(900);
  });

  test("is stopped when the call's budget ends first: the time it had and the budget, and the advice", async () => {
    const { run } = await runWith(() => new Promise<never>(() => {}), {
      timeout: 60,
      deadline: Date.now() + 700,
      budgetMs: 30_000,
    });
    expect(run.error!.cause).toMatch(/^stopped after 0\.\d s: avp's budget of 30 s for this hook call ran out$/);
    expect(run.error!.fix).toBe(`raise budgetMs / AVP_BUDGET_MS (and the hook timeout); ${HINT}`);
    expect(run.error!.code).toBe('judge-timeout');
  });
});

test("a judge that fails with its own error when stopped: the timeout is reported, not the judge's error", async () => {
  const { run } = await runWith(
    (r) =>
      new Promise<never>((_, reject) =>
        r.signal.addEventListener('abort', () =>
          reject(new AvpError('judge-http', 'request aborted', { fix: 'check the network' })),
        ),
      ),
    { timeout: 1 },
  );
  expect(run.error).toStrictEqual({
    cause: "timed out after 1 s (the validator's timeout)",
    fix: `raise "timeout" in the validator's frontmatter, or make its judge faster; ${HINT}`,
    code: 'judge-timeout',
  });
});

test('a validator asked after the budget ran out is not started: an error naming the budget', async () => {
  let asked = false;
  const { run } = await runWith(
    async () => {
      asked = true;
      return { verdict: PASS, judge: 'test' };
    },
    { deadline: Date.now() - 1, budgetMs: 2_000 },
  );
  expect(asked).toBe(false);
  expect(run.status).toBe('error');
  expect(run.error).toStrictEqual({
    cause: "not started: avp's budget of 2 s for this hook call ran out",
    fix: `raise budgetMs / AVP_BUDGET_MS or lower concurrency demands; ${HINT}`,
    code: 'judge-timeout',
  });
});

test('a change avp could not rebuild is never judged: an error saying which file and why', async () => {
  let asked = false;
  const { run } = await runWith(
    async () => {
      asked = true;
      return { verdict: PASS, judge: 'test' };
    },
    { event: event({ after: undefined, unavailable: 'the edit exceeds 8 MiB' }) },
  );
  expect(asked).toBe(false);
  expect(run.status).toBe('error');
  expect(run.error).toStrictEqual({
    cause: 'cannot show src/a.ts after the change: the edit exceeds 8 MiB',
    fix: `make the change in smaller edits; ${HINT}`,
  });
});

describe('a judge that answers', () => {
  test('the run carries the judge, and the model, usage and cache mark only when the judge gave them', async () => {
    const usage = { inputTokens: 10, outputTokens: 2 };
    const full = await runWith(async () => ({ verdict: PASS, judge: 'anthropic', model: 'm', usage, cached: true }));
    expect(full.run).toMatchObject({ status: 'passed', judge: 'anthropic', model: 'm', usage, cached: true });
    const bare = await runWith(async () => ({ verdict: { ...PASS, passed: false }, judge: 'script' }));
    expect(bare.run.status).toBe('failed');
    expect(Object.keys(bare.run).filter((k) => ['model', 'usage', 'cached'].includes(k))).toEqual([]);
    expect(bare.run.durationMs).toBeLessThanOrEqual(Math.ceil(bare.ms));
  });

  test("once the run is over the judge's signal is aborted, so work it left behind stops", async () => {
    let signal: AbortSignal | undefined;
    await runWith(async (r) => {
      signal = r.signal;
      return { verdict: PASS, judge: 'test' };
    });
    expect(signal!.aborted).toBe(true);
    expect(signal!.reason).toBe('done');
  });
});

test('an injected judge is asked for each validator: no batch goes to a real backend, even with one configured', async () => {
  const asked: string[] = [];
  const judge: Judge = {
    name: 'test',
    evaluate: async (r) => (asked.push(r.validator.id), { verdict: PASS, judge: 'test' }),
  };
  const llm = [validator('one'), validator('two')];
  const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
  const runs = await runValidators(llm, [], event(), config(), { judgeFor: async () => judge, env });
  expect(asked.sort()).toEqual(['one', 'two']);
  expect(runs.map((r) => [r.id, r.status, r.judge])).toEqual([
    ['one', 'passed', 'test'],
    ['two', 'passed', 'test'],
  ]);
});

test('whenAborted rejects with judge-timeout and the reason, at once for a signal already aborted', async () => {
  const e = await whenAborted(AbortSignal.abort('too slow')).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(AvpError);
  expect(e).toMatchObject({ code: 'judge-timeout', message: 'too slow' });
  const c = new AbortController();
  const later = whenAborted(c.signal).catch((x: AvpError) => x.message);
  c.abort('later');
  expect(await later).toBe('later');
});

describe('load errors as runs', () => {
  const load = (over: Partial<LoadError>): LoadError => ({
    source: 'project',
    path: '/p/.avp/validators/broken.md',
    message: 'bad YAML',
    fix: 'fix it',
    ...over,
  });
  test('named after the file (a file validator) or its folder (VALIDATOR.md), unless the name was read', () => {
    expect(loadErrorRun(load({}), config()).id).toBe('broken');
    expect(loadErrorRun(load({ path: '/p/.avp/validators/dir-v/VALIDATOR.md' }), config()).id).toBe('dir-v');
    expect(loadErrorRun(load({ name: 'named' }), config()).id).toBe('named');
  });

  test('the cause points at file, file:line or file:line:column; code validator-load; fix with the hint', () => {
    const cause = (over: Partial<LoadError>) => loadErrorRun(load(over), config()).error!.cause;
    expect(cause({})).toBe('cannot load /p/.avp/validators/broken.md: bad YAML');
    expect(cause({ line: 3 })).toBe('cannot load /p/.avp/validators/broken.md:3: bad YAML');
    expect(cause({ line: 3, column: 7 })).toBe('cannot load /p/.avp/validators/broken.md:3:7: bad YAML');
    const run = loadErrorRun(load({}), config());
    expect(run).toMatchObject({ status: 'error', severity: 'error', durationMs: 0 });
    expect(run.error).toStrictEqual({
      cause: 'cannot load /p/.avp/validators/broken.md: bad YAML',
      fix: `fix it; ${disableHint({ id: 'broken' })}`,
      code: 'validator-load',
    });
  });
});
