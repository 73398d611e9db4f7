/**
 * The hook-call counter: one short JSONL line per hook call in `.avp/logs/calls-YYYY-MM-DD.jsonl`, written on every
 * path once validators are installed — also when nothing matched, which the run log never sees. It is the
 * denominator of `avp stats`' "share of the agent's calls a validator added latency to".
 *
 * It is on the hook path, so it is one `appendFileSync` of ~90 bytes (O_APPEND: concurrent hook processes never
 * interleave within a line, no lock needed), then the fold of the calls the hook shortcut counted since, at a turn's
 * edge (stats/pending-calls.ts; mid-turn a count of the folder's names, unless a backlog waits), and nothing else:
 * the folders are made only when missing. bench/stats.ts measures it next to a whole no-match hook call. A line that
 * cannot be written is ignored: counting must never change the hook's answer.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import type { HookEvent } from '../protocol/event.ts';
import { callLine, callsFile, logsOf } from './call-line.ts';
import { isStopTrigger } from '../protocol/trigger.ts';
import { foldPending } from './pending-calls.ts';

/** Appends this call's line and folds the pending ones; never throws. */
export function countCall(event: HookEvent, key: string, when = new Date()): void {
  const line = callLine(event.event, key, when);
  const file = callsFile(event.projectRoot, when);
  try {
    appendFileSync(file, line);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return;
    try {
      const dir = logsOf(event.projectRoot);
      mkdirSync(dir, { recursive: true });
      // A project that never ran `avp init` has no `.avp/.gitignore`: logs stay out of git all the same.
      writeFileSync(`${dir}/.gitignore`, '*\n', { flag: 'wx' });
    } catch {
      // an existing .gitignore, or a folder we cannot make: the append below says which
    }
    try {
      appendFileSync(file, line);
    } catch {
      // not writable: the call goes uncounted, the answer is unchanged
      return;
    }
  }
  const edge = isStopTrigger(event.event) || event.event === 'SessionStart' || event.event === 'SessionEnd';
  foldPending(event.projectRoot, edge ? 'turn-edge' : 'mid-turn');
}
