/**
 * Reads the run logs (`.avp/logs/hook-YYYY-MM-DD.jsonl`) and the hook-call counter (`calls-YYYY-MM-DD.jsonl`, and the
 * calls the hook shortcut counted that no full-path call has folded in yet: `pending-calls/`) of a project back into
 * checked records. The files sit in the project, where the agent can write too, so every field is checked: a line
 * that is not a run (cut short by a crash, hand-edited, forged badly) is skipped and named — file and line — and never
 * stops the rest from being counted.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AvpError } from '../errors.ts';
import type { TokenUsage, Violation } from '../judges/types.ts';
import type { CallRecord, LogData, RunRecord, SkippedLine } from './types.ts';
import { PENDING_CALLS } from './call-line.ts';
import { MAX_PENDING_BYTES, pendingFiles, readPending } from './pending-calls.ts';

/** Longer lines are not runs avp wrote (a run line is a few KiB at most): skipped unread. */
const MAX_LINE = 1024 * 1024;
/** A log file past this size is not read whole into memory: skipped and named. */
const MAX_FILE = 512 * 1024 * 1024;
const STATUSES = new Set(['passed', 'failed', 'error', 'skipped']);
const CACHE = new Set(['hit', 'miss', 'off', 'none']);

const str = (x: unknown, max = 4096): string | undefined => (typeof x === 'string' && x.length <= max ? x : undefined);
const num = (x: unknown): number | undefined => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : undefined);

function tokensOf(x: unknown): TokenUsage | undefined {
  if (!x || typeof x !== 'object') return undefined;
  const t = x as Record<string, unknown>;
  const input = num(t.inputTokens);
  const output = num(t.outputTokens);
  if (input === undefined || output === undefined) return undefined;
  const out: TokenUsage = { inputTokens: input, outputTokens: output };
  if (num(t.cacheReadTokens) !== undefined) out.cacheReadTokens = num(t.cacheReadTokens);
  if (num(t.cacheWriteTokens) !== undefined) out.cacheWriteTokens = num(t.cacheWriteTokens);
  return out;
}

function detailsOf(x: unknown): Violation[] {
  if (!Array.isArray(x)) return [];
  return x
    .filter((v): v is Record<string, unknown> => !!v && typeof v === 'object')
    .slice(0, 1000)
    .map((v) => ({ rule: str(v.rule) ?? '', ...(str(v.file) ? { file: str(v.file) } : {}) }) as Violation);
}

/** One run-log line → a record, or the reason it is not one. */
export function parseRunLine(text: string): RunRecord | string {
  let j: Record<string, unknown>;
  try {
    j = JSON.parse(text);
  } catch {
    return 'not JSON (a line cut short?)';
  }
  if (!j || typeof j !== 'object' || Array.isArray(j)) return 'not a JSON object';
  const ts = typeof j.ts === 'string' ? Date.parse(j.ts) : NaN;
  if (!Number.isFinite(ts)) return 'no valid "ts" time';
  const validator = str(j.validator, 400);
  if (!validator) return 'no "validator" name';
  if (typeof j.status !== 'string' || !STATUSES.has(j.status))
    return '"status" is not passed, failed, error or skipped';
  const durationMs = num(j.durationMs);
  if (durationMs === undefined) return 'no valid "durationMs"';
  const event = str(j.event, 200) ?? '?';
  const judge = str(j.judge, 200);
  const cached = j.cached === true;
  const cache =
    typeof j.cache === 'string' && CACHE.has(j.cache)
      ? (j.cache as RunRecord['cache'])
      : cached
        ? 'hit'
        : !judge || judge.endsWith('script')
          ? 'none'
          : 'miss';
  const files = Array.isArray(j.files) ? j.files.map((f) => str(f)).filter((f): f is string => !!f) : [];
  return {
    ts,
    day: new Date(ts).toISOString().slice(0, 10),
    validator,
    severity: str(j.severity, 20) ?? 'error',
    status: j.status as RunRecord['status'],
    event,
    ...(str(j.tool, 200) ? { tool: str(j.tool, 200) } : {}),
    files: files.slice(0, 1000),
    durationMs,
    // Lines written before calls were keyed: the lines of one call share its time, session and event.
    call: str(j.call, 300) ?? `${str(j.session, 300) ?? ''}|${j.ts}|${event}`,
    ...(judge ? { judge } : {}),
    ...(str(j.model, 200) ? { model: str(j.model, 200) } : {}),
    cache,
    ...(tokensOf(j.tokens) ? { tokens: tokensOf(j.tokens) } : {}),
    details: detailsOf(j.details),
  };
}

function parseCallLine(text: string): CallRecord | string {
  let j: Record<string, unknown>;
  try {
    j = JSON.parse(text);
  } catch {
    return 'not JSON (a line cut short?)';
  }
  const ts = j && typeof j.ts === 'string' ? Date.parse(j.ts) : NaN;
  if (!Number.isFinite(ts)) return 'no valid "ts" time';
  const call = str(j.call, 300);
  if (!call) return 'no "call" key';
  return { ts, day: new Date(ts).toISOString().slice(0, 10), call };
}

/** The lines of one file, each parsed; unreadable ones go to `skipped`. */
function readLines<T extends { ts: number }>(
  file: string,
  parse: (text: string) => T | string,
  since: number,
  skipped: SkippedLine[],
): T[] {
  const size = statSync(file).size;
  if (size > MAX_FILE) {
    skipped.push({ file, line: 0, reason: `larger than ${MAX_FILE / 1024 / 1024} MiB: not read` });
    return [];
  }
  const out: T[] = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((text, i) => {
    if (!text.trim()) return;
    const r = text.length > MAX_LINE ? `longer than ${MAX_LINE} characters` : parse(text);
    if (typeof r === 'string') skipped.push({ file, line: i + 1, reason: r });
    else if (r.ts >= since) out.push(r);
  });
  return out;
}

/** Reads every log file of `logsDir` whose day can hold records at or after `since` (ms; 0 = everything). */
export function readLogs(logsDir: string, since = 0): LogData {
  const data: LogData = { runs: [], calls: [], counted: false, skipped: [], files: [] };
  if (!existsSync(logsDir)) return data;
  if (!statSync(logsDir).isDirectory())
    throw new AvpError('logs-not-a-folder', 'a file stands where avp keeps its run logs and call counter (a folder)', {
      file: logsDir,
      fix: 'move or remove that file; the next hook call makes the folder again',
    });
  const sinceDay = new Date(since).toISOString().slice(0, 10);
  const names = readdirSync(logsDir).sort();
  let firstCalls: string | undefined;
  for (const name of names) {
    const m = /^(hook|calls)-(\d{4}-\d{2}-\d{2})\.jsonl$/.exec(name);
    if (!m || m[2]! < sinceDay) continue;
    const file = join(logsDir, name);
    data.files.push(file);
    if (m[1] === 'hook') data.runs.push(...readLines(file, parseRunLine, since, data.skipped));
    else {
      firstCalls ??= m[2];
      data.calls.push(...readLines(file, parseCallLine, since, data.skipped));
    }
  }
  // All of them, however many wait (a fold on the hook path takes at most 1,024 at a turn's edge, 128 mid-turn).
  for (const file of pendingFiles(join(logsDir, PENDING_CALLS), Infinity)) {
    const read = readPending(file);
    if (read?.text === undefined) {
      if (read) data.skipped.push({ file, line: 0, reason: `larger than ${MAX_PENDING_BYTES} bytes: not read` });
      continue;
    }
    const call = parseCallLine(read.text);
    if (typeof call === 'string') {
      data.skipped.push({ file, line: 1, reason: call });
      continue;
    }
    if (firstCalls === undefined || call.day < firstCalls) firstCalls = call.day;
    if (call.ts >= since) data.calls.push(call);
  }
  // The counter covers the period only if it existed on the first day runs were logged in it.
  const firstRunDay = data.runs.reduce<string | undefined>(
    (d, r) => (d === undefined || r.day < d ? r.day : d),
    undefined,
  );
  data.counted = firstCalls !== undefined && (firstRunDay === undefined || firstCalls <= firstRunDay);
  return data;
}
