/**
 * The turn's baseline: a snapshot taken when a turn begins (in git: HEAD, the staged entries, the dirty set and the
 * exclude files; outside git: every file's fingerprint). At Stop the project is compared with it, so the main agent's
 * Stop sees every file the turn changed — also through processes avp never saw (a background job, an editor, a tool
 * without a hook) and through git (committed, staged, hidden behind a new ignore rule) — not only what hooks reported.
 *
 * A turn begins at UserPromptSubmit (and SessionStart), or at the first event after a main-agent Stop that avp did not
 * block: that Stop leaves a `turn/stopped` mark, and the next event takes a new baseline unless the Stop was blocked.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { AvpConfig } from '../config/types.ts';
import type { FileChange, HookEvent } from '../protocol/event.ts';
import { loadSnapshot, maxFiles, saveSnapshot, takeSnapshot } from './bash.ts';
import { changesBetween } from './compare.ts';
import { readText } from './content.ts';
import { snapshot, type Snapshot } from './fingerprint.ts';
import { excludesFileOf } from './git-state.ts';
import { ignoredPaths, type StartRules } from './ignore-rules.ts';
import { PRIVATE_DIR, PRIVATE_FILE, readRecords, writeAtomic, type SessionRecord } from './store.ts';

const baselinePath = (dir: string) => join(dir, 'turn', 'baseline.json');
const rulesPath = (dir: string) => join(dir, 'turn', 'rules.json');
const stoppedPath = (dir: string) => join(dir, 'turn', 'stopped');

/**
 * The ignore rules at the turn's start that git cannot give back later: the exclude files outside the working tree
 * (`core.excludesFile` as it points now), every `.gitignore` that is dirty, untracked or ignored (a clean one is read
 * from the baseline's HEAD), and what git ignores, so a Stop sees any path ignored since. Kept whole with the
 * baseline, because the "last seen" content of a file is replaced by every later snapshot: without this copy, a rule
 * added in one Bash call would be taken for the turn's own and hide a file written in the next.
 */
export async function startRules(root: string, snap: Snapshot, max: number): Promise<StartRules> {
  const texts: StartRules['texts'] = {};
  if (!snap.git) return { texts };
  const [excludesFile, ignored] = await Promise.all([excludesFileOf(root, snap.git.top), ignoredPaths(root, max)]);
  const keep = (abs: string) => {
    const text = readText(abs);
    if (text !== undefined) texts[abs] = text;
  };
  for (const abs of [...Object.keys(snap.git.excludes), excludesFile]) keep(abs);
  for (const rel of [...Object.keys(snap.files), ...(ignored ?? [])])
    if (basename(rel) === '.gitignore') keep(join(root, rel));
  return { texts, excludesFile, ...(ignored ? { ignored } : {}) };
}

/** A new turn: snapshot the project (or use `snap`, just taken) as its baseline, with its ignore rules. */
export async function beginTurn(dir: string, event: HookEvent, config: AvpConfig, snap?: Snapshot): Promise<void> {
  const base = snap ?? (await takeSnapshot(dir, event, config));
  saveSnapshot(baselinePath(dir), base);
  writeAtomic(rulesPath(dir), JSON.stringify(await startRules(event.projectRoot, base, maxFiles(config))));
  rmSync(stoppedPath(dir), { force: true });
}

/** The kept start rules; a file from before `texts` (a plain path → text map) is read as texts only. */
function loadRules(dir: string): StartRules | undefined {
  try {
    const rules = JSON.parse(readFileSync(rulesPath(dir), 'utf8'));
    if (!rules || typeof rules !== 'object' || Array.isArray(rules)) return undefined;
    return rules.texts && typeof rules.texts === 'object' ? (rules as StartRules) : { texts: rules };
  } catch {
    return undefined;
  }
}

/** A main-agent Stop was evaluated: the next event decides whether the turn ended (see `continueOrBegin`). */
export function markStopped(dir: string): void {
  mkdirSync(join(dir, 'turn'), { recursive: true, mode: PRIVATE_DIR });
  writeFileSync(stoppedPath(dir), String(Date.now()), { mode: PRIVATE_FILE });
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
  const now = await snapshot(event.projectRoot, maxFiles(config), dir);
  return changesBetween(dir, event.projectRoot, base, now, maxFiles(config), loadRules(dir));
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
