import { AvpError } from '../errors.ts';
import { redactUserinfo } from '../redact.ts';

/** Bytes-transferred callback for progress display (total is undefined when the server sends no length). */
export type ProgressFn = (done: number, total: number | undefined) => void;

/**
 * What avp reads from a registry, at most. Metadata answers are small (a search page of 100 summaries, a detail with
 * a 256 KiB readme); an archive is at most 10 MiB. Both the bytes on the wire and the bytes after gzip/deflate count.
 */
export const RESPONSE_LIMITS = {
  jsonBytes: 4 * 1024 * 1024,
  /** An error answer is only read for its message. */
  errorBytes: 64 * 1024,
  /** Default deadline of one request, answer included (AVP_REGISTRY_TIMEOUT, seconds, overrides it). */
  timeoutMs: 60_000,
  /**
   * How long a request without a body may wait for the registry to start answering (AVP_REGISTRY_SILENCE, seconds):
   * a registry that accepts the connection and says nothing is reported after 10 s, not after the whole deadline.
   */
  silenceMs: 10_000,
};

/** The silence limit: AVP_REGISTRY_SILENCE (seconds) when it is a positive number, else the default. */
export function silenceFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.AVP_REGISTRY_SILENCE);
  return env.AVP_REGISTRY_SILENCE && Number.isFinite(n) && n > 0 ? n * 1000 : RESPONSE_LIMITS.silenceMs;
}

/** The AvpError for a registry that accepted the request and did not start answering in time. */
export function silenceError(method: string, url: string, ms: number): AvpError {
  return new AvpError(
    'registry-timeout',
    `${method} ${redactUserinfo(url)}: the registry did not answer within ${Math.round(ms / 1000)} s`,
    { fix: 'check the registry URL and your network, or wait longer: AVP_REGISTRY_SILENCE=<seconds> (default 10)' },
  );
}

/**
 * Text from a registry (descriptions, error messages) with control characters removed: a hostile server must not
 * be able to send terminal escape sequences to the user's terminal.
 */
export function cleanText(text: string): string {
  // biome-ignore lint: control characters are exactly what this removes
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '').replace(/\s*\n\s*/g, ' ');
}

/** Replaces every occurrence of a secret in a text (error bodies sometimes echo the Authorization header). */
export function maskSecret(text: string, secret: string | undefined): string {
  const out = redactUserinfo(text);
  if (!secret || secret.length < 4) return out;
  return out.split(secret).join('***');
}

/**
 * The message of an error response: JSON `error_description`, else `message`, else `error`, else the raw body (cut
 * short: an HTML error page is not a message).
 */
export function errorBodyMessage(body: string): string {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    for (const k of ['error_description', 'message', 'error'])
      if (typeof j[k] === 'string' && j[k]) return cleanText(j[k] as string).slice(0, 1000);
  } catch {}
  const trimmed = cleanText(body).trim().replace(/\s+/g, ' ');
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
}

const FIX_BY_STATUS: Record<number, string> = {
  401: 'log in with `avp login` (or set AVP_TOKEN), then retry',
  403: 'this account may not do that: only the owners of a package may publish or yank its versions',
  404: 'check the name (`avp search <words>`) and the registry URL',
  409: 'the version already exists and versions are immutable: bump metadata.version in VALIDATOR.md',
  413: 'the package is too large: the registry accepts archives up to 10 MiB',
  429: 'the registry is rate limiting: wait a moment and retry',
};

/** The AvpError for a non-2xx answer. Codes: `registry-<status>` (e.g. `registry-404`). */
export function httpError(method: string, url: string, status: number, body: string, token?: string): AvpError {
  const message = maskSecret(errorBodyMessage(body), token);
  return new AvpError(
    `registry-${status}`,
    `${method} ${redactUserinfo(url)} failed: ${status}${message ? ` ${message}` : ''}`,
    {
      fix:
        FIX_BY_STATUS[status] ??
        (status >= 500 ? 'the registry failed; retry later or report it to its operator' : 'check the request'),
    },
  );
}

/** The AvpError for a request that never got an answer. */
export function networkError(url: string, e: unknown, token?: string): AvpError {
  const why = maskSecret(e instanceof Error ? e.message : String(e), token);
  return new AvpError('registry-unreachable', `could not reach ${redactUserinfo(url)}: ${why}`, {
    fix: 'check the URL and your network, or set AVP_REGISTRY_URL (or pass --registry) to a registry you can reach',
    cause: e,
  });
}

/** The AvpError for a request past its deadline (connecting, waiting or reading the answer). */
export function timeoutError(method: string, url: string, ms: number): AvpError {
  return new AvpError(
    'registry-timeout',
    `${method} ${redactUserinfo(url)} did not finish within ${Math.round(ms / 1000)} s`,
    { fix: 'check your network, or allow more time: AVP_REGISTRY_TIMEOUT=<seconds> (default 60)' },
  );
}

/** The deadline of one request: AVP_REGISTRY_TIMEOUT (seconds) when it is a positive number, else the default. */
export function timeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.AVP_REGISTRY_TIMEOUT;
  if (raw === undefined || raw === '') return RESPONSE_LIMITS.timeoutMs;
  const s = Number(raw);
  if (!Number.isFinite(s) || s <= 0) {
    throw new AvpError('registry-timeout-invalid', `AVP_REGISTRY_TIMEOUT=${raw} is not a number of seconds`, {
      fix: 'set it to a positive number of seconds, e.g. AVP_REGISTRY_TIMEOUT=120, or unset it (default 60)',
    });
  }
  return Math.round(s * 1000);
}

/** What a body read needs to know: who asked for what, the cap, the deadline. */
export interface BodyRead {
  method: string;
  url: string;
  maxBytes: number;
  /** `Date.now()` past which reading stops. */
  deadline: number;
  timeoutMs: number;
  progress?: ProgressFn;
  /** What the answer is, for the too-large message ("answer", "download"). */
  what: string;
}

/**
 * Reads a response body fully (fetched with `decompress: false`), stopping at `maxBytes` on the wire and
 * `maxBytes` after decompression (a gzip bomb is stopped, not inflated), and at the deadline (a server that trickles
 * bytes cannot hold avp). Progress counts bytes on the wire.
 */
export async function readBody(res: Response, r: BodyRead): Promise<Uint8Array> {
  const lengthHeader = res.headers.get('content-length');
  const total = lengthHeader ? Number(lengthHeader) : undefined;
  if (total !== undefined && total > r.maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge(r);
  }
  if (!res.body) return new Uint8Array(0);
  const encoding = (res.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  let wire = 0;
  const counted = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        wire += chunk.length;
        if (wire > r.maxBytes) throw tooLarge(r);
        r.progress?.(wire, total);
        c.enqueue(chunk);
      },
    }),
  );
  const stream = decoded(counted, encoding, r);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), Math.max(0, r.deadline - Date.now()));
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), expired]);
      if (next === 'expired') throw timeoutError(r.method, r.url, r.timeoutMs);
      if (next.done) break;
      size += next.value.length;
      if (size > r.maxBytes) throw tooLarge(r);
      chunks.push(next.value);
    }
  } catch (e) {
    reader.cancel().catch(() => {});
    if (e instanceof AvpError) throw e;
    if (e instanceof Error && e.name === 'TimeoutError') throw timeoutError(r.method, r.url, r.timeoutMs);
    throw networkError(r.url, e); // connection dropped mid-body, or a broken gzip stream
  } finally {
    clearTimeout(timer);
  }
  if (total !== undefined && wire !== total) {
    throw new AvpError('download-truncated', `${redactUserinfo(r.url)} ended after ${wire} of ${total} bytes`, {
      fix: 'retry; if it keeps happening, check your network or proxy',
    });
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The body decoded per Content-Encoding; avp only asks for gzip and deflate, and refuses anything else. */
function decoded(body: ReadableStream<Uint8Array>, encoding: string, r: BodyRead): ReadableStream<Uint8Array> {
  if (encoding === 'identity' || encoding === '') return body;
  if (encoding === 'gzip' || encoding === 'x-gzip')
    return body.pipeThrough(new DecompressionStream('gzip') as ReadableWritablePair<Uint8Array, Uint8Array>);
  if (encoding === 'deflate')
    return body.pipeThrough(new DecompressionStream('deflate') as ReadableWritablePair<Uint8Array, Uint8Array>);
  void body.cancel().catch(() => {});
  throw new AvpError(
    'registry-bad-response',
    `${r.method} ${redactUserinfo(r.url)} answered with Content-Encoding "${cleanText(encoding).slice(0, 40)}", which ` +
      'avp did not ask for (it accepts gzip and deflate)',
    { fix: 'check that the URL is an AVP registry, or report it to its operator' },
  );
}

function tooLarge(r: BodyRead): AvpError {
  const mib = r.maxBytes >= 1024 * 1024 ? `${Math.round(r.maxBytes / 1024 / 1024)} MiB` : `${r.maxBytes / 1024} KiB`;
  return new AvpError(
    r.what === 'download' ? 'download-too-large' : 'registry-answer-too-large',
    `${r.method} ${redactUserinfo(r.url)} sends more than ${mib}${r.what === 'download' ? '' : ` (${r.what})`}`,
    {
      fix:
        r.what === 'download'
          ? 'a validator package is at most 10 MiB; check the URL'
          : 'check that the URL is an AVP registry; its answers are far smaller than this',
    },
  );
}
