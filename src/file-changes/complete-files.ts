/**
 * Completes the file changes of an event once validators are known to see it: before a tool runs (PreToolUse,
 * PermissionRequest) an agent sends only the proposal (an edit, a patch), so the current content is read from disk and
 * the edit is applied to it; after an Edit the result is rebuilt from the original and the edits; when both sides are
 * known but no hunks came with the event, the diff is computed. Never on the no-match path.
 *
 * Hostile input: edits can grow a text exponentially (each `replace_all` doubling it), so the rebuild is bounded in
 * size, work and time (`EDIT_BOUNDS`, the call's deadline). Past a bound the change is marked `unavailable` and the
 * validators that would look at it get a validator error (fail closed), never a verdict on a guess.
 */
import { statSync } from 'node:fs';
import { readRegularText } from '../os/read-regular.ts';
import { applyPatchSection } from './patch.ts';
import type { FileChange, HookEvent } from '../protocol/event.ts';
import { applyEditsBounded, diffTextsWithin, EDIT_BOUNDS, hasDiff, setCreateDiff, toolEdits } from './diff.ts';
import { isEvent } from '../protocol/trigger.ts';

/** Files larger than this are not read into the prompt (validators still see the path and the proposed edit). */
const MAX_READ_BYTES = 2 * 1024 * 1024;

/**
 * A file's text as it is now: null when it does not exist, undefined when it is not a file or too large to read.
 * Read synchronously (node:fs is loaded anyway; node:fs/promises would cost ~0.6 ms more to load) and opened without
 * blocking, so a named pipe swapped in after the stat is refused instead of holding the call (os/read-regular.ts).
 */
export function readCurrent(path: string): string | null | undefined {
  try {
    // A missing file is common (a Write that creates one): asked without a thrown ENOENT.
    const s = statSync(path, { throwIfNoEntry: false });
    if (!s) return null;
    if (!s.isFile() || s.size > MAX_READ_BYTES) return undefined;
    return readRegularText(path);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

/**
 * An insert or append (Cline's `editor` and Kiro's `fs_write` with `insert_line`, Kiro's `append`): no `old_string`,
 * only the text to add and where. Line N means after the file's N-th line (0: at the top).
 */
function insertedInto(
  before: string,
  input: Record<string, unknown>,
): { after?: string; unavailable?: string } | undefined {
  const text = input.new_string;
  if (typeof text !== 'string' || typeof input.old_string === 'string') return undefined;
  const line = typeof input.insert_line === 'number' ? input.insert_line : Number.NaN;
  const append = input.command === 'append';
  if (!append && !(Number.isInteger(line) && line >= 0)) return undefined;
  if (before.length + text.length > EDIT_BOUNDS.maxChars)
    return { unavailable: 'the file with the inserted text is too large' };
  if (append) return { after: before === '' || before.endsWith('\n') ? before + text : `${before}\n${text}` };
  const lines = before.split('\n');
  const at = Math.min(line, lines.length);
  return { after: [...lines.slice(0, at), ...text.split('\n'), ...lines.slice(at)].join('\n') };
}

/** The content after the proposed change; `unavailable` says why it could not be rebuilt within the bounds. */
function proposedAfter(
  event: HookEvent,
  before: string,
  deadline: number | undefined,
): { after?: string; unavailable?: string } {
  const input = event.toolInput ?? {};
  if (event.tool === 'Write') return typeof input.content === 'string' ? { after: input.content } : {};
  const inserted = insertedInto(before, input);
  if (inserted !== undefined) return inserted;
  const edits = toolEdits(event.tool, input);
  if (!edits) return {};
  const r = applyEditsBounded(before, edits, { ...EDIT_BOUNDS, ...(deadline !== undefined ? { deadline } : {}) });
  if ('text' in r) return { after: r.text };
  return 'tooLarge' in r ? { unavailable: r.tooLarge } : {};
}

/**
 * A patched file (`change.patch`): before a patch applies, the current content and what the patch makes of it; after,
 * the content on disk. A patch that does not apply to the file keeps the patch's own lines as the diff.
 */
async function completePatch(event: HookEvent, change: FileChange, deadline: number | undefined): Promise<FileChange> {
  const next = { ...change };
  if (isEvent(event, 'PostToolUse')) {
    const current = readCurrent(next.path);
    if (typeof current === 'string') next.after = current;
    return next;
  }
  const current = readCurrent(next.movedFrom ?? next.path);
  if (typeof current !== 'string') return next;
  next.before = current;
  const after = applyPatchSection(current, next.patch!);
  if (after === undefined) return next;
  next.after = after;
  const diff = await diffTextsWithin(
    next.relPath,
    current,
    after,
    deadline === undefined ? undefined : deadline - Date.now(),
  );
  if (diff !== undefined) next.diff = diff;
  return next;
}

async function complete(event: HookEvent, change: FileChange, deadline: number | undefined): Promise<FileChange> {
  if (change.patch !== undefined) return completePatch(event, change, deadline);
  const isEdit = event.tool === 'Edit' || event.tool === 'MultiEdit';
  // An Edit's hunks give the diff, but validators also read `after`: rebuild it whenever the original is known.
  const rebuild = isEdit && typeof change.before === 'string' && change.after === undefined;
  if (hasDiff(change) && !rebuild) return change;
  const next = { ...change };
  const pending = !isEvent(event, 'PostToolUse');
  if (pending && next.before === undefined && event.tool !== 'NotebookEdit') {
    const current = readCurrent(next.path);
    if (current !== undefined) {
      next.before = current;
      if (current === null) next.kind = 'create';
    }
  }
  if (typeof next.before === 'string' || (next.before === null && pending)) {
    if (next.after === undefined) {
      const { after, unavailable } = proposedAfter(event, next.before ?? '', deadline);
      if (after !== undefined) next.after = after;
      if (unavailable !== undefined) next.unavailable = unavailable;
    }
  }
  if (hasDiff(next) || next.before === undefined || next.after === undefined) return next;
  // A created file's diff is its whole text again: built when something reads it (diff.ts `setCreateDiff`).
  if (next.before === null && next.after !== null) {
    setCreateDiff(next, next.relPath, next.after);
    return next;
  }
  const diff = await diffTextsWithin(
    next.relPath,
    next.before,
    next.after,
    deadline === undefined ? undefined : deadline - Date.now(),
  );
  if (diff !== undefined) next.diff = diff;
  else next.unavailable = "computing the change's diff ran out of the hook call's time";
  return next;
}

/**
 * Returns the event with `before`/`after`/`diff` filled where they can be known, within `deadline` (epoch ms, the
 * call's budget). Never throws for unreadable files; marks a change `unavailable` when a bound stopped its rebuild.
 */
export async function completeFileChanges(event: HookEvent, deadline?: number): Promise<HookEvent> {
  if (!event.files.length) return event;
  return { ...event, files: await Promise.all(event.files.map((f) => complete(event, f, deadline))) };
}
