/**
 * The per-session state store under `<projectRoot>/.avp/state/<session>/`.
 *
 * Claude Code runs hooks in parallel (several matching handlers, parallel tool calls, sub-agents, parallel sessions
 * in one project), so nothing here does read-modify-write:
 * - `events.jsonl` is append-only; each record is one `write()` on an `O_APPEND` descriptor, small (contents live in
 *   blobs), so concurrent appends never interleave or overwrite each other.
 * - blobs are content-addressed (`blobs/<sha256>`), written to a temp file and renamed: two writers of the same blob
 *   write the same bytes, and a reader never sees half a file.
 * - snapshots and per-path "last seen" records are whole files replaced by temp+rename (last writer wins, which is
 *   the right answer for "the newest fingerprint").
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { projectAvpDir } from '../paths.ts';
import { ensureStateIgnored } from './layout.ts';

/** One line of `events.jsonl`. */
export type SessionRecord =
  | {
      t: 'change';
      ts: number;
      /** Sub-agent that made the change (`agent_id`), absent for the main agent. */
      agent?: string;
      path: string;
      rel: string;
      in: boolean;
      kind: 'create' | 'update' | 'delete';
      /** Content before: a blob hash, `null` when the file did not exist, absent when unknown. */
      before?: string | null;
      /** The tool that made it (`Write`, `Edit`, `Bash`, …). */
      via?: string;
    }
  /** A new turn: a user prompt arrived. */
  | { t: 'turn'; ts: number; reason: string; id?: string }
  /** A Stop/SubagentStop was evaluated (for `agent`, absent = main agent). */
  | { t: 'stop'; ts: number; agent?: string }
  /** avp blocked that Stop: the agent continues within the same turn. `first` = a new series (no stop_hook_active). */
  | { t: 'stop-block'; ts: number; agent?: string; key?: string; first?: boolean }
  /** The Stop passed: the loop guard's counter resets. */
  | { t: 'stop-pass'; ts: number; agent?: string; key?: string }
  /** avp's loop guard let a Stop through although validators still failed, after `blocks` blocks. */
  | { t: 'stop-released'; ts: number; agent?: string; key?: string; blocks?: number };

/** Session ids come from the host; keep them safe as one path segment. */
export function safeSegment(id: string): string {
  const s = id.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_');
  return s.slice(0, 128) || '_';
}

export function stateRoot(projectRoot: string): string {
  return join(projectAvpDir(projectRoot), 'state');
}

export function sessionDir(projectRoot: string, sessionId: string): string {
  return join(stateRoot(projectRoot), safeSegment(sessionId));
}

let tmpCounter = 0;
/** A temp name unique across processes (pid) and within one (counter). */
function tmpName(path: string): string {
  return `${path}.tmp-${process.pid}-${Date.now().toString(36)}-${(tmpCounter++).toString(36)}`;
}

/** Writes `data` to `path` atomically: temp file in the same directory, then rename. */
export function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = tmpName(path);
  const fd = openSync(tmp, 'w', 0o644);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Opens (creating) the session directory. Cheap when it exists. */
export function ensureSessionDir(projectRoot: string, sessionId: string): string {
  const dir = sessionDir(projectRoot, sessionId);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    ensureStateIgnored(stateRoot(projectRoot));
  }
  return dir;
}

/** Appends records to `events.jsonl` in one write (atomic with respect to other appenders). */
export function appendRecords(dir: string, records: SessionRecord[]): void {
  if (!records.length) return;
  const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const fd = openSync(join(dir, 'events.jsonl'), 'a', 0o644);
  try {
    writeSync(fd, Buffer.from(text));
  } finally {
    closeSync(fd);
  }
}

/** Reads `events.jsonl`; a torn last line (a writer killed mid-write) is skipped, never fatal. */
export function readRecords(dir: string): SessionRecord[] {
  let text: string;
  try {
    text = readFileSync(join(dir, 'events.jsonl'), 'utf8');
  } catch {
    return [];
  }
  const out: SessionRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      out.push(JSON.parse(line) as SessionRecord);
    } catch {
      /* a partial line from a killed writer */
    }
  }
  return out;
}

/** Largest content kept in the blob store (bigger files get no before/after text, only their change kind). */
export const MAX_BLOB_BYTES = 512 * 1024;

/** Stores `text` as a content-addressed blob and returns its hash, or undefined when it is too big to keep. */
export function putBlob(dir: string, text: string): string | undefined {
  const bytes = Buffer.from(text);
  if (bytes.length > MAX_BLOB_BYTES) return undefined;
  const hash = new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
  const blobs = join(dir, 'blobs');
  const path = join(blobs, hash);
  if (existsSync(path)) return hash;
  mkdirSync(blobs, { recursive: true });
  writeAtomic(path, bytes);
  return hash;
}

export function getBlob(dir: string, hash: string): string | undefined {
  try {
    return readFileSync(join(dir, 'blobs', hash), 'utf8');
  } catch {
    return undefined;
  }
}

/** Session directories untouched for longer than this are removed (by any hook call, at most once an hour). */
export const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 3600 * 1000;

/**
 * Removes old session directories. Runs at most once an hour per project (a marker file's mtime says when it last
 * ran), so the hook path pays one `stat` for it. Concurrent pruners are harmless: `rm -rf` of a gone dir is a no-op.
 */
export function pruneSessions(projectRoot: string, now = Date.now(), maxAgeMs = SESSION_MAX_AGE_MS): number {
  const root = stateRoot(projectRoot);
  const marker = join(root, '.pruned');
  try {
    if (now - statSync(marker).mtimeMs < PRUNE_EVERY_MS) return 0;
  } catch {
    if (!existsSync(root)) return 0;
  }
  writeAtomic(marker, String(now));
  let removed = 0;
  for (const name of readdirSync(root)) {
    if (name.startsWith('.')) continue;
    const dir = join(root, name);
    try {
      const st = statSync(dir);
      if (!st.isDirectory()) continue;
      // events.jsonl is appended on activity; the directory mtime covers sessions that only have snapshots.
      let last = st.mtimeMs;
      try {
        last = Math.max(last, statSync(join(dir, 'events.jsonl')).mtimeMs);
      } catch {
        /* no events yet */
      }
      if (now - last > maxAgeMs) {
        rmSync(dir, { recursive: true, force: true });
        removed++;
      }
    } catch {
      /* removed by a concurrent pruner */
    }
  }
  return removed;
}
