/**
 * Turn tracking: which files the agent changed since the turn began, for Stop/SubagentStop validators.
 *
 * The turn model (documented in docs/sessions-and-setup.md):
 * - a turn begins at UserPromptSubmit, or after a Stop of the main agent that avp did not block (a Stop that avp
 *   blocked makes the agent continue, so its next changes belong to the same turn);
 * - a sub-agent's turn (SubagentStop with a sub-agent id) holds only that sub-agent's changes since its last unblocked
 *   SubagentStop; the main agent's Stop sees every change of the turn, the sub-agents' included;
 * - a file changed several times counts once: `before` is the first known content in the turn, `after` is what is
 *   on disk now, and the diff is between the two. A file that ends as it began is left out.
 */
import type { FileChange, HookEvent } from '../protocol/event.ts';
import { changeBetween, readText, rememberContent } from './content.ts';
import { appendRecords, getBlob, putBlob, readRecords, type SessionRecord } from './store.ts';

/** The sub-agent an event comes from (its adapter's `subagentId`), undefined for the main agent. */
export function agentOf(event: HookEvent): string | undefined {
  return event.subagentId || undefined;
}

/** Records the changes a tool event made, and remembers their after-contents for later Bash comparisons. */
export function recordChanges(dir: string, event: HookEvent, files: FileChange[]): void {
  const agent = agentOf(event);
  const records: SessionRecord[] = [];
  for (const f of files) {
    let before: string | null | undefined;
    if (f.before === null) before = null;
    else if (typeof f.before === 'string') before = putBlob(dir, f.before);
    records.push({
      t: 'change',
      ts: Date.now(),
      ...(agent ? { agent } : {}),
      path: f.path,
      rel: f.relPath,
      in: f.inProject,
      kind: f.kind,
      ...(before !== undefined ? { before } : {}),
      ...(event.tool ? { via: event.tool } : {}),
    });
    if (typeof f.after === 'string') rememberContent(dir, f.path, f.after);
  }
  appendRecords(dir, records);
}

/**
 * The change records of the current turn for `agent` (undefined = the main agent, whose turn includes its
 * sub-agents' changes). Pure over the record list, so it is unit-testable without files.
 */
export function turnChanges(
  records: SessionRecord[],
  agent: string | undefined,
): Array<Extract<SessionRecord, { t: 'change' }>> {
  let start = 0;
  // A Stop that was not followed by a block for the same agent ends the turn once anything else happens.
  let pendingStop: number | undefined;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const mine =
      (r.t === 'stop' || r.t === 'stop-block' || r.t === 'stop-pass' || r.t === 'stop-released') && r.agent === agent;
    if (r.t === 'turn' && agent === undefined) {
      start = i + 1;
      pendingStop = undefined;
    } else if (mine && r.t === 'stop') {
      pendingStop = i;
    } else if (mine && r.t === 'stop-block') {
      pendingStop = undefined;
    } else if (pendingStop !== undefined && !mine) {
      start = pendingStop + 1;
      pendingStop = undefined;
    }
  }
  // A second Stop with nothing in between: the previous one passed, so this turn is empty.
  if (pendingStop !== undefined) start = pendingStop + 1;
  const out: Array<Extract<SessionRecord, { t: 'change' }>> = [];
  for (let i = start; i < records.length; i++) {
    const r = records[i]!;
    if (r.t !== 'change') continue;
    if (agent !== undefined && r.agent !== agent) continue;
    out.push(r);
  }
  return out;
}

/** Every file changed in the turn, with before (first known), after (disk now) and a unified diff. */
export async function turnFiles(dir: string, event: HookEvent): Promise<FileChange[]> {
  const changes = turnChanges(readRecords(dir), agentOf(event));
  const firsts = new Map<string, Extract<SessionRecord, { t: 'change' }>>();
  for (const c of changes) if (!firsts.has(c.path)) firsts.set(c.path, c);
  const files: FileChange[] = [];
  for (const first of firsts.values()) {
    const before = first.before === null ? null : first.before === undefined ? undefined : getBlob(dir, first.before);
    // None when the file ends as it began, or was created and deleted again within the turn.
    const change = await changeBetween(first.path, first.rel, first.in, before, readText(first.path));
    if (change) files.push(change);
  }
  return files;
}

/**
 * Marks a new turn (a user prompt). With the agent's turn id (`turnId`), a prompt event repeating the current
 * turn's id is not a new turn — Qwen Code fires UserPromptSubmit before every model call of one turn, including the
 * continuation after a blocked Stop, which must not reset the turn's files nor the Stop loop guard. Returns whether
 * a turn began.
 */
export function startTurn(dir: string, reason: string, id?: string): boolean {
  if (id !== undefined) {
    const records = readRecords(dir);
    for (let i = records.length - 1; i >= 0; i--) {
      const r = records[i]!;
      if (r.t !== 'turn') continue;
      if (r.id === id) return false;
      break;
    }
  }
  appendRecords(dir, [{ t: 'turn', ts: Date.now(), reason, ...(id !== undefined ? { id } : {}) }]);
  return true;
}
