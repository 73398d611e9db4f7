/**
 * The patch format of Codex's `apply_patch` (also Factory Droid's `ApplyPatch`): one patch, several files, each
 * added, deleted or updated (and perhaps moved). avp reads it to know which files a call changes and rebuilds the
 * content after it, so validators see a patch the way they see a Write or an Edit:
 *
 *     *** Begin Patch
 *     *** Add File: src/a.ts        (every following line starts with "+")
 *     *** Delete File: old.txt
 *     *** Update File: src/b.ts
 *     *** Move to: src/c.ts         (optional)
 *     @@ optional context line
 *      context / -removed / +added
 *     *** End Patch
 *
 * Parsing is linear in the patch; rebuilding an updated file is bounded (`MAX_WORK`), and a patch that does not
 * apply yields no after-content (the validators see the patch's own lines as the diff instead) rather than a guess.
 */

export interface PatchOp {
  kind: 'add' | 'delete' | 'update';
  /** As the patch names it (relative to the agent's cwd, or absolute). */
  path: string;
  moveTo?: string;
  /** Add: the new file's content. Update: the section's hunk lines (`@@`, ` `, `-`, `+`). */
  body: string;
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
/** Line comparisons spent rebuilding one file before avp gives up (a hostile patch must not stall the hook). */
const MAX_WORK = 20_000_000;

/**
 * The patch text of a shell command that runs `apply_patch` (Codex sends its patches as `apply_patch <<'PATCH' …
 * PATCH` shell calls when the model has no patch tool), or undefined when the command is anything else.
 */
export function patchFromShell(command: string): string | undefined {
  const m =
    /^\s*(?:cd\s+\S+\s*&&\s*)?apply_patch\s+(?:<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1\s*\n([\s\S]*)$|(['"])([\s\S]*)\4\s*$)/.exec(
      command,
    );
  if (!m) return undefined;
  if (m[5] !== undefined) return m[5];
  const [, , tag, rest] = m;
  const lines = rest!.split('\n');
  const end = lines.findIndex((l) => l.trim() === tag);
  return (end >= 0 ? lines.slice(0, end) : lines).join('\n');
}

/** The file operations of a patch; undefined when the text is not a patch (no `*** Begin Patch` line). */
export function parsePatch(text: string): PatchOp[] | undefined {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const start = lines.findIndex((l) => l.trim() === BEGIN);
  if (start < 0) return undefined;
  const ops: PatchOp[] = [];
  let current: (PatchOp & { lines: string[] }) | undefined;
  const close = () => {
    if (!current) return;
    const { lines: body, ...op } = current;
    op.body = op.kind === 'add' ? addedContent(body) : body.join('\n');
    ops.push(op);
    current = undefined;
  };
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    const header = /^\*\*\* (Add|Delete|Update) File: (.+)$/.exec(line);
    if (header) {
      close();
      const kind = header[1] === 'Add' ? 'add' : header[1] === 'Delete' ? 'delete' : 'update';
      current = { kind, path: header[2]!.trim(), body: '', lines: [] };
      continue;
    }
    if (line.trim() === END) break;
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move && current?.kind === 'update') current.moveTo = move[1]!.trim();
    else if (current && line !== '*** End of File') current.lines.push(line);
  }
  close();
  return ops;
}

function addedContent(lines: string[]): string {
  const kept = lines.filter((l) => l.startsWith('+')).map((l) => l.slice(1));
  return kept.length ? `${kept.join('\n')}\n` : '';
}

interface Chunk {
  old: string[];
  next: string[];
}

function chunksOf(body: string): Chunk[] {
  const chunks: Chunk[] = [];
  let cur: Chunk = { old: [], next: [] };
  const lines = body.split('\n');
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    if (line.startsWith('@@')) {
      if (cur.old.length || cur.next.length) chunks.push(cur);
      cur = { old: [], next: [] };
    } else if (line.startsWith('-')) cur.old.push(line.slice(1));
    else if (line.startsWith('+')) cur.next.push(line.slice(1));
    else if (line.startsWith(' ') || line === '') {
      cur.old.push(line.slice(1));
      cur.next.push(line.slice(1));
    }
  }
  if (cur.old.length || cur.next.length) chunks.push(cur);
  return chunks;
}

/**
 * The content after an update section, or undefined when a chunk's lines are not found in order (the patch does
 * not apply to this content) or rebuilding would cost more than `MAX_WORK` comparisons.
 */
export function applyPatchSection(before: string, body: string): string | undefined {
  const endsWithNewline = before.endsWith('\n');
  const lines = (endsWithNewline ? before.slice(0, -1) : before).split('\n');
  if (before === '') lines.length = 0;
  let cursor = 0;
  let work = 0;
  for (const chunk of chunksOf(body)) {
    const old = chunk.old;
    if (!old.length) {
      lines.push(...chunk.next);
      cursor = lines.length;
      continue;
    }
    let at = -1;
    for (const same of [(a: string, b: string) => a === b, (a: string, b: string) => a.trimEnd() === b.trimEnd()]) {
      for (let i = cursor; i + old.length <= lines.length && at < 0; i++) {
        let j = 0;
        while (j < old.length && same(lines[i + j]!, old[j]!)) j++;
        work += j + 1;
        if (work > MAX_WORK) return undefined;
        if (j === old.length) at = i;
      }
      if (at >= 0) break;
    }
    if (at < 0) return undefined;
    lines.splice(at, old.length, ...chunk.next);
    cursor = at + chunk.next.length;
  }
  const text = lines.join('\n');
  return endsWithNewline || (before === '' && text !== '') ? `${text}\n` : text;
}

/** A unified-diff-shaped text from the section itself, for when the file's content is not known. */
export function sectionDiff(relPath: string, body: string): string {
  const lines = body.split('\n').map((l) => (l.startsWith('@@') ? '@@ @@' : l));
  if (!lines.length || !lines[0]!.startsWith('@@')) lines.unshift('@@ @@');
  return `--- a/${relPath}\n+++ b/${relPath}\n${lines.join('\n')}\n`;
}
