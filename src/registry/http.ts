import { AvpError } from '../errors.ts';

/** Bytes-transferred callback for progress display (total is undefined when the server sends no length). */
export type ProgressFn = (done: number, total: number | undefined) => void;

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
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join('***');
}

/**
 * The message of an error response: JSON `error_description`, else `message`, else `error`, else the raw body (cut
 * short: an HTML error page is not a message).
 */
export function errorBodyMessage(body: string): string {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    for (const k of ['error_description', 'message', 'error'])
      if (typeof j[k] === 'string' && j[k]) return cleanText(j[k] as string);
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
  return new AvpError(`registry-${status}`, `${method} ${url} failed: ${status}${message ? ` ${message}` : ''}`, {
    fix:
      FIX_BY_STATUS[status] ??
      (status >= 500 ? 'the registry failed; retry later or report it to its operator' : 'check the request'),
  });
}

/** The AvpError for a request that never got an answer. */
export function networkError(url: string, e: unknown, token?: string): AvpError {
  const why = maskSecret(e instanceof Error ? e.message : String(e), token);
  return new AvpError('registry-unreachable', `could not reach ${url}: ${why}`, {
    fix: 'check the URL and your network, or set AVP_REGISTRY_URL (or pass --registry) to a registry you can reach',
    cause: e,
  });
}

/**
 * Reads a response body fully, reporting progress and refusing more than `maxBytes` (a download larger than any
 * package could be is stopped early instead of filling memory).
 */
export async function readBody(
  res: Response,
  url: string,
  maxBytes: number,
  progress?: ProgressFn,
): Promise<Uint8Array> {
  const lengthHeader = res.headers.get('content-length');
  const total = lengthHeader ? Number(lengthHeader) : undefined;
  if (total !== undefined && total > maxBytes) {
    await res.body?.cancel();
    throw tooLarge(url, maxBytes);
  }
  if (!res.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let done = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    done += value.length;
    if (done > maxBytes) {
      await reader.cancel();
      throw tooLarge(url, maxBytes);
    }
    chunks.push(value);
    progress?.(done, total);
  }
  if (total !== undefined && done !== total && !res.headers.get('content-encoding')) {
    throw new AvpError('download-truncated', `${url} ended after ${done} of ${total} bytes`, {
      fix: 'retry; if it keeps happening, check your network or proxy',
    });
  }
  const out = new Uint8Array(done);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function tooLarge(url: string, maxBytes: number): AvpError {
  return new AvpError('download-too-large', `${url} sends more than ${Math.round(maxBytes / 1024 / 1024)} MiB`, {
    fix: 'a validator package is at most 10 MiB; check the URL',
  });
}
