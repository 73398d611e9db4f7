import { randomUUID } from 'node:crypto';
import type { SQL } from 'bun';
import type { Store } from './store.ts';

/**
 * The audit log: who published, yanked, changed owners, created or revoked a token, logged in or out; when; and
 * from where. `ip` is the peer address the server saw (the proxy's, behind one); `forwardedFor` is the request's
 * X-Forwarded-For header as sent, bounded — trust it only when a proxy you run sets it. Rows are written in the same
 * transaction as a publish, after the change for the others, and never updated or deleted by the server.
 */
export type AuditAction =
  'publish' | 'yank' | 'purge' | 'owner-add' | 'owner-remove' | 'token-create' | 'token-revoke' | 'login' | 'logout';

export const AUDIT_ACTIONS: AuditAction[] = [
  'publish',
  'yank',
  'purge',
  'owner-add',
  'owner-remove',
  'token-create',
  'token-revoke',
  'login',
  'logout',
];

/** Where a request came from. */
export interface Origin {
  ip: string | null;
  forwardedFor: string | null;
}

export interface AuditEvent {
  action: AuditAction;
  /** Who: the account of the token used, or `cli:<os user>` for the admin commands run on the machine. */
  account: string | null;
  tokenId?: string | null;
  package?: string | null;
  version?: string | null;
  /** What the action was applied to besides a package: the owner added, the token created or revoked. */
  target?: string | null;
  detail?: string | null;
  origin: Origin;
}

export interface AuditEntry extends Omit<AuditEvent, 'origin'> {
  id: string;
  at: string;
  ip: string | null;
  forwardedFor: string | null;
}

/** The origin of a command run on the registry's machine (token create/revoke). */
export function localOrigin(): Origin {
  return { ip: 'local', forwardedFor: null };
}

/** Writes one audit row through `db` (a transaction when the change commits with it). */
export async function recordAudit(db: SQL, e: AuditEvent): Promise<void> {
  const at = new Date().toISOString();
  await db`INSERT INTO audit_log (id, at, action, account, token_id, package, version, target, ip, forwarded_for, detail)
    VALUES (${randomUUID()}, ${at}, ${e.action}, ${e.account}, ${e.tokenId ?? null}, ${e.package ?? null},
            ${e.version ?? null}, ${e.target ?? null}, ${e.origin.ip}, ${e.origin.forwardedFor?.slice(0, 256) ?? null},
            ${e.detail?.slice(0, 500) ?? null})`;
}

export interface AuditFilter {
  since?: string;
  action?: string;
  account?: string;
  package?: string;
  limit?: number;
}

/** Entries matching every given filter, oldest first, the newest `limit` (default 100) of them. */
export async function readAudit(store: Store, f: AuditFilter = {}): Promise<AuditEntry[]> {
  const db = store.db;
  const since = f.since ?? '';
  const action = f.action ?? '';
  const account = f.account ?? '';
  const pkg = f.package ?? '';
  const rows = (await db`SELECT * FROM audit_log
    WHERE (${since} = '' OR at >= ${since}) AND (${action} = '' OR action = ${action})
      AND (${account} = '' OR account = ${account}) AND (${pkg} = '' OR package = ${pkg})
    ORDER BY at DESC, id DESC LIMIT ${f.limit ?? 100}`) as any[];
  return rows.reverse().map((r) => ({
    id: r.id,
    at: r.at,
    action: r.action,
    account: r.account,
    tokenId: r.token_id,
    package: r.package,
    version: r.version,
    target: r.target,
    detail: r.detail,
    ip: r.ip,
    forwardedFor: r.forwarded_for,
  }));
}
