/**
 * How one changed file is shown to a judge: the unified diff with 3 lines of context for an update (never the whole
 * file, never twice), the numbered content for a new file up to a cap (then a truncation notice), a note for a
 * deletion.
 */
import { createTwoFilesPatch } from 'diff';
import type { FileChange } from '../protocol/event.ts';

const KB = (n: number) => `${Math.round(n / 100) / 10} KB`;

/** `text` cut to `max` characters with a notice saying how much was shown. */
export function clip(text: string, max: number, hint: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… truncated: ${KB(max)} of ${KB(text.length)} shown${hint ? `; ${hint}` : ''}]`;
}

/** The last `max` characters (the end of command output is what matters). */
export function clipTail(text: string, max: number): string {
  if (text.length <= max) return text;
  return `[… ${KB(text.length - max)} earlier output not shown]\n${text.slice(-max)}`;
}

/** Content with 1-based line numbers (`  12| code`), so the judge can cite lines without counting. */
export function numbered(text: string, maxBytes: number): string {
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  const width = String(lines.length).length;
  const out: string[] = [];
  let size = 0;
  for (const [i, line] of lines.entries()) {
    const row = `${String(i + 1).padStart(width)}| ${line}`;
    if (size + row.length + 1 > maxBytes) {
      out.push(
        `[… truncated: lines ${i + 1}-${lines.length} not shown (${KB(text.length)} file, ${KB(maxBytes)} cap); read the file for the rest]`,
      );
      break;
    }
    out.push(row);
    size += row.length + 1;
  }
  return out.join('\n');
}

/** The unified diff of a change: the host's when given, else computed from before/after. */
export function diffOf(change: FileChange): string | undefined {
  if (change.diff) return change.diff;
  if (typeof change.before !== 'string' || typeof change.after !== 'string') return undefined;
  const patch = createTwoFilesPatch(
    `a/${change.relPath}`,
    `b/${change.relPath}`,
    change.before,
    change.after,
    undefined,
    undefined,
    {
      context: 3,
    },
  );
  return patch.replace(/^=+\n/, '');
}

/** The section describing one changed file, at most about `cap` characters. */
export function changeSection(change: FileChange, cap: number): string {
  const where = change.inProject ? '' : ', outside the project';
  if (change.kind === 'delete' || change.after === null) return `file: ${change.relPath} (deleted${where})`;
  if (typeof change.after === 'string' && change.after.slice(0, 8000).includes('\u0000')) {
    return `file: ${change.relPath} (${change.kind}, binary content not shown${where})`;
  }
  const isNew = change.kind === 'create' || change.before === null;
  if (isNew && typeof change.after === 'string') {
    const n = change.after === '' ? 0 : change.after.split('\n').length - (change.after.endsWith('\n') ? 1 : 0);
    return [
      `file: ${change.relPath} (new file, ${n} lines${where})`,
      'content (numbered lines):',
      numbered(change.after, cap),
    ].join('\n');
  }
  const diff = diffOf(change);
  if (diff !== undefined) {
    const body = /^@@/m.test(diff) ? clip(diff, cap, 'read the file for the rest of the diff') : '(no textual change)';
    return [`file: ${change.relPath} (updated${where})`, 'diff:', body].join('\n');
  }
  if (typeof change.after === 'string') {
    return [
      `file: ${change.relPath} (updated${where}; no diff available)`,
      'content after the change (numbered lines):',
      numbered(change.after, cap),
    ].join('\n');
  }
  return `file: ${change.relPath} (${change.kind}${where}; content not available: read the file)`;
}
