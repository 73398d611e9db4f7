import { randomUUID } from 'node:crypto';
import { S3Client, type SQL } from 'bun';
import { AvpError } from '../src/errors.ts';
import type { Archives, Staged } from './archives.ts';
import { HttpError } from './errors.ts';
import type { Store } from './store.ts';

/** An upload's object stays pending this long before a sweep may remove it (its server was killed mid-publish). */
const STALE_MS = 15 * 60_000;

/**
 * Archives in S3-compatible object storage (AWS S3, MinIO, R2, …) through Bun's built-in client. Each upload writes
 * its own object, `<prefix>/<sha512 hex>/<upload id>.zip`, recorded first in `archive_objects` as pending; the
 * publish transaction marks it live together with the version row. A refused upload deletes its own object; a
 * server killed between the write and the commit leaves a pending row whose object a later sweep deletes. Objects
 * are never shared between uploads, so no sweep or refusal can delete what another upload committed.
 */
export class S3Archives implements Archives {
  readonly kind = 's3' as const;

  private constructor(
    readonly where: string,
    private readonly client: S3Client,
    private readonly prefix: string,
    private readonly store: Store,
  ) {}

  /** `s3://bucket[/prefix]`; endpoint, region and credentials from `S3_*` (else `AWS_*`) environment variables. */
  static fromUrl(url: string, store: Store, env: NodeJS.ProcessEnv = process.env): S3Archives {
    const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,62})(\/.*)?$/.exec(url);
    if (!m) {
      throw new AvpError('registry-bad-archives', `${url} is not an s3://bucket[/prefix] URL`, {
        fix: 'e.g. --archives s3://avp-archives/registry, with S3_ENDPOINT for a store other than AWS',
      });
    }
    const pick = (name: string) => env[`S3_${name}`] || env[`AWS_${name}`] || undefined;
    const client = new S3Client({
      bucket: m[1],
      endpoint: pick('ENDPOINT'),
      region: pick('REGION'),
      accessKeyId: pick('ACCESS_KEY_ID'),
      secretAccessKey: pick('SECRET_ACCESS_KEY'),
      sessionToken: pick('SESSION_TOKEN'),
    });
    const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
    return new S3Archives(url.replace(/\/+$/, ''), client, prefix ? `${prefix}/` : '', store);
  }

  private objectOf(key: string, id: string): string {
    return `${this.prefix}${key}/${id}.zip`;
  }

  async stage(key: string, bytes: Uint8Array): Promise<Staged> {
    const id = randomUUID();
    const object = this.objectOf(key, id);
    const db = this.store.db;
    // The row first: whatever happens after it, a sweep can find the object.
    await db`INSERT INTO archive_objects (id, key, object, live, started_at)
      VALUES (${id}, ${key}, ${object}, ${0}, ${new Date().toISOString()})`;
    try {
      await this.client.write(object, bytes, { type: 'application/zip' });
    } catch (e) {
      await db`DELETE FROM archive_objects WHERE id = ${id}`;
      throw new HttpError(503, 'storage_unavailable', `the archive storage did not take the upload: ${errText(e)}`);
    }
    return {
      inTx: async (tx: SQL) => {
        await tx`UPDATE archive_objects SET live = ${1} WHERE id = ${id}`;
      },
      discard: async () => {
        await this.client.delete(object).catch(() => {});
        await db`DELETE FROM archive_objects WHERE id = ${id} AND live = 0`;
      },
    };
  }

  async read(key: string): Promise<Blob | undefined> {
    const rows = (await this.store.db`SELECT object FROM archive_objects WHERE key = ${key} AND live = 1
      ORDER BY started_at LIMIT 1`) as Array<{ object: string }>;
    if (!rows[0]) return undefined;
    try {
      return new Blob([await this.client.file(rows[0].object).arrayBuffer()], { type: 'application/zip' });
    } catch (e) {
      throw new HttpError(503, 'storage_unavailable', `the archive storage did not answer: ${errText(e)}`);
    }
  }

  async check(): Promise<void> {
    // A missing probe object is a normal "false"; an unreachable store or a refused credential throws.
    await this.client.exists(`${this.prefix}.health-probe`);
  }

  async sweep(olderThanMs = STALE_MS): Promise<number> {
    const before = new Date(Date.now() - olderThanMs).toISOString();
    const stale = (await this.store.db`SELECT id, object FROM archive_objects
      WHERE live = 0 AND started_at < ${before}`) as Array<{ id: string; object: string }>;
    let removed = 0;
    for (const row of stale) {
      try {
        await this.client.delete(row.object);
      } catch {
        continue; // the store is unreachable or refused: the next sweep tries again
      }
      await this.store.db`DELETE FROM archive_objects WHERE id = ${row.id} AND live = 0`;
      removed++;
    }
    return removed;
  }
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
