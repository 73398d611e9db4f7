/**
 * What runValidators decides before and after the judges answer: a spent budget stops the LLM validators (blocking
 * with a fix that says when the budget comes back, or skipping them under `warn`), cheap first skips them only when a
 * script validator blocks and says which, the spend of a mixed run reaches the ledger, two LLM validators on one
 * backend share one request, and a finished run leaves no timer holding the process open.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { defaultConfig } from '../../../src/config/config.ts';
import type { AvpConfig } from '../../../src/config/types.ts';
import type { Judge, JudgeRequest } from '../../../src/judges/types.ts';
import type { HookEvent } from '../../../src/protocol/event.ts';
import { dayFile, readSpend, sessionFile } from '../../../src/runner/budget.ts';
import { runValidators } from '../../../src/runner/run.ts';
import type { Validator } from '../../../src/validator/types.ts';
import { specValidator } from '../validator/helpers.ts';
import { startAnthropicServer, type AnthropicServer } from '../../support/anthropic-server.ts';
import { tempDir } from '../../support/run-avp.ts';

const config = (over: Partial<AvpConfig> = {}, judge: Partial<AvpConfig['judge']> = {}): AvpConfig => {
  const base = defaultConfig();
  return { ...base, cache: { ...base.cache, enabled: false }, ...over, judge: { ...base.judge, ...judge } };
};

/** An LLM validator, or a script validator when `script` is given (the injected judge answers for both). */
const validator = (name: string, script?: string): Validator => ({
  ...specValidator(name, { timeout: 10, ...(script ? { script } : {}) }, '/p'),
  body: 'Rules.',
  hash: name,
});

const event: HookEvent = {
  agent: 'claude',
  event: 'PostToolUse',
  tool: 'Write',
  cwd: '/p',
  projectRoot: '/p',
  sessionId: 'plan-session',
  files: [{ path: '/p/a.ts', relPath: 'a.ts', inProject: true, kind: 'create', before: null, after: 'x\n' }],
  raw: {},
};

/** A judge that fails the validators named in `failing`, passes the rest, reports `usage` for LLM ones. */
function judge(failing: string[] = [], asked: string[] = []): Judge {
  return {
    name: 'test',
    evaluate: async ({ validator: v }: JudgeRequest) => {
      asked.push(v.id);
      const passed = !failing.includes(v.id);
      const verdict = { passed, violations: passed ? [] : [{ rule: v.id }], summary: v.id };
      return { verdict, judge: 'test', ...(v.spec.script ? {} : { usage: { inputTokens: 700, outputTokens: 50 } }) };
    },
  };
}

describe('a spent budget', () => {
  /** A ledger that already holds 5,000 tokens in `file` (the day's or this session's). */
  const spentIn = (file: (env: NodeJS.ProcessEnv) => string) => {
    const env = { AVP_HOME: tempDir('avp-plan-home-') };
    mkdirSync(dirname(file(env)), { recursive: true });
    appendFileSync(file(env), '{"ts":"2026-01-01T00:00:00.000Z","t":5000,"u":0}\n');
    return env;
  };
  const limit = { tokens: 1000 };

  test('block: the fix says the day budget comes back tomorrow, a session budget in a new session', async () => {
    const day = spentIn((env) => dayFile(env));
    const session = spentIn((env) => sessionFile(env, 'plan-session'));
    const block = (budgets: Partial<AvpConfig['budgets']>) =>
      config({ budgets: { session: {}, day: {}, policy: 'block', ...budgets } });
    const [byDay] = await runValidators([validator('l')], [], event, block({ day: limit }), {
      judgeFor: async () => judge(),
      env: day,
    });
    const [bySession] = await runValidators([validator('l')], [], event, block({ session: limit }), {
      judgeFor: async () => judge(),
      env: session,
    });
    expect(byDay!.error).toMatchObject({ code: 'budget-spent' });
    expect(byDay!.error!.fix).toStartWith('raise budgets.day.tokens in avp.config.json, or wait for tomorrow;');
    expect(bySession!.error!.fix).toStartWith(
      'raise budgets.session.tokens in avp.config.json, or wait for a new session;',
    );
  });

  test('warn: the LLM validators are skipped with the budget-spent code; script validators still run', async () => {
    const env = spentIn((e) => dayFile(e));
    const asked: string[] = [];
    const warn = config({ budgets: { session: {}, day: limit, policy: 'warn' } });
    const runs = await runValidators([validator('s', 'scripts/s.sh'), validator('l')], [], event, warn, {
      judgeFor: async () => judge([], asked),
      env,
    });
    expect(asked).toEqual(['s']);
    expect(runs.map((r) => [r.id, r.status, r.skipped?.code])).toEqual([
      ['s', 'passed', undefined],
      ['l', 'skipped', 'budget-spent'],
    ]);
  });
});

describe('cheap first (judge.skipLlmWhenBlocked)', () => {
  const cheap = config({}, { skipLlmWhenBlocked: true });
  const list = [validator('s1', 'scripts/a.sh'), validator('s2', 'scripts/b.sh'), validator('llm')];

  test('script validators that pass leave the LLM validators to be asked', async () => {
    const asked: string[] = [];
    const runs = await runValidators(list, [], event, cheap, { judgeFor: async () => judge([], asked) });
    expect(asked.sort()).toEqual(['llm', 's1', 's2']);
    expect(runs.map((r) => r.status)).toEqual(['passed', 'passed', 'passed']);
  });

  test('one blocking script skips them with cheap-first and its name; two are listed', async () => {
    const skipped = async (failing: string[]) => {
      const runs = await runValidators(list, [], event, cheap, { judgeFor: async () => judge(failing) });
      return runs[2]!.skipped;
    };
    expect(await skipped(['s2'])).toEqual({
      code: 'cheap-first',
      reason: 'skipped: s2 already blocks this change (judge.skipLlmWhenBlocked)',
    });
    expect((await skipped(['s1', 's2']))!.reason).toBe(
      'skipped: s1, s2 already block this change (judge.skipLlmWhenBlocked)',
    );
  });
});

test("the spend of a run mixing script and LLM validators reaches the ledger (the scripts' runs spend nothing)", async () => {
  const env = { AVP_HOME: tempDir('avp-plan-home-') };
  await runValidators([validator('s', 'scripts/s.sh'), validator('l')], [], event, config(), {
    judgeFor: async () => judge(),
    env,
  });
  expect(readSpend(dayFile(env)).tokens).toBe(750);
  expect(readSpend(sessionFile(env, 'plan-session')).tokens).toBe(750);
});

let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test('two LLM validators on the same backend share one batched request', async () => {
  const s = await startAnthropicServer(({ body }) => {
    const asked: string[] = body.tools[0].input_schema.properties.verdicts.items.properties.validator.enum;
    return {
      toolUse: {
        name: 'report_verdicts',
        input: { verdicts: asked.map((id) => ({ validator: id, passed: true, violations: [], summary: 'ok' })) },
      },
    };
  });
  server = s;
  const env = { AVP_HOME: tempDir('avp-plan-home-'), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: s.url };
  const runs = await runValidators([validator('one'), validator('two')], [], event, config(), { env });
  expect(runs.map((r) => [r.id, r.status])).toEqual([
    ['one', 'passed'],
    ['two', 'passed'],
  ]);
  expect(s.requests).toHaveLength(1);
});

test("a finished run leaves no timer holding the process open (the call's budget timer is cleared)", async () => {
  // A child process runs one validator under an hour's budget and then has nothing left to do: it must exit on its
  // own. A budget timer left behind would keep it alive for the hour; it is killed after 30 s instead.
  const run = new URL('../../../src/runner/run.ts', import.meta.url).pathname;
  const configModule = new URL('../../../src/config/config.ts', import.meta.url).pathname;
  const child = [
    `const { runValidators } = await import(${JSON.stringify(run)});`,
    `const { defaultConfig } = await import(${JSON.stringify(configModule)});`,
    `const judge = { name: 't', evaluate: async () => ({ verdict: { passed: true, violations: [], summary: 'ok' }, judge: 't' }) };`,
    `const v = ${JSON.stringify(validator('only'))};`,
    `const runs = await runValidators([v], [], ${JSON.stringify(event)}, { ...defaultConfig(), budgetMs: 3600000 }, { judgeFor: async () => judge });`,
    `console.log(runs[0].status);`,
  ].join('\n');
  const proc = Bun.spawn([process.execPath, '-e', child], { stdout: 'pipe', stderr: 'inherit' });
  const killer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
  const code = await proc.exited;
  clearTimeout(killer);
  expect({ out: (await new Response(proc.stdout).text()).trim(), code, signal: proc.signalCode }).toEqual({
    out: 'passed',
    code: 0,
    signal: null,
  });
}, 60_000);
