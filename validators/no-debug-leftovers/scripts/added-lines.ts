/**
 * The lines a change ADDED, from avp's normalized HookEvent: the `+` lines of each file's unified diff, or every line
 * of a created file; without `files[]` (a PreToolUse event, or an older engine), the tool input. Shared by the catalog
 * script validators: each validator directory carries its own copy (a validator is installed alone), and a test keeps
 * the copies identical.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

export interface FileChange {
  path?: string;
  relPath?: string;
  kind?: 'create' | 'update' | 'delete';
  before?: string | null;
  after?: string | null;
  diff?: string;
}
export interface HookEvent {
  event?: string;
  tool?: string;
  toolInput?: Record<string, unknown>;
  projectRoot?: string;
  cwd?: string;
  files?: FileChange[];
}
export interface Violation {
  rule: string;
  file?: string;
  line?: number;
  snippet?: string;
  suggestion?: string;
  message?: string;
}
export interface Verdict {
  passed: boolean;
  violations: Violation[];
  summary: string;
}
/** One added line; `line` is its number in the file after the change (unknown when only a fragment is known). */
export interface Added {
  line?: number;
  text: string;
}

/** `+` lines of a unified diff, numbered in the AFTER file. */
function fromDiff(diff: string): Added[] {
  const out: Added[] = [];
  let next = 0;
  let inHunk = false;
  for (const l of diff.split('\n')) {
    const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (h) {
      next = Number(h[1]);
      inHunk = true;
    } else if (!inHunk) continue;
    else if (l.startsWith('+')) out.push({ line: next++, text: l.slice(1) });
    else if (l.startsWith(' ') || l === '') next++;
  }
  return out;
}

const numbered = (text: string, first = 1): Added[] => text.split('\n').map((t, i) => ({ line: first + i, text: t }));

/** Lines of `after` that `before` did not have (multiset difference), when no diff was given. */
function lineSetDiff(before: string, after: string): Added[] {
  const seen = new Map<string, number>();
  for (const l of before.split('\n')) seen.set(l, (seen.get(l) ?? 0) + 1);
  return numbered(after).filter((a) => {
    const n = seen.get(a.text) ?? 0;
    if (n > 0) seen.set(a.text, n - 1);
    return n === 0;
  });
}

/** Line (1-based) at which `needle` starts in the file on disk, when the event carries no file list. */
function lineOnDisk(path: string, needle: string): number | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    const at = text.indexOf(needle);
    return at < 0 ? undefined : text.slice(0, at).split('\n').length;
  } catch {
    return undefined;
  }
}

/** What the tool input itself says was written (Write content, Edit/MultiEdit new strings, NotebookEdit source). */
function fromToolInput(event: HookEvent, root: string): { path: string; added: Added[]; after?: string } | undefined {
  const input = event.toolInput ?? {};
  const path = String(input.file_path ?? input.notebook_path ?? '');
  if (!path) return undefined;
  const abs = isAbsolute(path) ? path : join(root, path);
  if (typeof input.content === 'string') return { path: abs, added: numbered(input.content), after: input.content };
  const pieces: string[] = [];
  if (typeof input.new_string === 'string') pieces.push(input.new_string);
  if (typeof input.new_source === 'string') pieces.push(input.new_source);
  if (Array.isArray(input.edits))
    for (const e of input.edits) if (typeof e?.new_string === 'string') pieces.push(e.new_string);
  const onDisk = existsSync(abs);
  const added = pieces.flatMap((p) => {
    const first = onDisk ? lineOnDisk(abs, p) : undefined;
    return first === undefined ? p.split('\n').map((text) => ({ text })) : numbered(p, first);
  });
  return { path: abs, added };
}

/**
 * The files and added lines of an event. A file the engine lists without content (a NotebookEdit, an engine that
 * sends paths only) falls back to the tool input when it names that file; no `files[]` at all falls back likewise.
 */
export function changes(event: HookEvent): Array<{ file: string; added: Added[]; after?: string }> {
  const root = event.projectRoot ?? event.cwd ?? process.cwd();
  const rel = (p: string) => (isAbsolute(p) && p.startsWith(root + '/') ? p.slice(root.length + 1) : p);
  const fallback = () => fromToolInput(event, root);
  if (event.files?.length) {
    return event.files.map((f) => {
      const file = f.relPath ?? rel(f.path ?? '');
      if (f.kind === 'delete' || f.after === null) return { file, added: [] };
      if (typeof f.diff === 'string' && f.diff.includes('@@'))
        return { file, added: fromDiff(f.diff), after: f.after ?? undefined };
      if (typeof f.after === 'string') {
        const added = typeof f.before === 'string' ? lineSetDiff(f.before, f.after) : numbered(f.after);
        return { file, added, after: f.after };
      }
      const input = fallback();
      // Named by its absolute path or by its project path (an engine may send either alone).
      const same =
        input && (input.path === f.path || (f.relPath !== undefined && input.path === join(root, f.relPath)));
      return same ? { file, added: input.added, after: input.after } : { file, added: [] };
    });
  }
  const input = fallback();
  return input ? [{ file: rel(input.path), added: input.added, after: input.after }] : [];
}
