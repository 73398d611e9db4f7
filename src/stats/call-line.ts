/**
 * The hook-call counter's line and where it goes, without node: built-ins: the full path appends the line to the
 * day's `calls-YYYY-MM-DD.jsonl` (stats/calls.ts), and the hook shortcut, which loads no node: module (node:fs would
 * cost it ~0.8 ms, hook/shortcut/answer.ts), writes it as a small file of its own in `.avp/logs/pending-calls/`, which
 * a full-path call at the turn's edge folds into the day's file (stats/pending-calls.ts). `avp stats` reads both.
 */

/** Paths spelled here, without node:path. The project root is always an absolute, resolved path. */
const SEP = process.platform === 'win32' ? '\\' : '/';
export const logsOf = (root: string) => `${root.endsWith(SEP) ? root.slice(0, -1) : root}${SEP}.avp${SEP}logs`;

/** The folder (in the logs folder) of calls counted by the shortcut and not yet folded into a day's file. */
export const PENDING_CALLS = 'pending-calls';
export const pendingDirOf = (root: string) => `${logsOf(root)}${SEP}${PENDING_CALLS}`;

/** The counter file for a given day (UTC). */
export function callsFile(projectRoot: string, when = new Date()): string {
  return `${logsOf(projectRoot)}${SEP}calls-${when.toISOString().slice(0, 10)}.jsonl`;
}

/**
 * The key that identifies the agent's call: the tool call's `tool_use_id` when the host sends one (so a tool call's
 * PreToolUse and PostToolUse count once), else one key per hook call.
 */
export function callKey(event: { event: string; raw?: unknown }, startedAt: number): string {
  const id = (event.raw as { tool_use_id?: unknown } | undefined)?.tool_use_id;
  if (typeof id === 'string' && id && id.length <= 200) return id;
  return `${event.event}-${process.pid}-${startedAt}`;
}

/** One counted call, as a line of the counter. */
export function callLine(event: string, key: string, when = new Date()): string {
  return `${JSON.stringify({ ts: when.toISOString(), event, call: key })}\n`;
}

/**
 * A pending call's file name: random, so nothing can be planted where the shortcut writes (a link named like a file
 * it writes would have it overwrite the link's target), and two calls never share one.
 */
export const pendingName = () => `${crypto.randomUUID()}.call`;

/** Whether a name in the pending folder is one `pendingName` gives (nothing else there is read or removed). */
export function isPendingName(name: string): boolean {
  // In the function, not the module: the shortcut loads this module and compiles no regular expression.
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.call$/.test(name);
}
