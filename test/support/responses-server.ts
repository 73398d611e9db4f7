/**
 * A loopback server speaking the OpenAI Responses API (`POST /v1/responses`), the only wire API the Codex CLI accepts
 * for a custom provider (`wire_api = "responses"`), scripted per test.
 *
 * - `POST /v1/responses` with `stream: true` → server-sent events: `response.created`, then per output item
 *   `response.output_item.added`, text deltas, `response.output_item.done`, and `response.completed` with usage
 *   (Codex treats a stream that ends without `response.completed` as failed and retries). Without `stream` → the
 *   Response JSON. `{error:{message,type,code}}` when `status` >= 400.
 * - `GET /v1/models` → `{models: []}`: Codex asks for its model catalogue and falls back to defaults.
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

export interface FunctionCall {
  name: string;
  /** An object is sent JSON-encoded, as the API does; a string is sent as it is. */
  arguments: unknown;
  callId?: string;
}

export interface ResponsesReply extends ScriptedReply {
  /** An assistant message with this text (after the function calls, when both are given). */
  text?: string;
  /** `function_call` output items, in order. */
  calls?: FunctionCall[];
  /** The socket is destroyed after the first output item. */
  disconnectMidStream?: boolean;
}

export interface ResponsesServer {
  /** Base URL including `/v1`, as a Codex provider's `base_url` takes it. */
  url: string;
  requests: RecordedRequest[];
  all: RecordedRequest[];
  close(): Promise<void>;
}

let counter = 0;
const newId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++counter).toString(36)}`;

function sendError(res: ServerResponse, reply: ResponsesReply): void {
  const status = reply.status ?? 500;
  res.writeHead(status, { 'content-type': 'application/json' });
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  res.end(JSON.stringify({ error: { message: reply.errorMessage ?? `scripted ${type}`, type, code: null } }));
}

/** The output items of a reply, in the Responses API's shapes. */
function outputItems(reply: ResponsesReply): any[] {
  const items: any[] = (reply.calls ?? []).map((c) => ({
    type: 'function_call',
    id: newId('fc'),
    call_id: c.callId ?? newId('call'),
    name: c.name,
    arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    status: 'completed',
  }));
  if (reply.text !== undefined || items.length === 0) {
    items.push({
      type: 'message',
      id: newId('msg'),
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text ?? '', annotations: [] }],
    });
  }
  return items;
}

function response(body: any, id: string, output: any[], status: string) {
  const input = Math.max(1, Math.ceil(JSON.stringify(body?.input ?? '').length / 4));
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: body?.model ?? 'test-model',
    status,
    output,
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + 10,
    },
  };
}

function sendJson(res: ServerResponse, reply: ResponsesReply, body: any): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(response(body, newId('resp'), outputItems(reply), 'completed')));
}

function sendStream(res: ServerResponse, reply: ResponsesReply, body: any, socket: Socket): void {
  const id = newId('resp');
  let seq = 0;
  const event = (type: string, data: object) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  event('response.created', { response: response(body, id, [], 'in_progress') });
  const items = outputItems(reply);
  items.forEach((item, index) => {
    event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress' } });
    if (item.type === 'message') {
      const text: string = item.content[0].text;
      if (text)
        event('response.output_text.delta', { item_id: item.id, output_index: index, content_index: 0, delta: text });
    }
    event('response.output_item.done', { output_index: index, item });
  });
  if (reply.disconnectMidStream) return void cut(socket);
  event('response.completed', { response: response(body, id, items, 'completed') });
  res.end();
}

/** Starts the server on 127.0.0.1 (random port). */
export async function startResponsesServer(script: ScriptFn<ResponsesReply>): Promise<ResponsesServer> {
  const server = await startScriptedServer<ResponsesReply>(
    {
      apiPath: '/v1/responses',
      fixed(method, pathname, _body, res) {
        if (method !== 'GET' || pathname !== '/v1/models') return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ models: [] }));
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
