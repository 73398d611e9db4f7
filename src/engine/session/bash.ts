/**
 * Bash change tracking. Agents change files through Bash (`sed -i`, `>` redirects, scripts, `git checkout`), which
 * Write/Edit hooks never see. avp snapshots the project at PreToolUse of Bash (and at SessionStart, as a baseline
 * for when no PreToolUse snapshot exists), compares after the command, and turns the differences into FileChanges
 * with before (from what avp saw earlier, or the git index), after (disk) and a diff — recorded for the turn too.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AvpConfig } from '../../config-types.ts';
import type { FileChange, HookEvent } from '../../event.ts';
import { changeBetween, knowsContent, readText, recallBlob, rememberContent } from './content.ts';
import { compareSnapshots, snapshot, type PathChange, type Snapshot } from './fingerprint.ts';
import { getBlob, safeSegment, writeAtomic } from './store.ts';
import { recordChanges } from './turn.ts';

/** At most this many dirty/untracked files have their content stored per snapshot (bounds the cost). */
const REMEMBER_MAX_FILES = 200;
const REMEMBER_MAX_BYTES = 4 * 1024 * 1024;
/** At most this many changed files get a before from the git index per command (a `git checkout .` can touch all). */
const INDEX_MAX_FILES = 200;

function snapPath(dir: string, event: HookEvent): string {
  const id = typeof event.raw?.tool_use_id === 'string' ? event.raw.tool_use_id : undefined;
  return id ? join(dir, 'bash', `pre-${safeSegment(id)}.json`) : join(dir, 'bash', 'last.json');
}

/** The loader guarantees an integer ≥ 1 (`trackMaxFiles`, `AVP_TRACK_MAX_FILES`). */
function maxFiles(config: AvpConfig): number {
  return config.trackMaxFiles;
}

function saveSnapshot(path: string, snap: Snapshot): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeAtomic(path, JSON.stringify(snap));
}

function loadSnapshot(path: string): Snapshot | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  } catch {
    return undefined;
  }
}

/** Notes a truncated snapshot in `.avp/logs/tracking.jsonl` (people read it; the hook's stdout stays clean). */
function logTruncation(root: string, snap: Snapshot, limit: number): void {
  if (!snap.truncated) return;
  try {
    const logs = join(root, '.avp', 'logs');
    mkdirSync(logs, { recursive: true });
    const line = {
      ts: new Date().toISOString(),
      what: 'bash-tracking-truncated',
      mode: snap.mode,
      limit,
      fix: 'raise trackMaxFiles, or ignore generated files in .gitignore',
    };
    appendFileSync(join(logs, 'tracking.jsonl'), `${JSON.stringify(line)}\n`);
  } catch {
    /* logging is best-effort */
  }
}

/**
 * Stores the contents of the snapshot's files avp does not know yet (dirty and untracked files in git mode: the
 * index does not hold their content), so a later change shows a real before. Bounded in files and bytes.
 */
function rememberSnapshot(dir: string, root: string, snap: Snapshot): void {
  let files = 0;
  let bytes = 0;
  // Outside git every file is in the snapshot: the most recently modified ones are the likeliest to change next.
  const entries = Object.entries(snap.files);
  if (snap.mode === 'walk') entries.sort((a, b) => b[1][1] - a[1][1]);
  for (const [rel, [size, mtime]] of entries) {
    if (size < 0 || size > 256 * 1024) continue;
    if (files >= REMEMBER_MAX_FILES || bytes + size > REMEMBER_MAX_BYTES) break;
    const abs = join(root, rel);
    if (knowsContent(dir, abs, { size, mtime })) continue;
    const text = readText(abs);
    if (typeof text !== 'string') continue;
    rememberContent(dir, abs, text, { size, mtime });
    files++;
    bytes += size;
  }
}

async function take(dir: string, event: HookEvent, config: AvpConfig): Promise<Snapshot> {
  const snap = await snapshot(event.projectRoot, maxFiles(config));
  logTruncation(event.projectRoot, snap, maxFiles(config));
  rememberSnapshot(dir, event.projectRoot, snap);
  return snap;
}

/** SessionStart: the baseline used when a Bash PostToolUse finds no PreToolUse snapshot. */
export async function takeBaseline(dir: string, event: HookEvent, config: AvpConfig): Promise<void> {
  saveSnapshot(join(dir, 'bash', 'last.json'), await take(dir, event, config));
}

/** PreToolUse of Bash: snapshot the project for this tool call. */
export async function beforeShell(dir: string, event: HookEvent, config: AvpConfig): Promise<void> {
  saveSnapshot(snapPath(dir, event), await take(dir, event, config));
}

/** Contents of index blobs (`git cat-file --batch`), for files that matched the index before the command. */
function indexContents(root: string, rels: string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (!rels.length) return out;
  const proc = Bun.spawnSync(['git', 'cat-file', '--batch'], {
    cwd: root,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    // `:./path` is relative to the working directory (the project root may be a sub-folder of the repository).
    stdin: Buffer.from(rels.map((r) => `:./${r}`).join('\n') + '\n'),
    stdout: 'pipe',
    stderr: 'ignore',
  });
  const buf = proc.stdout as Buffer;
  let off = 0;
  for (const rel of rels) {
    const nl = buf.indexOf(10, off);
    if (nl < 0) break;
    const header = buf.subarray(off, nl).toString();
    off = nl + 1;
    const m = /^[0-9a-f]+ blob (\d+)$/.exec(header);
    if (!m) continue; // "<object> missing"
    const size = Number(m[1]);
    const body = buf.subarray(off, off + size);
    off += size + 1;
    if (size <= 512 * 1024 && !body.includes(0)) out.set(rel, body.toString('utf8'));
  }
  return out;
}

async function toFileChanges(dir: string, root: string, changes: PathChange[]): Promise<FileChange[]> {
  const fromIndex = indexContents(
    root,
    changes
      .filter((c) => c.wasClean)
      .slice(0, INDEX_MAX_FILES)
      .map((c) => c.rel),
  );
  const out: FileChange[] = [];
  for (const c of changes) {
    const abs = join(root, c.rel);
    let before: string | null | undefined;
    if (c.kind === 'create') before = null;
    else if (c.wasClean) before = fromIndex.get(c.rel);
    else if (c.pre && c.pre[0] >= 0) {
      const blob = recallBlob(dir, abs, { size: c.pre[0], mtime: c.pre[1] });
      before = blob ? getBlob(dir, blob) : undefined;
    }
    // None when the file was only touched, or created and removed by the same command.
    const change = await changeBetween(abs, c.rel, true, before, c.kind === 'delete' ? null : readText(abs));
    if (change) out.push(change);
  }
  return out;
}

/**
 * PostToolUse / PostToolUseFailure of Bash: what the command changed. Compared with this call's PreToolUse
 * snapshot, else with the last known state (SessionStart baseline or the previous Bash call).
 */
export async function afterShell(dir: string, event: HookEvent, config: AvpConfig): Promise<FileChange[]> {
  const prePath = snapPath(dir, event);
  const lastPath = join(dir, 'bash', 'last.json');
  const pre = loadSnapshot(prePath) ?? loadSnapshot(lastPath);
  const post = await snapshot(event.projectRoot, maxFiles(config));
  saveSnapshot(lastPath, post);
  if (prePath !== lastPath) rmSync(prePath, { force: true });
  if (!pre) return [];
  const files = await toFileChanges(dir, event.projectRoot, compareSnapshots(event.projectRoot, pre, post));
  recordChanges(dir, event, files);
  return files;
}
