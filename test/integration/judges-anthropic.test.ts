import { afterEach, describe, expect, test } from 'bun:test';
import { judgeFor } from '../../src/judges/select.ts';
import { startAnthropicServer, type AnthropicServer, type Reply } from '../support/anthropic-server.ts';
import { tempDir } from '../support/run-avp.ts';
import { editEvent, makeValidator } from '../unit/judges/helpers.ts';
import { closedPort, config, evaluate, rejection } from './judges-support.ts';

const FAILED = {
  passed: false,
  violations: [{ rule: 'no-secrets', file: 'src/config.ts', line: 1, snippet: 'KEY = "sk"', suggestion: 'use env' }],
  summary: 'hardcoded key',
};
const PASSED = { passed: true, violations: [], summary: 'no secrets' };

let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const event = () =>
  editEvent({
    before: 'const KEY = process.env.KEY;\n',
    after: 'const KEY = "sk-live-1";\n',
    projectRoot: tempDir('avp-proj-'),
  });

async function judgeAgainst(
  script: (i: number) => Reply | Promise<Reply>,
  env: Record<string, string> = {},
  cache = false,
) {
  server = await startAnthropicServer(({ index }) => script(index));
  const e = { PATH: '/nonexistent', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url, ...env };
  return judgeFor(makeValidator(), config({ cache }), e);
}

for (const stream of [false, true]) {
  const mode = stream ? 'SSE' : 'JSON';
  const env: Record<string, string> = stream ? { AVP_JUDGE_STREAM: '1' } : {};
  describe(`anthropic backend (${mode})`, () => {
    test('forced tool use verdict, request shape, token usage', async () => {
      const judge = await judgeAgainst(
        () => ({
          toolUse: { name: 'report_verdict', input: FAILED },
          usage: { input_tokens: 900, output_tokens: 40, cache_read_input_tokens: 700, cache_creation_input_tokens: 5 },
        }),
        env,
      );
      const r = await evaluate(judge, makeValidator(), event());
      expect(r.verdict).toEqual(FAILED);
      expect(r.judge).toBe('anthropic');
      expect(r.model).toBe('claude-haiku-4-5');
      expect(r.usage).toEqual({ inputTokens: 900, outputTokens: 40, cacheReadTokens: 700, cacheWriteTokens: 5 });
      const req = server!.requests[0]!;
      expect(req.headers.get('x-api-key')).toBe('test-key');
      expect(req.headers.get('anthropic-version')).toBe('2023-06-01');
      expect(req.body.tool_choice).toEqual({ type: 'tool', name: 'report_verdict' });
      expect(req.body.tools[0].input_schema.required).toEqual(['passed', 'violations', 'summary']);
      expect(req.body.system[0].cache_control).toEqual({ type: 'ephemeral' });
      expect(req.body.messages[0].content[0].cache_control).toEqual({ type: 'ephemeral' });
      expect(req.body.messages[0].content[0].text).toContain('Fail when the change adds a hardcoded API key');
      expect(req.body.messages[0].content[1].text).toContain('+const KEY = "sk-live-1";');
      expect(req.body.stream === true).toBe(stream);
    });

    test('prose-wrapped text verdict', async () => {
      const judge = await judgeAgainst(
        () => ({ text: `Reviewing.\n\`\`\`json\n${JSON.stringify(PASSED)}\n\`\`\`\nDone.` }),
        env,
      );
      expect((await evaluate(judge, makeValidator(), event())).verdict).toEqual(PASSED);
    });

    test('malformed, then repaired on the one repair request', async () => {
      const judge = await judgeAgainst(
        (i) =>
          i === 0
            ? { text: 'I looked at it {"passed": maybe' }
            : { toolUse: { name: 'report_verdict', input: PASSED } },
        env,
      );
      const r = await evaluate(judge, makeValidator(), event());
      expect(r.verdict).toEqual(PASSED);
      expect(server!.requests).toHaveLength(2);
      const msgs = server!.requests[1]!.body.messages;
      expect(msgs[1]).toEqual({
        role: 'assistant',
        content: [{ type: 'text', text: 'I looked at it {"passed": maybe' }],
      });
      expect(msgs[2].content[0].text).toContain('report_verdict');
      expect(r.usage!.inputTokens).toBeGreaterThan(0);
    });

    test('empty twice: judge-unreadable after exactly one repair', async () => {
      const judge = await judgeAgainst(() => ({ text: '' }), env);
      const e = await rejection(evaluate(judge, makeValidator(), event()));
      expect(e.code).toBe('judge-unreadable');
      expect(e.message).toContain('even when asked again');
      expect(server!.requests).toHaveLength(2);
    });

    test('429 and 529 then success, honouring retry-after', async () => {
      const judge = await judgeAgainst(
        (i) =>
          i === 0
            ? { status: 429, headers: { 'retry-after': '0' } }
            : i === 1
              ? { status: 529 }
              : { toolUse: { name: 'report_verdict', input: PASSED } },
        env,
      );
      const r = await evaluate(judge, makeValidator(), event());
      expect(r.verdict.passed).toBe(true);
      expect(server!.requests).toHaveLength(3);
    });

    test('mid-stream disconnect, then success', async () => {
      const judge = await judgeAgainst(
        (i) =>
          i === 0
            ? { toolUse: { name: 'report_verdict', input: FAILED }, disconnectMidStream: true }
            : { toolUse: { name: 'report_verdict', input: FAILED } },
        env,
      );
      expect((await evaluate(judge, makeValidator(), event())).verdict).toEqual(FAILED);
      expect(server!.requests).toHaveLength(2);
    });

    test('disconnect every time: an error once the time is up, never a pass', async () => {
      const judge = await judgeAgainst(() => ({ text: JSON.stringify(PASSED), disconnectMidStream: true }), env);
      const started = performance.now();
      const e = await rejection(evaluate(judge, makeValidator(), event(), 2000));
      expect(['judge-unavailable', 'judge-timeout']).toContain(e.code);
      expect(performance.now() - started).toBeLessThan(15_000);
      expect(server!.requests.length).toBeGreaterThanOrEqual(2);
    });
  });
}

describe('anthropic backend failures', () => {
  test('slower than the timeout: aborted, judge-timeout', async () => {
    const judge = await judgeAgainst(() => ({ toolUse: { name: 'report_verdict', input: PASSED }, delayMs: 30_000 }));
    const started = performance.now();
    const e = await rejection(evaluate(judge, makeValidator(), event(), 400));
    expect(e.code).toBe('judge-timeout');
    expect(e.message).toContain('timed out after 0.4 s');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  test('connection refused: judge-unreachable naming the URL', async () => {
    const port = await closedPort();
    const judge = await judgeFor(makeValidator(), config(), {
      PATH: '/x',
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    });
    const e = await rejection(evaluate(judge, makeValidator(), event(), 1500));
    // retried with backoff while the time lasts, then reported before the timeout fires
    expect(e.code).toBe('judge-unreachable');
    expect(e.message).toContain(`127.0.0.1:${port}`);
    expect(e.fix).toContain('ANTHROPIC_BASE_URL');
  });

  test('401: judge-auth at once, no retry', async () => {
    const judge = await judgeAgainst(() => ({ status: 401, errorMessage: 'invalid x-api-key' }));
    const e = await rejection(evaluate(judge, makeValidator(), event()));
    expect(e.code).toBe('judge-auth');
    expect(e.message).toContain('invalid x-api-key');
    expect(server!.requests).toHaveLength(1);
  });

  test('500 until the deadline: judge-unavailable, not a pass', async () => {
    const judge = await judgeAgainst(() => ({ status: 500 }));
    const e = await rejection(evaluate(judge, makeValidator(), event(), 1500));
    expect(['judge-unavailable', 'judge-timeout']).toContain(e.code);
  });

  test('verdict cache: the second identical review sends no request', async () => {
    const judge = await judgeAgainst(() => ({ toolUse: { name: 'report_verdict', input: FAILED } }), {}, true);
    const e = event();
    const first = await evaluate(judge, makeValidator(), e);
    const second = await evaluate(judge, makeValidator(), e);
    expect(server!.requests).toHaveLength(1);
    expect(first.cached).toBeUndefined();
    expect(second.cached).toBe(true);
    expect(second.verdict).toEqual(FAILED);
  });
});
