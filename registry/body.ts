import { badRequest, tooLarge } from './errors.ts';

/** Limits on request bodies. The archive limit is the registry's; multipart framing gets a little room on top. */
export const LIMITS = {
  archiveBytes: 10 * 1024 * 1024,
  uploadBodyBytes: 10 * 1024 * 1024 + 64 * 1024,
  jsonBodyBytes: 1024 * 1024,
  /** Bun's own hard cap (`maxRequestBodySize`): past it the connection is dropped without reading further. */
  hardBodyBytes: 16 * 1024 * 1024,
};

/**
 * Reads a request body, refusing more than `limit` bytes with a 413. A declared Content-Length over the limit is
 * refused before reading; a chunked body is counted as it streams. Past the limit the rest is drained (up to Bun's
 * hard cap) without being kept, so the client reliably receives the 413 instead of a reset connection.
 */
export async function readBody(req: Request, limit: number, what: string): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  const over = () => tooLarge(`${what} is larger than the limit of ${formatBytes(limit)}`);
  if (!req.body) return new Uint8Array(0);
  if (Number.isFinite(declared) && declared > limit) {
    await drain(req.body.getReader());
    throw over();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await drain(reader);
      throw over();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function drain(reader: { read(): Promise<{ done: boolean }> }): Promise<void> {
  try {
    for (;;) if ((await reader.read()).done) return;
  } catch {
    // the client gave up; nothing to drain
  }
}

/** A JSON object body (≤ 1 MiB). */
export async function readJson(req: Request): Promise<Record<string, unknown>> {
  const bytes = await readBody(req, LIMITS.jsonBodyBytes, 'the JSON body');
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes) || 'null');
  } catch {
    throw badRequest('the request body is not valid JSON', 'invalid_json');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('the request body must be a JSON object', 'invalid_json');
  return value as Record<string, unknown>;
}

export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB` : `${Math.ceil(n / 1024)} KiB`;
}
