/**
 * HTTP for the API judges: one POST through ofetch (loaded lazily — never on the hook fast path), retried by ofetch
 * with exponential backoff on 429 / 5xx / 529 / dropped connections / streams cut half-way while the validator's time
 * lasts, honouring `retry-after`. Every failure becomes an AvpError with a `judge-*` code that says what to do.
 */
import { AvpError } from '../errors.ts';

export interface HttpReply {
  status: number;
  headers: Headers;
  /** The whole body as text (JSON or server-sent events). */
  text: string;
}

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  /** Epoch ms after which no new attempt starts (the validator's timeout). */
  deadline: number;
  /** Backend name for messages (`anthropic`, `openai`). */
  backend: string;
  maxAttempts?: number;
  /** First backoff in ms (doubles per attempt, with jitter). */
  baseDelayMs?: number;
}

const RETRY_STATUS = new Set([408, 409, 429, 500, 502, 503, 504, 520, 522, 524, 529]);

/** Thrown for a transport failure worth another attempt (dropped connection, truncated stream). */
export class RetryableError extends Error {}

/** `retry-after` / `retry-after-ms` in ms, when the server sent one. */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms)) return Math.max(0, ms);
  const ra = headers.get('retry-after');
  if (!ra) return undefined;
  const secs = Number(ra);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function timeoutError(backend: string, signal: AbortSignal): AvpError {
  const why = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'timeout');
  return new AvpError('judge-timeout', `the ${backend} judge did not answer in time (${why})`, {
    fix: "raise the validator's `timeout`, or use a faster model (`judge.model`)",
  });
}

/** The API's error message from an error body (Anthropic `{error:{type,message}}`, OpenAI `{error:{message}}`). */
export function apiErrorMessage(text: string): string {
  try {
    const j = JSON.parse(text);
    const e = j?.error;
    if (e && typeof e === 'object') return [e.type, e.message].filter(Boolean).join(': ');
    if (typeof e === 'string') return e;
    if (typeof j?.message === 'string') return j.message;
  } catch {
    // not JSON
  }
  return text.trim().slice(0, 200) || '(empty body)';
}

function networkError(e: unknown): boolean {
  const text = `${(e as Error)?.message ?? ''} ${(e as { code?: string })?.code ?? ''} ${String((e as Error)?.cause ?? '')}`;
  return /ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|socket|closed|terminated|network|fetch failed|Unable to connect|ConnectionRefused|DNS/i.test(
    text,
  );
}

/** Why a failed attempt failed, and what to say if it was the last. */
function failure(e: unknown, opts: PostOptions): AvpError | undefined {
  if (!(e instanceof RetryableError) && !networkError(e)) return undefined;
  const said = `${(e as Error).message} ${(e as { code?: string }).code ?? ''}`;
  const refused = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|DNS|Unable to connect|ConnectionRefused/i.test(said);
  return new AvpError(
    refused ? 'judge-unreachable' : 'judge-unavailable',
    refused
      ? `cannot connect to the ${opts.backend} API at ${new URL(opts.url).origin} (${/ENOTFOUND|EAI_AGAIN|DNS/i.test(said) ? 'host not found' : 'connection refused'})`
      : `the connection to the ${opts.backend} API broke: ${(e as Error).message}`,
    {
      fix: refused
        ? 'check the base URL (ANTHROPIC_BASE_URL / OPENAI_BASE_URL) and that the server runs'
        : 'try again; check the network or the server',
      cause: e,
    },
  );
}

/** The error for a reply of 400 or more; `retry` when another attempt may help. */
function refusal(reply: HttpReply, opts: PostOptions, attempt: number): { error: AvpError; retry: boolean } {
  const detail = apiErrorMessage(reply.text);
  if (reply.status === 401 || reply.status === 403) {
    const fix =
      opts.backend === 'anthropic'
        ? 'set a valid ANTHROPIC_API_KEY'
        : 'set a valid OPENAI_API_KEY (or none for a local server)';
    const message = `the ${opts.backend} API refused the credentials (${reply.status} ${detail})`;
    return { error: new AvpError('judge-auth', message, { fix }), retry: false };
  }
  if (!RETRY_STATUS.has(reply.status)) {
    const message = `the ${opts.backend} API rejected the request (${reply.status} ${detail})`;
    const fix = 'check `judge.model` and the base URL (`avp doctor`)';
    return { error: new AvpError('judge-request', message, { fix }), retry: false };
  }
  const message = `the ${opts.backend} API is unavailable (${reply.status} ${detail}) after ${attempt} attempt(s)`;
  const fix = 'try again later, lower `judge.concurrency`, or switch backend (`judge.backend`)';
  return { error: new AvpError('judge-unavailable', message, { fix }), retry: true };
}

/**
 * POSTs JSON and returns what `parse` makes of the reply (any status below 400). `parse` may throw RetryableError
 * (e.g. a stream cut half-way) to get another attempt. Throws AvpError: judge-timeout, judge-unreachable,
 * judge-auth, judge-request (4xx; `status` in the message), judge-unavailable (5xx/429 after retries).
 *
 * The retries are ofetch's (`retry`, `retryStatusCodes`, `retryDelay`). ofetch retries what fails inside its fetch,
 * so the reply is read and parsed inside the fetch it calls: a stream cut half-way is retried like a refused
 * connection. Its hooks end the retries early: at once for a reply no retry can change (401, 400), and when the
 * next wait would end past the validator's deadline.
 */
export async function postWithRetry<T>(opts: PostOptions, parse: (reply: HttpReply) => T | Promise<T>): Promise<T> {
  const { ofetch } = await import('ofetch');
  const maxAttempts = opts.maxAttempts ?? 5;
  const base = opts.baseDelayMs ?? 400;
  let attempt = 0;
  let reply: HttpReply | undefined;
  let parsed: { value: T } | undefined;
  let wait = 0;
  const judged = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    attempt++;
    const res = await fetch(input, init);
    reply = { status: res.status, headers: res.headers, text: await res.text() };
    if (reply.status < 400) parsed = { value: await parse(reply) };
    return new Response(null, { status: reply.status, headers: res.headers });
  };
  /** Another attempt after `hint` (the server's retry-after) or exponential backoff with jitter, else `last`. */
  const retryOr = (last: AvpError, hint?: number) => {
    wait = hint ?? Math.min(8000, base * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5);
    if (attempt >= maxAttempts || Date.now() + wait >= opts.deadline) throw last;
  };
  try {
    await ofetch.create({}, { fetch: judged as typeof fetch }).raw(opts.url, {
      method: 'POST',
      body: JSON.stringify(opts.body),
      headers: { 'content-type': 'application/json', ...opts.headers },
      signal: opts.signal,
      retry: maxAttempts - 1,
      retryStatusCodes: [...RETRY_STATUS], // a failed fetch counts as 500, which is among them
      retryDelay: () => wait,
      onRequestError: ({ error }) => {
        if (opts.signal.aborted) throw timeoutError(opts.backend, opts.signal);
        if (error instanceof AvpError) throw error;
        const last = failure(error, opts);
        if (!last) throw error;
        retryOr(last);
      },
      onResponseError: () => {
        const { error, retry } = refusal(reply!, opts, attempt);
        if (!retry) throw error;
        retryOr(error, retryAfterMs(reply!.headers));
      },
    });
  } catch (e) {
    if (opts.signal.aborted) throw timeoutError(opts.backend, opts.signal);
    throw e;
  }
  return parsed!.value;
}
