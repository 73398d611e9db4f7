/**
 * How the validators folders are seen: directory listings and file stats. Hook mode compares the control files
 * with the accepted state and then discovers validators in the same folders; with one `snapshotListing()` shared by
 * both, each folder is listed and each file stat'ed once per hook call instead of twice (the listings were most of
 * the accepted-state check's cost). Everything else reads the disk live (`liveListing`).
 *
 * A snapshot is a point in time: discovery then judges its parse cache against exactly the stats the accepted-state
 * check approved. Contents are never kept here; whoever reads a file reads it from disk.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import type { StatResult } from '../os/stat-print.ts';

export { seenPrint, type StatResult } from '../os/stat-print.ts';

export interface Listing {
  /** The entries of `dir` in name order (`[]` when it cannot be read). The array is shared: do not change it. */
  entries(dir: string): readonly Dirent[];
  /** `statSync` (symlinks followed) without throwing. */
  stat(path: string): StatResult;
  /**
   * A snapshot's record of what it saw: every path stat'ed and every folder listed (stat'ed before it was read), with
   * its stat — what a conclusion drawn from this listing depends on (the hook memo). A fresh map each call.
   */
  seen?(): Map<string, StatResult>;
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

/**
 * Listings and stats read once and remembered: one hook call's view of the folders. A folder is stat'ed before it
 * is read, so a change between the two shows in its recorded stat, never hides behind it.
 */
export function snapshotListing(): Listing {
  const dirs = new Map<string, Dirent[]>();
  const stats = new Map<string, StatResult>();
  const dirStats = new Map<string, StatResult>();
  return {
    entries(dir) {
      let list = dirs.get(dir);
      if (!list) {
        dirStats.set(dir, stats.get(dir) ?? readStat(dir));
        dirs.set(dir, (list = readEntries(dir)));
      }
      return list;
    },
    stat(path) {
      let s = stats.get(path);
      if (s === undefined) stats.set(path, (s = readStat(path)));
      return s;
    },
    seen() {
      // A folder's stat from before its listing wins over a later one: the listing is what was seen.
      return new Map([...stats, ...dirStats]);
    },
  };
}
