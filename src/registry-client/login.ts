import { randomBytes } from 'node:crypto';
import { AvpError } from '../errors.ts';
import { RegistryClient } from './api.ts';
import { redactUserinfo } from '../redact.ts';
import { cleanText } from './http.ts';
import { deleteCredentials, readCredentials, type Credentials } from './credentials.ts';

/** 32 characters of [A-Za-z0-9_-] (24 random bytes, base64url). */
export function newState(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The public registry's browser login: listen on loopback at /callback, send the user to
 * `{base}/cli/auth/start?redirect_uri=…&state=…`, receive `code` + `state` (or `error`), check the state, send the
 * browser on to `{base}/cli/success` (or `/cli/error?message=…`) with a 303, then exchange the code for a token.
 * `show` is called with the URL (the command opens a browser and prints it). Gives up after `timeoutMs` (5 min).
 */
export async function browserLogin(
  base: string,
  opts: { show: (url: string) => void | Promise<void>; timeoutMs?: number },
): Promise<Credentials> {
  const client = new RegistryClient(base);
  const state = newState();
  let settle!: { resolve: (code: string) => void; reject: (e: AvpError) => void };
  const codePromise = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // The browser may answer before `show` returns; the race below still sees the rejection.
  codePromise.catch(() => {});
  const handler = (req: Request): Response => {
    const url = new URL(req.url);
    if (url.pathname !== '/callback') return new Response('not found', { status: 404 });
    const q = url.searchParams;
    const fail = (message: string) => {
      settle.reject(
        new AvpError('login-failed', `login failed: ${message}`, {
          fix: 'run `avp login` again, or paste a token: avp login --token <token>',
        }),
      );
      return Response.redirect(`${client.base}/cli/error?message=${encodeURIComponent(message)}`, 303);
    };
    if (q.get('error')) return fail(cleanText(q.get('error_description') || q.get('error')!).slice(0, 300));
    if (q.get('state') !== state) return fail('the state parameter does not match (a stale or forged login redirect)');
    const code = q.get('code');
    if (!code) return fail('the registry sent no code');
    settle.resolve(code);
    return Response.redirect(`${client.base}/cli/success`, 303);
  };
  const v4 = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler });
  // `localhost` may resolve to ::1 in the browser; listen there too when the host has IPv6 loopback.
  let v6: ReturnType<typeof Bun.serve> | undefined;
  try {
    v6 = Bun.serve({ hostname: '::1', port: v4.port, fetch: handler });
  } catch {}
  const redirect = `http://localhost:${v4.port}/callback`;
  const startUrl = `${client.base}/cli/auth/start?redirect_uri=${encodeURIComponent(redirect)}&state=${state}`;
  const timeoutMs = opts.timeoutMs ?? 5 * 60_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AvpError(
            'login-timeout',
            `no answer from the browser login within ${Math.round(timeoutMs / 60_000)} minutes`,
            { fix: 'run `avp login` again, or paste a token: avp login --token <token>' },
          ),
        ),
      timeoutMs,
    );
  });
  try {
    await opts.show(startUrl);
    const code = await Promise.race([codePromise, timeout]);
    const t = await client.exchangeCode(code);
    if (typeof t.access_token !== 'string' || !t.access_token) {
      throw new AvpError('login-failed', `${client.base} answered the code exchange without an access_token`, {
        fix: 'retry, or paste a token with --token',
      });
    }
    return { registry: client.base, token: t.access_token, email: t.email, name: t.name };
  } finally {
    clearTimeout(timer);
    // Let the 303 reach the browser before closing.
    setTimeout(() => {
      v4.stop(true);
      v6?.stop(true);
    }, 200);
  }
}

/** Checks a token with `/api/auth/cli/verify`: valid if `valid` is true, or both email and name are present. */
export async function verifyToken(base: string, token: string): Promise<{ email?: string; name?: string }> {
  const client = new RegistryClient(base, { token });
  let r;
  try {
    r = await client.verify();
  } catch (e) {
    if (e instanceof AvpError && (e.code === 'registry-401' || e.code === 'registry-403')) {
      throw new AvpError('token-invalid', `${redactUserinfo(base)} does not accept this token (${e.message})`, {
        fix: 'create a new token on the registry (or run `avp login` without --token)',
        cause: e,
      });
    }
    throw e;
  }
  if (r.valid === true || (r.email && r.name)) return { email: r.email, name: r.name };
  throw new AvpError(
    'token-invalid',
    `${redactUserinfo(base)} does not accept this token${r.error_description ? `: ${cleanText(r.error_description)}` : ''}`,
    {
      fix: 'create a new token on the registry (or run `avp login` without --token)',
    },
  );
}

/**
 * `avp logout`: revokes the stored token on its registry and deletes the credentials file. Refused for AVP_TOKEN
 * (avp did not store it and cannot forget it). A registry that cannot be reached does not keep the local logout
 * from happening; `revoked: false` says so.
 */
export async function logout(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ registry?: string; revoked: boolean; removed: boolean }> {
  if (env.AVP_TOKEN) {
    throw new AvpError(
      'logout-env-token',
      'the token comes from the AVP_TOKEN environment variable; avp cannot log it out',
      {
        fix: 'unset AVP_TOKEN (and revoke it on the registry if it leaked)',
      },
    );
  }
  const creds = readCredentials(env);
  if (!creds) return { revoked: false, removed: false };
  let revoked = false;
  try {
    await new RegistryClient(creds.registry, { token: creds.token }).revokeToken();
    revoked = true;
  } catch {}
  const removed = deleteCredentials(env);
  return { registry: creds.registry, revoked, removed };
}
