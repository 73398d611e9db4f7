import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Content-addressed archive storage: `<data>/blobs/sha512/<2 hex>/<128 hex>.zip`. Writes go to a temp file in the
 * same directory and are renamed into place, so a reader never sees a half-written archive and a crash leaves at
 * most a stray `.tmp-*` file, removed at the next start with everything under `<data>/tmp/` (where uploads are
 * unpacked for their checks). Identical archives share one file; blobs are never deleted (yank keeps them
 * downloadable for lockfile pins). Folders are created 0700: the data folder is the registry's alone.
 */
export class BlobStore {
  readonly root: string;
  /** Scratch space for upload checks, emptied at start. */
  readonly tmp: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'blobs', 'sha512');
    this.tmp = join(dataDir, 'tmp');
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    mkdirSync(this.tmp, { recursive: true, mode: 0o700 });
  }

  /**
   * Removes what killed uploads left behind (`.tmp-<pid>-*` blob writes, `tmp/<pid>-*` check folders) when the
   * process that made them is gone: another server may share this folder and be mid-upload. Run at start.
   */
  cleanStrays(): string[] {
    const removed: string[] = [];
    const drop = (path: string, name: string) => {
      const pid = Number(/^(?:\.tmp-)?(\d+)-/.exec(name)?.[1] ?? NaN);
      if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) return;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    };
    for (const f of readdirSync(this.tmp)) drop(join(this.tmp, f), f);
    for (const dir of readdirSync(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(dir)) continue;
      for (const f of readdirSync(join(this.root, dir))) if (f.startsWith('.tmp-')) drop(join(this.root, dir, f), f);
    }
    return removed;
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
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = join(dir, `.tmp-${process.pid}-${randomBytes(8).toString('hex')}`);
    try {
      writeFileSync(tmp, bytes, { flag: 'wx' });
      renameSync(tmp, path);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
    return key;
  }

  /** Deletes a stored archive (a purge); false when it was not there. */
  remove(key: string): boolean {
    const path = this.pathOf(key);
    if (!existsSync(path)) return false;
    rmSync(path, { force: true });
    return true;
  }

  /** The stored archive as a lazily read Bun file, or undefined when missing. */
  get(key: string): ReturnType<typeof Bun.file> | undefined {
    const path = this.pathOf(key);
    return existsSync(path) ? Bun.file(path) : undefined;
  }
}

/** True when a process with this id exists (signal 0 checks without signalling; EPERM means it exists). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
