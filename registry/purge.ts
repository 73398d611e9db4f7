import { AvpError } from '../src/errors.ts';
import { localOrigin, recordAudit } from './audit.ts';
import { BlobStore } from './blobs.ts';
import type { Store } from './store.ts';

/**
 * `avp registry purge name@version`: removes a version for good — its row and, when no other version has the same
 * bytes, its archive — for a legal takedown. Yanking (`DELETE` on the API) is the normal way to withdraw a version;
 * a purge breaks every lockfile pinning it, so it is an admin's act on the server's own store, never an API call,
 * and each one is written to the append-only `audit_log` table in the same transaction.
 */

export interface PurgeResult {
  name: string;
  version: string;
  integrity: string;
  /** False when another version holds the same bytes (the archive stays for it). */
  archiveRemoved: boolean;
  /** The package's latest after the purge (null: nothing resolvable is left; the name stays with its owners). */
  latest: string | null;
  at: string;
  actor: string;
  reason: string;
}

/** Parses `name@version` (the name may be scoped `owner/repo`). */
export function parsePurgeSpec(spec: string): { name: string; version: string } {
  const at = spec.lastIndexOf('@');
  const name = at > 0 ? spec.slice(0, at) : '';
  const version = at > 0 ? spec.slice(at + 1) : '';
  if (!name || !version)
    throw new AvpError('spec-invalid', `"${spec}" is not name@version`, {
      fix: 'name one exact version: avp registry purge my-validator@1.2.3 --reason "…"',
    });
  return { name, version };
}

/** Purges one exact version; throws when it does not exist or no reason is given. */
export async function purgeVersion(
  store: Store,
  blobs: BlobStore,
  spec: { name: string; version: string },
  who: { actor: string; reason: string },
): Promise<PurgeResult> {
  const reason = who.reason.trim();
  if (!reason)
    throw new AvpError('registry-purge-reason', 'a purge needs a reason for the audit log', {
      fix: 'add --reason "…" (e.g. the takedown request it answers)',
    });
  const { name, version } = spec;
  const at = new Date().toISOString();
  const integrity = await store.db.begin(async (tx) => {
    const [row] = (await tx`SELECT integrity FROM versions WHERE name = ${name} AND version = ${version}`) as Array<{
      integrity: string;
    }>;
    if (!row) return undefined;
    await tx`DELETE FROM versions WHERE name = ${name} AND version = ${version}`;
    await store.refreshLatest(tx, name, at);
    // The registry's one audit log (also read by `avp registry audit --action purge`).
    await recordAudit(tx, {
      action: 'purge',
      account: who.actor,
      package: name,
      version,
      target: row.integrity,
      detail: reason,
      origin: localOrigin(),
    });
    return row.integrity;
  });
  if (!integrity) {
    const known = await store.getPackage(name);
    throw new AvpError('registry-purge-unknown', `${name}@${version} is not on this registry`, {
      fix: known ? `see its versions: GET /api/packages/${name}/versions` : `check the name (${name} is unknown here)`,
    });
  }
  // The row is gone first: a crash here leaves an unreferenced blob (harmless), never a row without its archive.
  const [shared] = await store.db`SELECT 1 AS x FROM versions WHERE integrity = ${integrity} LIMIT 1`;
  const archiveRemoved = shared ? false : blobs.remove(BlobStore.keyOfIntegrity(integrity));
  const pkg = await store.getPackage(name);
  return { name, version, integrity, archiveRemoved, latest: pkg?.latest ?? null, at, actor: who.actor, reason };
}
