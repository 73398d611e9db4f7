import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Content-addressed archive storage: `<data>/blobs/sha512/<2 hex>/<128 hex>.zip`. Writes go to a temp file in the
 * same directory and are renamed into place, so a reader never sees a half-written archive and a crash leaves at
 * most a stray `.tmp-*` file. Identical archives share one file; blobs are never deleted (yank keeps them
 * downloadable for lockfile pins).
 */
export class BlobStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'blobs', 'sha512');
    mkdirSync(this.root, { recursive: true });
  }

  /** The hex sha512 that addresses `bytes`. */
  static keyOf(bytes: Uint8Array): string {
    return createHash('sha512').update(bytes).digest('hex');
  }

  /** The blob key for an SRI `sha512-<base64>` integrity string. */
  static keyOfIntegrity(integrity: string): string {
    if (!integrity.startsWith('sha512-')) throw new Error(`unsupported integrity ${integrity}`);
    return Buffer.from(integrity.slice('sha512-'.length), 'base64').toString('hex');
  }

  pathOf(key: string): string {
    if (!/^[0-9a-f]{128}$/.test(key)) throw new Error(`invalid blob key ${key}`);
    return join(this.root, key.slice(0, 2), `${key}.zip`);
  }

  /** Stores `bytes` atomically and returns its key. */
  put(bytes: Uint8Array): string {
    const key = BlobStore.keyOf(bytes);
    const path = this.pathOf(key);
    if (existsSync(path)) return key;
    const dir = join(this.root, key.slice(0, 2));
    mkdirSync(dir, { recursive: true });
    const tmp = join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
    try {
      writeFileSync(tmp, bytes, { flag: 'wx' });
      renameSync(tmp, path);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
    return key;
  }

  /** The stored archive as a lazily read Bun file, or undefined when missing. */
  get(key: string): ReturnType<typeof Bun.file> | undefined {
    const path = this.pathOf(key);
    return existsSync(path) ? Bun.file(path) : undefined;
  }
}
