/**
 * Bash change tracking. Agents change files through Bash (`sed -i`, `>` redirects, scripts, `git checkout`), which
 * Write/Edit hooks never see. avp snapshots the project at PreToolUse of Bash (and at SessionStart, as a baseline
 * for when no PreToolUse snapshot exists), compares after the command, and turns the differences into FileChanges
 * with before (from what avp saw earlier, or the git index), after (disk) and a diff — recorded for the turn too.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AvpConfig } from '../config/types.ts';
import type { FileChange, HookEvent } from '../protocol/event.ts';
import { changesBetween } from './compare.ts';
import { knowsContent, readText, rememberContent } from './content.ts';
import { snapshot, type Snapshot } from './fingerprint.ts';
import { PRIVATE_DIR, safeSegment, writeAtomic } from './store.ts';
import { recordChanges } from './turn.ts';

/** At most this many dirty/untracked files have their content stored per snapshot (bounds the cost). */
const REMEMBER_MAX_FILES = 200;
const REMEMBER_MAX_BYTES = 4 * 1024 * 1024;

function snapPath(dir: string, event: HookEvent): string {
  const id = event.toolUseId;
  return id ? join(dir, 'bash', `pre-${safeSegment(id)}.json`) : join(dir, 'bash', 'last.json');
}

/** The loader guarantees an integer ≥ 1 (`trackMaxFiles`, `AVP_TRACK_MAX_FILES`). */
export function maxFiles(config: AvpConfig): number {
  return config.trackMaxFiles;
}

export function saveSnapshot(path: string, snap: Snapshot): void {
  mkdirSync(join(path, '..'), { recursive: true, mode: PRIVATE_DIR });
  writeAtomic(path, JSON.stringify(snap));
}

export function loadSnapshot(path: string): Snapshot | undefined {
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
  const entries = Object.entries(snap.files).map(([rel, e]): [string, number, number] => [join(root, rel), e[0], e[1]]);
  if (snap.mode === 'walk') entries.sort((a, b) => b[2] - a[2]);
  // The exclude files too: if one changes, untracked files are judged by the rules they held here.
  for (const [abs, e] of Object.entries(snap.git?.excludes ?? {})) if (e) entries.unshift([abs, e[0], e[1]]);
  for (const [abs, size, mtime] of entries) {
    if (size < 0 || size > 256 * 1024) continue;
    if (files >= REMEMBER_MAX_FILES || bytes + size > REMEMBER_MAX_BYTES) break;
    if (knowsContent(dir, abs, { size, mtime })) continue;
    const text = readText(abs);
    if (typeof text !== 'string') continue;
    rememberContent(dir, abs, text, { size, mtime });
    files++;
    bytes += size;
  }
}

/** A snapshot of the project, its truncation logged, the contents avp does not know yet remembered. */
export async function takeSnapshot(dir: string, event: HookEvent, config: AvpConfig): Promise<Snapshot> {
  const snap = await snapshot(event.projectRoot, maxFiles(config), dir);
  logTruncation(event.projectRoot, snap, maxFiles(config));
  rememberSnapshot(dir, event.projectRoot, snap);
  return snap;
}

/** SessionStart: the baseline used when a Bash PostToolUse finds no PreToolUse snapshot. Returns the snapshot. */
export async function takeBaseline(dir: string, event: HookEvent, config: AvpConfig): Promise<Snapshot> {
  const snap = await takeSnapshot(dir, event, config);
  saveSnapshot(join(dir, 'bash', 'last.json'), snap);
  return snap;
}

/** PreToolUse of Bash: snapshot the project for this tool call. */
export async function beforeShell(dir: string, event: HookEvent, config: AvpConfig): Promise<void> {
  saveSnapshot(snapPath(dir, event), await takeSnapshot(dir, event, config));
}

/**
 * PostToolUse / PostToolUseFailure of Bash: what the command changed. Compared with this call's PreToolUse
 * snapshot, else with the last known state (SessionStart baseline or the previous Bash call).
 */
export async function afterShell(dir: string, event: HookEvent, config: AvpConfig): Promise<FileChange[]> {
  const prePath = snapPath(dir, event);
  const lastPath = join(dir, 'bash', 'last.json');
  const pre = loadSnapshot(prePath) ?? loadSnapshot(lastPath);
  const post = await snapshot(event.projectRoot, maxFiles(config), dir);
  saveSnapshot(lastPath, post);
  if (prePath !== lastPath) rmSync(prePath, { force: true });
  if (!pre) return [];
  const files = await changesBetween(dir, event.projectRoot, pre, post, maxFiles(config));
  recordChanges(dir, event, files);
  return files;
}
