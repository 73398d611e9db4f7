/**
 * Splits a VALIDATOR.md into YAML frontmatter and markdown body, parses the YAML (gray-matter's js-yaml engine) and
 * maps keys back to file positions so every schema problem can be reported at `file:line:col`.
 *
 * This module imports gray-matter: it is loaded only on a parse-cache miss, never on a warm hook call.
 */
import matter from 'gray-matter';

/** A problem found while reading a file, positioned in the file (1-based). */
export interface Problem {
  line: number;
  column: number;
  message: string;
  fix?: string;
  level: 'error' | 'warning';
}

/** A parsed VALIDATOR.md: frontmatter data, body and a key locator. */
export interface Frontmatter {
  /** The parsed YAML mapping (JSON-normalised: dates become ISO strings). */
  data: Record<string, unknown>;
  /** The markdown after the closing `---`. */
  body: string;
  /** File line (1-based) of the first body line. */
  bodyLine: number;
  /** Finds the position of a key path such as `['match', 'tools', 1]`. */
  locate: (path: ReadonlyArray<string | number>) => { line: number; column: number };
}

const FENCE = /^---[ \t]*$/;

/**
 * Parses `text` (the whole file). Returns the frontmatter, or a problem when the file has no frontmatter, the fence
 * is not closed, or the YAML is invalid (at the YAML error's own line).
 */
export function parseFrontmatter(text: string): Frontmatter | Problem {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = src.split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) {
    return problem(
      1,
      1,
      'no YAML frontmatter: a validator starts with a `---` line',
      'start the file with `---`, the frontmatter (name, description, severity, trigger), then `---` and the prompt',
    );
  }
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (FENCE.test(lines[i]!)) {
      close = i;
      break;
    }
  }
  if (close < 0) return problem(1, 1, 'frontmatter is not closed', 'add a `---` line after the last frontmatter key');
  const yamlLines = lines.slice(1, close);
  let parsed: unknown;
  try {
    // gray-matter's yaml engine is js-yaml's safeLoad: no custom tags, no code execution.
    parsed = (matter as unknown as { engines: { yaml: { parse: (s: string) => unknown } } }).engines.yaml.parse(
      yamlLines.join('\n'),
    );
  } catch (e) {
    const err = e as { reason?: string; mark?: { line: number; column: number }; message?: string };
    // YAML line 0 is file line 2 (after the opening fence).
    let at = { line: (err.mark?.line ?? 0) + 2, column: (err.mark?.column ?? 0) + 1 };
    // An unclosed quote is only noticed at the end of the stream: point at the quote that opened it.
    if (/quoted scalar/.test(err.reason ?? '')) at = openQuote(yamlLines) ?? at;
    if (at.line > close + 1) at = { line: close + 1, column: 1 };
    return problem(
      at.line,
      at.column,
      `invalid YAML: ${err.reason ?? err.message ?? String(e)}`,
      'fix the YAML syntax at this line (quote values containing `: `, `#`, `[` or `{`)',
    );
  }
  if (parsed === undefined || parsed === null) parsed = {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    return problem(
      2,
      1,
      'frontmatter must be a YAML mapping of keys to values',
      'write `key: value` lines such as `name: my-validator`',
    );
  }
  // JSON round trip: the same values whether they come from YAML now or from the JSON parse cache later.
  const data = JSON.parse(JSON.stringify(parsed)) as Record<string, unknown>;
  return {
    data,
    body: lines.slice(close + 1).join('\n'),
    bodyLine: close + 2,
    locate: (path) => locateKey(yamlLines, path),
  };
}

/** File position of the first value that opens a quote it does not close on the same line. */
function openQuote(yaml: string[]): { line: number; column: number } | undefined {
  for (let i = 0; i < yaml.length; i++) {
    const m = /^(\s*(?:-\s+)?(?:[^"'\s][^:]*:\s+)?)(["'])(.*)$/.exec(yaml[i]!);
    if (!m) continue;
    const q = m[2]!;
    const rest = m[3]!.replace(q === '"' ? /\\./g : /''/g, '');
    if (!rest.includes(q)) return { line: i + 2, column: m[1]!.length + 1 };
  }
  return undefined;
}

function problem(line: number, column: number, message: string, fix: string): Problem {
  return { line, column, message, fix, level: 'error' };
}

/** True when `x` is a Problem rather than parsed frontmatter. */
export function isProblem(x: Frontmatter | Problem): x is Problem {
  return (x as Problem).message !== undefined && (x as Frontmatter).data === undefined;
}

const indentOf = (s: string) => s.length - s.trimStart().length;
const isContent = (s: string) => s.trim() !== '' && !s.trimStart().startsWith('#');
const KEY = /^(["']?)([^"':#]+?)\1\s*:(?:\s|$)/;

/**
 * Best-effort position of a key path in block-style YAML: keys are found by indentation, list indexes by `- ` items.
 * For a flow-style value (`tools: [a, b]`) it returns the value's position on the key's line. Falls back to the
 * deepest position found, else line 2 column 1 (the first frontmatter line).
 */
function locateKey(yaml: string[], path: ReadonlyArray<string | number>): { line: number; column: number } {
  let best = { line: 2, column: 1 };
  let from = 0;
  let to = yaml.length;
  for (const seg of path) {
    // The children of the current scope are its content lines at the smallest indent found in it.
    let childIndent = Infinity;
    for (let i = from; i < to; i++) if (isContent(yaml[i]!)) childIndent = Math.min(childIndent, indentOf(yaml[i]!));
    let found = -1;
    let nth = -1;
    for (let i = from; i < to && found < 0; i++) {
      const l = yaml[i]!;
      if (!isContent(l) || indentOf(l) !== childIndent) continue;
      const t = l.trimStart();
      if (typeof seg === 'number') {
        if (t.startsWith('- ') || t === '-') nth++;
        if (nth === seg) found = i;
      } else if (KEY.exec(t)?.[2] === seg) {
        found = i;
      }
    }
    if (found < 0) return best;
    const l = yaml[found]!;
    const ind = indentOf(l);
    if (typeof seg === 'number') {
      best = { line: found + 2, column: ind + 3 };
    } else {
      const colon = l.indexOf(':', ind);
      const rest = l.slice(colon + 1);
      const inline = rest.trim() !== '' && !rest.trim().startsWith('#');
      best = { line: found + 2, column: inline ? colon + 2 + indentOf(rest) : ind + 1 };
    }
    // The next scope: following lines indented deeper, plus `- ` items at the key's own indent (`key:\n- a`).
    from = found + 1;
    to = from;
    while (to < yaml.length) {
      const n = yaml[to]!;
      if (isContent(n)) {
        const ni = indentOf(n);
        const sameIndentItem = typeof seg === 'string' && ni === ind && n.trimStart().startsWith('-');
        if (ni <= ind && !sameIndentItem) break;
      }
      to++;
    }
  }
  return best;
}
