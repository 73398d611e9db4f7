import { Database } from 'bun:sqlite';
import type { Migration } from './migrations.ts';
import type { Store } from './store.ts';

/**
 * The package-metadata answers (detail, latest, one version, the version list) kept as the bytes sent, so a read
 * costs one primary-key lookup instead of three queries and a JSON serialisation.
 *
 * An answer is reused only while its package's stamp — `packages.revision` and `packages.downloads` — is unchanged.
 * Every publish, yank and purge moves `latest` through `Store.refreshLatest`, which bumps `revision` in the same
 * transaction, and a download bumps `downloads`; so the stamp is read from the database on every request, and a
 * change made by another instance on the same PostgreSQL or by `avp registry purge` in another process is seen on
 * the next request, never later. There is no time-to-live to tune and no stale answer.
 *
 * On SQLite the stamp is read through a second, synchronous connection (bun:sqlite, read-only, WAL): a committed
 * write is visible to its next read, and the lookup costs microseconds instead of a trip through the async driver.
 * On PostgreSQL the lookups of the requests that arrived together go out as one query.
 */
export const CACHE_MIGRATIONS: Migration[] = [
  {
    version: 20,
    name: 'package revision (the metadata cache stamp)',
    statements: ['ALTER TABLE packages ADD COLUMN revision INTEGER NOT NULL DEFAULT 0'],
  },
];

/**
 * What is kept at most: answers and their bytes (a detail answer may carry a 256 KiB readme). Past either, the oldest
 * go first (a Map keeps insertion order).
 */
const MAX_ENTRIES = 20_000;
const MAX_BYTES = 64 * 1024 * 1024;

interface Entry {
  stamp: string;
  body: string;
}

export class MetadataCache {
  private readonly entries = new Map<string, Entry>();
  /** UTF-16 code units kept (about the bytes, for ASCII JSON). */
  private size = 0;
  private readonly stampOf: (name: string) => Promise<string | undefined> | string | undefined;
  private readonly sqlite: Database | undefined;

  constructor(store: Store, sqliteFile?: string) {
    if (store.engine === 'sqlite' && sqliteFile) {
      const db = new Database(sqliteFile, { readonly: true });
      const q = db.query<{ revision: number; downloads: number }, [string]>(
        'SELECT revision, downloads FROM packages WHERE name = ?',
      );
      this.sqlite = db;
      this.stampOf = (name) => {
        const row = q.get(name);
        return row ? `${row.revision}:${row.downloads}` : undefined;
      };
    } else {
      this.stampOf = batchedStamps(store);
    }
  }

  /**
   * The answer for `key` (path and base URL) of package `name`: the kept bytes when the package's stamp is the one
   * they were made under, else `build()`'s answer, kept when it is a 200. Unknown packages are never kept.
   */
  async answer(name: string, key: string, build: () => Promise<Response>): Promise<Response> {
    const stamp = await this.stampOf(name);
    if (stamp === undefined) return build();
    const hit = this.entries.get(key);
    if (hit && hit.stamp === stamp) return jsonResponse(hit.body);
    const res = await build();
    if (res.status !== 200) return res;
    const body = await res.text();
    this.keep(key, { stamp, body });
    return jsonResponse(body);
  }

  private keep(key: string, entry: Entry): void {
    const old = this.entries.get(key);
    if (old) {
      this.size -= old.body.length;
      this.entries.delete(key);
    }
    while (this.entries.size && (this.entries.size >= MAX_ENTRIES || this.size + entry.body.length > MAX_BYTES)) {
      const [oldest, e] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.size -= e.body.length;
    }
    this.entries.set(key, entry);
    this.size += entry.body.length;
  }

  close(): void {
    this.sqlite?.close();
  }
}

/**
 * Stamps from PostgreSQL, one query for all the requests that arrived in the same turn of the event loop: each
 * request's lookup is still sent after the request arrived, so no answer is older than its request, and 32 concurrent
 * readers cost a handful of round trips instead of 32.
 */
function batchedStamps(store: Store): (name: string) => Promise<string | undefined> {
  let pending: Map<string, Array<(stamp: string | undefined) => void>> | undefined;
  const flush = async (batch: Map<string, Array<(stamp: string | undefined) => void>>) => {
    const names = [...batch.keys()];
    try {
      const rows =
        (await store.db`SELECT name, revision, downloads FROM packages WHERE name IN ${store.db(names)}`) as Array<{
          name: string;
          revision: number;
          downloads: number;
        }>;
      const byName = new Map(rows.map((r) => [r.name, `${r.revision}:${r.downloads}`]));
      for (const [name, waiters] of batch) for (const w of waiters) w(byName.get(name));
    } catch {
      // No stamp: every request of the batch is answered fresh (and reports its own database error if it has one).
      for (const waiters of batch.values()) for (const w of waiters) w(undefined);
    }
  };
  return (name) =>
    new Promise((resolve) => {
      if (!pending) {
        const batch = new Map<string, Array<(stamp: string | undefined) => void>>();
        pending = batch;
        setImmediate(() => {
          pending = undefined;
          void flush(batch);
        });
      }
      const waiters = pending.get(name);
      if (waiters) waiters.push(resolve);
      else pending.set(name, [resolve]);
    });
}

/** The headers `json()` in errors.ts sends, on kept bytes. */
function jsonResponse(body: string): Response {
  return new Response(body, {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
