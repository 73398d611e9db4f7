import type { SQL } from 'bun';
import type { Archives, Staged } from './archives.ts';
import type { BlobStore } from './blobs.ts';
import type { Store } from './store.ts';

/**
 * Archives in the `archives` table. The bytes are inserted inside the publish transaction, so an archive and its
 * version row commit together or not at all: a server killed mid-publish leaves neither (the database rolls the
 * open transaction back when the connection drops). Identical archives share one row. Reads fall back to the
 * `--data` blob folder, where a registry kept its archives before they moved into the database.
 */
export class DbArchives implements Archives {
  readonly kind = 'db' as const;
  readonly where = 'db';

  constructor(
    private readonly store: Store,
    private readonly legacy: BlobStore,
  ) {}

  async stage(key: string, bytes: Uint8Array): Promise<Staged> {
    return {
      inTx: async (tx: SQL) => {
        await tx`INSERT INTO archives (key, bytes, size, created_at)
          VALUES (${key}, ${bytes}, ${bytes.length}, ${new Date().toISOString()}) ON CONFLICT (key) DO NOTHING`;
      },
      discard: async () => {},
    };
  }

  async read(key: string): Promise<Blob | undefined> {
    const [row] = (await this.store.db`SELECT bytes FROM archives WHERE key = ${key}`) as Array<{ bytes: Uint8Array }>;
    if (row) return new Blob([row.bytes], { type: 'application/zip' });
    return this.legacy.get(key);
  }

  async check(): Promise<void> {
    await this.store.db`SELECT count(*) AS n FROM archives WHERE key = ${''}`;
  }

  async sweep(): Promise<number> {
    return 0;
  }
}
