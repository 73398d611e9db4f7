/**
 * Completes the file changes of an event once validators are known to see it: before a tool runs (PreToolUse,
 * PermissionRequest) Claude Code sends only the proposal, so the current content is read from disk and the edit is
 * applied to it; when both sides are known but no hunks came with the event, the diff is computed. Never on the
 * no-match path.
 */
import { readFile, stat } from 'node:fs/promises';
import type { FileChange, HookEvent } from '../event.ts';
import { applyEdits, diffTexts, toolEdits } from './diff.ts';

/** Files larger than this are not read into the prompt (validators still see the path and the proposed edit). */
const MAX_READ_BYTES = 2 * 1024 * 1024;

async function readCurrent(path: string): Promise<string | null | undefined> {
  try {
    const s = await stat(path);
    if (!s.isFile() || s.size > MAX_READ_BYTES) return undefined;
    return await readFile(path, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

function proposedAfter(event: HookEvent, before: string): string | undefined {
  const input = event.toolInput ?? {};
  if (event.tool === 'Write') return typeof input.content === 'string' ? input.content : undefined;
  const edits = toolEdits(event.tool, input);
  return edits && applyEdits(before, edits);
}

async function complete(event: HookEvent, change: FileChange): Promise<FileChange> {
  if (change.diff !== undefined) return change;
  const next = { ...change };
  const pending = event.event !== 'PostToolUse';
  if (pending && next.before === undefined && event.tool !== 'NotebookEdit') {
    const current = await readCurrent(next.path);
    if (current !== undefined) {
      next.before = current;
      if (current === null) next.kind = 'create';
      const after = proposedAfter(event, current ?? '');
      if (after !== undefined) next.after = after;
    }
  }
  if (next.before !== undefined && next.after !== undefined)
    next.diff = await diffTexts(next.relPath, next.before, next.after);
  return next;
}

/** Returns the event with `before`/`after`/`diff` filled where they can be known. Never throws for unreadable files. */
export async function completeFileChanges(event: HookEvent): Promise<HookEvent> {
  if (!event.files.length || !event.files.some((f) => f.diff === undefined)) return event;
  return { ...event, files: await Promise.all(event.files.map((f) => complete(event, f))) };
}
