import { recordAudit } from './audit.ts';
import { bearerOf, createLoginCode, exchangeLoginCode, principalOf, requirePrincipal, revokeToken } from './auth.ts';
import { LIMITS, readBody, readJson } from './body.ts';
import { badRequest, json } from './errors.ts';
import type { Ctx } from './server.ts';

/**
 * CLI authentication. A self-hosted registry has no accounts of its own to sign in with, so the browser step of the
 * public registry's loopback login is a small page where the user pastes a token an admin created
 * (`avp registry token create`); the server then hands the CLI a one-time code, which `POST /api/auth/cli/token`
 * exchanges for a fresh token of the same account. `avp login --token` skips the page entirely.
 */

/** `GET /api/auth/cli/verify` */
export async function verify(ctx: Ctx, req: Request): Promise<Response> {
  const secret = bearerOf(req);
  const p = secret ? await principalOf(ctx.store, secret) : undefined;
  if (!p) {
    const description = secret ? 'the token is unknown or revoked' : 'no token: send "Authorization: Bearer <token>"';
    return json({ valid: false, error: 'unauthorized', error_description: description }, 401);
  }
  const body: Record<string, unknown> = { valid: true, name: p.account, scope: p.scope };
  if (p.email) body.email = p.email;
  return json(body);
}

/** `POST /api/auth/cli/token` `{code}` → `{access_token, email, name}` (snake_case, as the public registry answers). */
export async function exchange(ctx: Ctx, req: Request): Promise<Response> {
  const body = await readJson(req);
  if (typeof body.code !== 'string' || !body.code)
    throw badRequest('the body must be {"code": "<code from the login page>"}');
  const got = await exchangeLoginCode(ctx.store, body.code);
  if (!got)
    return json(
      { error: 'invalid_grant', error_description: 'the login code is unknown, used or expired; run avp login again' },
      400,
    );
  await recordAudit(ctx.store.db, {
    action: 'login',
    account: got.account,
    tokenId: got.id,
    target: got.id,
    detail: 'browser login: new publish token',
    origin: ctx.originOf(req),
  });
  return json({ access_token: got.token, email: got.email ?? '', name: got.account });
}

/** `DELETE /api/auth/cli/token` — revokes the token that authenticates the request (logout). */
export async function logout(ctx: Ctx, req: Request): Promise<Response> {
  const p = await requirePrincipal(ctx.store, req);
  await revokeToken(ctx.store, p.tokenId);
  await recordAudit(ctx.store.db, {
    action: 'logout',
    account: p.account,
    tokenId: p.tokenId,
    target: p.tokenId,
    origin: ctx.originOf(req),
  });
  return new Response(null, { status: 204 });
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Only a loopback http callback may receive a code: the CLI listens on 127.0.0.1. */
function checkRedirect(raw: string | null): URL {
  let url: URL;
  try {
    url = new URL(raw ?? '');
  } catch {
    throw badRequest('redirect_uri is missing or not a URL');
  }
  if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname))
    throw badRequest('redirect_uri must be an http://localhost or http://127.0.0.1 callback');
  return url;
}

/** The CLI's state is echoed back to it unchanged; anything but a plain token is refused. */
function checkState(raw: string | null): string {
  const state = raw ?? '';
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(state)) throw badRequest('state is missing or malformed');
  return state;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Headers of every HTML answer. The login page takes a token: another site must not frame it (clickjacking) or
 * script it. The form may only post here, and the 303 after it goes to the CLI's loopback callback.
 */
export const HTML_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'; " +
    "form-action 'self' http://127.0.0.1:* http://localhost:* http://[::1]:*",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:16px system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem}input{width:100%;padding:.5rem;font:inherit}
button{padding:.5rem 1rem;font:inherit;margin-top:1rem}.err{color:#b00}</style></head><body><h1>${esc(title)}</h1>${body}</body></html>`;
  return new Response(html, { status, headers: HTML_HEADERS });
}

function form(redirect: string, state: string, error?: string): string {
  return `${error ? `<p class="err">${esc(error)}</p>` : ''}
<p>Paste a token for this registry (an admin creates one with <code>avp registry token create --name you</code>).
The command line then receives its own token for the same account.</p>
<form method="post" action="/cli/auth/start">
<input type="hidden" name="redirect_uri" value="${esc(redirect)}"><input type="hidden" name="state" value="${esc(state)}">
<label>Token<br><input type="password" name="token" autocomplete="off" required autofocus></label>
<button type="submit">Log in</button> <button type="submit" name="cancel" value="1" formnovalidate>Cancel</button></form>`;
}

/** `GET|POST /cli/auth/start` — the browser step of `avp login`. */
export async function loginPage(ctx: Ctx, req: Request, url: URL): Promise<Response> {
  if (req.method === 'GET') {
    const redirect = checkRedirect(url.searchParams.get('redirect_uri'));
    const state = checkState(url.searchParams.get('state'));
    return page('Log in to this avp registry', form(redirect.href, state));
  }
  const bytes = await readBody(req, LIMITS.jsonBodyBytes, 'the form');
  const fields = new URLSearchParams(new TextDecoder().decode(bytes));
  const redirect = checkRedirect(fields.get('redirect_uri'));
  const state = checkState(fields.get('state'));
  const back = new URL(redirect.href);
  back.searchParams.set('state', state);
  if (fields.get('cancel')) {
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('error_description', 'login cancelled in the browser');
    return new Response(null, { status: 303, headers: { location: back.href } });
  }
  const p = await principalOf(ctx.store, (fields.get('token') ?? '').trim());
  if (!p)
    return page('Log in to this avp registry', form(redirect.href, state, 'That token is unknown or revoked.'), 401);
  back.searchParams.set('code', await createLoginCode(ctx.store, p));
  return new Response(null, { status: 303, headers: { location: back.href } });
}

/** `GET /cli/success` and `GET /cli/error?message=` — where the CLI sends the browser afterwards. */
export function loginDone(url: URL): Response {
  if (url.pathname === '/cli/success')
    return page('Logged in', '<p>You can close this tab and return to your terminal.</p>');
  return page('Login failed', `<p class="err">${esc(url.searchParams.get('message') ?? 'unknown error')}</p>`, 400);
}
