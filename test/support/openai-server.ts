/**
 * A loopback server speaking the OpenAI chat completions wire protocol (what OpenAI, Ollama, vLLM, LM Studio and
 * OpenRouter serve), scripted per test. Used by avp's `openai` judge backend tests.
 *
 * - `GET /v1/models` → a model list (cheap health check).
 * - `POST /v1/chat/completions` → the script's Reply: a `chat.completion` JSON, or `chat.completion.chunk` server-sent
 *   events ending in `data: [DONE]` when the body has `stream: true`; `{error:{message,type,param,code}}` when
 *   `status` >= 400. `response_format` and the whole body are recorded for assertions.
 * - Tool calls (`toolCalls`) as agents expect them: in the message, or streamed as one `tool_calls` delta each (id,
 *   name and arguments), with finish reason `tool_calls`. Qwen Code and Factory Droid run against it.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  cut,
  type RecordedRequest,
  type ScriptedReply,
  type ScriptFn,
  startScriptedServer,
} from './scripted-server.ts';

export interface OpenAIReply extends ScriptedReply {
  /** `choices[0].message.content`. */
  text?: string;
  /** `choices[0].message.tool_calls` (finish reason `tool_calls`); an object `arguments` is sent JSON-encoded. */
  toolCalls?: Array<{ name: string; arguments: unknown; id?: string }>;
  errorType?: string;
  headers?: Record<string, string>;
  /** The socket is destroyed half-way through the body / stream. */
  disconnectMidStream?: boolean;
  usage?: { prompt_tokens?: number; completion_tokens?: number; cached_tokens?: number };
  finishReason?: string;
}

export interface OpenAIServer {
  /** Base URL including `/v1`, as `OPENAI_BASE_URL` takes it. */
  url: string;
  requests: RecordedRequest[];
  all: RecordedRequest[];
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  429: 'rate_limit_exceeded',
  500: 'server_error',
  503: 'server_error',
};

let counter = 0;
const newId = () => `chatcmpl-${Date.now().toString(36)}${(++counter).toString(36)}`;

function toolCallsOf(reply: OpenAIReply) {
  return (reply.toolCalls ?? []).map((c, index) => ({
    index,
    id: c.id ?? `call_${Date.now().toString(36)}${(++counter).toString(36)}`,
    type: 'function',
    function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
  }));
}

const finishOf = (reply: OpenAIReply) => reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');

function sendError(res: ServerResponse, reply: OpenAIReply): void {
  const status = reply.status ?? 500;
  const type = reply.errorType ?? ERROR_TYPES[status] ?? 'server_error';
  res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
  res.end(
    JSON.stringify({ error: { message: reply.errorMessage ?? `scripted ${type}`, type, param: null, code: null } }),
  );
}

function usageOf(reply: OpenAIReply, body: any, text: string) {
  const prompt = reply.usage?.prompt_tokens ?? Math.max(1, Math.ceil(JSON.stringify(body?.messages ?? '').length / 4));
  const completion = reply.usage?.completion_tokens ?? Math.max(1, Math.ceil(text.length / 4));
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: reply.usage?.cached_tokens ?? 0 },
  };
}

function sendJson(res: ServerResponse, reply: OpenAIReply, body: any, socket: Socket): void {
  const text = reply.text ?? '';
  const json = JSON.stringify({
    id: newId(),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body?.model ?? 'test-model',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text,
          ...(reply.toolCalls?.length ? { tool_calls: toolCallsOf(reply).map(({ index: _i, ...c }) => c) } : {}),
        },
        finish_reason: finishOf(reply),
      },
    ],
    usage: usageOf(reply, body, text),
  });
  res.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
  if (reply.disconnectMidStream) {
    res.write(json.slice(0, Math.floor(json.length / 2)));
    void cut(socket);
    return;
  }
  res.end(json);
}

function sendStream(res: ServerResponse, reply: OpenAIReply, body: any, socket: Socket): void {
  const text = reply.text ?? '';
  const id = newId();
  const created = Math.floor(Date.now() / 1000);
  const model = body?.model ?? 'test-model';
  const chunk = (delta: unknown, finish: string | null, extra: object = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
    );
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  chunk({ role: 'assistant', content: '' }, null);
  const size = Math.max(1, Math.ceil(text.length / 3));
  for (let i = 0; i < text.length; i += size) {
    chunk({ content: text.slice(i, i + size) }, null);
    if (reply.disconnectMidStream) return void cut(socket);
  }
  for (const call of toolCallsOf(reply)) chunk({ tool_calls: [call] }, null);
  chunk({}, finishOf(reply));
  if (body?.stream_options?.include_usage) {
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: usageOf(reply, body, text) })}\n\n`,
    );
  }
  res.end('data: [DONE]\n\n');
}

/** Starts the server on 127.0.0.1 (random port). */
export async function startOpenAIServer(script: ScriptFn<OpenAIReply>): Promise<OpenAIServer> {
  const server = await startScriptedServer<OpenAIReply>(
    {
      apiPath: '/v1/chat/completions',
      fixed(method, pathname, _body, res) {
        if (method !== 'GET' || pathname !== '/v1/models') return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'test-model', object: 'model', owned_by: 'test' }] }));
        return true;
      },
      sendError,
      sendJson,
      sendStream,
    },
    script,
  );
  return { url: `${server.origin}/v1`, requests: server.requests, all: server.all, close: server.close };
}
