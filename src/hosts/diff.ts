/**
 * Unified diffs for file changes. Claude Code hands us most of what we need (`structuredPatch` hunks, the whole
 * `originalFile`), so the common cases are formatted here without a diff algorithm; only when both sides are known
 * and no hunks were given is the `diff` package loaded (lazily: it is never on the no-match path).
 */

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
  const lines = splitLines(after);
  if (!lines.length) return header(relPath, null, after);
  return `${header(relPath, null, after)}@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join('\n')}\n`;
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
  if (before === null && after !== null) return diffForCreate(relPath, after);
  if (after === null && before !== null) return diffForDelete(relPath, before);
  if (before === null || after === null) return header(relPath, before, after);
  if (before === after) return '';
  const { structuredPatch } = await import('diff');
  const patch = structuredPatch(`a/${relPath}`, `b/${relPath}`, before, after, '', '', { context: CONTEXT });
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

/**
 * Applies Edit-tool replacements to `text` the way Claude Code does: each `old_string` must occur; without
 * `replace_all` only the first occurrence is replaced. Returns undefined when an `old_string` is not found (the
 * caller then falls back to what it knows, never guesses).
 */
export function applyEdits(text: string, edits: Edit[]): string | undefined {
  let out = text;
  for (const e of edits) {
    if (e.old_string === '') {
      // An empty old_string on an empty file is how the Edit tool creates content.
      if (out !== '') return undefined;
      out = e.new_string;
      continue;
    }
    const at = out.indexOf(e.old_string);
    if (at < 0) return undefined;
    out = e.replace_all
      ? out.split(e.old_string).join(e.new_string)
      : out.slice(0, at) + e.new_string + out.slice(at + e.old_string.length);
  }
  return out;
}
