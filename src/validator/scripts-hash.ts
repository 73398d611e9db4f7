/**
 * The key that tells a catalog script installed unmodified: sha256 over the files of a validator's `scripts/` folder
 * (relative paths and bytes, in path order). The build computes it for every catalog version
 * (scripts/gen-catalog.ts); loading a validator computes it for the installed copy, so that it is cached with the
 * rest of the load result (the parse cache, the hook memo) and not read and hashed again on every call that runs the
 * script (judges/builtin-script.ts).
 *
 * The hash reads everything in the folder, but the caches are voided by the files a validator's listing sees, which
 * skips dotfiles and `node_modules` (validator/walk.ts): such a file added or removed later leaves the cached key as
 * it was. Either way round the script behaves the same — an unmodified catalog script imports only its own
 * relative files and `node:` modules (test/catalog/embedded.test.ts) — so at worst the same code runs from disk.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile } from '../os/read-regular.ts';

/** The hash of `dir` (a `scripts/` folder), or undefined when it cannot be read whole. */
export function scriptsDirHash(dir: string): string | undefined {
  const h = new Bun.CryptoHasher('sha256');
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(join(dir, r)).isDirectory()) walk(r);
      else files.push(r);
    }
  };
  try {
    walk('');
    for (const f of files)
      h.update(`${f}\0`)
        .update(readRegularFile(join(dir, f)))
        .update('\0');
  } catch {
    return undefined;
  }
  return h.digest('hex');
}
