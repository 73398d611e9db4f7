/**
 * The discovery parse cache: one JSON file per validators folder (`$AVP_HOME/cache/discovery/<hash>.json`)
 * holding each unit's load result and the stats of every file it depended on.
 * A warm hook call only stats files and parses this JSON; a changed, added or removed file is a miss for its unit.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { VERSION } from '../version.ts';
import { liveListing, type Listing } from './listing.ts';
import type { LoadResult } from './load.ts';
import { writeFileAtomic } from '../os/atomic-write.ts';

/** Bumped when the cached shape or the loading rules change (the avp version is checked too). */
const FORMAT = 5;
/**
 * Files changed less than this long before the cache is written are not cached: file systems with coarse timestamps
 * (jiffies on Linux, 2 s on FAT/NFS) could otherwise show an edit made right after our read with the same stats
 * ("racily clean", as git calls it).
 */
export const RACY_MS = 2000;

/** One unit's cached load result and what it was derived from. */
export interface CacheEntry {
  /** For a directory unit: the sorted list of its files (a new file is a miss). */
  files?: string[];
  /** path → fingerprint (`size:mtime:ctime`, or `-` for a path that did not exist). */
  deps: Record<string, string>;
  result: Omit<LoadResult, 'deps'>;
}

/** `discovery.json`: one per source. */
export interface CacheFile {
  format: number;
  version: string;
  root: string;
  entries: Record<string, CacheEntry>;
}

/**
 * `size:mtimeMs:ctimeMs`, or `-` when missing. ctime catches content restored with an old mtime (`cp -p`, tar).
 * `fs`: where the stat comes from (hook mode passes the call's snapshot, already stat'ed by the accepted-state check).
 */
export function fingerprint(path: string, fs: Listing = liveListing): { fp: string; changedAt: number } {
  const s = fs.stat(path);
  // Unreadable (EACCES…): never equal to a cached fingerprint of a readable file.
  if (s === 'error') return { fp: '!', changedAt: 0 };
  return s
    ? { fp: `${s.size}:${s.mtimeMs}:${s.ctimeMs}`, changedAt: Math.max(s.mtimeMs, s.ctimeMs) }
    : { fp: '-', changedAt: 0 };
}

/** The cache for `root`, or an empty one when missing, corrupt, from another avp version or another root. */
export function readCache(cachePath: string, root: string): CacheFile {
  const empty: CacheFile = { format: FORMAT, version: VERSION, root, entries: {} };
  try {
    const data = JSON.parse(readFileSync(cachePath, 'utf8')) as CacheFile;
    if (
      data?.format !== FORMAT ||
      data.version !== VERSION ||
      data.root !== root ||
      typeof data.entries !== 'object' ||
      !data.entries
    )
      return empty;
    return data;
  } catch {
    return empty;
  }
}

/** True when every dependency still has the stats it had when the entry was cached. */
export function entryValid(entry: CacheEntry, files: string[] | undefined, fs: Listing = liveListing): boolean {
  if (files) {
    if (!entry.files || entry.files.length !== files.length) return false;
    for (let i = 0; i < files.length; i++) if (entry.files[i] !== files[i]) return false;
  }
  for (const [path, fp] of Object.entries(entry.deps)) if (fingerprint(path, fs).fp !== fp) return false;
  return true;
}

/** A cache entry for a fresh load result, or undefined when one of its files changed too recently to trust. */
export function makeEntry(result: LoadResult, files: string[] | undefined, now: number): CacheEntry | undefined {
  const deps: Record<string, string> = {};
  for (const path of new Set(result.deps)) {
    const { fp, changedAt } = fingerprint(path);
    if (changedAt > now - RACY_MS) return undefined;
    deps[path] = fp;
  }
  const { validators, errors, warnings } = result;
  return { ...(files ? { files } : {}), deps, result: { validators, errors, warnings } };
}

/** Writes atomically (temp file + rename) so concurrent hook processes never read half a file; failures are ignored. */
export function writeCache(cachePath: string, data: object): void {
  try {
    // A new cache folder gets a `.gitignore` of `*`: `.avp/` is usually committed, its cache never should be.
    if (mkdirSync(dirname(cachePath), { recursive: true }))
      writeFileSync(join(dirname(cachePath), '.gitignore'), '*\n');
    writeFileAtomic(cachePath, JSON.stringify(data));
  } catch {
    // A read-only project or a full disk only costs speed: the next call parses again.
  }
}
