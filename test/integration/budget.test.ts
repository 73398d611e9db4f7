/**
 * Bounding what avp spends, through the compiled binary: token budgets per session and per day with the `block`
 * (fail closed) and `warn` policies, a ledger in $AVP_HOME that parallel hook processes never lose spend in and that
 * the agent's file tools cannot reset, `avp stats` showing it; cheap first (`judge.skipLlmWhenBlocked`); and a Stop
 * round that says "still failing" instead of re-sending a finding the agent was already shown for the same content.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-server.ts';
import { runAvp } from '../support/run-avp.ts';
import { BIN, project, sh, type Project } from './hook-support.ts';

let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const apiEnv = (url: string) => ({ PATH: '/usr/bin:/bin', ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'k' });
const verdict = { passed: true, violations: [], summary: 'ok' };

/** One LLM validator; every answer costs 800 input + 20 output tokens. */
async function llmProject(config: Record<string, unknown>): Promise<Project> {
  const p = project();
  p.validator('llm-1', { match: { tools: ['Edit'] } });
  p.write('src/config.ts', 'const API_KEY = process.env.API_KEY;\n');
  p.write('avp.config.json', JSON.stringify(config));
  server = await startAnthropicServer(() => ({
    toolUse: { name: 'report_verdict', input: verdict },
    usage: { input_tokens: 800, output_tokens: 20 },
  }));
  return p;
}

/** The Edit fixture with its own change (`n` makes each one new: no verdict-cache hit). */
function edit(p: Project, n: number, session = 'budget-session') {
  const input = p.fixture('hook-input-PostToolUse-Edit.json');
  input.session_id = session;
  input.tool_use_id = `toolu_${n}`;
  input.tool_response.originalFile = `// change ${n}\n${input.tool_response.originalFile}`;
  return input;
}

const ledger = (p: Project) => join(p.home, '.avp', 'spend');
function dayTokens(p: Project): number {
  const file = readdirSync(ledger(p)).find((n) => n.startsWith('day-'))!;
  return readFileSync(join(ledger(p), file), 'utf8')
    .trim()
    .split('\n')
    .reduce((n, l) => n + JSON.parse(l).t, 0);
}

describe('budgets', () => {
  test('block (default): once the session budget is spent, LLM validators fail closed without a request', async () => {
    const p = await llmProject({ budgets: { session: { tokens: 1500 } } });
    const env = apiEnv(server!.url);
    expect((await p.hook(edit(p, 1), env)).json.passed).toBe(true);
    expect((await p.hook(edit(p, 2), env)).json.passed).toBe(true);
    expect(server!.requests).toHaveLength(2);
    const third = await p.hook(edit(p, 3), env);
    expect(server!.requests).toHaveLength(2);
    expect(third.json.decision).toBe('block');
    expect(third.json.errors[0].code).toBe('budget-spent');
    expect(third.json.reason).toContain('1,640 tokens in this session of 1,500 tokens');
    // Another session starts with its own budget.
    expect((await p.hook(edit(p, 4, 'other-session'), env)).json.passed).toBe(true);
    expect(server!.requests).toHaveLength(3);
    // avp stats shows the spend against the budgets.
    const stats = await runAvp(['stats'], { bin: BIN, cwd: p.root, env: { HOME: p.home, CLAUDE_PROJECT_DIR: p.root } });
    expect(stats.stdout).toContain('budget');
    expect(stats.stdout).toContain('2,460 tokens today');
  });

  test('warn: LLM validators are not run, and the answer says so without blocking', async () => {
    const p = await llmProject({ budgets: { day: { tokens: 500 }, policy: 'warn' } });
    const env = apiEnv(server!.url);
    await p.hook(edit(p, 1), env);
    const second = await p.hook(edit(p, 2), env);
    expect(server!.requests).toHaveLength(1);
    expect(second.json.decision).toBeUndefined();
    expect(second.json.systemMessage).toContain('not run');
    expect(second.json.hookSpecificOutput.additionalContext).toContain('budgets.day.tokens');
  });

  test('parallel hook processes lose no spend; the agent cannot reset the ledger with its file tools', async () => {
    const p = await llmProject({ budgets: { day: { tokens: 1_000_000 } } });
    const env = apiEnv(server!.url);
    const runs = await Promise.all(Array.from({ length: 6 }, (_, i) => p.hook(edit(p, 10 + i), env)));
    expect(runs.every((r) => r.json.passed === true)).toBe(true);
    expect(dayTokens(p)).toBe(6 * 820);
    expect(readdirSync(p.root)).not.toContain('spend');
    const file = join(
      ledger(p),
      readdirSync(ledger(p)).find((n) => n.startsWith('day-'))!,
    );
    const pre = p.fixture('hook-input-PostToolUse-Write.json');
    pre.hook_event_name = 'PreToolUse';
    pre.tool_input = { file_path: file, content: '' };
    delete pre.tool_response;
    const denied = await p.hook(pre, env);
    expect(denied.json.hookSpecificOutput.permissionDecision).toBe('deny');
  });
});

describe('cheap first', () => {
  test('with judge.skipLlmWhenBlocked a blocking script validator skips the LLM validators, and says which', async () => {
    const p = await llmProject({ judge: { skipLlmWhenBlocked: true } });
    p.validator(
      'script-1',
      { match: { tools: ['Edit'] } },
      sh(`cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"r","message":"bad"}],"summary":"bad"}'`),
    );
    const env = apiEnv(server!.url);
    const run = await p.hook(edit(p, 1), env);
    expect(server!.requests).toHaveLength(0);
    expect(run.json.decision).toBe('block');
    expect(run.json.reason).toMatch(/llm-1: skipped: script-1 already blocks this change/);
    // Without the option the LLM validator is asked as before.
    p.write('avp.config.json', '{}');
    await p.accept();
    await p.hook(edit(p, 2), env);
    expect(server!.requests).toHaveLength(1);
  });
});

describe('Stop rounds', () => {
  test('a finding already shown for the same content is "still failing", briefly; a changed file is shown again', async () => {
    const p = project();
    p.validator(
      'stop-check',
      { trigger: 'Stop' },
      sh(
        `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"no-todo","file":"src/a.ts","line":1,"message":"a TODO is left in the code, with a long explanation that must not be sent twice","suggestion":"remove it"}],"summary":"todo"}'`,
      ),
    );
    const session = { session_id: 'stop-rounds', transcript_path: join(p.home, 't.jsonl') };
    const write = (content: string, id: string) => {
      p.write('src/a.ts', content);
      const w = p.fixture('hook-input-PostToolUse-Write.json');
      return p.hook({
        ...w,
        ...session,
        tool_use_id: id,
        tool_input: { file_path: join(p.root, 'src/a.ts'), content },
        tool_response: { ...w.tool_response, filePath: join(p.root, 'src/a.ts'), content },
      });
    };
    await write('// TODO\n', 't1');
    const stop = (i: number) => p.hook({ ...p.fixture('hook-input-Stop.json'), ...session, stop_hook_active: i > 0 });
    const first = (await stop(0)).json;
    expect(first.decision).toBe('block');
    expect(first.reason).toContain('with a long explanation');
    const second = (await stop(1)).json;
    expect(second.decision).toBe('block');
    expect(second.reason).not.toContain('with a long explanation');
    expect(second.reason).toContain('[stop-check] still failing: src/a.ts:1 (no-todo)');
    await write('// TODO still\n', 't2');
    const third = (await stop(2)).json;
    expect(third.reason).toContain('with a long explanation');
    writeFileSync(join(p.root, 'unused.txt'), '');
  });
});
