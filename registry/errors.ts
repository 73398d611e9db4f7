/**
 * The server's one error shape. Every non-2xx answer is JSON `{error, error_description}`: the public registry's
 * clients read `error_description` first, then `message`, then the raw body, so both carry the human text.
 */
export class HttpError extends Error {
  readonly status: number;
  /** Stable machine code (`not_found`, `conflict`, `invalid_archive`, …). */
  readonly error: string;
  readonly headers: Record<string, string>;

  constructor(status: number, error: string, description: string, headers: Record<string, string> = {}) {
    super(description);
    this.name = 'HttpError';
    this.status = status;
    this.error = error;
    this.headers = headers;
  }
}

/** A JSON response with the headers every API answer carries. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...headers,
    },
  });
}

/** The JSON error body for a status, code and text. */
function errorResponse(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): Response {
  return json({ error, error_description: description, message: description }, status, headers);
}

/**
 * Turns anything thrown by a handler into a response: HttpError keeps its status; anything else is a 500 that hides
 * internals.
 */
export function toResponse(e: unknown): Response {
  if (e instanceof HttpError) return errorResponse(e.status, e.error, e.message, e.headers);
  return errorResponse(500, 'internal_error', 'the registry failed to handle this request; see the server log');
}

export const badRequest = (description: string, error = 'bad_request') => new HttpError(400, error, description);
export const unauthorized = (description: string) =>
  new HttpError(401, 'unauthorized', description, { 'www-authenticate': 'Bearer realm="avp-registry"' });
export const forbidden = (description: string) => new HttpError(403, 'forbidden', description);
export const notFound = (description: string) => new HttpError(404, 'not_found', description);
export const conflict = (description: string) => new HttpError(409, 'conflict', description);
export const tooLarge = (description: string) => new HttpError(413, 'payload_too_large', description);
