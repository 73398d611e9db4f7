/**
 * How the validators folders are seen: directory listings and file stats. Hook mode compares the control files
 * with the accepted state and then discovers validators in the same folders; with one `snapshotListing()` shared by
 * both, each folder is listed and each file stat'ed once per hook call instead of twice (the listings were most of
 * the accepted-state check's cost). Everything else reads the disk live (`liveListing`).
 *
 * A snapshot is a point in time: discovery then judges its parse cache against exactly the stats the accepted-state
 * check approved. Contents are never kept here; whoever reads a file reads it from disk.
 */
import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';

/** A stat: the file's `Stats`, `null` when it does not exist, `'error'` when it cannot be stat'ed (EACCES, ELOOP…). */
export type StatResult = Stats | null | 'error';

export interface Listing {
  /** The entries of `dir` in name order (`[]` when it cannot be read). The array is shared: do not change it. */
  entries(dir: string): readonly Dirent[];
  /** `statSync` (symlinks followed) without throwing. */
  stat(path: string): StatResult;
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function readEntries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort(byName);
  } catch {
    return [];
  }
}

function readStat(path: string): StatResult {
  // throwIfNoEntry: a missing file is a normal state here, and a thrown ENOENT costs ~10× a stat.
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return 'error';
  }
}

/** The disk as it is at each call. */
export const liveListing: Listing = { entries: readEntries, stat: readStat };

/** Listings and stats read once and remembered: one hook call's view of the folders. */
export function snapshotListing(): Listing {
  const dirs = new Map<string, Dirent[]>();
  const stats = new Map<string, StatResult>();
  return {
    entries(dir) {
      let list = dirs.get(dir);
      if (!list) dirs.set(dir, (list = readEntries(dir)));
      return list;
    },
    stat(path) {
      let s = stats.get(path);
      if (s === undefined) stats.set(path, (s = readStat(path)));
      return s;
    },
  };
}
