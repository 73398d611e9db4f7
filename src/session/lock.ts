/**
 * A cross-process lock for the few decisions that must read then write (the Stop guard's counter): `mkdir` is atomic
 * on every filesystem avp runs on, and a lock older than `staleMs` (its holder was killed) is broken.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export async function withLock<T>(
  dir: string,
  name: string,
  fn: () => T | Promise<T>,
  opts: { waitMs?: number; staleMs?: number } = {},
): Promise<T> {
  const path = join(dir, `${name}.lock`);
  const waitMs = opts.waitMs ?? 5000;
  const staleMs = opts.staleMs ?? 10_000;
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(path);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(path).mtimeMs > staleMs) {
          rmSync(path, { recursive: true, force: true });
          continue;
        }
      } catch {
        continue; // released between our mkdir and stat
      }
      // Waiting longer than the holder can take means it died without its mtime being old yet; take it over.
      if (Date.now() - started > waitMs) {
        rmSync(path, { recursive: true, force: true });
        continue;
      }
      await Bun.sleep(5 + Math.random() * 10);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
}
