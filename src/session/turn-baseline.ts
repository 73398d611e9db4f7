/**
 * The turn's baseline: a snapshot taken when a turn begins (in git: HEAD, the staged entries, the dirty set and the
 * exclude files; outside git: every file's fingerprint). At Stop the project is compared with it, so the main agent's
 * Stop sees every file the turn changed — also through processes avp never saw (a background job, an editor, a tool
 * without a hook) and through git (committed, staged, hidden behind a new ignore rule) — not only what hooks reported.
 *
 * A turn begins at UserPromptSubmit (and SessionStart), or at the first event after a main-agent Stop that avp did not
 * block: that Stop leaves a `turn/stopped` mark, and the next event takes a new baseline unless the Stop was blocked.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AvpConfig } from '../config/types.ts';
import type { FileChange, HookEvent } from '../protocol/event.ts';
import { loadSnapshot, maxFiles, saveSnapshot, takeSnapshot } from './bash.ts';
import { changesBetween } from './compare.ts';
import { snapshot, type Snapshot } from './fingerprint.ts';
import { readRecords, type SessionRecord } from './store.ts';

const baselinePath = (dir: string) => join(dir, 'turn', 'baseline.json');
const stoppedPath = (dir: string) => join(dir, 'turn', 'stopped');

/** A new turn: snapshot the project (or use `snap`, just taken) as its baseline. */
export async function beginTurn(dir: string, event: HookEvent, config: AvpConfig, snap?: Snapshot): Promise<void> {
  saveSnapshot(baselinePath(dir), snap ?? (await takeSnapshot(dir, event, config)));
  rmSync(stoppedPath(dir), { force: true });
}

/** A main-agent Stop was evaluated: the next event decides whether the turn ended (see `continueOrBegin`). */
export function markStopped(dir: string): void {
  mkdirSync(join(dir, 'turn'), { recursive: true });
  writeFileSync(stoppedPath(dir), String(Date.now()));
}

/** True when the main agent's last Stop was blocked by avp (the agent continues in the same turn). */
export function lastStopBlocked(records: SessionRecord[]): boolean {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if (r.t !== 'stop' && r.t !== 'stop-block' && r.t !== 'stop-pass' && r.t !== 'stop-released') continue;
    if (r.agent !== undefined) continue;
    return r.t === 'stop-block';
  }
  return false;
}

/**
 * Called for every event of a session while a Stop validator is installed; costs one `stat` unless a Stop was just
 * evaluated. After an unblocked Stop the turn is over: a new baseline is taken before the event changes anything.
 */
export async function continueOrBegin(dir: string, event: HookEvent, config: AvpConfig): Promise<void> {
  if (!existsSync(stoppedPath(dir))) return;
  if (lastStopBlocked(readRecords(dir))) rmSync(stoppedPath(dir), { force: true });
  else await beginTurn(dir, event, config);
}

/** Every file that differs from the turn's baseline now; undefined when the turn has no baseline. */
export async function baselineChanges(
  dir: string,
  event: HookEvent,
  config: AvpConfig,
): Promise<FileChange[] | undefined> {
  const base = loadSnapshot(baselinePath(dir));
  if (!base) return undefined;
  const now = await snapshot(event.projectRoot, maxFiles(config));
  return changesBetween(dir, event.projectRoot, base, now, maxFiles(config));
}

/**
 * The turn's files from hook records and from the baseline, one per path. The baseline's view wins (it knows the
 * turn's starting point, also for changes no hook reported), unless it does not know the earlier content and a record
 * does.
 */
export function mergeTurnFiles(recorded: FileChange[], fromBaseline: FileChange[]): FileChange[] {
  // Keyed by the project-relative path: a symlinked project root must not make one file two.
  const byPath = new Map(recorded.map((f) => [f.relPath, f]));
  for (const f of fromBaseline) {
    const r = byPath.get(f.relPath);
    if (!r || f.before !== undefined || r.before === undefined) byPath.set(f.relPath, f);
  }
  return [...byPath.values()];
}
