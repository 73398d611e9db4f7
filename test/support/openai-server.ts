/**
 * A loopback server speaking the OpenAI chat completions wire protocol (what OpenAI, Ollama, vLLM, LM Studio and
 * OpenRouter serve), scripted per test. Used by avp's `openai` judge backend tests.
 *
 * - `GET /v1/models` → a model list (cheap health check).
 * - `POST /v1/chat/completions` → the script's Reply: a `chat.completion` JSON, or `chat.completion.chunk` server-sent
 *   events ending in `data: [DONE]` when the body has `stream: true`; `{error:{message,type,param,code}}` when
 *   `status` >= 400. `response_format` and the whole body are recorded for assertions.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface OpenAIReply {
  /** `choices[0].message.content`. */
  text?: string;
  /** >= 400 → an OpenAI error JSON. */
  status?: number;
  errorType?: string;
  errorMessage?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** The socket is destroyed half-way through the body / stream. */
  disconnectMidStream?: boolean;
  usage?: { prompt_tokens?: number; completion_tokens?: number; cached_tokens?: number };
  finishReason?: string;
}

export interface OpenAIRequest {
  body: any;
  headers: Headers;
  path: string;
  method: string;
}

export type OpenAIScript = (req: { body: any; headers: Headers; index: number }) => OpenAIReply | Promise<OpenAIReply>;

export interface OpenAIServer {
  /** Base URL including `/v1`, as `OPENAI_BASE_URL` takes it. */
  url: string;
  requests: OpenAIRequest[];
  all: OpenAIRequest[];
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

function toHeaders(req: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) for (const x of v) h.append(k, x);
    else if (v !== undefined) h.set(k, v);
  }
  return h;
}

function sendError(res: ServerResponse, reply: OpenAIReply): void {
  const status = reply.status ?? 500;
  const type = reply.errorType ?? ERROR_TYPES[status] ?? 'server_error';
  res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
  res.end(JSON.stringify({ error: { message: reply.errorMessage ?? `scripted ${type}`, type, param: null, code: null } }));
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

async function cut(socket: Socket): Promise<void> {
  await new Promise((r) => setTimeout(r, 20));
  socket.destroy();
}

function sendJson(res: ServerResponse, reply: OpenAIReply, body: any, socket: Socket): void {
  const text = reply.text ?? '';
  const json = JSON.stringify({
    id: newId(),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body?.model ?? 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: reply.finishReason ?? 'stop' }],
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
  chunk({}, reply.finishReason ?? 'stop');
  if (body?.stream_options?.include_usage) {
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: usageOf(reply, body, text) })}\n\n`,
    );
  }
  res.end('data: [DONE]\n\n');
}

/** Starts the server on 127.0.0.1 (random port). */
export async function startOpenAIServer(script: OpenAIScript): Promise<OpenAIServer> {
  const requests: OpenAIRequest[] = [];
  const all: OpenAIRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const socket = req.socket;
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const path = req.url ?? '/';
      const record: OpenAIRequest = { body, headers: toHeaders(req), path, method: req.method ?? 'GET' };
      all.push(record);
      const pathname = path.split('?')[0];
      if (req.method === 'GET' && pathname === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'test-model', object: 'model', owned_by: 'test' }] }));
        return;
      }
      if (req.method !== 'POST' || pathname !== '/v1/chat/completions') {
        sendError(res, { status: 404, errorMessage: `${req.method} ${pathname} is not served by this test server` });
        return;
      }
      if (typeof body !== 'object' || body === null) {
        sendError(res, { status: 400, errorMessage: 'request body is not JSON' });
        return;
      }
      const index = requests.length;
      requests.push(record);
      const reply = await script({ body, headers: record.headers, index });
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (socket.destroyed) return;
      if (reply.status && reply.status >= 400) sendError(res, reply);
      else if (body.stream === true) sendStream(res, reply, body, socket);
      else sendJson(res, reply, body, socket);
    } catch (e) {
      if (!res.headersSent && !socket.destroyed) sendError(res, { status: 500, errorMessage: (e as Error).message });
      else socket.destroy();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    all,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
