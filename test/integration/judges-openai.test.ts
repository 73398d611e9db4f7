import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { resetOpenAIMemory } from '../../src/judges/openai.ts';
import { judgeFor } from '../../src/judges/select.ts';
import { startOpenAIServer, type OpenAIReply, type OpenAIServer } from '../support/openai-server.ts';
import { tempDir } from '../support/run-avp.ts';
import { makeValidator, writeEvent } from '../unit/judges/helpers.ts';
import { closedPort, config, evaluate, rejection } from './judges-support.ts';

const FAILED = {
  passed: false,
  violations: [{ rule: 'no-secrets', file: 'src/new.ts', line: 2, snippet: 'token', suggestion: 'env' }],
  summary: 'token',
};
const PASSED = { passed: true, violations: [], summary: 'clean' };

let server: OpenAIServer | undefined;
beforeEach(() => resetOpenAIMemory());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const event = () => writeEvent('const a = 1;\nconst token = "ghp_123";\n', { projectRoot: tempDir('avp-proj-') });

async function judgeAgainst(
  script: (i: number, body: any) => OpenAIReply,
  env: Record<string, string> = {},
  cache = false,
) {
  server = await startOpenAIServer(({ index, body }) => script(index, body));
  return judgeFor(makeValidator(), config({ cache, model: 'llama3.2' }), {
    PATH: '/nonexistent',
    OPENAI_BASE_URL: server.url,
    ...env,
  });
}

describe('openai backend', () => {
  test('structured output verdict, request shape, usage; no key → no authorization header', async () => {
    const judge = await judgeAgainst(() => ({
      text: JSON.stringify(FAILED),
      usage: { prompt_tokens: 500, completion_tokens: 30, cached_tokens: 256 },
    }));
    const r = await evaluate(judge, makeValidator(), event());
    expect(r.verdict).toEqual(FAILED);
    expect(r).toMatchObject({
      judge: 'openai',
      model: 'llama3.2',
      usage: { inputTokens: 500, outputTokens: 30, cacheReadTokens: 256 },
    });
    const req = server!.requests[0]!;
    expect(req.body.model).toBe('llama3.2');
    expect(req.body.response_format.type).toBe('json_schema');
    expect(req.body.response_format.json_schema.schema.required).toEqual(['passed', 'violations', 'summary']);
    expect(req.body.messages[0].role).toBe('system');
    expect(req.body.messages[1].content).toContain('new file, 2 lines');
    expect(req.headers.get('authorization')).toBeNull();
  });

  test('API key sent as a bearer token', async () => {
    const judge = await judgeAgainst(() => ({ text: JSON.stringify(PASSED) }), { OPENAI_API_KEY: 'sk-test' });
    await evaluate(judge, makeValidator(), event());
    expect(server!.requests[0]!.headers.get('authorization')).toBe('Bearer sk-test');
  });

  test('a server that rejects json_schema gets plain JSON instructions, remembered for the next call', async () => {
    const judge = await judgeAgainst((_i, body) =>
      body.response_format
        ? { status: 400, errorMessage: "'response_format' of type 'json_schema' is not supported" }
        : { text: JSON.stringify(PASSED) },
    );
    expect((await evaluate(judge, makeValidator(), event())).verdict).toEqual(PASSED);
    expect(server!.requests.map((r) => !!r.body.response_format)).toEqual([true, false]);
    await evaluate(judge, makeValidator(), event());
    expect(server!.requests.map((r) => !!r.body.response_format)).toEqual([true, false, false]);
  });

  test('prose-wrapped, and ALLOW/DENY text', async () => {
    let reply = `Sure! Here you go:\n\`\`\`\n${JSON.stringify(FAILED)}\n\`\`\``;
    const judge = await judgeAgainst(() => ({ text: reply }));
    expect((await evaluate(judge, makeValidator(), event())).verdict).toEqual(FAILED);
    reply = 'DENY — a GitHub token is hardcoded on line 2';
    const r = await evaluate(judge, makeValidator(), event());
    expect(r.verdict.passed).toBe(false);
    expect(r.verdict.violations[0]!.message).toContain('GitHub token');
  });

  test('malformed then repaired; empty twice → judge-unreadable', async () => {
    const judge = await judgeAgainst((i) => ({
      text: i === 0 ? 'the verdict is {passed: false' : JSON.stringify(PASSED),
    }));
    expect((await evaluate(judge, makeValidator(), event())).verdict).toEqual(PASSED);
    const repair = server!.requests[1]!.body.messages;
    expect(repair.at(-2)).toEqual({ role: 'assistant', content: 'the verdict is {passed: false' });
    expect(repair.at(-1).content).toContain('Reply only with the JSON verdict');
    await server!.close();
    const empty = await judgeAgainst(() => ({ text: '' }));
    const e = await rejection(evaluate(empty, makeValidator(), event()));
    expect(e.code).toBe('judge-unreadable');
    expect(server!.requests).toHaveLength(2);
  });

  test('429 then success', async () => {
    const judge = await judgeAgainst((i) =>
      i === 0 ? { status: 429, headers: { 'retry-after-ms': '50' } } : { text: JSON.stringify(PASSED) },
    );
    expect((await evaluate(judge, makeValidator(), event())).verdict.passed).toBe(true);
    expect(server!.requests).toHaveLength(2);
  });

  test('slower than the timeout: aborted', async () => {
    const judge = await judgeAgainst(() => ({ text: JSON.stringify(PASSED), delayMs: 30_000 }));
    const started = performance.now();
    const e = await rejection(evaluate(judge, makeValidator(), event(), 400));
    expect(e.code).toBe('judge-timeout');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  test('connection refused', async () => {
    const port = await closedPort();
    const judge = await judgeFor(makeValidator(), config(), {
      PATH: '/x',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
    });
    const e = await rejection(evaluate(judge, makeValidator(), event(), 1500));
    expect(e.code).toBe('judge-unreachable');
    expect(e.fix).toContain('OPENAI_BASE_URL');
  });

  test('streamed answers, and a stream cut mid-way then retried', async () => {
    const judge = await judgeAgainst((i) => ({ text: JSON.stringify(FAILED), disconnectMidStream: i === 0 }), {
      AVP_JUDGE_STREAM: '1',
    });
    const r = await evaluate(judge, makeValidator(), event());
    expect(r.verdict).toEqual(FAILED);
    expect(r.usage?.inputTokens).toBeGreaterThan(0);
    expect(server!.requests).toHaveLength(2);
    expect(server!.requests[1]!.body.stream).toBe(true);
  });

  test('non-stream body cut mid-way every time: an error, never a pass', async () => {
    const judge = await judgeAgainst(() => ({ text: JSON.stringify(PASSED), disconnectMidStream: true }));
    const e = await rejection(evaluate(judge, makeValidator(), event(), 1500));
    expect(['judge-unavailable', 'judge-timeout']).toContain(e.code);
  });

  test('cache hit: no request reaches the server', async () => {
    const judge = await judgeAgainst(() => ({ text: JSON.stringify(PASSED) }), {}, true);
    const e = event();
    await evaluate(judge, makeValidator(), e);
    const again = await evaluate(judge, makeValidator(), e);
    expect(again.cached).toBe(true);
    expect(server!.requests).toHaveLength(1);
  });
});
