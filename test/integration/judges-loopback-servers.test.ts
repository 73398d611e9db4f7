/**
 * The loopback servers themselves (test/support): the real Claude CLI runs a headless session against the Anthropic
 * one (a text turn; a Write tool_use turn that really writes a file), and both servers answer with the documented
 * shapes, errors and probes.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-server.ts';
import { AGENT_CLI_BIN } from '../support/agent-clis.ts';
import { startOpenAIServer, type OpenAIServer } from '../support/openai-server.ts';
import { tempDir } from '../support/run-avp.ts';

const CLAUDE = join(AGENT_CLI_BIN, 'claude');
let a: AnthropicServer | undefined;
let o: OpenAIServer | undefined;
afterEach(async () => {
  await a?.close();
  await o?.close();
  a = o = undefined;
});

async function claude(cwd: string, url: string, args: string[]) {
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: tempDir('avp-cli-home-'),
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'x',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
  const p = Bun.spawn([CLAUDE, '-p', ...args, '--output-format', 'json'], { cwd, env, stdout: 'pipe', stderr: 'pipe' });
  const timer = setTimeout(() => p.kill('SIGKILL'), 60_000);
  const out = await new Response(p.stdout).text();
  await p.exited;
  clearTimeout(timer);
  return JSON.parse(out);
}

describe('anthropic loopback server with the real Claude CLI', () => {
  test('a text turn', async () => {
    a = await startAnthropicServer(() => ({ text: 'Hello from the loopback server.' }));
    const r = await claude(tempDir('avp-cli-'), a.url, ['say hello']);
    expect(r.is_error).toBe(false);
    expect(r.result).toBe('Hello from the loopback server.');
    expect(a.requests[0]!.body.stream).toBe(true);
    expect(a.requests[0]!.path).toBe('/v1/messages?beta=true');
  }, 60_000);

  test('a Write tool_use turn writes the file, then the final text', async () => {
    const dir = tempDir('avp-cli-');
    a = await startAnthropicServer(({ body }) => {
      const turns = body.messages.filter((m: any) => m.role === 'assistant').length;
      if (!body.tools) return { text: 'side' };
      return turns === 0
        ? {
            text: 'Writing it.',
            toolUse: { name: 'Write', input: { file_path: join(dir, 'hello.txt'), content: 'hi\n' } },
          }
        : { text: 'Done.' };
    });
    const r = await claude(dir, a.url, ['write hello.txt', '--permission-mode', 'acceptEdits']);
    expect(r.result).toBe('Done.');
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hi\n');
    const last = a.requests.at(-1)!.body.messages.at(-1);
    expect(JSON.stringify(last)).toContain('tool_result');
  }, 60_000);
});

describe('server shapes', () => {
  test('anthropic: HEAD probe, JSON message, error JSON with status, count_tokens', async () => {
    a = await startAnthropicServer(({ index }) =>
      index === 0 ? { toolUse: { name: 't', input: { x: 1 } }, usage: { input_tokens: 3 } } : { status: 529 },
    );
    expect((await fetch(a.url, { method: 'HEAD' })).status).toBe(200);
    const msg: any = (await (
      await fetch(`${a.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) })
    ).json()) as any;
    expect(msg).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'm',
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', name: 't', input: { x: 1 } }],
      usage: { input_tokens: 3 },
    });
    expect(msg.id).toMatch(/^msg_01/);
    const err = await fetch(`${a.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    expect(err.status).toBe(529);
    expect(await err.json()).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'scripted overloaded_error' },
    });
    const ct: any = (await (
      await fetch(`${a.url}/v1/messages/count_tokens`, { method: 'POST', body: '{"messages":[]}' })
    ).json()) as any;
    expect(ct.input_tokens).toBeGreaterThan(0);
    expect(a.requests).toHaveLength(2);
    expect(a.all).toHaveLength(4);
  });

  test('openai: models list, completion, error JSON', async () => {
    o = await startOpenAIServer(({ index }) =>
      index === 0 ? { text: 'hi' } : { status: 429, errorMessage: 'slow down' },
    );
    expect(((await (await fetch(`${o.url}/models`)).json()) as any).data[0].id).toBe('test-model');
    const c = (await (
      await fetch(`${o.url}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [], response_format: { type: 'json_object' } }),
      })
    ).json()) as any;
    expect(c).toMatchObject({
      object: 'chat.completion',
      model: 'm',
      choices: [{ message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
    });
    expect(o.requests[0]!.body.response_format).toEqual({ type: 'json_object' });
    const e = await fetch(`${o.url}/chat/completions`, { method: 'POST', body: '{"messages":[]}' });
    expect(e.status).toBe(429);
    expect(((await e.json()) as any).error).toMatchObject({ message: 'slow down', type: 'rate_limit_exceeded' });
  });
});
