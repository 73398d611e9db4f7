/**
 * Unified diffs for file changes. Claude Code hands us most of what we need (`structuredPatch` hunks, the whole
 * `originalFile`), so the common cases are formatted here without a diff algorithm; only when both sides are known
 * and no hunks were given is the `diff` package loaded (lazily: it is never on the no-match path).
 */
import type { FileChange } from '../protocol/event.ts';
import { lazyProperty } from './lazy.ts';

/** One hunk as Claude Code's Write/Edit responses carry it. */
export interface PatchHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Lines of context around each change, as `git diff` does. */
const CONTEXT = 3;

function header(relPath: string, before: string | null | undefined, after: string | null | undefined): string {
  const a = before === null ? '/dev/null' : `a/${relPath}`;
  const b = after === null ? '/dev/null' : `b/${relPath}`;
  return `--- ${a}\n+++ ${b}\n`;
}

/** `"a\nb\n"` → `["a", "b"]`; a missing final newline is kept as an empty last element by `split`, so drop it. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** True when `value` looks like Claude Code's `structuredPatch` (an array of hunks with line arrays). */
export function isPatchHunks(value: unknown): value is PatchHunk[] {
  return (
    Array.isArray(value) &&
    value.every(
      (h) =>
        h !== null &&
        typeof h === 'object' &&
        typeof (h as PatchHunk).oldStart === 'number' &&
        typeof (h as PatchHunk).newStart === 'number' &&
        Array.isArray((h as PatchHunk).lines),
    )
  );
}

/** Formats Claude Code's hunks as a unified diff over `relPath`. */
export function diffFromHunks(relPath: string, hunks: PatchHunk[], created = false): string {
  let out = header(relPath, created ? null : '', '');
  for (const h of hunks) {
    out += `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n`;
    for (const line of h.lines) out += `${String(line)}\n`;
  }
  return out;
}

/** The diff of a file that did not exist before (every line added) — no algorithm needed. */
export function diffForCreate(relPath: string, after: string): string {
  if (after === '') return header(relPath, null, after);
  // The lines of `after` (a final newline ends the last one), each with `+`: one native replace, not an array of
  // lines mapped and joined again (a 1 MB file written by the agent is 16,000 lines).
  const body = after.endsWith('\n') ? after.slice(0, -1) : after;
  let count = 1;
  for (let at = body.indexOf('\n'); at >= 0; at = body.indexOf('\n', at + 1)) count++;
  return `${header(relPath, null, after)}@@ -0,0 +1,${count} @@\n+${body.replaceAll('\n', '\n+')}\n`;
}

/**
 * Gives a created file's change its diff as a property built the first time it is read. That diff is the whole text
 * again, one `+` per line (a 1 MB file written, 1 MB more of diff): a call where nothing reads it (no validator
 * matched, or only one that reads paths, a path rule) never builds it. The property is enumerable like a plain one,
 * so JSON, spreads and copies read it and get the text; assigning it makes it a plain value.
 */
export function setCreateDiff(change: FileChange, relPath: string, after: string): void {
  lazyProperty(change, 'diff', () => diffForCreate(relPath, after));
}

/** Whether `change` has a diff, without building one that is built when read (`setCreateDiff`). */
export function hasDiff(change: FileChange): boolean {
  const own = Object.getOwnPropertyDescriptor(change, 'diff');
  return !!own && (own.get !== undefined || own.value !== undefined);
}

/** The diff of a deleted file (every line removed). */
export function diffForDelete(relPath: string, before: string): string {
  const lines = splitLines(before);
  if (!lines.length) return header(relPath, before, null);
  return `${header(relPath, before, null)}@@ -1,${lines.length} +0,0 @@\n${lines.map((l) => `-${l}`).join('\n')}\n`;
}

/**
 * A unified diff between two known contents. Loads the `diff` package on first use (a few ms), so callers on the
 * hot path only ask for it once validators are known to run.
 */
export async function diffTexts(relPath: string, before: string | null, after: string | null): Promise<string> {
  return (await diffTextsWithin(relPath, before, after))!;
}

/**
 * `diffTexts` with the algorithm bounded by `timeoutMs` (its cost grows with size times difference): undefined when
 * it gave up. Without `timeoutMs` it always answers.
 */
export async function diffTextsWithin(
  relPath: string,
  before: string | null,
  after: string | null,
  timeoutMs?: number,
): Promise<string | undefined> {
  if (before === null && after !== null) return diffForCreate(relPath, after);
  if (after === null && before !== null) return diffForDelete(relPath, before);
  if (before === null || after === null) return header(relPath, before, after);
  if (before === after) return '';
  const { structuredPatch } = await import('diff');
  const patch =
    timeoutMs === undefined
      ? structuredPatch(`a/${relPath}`, `b/${relPath}`, before, after, '', '', { context: CONTEXT })
      : structuredPatch(`a/${relPath}`, `b/${relPath}`, before, after, '', '', {
          context: CONTEXT,
          timeout: Math.max(1, timeoutMs),
        });
  if (!patch) return undefined;
  return diffFromHunks(
    relPath,
    patch.hunks.map((h) => ({ ...h, lines: h.lines.filter((l) => !l.startsWith('\\')) })),
  );
}

/** One replacement of Claude Code's Edit tool (MultiEdit carries a list of them in `edits`). */
export interface Edit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/** The replacements an Edit or MultiEdit tool input asks for; undefined for another tool or a malformed input. */
export function toolEdits(tool: string | undefined, input: Record<string, unknown>): Edit[] | undefined {
  const list = tool === 'MultiEdit' ? input.edits : tool === 'Edit' ? [input] : undefined;
  if (!Array.isArray(list)) return undefined;
  const edits: Edit[] = [];
  for (const e of list) {
    if (e === null || typeof e !== 'object' || typeof e.old_string !== 'string' || typeof e.new_string !== 'string')
      return undefined;
    edits.push({ old_string: e.old_string, new_string: e.new_string, replace_all: e.replace_all === true });
  }
  return edits;
}

/** How far rebuilding an edited file may go before it is given up (a validator error, never a guess or a pass). */
export interface EditBounds {
  /** Largest text any step may produce (UTF-16 units). */
  maxChars: number;
  /** Total characters scanned and built over all steps: many edits on a large text cost too. */
  maxWork: number;
  /** Epoch ms after which the rebuild stops (the hook call's budget). */
  deadline?: number;
}

/** Past any file a validator can read in full (files over 2 MiB are not read), far below what stalls the hook. */
export const EDIT_BOUNDS: EditBounds = { maxChars: 8 * 1024 * 1024, maxWork: 64 * 1024 * 1024 };

export type EditResult = { text: string } | { missing: true } | { tooLarge: string };

/** Occurrences of `needle` in `text`, stopping once the count alone proves the result too large. */
function countUpTo(text: string, needle: string, limit: number): number {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0 && n <= limit; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

/**
 * Applies Edit-tool replacements to `text` the way Claude Code does: each `old_string` must occur; without
 * `replace_all` only the first occurrence is replaced. `{ missing }` when an `old_string` is not found (the caller
 * then falls back to what it knows, never guesses); `{ tooLarge }` when a step would exceed `bounds` — checked before
 * the step is built, so a doubling `replace_all` chain never allocates its result.
 */
export function applyEditsBounded(text: string, edits: Edit[], bounds: EditBounds = EDIT_BOUNDS): EditResult {
  let out = text;
  let work = 0;
  for (const [i, e] of edits.entries()) {
    if (bounds.deadline !== undefined && Date.now() > bounds.deadline)
      return { tooLarge: `rebuilding the edited file ran out of time at edit ${i + 1} of ${edits.length}` };
    if (e.old_string === '') {
      // An empty old_string on an empty file is how the Edit tool creates content.
      if (out !== '') return { missing: true };
      out = e.new_string;
      continue;
    }
    const at = out.indexOf(e.old_string);
    if (at < 0) return { missing: true };
    const growth = e.new_string.length - e.old_string.length;
    const room = Math.floor((bounds.maxChars - out.length) / Math.max(1, growth));
    const count = e.replace_all ? countUpTo(out, e.old_string, growth > 0 ? room : Infinity) : 1;
    const size = out.length + count * growth;
    work += out.length + size;
    if (size > bounds.maxChars || work > bounds.maxWork) {
      return {
        tooLarge:
          size > bounds.maxChars
            ? `edit ${i + 1} of ${edits.length} would make the file over ${bounds.maxChars} characters`
            : `the ${edits.length} edits take more than ${bounds.maxWork} characters of work to rebuild`,
      };
    }
    out = e.replace_all
      ? out.split(e.old_string).join(e.new_string)
      : out.slice(0, at) + e.new_string + out.slice(at + e.old_string.length);
  }
  return { text: out };
}

/** `applyEditsBounded` for callers that only care about a result: undefined when missing or over the bounds. */
export function applyEdits(text: string, edits: Edit[], bounds: EditBounds = EDIT_BOUNDS): string | undefined {
  const r = applyEditsBounded(text, edits, bounds);
  return 'text' in r ? r.text : undefined;
}
