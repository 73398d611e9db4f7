/** Builds `avp report`'s page for a period and writes it (atomically: a half-written report never replaces one). */
import { mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AvpError } from '../errors.ts';
import { computeStats } from '../stats/aggregate.ts';
import type { Loaded } from '../stats/load.ts';
import { reportHtml } from './html.ts';
import { reportSeries } from './series.ts';
import { writeFileAtomic } from '../os/atomic-write.ts';

/** The page for the loaded period. */
export function buildReport(loaded: Loaded, now = new Date()): string {
  const stats = computeStats(loaded.data, loaded.prices, { since: loaded.since });
  return reportHtml(
    stats,
    reportSeries(loaded.data.runs, loaded.prices),
    now.toISOString(),
    basename(loaded.projectRoot),
  );
}

/** Writes `html` to `path` through a temporary file in the same folder. */
export function writeReport(path: string, html: string): void {
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
    throw new AvpError('usage', `--out ${path} is a folder`, {
      fix: `name a file, e.g. --out ${join(path, 'report.html')}`,
    });
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, html, { hidden: true });
}
