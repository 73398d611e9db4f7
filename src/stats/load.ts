/** What both `avp stats` and `avp report` start from: the project's logs over the period, with its price table. */
import type { ModelPrice } from '../config/types.ts';
import { loadConfig } from '../config/config.ts';
import { closest } from '../did-you-mean.ts';
import { AvpError } from '../errors.ts';
import { logDir } from '../runner/log.ts';
import { findProjectRoot } from '../paths.ts';
import { readLogs } from './read.ts';
import { parseSince } from './since.ts';
import type { LogData } from './types.ts';

export interface Loaded {
  projectRoot: string;
  data: LogData;
  prices: Record<string, ModelPrice>;
  since?: number;
  config: import('../config/types.ts').AvpConfig;
}

/**
 * Reads the logs of the project around `cwd` since `since` (a `--since` text). `validator` must have runs in the
 * period: a name with none is a mistake worth saying (with the closest name that has runs), not an empty table.
 */
export async function loadPeriod(opts: { cwd: string; since?: string; validator?: string }): Promise<Loaded> {
  const since = opts.since === undefined ? undefined : parseSince(opts.since);
  const projectRoot = findProjectRoot(opts.cwd);
  const config = await loadConfig({ cwd: opts.cwd, projectRoot });
  const data = readLogs(logDir(projectRoot), since ?? 0);
  if (opts.validator && !data.runs.some((r) => r.validator === opts.validator)) {
    const names = new Set(data.runs.map((r) => r.validator));
    const near = closest(opts.validator, names);
    throw new AvpError(
      'usage',
      `no runs of validator "${opts.validator}" in the run log${opts.since ? ` since ${opts.since}` : ''}`,
      {
        fix: near
          ? `did you mean ${near}?`
          : names.size
            ? `validators with runs: ${[...names].sort().slice(0, 20).join(', ')}`
            : 'no validator has run yet in this project (see .avp/logs/)',
      },
    );
  }
  return { projectRoot, data, prices: config.prices, config, ...(since !== undefined ? { since } : {}) };
}

/** Unreadable log lines, for stderr: the count, and the first few by file and line. */
export function skippedNote(data: LogData, projectRoot: string): string | undefined {
  if (!data.skipped.length) return undefined;
  const first = data.skipped
    .slice(0, 3)
    .map(
      (s) =>
        `${s.file.startsWith(projectRoot) ? s.file.slice(projectRoot.length + 1) : s.file}${s.line ? `:${s.line}` : ''}: ${s.reason}`,
    );
  return `skipped ${data.skipped.length} unreadable log line${data.skipped.length === 1 ? '' : 's'} (not counted): ${first.join('; ')}${data.skipped.length > 3 ? '; …' : ''}`;
}
