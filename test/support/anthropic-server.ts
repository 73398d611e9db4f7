/**
 * A loopback server speaking Anthropic's Messages API wire protocol (the real shapes, not a simplification), scripted
 * per test. The real Claude Code CLI runs headless sessions against it (`ANTHROPIC_BASE_URL=<url>`), and avp's
 * `anthropic` judge backend is tested with it.
 *
 * - `HEAD /` (the CLI's connectivity probe) → 200.
 * - `POST /v1/messages` (also `?beta=true`) → the script's Reply: server-sent events when the body has `stream: true`
 *   (message_start, content_block_start, ping, content_block_delta with text_delta / input_json_delta,
 * content_block_stop,
 *   message_delta, message_stop), a Message JSON otherwise; an Anthropic error JSON when `status` >= 400.
 * - `POST /v1/messages/count_tokens` → `{input_tokens}` (not passed to the script; recorded with its path).
 * Every request is recorded (body, headers, path) before the script runs.
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

export interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export interface Reply extends ScriptedReply {
  /** A text content block (first, when both text and toolUse are given). */
  text?: string;
  /** A tool_use content block; the stop reason becomes `tool_use`. */
  toolUse?: { name: string; input: unknown; id?: string };
  /** The error's `type` (default by status: 429 rate_limit_error, 529 overloaded_error, 400 invalid_request_error…). */
  errorType?: string;
  /** Extra response headers (e.g. `retry-after`). */
  headers?: Record<string, string>;
  /** Stream (or body) is cut off half-way: the socket is destroyed after the first part of the content. */
  disconnectMidStream?: boolean;
  usage?: AnthropicUsage;
  /** Overrides the stop reason (`end_turn` / `tool_use` by default). */
  stopReason?: string;
}

export interface AnthropicServer {
  url: string;
  /** `/v1/messages` requests, in arrival order (the ones the script answered). */
  requests: RecordedRequest[];
  /** Every request, including probes and count_tokens. */
  all: RecordedRequest[];
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

let counter = 0;
/** Ids shaped like Anthropic's (`msg_01…`, `toolu_01…`). */
function newId(prefix: string): string {
  counter += 1;
  const rand = Math.random().toString(36).slice(2, 12).padEnd(10, '0');
  return `${prefix}_01${rand}${counter.toString(36).padStart(12, '0')}`;
}

/** A rough token estimate so usage numbers move with the prompt size, as real ones do. */
function estimateTokens(body: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(body ?? '').length / 4));
}

function fullUsage(reply: Reply, body: any, outputText: string): Required<AnthropicUsage> {
  return {
    input_tokens: reply.usage?.input_tokens ?? estimateTokens(body?.messages),
    output_tokens: reply.usage?.output_tokens ?? Math.max(1, Math.ceil(outputText.length / 4)),
    cache_read_input_tokens: reply.usage?.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: reply.usage?.cache_creation_input_tokens ?? 0,
  };
}

function contentOf(reply: Reply): any[] {
  const content: any[] = [];
  if (reply.text !== undefined || !reply.toolUse) content.push({ type: 'text', text: reply.text ?? '' });
  if (reply.toolUse) {
    content.push({
      type: 'tool_use',
      id: reply.toolUse.id ?? newId('toolu'),
      name: reply.toolUse.name,
      input: reply.toolUse.input,
    });
  }
  return content;
}

/** Splits a string into chunks the way the API streams deltas (several small pieces). */
function pieces(s: string, n = 3): string[] {
  if (s.length === 0) return [];
  const size = Math.max(1, Math.ceil(s.length / n));
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

function sse(res: ServerResponse, event: string, data: unknown): boolean {
  return res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function sendError(res: ServerResponse, reply: Reply): void {
  const status = reply.status ?? 500;
  const type = reply.errorType ?? ERROR_TYPES[status] ?? 'api_error';
  const body = JSON.stringify({ type: 'error', error: { type, message: reply.errorMessage ?? `scripted ${type}` } });
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), ...reply.headers });
  res.end(body);
}

function sendJson(res: ServerResponse, reply: Reply, body: any, socket: Socket): void {
  const content = contentOf(reply);
  const outText = JSON.stringify(content);
  const message = {
    id: newId('msg'),
    type: 'message',
    role: 'assistant',
    model: body?.model ?? 'claude-test',
    content,
    stop_reason: reply.stopReason ?? (reply.toolUse ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: fullUsage(reply, body, outText),
  };
  const text = JSON.stringify(message);
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': newId('req'), ...reply.headers });
  if (reply.disconnectMidStream) {
    res.write(text.slice(0, Math.floor(text.length / 2)));
    void cut(socket);
    return;
  }
  res.end(text);
}

async function sendStream(res: ServerResponse, reply: Reply, body: any, socket: Socket): Promise<void> {
  const content = contentOf(reply);
  const usage = fullUsage(reply, body, JSON.stringify(content));
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': newId('req'),
    ...reply.headers,
  });
  sse(res, 'message_start', {
    type: 'message_start',
    message: {
      id: newId('msg'),
      type: 'message',
      role: 'assistant',
      model: body?.model ?? 'claude-test',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  sse(res, 'ping', { type: 'ping' });
  for (const [index, block] of content.entries()) {
    if (block.type === 'text') {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      const parts = pieces(block.text);
      for (const [i, part] of parts.entries()) {
        sse(res, 'content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: part },
        });
        if (reply.disconnectMidStream && i === 0) return cut(socket);
      }
    } else {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      const parts = pieces(JSON.stringify(block.input ?? {}));
      for (const [i, part] of parts.entries()) {
        sse(res, 'content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: part },
        });
        if (reply.disconnectMidStream && i === 0) return cut(socket);
      }
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  }
  if (reply.disconnectMidStream) return cut(socket);
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: reply.stopReason ?? (reply.toolUse ? 'tool_use' : 'end_turn'), stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

/** Starts the server on 127.0.0.1 (random port). Close it in `afterAll`/`finally`. */
export async function startAnthropicServer(script: ScriptFn<Reply>): Promise<AnthropicServer> {
  const server = await startScriptedServer<Reply>(
    {
      apiPath: '/v1/messages',
      fixed(method, pathname, body, res) {
        if (method === 'HEAD' || (method === 'GET' && pathname === '/')) {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end();
          return true;
        }
        if (method === 'POST' && pathname === '/v1/messages/count_tokens') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ input_tokens: estimateTokens(body?.messages) }));
          return true;
        }
        return false;
      },
      sendError,
      sendJson,
      sendStream,
    },
    script,
  );
  return { url: server.origin, requests: server.requests, all: server.all, close: server.close };
}
