/**
 * The serve loop the scripted LLM API servers share (anthropic-server.ts, openai-server.ts, responses-server.ts,
 * gemini-server.ts): a node:http server on
 * 127.0.0.1 (random port) that records every request, answers a protocol's fixed routes (probes, model lists), hands
 * each JSON POST of the API path to the test's script, and renders the script's reply in the protocol's wire format.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  body: any;
  headers: Headers;
  path: string;
  method: string;
}

/** What every scripted reply may carry; each protocol adds its content fields. */
export interface ScriptedReply {
  /** >= 400 → the protocol's error JSON with this status. */
  status?: number;
  errorMessage?: string;
  /** Wait before answering (the client may abort meanwhile). */
  delayMs?: number;
}

export type ScriptFn<R> = (req: { body: any; headers: Headers; index: number; path: string }) => R | Promise<R>;

/** How one API speaks: its scripted path, fixed routes and the three kinds of answer. */
export interface Protocol<R extends ScriptedReply> {
  /** The path (without query) whose POSTs the script answers; a RegExp where the model is part of the path (Gemini). */
  apiPath: string | RegExp;
  /** Whether to answer as a stream; default: the body's `stream: true` (Gemini says it in the path instead). */
  streams?(path: string, body: any): boolean;
  /** Answers a request that is not for the script; true when it did. */
  fixed?(method: string, pathname: string, body: any, res: ServerResponse): boolean;
  sendError(res: ServerResponse, reply: { status: number; errorMessage: string } | R): void;
  /** `path` is the request's path with its query. */
  sendJson(res: ServerResponse, reply: R, body: any, socket: Socket, path: string): void;
  sendStream(res: ServerResponse, reply: R, body: any, socket: Socket, path: string): void | Promise<void>;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** API-path requests, in arrival order (the ones the script answered). */
  requests: RecordedRequest[];
  /** Every request, probes included. */
  all: RecordedRequest[];
  close(): Promise<void>;
}

function toHeaders(req: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) for (const x of v) h.append(k, x);
    else if (v !== undefined) h.set(k, v);
  }
  return h;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  try {
    return raw ? JSON.parse(raw) : undefined;
  } catch {
    return raw;
  }
}

/** Lets the written part reach the client, then drops the connection without ending the body. */
export async function cut(socket: Socket): Promise<void> {
  await new Promise((r) => setTimeout(r, 20));
  socket.destroy();
}

/** Starts a server speaking `protocol`, answered by `script`. Close it in `afterAll`/`finally`. */
export async function startScriptedServer<R extends ScriptedReply>(
  protocol: Protocol<R>,
  script: ScriptFn<R>,
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const all: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const socket = req.socket;
    const method = req.method ?? 'GET';
    try {
      const path = req.url ?? '/';
      const body: any = await readJson(req);
      const record: RecordedRequest = { body, headers: toHeaders(req), path, method };
      all.push(record);
      const pathname = path.split('?')[0]!;
      if (protocol.fixed?.(method, pathname, body, res)) return;
      const ours =
        typeof protocol.apiPath === 'string' ? pathname === protocol.apiPath : protocol.apiPath.test(pathname);
      if (method !== 'POST' || !ours) {
        protocol.sendError(res, {
          status: 404,
          errorMessage: `${method} ${pathname} is not served by this test server`,
        });
        return;
      }
      if (typeof body !== 'object' || body === null) {
        protocol.sendError(res, { status: 400, errorMessage: 'request body is not JSON' });
        return;
      }
      const index = requests.length;
      requests.push(record);
      const reply = await script({ body, headers: record.headers, index, path });
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (socket.destroyed) return; // the client gave up (abort/timeout)
      if (reply.status && reply.status >= 400) protocol.sendError(res, reply);
      else if (protocol.streams ? protocol.streams(path, body) : body.stream === true)
        await protocol.sendStream(res, reply, body, socket, path);
      else protocol.sendJson(res, reply, body, socket, path);
    } catch (e) {
      if (!res.headersSent && !socket.destroyed) {
        protocol.sendError(res, { status: 500, errorMessage: `test server script failed: ${(e as Error).message}` });
      } else socket.destroy();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    all,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
