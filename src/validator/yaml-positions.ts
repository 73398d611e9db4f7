/**
 * File positions from a parsed frontmatter document (the `yaml` package keeps every node's source offsets; its
 * LineCounter turns an offset into a line and column): where a key path is, and which of yaml's errors to report
 * where. The YAML source starts right after the opening `---`, so its line N is file line N.
 */
import { isMap, isScalar, isSeq, visit, type Document, type LineCounter, type Node, type YAMLError } from 'yaml';
import type { Problem } from './frontmatter.ts';

type Position = { line: number; column: number };

/** The file position of a source offset. */
export function positionOf(lines: LineCounter, offset: number): Position {
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
}

/**
 * Position of a key path such as `['match', 'tools', 1]`: a key's value when it starts on the key's line, else the
 * key; a list entry itself. A path that leaves the document stops at the deepest position found, else line 2
 * column 1 (the first frontmatter line).
 */
export function locateIn(doc: Document, lines: LineCounter, path: ReadonlyArray<string | number>): Position {
  let best: Position = { line: 2, column: 1 };
  let node: unknown = doc.contents;
  for (const seg of path) {
    let next: Node | null | undefined;
    if (typeof seg === 'number' && isSeq(node)) {
      next = node.items[seg] as Node | undefined;
      if (!next?.range) return best;
      best = positionOf(lines, next.range[0]);
    } else if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      const key = pair?.key as Node | undefined;
      if (!pair || !key?.range) return best;
      next = pair.value as Node | null;
      const keyAt = positionOf(lines, key.range[0]);
      const valueAt = next?.range && next.range[1] > next.range[0] ? positionOf(lines, next.range[0]) : undefined;
      best = valueAt?.line === keyAt.line ? valueAt : keyAt;
    } else {
      return best;
    }
    node = next;
  }
  return best;
}

/** The aliases (`*name`) of a document, in source order. */
export function aliasesOf(doc: Document): Node[] {
  const out: Node[] = [];
  visit(doc, { Alias: (_key, node) => void out.push(node) });
  return out.sort((a, b) => a.range![0] - b.range![0]);
}

const GENERIC_FIX = 'fix the YAML syntax at this line (quote values containing `: `, `#`, `[` or `{`)';
const FIXES: Record<string, string> = {
  DUPLICATE_KEY: 'keep one of the two keys (YAML reads only one of them)',
  TAG_RESOLVE_FAILED: 'remove the `!tag`: frontmatter holds plain strings, numbers, booleans, lists and mappings',
};

/**
 * The problem to report for yaml's errors and warnings (a warning is an unknown `!tag`, which js-yaml-era avp also
 * refused). yaml reports where its grammar broke, which is not always where the author slipped: three kinds are
 * moved to the author's line.
 */
export function yamlProblem(doc: Document, lines: LineCounter, source: string, errors: YAMLError[]): Problem {
  const error = (at: Position, message: string, fix: string): Problem => ({ ...at, message, fix, level: 'error' });
  // A tab in the indentation is the cause of whatever else yaml reports after it.
  const tab = errors.find((e) => e.code === 'TAB_AS_INDENT');
  if (tab) {
    const at = positionOf(lines, tab.pos[0]);
    const key = /^\s*([\w.-]+)\s*:/.exec(source.split('\n')[at.line - 1] ?? '')?.[1];
    return error(
      at,
      `indented with a tab: YAML does not read tabs as indentation${key ? `, so \`${key}\` would not be nested under the key above it` : ''}`,
      'indent with spaces (two per level)',
    );
  }
  const first = errors[0]!;
  if (first.code === 'RESOURCE_EXHAUSTION') {
    // yaml composes nested collections recursively and reports the stack running out as this error.
    return error(
      positionOf(lines, first.pos[0]),
      'frontmatter YAML nests deeper than 64 levels',
      'write the values out instead of nesting lists and mappings',
    );
  }
  // An unclosed quote is only noticed at the end of the stream: point at the quote that opened it.
  if (first.code === 'MISSING_CHAR' && /quote/.test(first.message)) {
    let open: number | undefined;
    visit(doc, {
      Scalar: (_key, node) => {
        const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
        if (quoted && node.range && node.range[0] < first.pos[0] && node.range[1] >= first.pos[0]) open = node.range[0];
      },
    });
    return error(
      positionOf(lines, open ?? first.pos[0]),
      `invalid YAML: the quoted scalar that starts here is not closed (${first.message})`,
      GENERIC_FIX,
    );
  }
  // `key: value` followed by a deeper-indented `other: x` reads as one two-line key that starts on the first line:
  // the slip is the indented line, where the key ends.
  const multiline = errors.find((e) => e.code === 'MULTILINE_IMPLICIT_KEY' && e.pos[0] === first.pos[0]);
  if (multiline) {
    const line = positionOf(lines, multiline.pos[1]).line;
    const text = source.split('\n')[line - 1] ?? '';
    return error(
      { line, column: text.length - text.trimStart().length + 1 },
      'invalid YAML: this line is indented deeper than the keys above it, so YAML reads it as part of the line above',
      'indent it like the keys above it',
    );
  }
  return error(positionOf(lines, first.pos[0]), `invalid YAML: ${first.message}`, FIXES[first.code] ?? GENERIC_FIX);
}
