import type { SQL } from 'bun';
import { AvpError } from '../src/errors.ts';
import { BlobStore } from './blobs.ts';
import type { Store } from './store.ts';

/**
 * Where archives live. `file`: the content-addressed folder under `--data` (one machine, or a shared volume). `db`:
 * the `archives` table, in the same transaction as the version row (the default with PostgreSQL, so N instances on
 * one database share everything and keep nothing of their own). `s3://bucket/prefix`: S3-compatible object storage
 * through Bun's built-in client, with an object per upload that becomes live when its version row commits.
 */
export type ArchiveKind = 'file' | 'db' | 's3';

/** An archive written for an upload that has not committed yet. */
export interface Staged {
  /** Runs inside the publish transaction: what must commit together with the version row. */
  inTx(tx: SQL): Promise<void>;
  /** The publish did not happen (conflict, forbidden, error): remove what only this upload wrote. */
  discard(): Promise<void>;
}

export interface Archives {
  readonly kind: ArchiveKind;
  /** A human description (`db`, `file <dir>`, `s3://bucket/prefix`) for health and logs. */
  readonly where: string;
  stage(key: string, bytes: Uint8Array): Promise<Staged>;
  /** The archive addressed by `key` (hex sha512), or undefined when it is not stored. */
  read(key: string): Promise<Blob | undefined>;
  /** Throws when the storage cannot be reached (health). */
  check(): Promise<void>;
  /** Removes what killed uploads left behind; returns how many. */
  sweep(): Promise<number>;
}

/** The integrity string of a blob key (the inverse of BlobStore.keyOfIntegrity). */
export function integrityOfKey(key: string): string {
  return `sha512-${Buffer.from(key, 'hex').toString('base64')}`;
}

/** Content-addressed files under `<data>/blobs`: written before the row (a blob without a row is harmless). */
export class FileArchives implements Archives {
  readonly kind = 'file' as const;
  readonly where: string;
  constructor(private readonly blobs: BlobStore) {
    this.where = `file ${blobs.root}`;
  }
  async stage(_key: string, bytes: Uint8Array): Promise<Staged> {
    this.blobs.put(bytes);
    return { inTx: async () => {}, discard: async () => {} };
  }
  async read(key: string): Promise<Blob | undefined> {
    return this.blobs.get(key);
  }
  async check(): Promise<void> {
    const { accessSync, constants } = await import('node:fs');
    accessSync(this.blobs.root, constants.W_OK);
  }
  async sweep(): Promise<number> {
    return 0;
  }
}

/** `--archives` (or `AVP_REGISTRY_ARCHIVES`) → the archive storage; default `db` on PostgreSQL, else `file`. */
export async function openArchives(spec: string | undefined, store: Store, blobs: BlobStore): Promise<Archives> {
  const value = spec?.trim() || (store.engine === 'postgres' ? 'db' : 'file');
  if (value === 'file') return new FileArchives(blobs);
  if (value === 'db') {
    const { DbArchives } = await import('./blob-store-db.ts');
    return new DbArchives(store, blobs);
  }
  if (value.startsWith('s3://')) {
    const { S3Archives } = await import('./blob-store-s3.ts');
    return S3Archives.fromUrl(value, store);
  }
  throw new AvpError('registry-bad-archives', `--archives ${JSON.stringify(value)} is not a known archive storage`, {
    fix: 'use file (the --data folder), db (the database) or s3://bucket[/prefix] (credentials from S3_* or AWS_* env)',
  });
}
