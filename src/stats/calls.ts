/**
 * The hook-call counter: one short JSONL line per hook call in `.avp/logs/calls-YYYY-MM-DD.jsonl`, written on every
 * path once validators are installed — also when nothing matched, which the run log never sees. It is the
 * denominator of `avp stats`' "share of the agent's calls a validator added latency to".
 *
 * It is on the hook path, so it is one `appendFileSync` of ~90 bytes (O_APPEND: concurrent hook processes never
 * interleave within a line, no lock needed) and nothing else: node:fs only, the folder made only when missing.
 * bench/stats.ts measures it next to a whole no-match hook call. A line that cannot be written is ignored: counting
 * must never change the hook's answer.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import type { HookEvent } from '../protocol/event.ts';

/**
 * Paths spelled here, without node:path: the hook shortcut counts its calls through this module and loads no more
 * than node:fs for it. The project root is always an absolute, resolved path.
 */
const SEP = process.platform === 'win32' ? '\\' : '/';
const logsOf = (root: string) => `${root.endsWith(SEP) ? root.slice(0, -1) : root}${SEP}.avp${SEP}logs`;

/**
 * The key that identifies the agent's call: the tool call's `tool_use_id` when the host sends one (so a tool call's
 * PreToolUse and PostToolUse count once), else one key per hook call.
 */
export function callKey(event: HookEvent, startedAt: number): string {
  const id = event.raw?.tool_use_id;
  if (typeof id === 'string' && id && id.length <= 200) return id;
  return `${event.event}-${process.pid}-${startedAt}`;
}

/** The counter file for a given day (UTC). */
export function callsFile(projectRoot: string, when = new Date()): string {
  return `${logsOf(projectRoot)}${SEP}calls-${when.toISOString().slice(0, 10)}.jsonl`;
}

/** Appends this call's line; never throws. */
export function countCall(event: HookEvent, key: string, when = new Date()): void {
  const line = `${JSON.stringify({ ts: when.toISOString(), event: event.event, call: key })}\n`;
  const file = callsFile(event.projectRoot, when);
  try {
    appendFileSync(file, line);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return;
    try {
      const dir = logsOf(event.projectRoot);
      mkdirSync(dir, { recursive: true });
      // A project that never ran `avp init` has no `.avp/.gitignore`: logs stay out of git all the same.
      writeFileSync(`${dir}${SEP}.gitignore`, '*\n', { flag: 'wx' });
    } catch {
      // an existing .gitignore, or a folder we cannot make: the append below says which
    }
    try {
      appendFileSync(file, line);
    } catch {
      // not writable: the call goes uncounted, the answer is unchanged
    }
  }
}
