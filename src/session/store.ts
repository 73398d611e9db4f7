/**
 * The per-session state store under `$AVP_HOME/sessions/<project key>/<session>/`: outside the project, so a shell
 * command of the agent (`rm -rf .avp`) cannot wipe what the turn check and the Stop loop guard rely on, and private
 * to the user (directories 0700, files 0600: blobs hold file contents).
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
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { avpHome } from '../paths.ts';
import { writeFileAtomic } from '../os/atomic-write.ts';
import { safeSegment } from './segment.ts';

export { safeSegment } from './segment.ts';

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

/** Session directories and the files in them: readable by the user alone. */
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

/**
 * `$AVP_HOME/sessions/<16 hex of sha256(project root)>`: the project's sessions, keyed like the caches (the root is
 * the real path hook mode resolved).
 */
export function stateRoot(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = Bun.SHA256.hash(projectRoot, 'hex').slice(0, 16);
  return join(avpHome(env), 'sessions', key);
}

export function sessionDir(projectRoot: string, sessionId: string): string {
  return join(stateRoot(projectRoot), safeSegment(sessionId));
}

/** Writes `data` to `path` atomically (os/atomic-write.ts), as session state files are: private (0600). */
export function writeAtomic(path: string, data: string | Uint8Array): void {
  writeFileAtomic(path, data, { mode: PRIVATE_FILE });
}

/** Opens (creating) the session directory. Cheap when it exists. */
export function ensureSessionDir(projectRoot: string, sessionId: string): string {
  const dir = sessionDir(projectRoot, sessionId);
  // Every level created here (`sessions/`, the project's, the session's) is private.
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  return dir;
}

/** Appends records to `events.jsonl` in one write (atomic with respect to other appenders). */
export function appendRecords(dir: string, records: SessionRecord[]): void {
  if (!records.length) return;
  const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const fd = openSync(join(dir, 'events.jsonl'), 'a', PRIVATE_FILE);
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

const blobHash = (bytes: Uint8Array) => Bun.SHA256.hash(bytes, 'hex');

/**
 * Stores `text` as a content-addressed blob and returns its hash, or undefined when it is too big to keep or was
 * flagged by a blocking verdict (`flagContents`).
 */
export function putBlob(dir: string, text: string): string | undefined {
  const bytes = Buffer.from(text);
  if (bytes.length > MAX_BLOB_BYTES) return undefined;
  const hash = blobHash(bytes);
  const blobs = join(dir, 'blobs');
  const path = join(blobs, hash);
  if (existsSync(path)) return hash;
  if (existsSync(join(dir, 'flagged', hash))) return undefined;
  mkdirSync(blobs, { recursive: true, mode: PRIVATE_DIR });
  writeAtomic(path, bytes);
  return hash;
}

/**
 * No secret at rest: contents a blocking verdict judged (a hard-coded key, most often) are removed from the blob store
 * and never stored again in this session — only their digest stays, as an empty `flagged/<sha256>`. A later diff of
 * that file then lacks its before-content; the turn check still sees the file changed.
 */
export function flagContents(dir: string, texts: string[]): void {
  mkdirSync(join(dir, 'flagged'), { recursive: true, mode: PRIVATE_DIR });
  for (const text of texts) {
    const hash = blobHash(Buffer.from(text));
    closeSync(openSync(join(dir, 'flagged', hash), 'a', PRIVATE_FILE));
    rmSync(join(dir, 'blobs', hash), { force: true });
  }
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

/** Removes the session directories under `root` idle for longer than `maxAgeMs`; returns how many. */
function pruneProject(root: string, now: number, maxAgeMs: number): number {
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

/**
 * Removes old session directories — this project's, and those of every other project under `$AVP_HOME/sessions/`
 * (a project never opened again must not keep its sessions, file contents included, for ever; a project folder left
 * with no session goes too). Runs at most once an hour per project (a marker file's mtime says when it last ran), so
 * the hook path pays one `stat` for it. Concurrent pruners are harmless: `rm -rf` of a gone dir is a no-op.
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
  let removed = pruneProject(root, now, maxAgeMs);
  const all = dirname(root);
  for (const name of readdirSync(all)) {
    const other = join(all, name);
    if (other === root || name.startsWith('.')) continue;
    try {
      removed += pruneProject(other, now, maxAgeMs);
      if (readdirSync(other).every((n) => n.startsWith('.'))) rmSync(other, { recursive: true, force: true });
    } catch {
      /* not a folder, or removed by a concurrent pruner */
    }
  }
  return removed;
}
