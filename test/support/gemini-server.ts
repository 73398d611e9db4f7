/**
 * A loopback server speaking the Gemini API (what `GOOGLE_GEMINI_BASE_URL` points the Gemini CLI at), scripted per
 * test.
 *
 * - `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` → server-sent events, one GenerateContentResponse per
 *   `data:` line (text in pieces, then function calls, the last chunk with `finishReason` and `usageMetadata`).
 * - `POST /v1beta/models/{model}:generateContent` → one GenerateContentResponse JSON (the CLI's utility calls: its
 *   model router and next-speaker checks ask for JSON text here).
 * - `POST …:countTokens` → `{totalTokens}`; `{error:{code,message,status}}` when `status` >= 400.
 * The script sees `path` to tell the two kinds apart.
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

export interface GeminiReply extends ScriptedReply {
  text?: string;
  /** `functionCall` parts, after the text. */
  calls?: Array<{ name: string; args: Record<string, unknown> }>;
  /** The socket is destroyed after the first chunk. */
  disconnectMidStream?: boolean;
}

export interface GeminiServer {
  /** The origin, as `GOOGLE_GEMINI_BASE_URL` takes it. */
  url: string;
  requests: RecordedRequest[];
  all: RecordedRequest[];
  close(): Promise<void>;
}

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

function sendError(res: ServerResponse, reply: GeminiReply): void {
  const code = reply.status ?? 500;
  res.writeHead(code, { 'content-type': 'application/json' });
  const status = STATUS[code] ?? 'INTERNAL';
  res.end(JSON.stringify({ error: { code, message: reply.errorMessage ?? `scripted ${status}`, status } }));
}

const modelOf = (path: string) => /models\/([^/:]+):/.exec(path)?.[1] ?? 'gemini-test';

function usage(body: any) {
  const prompt = Math.max(1, Math.ceil(JSON.stringify(body?.contents ?? '').length / 4));
  return { promptTokenCount: prompt, candidatesTokenCount: 10, totalTokenCount: prompt + 10 };
}

function chunk(parts: object[], finish: boolean, body: any, model: string) {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: 'STOP' } : {}) }],
    ...(finish ? { usageMetadata: usage(body) } : {}),
    modelVersion: model,
    responseId: `resp-${Date.now().toString(36)}`,
  };
}

function partsOf(reply: GeminiReply): object[] {
  const parts: object[] = [];
  if (reply.text) parts.push({ text: reply.text });
  for (const c of reply.calls ?? []) parts.push({ functionCall: { name: c.name, args: c.args } });
  if (!parts.length) parts.push({ text: '' });
  return parts;
}

/** Starts the server on 127.0.0.1 (random port). */
export async function startGeminiServer(script: ScriptFn<GeminiReply>): Promise<GeminiServer> {
  const server = await startScriptedServer<GeminiReply>(
    {
      apiPath: /^\/v1(beta)?\/models\/[^/]+:(streamGenerateContent|generateContent)$/,
      streams: (path) => path.includes(':streamGenerateContent'),
      fixed(method, pathname, _body, res) {
        if (method !== 'POST' || !pathname.endsWith(':countTokens')) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ totalTokens: 100 }));
        return true;
      },
      sendError,
      sendJson(res, reply, body, _socket, path) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(chunk(partsOf(reply), true, body, modelOf(path))));
      },
      sendStream(res, reply, body, socket: Socket, path) {
        const model = modelOf(path);
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const parts = partsOf(reply);
        // Text first in its own chunk (as the API streams it), the calls and the finish reason last.
        const [first, ...rest] = parts;
        if (rest.length) {
          res.write(`data: ${JSON.stringify(chunk([first!], false, body, model))}\n\n`);
          if (reply.disconnectMidStream) return void cut(socket);
        }
        res.write(`data: ${JSON.stringify(chunk(rest.length ? rest : parts, true, body, model))}\n\n`);
        res.end();
      },
    },
    script,
  );
  return { url: server.origin, requests: server.requests, all: server.all, close: server.close };
}
