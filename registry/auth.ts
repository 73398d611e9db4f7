import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AvpError } from '../src/errors.ts';
import { forbidden, unauthorized } from './errors.ts';
import type { Store } from './store.ts';

/**
 * Tokens and the one-time login codes of the browser flow. Only sha256 digests of secrets are stored: a leaked
 * database does not leak usable tokens. A token belongs to an *account* (the name owners are recorded under) and has
 * a scope: `publish` (publish new names, publish/yank/add owners on packages the account owns) or `admin` (all of
 * that on every package).
 */
export type Scope = 'admin' | 'publish';

export interface Principal {
  tokenId: string;
  account: string;
  email: string | null;
  scope: Scope;
}

export interface TokenInfo {
  id: string;
  account: string;
  email: string | null;
  scope: Scope;
  label: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Account names: what `owners` records and `verify` answers as `name`. */
export const ACCOUNT_RE = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

const LOGIN_CODE_TTL_MS = 5 * 60_000;

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function newSecret(): string {
  return `avp_${randomBytes(32).toString('base64url')}`;
}

/** Creates a token; the secret is returned once and never stored. */
export async function createToken(
  store: Store,
  opts: { account: string; scope: Scope; email?: string; label?: string },
): Promise<{ token: string; info: TokenInfo }> {
  if (!ACCOUNT_RE.test(opts.account)) {
    throw new AvpError('registry-bad-account', `invalid account name "${opts.account}"`, {
      fix: 'use 1–64 characters: letters, digits, ".", "_", "@" or "-", starting with a letter or digit',
    });
  }
  const token = newSecret();
  const id = `tok_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const now = new Date().toISOString();
  await store.db`INSERT INTO tokens (id, hash, account, email, scope, label, created_at, last_used_at, revoked_at)
    VALUES (${id}, ${hashSecret(token)}, ${opts.account}, ${opts.email ?? null}, ${opts.scope}, ${opts.label ?? null}, ${now}, ${null}, ${null})`;
  return {
    token,
    info: {
      id,
      account: opts.account,
      email: opts.email ?? null,
      scope: opts.scope,
      label: opts.label ?? null,
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
    },
  };
}

function toInfo(r: any): TokenInfo {
  return {
    id: r.id,
    account: r.account,
    email: r.email,
    scope: r.scope,
    label: r.label,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  };
}

export async function listTokens(store: Store): Promise<TokenInfo[]> {
  return ((await store.db`SELECT * FROM tokens ORDER BY created_at, id`) as any[]).map(toInfo);
}

/** Revokes by id; false when no active token has that id. */
export async function revokeToken(store: Store, id: string): Promise<boolean> {
  const now = new Date().toISOString();
  const [row] = await store.db`SELECT id FROM tokens WHERE id = ${id} AND revoked_at IS NULL`;
  if (!row) return false;
  await store.db`UPDATE tokens SET revoked_at = ${now} WHERE id = ${id}`;
  return true;
}

/** The Bearer token of a request, if any. */
export function bearerOf(req: Request): string | undefined {
  const header = req.headers.get('authorization') ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

/** The principal behind a secret, or undefined for an unknown or revoked one. */
export async function principalOf(store: Store, secret: string): Promise<Principal | undefined> {
  const [row] =
    (await store.db`SELECT * FROM tokens WHERE hash = ${hashSecret(secret)} AND revoked_at IS NULL`) as any[];
  if (!row) return undefined;
  const now = new Date();
  // Recording use on every request would turn reads into writes; a minute's resolution is enough for `token list`.
  if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > 60_000) {
    await store.db`UPDATE tokens SET last_used_at = ${now.toISOString()} WHERE id = ${row.id}`;
  }
  return { tokenId: row.id, account: row.account, email: row.email, scope: row.scope };
}

/**
 * The request's principal, required: 401 without a token or with an unknown/revoked one. Endpoints that allow
 * anonymous use (downloads) do not call this: a stale token sent by an old client must not break a public download.
 */
export async function requirePrincipal(store: Store, req: Request): Promise<Principal> {
  const secret = bearerOf(req);
  if (!secret)
    throw unauthorized('this endpoint needs a token: send "Authorization: Bearer <token>" (avp login, or AVP_TOKEN)');
  const p = await principalOf(store, secret);
  if (!p)
    throw unauthorized(
      'the token is unknown or revoked: log in again (avp login) or ask the registry admin for a new token',
    );
  return p;
}

/** 403 unless the principal owns `name` or is an admin. */
export async function requireOwner(store: Store, p: Principal, name: string): Promise<void> {
  if (p.scope === 'admin') return;
  const owners = await store.owners(name);
  if (!owners.includes(p.account)) {
    throw forbidden(
      `account "${p.account}" is not an owner of ${name}; its owners are: ${owners.join(', ') || '(none)'}`,
    );
  }
}

/** Issues a one-time login code (browser flow) for the principal's account; valid for 5 minutes. */
export async function createLoginCode(store: Store, p: Principal): Promise<string> {
  const code = randomBytes(24).toString('base64url');
  const expires = new Date(Date.now() + LOGIN_CODE_TTL_MS).toISOString();
  // Abandoned logins leave codes behind; sweeping them here keeps the table to the last five minutes.
  await store.db`DELETE FROM login_codes WHERE expires_at < ${new Date().toISOString()}`;
  await store.db`INSERT INTO login_codes (hash, account, email, expires_at) VALUES (${hashSecret(code)}, ${p.account}, ${p.email}, ${expires})`;
  return code;
}

/**
 * Exchanges a login code for a fresh `publish` token of the same account (the CLI gets its own token, revocable on
 * its own). The code is deleted whether or not it has expired: it works once.
 */
export async function exchangeLoginCode(
  store: Store,
  code: string,
): Promise<{ token: string; id: string; account: string; email: string | null } | undefined> {
  const hash = hashSecret(code);
  const row = await store.db.begin(async (tx) => {
    const [r] = (await tx`SELECT * FROM login_codes WHERE hash = ${hash}`) as any[];
    if (r) await tx`DELETE FROM login_codes WHERE hash = ${hash}`;
    return r as { account: string; email: string | null; expires_at: string } | undefined;
  });
  if (!row || row.expires_at < new Date().toISOString()) return undefined;
  const { token, info } = await createToken(store, {
    account: row.account,
    email: row.email ?? undefined,
    scope: 'publish',
    label: 'cli login',
  });
  return { token, id: info.id, account: row.account, email: row.email };
}
